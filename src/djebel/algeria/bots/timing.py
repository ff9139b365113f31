"""How long a bot thinks: seconds per decision of an Algeria bot, on one core.

``djebel bench bot`` plays the bot against the heuristic on each side of each
scenario and prints the mean and the largest time per decision (every decision
the bot was asked, forced ones too) and per decision with a choice. Figures are
printed, never asserted: they depend on the machine. The CPU time of each decision
(``time.process_time``) is printed beside the wall-clock time: on a loaded machine it
is the figure an idle core would show.
"""

from __future__ import annotations

import statistics
import time

from djebel.agents import make_agent
from djebel.algeria.game import new_game
from djebel.simulate.runner import derive_seed

SCENARIOS = ("1954", "1958", "1960")


def run(bot: str = "planner", games: int = 2, seed: int = 1,
        scenarios: tuple[str, ...] = SCENARIOS) -> dict:
    """Per scenario and side: games, decisions, mean and max seconds per decision."""
    out: dict = {"bot": bot, "rows": []}
    every: list[float] = []
    every_cpu: list[float] = []
    for scenario in scenarios:
        for side in ("fln", "gov"):
            other = "gov" if side == "fln" else "fln"
            times: list[float] = []
            cpu: list[float] = []
            for i in range(games):
                game = new_game(scenario, derive_seed(seed, i, scenario), log=False)
                agents = {side: make_agent(bot, "algeria", side, derive_seed(seed, i, side)),
                          other: make_agent("heuristic", "algeria", other,
                                            derive_seed(seed, i, other))}
                while not game.is_over():
                    agent = agents[game.active_side]
                    t0, c0 = time.perf_counter(), time.process_time()
                    action = agent.choose(game)
                    if agent is agents[side]:
                        times.append(time.perf_counter() - t0)
                        cpu.append(time.process_time() - c0)
                    game.apply(action)
            every += times
            every_cpu += cpu
            out["rows"].append({"scenario": scenario, "side": side, "games": games,
                                "decisions": len(times),
                                "mean_s": round(statistics.fmean(times), 4),
                                "max_s": round(max(times), 4),
                                "cpu_mean_s": round(statistics.fmean(cpu), 4),
                                "cpu_max_s": round(max(cpu), 4)})
    out["mean_s"] = round(statistics.fmean(every), 4) if every else 0.0
    out["max_s"] = round(max(every), 4) if every else 0.0
    out["cpu_mean_s"] = round(statistics.fmean(every_cpu), 4) if every_cpu else 0.0
    out["cpu_max_s"] = round(max(every_cpu), 4) if every_cpu else 0.0
    return out
