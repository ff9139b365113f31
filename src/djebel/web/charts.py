"""The charts at hand: every Algeria chart (A.1 to C.8), the skirmish catalog and tables,
rendered as pages from the same TOML files the rules read, and the rules notes.

The pages are plain HTML with no script or inline style (the app's Content-Security-
Policy allows neither); every value from a file is escaped.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from html import escape
from importlib import resources

from markdown_it import MarkdownIt


@dataclass(frozen=True)
class Chart:
    slug: str          # its address: /charts/{slug}
    package: str       # the package holding its data/ folder
    file: str

    def text(self) -> str:
        return resources.files(self.package).joinpath("data", self.file).read_text()

    @property
    def title(self) -> str:
        first = self.text().splitlines()[0].lstrip("# ").strip()
        return first.replace("# ", "").split(". ")[0].rstrip(".")


def _algeria() -> list[Chart]:
    files = sorted(p.name for p in resources.files("djebel.algeria").joinpath("data").iterdir()
                   if re.fullmatch(r"[abc]\d_\w+\.toml", p.name))
    return [Chart(f.split("_")[0], "djebel.algeria", f) for f in files]


CHARTS: dict[str, Chart] = {c.slug: c for c in
                            [*_algeria(),
                             Chart("catalog", "djebel.skirmish", "catalog.toml"),
                             Chart("tables", "djebel.skirmish", "tables.toml")]}
NOTES = "rules-notes"


def notes_html() -> str:
    """docs/rules-notes.md rendered (raw HTML in the markdown is shown as text)."""
    md = resources.files("djebel").joinpath("docs", "rules-notes.md").read_text()
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(md)


# ---------------------------------------------------------------- TOML to HTML
_SECTION = re.compile(r"^\s*\[\[?([^\]]+)\]\]?")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"]+)\s*=.*?#\s*(.+)$")


def comments(text: str) -> tuple[str, dict[tuple[str, str], str]]:
    """The file's leading comment block, and the comment after each ``key = value`` line
    (by section and key): the charts' own notes (``# Build Cadre or Band``)."""
    lines = text.splitlines()
    head = []
    for line in lines:
        if not line.startswith("#"):
            break
        head.append(line.lstrip("#").strip())
    notes: dict[tuple[str, str], str] = {}
    section = ""
    for line in lines:
        m = _SECTION.match(line)
        if m:
            section = m.group(1).strip()
            continue
        k = _KEY.match(line)
        if k and '"' not in line.split("#")[0].split("=", 1)[1]:
            notes[(section, k.group(1).strip('"'))] = k.group(2).strip()
    return " ".join(head), notes


def _scalar(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v):
        return ", ".join(_scalar(x) for x in v) if v else "-"
    if isinstance(v, list):
        return "; ".join(_scalar(x) for x in v) if v else "-"
    if isinstance(v, dict):
        return ", ".join(f"{k} {_scalar(x)}" for k, x in v.items()) or "-"
    return str(v)


def _is_grid(v) -> bool:
    return (isinstance(v, list) and len(v) > 1 and all(isinstance(r, list) for r in v)
            and all(not isinstance(x, (list, dict)) for r in v for x in r))


def _table_of_rows(rows: list[dict]) -> str:
    cols: list[str] = []
    for r in rows:
        cols += [k for k in r if k not in cols]
    head = "".join(f"<th>{escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{escape(_scalar(r.get(c, '')))}</td>" for c in cols)
                   + "</tr>" for r in rows)
    return f'<table class="chart"><tr>{head}</tr>{body}</table>'


def _grid(rows: list[list]) -> str:
    body = "".join(f"<tr><th>{i}</th>" + "".join(f"<td>{escape(_scalar(x))}</td>" for x in r)
                   + "</tr>" for i, r in enumerate(rows, start=1))
    return f'<table class="chart grid">{body}</table>'


def render(data: dict, notes: dict[tuple[str, str], str], path: str = "", depth: int = 2) -> str:
    """A TOML table as HTML: its plain values in one key/value/note table, then each
    sub-table under its own heading, arrays of tables as tables with a row each."""
    plain = []
    parts = []
    for key, v in data.items():
        where = f"{path}.{key}" if path else key
        if isinstance(v, dict) and any(isinstance(x, (dict, list)) for x in v.values()) \
                or isinstance(v, dict) and len(v) > 3:
            parts.append(f"<h{min(depth, 6)}>{escape(where)}</h{min(depth, 6)}>"
                         + render(v, notes, where, depth + 1))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            parts.append(f"<h{min(depth, 6)}>{escape(where)}</h{min(depth, 6)}>"
                         + _table_of_rows(v))
        elif _is_grid(v):
            parts.append(f"<h{min(depth, 6)}>{escape(where)}</h{min(depth, 6)}>" + _grid(v))
        else:
            plain.append((key, v, notes.get((path, key), "")))
    out = ""
    if plain:
        out = '<table class="chart kv">' + "".join(
            f"<tr><th>{escape(k)}</th><td>{escape(_scalar(v))}</td>"
            f'<td class="note">{escape(n)}</td></tr>' for k, v, n in plain) + "</table>"
    return out + "".join(parts)


def chart_html(chart: Chart) -> str:
    text = chart.text()
    head, notes = comments(text)
    return (f'<p class="chart-head">{escape(head)}</p>'
            + render(tomllib.loads(text), notes)
            + f'<p class="small">From <code>{escape(chart.package)}/data/{escape(chart.file)}'
            '</code>, the file the rules read.</p>')


def _short(slug: str) -> str:
    """``c3`` as the charts print it, ``C.3``; the skirmish files by name."""
    return f"{slug[0].upper()}.{slug[1:]}" if re.fullmatch(r"[abc]\d", slug) else slug


def page(title: str, body: str, heading: bool = True) -> str:
    nav = "".join(f'<a href="/charts/{escape(c.slug)}">{escape(_short(c.slug))}</a>'
                  for c in CHARTS.values())
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)} - djebel</title>"
            '<link rel="icon" href="/favicon.ico">'
            '<link rel="stylesheet" href="/static/style.css">'
            '<link rel="stylesheet" href="/static/charts.css"></head><body>'
            '<header><a href="/" class="brand">djebel</a>'
            '<span class="tag">charts and tables</span></header>'
            f'<nav class="charts-nav"><a href="/charts">all</a>{nav}'
            f'<a href="/charts/{NOTES}">rules notes</a></nav>'
            f'<main class="charts-page">{f"<h1>{escape(title)}</h1>" if heading else ""}'
            f"{body}</main></body></html>")


def index_html() -> str:
    rows = "".join(f'<li><a href="/charts/{escape(c.slug)}">{escape(c.title)}</a></li>'
                   for c in CHARTS.values())
    return page("Charts", f'<ul class="chart-list">{rows}<li><a href="/charts/{NOTES}">'
                          "Rules notes: how djebel reads the rules</a></li></ul>")
