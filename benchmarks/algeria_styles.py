"""The win rate of each heuristic style the search agent switches between, per scenario.

    python benchmarks/algeria_styles.py [GAMES] [WORKERS]

Each style (``djebel.algeria.bots.search.STYLES``) plays its side against the plain
heuristic bot, GAMES games per scenario with tournament seed 2026, so game *i* has
the same dice and bot seeds for every style. Prints the Markdown table of
docs/balance.md.
"""

from __future__ import annotations

import sys

from djebel.algeria.bots.search import STYLES
from djebel.simulate.report import wilson
from djebel.simulate.tournament import run_tournament

SEED = 2026
SCENARIOS = ("1954", "1958", "1960")


def label(style: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in style.items()) or "(plain heuristic)"


def main(games: int = 200, workers: int = 2) -> None:
    print("| Side | Style | " + " | ".join(f"{sc} wins (95% CI)" for sc in SCENARIOS) + " |")
    print("|---|---|" + "---:|" * len(SCENARIOS))
    for side, styles in STYLES.items():
        for style in styles:
            cells = []
            for sc in SCENARIOS:
                out = run_tournament("algeria", sc, {"fln": "heuristic", "gov": "heuristic"},
                                     games, SEED, agent_options={side: style},
                                     workers=workers)
                k = out["wins"][side]
                lo, hi = wilson(k, games)
                cells.append(f"{k / games:.1%} ({lo:.0%}–{hi:.0%})")
            print(f"| {side.upper()} | {label(style)} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
