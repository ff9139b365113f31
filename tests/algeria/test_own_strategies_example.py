"""examples/own_strategies.py: each strategy of our own plays whole games against the
heuristic and does what its name says (the measured tables are in docs/gauntlet.md)."""

import importlib.util
from pathlib import Path

import pytest

from djebel.agents import make_agent
from djebel.algeria import new_game
from djebel.algeria.board import COUNTRIES, FRANCE, UNIT_INDEX
from djebel.algeria.bots.heuristic_base import _a

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "own_strategies.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("own_strategies", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fln_actions(example, name, scenario="1958", seed=5):
    """Every FLN action of one game of ``name`` against the heuristic Government, with
    the acting unit's location just before it."""
    game = new_game(scenario, seed, log=False)
    players = {"gov": make_agent("heuristic", "algeria", "gov", 1),
               "fln": example.STRATEGIES[name][1]("fln", 2)}
    out = []
    while not game.is_over():
        side = game.active_side
        act = players[side].choose(game)
        if side == "fln":
            u = UNIT_INDEX.get(act.args[0]) if act.args else None
            out.append((act, game.state.loc[u] if u is not None else None))
        game.apply(act)
    return out


def test_every_strategy_plays_a_whole_game(example):
    for name in example.STRATEGIES:
        won, turns = example.play("1958", "heuristic", name, 2026, 0)
        assert isinstance(won, bool) and turns >= 1, name


def test_abroad_arms_only_in_morocco_and_tunisia_and_never_surfaces_10_4(example):
    acts = _fln_actions(example, "abroad")
    builds = [a for a, _ in acts if a.verb == "build"]
    assert builds and all(a.args[0] == "band" and _a(a.args[1]) in COUNTRIES for a in builds)
    assert all(where in COUNTRIES for a, where in acts if a.verb == "convert")
    assert not any(a.verb in ("surface", "propaganda", "raid", "harass", "strike", "move")
                   for a, _ in acts)


def test_france_propagandizes_only_in_france_11_22(example):
    acts = _fln_actions(example, "france")
    propaganda = [where for a, where in acts if a.verb == "propaganda"]
    assert propaganda and set(propaganda) == {FRANCE}
    assert any(a.verb == "france" for a, _ in acts)
    assert not any(a.verb in ("surface", "raid", "harass", "strike", "move") for a, _ in acts)


def test_strike_only_strikes_9_12(example):
    acts = _fln_actions(example, "strike", scenario="1954", seed=3)
    missions = {a.verb for a, _ in acts} & {"propaganda", "raid", "harass", "move", "strike"}
    assert missions == {"strike"}


def test_the_command_prints_one_row_a_cell(example, capsys):
    rows = example.main(["--scenario", "1960", "--against", "pass+setup", "--games", "2"])
    assert [(r["scenario"], r["strategy"], r["games"]) for r in rows] == [
        ("1960", "pass+setup", 2)]
    assert "| 1960 | heuristic | `pass+setup` | 2 |" in capsys.readouterr().out
