"""Play stays the same, move for move: short seeded battles of every bot against exact
outcomes, and the lazily worked-out legal actions against the whole list.

The battles are two turns long (option ``turn_limit``). An intended change of play (a rule,
a bot, a scenario file) changes these figures: re-record them with the loop of
``test_seeded_battles_play_as_recorded`` and say in the commit why play changed."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from djebel.skirmish import list_scenarios, new_game
from djebel.skirmish.bots import CommanderBot, HeuristicBot, MatrixBot, RandomBot, play_out
from djebel.skirmish.bots.candidates import menu
from djebel.skirmish.bots.search import SearchCommander


def _bots(pair: str, seed: int):
    log = pair.endswith("-log")
    if pair.startswith("matrix-matrix"):
        return MatrixBot(seed, log=log), MatrixBot(seed + 7, log=log)
    if pair == "heuristic-matrix":
        return CommanderBot(seed), MatrixBot(seed + 7, log=False)
    if pair == "heuristic-heuristic":
        return CommanderBot(seed), HeuristicBot(seed + 7, log=False)
    if pair == "search-matrix":
        return SearchCommander("french", seed, iterations=2), MatrixBot(seed + 7, log=False)
    assert pair == "matrix-search"
    return MatrixBot(seed, log=False), SearchCommander("insurgents", seed, iterations=2)


# scenario, bots (French-Insurgents; "-log": the matrix logs its courses, R157), seed,
# actions played, final victory points (French, Insurgents), elements lost (French,
# Insurgents), and the first 16 hex digits of the sha256 of the record's orders
RECORDED = [
    ("ambush", "matrix-matrix", 3, 123, 13, 14, 8, 4, "b7246e55698db6de"),
    ("search", "matrix-matrix-log", 4, 126, 12, 15, 3, 3, "1e04bc69f11c2684"),
    ("hotlz", "heuristic-matrix", 5, 106, 13, 6, 2, 5, "7c56cf6f75c46b34"),
    ("casevac", "heuristic-heuristic", 6, 59, 4, 14, 6, 1, "1046b2b3e755e023"),
    ("douar", "heuristic-matrix", 7, 66, 3, 2, 1, 1, "946daf978a8f9892"),
    ("ambush", "heuristic-heuristic", 8, 137, 14, 6, 4, 4, "bde359f9ae0a1061"),
    ("search", "search-matrix", 9, 115, 4, 4, 2, 1, "ce0780cbf4aaf392"),
    ("hotlz", "matrix-search", 10, 88, 5, 11, 8, 1, "cdeb36a054d37c9d"),
]


@pytest.mark.parametrize(("scenario", "pair", "seed", "actions", "vp_french", "vp_insurgents",
                          "lost_french", "lost_insurgents", "orders"), RECORDED)
def test_seeded_battles_play_as_recorded(scenario, pair, seed, actions, vp_french,
                                         vp_insurgents, lost_french, lost_insurgents, orders):
    g = new_game(scenario, seed, {"turn_limit": 2, "log": pair.endswith("-log")})
    played = play_out(g, *_bots(pair, seed))
    r = g.result()
    lost = {side: sum(1 for e in g.elements if e.side == side and e.removed
                      and e.removed != "exited") for side in ("french", "insurgents")}
    digest = hashlib.sha256("\n".join(g.history()).encode()).hexdigest()[:16]
    assert (played, r.scores["french"], r.scores["insurgents"], lost["french"],
            lost["insurgents"], digest) == (actions, vp_french, vp_insurgents, lost_french,
                                            lost_insurgents, orders), (scenario, pair, seed)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(sorted(list_scenarios())), st.integers(0, 10_000),
       st.integers(0, 120))
def test_menu_of_some_verbs_is_the_whole_list_filtered(scenario, seed, steps):
    """A bot asking the menu for a few verbs gets what filtering the whole list gives,
    in the same order, whatever it asked for before."""
    g = new_game(scenario, seed, {"log": False})
    bot = RandomBot(seed)
    for _ in range(steps):
        if g.is_over():
            break
        g.apply(bot.choose(g))
    if g.is_over():
        return
    whole = menu(g).all()
    verbs = sorted({a.verb for a in whole} | {"move", "sprint", "shoot", "fire", "roll"})
    lazy = menu(g)
    for i, verb in enumerate(verbs):
        asked = (verb,) if i % 2 else (verb, verbs[-1 - i])
        assert lazy.of(*asked) == [a for a in whole if a.verb in asked], asked
    assert lazy.first("end") == next((a for a in whole if a.verb == "end"), None)
    assert menu(g).last() == whole[-1]
    assert g.legal_actions() == whole
