"""The gauntlet: every offered Algeria bot against each simple strategy, both sides,
every scenario, with the bot's win rate and its Wilson interval per cell.

A cell is a tournament (``run_tournament``) of ``games`` games seeded from the
gauntlet seed, the scenario, the bot and the strategy, so a cell gives the same
games whichever other cells are played with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from djebel.simulate.runner import derive_seed
from djebel.simulate.tournament import run_tournament

BOTS = ("heuristic", "search", "planner")
SCENARIOS = ("1954", "1958", "1960")
TARGET = 0.95       # each bot should win at least this share of every cell


def cells(bots: Iterable[str], scenarios: Iterable[str]) -> list[tuple[str, str, str, str]]:
    """(scenario, bot, bot's side, strategy) for every cell of the gauntlet."""
    from djebel.agents import gauntlet_names

    out = []
    for scenario in scenarios:
        for bot in bots:
            for side in ("fln", "gov"):
                other = "gov" if side == "fln" else "fln"
                out += [(scenario, bot, side, name) for name in gauntlet_names("algeria", other)]
    return out


def play_cell(scenario: str, bot: str, side: str, strategy: str, games: int, seed: int,
              search: dict | None = None, workers: int = 1,
              progress: Callable[[int], None] | None = None, first: int = 0) -> dict:
    """The bot on ``side`` against ``strategy`` on the other: its wins and interval,
    over games ``first`` to ``first + games - 1`` of the cell (a cell played in runs:
    games 0-49, then 50-199, add up to the 200-game cell)."""
    other = "gov" if side == "fln" else "fln"
    agents = {side: bot, other: strategy}
    cell_seed = derive_seed(seed, 0, f"{scenario}:{bot}:{side}:{strategy}")
    opts = {side: dict(search or {})} if bot == "search" else {}
    out = run_tournament("algeria", scenario, {"fln": agents["fln"], "gov": agents["gov"]},
                         games, cell_seed, None, opts, workers=workers, progress=progress,
                         first=first)
    wins = out["wins"][side]
    from djebel.simulate.report import wilson
    lo, hi = wilson(wins, games)
    return {"scenario": scenario, "bot": bot, "side": side, "strategy": strategy,
            "games": games, "wins": wins, "rate": wins / games if games else 0.0,
            "ci95": [lo, hi], "turns": out["turns"]["mean"], "seconds": out["seconds"]}


def markdown(rows: list[dict], command: str = "") -> str:
    """The gauntlet table in Markdown (one line per cell, the cells below TARGET marked)."""
    lines = []
    if command:
        lines += [f"`{command}`", ""]
    lines += ["| Scenario | Bot | Side | Against | Games | Bot wins | Win rate | "
              "95% CI (Wilson) | Mean length (turns) |",
              "|---|---|---|---|---:|---:|---:|---|---:|"]
    for r in rows:
        mark = "" if r["rate"] >= TARGET else " **below target**"
        lo, hi = r["ci95"]
        lines.append(f"| {r['scenario']} | {r['bot']} | {r['side'].upper()} | {r['strategy']} "
                     f"| {r['games']} | {r['wins']} | {100 * r['rate']:.1f}%{mark} | "
                     f"{100 * lo:.1f}% – {100 * hi:.1f}% | {r['turns']:.1f} |")
    return "\n".join(lines) + "\n"
