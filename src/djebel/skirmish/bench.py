"""Benchmarks behind ``djebel bench skirmish``: LOS queries and bot battles per second."""

from __future__ import annotations

import random
import time

from djebel.skirmish import new_game
from djebel.skirmish.bots import MatrixBot, play_out
from djebel.skirmish.geometry import Body, los_uncached


def run(seconds: float = 5.0) -> dict:
    """Measure on one core for about ``seconds``: half on LOS, half on battles."""
    rng = random.Random(1)
    game = new_game("ambush", 0, {"log": False})
    terrain = game.terrain
    bodies = [Body(rng.uniform(2, 120), rng.uniform(2, 120), rng.uniform(0, 360), 4.0, 3.0)
              for _ in range(400)]
    half = max(0.2, seconds / 2)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < half:
        for _ in range(50):
            los_uncached(terrain, bodies[rng.randrange(400)], bodies[rng.randrange(400)])
            n += 1
    los_time = time.perf_counter() - t0
    battles, actions = 0, 0
    t0 = time.perf_counter()
    c0 = time.process_time()        # CPU time: a fair figure on a machine shared with others
    scenarios = ("ambush", "search", "hotlz")
    while time.perf_counter() - t0 < half or battles == 0:
        g = new_game(scenarios[battles % 3], battles, {"log": False})
        actions += play_out(g, MatrixBot(battles, log=False), MatrixBot(battles + 7, log=False))
        battles += 1
    battle_time = time.perf_counter() - t0
    battle_cpu = time.process_time() - c0
    return {
        "los_queries_per_second": round(n / los_time, 1),
        "battles_per_second": round(battles / battle_time, 3),
        "battles_per_cpu_second": round(battles / battle_cpu, 3) if battle_cpu else None,
        "actions_per_second": round(actions / battle_time, 1),
        "battles": battles,
        "seconds": round(los_time + battle_time, 2),
    }
