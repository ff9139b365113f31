"""Positions (FEN-like JSON) and scripted dice: the way tests and bug reports start."""

import json
import random

import pytest

from djebel.algeria.position import from_position, to_position
from djebel.algeria.position_checks import describable
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
    while not describable(g.state.stack):
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


def _with(**areas_and_fields):
    """ALGIERS_STRIKE with some areas or top-level fields replaced."""
    pos = json.loads(json.dumps(ALGIERS_STRIKE))
    pos["areas"].update(areas_and_fields.pop("areas", {}))
    pos.update(areas_and_fields)
    return pos


@pytest.mark.parametrize("bad, field, rule", [
    # 2.2-1: UG for the FLN, PTL for the Government; 2.2-5: Police always in PTL.
    (_with(areas={"II-1": {"UG": ["police"]}}), "areas.II-1.UG[0]", "2.2-1"),
    (_with(areas={"II-1": {"PTL": ["band"]}}), "areas.II-1.PTL[0]", "2.2-1"),
    (_with(areas={"II-1": {"OPS": ["police"]}}), "areas.II-1.OPS[0]", "2.2-5"),
    # 11.22-1/-2: no Government unit in France, at most one Cadre, nothing else.
    (_with(areas={"FRANCE": {"OPS": ["fr_x!"]}}), "areas.FRANCE.OPS[0]", "11.22-1"),
    (_with(areas={"FRANCE": {"UG": ["cadre", "cadre"]}}), "areas.FRANCE.UG[1]", "11.22-2"),
    (_with(areas={"FRANCE": {"UG": ["band"]}}), "areas.FRANCE.UG[0]", "11.22-2"),
    # 2.2-8 / 11.21: Morocco and Tunisia: never Government units; FLN only after
    # independence; no Front there (6.2-2); never neutralized (INT-61).
    (_with(areas={"MOROCCO": {"OPS": ["el_x!"]}}), "areas.MOROCCO.OPS[0]", "2.2-8"),
    (_with(scenario="1954", areas={"TUNISIA": {"UG": ["band"]}}), "areas.TUNISIA.UG[0]",
     "11.21-1"),
    (_with(areas={"TUNISIA": {"UG": ["front"]}}), "areas.TUNISIA.UG[0]", "6.2-2"),
    (_with(areas={"TUNISIA": {"UG": ["band*"]}}), "areas.TUNISIA.UG[0]", "INT-61"),
    # 6.2-2 (and 3-4): one Front per area, none in a Remote area, resettled ones included.
    (_with(areas={"ALGIERS": {"UG": ["front"], "OPS": ["front"]}}), "areas.ALGIERS.OPS[0]",
     "6.2-2"),
    (_with(areas={"I-2": {"UG": ["front"]}}), "areas.I-2.UG[0]", "6.2-2"),
    (_with(areas={"II-1": {"resettled": True, "UG": ["front"]}}), "areas.II-1.UG[0]", "6.2-2"),
    # Marks: modes for divisions (11.7-1), airmobility for brigades (11.12-1),
    # activation for Government mobile units (6.32-1).
    (_with(areas={"II-1": {"OC": ["el_x~"]}}), "areas.II-1.OC[0]", "11.7-1"),
    (_with(areas={"II-1": {"OC": ["fr_xx^"]}}), "areas.II-1.OC[0]", "11.12-1"),
    (_with(areas={"II-1": {"UG": ["band!"]}}), "areas.II-1.UG[0]", "6.32-1"),
    # 6.32-1 / 2.3-3: in the Operations Phase a unit in OPS was activated, and is not
    # neutralized; 11.12-5: no airmobile unit at the Reinforcement Phase.
    (_with(areas={"II-1": {"OPS": ["fr_x"]}}), "areas.II-1.OPS[0]", "6.32-1"),
    (_with(areas={"II-1": {"PTL": ["fr_x!*"]}}), "areas.II-1.PTL[0]", "2.3-3"),
    (_with(phase="reinforcement", areas={"ALGIERS": {"UG": ["front"]},
                                         "II-1": {"OC": ["el_x^"]}}), "areas.II-1.OC[0]",
     "11.12-5"),
    # 10.3-1: the FLN reinforces with its units in Algeria in UG.
    (_with(phase="reinforcement"), "areas.ALGIERS.OPS[0]", "10.3-1"),
    # 13.1-2: no dispersed division under Slow French Reaction; 13.1-1 needs the option.
    (_with(scenario="1954", slow_french=True, options={"slow_french_reaction": True},
           areas={"II-1": {"OC": ["fr_xx~"]}}), "areas.II-1.OC[0]", "13.1-2"),
    (_with(scenario="1954", slow_french=True), "slow_french", "13.1-1"),
    # 3-5: 1958 and 1960 start with independence; 6.33-1: the Border Zone needs it.
    (_with(independent=False), "independent", "3-5"),
    (_with(scenario="1954", border_zone={"drm": -1}), "border_zone", "6.33-1"),
    # 11.3: the OAS in an Urban area or France, controlled by one side.
    (_with(oas={"where": "ALGIERS", "controller": "martians"}), "oas.controller", "11.3-1"),
    (_with(oas={"where": "II-1"}), "oas.where", "11.3-2"),
    # Off the map: NATO takes French divisions and brigades, Suez and the coup elites.
    (_with(nato=["police"]), "nato[0]", "C.2 (55-56)"),
    (_with(removed=["band"]), "removed[0]", "11.4-4"),
    (_with(scenario="1954", suez=[["fr_x", "II-1"]]), "suez[0]", "C.2 (61-62)"),
    (_with(suez=[["el_x", "II-1"]]), "suez", "INT-08"),
    # Markers only where the rules put them (10.1-1, 11.5-1, 9.27-1).
    (_with(areas={"FRANCE": {"control": "fln"}}), "areas.FRANCE.control", "10.1-1"),
    (_with(areas={"MOROCCO": {"terror": True}}), "areas.MOROCCO.terror", "11.5-1"),
    (_with(areas={"ALGIERS": {"resettled": True}}), "areas.ALGIERS.resettled", "9.27-1"),
    # 12.2-1: a PSL at 0 has ended the game.
    (_with(gov_psl=0), "gov_psl", "12.2-1"),
    # 4: the next turn at the bottom of the stack; frames of a combat are not positions.
    (_with(stack=[["ops_fln", "fln"]]), "stack[0]", "4"),
    (_with(stack=[["turn_start"], ["take_hit", "fln"]]), "stack[1]", "9-6"),
])
def test_impossible_position_names_the_field_and_the_rule(bad, field, rule):
    with pytest.raises(ScenarioError) as err:
        from_position(bad)
    assert f"field '{field}'" in str(err.value)
    assert str(err.value).endswith(f"[rule {rule}]")


@pytest.mark.parametrize("bad, field", [
    (_with(suez="el_x"), "suez"),                          # neither a list nor an object
    (_with(stack=[["turn_start"], ["lunch", "fln"]]), "stack[1]"),
    (_with(stack=[["turn_start"], ["move_to", "fln", 9999]]), "stack[1][2]"),
    (_with(stack=[["turn_start"], ["ops_fln", "gov"]]), "stack[1][1]"),
    (_with(stack=[["turn_start"], ["ops_fln"]]), "stack[1]"),
    (_with(stack=[]), "stack"),
    (_with(areas={"ALGIERS": {"PATROL": ["police"]}}), "areas.ALGIERS.PATROL"),
    (_with(areas={"ALGIERS": {"control": ["fln"]}}), "areas.ALGIERS.control"),
    (_with(areas={"ALGIERS": {"UG": "cadre"}}), "areas.ALGIERS.UG"),
    (_with(areas={"ALGIERS": {"UG": ["cadre1", "cadre1"]}}), "areas.ALGIERS.UG[1]"),
    (_with(terror="yes"), "terror"),
    (_with(amnesty="no"), "amnesty"),
    (_with(options="shorter_game"), "options"),
    (_with(phase=["operations"]), "phase"),
    (_with(fln_psi=50), "fln_psi"),
])
def test_malformed_position_names_the_field(bad, field):
    with pytest.raises(ScenarioError) as err:
        from_position(bad)
    assert f"field '{field}'" in str(err.value)


def test_named_counters_keep_their_identity():
    # "cadre1" is that counter, wherever it is listed; a type takes the first free one.
    pos = _with(areas={"ALGIERS": {"OPS": ["front", "cadre"], "PTL": ["police"]},
                       "II-1": {"UG": ["cadre1"]}})
    g = from_position(pos)
    assert "propaganda cadre2" in {str(a) for a in g.legal_actions()}
    out = to_position(g)
    assert out["areas"]["ALGIERS"]["OPS"] == ["cadre2", "front1"]
    assert out["areas"]["II-1"]["UG"] == ["cadre1"]


def test_suez_elites_round_trip():
    # C.2 (61-62): two elites of one type at Suez, each with the area it returns to.
    pos = _with(scenario="1954", independent=False, suez=[["el_x", "II-1"], ["el_x", "V-1"]])
    g = from_position(pos)
    assert g.state.suez_used == 2          # they left this turn: back next turn (DIS-18)
    assert to_position(g)["suez"] == [["el_x1", "II-1"], ["el_x2", "V-1"]]


@pytest.mark.parametrize("extra, field", [
    ({"air": {"x": 1}}, "air.x"), ({"helo": {"max": 2, "avail": 1}}, "helo.avail"),
    ({"border_zone": {"a": {"b": [1e308]}}}, "border_zone.a"),
])
def test_unknown_keys_of_a_sub_object_are_refused(extra, field):
    """A misspelt key would silently mean its default: it names the field instead."""
    with pytest.raises(ScenarioError, match=f"field '{field}': unknown field"):
        from_position({"scenario": "1958", "turn": 2, "phase": "operations", **extra})
