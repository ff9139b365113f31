"""What the board and the table are drawn from: the APP-6 symbol table, the action texts
with area names, the ruler's line of sight, the skirmish set-up prompt and title."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from djebel.algeria import new_game as algeria_game
from djebel.algeria.board import AREA_INDEX, TYPE_KEYS, UNIT_INDEX
from djebel.core.actions import Action
from djebel.core.errors import IllegalAction, ScenarioError
from djebel.skirmish.catalog import catalog
from djebel.web import symbols, views
from djebel.web.service import new_game

# the ambush as the rules specification prints it (4.1): its lines of sight and set-up
# zones are what the view tests below check
AMBUSH_AS_PRINTED = str(Path(__file__).parents[1] / "fixtures" / "ambush_as_printed.toml")


def test_every_unit_type_and_catalog_element_has_its_symbol():
    t = symbols.table()
    assert set(t["algeria"]) == set(TYPE_KEYS)
    assert set(t["skirmish"]) == set(catalog())
    # a few choices the table explains
    assert t["algeria"]["el_x"] == {"fn": "airborne", "echelon": "brigade", "mobility": "",
                                    "hq": False, "letter": ""}
    assert t["algeria"]["fr_xx"]["echelon"] == "division"
    assert t["algeria"]["band"]["fn"] == "guerrilla" and t["algeria"]["front"]["hq"]
    assert t["skirmish"]["t72"] == {"fn": "armour", "echelon": "", "mobility": "tracked",
                                    "hq": False, "letter": ""}
    assert t["skirmish"]["attack_helo"]["fn"] == "rotary_wing"


def test_every_symbol_row_says_why():
    text = resources.files("djebel.web").joinpath("data", "symbols.toml").read_text()
    rows = text.split("\n[")[1:]
    assert len(rows) == len(TYPE_KEYS) + len(catalog())
    for row in rows:
        lines = row.splitlines()
        assert lines[1].startswith("# "), f"[{lines[0]} has no comment"


@pytest.mark.parametrize("row, error", [
    ({"function": "cavalry", "echelon": "company"}, "[algeria.band]: function 'cavalry'"),
    ({"function": "infantry", "echelon": "corps"}, "[algeria.band]: echelon 'corps'"),
    ({"function": "infantry", "mobility": "legs"}, "[algeria.band]: mobility 'legs'"),
    ({"function": "infantry", "colour": "red"}, "[algeria.band]: unknown field 'colour'"),
    ({"function": "infantry", "letter": "ABC"}, "[algeria.band]: letter must be"),
])
def test_a_bad_symbol_row_is_named(row, error):
    with pytest.raises(ScenarioError, match=None) as exc:
        symbols.parse({"algeria": {"band": row}, "skirmish": {}}, "symbols.toml")
    assert str(exc.value).startswith("symbols.toml: " + error)


def test_the_board_sends_the_symbols():
    g = algeria_game("1958", seed=7)
    b = views.algeria_board(g)
    assert b["types"]["police"]["symbol"]["fn"] == "police"
    s = new_game("skirmish", AMBUSH_AS_PRINTED, 5, {}, True)
    els = {e["label"]: e for e in views.skirmish_board(s)["elements"]}
    assert els["F1"]["symbol"]["fn"] == "armoured_recon"          # the Panhard
    assert els["HA"]["passengers"] == ["F2"] and els["F2"]["embarked_in"] == "HA"


def test_actions_show_area_names_and_keep_the_notation():
    g = algeria_game("1958", seed=7)
    a = views.describe_action(g, Action.parse("place fr_xx I-1 dispersed"))
    assert a["text"] == "place fr_xx I-1 dispersed"
    assert a["label"] == "place fr_xx Barika (I-1) dispersed"
    g.state.loc[UNIT_INDEX["cadre2"]] = AREA_INDEX["ALGIERS"]
    a = views.describe_action(g, Action.parse("propaganda cadre2"))
    assert a["text"] == "propaganda cadre2"
    assert a["label"] == "propaganda cadre2 in Algiers (ALGIERS)"
    # every legal action keeps its notation as text
    for d in views.described_actions(g):
        assert d["text"] in {str(x) for x in g.legal_actions()}


def test_ruler_line_of_sight_names_the_blocking_terrain():
    # D33.3: the buildings b1, b2 and b3 of the ambush stand across y = 76
    g = new_game("skirmish", AMBUSH_AS_PRINTED, 5, {}, True)
    r = views.ruler(g, 30, 76, 90, 76)
    assert r["distance"] == 60.0 and not r["clear"]
    assert [f["id"] for f in r["blocking"]] == ["b1", "b2", "b3"]
    r = views.ruler(g, 30, 50, 90, 30)
    assert r == {"from": [30, 50], "to": [90, 30], "distance": 63.2, "clear": True,
                 "blocking": []}
    with pytest.raises(IllegalAction, match=r"\(130, 50\) is off the 122 x 122 cm table"):
        views.ruler(g, 130, 50, 90, 30)


def test_ruler_between_elements_says_who_sees_whom():
    g = new_game("skirmish", AMBUSH_AS_PRINTED, 5, {}, True)
    # D33.3: b2 stands between the Panhard F1 and the SAM team I5
    r = views.ruler_between(g, "F1", "I5")
    assert (r["distance"], r["clear"], r["sees"], r["civilians"]) == (29.1, False, False, False)
    assert r["blocking"] == [{"id": "b2", "kind": "building"}] and r["ends"] == ["F1", "I5"]
    # D76: the centre line to I3 is clear of terrain, but civilians hide it from the French
    r = views.ruler_between(g, "F1", "I3")
    assert (r["clear"], r["sees"], r["civilians"]) == (True, False, True)
    assert views.ruler_between(g, "F1", "I1")["sees"] and "I1" in views.sight(g, "F1")
    with pytest.raises(IllegalAction, match="F2 is not on the table"):
        views.ruler_between(g, "F1", "F2")                        # F2 rides in HA
    with pytest.raises(IllegalAction):
        views.ruler_between(g, "F1", "ZZ")


def test_set_up_prompt_and_title_of_a_side_with_fixed_positions():
    # spec 4: the French of the ambush have no set-up zone, the insurgents have
    g = new_game("skirmish", AMBUSH_AS_PRINTED, 5, {}, True)
    assert g.prompt() == "set-up: the french start where the scenario places them; 'ready'"
    assert [str(a) for a in g.legal_actions()] == ["ready"]
    b = views.skirmish_board(g)
    assert b["setup"] == "french" and b["phasing"] == "insurgents"
    g.apply("ready")
    assert g.prompt().startswith("set-up: insurgents may place I1, I2, ")
    place = next(a for a in g.legal_actions() if a.verb == "place")
    assert g.prompt().endswith("in their zones ('place I1 x y face F'), then 'ready'")
    g.apply(place)                                  # what the prompt offers is accepted
    assert views.skirmish_board(g)["setup"] == "insurgents"


def test_symbols_file_is_valid_toml():
    text = resources.files("djebel.web").joinpath("data", "symbols.toml").read_text()
    assert symbols.parse(tomllib.loads(text)) == symbols.table()


_AMBUSH = new_game("skirmish", AMBUSH_AS_PRINTED, 5, {}, True)
_cm = st.floats(min_value=0, max_value=122, allow_nan=False).map(lambda v: round(v, 1))


@settings(max_examples=150, deadline=None)
@given(_cm, _cm, _cm, _cm)
def test_ruler_agrees_with_the_engine_both_ways(x0, y0, x1, y1):
    # D33.3: the ruler's line is blocked exactly when the engine's ground line is, by the
    # same features whichever end it is laid from
    from djebel.skirmish.geometry import _segment_blocked

    g = _AMBUSH
    there, back = views.ruler(g, x0, y0, x1, y1), views.ruler(g, x1, y1, x0, y0)
    assert there["blocking"] == back["blocking"]
    assert there["clear"] == (not _segment_blocked(g.terrain, (x0, y0), (x1, y1), False))
    assert there["distance"] == round(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, 1)
