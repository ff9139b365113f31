"""``djebel bench algeria``: random-play throughput and clone time on one core."""

from __future__ import annotations

import random
import time

from djebel.algeria.game import new_game


def run(seconds: float = 5.0, log: bool = False) -> dict:
    rng = random.Random(1)
    decisions = games = 0
    start = time.perf_counter()
    clone_game = None
    seed = 0
    while time.perf_counter() - start < seconds:
        game = new_game(("1954", "1958", "1960")[seed % 3], seed=seed, log=log)
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
