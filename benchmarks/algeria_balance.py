"""Regenerate the Algeria balance tables of docs/balance.md.

    python benchmarks/algeria_balance.py [GAMES] [WORKERS]

Heuristic bots on both sides, every scenario without options, then each optional
rule alone where it applies; every run uses job seed 2026, so game *i* of a run with
an option has the same dice and bot seeds as game *i* without it. Prints Markdown.
"""

from __future__ import annotations

import math
import sys

from djebel.simulate.report import summarize, wilson
from djebel.simulate.runner import Job, run

SEED = 2026
RUNS = [("1954", ""), ("1958", ""), ("1960", ""),
        ("1954", "slow_french_reaction"), ("1954", "deterministic_independence"),
        ("1954", "shorter_game"), ("1958", "shorter_game"), ("1960", "shorter_game"),
        ("1954", "border_zone_cuts_ap"), ("1958", "border_zone_cuts_ap"),
        ("1960", "border_zone_cuts_ap")]


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """Newcombe's hybrid score interval for p2 - p1 from the two Wilson intervals."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
            d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


def main(games: int = 1000, workers: int | None = None) -> None:
    summaries = {}
    for scenario, option in RUNS:
        job = Job("algeria", scenario, {"fln": "heuristic", "gov": "heuristic"}, seed=SEED,
                  options={option: True} if option else {})
        summaries[scenario, option] = summarize(run(job, games, workers), ("fln", "gov"))
        print(f"{scenario} {option or '(none)'} done", file=sys.stderr)
    print("| Scenario | Options | Games | FLN wins | FLN win rate | 95% CI (Wilson) | GOV wins "
          "| Draws / unfinished | Mean length (turns) | Victory levels |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---|")
    for (scenario, option), s in summaries.items():
        f, g = s["wins"]["fln"], s["wins"]["gov"]
        lo, hi = f["ci95"]
        levels = "; ".join(f"{w} {lvl} {k}" for w, d in s["levels"].items()
                           for lvl, k in sorted(d.items()))
        print(f"| {scenario} | {option or '(none)'} | {s['games']} | {f['games']} "
              f"| {f['rate']:.1%} | {lo:.1%} – {hi:.1%} | {g['games']} "
              f"| {s['draws']} / {s['unfinished']} | {s['length']['mean']:.2f} | {levels} |")
    print()
    print("| Optional rule | Scenario | FLN win rate off | FLN win rate on | Effect (on − off) "
          "| 95% CI of the effect (Newcombe) |")
    print("|---|---|---:|---:|---:|---|")
    for (scenario, option), s in summaries.items():
        if not option:
            continue
        base = summaries[scenario, ""]
        k1, n1 = base["wins"]["fln"]["games"], base["games"]
        k2, n2 = s["wins"]["fln"]["games"], s["games"]
        lo, hi = newcombe(k1, n1, k2, n2)
        print(f"| {option} | {scenario} | {k1 / n1:.1%} | {k2 / n2:.1%} "
              f"| {(k2 / n2 - k1 / n1) * 100:+.1f} pts | {lo * 100:+.1f} to {hi * 100:+.1f} pts |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000,
         int(sys.argv[2]) if len(sys.argv) > 2 else None)
