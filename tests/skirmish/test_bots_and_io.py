"""Bots, rendering, terminal play, records and the benchmark."""

from __future__ import annotations

import io
import json

import pytest
from skirmish_helpers import F, I

from djebel.agents import agent_names
from djebel.core.errors import IllegalAction
from djebel.core.records import make_record, verify_record
from djebel.skirmish import SkirmishGame, game_from_header, new_game
from djebel.skirmish.bench import run
from djebel.skirmish.bots import MatrixBot, RandomBot, play_out
from djebel.skirmish.render import describe, to_svg
from djebel.skirmish.terminal import play, run_game


def test_R157_matrix_bot_logs_three_courses_and_the_d10():
    g = new_game("ambush", 1, {"turn_limit": 1})
    play_out(g, MatrixBot(1), MatrixBot(2))
    lines = [e.text for e in g.log if e.rule == "D72"]
    assert lines
    assert all("dangerous=" in t and "likely=" in t and "goofiest=" in t and "d10=" in t
               for t in lines)


def _drawn_and_played(g, bots, steps: int = 4000) -> list[tuple[str, str]]:
    """(logged plan of the course drawn, order then played) for every D72 draw."""
    out = []
    for _ in range(steps):
        if g.is_over():
            break
        seen = len(g.log)
        a = bots[g.active_side].choose(g)
        for entry in list(g.log)[seen:]:
            if entry.rule == "D72":
                plans = dict(p.split("=", 1) for p in entry.text.split(": ", 1)[1].split("; "))
                course = entry.text.rsplit("-> ", 1)[1].replace(" ", "_")
                key = {"most_dangerous": "dangerous", "most_likely": "likely",
                       "goofiest": "goofiest"}[course]
                out.append((plans[key], str(a)))
        g.apply(a)
    return out


def test_R158_D72_the_goofiest_course_drawn_is_the_course_played(build):
    from djebel.core.actions import Action
    from djebel.skirmish.geometry import distance
    # coin 2 = the unforced fall-back, d10 = 10 = goofiest (D71 bands)
    g = build([I("ins_rifle", 60, 60), F("french_rifle", 20, 60)], first_side="insurgents")
    bot = MatrixBot(0, dice_script=(2, 10, 1))
    assert bot.choose(g) == Action.parse("activate I1")
    g.apply("activate I1")
    a = bot.choose(g)
    [entry] = [e for e in g.log if e.rule == "D72"]
    assert "d10=10 -> goofiest" in entry.text
    assert f"goofiest={a}" in entry.text and a.verb == "sprint"
    i1, f1 = g.el("I1"), g.el("F1")
    before = distance(i1.body, f1.body)
    g.apply(a)
    assert distance(g.el("I1").body, f1.body) > before          # it fell back


def test_R158_D72_every_drawn_course_is_played_in_bot_battles():
    for scenario, seed in (("ambush", 3), ("hotlz", 5), ("search", 8)):
        g = new_game(scenario, seed, {"log": True})
        pairs = _drawn_and_played(g, {"french": MatrixBot(seed), "insurgents": MatrixBot(seed + 1)})
        assert pairs and all(logged == played for logged, played in pairs), scenario


def test_bots_are_deterministic_and_replay_from_records():
    games = []
    for _ in range(2):
        g = new_game("hotlz", 4, {"turn_limit": 2})
        play_out(g, MatrixBot(9), RandomBot(10))
        games.append(g)
    assert games[0].state_hash() == games[1].state_hash()
    rec = json.loads(json.dumps(make_record(games[0])))
    assert verify_record(rec).state_hash() == games[0].state_hash()
    assert game_from_header(rec).history() == []


def test_json_round_trip_mid_game():
    g = new_game("search", 2)
    bot = RandomBot(3)
    for _ in range(45):
        g.apply(bot.choose(g))
    assert not g.is_over()
    again = SkirmishGame.from_json(json.loads(json.dumps(g.to_json())))
    assert again.state_hash() == g.state_hash()
    assert again.history() == g.history() and len(again.log) == len(g.log)
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in g.legal_actions()]


def test_clone_is_independent():
    g = new_game("ambush", 5)
    c = g.clone()
    h = c.state_hash()
    bot = RandomBot(1)
    for _ in range(30):
        g.apply(bot.choose(g))
    assert c.state_hash() == h


def test_validate_accepts_any_legal_coordinates_not_only_candidates(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 115, 115)])
    g.apply("activate F1")
    g.validate("move F1 23.37 26.81 face 12.5")
    with pytest.raises(IllegalAction):
        g.validate("move F1 33 20")
    assert g.el("F1").x == 20.0


def test_bad_input_changes_nothing(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20)])
    before = g.state_hash()
    for text in ("fly F1", "activate I1", "activate Z9", "move F1 abc", "endphase now", ""):
        with pytest.raises(IllegalAction):
            g.apply(text)
        assert g.state_hash() == before
    g.apply("activate F1")
    before = g.state_hash()
    # ("roll F1" is legal here: D2 lets the free action be given up for a roll)
    for text in ("move F1 40 20", "shoot F1", "shoot F1 F1", "rally F1 F1", "end F2",
                 "move F1 25 20 face", "land F1", "unload F1"):
        with pytest.raises(IllegalAction) as exc:
            g.apply(text)
        assert exc.value.rule and g.state_hash() == before


def test_game_over_refuses_actions(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20)], turn_limit=1)
    g.apply("endphase")
    g.apply("endphase")
    assert g.is_over() and g.legal_actions() == []
    with pytest.raises(IllegalAction) as exc:
        g.apply("endphase")
    assert exc.value.rule == "D79"


def test_svg_and_description():
    g = new_game("hotlz", 0)
    bot = RandomBot(0)
    for _ in range(40):
        g.apply(bot.choose(g))
    svg = to_svg(g)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "cache" in svg and "I1" in svg
    text = describe(g)
    assert "Hot LZ" in text and "insurgents:" in text


def test_terminal_human_against_matrix(tmp_path):
    feed = iter(["help", "state", "bogus words", "1", "endphase", "quit"])
    out = io.StringIO()
    svg = tmp_path / "board.svg"
    g = run_game("search", "human", "matrix", 2, str(svg), input_fn=lambda _p: next(feed),
                 out=out)
    text = out.getvalue()
    assert "error: illegal action (bogus words)" in text
    assert svg.read_text().startswith("<svg")
    assert g.history()


def test_terminal_save_to_a_bad_path_is_an_error_line(tmp_path):
    # No traceback for a user's mistake: the battle goes on, nothing is written.
    bad = tmp_path / "no" / "such" / "dir.json"
    feed = iter([f"save {bad}", "quit"])
    out = io.StringIO()
    run_game("ambush", "human", "matrix", 1, None, input_fn=lambda _p: next(feed), out=out)
    assert f"error: cannot save to {bad}: No such file or directory" in out.getvalue()
    assert not bad.exists()


def test_terminal_bots_only_finish_the_battle():
    out = io.StringIO()
    assert play("hotlz", "random", "matrix", 1, None, out=out) == 0
    assert "game over" in out.getvalue()


def test_benchmark_runs():
    res = run(0.4)
    assert res["los_queries_per_second"] > 0 and res["battles_per_second"] > 0


def test_deploy_step_places_within_zones():
    g = new_game("ambush", 0, {"deploy": True})
    assert g.active_side == "french" and [str(a) for a in g.legal_actions()] == ["ready"]
    g.apply("ready")
    assert g.active_side == "insurgents"
    before = g.state_hash()
    for bad, rule in (("place I1 45 63", "4"),            # outside the zone / too close
                      ("place I1 20 100", "4"),           # outside every zone
                      ("place I1 55 86", "D19"),          # on top of I3
                      ("place HA 45 80", "4")):           # a French element
        with pytest.raises(IllegalAction) as exc:
            g.apply(bad)
        assert exc.value.rule == rule, bad
        assert g.state_hash() == before
    with pytest.raises(IllegalAction) as exc:
        g.apply("place I1 66 78 face 250")            # in the village, 15 cm from HA
    assert exc.value.rule == "4" and "21" in exc.value.reason
    g.apply("place I1 45 92 face 250")
    g.apply("overwatch I3")
    assert (g.el("I1").x, g.el("I1").y) == (45.0, 92.0) and g.el("I3").overwatch
    g.apply("ready")
    assert g.active_side == "insurgents" and g.frames[-1]["k"] == "main"


def test_heuristic_bot_plays_the_most_likely_course():
    from djebel.skirmish.bots import HeuristicBot
    g = new_game("search", 3, {"turn_limit": 2})
    play_out(g, HeuristicBot(1), HeuristicBot(2))
    assert g.is_over() and not [e for e in g.log if e.rule == "D72"]


@pytest.mark.parametrize("bot", agent_names("skirmish"))
def test_every_listed_bot_plays_skirmish_in_the_terminal_and_the_cli(bot):
    from typer.testing import CliRunner

    from djebel.cli import SKIRMISH_PLAYERS, app

    assert bot in SKIRMISH_PLAYERS.split(", ")
    out = io.StringIO()
    g = run_game("ambush", bot, bot, seed=2, out=out)
    assert g.is_over() and "game over" in out.getvalue()
    res = CliRunner().invoke(app, ["play", "skirmish", "hotlz", "--french", bot,
                                   "--insurgents", bot, "--svg", ""])
    assert res.exit_code == 0 and "game over" in res.output, res.output[-300:]
