"""``djebel bench algeria``: throughput on one core, random play or the null policy.

The null policy (``--policy null``) passes, is done or declines whenever the rules allow
it and picks at random among the legal actions otherwise: the engine's own cost of a
turn with as little play as possible, the figure other implementations of the game
quote in turns per second.
"""

from __future__ import annotations

import random
import time

from djebel.algeria.game import new_game
from djebel.core.actions import Action

SCENARIOS = ("1954", "1958", "1960")
NULL_VERBS = frozenset(("pass", "done", "no-react"))


def run(seconds: float = 5.0, log: bool = False) -> dict:
    rng = random.Random(1)
    decisions = games = 0
    start = time.perf_counter()
    clone_game = None
    seed = 0
    while time.perf_counter() - start < seconds:
        game = new_game(SCENARIOS[seed % 3], seed=seed, log=log)
        seed += 1
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
            if clone_game is None and game.state.turn == 2:
                clone_game = game.clone()
        games += 1
    elapsed = time.perf_counter() - start
    game = clone_game or new_game("1958", seed=0)
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        game.clone()
    clone_us = (time.perf_counter() - t0) / n * 1e6
    return {"decisions_per_second": round(decisions / elapsed),
            "games_per_second": round(games / elapsed, 1),
            "games": games, "clone_microseconds": round(clone_us, 2),
            "log": log}


def null_action(legal: list[Action], rng: random.Random) -> Action:
    """The first legal pass, done or no-react; otherwise a legal action at random."""
    for action in legal:
        if action.verb in NULL_VERBS:
            return action
    return rng.choice(legal)


def run_null(seconds: float = 5.0, scenarios: tuple[str, ...] = SCENARIOS,
             log: bool = False) -> dict:
    """Both sides on the null policy, each scenario for ``seconds`` of CPU time (at least
    one game): game turns and decisions per CPU second and per wall second."""
    out: dict = {"policy": "null", "log": log}
    for scenario in scenarios:
        rng = random.Random(1)
        turns = decisions = games = 0
        wall0, cpu0 = time.perf_counter(), time.process_time()
        while games == 0 or time.process_time() - cpu0 < seconds:
            game = new_game(scenario, seed=games, log=log)
            while not game.is_over():
                game.apply(null_action(game.legal_actions(), rng))
                decisions += 1
            turns += game.state.turn          # turns 1..N were played (0 is the set-up)
            games += 1
        cpu = max(time.process_time() - cpu0, 1e-9)
        wall = max(time.perf_counter() - wall0, 1e-9)
        out[scenario] = {"turns_per_cpu_second": round(turns / cpu),
                         "turns_per_second": round(turns / wall),
                         "decisions_per_cpu_second": round(decisions / cpu),
                         "games": games, "turns": turns}
    return out
