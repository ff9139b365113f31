"""The Insurgent Commander balance table behind ``djebel tournament skirmish``.

One row per scenario and pairing of bots: the French wins with a Wilson 95% interval,
each side's mean victory points and elements lost, the mean length, and how many of
the French elements fielded at the start are still in play after the first Insurgent
phase (the convoy's survival of the ambush). Game ``i`` of a row is game ``i`` of the
runner's job with the row's seed, so a row gives the same games whatever the number
of workers and whichever other rows are played with it.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from djebel.simulate import runner
from djebel.simulate.report import wilson

SIDES = ("french", "insurgents")


def play_row(scenario: str, french: str, insurgents: str, games: int, seed: int = 0,
             workers: int = 1, progress: Callable[[int], None] | None = None,
             search_budget: int | None = None) -> dict:
    """Play ``games`` battles of ``scenario``, French ``french`` v Insurgents
    ``insurgents``, and summarize them (see :func:`summarize_row`). ``search_budget``
    is the search bot's rollouts per searched decision (its default when None), for
    whichever side plays it."""
    agents = {"french": french, "insurgents": insurgents}
    options = {} if search_budget is None else {
        side: {"iterations": search_budget} for side, name in agents.items()
        if name == "search"}
    job = runner.Job("skirmish", scenario, agents, seed, agent_options=options)
    runner.check(job)
    records = runner.run(job, games, workers=workers, progress=progress)
    row = summarize_row(scenario, job.agents, seed, records)
    if options:
        row["search_budget"] = search_budget
    return row


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def summarize_row(scenario: str, agents: dict[str, str], seed: int,
                  records: list[dict]) -> dict:
    """Wins (French with a Wilson interval), mean VP and elements lost per side, mean
    turns, and French elements kept through the first Insurgent phase."""
    n = len(records)
    wins = {side: sum(1 for r in records if r["winner"] == side) for side in SIDES}
    lo, hi = wilson(wins["french"], n)
    first = [r["first_insurgent_phase"] for r in records if r.get("first_insurgent_phase")]
    kept = _mean([f["french_kept"] for f in first])
    fielded = _mean([f["french_fielded"] for f in first])
    return {
        "scenario": scenario, "french": agents["french"], "insurgents": agents["insurgents"],
        "seed": seed, "games": n, "wins": wins, "draws": n - sum(wins.values()),
        "french_rate": wins["french"] / n if n else 0.0, "french_ci95": [lo, hi],
        "vp": {side: _mean([r["scores"].get(side, 0) for r in records]) for side in SIDES},
        "lost": {side: _mean([r["casualties"].get(f"{side}_elements_lost", 0)
                              for r in records]) for side in SIDES},
        "turns": _mean([r["turns"] for r in records]),
        "kept_first_phase": {"kept": kept, "fielded": fielded,
                             "share": kept / fielded if fielded else 0.0},
    }


HEADER = ("| Scenario | French bot | Insurgent bot | Games | French wins | 95% CI (Wilson) "
          "| Draws | Mean VP F / I | Elements lost F / I | Kept after 1st Ins. phase "
          "| Mean turns |")


def markdown(rows: list[dict], command: str = "") -> str:
    """The table in Markdown, with the command that reproduces it above it."""
    lines = [f"`{command}`", ""] if command else []
    lines += [HEADER, "|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        lo, hi = r["french_ci95"]
        k = r["kept_first_phase"]
        lines.append(
            f"| {r['scenario']} | {r['french']} | {r['insurgents']} | {r['games']} "
            f"| {r['wins']['french']} ({100 * r['french_rate']:.1f}%) "
            f"| {100 * lo:.1f}% – {100 * hi:.1f}% | {r['draws']} "
            f"| {r['vp']['french']:.2f} / {r['vp']['insurgents']:.2f} "
            f"| {r['lost']['french']:.2f} / {r['lost']['insurgents']:.2f} "
            f"| {k['kept']:.2f} of {k['fielded']:.0f} ({100 * k['share']:.0f}%) "
            f"| {r['turns']:.2f} |")
    return "\n".join(lines) + "\n"
