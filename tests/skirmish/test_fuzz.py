"""Fuzz: 1,000+ complete bot-against-bot battles on the shipped scenarios.

Most battles are shortened with the ``turn_limit`` option (a complete battle to
its scenario's end, just fewer turns) so the run stays fast; a few play the
full scenario length. Every battle must end, every offered action must apply
(no dead ends) and nothing may raise.
"""

from __future__ import annotations

import pytest

from djebel.skirmish import list_scenarios, new_game
from djebel.skirmish.bots import MatrixBot, RandomBot

CHUNKS = 20
PER_CHUNK = 50


def _battle(seed: int, turn_limit: int | None) -> None:
    scenario = list_scenarios()[seed % 3]
    opts = {"log": False, "deploy": seed % 7 == 0}
    if turn_limit:
        opts["turn_limit"] = turn_limit
    g = new_game(scenario, seed, opts)
    kinds = seed % 4
    french = RandomBot(seed) if kinds in (0, 1) else MatrixBot(seed, log=False)
    insurgents = RandomBot(seed + 1) if kinds in (0, 2) else MatrixBot(seed + 1, log=False)
    steps = 0
    while not g.is_over():
        acts = g.legal_actions()
        assert acts, f"dead end: {scenario} seed {seed}: {g.prompt()}"
        bot = french if g.active_side == "french" else insurgents
        g.apply(bot.choose(g))
        steps += 1
        assert steps < 20_000, f"{scenario} seed {seed} does not end"
    assert g.result() is not None and g.active_side is None and not g.legal_actions()


@pytest.mark.fuzz
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fuzz_battles(chunk: int) -> None:
    for i in range(PER_CHUNK):
        seed = chunk * PER_CHUNK + i
        _battle(seed, 1 + seed % 2)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(3))
def test_fuzz_full_length_battles(seed: int) -> None:
    _battle(10_000 + seed, None)
