"""Positions (FEN-like JSON) and scripted dice: the way tests and bug reports start."""

import json
import random

import pytest

from djebel.algeria.position import from_position, to_position
from djebel.algeria.position_checks import NOT_IN_POSITIONS
from djebel.core.conformance import random_playout
from djebel.core.errors import ScenarioError
from djebel.core.records import make_record, verify_record

ALGIERS_STRIKE = {
    "scenario": "1958", "turn": 2, "phase": "operations", "fln_psl": 55, "gov_psl": 48, "ap": 7,
    "areas": {"ALGIERS": {"control": "fln", "UG": ["cadre"], "OPS": ["front", "cadre"],
                          "PTL": ["police"]}},
}


def test_position_starts_at_the_named_phase():
    g = from_position(ALGIERS_STRIKE, seed=3)
    assert g.active_side == "fln"
    assert g.decision() == "ops_fln"
    assert {str(a) for a in g.legal_actions()} == {
        "propaganda front1", "strike front1", "propaganda cadre2", "move cadre2",
        "handover", "pass"}


def test_9_12_strike_from_a_position_with_scripted_dice():
    # 9.12: Front + 1 assisting Cadre (+1), 1 Police on Patrol (-1): roll 6 -> 3@ -> 3d6 PSP;
    # no Government unit can React, so 9.12-7 costs the Government 1d6 (the 5).
    g = from_position(ALGIERS_STRIKE, dice_script=(6, 2, 3, 4, 5))
    g.apply("strike front1")
    g.apply("assist cadre2")
    g.apply("go")
    s = g.state
    assert s.ap == 4                           # 3 AP paid
    # @: the Police unit in Algiers is neutralized: 9 PSP + 1 for the Police (DIS-13).
    assert g.decision() == "share"
    assert str(g.legal_actions()[0]) == "psp 10"
    g.apply("psp 10")
    assert s.fln_psl == 65 and s.gov_psl == 48 - 5
    assert g.decision() == "ops_fln"


def test_position_round_trip_and_record_replay():
    g = from_position(ALGIERS_STRIKE, seed=9)
    random_playout(g, random.Random(9))
    rec = json.loads(json.dumps(make_record(g)))
    assert verify_record(rec).state_hash() == g.state_hash()


def test_position_round_trip_mid_game():
    # to_position() of a game in progress reads back to the same units, tracks and
    # pending decision (stopped where no combat is under way: positions hold none).
    g = from_position(ALGIERS_STRIKE, seed=9)
    rng = random.Random(9)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    while any(f[0] in NOT_IN_POSITIONS for f in g.state.stack):
        g.apply(g.legal_actions()[0])
    pos = json.loads(json.dumps(to_position(g)))
    again = from_position(pos, seed=9)
    assert to_position(again) == pos
    assert again.decision() == g.decision()


@pytest.mark.parametrize("bad, field", [
    ({"areas": {"ATLANTIS": {}}}, "areas.ATLANTIS"),
    ({"areas": {"II-1": {"UG": ["tank"]}}}, "areas.II-1.UG[0]"),
    ({"fln_psl": 120}, "fln_psl"),
    ({"phase": "lunch"}, "phase"),
    ({"areas": {"II-1": {"OPS": ["front"] * 17}}}, "areas.II-1.OPS[16]"),
])
def test_bad_position_names_the_field(bad, field):
    with pytest.raises(ScenarioError) as err:
        from_position(bad)
    assert f"field '{field}'" in str(err.value)
