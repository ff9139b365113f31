"""The chart pages are the TOML files the rules read, escaped, every value shown."""

from __future__ import annotations

import tomllib

from djebel.web import charts


def _leaves(data, out: list) -> list:
    if isinstance(data, dict):
        for v in data.values():
            _leaves(v, out)
    elif isinstance(data, list):
        for v in data:
            _leaves(v, out)
    else:
        out.append(data)
    return out


def test_every_chart_a1_to_c8_and_the_skirmish_files():
    algeria = [s for s in charts.CHARTS if s[0] in "abc" and s[1:].isdigit()]
    assert algeria == ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4",
                       "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"]
    assert {"catalog", "tables"} <= set(charts.CHARTS)
    assert charts.CHARTS["c3"].title.startswith("C.3 Combat Results Table")


def test_every_value_of_each_file_is_on_its_page():
    for chart in charts.CHARTS.values():
        html = charts.chart_html(chart)
        for leaf in _leaves(tomllib.loads(chart.text()), []):
            if isinstance(leaf, bool) or leaf == "":
                continue
            text = charts.escape(str(leaf))
            assert text in html, (chart.slug, leaf)


def test_key_comments_are_the_notes_and_text_is_escaped():
    head, notes = charts.comments('# A <b> chart\n[build]\ncost = 3   # Build <Cadre>\n')
    assert head == "A <b> chart" and notes[("build", "cost")] == "Build <Cadre>"
    html = charts.render({"build": {"cost": 3, "a": 1, "b": 2, "c": 4}}, notes)
    assert "Build &lt;Cadre&gt;" in html and "<Cadre>" not in html


def test_rules_notes_render_without_raw_html():
    html = charts.notes_html()
    assert html.startswith("<h1>Rules notes")
    assert "<script" not in html
