"""Simulation throughput: complete 1954 games per second on one core and on every core.

Heuristic against heuristic when ``djebel.algeria.bots`` provides it, otherwise
random against random (the result says which).
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor

from djebel.simulate.runner import Job, default_workers, play_one

SCENARIO = "1954"


def agent_name() -> tuple[str, str]:
    """("heuristic", "") when the heuristic bot is available, else ("random", why)."""
    from djebel.agents import make_agent

    try:
        make_agent("heuristic", "algeria", "fln", 0)
        make_agent("heuristic", "algeria", "gov", 0)
    except Exception as exc:        # noqa: BLE001 - any failure means: not available
        return "random", f"heuristic agent not available ({type(exc).__name__}: {exc})"
    return "heuristic", ""


def _play_for(job: Job, seconds: float, first: int, stride: int) -> tuple[int, float]:
    """Complete games ``first, first + stride, ...`` until ``seconds`` have passed;
    (games, elapsed). At least one game is always played."""
    start = time.perf_counter()
    games = 0
    index = first
    while True:
        play_one(job, index)
        games += 1
        index += stride
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed


def run(seconds: float = 10.0, workers: int | None = None) -> dict:
    """Games/s on one core (half the time budget) and on ``workers`` processes (default:
    every core; the other half), and the speed-up."""
    name, note = agent_name()
    job = Job("algeria", SCENARIO, {"fln": name, "gov": name}, seed=12345)
    workers = workers or default_workers()
    half = max(seconds / 2, 0.01)
    play_one(job, 10**6)                                 # warm the caches in this process
    g1, t1 = _play_for(job, half, 0, 1)
    one = g1 / t1
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(play_one, [job] * workers, range(10**6, 10**6 + workers)))   # warm-up
        start = time.perf_counter()
        parts = list(pool.map(_play_for, [job] * workers, [half] * workers,
                              range(workers), [workers] * workers))
        wall = time.perf_counter() - start
    gn = sum(g for g, _ in parts)
    many = gn / wall
    out = {
        "scenario": SCENARIO, "agents": name,
        "games_per_second_1_core": round(one, 2), "games_1_core": g1,
        "workers": workers, "games_per_second_all_cores": round(many, 2),
        "games_all_cores": gn, "speedup": round(many / one, 2) if one else 0.0,
    }
    if note:
        out["note"] = note
    return out
