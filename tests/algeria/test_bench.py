"""``djebel bench algeria``: the null policy and its turns-per-second figures."""

import random

from typer.testing import CliRunner

from djebel.algeria.bench import null_action, run_null
from djebel.algeria.game import new_game
from djebel.cli import app
from djebel.core.actions import Action


def test_null_policy_passes_is_done_or_declines_when_it_can():
    rng = random.Random(0)
    for verb in ("pass", "done", "no-react"):
        legal = [Action("flush", ("II-1",)), Action(verb), Action("go")]
        assert null_action(legal, rng) == Action(verb)


def test_null_policy_picks_among_the_rest_at_random_otherwise():
    legal = [Action("place", ("band", "II-1")), Action("place", ("auto",))]
    picks = {null_action(legal, random.Random(seed)) for seed in range(20)}
    assert picks == set(legal)


def test_run_null_counts_the_turns_of_the_games_it_plays():
    res = run_null(0.0, ("1958",))
    assert res["policy"] == "null" and res["1958"]["games"] == 1
    # replay the one game: same seed, same policy, same generator
    rng, game, decisions = random.Random(1), new_game("1958", seed=0, log=False), 0
    while not game.is_over():
        game.apply(null_action(game.legal_actions(), rng))
        decisions += 1
    assert res["1958"]["turns"] == game.state.turn > 0
    assert res["1958"]["decisions_per_cpu_second"] > 0 and decisions > game.state.turn


def test_cli_prints_each_scenario_and_refuses_an_unknown_policy():
    runner = CliRunner()
    out = runner.invoke(app, ["bench", "algeria", "--policy", "null", "--seconds", "0"])
    assert out.exit_code == 0
    assert [line.split(":")[0] for line in out.output.splitlines()] == ["1954", "1958", "1960"]
    assert "turns per CPU second" in out.output
    bad = runner.invoke(app, ["bench", "algeria", "--policy", "nul"])
    assert bad.exit_code == 2 and "unknown policy 'nul'" in bad.output
