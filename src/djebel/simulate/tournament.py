"""Tournaments: one agent per side, many games, wins with a Wilson confidence interval.

Game ``i`` of a tournament with seed ``K`` gets its dice seed and its agents'
seeds from ``(K, i)`` alone, so a tournament is reproducible game by game and
gives the same totals whatever the number of worker processes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from djebel.simulate.report import wilson
from djebel.simulate.runner import derive_seed


def _new_game(game: str, scenario: str, seed: int, options: dict | None):
    if game == "algeria":
        from djebel.algeria.game import new_game
        return new_game(scenario, seed, options or None, log=False)
    raise ValueError(f"tournaments are for algeria, not {game!r}")


def play_one(game: str, scenario: str, agents: dict, index: int, seed: int,
             options: dict | None = None, agent_options: dict | None = None) -> dict:
    """Play game ``index`` to its end and return its record."""
    from djebel.agents import make_agent

    gseed = derive_seed(seed, index)
    g = _new_game(game, scenario, gseed, options)
    players = {}
    for side, name in agents.items():
        kw = (agent_options or {}).get(side) or {}
        players[side] = make_agent(name, game, side, derive_seed(seed, index, side), **kw)
    t0 = time.perf_counter()
    decisions = 0
    while not g.is_over():
        g.apply(players[g.active_side].choose(g))
        decisions += 1
    r = g.result()
    return {"index": index, "seed": gseed, "winner": r.winner, "level": r.level,
            "psl": dict(r.scores), "turns": g.state.turn, "decisions": decisions,
            "seconds": round(time.perf_counter() - t0, 4)}


def _play_star(args: tuple) -> dict:
    return play_one(*args)


def run_tournament(game: str, scenario: str, agents: dict, games: int, seed: int = 0,
                   options: dict | None = None, agent_options: dict | None = None,
                   workers: int = 1, progress: Callable[[int], None] | None = None,
                   first: int = 0) -> dict:
    """Play ``games`` games of ``agents`` ({side: agent name}) and summarize them:
    games ``first`` to ``first + games - 1`` of the seed, so that runs of one seed
    split at any game add up to the run of all of them.

    ``agent_options`` passes keyword options per side to ``make_agent`` (for example
    ``{"fln": {"iterations": 100}}``). The summary is deterministic for a seed, apart
    from the timing fields.
    """
    jobs = [(game, scenario, dict(agents), i, seed, options, agent_options)
            for i in range(first, first + games)]
    records: list[dict] = []
    t0 = time.perf_counter()
    if workers > 1 and games > 1:
        with ProcessPoolExecutor(workers) as pool:
            for rec in pool.map(_play_star, jobs, chunksize=1):
                records.append(rec)
                if progress:
                    progress(1)
    else:
        for job in jobs:
            records.append(_play_star(job))
            if progress:
                progress(1)
    elapsed = time.perf_counter() - t0
    out = summarize(game, scenario, agents, seed, options, records, elapsed)
    out["agent_options"] = {side: dict(kw) for side, kw in (agent_options or {}).items()}
    return out


def summarize(game: str, scenario: str, agents: dict, seed: int, options: dict | None,
              records: list[dict], elapsed: float = 0.0) -> dict:
    sides = tuple(agents)
    n = len(records)
    wins = {side: sum(1 for r in records if r["winner"] == side) for side in sides}
    levels = {side: {} for side in sides}
    for r in sorted(records, key=lambda r: r["index"]):
        by = levels[r["winner"]]
        by[r["level"]] = by.get(r["level"], 0) + 1
    first = sides[0]
    lo, hi = wilson(wins[first], n)
    turns = [r["turns"] for r in records]
    return {
        "game": game, "scenario": scenario, "agents": dict(agents), "seed": seed,
        "options": dict(options or {}), "games": n, "wins": wins, "levels": levels,
        f"{first}_win_rate": wins[first] / n if n else 0.0,
        f"{first}_ci95": [lo, hi],
        "turns": {"mean": sum(turns) / n if n else 0.0, "min": min(turns, default=0),
                  "max": max(turns, default=0)},
        "records": sorted(records, key=lambda r: r["index"]),
        "seconds": round(elapsed, 3),
        "games_per_second": round(n / elapsed, 2) if elapsed else None,
    }
