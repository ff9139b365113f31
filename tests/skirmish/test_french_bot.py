"""FrenchBot: legal, deterministic, finishes battles, and plays the French better."""

from __future__ import annotations

from pathlib import Path

import pytest

from djebel.agents import make_agent
from djebel.skirmish import new_game
from djebel.skirmish.bots import FrenchBot, HeuristicBot, MatrixBot, play_out

SCENARIOS = ("ambush", "search", "hotlz")


def _battle(scenario: str, seed: int, french, options: dict | None = None):
    g = new_game(scenario, seed, options or {})
    play_out(g, french, MatrixBot(7000 + seed, log=False))
    return g


def test_registered_for_the_french_only():
    assert isinstance(make_agent("heuristic", "skirmish", "french", 3), FrenchBot)
    ins = make_agent("heuristic", "skirmish", "insurgents", 3)
    assert isinstance(ins, HeuristicBot) and not isinstance(ins, FrenchBot)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_only_legal_actions_and_the_battle_ends(scenario):
    g = new_game(scenario, 11, {"turn_limit": 3})
    bot, ins = FrenchBot(5), MatrixBot(6, log=False)
    steps = 0
    while not g.is_over() and steps < 5000:
        if g.active_side == "french":
            a = bot.choose(g)
            before = g.state_hash()
            g.validate(a)                                  # raises on an illegal action
            assert g.state_hash() == before                # choosing never changes the game
        else:
            a = ins.choose(g)
        g.apply(a)
        steps += 1
    assert g.is_over() and g.result() is not None


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_deterministic_for_a_seed(scenario):
    a = _battle(scenario, 21, FrenchBot(4), {"turn_limit": 3})
    b = _battle(scenario, 21, FrenchBot(4), {"turn_limit": 3})
    assert a.history() == b.history()


GAMES = 8


def _results(scenario: str, make) -> list:
    return [_battle(scenario, 1000 + s, make(s)).result() for s in range(GAMES)]


def _margin(results) -> float:
    return sum(r.scores["french"] - r.scores["insurgents"] for r in results) / len(results)


# the ambush as the rules specification prints it (4.1), before its rebalance: the margin
# below was measured there, where the old bot lost by a wide margin
AMBUSH_AS_PRINTED = str(Path(__file__).parents[1] / "fixtures" / "ambush_as_printed.toml")


# and the Hot LZ as printed (4.3), before its rebalance took the guns that met the Pumas
HOTLZ_AS_PRINTED = str(Path(__file__).parents[1] / "fixtures" / "hotlz_as_printed.toml")


@pytest.mark.parametrize("scenario", (AMBUSH_AS_PRINTED, HOTLZ_AS_PRINTED))
def test_better_vp_margin_than_the_heuristic_bot_as_french(scenario):
    """Mean VP margin (French minus Insurgents) against matrix insurgents, fixed seeds."""
    new, old = _margin(_results(scenario, FrenchBot)), _margin(_results(scenario, HeuristicBot))
    assert new >= old + 3.0, (new, old)


# the search as printed (4.2), before its rebalance: the sudden deaths below were
# measured there, with every house's fighters in sight of the set-up strip
SEARCH_AS_PRINTED = str(Path(__file__).parents[1] / "fixtures" / "search_as_printed.toml")


def test_spares_the_civilians_in_the_search():
    """The heuristic bot loses the search to the civilian sudden death; FrenchBot never."""
    new = _results(SEARCH_AS_PRINTED, FrenchBot)
    old = _results(SEARCH_AS_PRINTED, HeuristicBot)
    assert not any(r.level == "sudden death" for r in new)
    assert sum(r.level == "sudden death" for r in old) >= GAMES // 2
