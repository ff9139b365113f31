"""The terminal as a player sees it, through a pseudo-terminal (pexpect): the change
summary instead of the whole board, the action list filtered by typed text, forced
choices applied at once, refusals with their rule, Harass odds with the Air Points."""

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")
ENV = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "120", "TERM": "dumb"}

# The terminal as ``djebel play algeria`` wires it, from a position (JSON) and a seed;
# the GOV is the heuristic bot unless ``gov_human``.
DRIVER = """
import json, sys
from rich.console import Console
from djebel.agents import make_agent
from djebel.algeria.position import from_position
from djebel.algeria.text import changes, describe, digest, where
from djebel.odds.algeria import describe as odds
from djebel.terminal import play
g = from_position(json.loads(sys.argv[1]), seed=int(sys.argv[2]))
gov = None if sys.argv[3] == "human" else make_agent("heuristic", "algeria", "gov", 2)
sys.exit(play(g, {"fln": None, "gov": gov}, lambda g: describe(g.state),
              Console(highlight=False), odds=odds, digest=digest, auto=sys.argv[4] == "1",
              where=where,
              summary=lambda a, b: changes(a.state, b.state)))
"""


def position(areas: dict, air: int, **more) -> dict:
    return {"scenario": "1958", "turn": 2, "phase": "operations", "ap": 4,
            "air": {"max": max(air, 1), "available": air}, "areas": areas, **more}


def spawn(args: list[str]) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, args, env=ENV, encoding="utf-8", timeout=20,
                          dimensions=(50, 120))
    return child


def harass(air: int, auto: bool = True) -> pexpect.spawn:
    """A Harass (9.15): one Band and one Police unit in II-1, the GOV with ``air`` Air
    Points available (11.11-2)."""
    pos = position({"II-1": {"OPS": ["band"], "PTL": ["police"]}}, air)
    return spawn(["-c", DRIVER, json.dumps(pos), "1", "bot", "1" if auto else "0"])


def cli_1958() -> pexpect.spawn:
    """``djebel play algeria`` as the Government against the heuristic FLN."""
    child = spawn(["-m", "djebel.cli", "play", "algeria", "--scenario", "1958", "--seed", "3",
                   "--fln", "heuristic", "--gov", "human"])
    child.expect("GOV> ")
    return child


def seen(child: pexpect.spawn) -> str:
    """What was printed before the last match, lines re-joined (the console wraps)."""
    return " ".join(child.before.split())


def quit_(child: pexpect.spawn) -> None:
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_typed_text_lists_the_matching_actions_numbered():
    child = cli_1958()
    child.sendline("place auto")
    child.expect("GOV reinforcement: PSL 50")
    child.expect("GOV> ")
    child.sendline("mob")
    child.expect("GOV> ")
    shown = seen(child)
    assert "4 actions match 'mob':" in shown
    # the mobilizations with their numbers in the whole list, and nothing else
    for line in ("1. mobilize fr_xx", "2. mobilize fr_x", "3. mobilize al_x",
                 "4. mobilize police"):
        assert line in shown
    assert "activate" not in shown and "buy air" not in shown
    child.sendline("3")                         # the number from the filtered list works
    child.expect("where does the new al_x go")
    child.expect("GOV> ")
    child.sendline("II-1")                      # a word prefix: II-1, not III-1
    child.expect("GOV> ")
    assert "1 action matches 'II-1':" in seen(child) and "III-1" not in seen(child)
    quit_(child)


def test_after_a_decision_only_the_changes_are_shown_and_board_shows_all():
    child = cli_1958()
    assert "Turn 0 setup" in seen(child) and "Border Zone -2 inactive" in seen(child)  # 6.33
    child.sendline("place auto")
    child.expect("GOV> ")
    after = seen(child)
    # the set-up placed every unit: listed briefly, not the board's area lines
    assert "new: fr_xx1 I-3 OPS, fr_xx2 I-1 OPS" in after and "more ('board' shows all)" in after
    assert "Border Zone -2 inactive" not in after
    # the bot's 27 placements in one line, not a line each
    assert "FLN: place front I-4; place cadre I-1; place cadre I-1;" in after
    assert "and 15 more ('log' shows them)" in after and "FLN: place cadre I-1" not in after
    child.sendline("board")
    child.expect("GOV> ")
    assert "Border Zone -2 inactive" in seen(child) and "I-1" in seen(child)
    child.sendline("buy air")
    child.expect("GOV> ")
    assert "GOV PSL 50 -> 48; Air 6 -> 7" in seen(child) and "Border Zone" not in seen(child)
    quit_(child)


def test_forced_choices_are_applied_at_once_and_no_auto_waits():
    child = harass(air=0)
    child.expect("FLN> ")
    child.sendline("harass band1")
    # 9.15: 'go' (no other unit can join) and the only target follow at once
    child.expect("only choice, applied: go")
    child.expect("odds: Harass police1")
    child.expect("only choice, applied: target police1")
    child.expect("FLN> ")
    quit_(child)
    child = harass(air=0, auto=False)
    child.expect("FLN> ")
    child.sendline("harass band1")
    child.expect("FLN> ")
    assert "units joining the Harass in II-1" in seen(child)
    assert "only choice" not in seen(child)
    quit_(child)


@pytest.mark.parametrize("air", [0, 2])
def test_harass_odds_show_each_number_of_air_points(air):
    child = harass(air=air, auto=False)
    child.expect("FLN> ")
    child.sendline("harass band1")
    child.expect("FLN> ")
    child.sendline("go")
    child.expect("FLN> ")
    child.sendline("target police1")
    child.expect(r"carry it out\? \[Y/n\] ")
    line = seen(child)
    # C.3 with firepower 2, and the return fire 1 (half) with 0, 1, 2 x 1d6 (11.11-2)
    assert "FLN fire 2: hits 0:50% 1:33% 2:17%; return fire 1 (half): hits 0:83% 1:17%" in line
    if air:
        assert ("if the GOV adds Air Points: +1 Air: hits 0:25% 1:33% 2:33% 3:8%; "
                "+2 Air: hits 0:4% 1:26% 2:33% 3:22% 4:7% 5:7%") in line
    else:
        assert "Air Points" not in line
    child.sendline("n")
    child.expect("FLN> ")
    quit_(child)


def test_the_interphase_is_summarized_in_a_few_lines():
    """10.1 control (the rolled area's outcome), 10.11 depreciation, 10.2 recovery: a
    line each, where the log tail showed only its last 25 lines."""
    pos = position({"II-1": {"UG": ["band", "band", "band", "cadre*"], "OC": ["fr_x", "fr_x"]},
                    "II-2": {"UG": ["band*"]}}, air=3)
    child = spawn(["-c", DRIVER, json.dumps(pos), "10", "human", "1"])
    child.expect("FLN> ")
    child.sendline("pass")
    child.expect("GOV> ")              # the GOV may only pass: applied, then Turn 3
    text = seen(child)
    assert "only choice, applied: pass" in text
    assert ("Interphase control (10.1): FLN 1 areas, GOV 0 areas; rolled: II-1 FLN "
            "Depreciation (10.11) of 3 Air Points, 4 AP: Air Points -1 "
            "Recovery (10.2): band4, cadre1 recovered") in text
    assert "Control of II-1" not in text           # the rolls stay in the log
    assert "control: II-1 contested -> FLN" in text and "Air 3 -> 2" in text
    child.sendline("log 20")
    child.expect("GOV> ")
    assert "(10.1) Control of II-1 (3 v 2, need <= 1)" in seen(child)
    quit_(child)


REACT_AREAS = {"II-1": {"OPS": ["cadre"], "PTL": ["police", "al_x!"]},
               "II-2": {"OPS": ["el_x!^"]}}


@pytest.mark.parametrize("air", [0, 1])
def test_propaganda_odds_show_each_react_the_government_may_choose(air):
    """8-6, 9.23: after the Propaganda the GOV may React with the Algerian brigade in the
    area or the airmobile elite brigade from II-2 (11.12-4), each with 0..air Air Points
    (11.11-2); the cadre evades on 1d6 <= 4 (9.23-3)."""
    pos = position(REACT_AREAS, air)
    child = spawn(["-c", DRIVER, json.dumps(pos), "1", "bot", "0"])
    child.expect("FLN> ")
    child.sendline("propaganda cadre1")
    child.expect(r"carry it out\? \[Y/n\] ")
    line = seen(child)
    assert ("Propaganda in II-1: MST DRM -2 -> 0+:33% 1+:17% 1:33% 2:17% (mean N 0.83); "
            "if the GOV reacts (9.23): cadre1 evades 67%; if not evaded: FLN fire 1: hits "
            "0:83% 1:17%; GOV fire 5 (al_x1): hits 1:33% 2:50% 3:17%") in line
    if air:
        assert ("GOV fire 5 (al_x1): hits 1:33% 2:50% 3:17%; +1 Air: hits 1:25% 2:33% "
                "3:25% 4:8% 5:8%; GOV fire 9 (el_x1) (+0-1 Air): hits 1:17% 2:17% 3:33% "
                "4:17% 5:17%") in line
    else:
        assert "Air" not in line and "GOV fire 9 (el_x1): hits 1:17% 2:17% 3:33%" in line
    child.sendline("n")
    child.expect("FLN> ")
    quit_(child)


def test_refusals_of_helpers_and_government_choices_say_reason_and_rule():
    """9.15-2 / DIS-19: a Band may not join a Band's Harass; 6.31-4: only Police leave the
    map in the Government reinforcement; 6.32-2: Algerian brigades need no activation."""
    pos = position({"II-1": {"OPS": ["band", "band"], "PTL": ["police"]}}, 0)
    child = spawn(["-c", DRIVER, json.dumps(pos), "1", "bot", "0"])
    child.expect("FLN> ")
    child.sendline("harass band1")
    child.expect("FLN> ")
    child.sendline("add band2")
    child.expect("FLN> ")
    assert ("units harass singly unless a Failek harasses: add a Failek first (DIS-19) "
            "[rule 9.15-2]") in seen(child)
    quit_(child)
    child = cli_1958()
    child.sendline("place auto")
    child.expect("GOV reinforcement: PSL")
    child.expect("GOV> ")
    child.sendline("remove fr_x1")
    child.expect("GOV> ")
    assert "only Police leave the map here (fr_x1 is not Police) [rule 6.31-4]" in seen(child)
    child.sendline("activate al_x1")
    child.expect("GOV> ")
    assert ("only French mobile units are activated (al_x1 needs none) [rule 6.32-2]"
            in seen(child))
    quit_(child)


def test_listed_actions_say_where_their_unit_is():
    """A listed action that names a unit and no area says the unit's area; the notation
    to type is the action's own."""
    pos = position({"II-1": {"OPS": ["band"], "PTL": ["police"]},
                    "ALGIERS": {"OPS": ["cadre"]}}, 0)
    child = spawn(["-c", DRIVER, json.dumps(pos), "1", "bot", "1"])
    child.expect("FLN> ")
    shown = seen(child)
    assert "harass band1 @II-1" in shown and "propaganda cadre1 @ALGIERS" in shown
    assert "handover @" not in shown
    child.sendline("propaganda cadre1")
    child.expect(r"carry it out\? \[Y/n\] ")
    assert "Propaganda in ALGIERS" in seen(child)
    child.sendline("n")
    child.expect("FLN> ")
    quit_(child)
