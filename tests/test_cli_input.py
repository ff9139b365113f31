"""Bad records at the command line: one line naming the file, the field and the rule,
exit status 2, and text shown as typed (no markup swallowed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from djebel import algeria, skirmish
from djebel.algeria.position import from_position
from djebel.core.errors import RecordError, ScenarioError
from djebel.core.records import check_final_hash, game_from_record, make_record

sys.path.insert(0, str(Path(__file__).parent))
from cli_helpers import run_cli  # noqa: E402

START = {"scenario": "1958", "turn": 2, "phase": "operations",
         "areas": {"ALGIERS": {"OPS": ["front", "cadre"], "PTL": ["police"]}}}


def _record(tmp_path, name="rec.json", position=None, edit_start=None, **fields):
    """A record of a few actions, saved with some fields replaced."""
    game = from_position(position, seed=3) if position else algeria.new_game("1958", seed=3)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    rec = make_record(game, full=True)      # with its seed, so a dice script applies
    if edit_start:
        rec["start"] = {**rec["start"], **edit_start}
    rec.update(fields)
    path = tmp_path / name
    path.write_text(json.dumps(rec))
    return str(path)


def _one_error_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), text
    return lines[0]


@pytest.mark.parametrize("fields, expect", [
    ({"options": "shorter_game"}, "field 'options' must be an object"),
    # A script may hold faces up to the largest die Algeria rolls (the set-up's d9 in
    # wilaya V); the 7 is refused by the first roll it meets, the 3-3 2d6.
    ({"dice_script": [7]}, "field 'dice_script[0]': scripted roll 7 is not a face of the "
                           "d6 rolled"),
    ({"dice_script": ["4"]}, "field 'dice_script[0]': expected a die face 1..9, found '4'"),
    ({"dice_script": "6,6"}, "field 'dice_script' must be a list"),
    ({"game": ["algeria"]}, "field 'game' must be a game name"),
    ({"start": [1, 2]}, "field 'start' must be a position"),
    ({"final_hash": "0" * 32}, "field 'final_hash': replay ends in state"),
])
def test_replay_verify_of_a_bad_record_is_one_line_and_status_2(tmp_path, fields, expect):
    path = _record(tmp_path, **fields)
    code, text = run_cli("replay", path, "--verify")
    assert code == 2
    line = _one_error_line(text)
    assert line.startswith(f"error: {path}: ") and expect in line


@pytest.mark.parametrize("start, expect", [
    ({"suez": ["el_x"]}, "field 'start.suez': expected"),
    ({"stack": [["turn_start"], ["lunch", "fln"]]}, "field 'start.stack[1]': unknown frame"),
    ({"areas": {"ALGIERS": {"UG": ["police"]}}},
     "field 'start.areas.ALGIERS.UG[0]': police in an UG box: UG is for FLN units only "
     "[rule 2.2-1]"),
    ({"areas": {"ALGIERS": {"PATROL": ["police"]}}}, "field 'start.areas.ALGIERS.PATROL'"),
    ({"oas": {"where": "ORAN", "controller": "martians"}},
     "field 'start.oas.controller': expected fln or gov, found 'martians' [rule 11.3-1]"),
])
def test_replay_verify_of_a_bad_start_position_names_the_field(tmp_path, start, expect):
    path = _record(tmp_path, position=START, edit_start=start)
    code, text = run_cli("replay", path, "--verify")
    assert code == 2
    assert expect in _one_error_line(text)


def test_play_load_refuses_a_wrong_final_hash(tmp_path):
    good = _record(tmp_path, "good.json")
    bad = _record(tmp_path, "bad.json", final_hash="0" * 32)
    code, text = run_cli("play", "algeria", "--load", bad, "--fln", "human", "--gov", "human")
    assert code == 2
    assert _one_error_line(text).startswith(f"error: {bad}: field 'final_hash': replay ends")
    code, text = run_cli("play", "algeria", "--load", good, "--fln", "human", "--gov", "human")
    assert code == 1 and "Input closed" in text       # loaded, then stdin ran out
    missing = _record(tmp_path, "missing.json", final_hash=None)
    code, text = run_cli("play", "algeria", "--load", missing)
    assert code == 2 and "field 'final_hash' is missing" in text


def test_play_algeria_load_refuses_a_skirmish_record(tmp_path):
    path = tmp_path / "sk.json"
    path.write_text(json.dumps(make_record(skirmish.new_game("ambush", seed=1))))
    code, text = run_cli("play", "algeria", "--load", str(path))
    assert code == 2
    assert _one_error_line(text) == (f"error: {path}: field 'game' is 'skirmish': this "
                                     "command plays Algeria records")


def test_check_final_hash_names_the_place_and_the_field():
    game = algeria.new_game("1954", seed=1)
    rec = make_record(game)
    assert check_final_hash(rec, game_from_record(rec), "upload") is not None
    rec["final_hash"] = "f" * 32
    with pytest.raises(RecordError, match=r"^upload: field 'final_hash': replay ends in state"):
        check_final_hash(rec, game_from_record(rec), "upload")


def test_a_scripted_die_that_does_not_fit_changes_nothing():
    # The 7 (a face of the set-up's d9 only) reaches the first random event's d6 (5-1):
    # the action that rolled it is refused and the game is as it was.
    g = algeria.new_game("1954", dice_script=(3, 4, *(1,) * 21, 7))
    g.apply("place auto")
    before = g.state_hash()
    with pytest.raises(ScenarioError, match=r"dice_script\[23\]': scripted roll 7"):
        g.apply("place auto")
    assert g.state_hash() == before and g.decision() == "setup_place"


def test_rule_numbers_in_brackets_are_shown(tmp_path):
    # The error of an illegal action ends "[rule 3-4]"; Rich markup would swallow it.
    path = _record(tmp_path, actions=["place fr_xx TUNISIA"])
    code, text = run_cli("replay", path)
    assert code == 2
    assert _one_error_line(text).endswith("[rule 3-4]")


def test_replay_show_keeps_the_dice(tmp_path):
    game = algeria.new_game("1958", seed=3)
    game.apply("place auto")
    game.apply("place auto")            # then the 2d6 and the turn's dice are logged
    path = tmp_path / "r.json"
    path.write_text(json.dumps(make_record(game)))
    code, text = run_cli("replay", str(path), "--show", "40")
    assert code == 0
    dice = [line for line in text.splitlines() if "[dice " in line]
    assert dice and all(line.rstrip().endswith("]") for line in dice)


def test_new_game_checks_the_dice_script():
    with pytest.raises(ScenarioError, match=r"^field 'dice_script\[0\]': scripted roll 7 is "
                                            r"not a face of the d6 rolled$"):
        algeria.new_game("1954", dice_script=(7,))
    with pytest.raises(ScenarioError, match=r"^field 'dice_script\[2\]': expected a die face "
                                            r"1..9, found 10$"):
        algeria.new_game("1954", dice_script=(1, 2, 10))
    with pytest.raises(ScenarioError, match=r"field 'dice_script\[1\]'"):
        skirmish.new_game("ambush", dice_script=(1, "6"))


@pytest.mark.parametrize("options, expect", [
    ("fast", "field 'options': expected an object"),
    ({"turn_limit": "3"}, "option 'turn_limit': expected an integer >= 0, found '3'"),
    ({"max_range_cm": -1}, "option 'max_range_cm': expected a number >= 0"),
    ({"collateral_hit_on": 4}, "option 'collateral_hit_on': expected one of 0, 5, 6"),
    ({"casualty_rules": "no"}, "option 'casualty_rules': expected true or false"),
])
def test_skirmish_options_are_checked(options, expect):
    with pytest.raises(ScenarioError) as err:
        skirmish.new_game("ambush", options=options)
    assert expect in str(err.value)


def test_unreadable_files_are_one_line(tmp_path):
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "long.json").write_text('{"seed": ' + "9" * 5000 + "}")
    for name, why in (("bin.json", "not UTF-8 text"), ("deep.json", "nested too deeply"),
                      ("long.json", "too many digits")):
        code, text = run_cli("replay", str(tmp_path / name), "--verify")
        assert code == 2 and why in _one_error_line(text)
