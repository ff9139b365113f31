"""NAME@REV: the Algeria bots of an earlier revision, imported beside today's."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from djebel.agents import agent_names, check_name, make_agent
from djebel.algeria import new_game
from djebel.algeria.bots import revision
from djebel.core.errors import ScenarioError
from djebel.simulate.cli import tournament_app


def _need_git():
    try:
        revision.resolve("HEAD")
    except ScenarioError as exc:
        pytest.skip(f"NAME@REV needs a git checkout of djebel: {exc}")


def test_split_names_the_revision():
    assert revision.split("search@ae24d79") == ("search", "ae24d79")
    assert revision.split("planner") == ("planner", None)


@pytest.mark.parametrize("rev", ["--output=x", "a b", "", "-1", "x;rm"])
def test_a_revision_git_could_misread_is_refused(rev):
    with pytest.raises(ScenarioError, match="bad revision"):
        revision.resolve(rev)


def test_unknown_revision_and_bot_are_named():
    _need_git()
    with pytest.raises(ScenarioError, match="no revision 'no-such-rev' in this repository"):
        make_agent("heuristic@no-such-rev", "algeria", "gov", 1)
    with pytest.raises(ScenarioError, match="unknown agent 'bogus' at revision HEAD"):
        make_agent("bogus@HEAD", "algeria", "gov", 1)
    with pytest.raises(ScenarioError, match="expected one of"):
        check_name("algeria", "bogus@HEAD", agent_names("algeria"))
    with pytest.raises(ScenarioError):
        check_name("skirmish", "matrix@HEAD", agent_names("skirmish"))


def test_bots_of_a_revision_play_beside_todays():
    """The revision's package is imported under its own name: its heuristic and a
    gauntlet strategy of it play a whole game against today's bots, on today's engine."""
    _need_git()
    sha = revision.resolve("HEAD")
    old = make_agent("heuristic@HEAD", "algeria", "gov", 2)
    assert type(old).__module__ == f"djebel_bots_{sha[:12]}.heuristic"
    assert type(make_agent("heuristic", "algeria", "gov", 2)).__module__ == \
        "djebel.algeria.bots.heuristic"
    agents = {"fln": make_agent("pass@HEAD", "algeria", "fln", 1), "gov": old}
    game = new_game("1954", 3, log=False)
    while not game.is_over() and game.state.turn <= 40:
        game.apply(agents[game.active_side].choose(game))
    assert game.is_over()


def test_ladder_command_takes_a_revision_and_refuses_a_bad_one():
    _need_git()
    runner = CliRunner()
    res = runner.invoke(tournament_app, ["ladder", "--new", "heuristic", "--old",
                                         "heuristic@HEAD", "--scenario", "1960", "--games", "2"])
    assert res.exit_code == 0, res.output
    assert "| 1960 | heuristic | heuristic@HEAD | FLN | 2 |" in res.output
    res = runner.invoke(tournament_app, ["ladder", "--old", "search@no-such-rev", "--games", "1"])
    assert res.exit_code == 2
    assert "no revision 'no-such-rev'" in res.output
