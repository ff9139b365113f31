"""The strength ladder: a new bot against the bot it replaces, sides swapped.

Per scenario two cells on the same seeds: the new bot as the FLN against the old as
the Government, and the old as the FLN against the new as the Government (game *i*
of both cells has the same dice seed). The new bot's wins are counted over both
cells with a Wilson interval; it passes a scenario when it wins at least
``TARGET`` of all its games there.
"""

from __future__ import annotations

from collections.abc import Callable

from djebel.simulate.report import wilson
from djebel.simulate.tournament import run_tournament

TARGET = 0.60


def play(new: str, old: str, scenario: str, games: int, seed: int, workers: int = 1,
         progress: Callable[[int], None] | None = None, first: int = 0) -> dict:
    """Both cells of one scenario and the pooled result of the new bot, over games
    ``first`` to ``first + games - 1`` of the seed (a long ladder split into runs)."""
    cells = []
    for new_side in ("fln", "gov"):
        agents = {"fln": new, "gov": old} if new_side == "fln" else {"fln": old, "gov": new}
        out = run_tournament("algeria", scenario, agents, games, seed, workers=workers,
                             progress=progress, first=first)
        wins = out["wins"][new_side]
        cells.append({"new_side": new_side, "games": games, "wins": wins,
                      "ci95": list(wilson(wins, games)), "turns": out["turns"]["mean"],
                      "seconds": out["seconds"]})
    wins = sum(c["wins"] for c in cells)
    n = sum(c["games"] for c in cells)
    lo, hi = wilson(wins, n)
    return {"scenario": scenario, "new": new, "old": old, "cells": cells, "wins": wins,
            "games": n, "rate": wins / n if n else 0.0, "ci95": [lo, hi],
            "pass": n > 0 and wins / n >= TARGET}


def markdown(rows: list[dict], command: str = "") -> str:
    """One line per cell and one for both cells of each scenario."""
    lines = [f"`{command}`", ""] if command else []
    lines += ["| Scenario | New bot | Old bot | New bot's side | Games | New bot wins | Win rate "
              "| 95% CI (Wilson) | Mean length (turns) |",
              "|---|---|---|---|---:|---:|---:|---|---:|"]
    for r in rows:
        for c in r["cells"]:
            lo, hi = c["ci95"]
            lines.append(f"| {r['scenario']} | {r['new']} | {r['old']} | {c['new_side'].upper()} "
                         f"| {c['games']} | {c['wins']} | {100 * c['wins'] / c['games']:.1f}% "
                         f"| {100 * lo:.1f}% – {100 * hi:.1f}% | {c['turns']:.2f} |")
        lo, hi = r["ci95"]
        mark = "" if r["pass"] else f" (below {100 * TARGET:.0f}%)"
        lines.append(f"| **{r['scenario']}** | {r['new']} | {r['old']} | both | {r['games']} | "
                     f"{r['wins']} | **{100 * r['rate']:.1f}%**{mark} | {100 * lo:.1f}% – "
                     f"{100 * hi:.1f}% | |")
    return "\n".join(lines) + "\n"
