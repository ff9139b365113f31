"""The balance of Algeria as measured with given bots on both sides (the Algeria
sections of docs/balance.md).

Every scenario without options, then each optional rule switched on alone where it is
allowed (13.1 and 13.2 in 1954 only; 13.3 and DIS-05 everywhere). Every run uses the
same job seed, so game *i* of a run with an option has the same dice and bot seeds as
game *i* without it. The effect of an option is the change in the FLN win rate, with
Newcombe's hybrid score interval built from the two Wilson intervals.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from djebel.simulate import report
from djebel.simulate.runner import Job, run

SETUPS: tuple[tuple[str, str], ...] = (
    ("1954", ""), ("1958", ""), ("1960", ""),
    ("1954", "slow_french_reaction"), ("1954", "deterministic_independence"),
    ("1954", "shorter_game"), ("1958", "shorter_game"), ("1960", "shorter_game"),
    ("1954", "border_zone_cuts_ap"), ("1958", "border_zone_cuts_ap"),
    ("1960", "border_zone_cuts_ap"),
)
RULES = {"slow_french_reaction": "13.1", "deterministic_independence": "13.2",
         "shorter_game": "13.3", "border_zone_cuts_ap": "DIS-05"}


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """Newcombe's hybrid score interval (method 10) of the difference p2 - p1."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = report.wilson(k1, n1)
    l2, u2 = report.wilson(k2, n2)
    d = p2 - p1
    return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
            d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


def measure(agents: dict[str, str], games: int, seed: int, workers: int | None = None,
            setups: tuple[tuple[str, str], ...] = SETUPS,
            progress: Callable[[str], None] | None = None) -> list[dict]:
    """One summary per setup (``report.summarize`` plus the scenario and option)."""
    rows = []
    for scenario, option in setups:
        job = Job("algeria", scenario, dict(agents), seed, {option: True} if option else {})
        summary = report.summarize(run(job, games, workers=workers), ("fln", "gov"))
        rows.append({"scenario": scenario, "option": option, **summary})
        if progress:
            progress(f"{scenario} {option or '(none)'}: FLN {summary['wins']['fln']['games']}"
                     f"/{games}")
    return rows


def _levels(row: dict) -> str:
    return "; ".join(f"{w} {lv} {k}" for w, by in row["levels"].items() for lv, k in by.items())


def _lengths(row: dict) -> str:
    hist = row["length"].get("histogram", {})
    return " ".join(f"{t}:{k}" for t, k in hist.items())


def markdown(rows: list[dict], agents: dict[str, str], games: int, seed: int,
             command: str) -> str:
    """The page: win rates, levels, length, spending, and the effect of each option."""
    fln, gov = agents["fln"], agents["gov"]
    out = [f"# Algeria balance with the {fln} bot (FLN) and the {gov} bot (Government)", "",
           f"FLN win rates of *Algeria* when the `{fln}` bot plays the FLN and the `{gov}` "
           "bot the Government, per scenario"
           + (" and with each optional rule switched on alone" if any(
               r["option"] for r in rows) else "")
           + f". Each line is {games} complete games (job seed {seed}); 95% intervals "
           "are Wilson score intervals, and the interval of an effect (the change in the "
           "FLN win rate when the rule is on) is Newcombe's hybrid score interval built "
           "from the two Wilson intervals. Regenerate with:", "", "```sh", command, "```", "",
           "These figures measure the **bots**, not the boardgame played by people. "
           "`djebel simulate algeria --report FILE` draws, for any of these lines, both PSL "
           "tracks over the turns (mean, middle half and 10-90% of the games still going), "
           "the areas controlled and what each side spends per turn.", "",
           "## FLN win rate per scenario", "",
           "| Scenario | Options | Games | FLN wins | FLN win rate | 95% CI (Wilson) | GOV wins "
           "| Draws / unfinished | Mean length (turns) | Length: turns:games | Victory levels |",
           "|---|---|---:|---:|---:|---|---:|---:|---:|---|---|"]
    for r in rows:
        w = r["wins"]["fln"]
        lo, hi = w["ci95"]
        out.append(f"| {r['scenario']} | {r['option'] or '(none)'} | {r['games']} | "
                   f"{w['games']} | {100 * w['rate']:.1f}% | {100 * lo:.1f}% – {100 * hi:.1f}% "
                   f"| {r['wins']['gov']['games']} | {r['draws']} / {r['unfinished']} | "
                   f"{r['length'].get('mean', 0):.2f} | {_lengths(r)} | {_levels(r)} |")
    out += ["", "## What each side spends per turn", "",
            "Per turn of the games still going at its start: the PSP the Government pays in "
            "its own actions (mobilization and activation, B.1; mission costs, B.3; a failed "
            "Suppression, 9.26, counts too) and the AP the FLN pays (building, converting, "
            "missions; A.1, A.2). The FLN pays no PSP for its choices.", "",
            "| Scenario | Options | GOV PSP per turn | FLN AP per turn "
            "| GOV PSP by turn (1, 2, ...) | FLN AP by turn (1, 2, ...) |",
            "|---|---|---:|---:|---|---|"]
    for r in rows:
        sp = r.get("spent") or {}
        if not sp:
            continue
        out.append(f"| {r['scenario']} | {r['option'] or '(none)'} | {sp['mean_gov_psp']:.2f} | "
                   f"{sp['mean_fln_ap']:.2f} | "
                   + " ".join(f"{v:.1f}" for v in sp["gov_psp"]) + " | "
                   + " ".join(f"{v:.1f}" for v in sp["fln_ap"]) + " |")
    base = {r["scenario"]: r for r in rows if not r["option"]}
    if not any(r["option"] for r in rows):
        return "\n".join(out + ["", "No optional rule was measured (``--no-options``).", ""])
    out += ["", "## Effect of each optional rule", "",
            "| Optional rule | Scenario | FLN win rate off | FLN win rate on | Effect (on − off) "
            "| 95% CI of the effect (Newcombe) | Mean length off / on |",
            "|---|---|---:|---:|---:|---|---|"]
    for r in rows:
        off = base.get(r["scenario"])
        if not r["option"] or off is None:
            continue
        k0, n0 = off["wins"]["fln"]["games"], off["games"]
        k1, n1 = r["wins"]["fln"]["games"], r["games"]
        lo, hi = newcombe(k0, n0, k1, n1)
        out.append(f"| {r['option']} ({RULES[r['option']]}) | {r['scenario']} | "
                   f"{100 * k0 / n0:.1f}% | {100 * k1 / n1:.1f}% | "
                   f"{100 * (k1 / n1 - k0 / n0):+.1f} pts | {100 * lo:+.1f} to {100 * hi:+.1f} pts "
                   f"| {off['length'].get('mean', 0):.2f} / {r['length'].get('mean', 0):.2f} |")
    out += ["", "Because the games are paired (the same seeds with and without the option), "
            "the Newcombe intervals, which assume independent samples, are conservative. "
            "Where a rule never comes into play the paired games are identical and the "
            "effect is exactly zero: `shorter_game` (13.3) cannot decide a game before turn "
            "12, and `border_zone_cuts_ap` (DIS-05) only matters once the Border Zone is "
            "mobilized.", ""]
    return "\n".join(out)
