"""Terminal play: numbered and typed actions, bad input, odds confirmation, save, quit."""

import io
import json

from rich.console import Console

from djebel import algeria
from djebel.agents import RandomAgent
from djebel.algeria.text import describe
from djebel.odds.algeria import describe as odds
from djebel.terminal import play


def run(game, inputs, seats=None):
    feed = iter(inputs)
    out = io.StringIO()
    con = Console(file=out, width=120, highlight=False)
    code = play(game, seats or {"fln": None, "gov": None}, lambda g: describe(g.state), con,
                input_fn=lambda prompt: next(feed), odds=odds)
    return code, out.getvalue()


def test_human_plays_by_number_and_notation_and_bad_input_changes_nothing(tmp_path):
    g = algeria.new_game("1958", seed=5)
    before = g.state_hash()
    save = tmp_path / "g.json"
    code, text = run(g, ["place fr_xx ORAN", "999", "place auto", "1", f"save {save}", "quit"])
    assert code == 1
    assert "rule 3-4" in text                  # the illegal placement names its rule
    assert "no action number 999" in text
    assert g.state_hash() != before            # the two legal actions were applied
    assert g.history() == ["place auto", str(g.history()[1])]
    rec = json.loads(save.read_text())
    assert rec["actions"] == g.history()


def test_odds_shown_before_a_mission_and_refusal_keeps_state():
    from djebel.algeria.position import from_position
    g = from_position({"scenario": "1958", "turn": 2, "phase": "operations", "ap": 5,
                       "areas": {"II-1": {"OPS": ["cadre"]}}}, seed=1)
    before = g.state_hash()
    code, text = run(g, ["propaganda cadre1", "n", "quit"])
    assert "odds: Propaganda in II-1" in text
    assert g.state_hash() == before


def test_a_refused_mission_shows_no_odds_only_its_rule():
    """9.12: a Strike outside an Urban area is refused at once, with no odds to confirm."""
    from djebel.algeria.position import from_position
    g = from_position({"scenario": "1958", "turn": 2, "phase": "operations", "ap": 5,
                       "areas": {"II-1": {"OPS": ["front"]}}}, seed=1)
    code, text = run(g, ["strike front1", "quit"])
    assert "Strikes only in Urban areas [rule 9.12]" in text
    assert "odds:" not in text and "carry it out" not in text


def test_bots_play_a_whole_game():
    g = algeria.new_game("1960", seed=2)
    code, text = run(g, [], seats={"fln": RandomAgent(1), "gov": RandomAgent(2)})
    assert code == 0 and "Game over" in text and g.is_over()


def test_undo_takes_back_the_last_human_action():
    g = algeria.new_game("1958", seed=5)
    start = g.state_hash()
    feed = iter(["1", "undo", "undo", "quit"])       # 'place fr_xx I-1' rolls no die
    out = io.StringIO()
    holder = {}

    def after(game):
        holder["game"] = game
    play(g, {"fln": None, "gov": None}, lambda x: describe(x.state),
         Console(file=out, width=120), input_fn=lambda p: next(feed), after_action=after)
    text = out.getvalue()
    assert "undone: back to your previous decision" in text
    assert "nothing to undo" in text
    first_prompt = "GOV set-up: place fr_xx in wilaya I (34 left)"
    # shown at the start, again after the undo, and again after "nothing to undo"
    assert text.count(first_prompt) == 3
    assert holder["game"].state_hash() != start     # the action itself was applied


def ops_position():
    from djebel.algeria.position import from_position
    return from_position({"scenario": "1958", "turn": 2, "phase": "operations", "ap": 5,
                          "areas": {"II-1": {"OPS": ["cadre"]}}}, seed=1)


def final(inputs, game, analysis=False, seats=None):
    """Play ``inputs`` at the terminal; the text shown and the game at the end."""
    feed = iter(inputs)
    out = io.StringIO()
    holder = {"game": game}

    def show(g):
        holder["game"] = g
        return describe(g.state)
    play(game, seats or {"fln": None, "gov": None}, show, Console(file=out, width=120),
         input_fn=lambda p: next(feed), odds=odds, analysis=analysis)
    return " ".join(out.getvalue().split()), holder["game"]


def test_undo_stops_at_the_last_die_roll():
    g = ops_position()
    start = g.state_hash()
    text, after = final(["propaganda cadre1", "y", "undo", "quit"], g)
    assert "cannot undo: the last action rolled dice" in text      # the die has been seen
    assert after.history() == ["propaganda cadre1"] and after.state_hash() != start
    # a move rolls no die: taken back, back to the same state
    text, after = final(["move cadre1", "undo", "quit"], ops_position())
    assert "undone: back to your previous decision" in text
    assert after.history() == [] and after.state_hash() == start


def test_undo_stops_at_the_other_sides_last_action():
    g = algeria.new_game("1958", seed=5)
    # the GOV places everything ('place auto'), then the FLN asks to undo it
    text, after = final(["place auto", "undo", "quit"], g)
    assert "cannot undo: the last action was gov's" in text
    assert after.history() == ["place auto"]
    # with a bot for the other side, its reply ends what undo can reach
    g = algeria.new_game("1958", seed=2)
    text, after = final(["place auto", "undo", "quit"], g,
                        seats={"fln": RandomAgent(3), "gov": None})
    assert "cannot undo: the other side has acted since" in text
    assert len(after.history()) > 1 and after.history()[0] == "place auto"


def test_analysis_allows_free_take_backs_and_says_so():
    g = ops_position()
    start = g.state_hash()
    text, after = final(["propaganda cadre1", "y", "undo", "quit"], g, analysis=True)
    assert "analysis game: free take-backs" in text
    assert "undone (analysis)" in text
    assert after.history() == [] and after.state_hash() == start


def test_skirmish_terminal_undo_limits():
    from djebel.skirmish.terminal import run_game
    out = io.StringIO()
    # (each shot shows its odds first and is confirmed with "y")
    orders = iter(["activate I7", "undo", "activate I7", "shoot I7 HA", "y", "undo", "quit"])
    g = run_game("ambush", "human", "human", 3, None, lambda p: next(orders), out, False)
    text = " ".join(out.getvalue().split())
    assert "undone: back to your previous decision" in text
    # the shot rolled dice and the French react: the insurgents' shot stays
    assert "cannot undo: the last action was insurgents's" in text
    assert g.history() == ["activate I7", "shoot I7 HA"]
    out = io.StringIO()
    orders = iter(["activate I7", "shoot I7 HA", "y", "undo", "undo", "quit"])
    g = run_game("ambush", "human", "human", 3, None, lambda p: next(orders), out, False,
                 analysis=True)
    assert g.history() == [] and "analysis game" in out.getvalue()


def test_play_cli_styles_the_heuristic_bot():
    """``djebel play algeria --gov-style hunt=0``: the bot seated for the Government
    plays that style (the same game as make_agent with the setting), and a style for a
    human seat is refused before the game starts."""
    from typer.testing import CliRunner

    from djebel.agents import make_agent
    from djebel.cli import app

    args = ["play", "algeria", "--scenario", "1958", "--seed", "3", "--fln", "heuristic",
            "--gov", "heuristic"]
    styled = CliRunner().invoke(app, [*args, "--gov-style", "hunt=0"])
    plain = CliRunner().invoke(app, args)
    assert styled.exit_code == 0 and plain.exit_code == 0, styled.output
    g = algeria.new_game("1958", seed=3)
    bots = {"fln": make_agent("heuristic", "algeria", "fln", 3),
            "gov": make_agent("heuristic", "algeria", "gov", 4, hunt=0)}
    while not g.is_over():
        g.apply(bots[g.active_side].choose(g))
    r = g.result()
    assert f"Game over: {r.winner.upper()}" in styled.output
    assert str(r.scores) in styled.output
    assert styled.output != plain.output
    refused = CliRunner().invoke(app, ["play", "algeria", "--gov", "human",
                                       "--gov-style", "air_guard=0"])
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "the GOV agent is 'human'" in " ".join(refused.output.replace("│", " ").split())


def test_a_refusal_says_its_rule_and_reason():
    """6.2-2 (A.1): no Front in a Remote area; 6.2-1: a build needs a Front there; the
    engine's why_not gives the reason the terminal prints, and nothing changes."""
    from djebel.algeria.position import from_position
    from djebel.core.errors import IllegalAction

    g = from_position({"scenario": "1958", "turn": 2, "phase": "fln_reinforcement",
                       "areas": {"I-2": {"UG": ["cadre"]}, "II-1": {"UG": ["front"]}}},
                      seed=1)
    before = g.state_hash()
    text, _ = final(["convert cadre1 front", "build band I-2", "build front II-1", "quit"], g)
    assert "no Front in a Remote area (I-2, A.1) [rule 6.2-2]" in text
    assert "no non-neutralized Front in I-2 to build there [rule 6.2-1]" in text
    assert ("only Cadres and Bands are built (Fronts and Failek by conversion) "
            "[rule 6.2-1]") in text
    assert "not a legal choice now" not in text
    assert g.state_hash() == before
    g.state.ap = 0
    g.legal_actions()                 # offered again after the direct edit
    try:
        g.validate("convert cadre1 band")
    except IllegalAction as exc:
        assert exc.rule == "6.2-8" and "costs 1 AP (A.1); the FLN has 0" in str(exc)
    else:
        raise AssertionError("a conversion without the AP was accepted")


def test_a_generic_refusal_names_what_may_be_chosen():
    """A verb the decision does not take says what may be chosen instead, with the
    decision's rule (9.15: the Harass target); a target elsewhere says why (9.15-3)."""
    from djebel.algeria.position import from_position
    from djebel.core.errors import IllegalAction

    g = from_position({"scenario": "1958", "turn": 2, "phase": "operations", "ap": 4,
                       "areas": {"II-1": {"OPS": ["band"], "PTL": ["police", "police"]}}},
                      seed=1)
    g.apply("harass band1")
    g.apply("go")
    for bad, rule, reason in (
            ("pass", "9.15", "not a choice now (FLN: choose the Government unit to harass "
                             "in II-1): the choices are target"),
            ("target fr_x1", "9.15-3", "fr_x1 is not on the map: the target is a "
                                       "Government unit in II-1")):
        try:
            g.validate(bad)
        except IllegalAction as exc:
            assert exc.rule == rule and reason in str(exc), str(exc)
        else:
            raise AssertionError(f"{bad} was accepted")


def test_forced_choice_applied_and_undo_stops_before_it():
    """The Harass's 'go' (no other unit may join, 9.15) is applied at once; 'undo' takes
    it back and then waits at that choice instead of applying it again."""
    from djebel.algeria.position import from_position

    def harass():
        return from_position({"scenario": "1958", "turn": 2, "phase": "operations", "ap": 4,
                              "areas": {"II-1": {"OPS": ["band"],
                                                 "PTL": ["police", "police"]}}}, seed=1)
    text, after = final(["harass band1", "quit"], harass())
    assert "only choice, applied: go" in text and after.history() == ["harass band1", "go"]
    text, after = final(["harass band1", "undo", "undo", "quit"], harass())
    assert text.count("only choice, applied: go") == 1
    assert "FLN: choose the Government unit to harass in II-1" in text
    assert "FLN: units joining the Harass in II-1, then go 1. go" in text
    assert after.history() == []
