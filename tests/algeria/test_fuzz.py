"""Fuzz: thousands of complete games of random legal play over the three scenarios and
every valid combination of options. No exception, no dead end, every game ends.

The games are split into chunks so ``pytest -n 2`` spreads them over both cores.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from djebel import algeria

GAMES = 3_000
CHUNKS = 30
PER_CHUNK = GAMES // CHUNKS
MAX_STEPS = 200_000


def _option_sets(scenario: str) -> list[dict[str, bool]]:
    keys = [k for k, (_, _, only) in algeria.OPTIONS.items() if only is None or scenario in only]
    return [dict(zip(keys, bits, strict=True))
            for bits in itertools.product((False, True), repeat=len(keys))]


# Every (scenario, options) pair; games cycle through them so each chunk covers them all.
SETUPS = [(sc, opts) for sc in algeria.SCENARIOS for opts in _option_sets(sc)]


# Government choices that spend PSP: a frugal Government makes them rarely.
SPENDING = frozenset({"mobilize", "buy", "border-zone", "intelligence", "civil-affairs",
                      "suppression", "resettle"})
QUIET = frozenset({"done", "pass", "no-react"})


def choose(game, legal: list, rng: random.Random, policy: int):
    """0: uniform; 1: both sides often stop early (long, quiet games, 13.3 endings);
    2: a frugal Government (the FLN can lose, coups and the OAS come later)."""
    if policy == 1:
        quiet = [a for a in legal if a.verb in QUIET]
        if quiet and rng.random() < 0.5:
            return quiet[0]
    elif policy == 2 and game.active_side == "gov" and rng.random() < 0.9:
        cheap = [a for a in legal if a.verb not in SPENDING]
        if cheap:
            return rng.choice(cheap)
    return rng.choice(legal)


def play_one(scenario: str, options: dict, seed: int) -> int:
    game = algeria.new_game(scenario, seed=seed, options=options, log=False)
    rng = random.Random(seed * 7919 + 1)
    policy = seed // len(SETUPS) % 3
    steps = 0
    while not game.is_over():
        legal = game.legal_actions()
        assert legal, (f"dead end ({scenario}, {options}, seed {seed}, step {steps}): "
                       f"{game.prompt()}")
        game.apply(choose(game, legal, rng, policy))
        steps += 1
        assert steps < MAX_STEPS, f"no end ({scenario}, {options}, seed {seed})"
    s = game.state
    result = game.result()
    assert result is not None and result.winner in ("fln", "gov")
    assert game.active_side is None and not game.legal_actions()
    assert 0 <= s.fln_psl <= 99 and 0 <= s.gov_psl <= 99 and 0 <= s.ap <= 99
    assert min(s.fln_psl, s.gov_psl) == 0 or s.end_reason.startswith("13.3"), s.end_reason
    again = algeria.AlgeriaGame.from_json(json.loads(json.dumps(game.to_json())))
    assert again.state_hash() == game.state_hash() and again.is_over()
    return steps


def test_setups_cover_every_valid_option_combination():
    assert len(SETUPS) == 2 ** len(algeria.OPTIONS) + 2 * 2 ** (len(algeria.OPTIONS) - 2)
    assert all(not o.get("slow_french_reaction") and not o.get("deterministic_independence")
               for sc, o in SETUPS if sc != "1954")


@pytest.mark.fuzz
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fuzz_random_games(chunk):
    errors = []
    for i in range(PER_CHUNK):
        seed = chunk * PER_CHUNK + i
        scenario, options = SETUPS[seed % len(SETUPS)]
        try:
            play_one(scenario, options, seed)
        except Exception as exc:    # collect all failures of the chunk, then report
            errors.append(f"{scenario} {options} seed {seed}: {type(exc).__name__}: {exc}")
    assert not errors, f"{len(errors)} of {PER_CHUNK} games failed:\n" + "\n".join(errors[:10])
