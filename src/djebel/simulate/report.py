"""Summaries of a batch of games (win rates with Wilson intervals, victory levels,
game length) and the HTML report with matplotlib plots embedded as base64 PNG."""

from __future__ import annotations

import base64
import html
import io
import math
import statistics
from collections import Counter


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes out of ``n`` (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi


def summarize(results: list[dict], sides: tuple[str, ...]) -> dict:
    """Win rates (with 95% Wilson intervals), draws and unfinished games, victory levels
    by winner, and game length in turns."""
    n = len(results)
    wins = Counter(r["winner"] for r in results)
    out: dict = {"games": n, "wins": {}, "levels": {}, "length": {}}
    for side in sides:
        k = wins.get(side, 0)
        lo, hi = wilson(k, n)
        out["wins"][side] = {"games": k, "rate": k / n if n else 0.0, "ci95": [lo, hi]}
    out["draws"] = sum(1 for r in results if r["winner"] is None and r["level"] != "unfinished")
    out["unfinished"] = sum(1 for r in results if r["level"] == "unfinished")
    levels: Counter = Counter((r["winner"] or "none", r["level"]) for r in results)
    for (winner, level), k in sorted(levels.items()):
        out["levels"].setdefault(winner, {})[level] = k
    out["reasons"] = dict(Counter(r.get("reason") or "" for r in results).most_common())
    turns = [r["turns"] for r in results]
    if turns:
        out["length"] = {"mean": statistics.fmean(turns), "median": statistics.median(turns),
                         "min": min(turns), "max": max(turns),
                         "histogram": {str(t): c for t, c in sorted(Counter(turns).items())}}
    spent = spending(results)
    if spent:
        out["spent"] = spent
    cas = [r["casualties"] for r in results if isinstance(r.get("casualties"), dict)]
    if cas:
        keys = sorted({k for c in cas for k in c})
        out["casualties"] = {k: statistics.fmean(c.get(k, 0) for c in cas) for k in keys}
    return out


# ---------------------------------------------------------------- per-turn series

def turn_series(results: list[dict]) -> dict[str, list[float]]:
    """Per turn, over the games still going at its start: the number of such games,
    the mean FLN/GOV PSL with its 10th, 25th, 75th and 90th percentiles (the spread of
    the war), and the mean areas controlled."""
    by_turn: dict[int, list[list[int]]] = {}
    for r in results:
        for row in r.get("history", []):
            by_turn.setdefault(row[0], []).append(row)
    turns = sorted(by_turn)
    series: dict[str, list[float]] = {"turn": turns, "games": [], "fln_areas": [],
                                      "gov_areas": []}
    for side in ("fln", "gov"):
        for stat in ("", "_p10", "_p25", "_p75", "_p90"):
            series[f"{side}_psl{stat}"] = []
    for t in turns:
        rows = by_turn[t]
        series["games"].append(len(rows))
        for i, side in ((1, "fln"), (2, "gov")):
            values = [row[i] for row in rows]
            series[f"{side}_psl"].append(statistics.fmean(values))
            for q, v in zip((10, 25, 75, 90), _percentiles(values, (10, 25, 75, 90)),
                            strict=True):
                series[f"{side}_psl_p{q}"].append(v)
        series["fln_areas"].append(statistics.fmean(row[3] for row in rows))
        series["gov_areas"].append(statistics.fmean(row[4] for row in rows))
    return series


def _percentiles(values: list[float], qs: tuple[int, ...]) -> list[float]:
    """Percentiles by linear interpolation (a single value is every percentile)."""
    if len(values) == 1:
        return [float(values[0])] * len(qs)
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return [cuts[q - 1] for q in qs]


def spending(results: list[dict]) -> dict:
    """What each side paid in its own actions, per turn of the games still going at its
    start (GOV: PSP; FLN: AP): the mean per turn number and over every turn played."""
    by_turn: dict[int, list[list[int]]] = {}
    for r in results:
        for row in r.get("spent", []):
            by_turn.setdefault(row[0], []).append(row)
    rows = [row for t in by_turn for row in by_turn[t]]
    if not rows:
        return {}
    return {"turn": sorted(by_turn),
            "gov_psp": [statistics.fmean(r[1] for r in by_turn[t]) for t in sorted(by_turn)],
            "fln_ap": [statistics.fmean(r[2] for r in by_turn[t]) for t in sorted(by_turn)],
            "mean_gov_psp": statistics.fmean(r[1] for r in rows),
            "mean_fln_ap": statistics.fmean(r[2] for r in rows)}


# ---------------------------------------------------------------- HTML

def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def plots(results: list[dict]) -> dict[str, str]:
    """The report's figures as base64 PNG: both PSL tracks over the turns (mean, middle
    half and 10-90% band of the games still going), areas controlled and what each side
    spends per turn, victory levels and game length."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    out = {}
    series = turn_series(results)
    if series["turn"]:
        fig = Figure(figsize=(7, 4.2))
        ax = fig.add_subplot()
        for side, color, marker in (("fln", "#2e7d32", "o"), ("gov", "#1565c0", "s")):
            name = side.upper()
            ax.fill_between(series["turn"], series[f"{side}_psl_p10"],
                            series[f"{side}_psl_p90"], color=color, alpha=0.12,
                            label=f"{name} PSL, 10-90% of games")
            ax.fill_between(series["turn"], series[f"{side}_psl_p25"],
                            series[f"{side}_psl_p75"], color=color, alpha=0.25,
                            label=f"{name} PSL, middle half")
            ax.plot(series["turn"], series[f"{side}_psl"], marker=marker, color=color,
                    label=f"{name} PSL, mean")
        ax.set_xlabel("turn")
        ax.set_ylabel("PSL at the start of the turn")
        ax.set_title("Both PSL tracks over the turns (games still going)")
        ax.legend(fontsize="small", ncols=3, loc="upper center", bbox_to_anchor=(0.5, -0.15))
        games = ax.twinx()
        games.plot(series["turn"], series["games"], color="#757575", linestyle=":",
                   label="games still going")
        games.set_ylabel("games still going", color="#757575")
        games.set_ylim(bottom=0)
        out["psl"] = _png(fig)
        out["control"] = _sides_per_turn(
            series["turn"], (series["fln_areas"], "FLN-controlled"),
            (series["gov_areas"], "GOV-controlled"), "areas (mean)",
            "Areas controlled at the start of each turn", 3.6)
    spent = spending(results)
    if spent:
        out["spending"] = _sides_per_turn(
            spent["turn"], (spent["fln_ap"], "FLN AP spent"),
            (spent["gov_psp"], "GOV PSP spent"), "points (mean)",
            "What each side pays in its own actions, per turn", 3.4, gov_first=True)
    levels = Counter(f"{r['winner'] or 'none'} {r['level']}" for r in results)
    if levels:
        fig = Figure(figsize=(7, 3.6))
        ax = fig.add_subplot()
        names = sorted(levels)
        colors = ["#2e7d32" if k.startswith("fln") else "#1565c0" if k.startswith("gov")
                  else "#757575" for k in names]
        ax.bar(names, [levels[k] for k in names], color=colors)
        ax.set_ylabel("games")
        ax.set_title("Victory levels")
        ax.tick_params(axis="x", labelrotation=30)
        out["levels"] = _png(fig)
    turns = Counter(r["turns"] for r in results)
    if turns:
        fig = Figure(figsize=(7, 3.0))
        ax = fig.add_subplot()
        ax.bar(sorted(turns), [turns[t] for t in sorted(turns)], color="#6d4c41")
        ax.set_xlabel("turns played")
        ax.set_ylabel("games")
        ax.set_title("Game length")
        out["length"] = _png(fig)
    return out


def html_report(title: str, job: dict, summary: dict, results: list[dict]) -> str:
    """A self-contained HTML page: the job, the summary tables and the plots."""
    esc = html.escape
    rows = "".join(
        f"<tr><td>{esc(side)}</td><td>{w['games']}</td><td>{100 * w['rate']:.1f}%</td>"
        f"<td>{100 * w['ci95'][0]:.1f}% – {100 * w['ci95'][1]:.1f}%</td></tr>"
        for side, w in summary["wins"].items())
    levels = "".join(f"<tr><td>{esc(w)}</td><td>{esc(lv)}</td><td>{k}</td></tr>"
                     for w, by in summary["levels"].items() for lv, k in by.items())
    length = summary.get("length") or {}
    reasons = "".join(f"<tr><td>{esc(k)}</td><td>{v}</td></tr>"
                      for k, v in summary.get("reasons", {}).items())
    imgs = "".join(f'<figure><img alt="{esc(name)}" src="data:image/png;base64,{data}">'
                   f"<figcaption>{esc(name)}</figcaption></figure>"
                   for name, data in plots(results).items())
    spent = summary.get("spent") or {}
    spent_html = ("<h2>Spent per turn</h2><table><tr><th>turn</th><th>GOV PSP</th>"
                  "<th>FLN AP</th></tr>" + "".join(
                      f"<tr><td>{t}</td><td>{g:.2f}</td><td>{f:.2f}</td></tr>"
                      for t, g, f in zip(spent["turn"], spent["gov_psp"], spent["fln_ap"],
                                         strict=True))
                  + f"<tr><th>every turn</th><td>{spent['mean_gov_psp']:.2f}</td>"
                    f"<td>{spent['mean_fln_ap']:.2f}</td></tr></table>") if spent else ""
    cas = summary.get("casualties") or {}
    cas_html = ("<h2>Mean casualties per game</h2><table>" + "".join(
        f"<tr><td>{esc(k.replace('_', ' '))}</td><td>{v:.2f}</td></tr>" for k, v in cas.items())
        + "</table>") if cas else ""
    job_rows = "".join(f"<tr><th>{esc(str(k))}</th><td>{esc(str(v))}</td></tr>"
                       for k, v in job.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}
table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:.3em .6em}}
figure{{margin:1em 0}}</style></head><body>
<h1>{esc(title)}</h1>
<table>{job_rows}</table>
<h2>Wins ({summary['games']} games; draws {summary['draws']},
unfinished {summary['unfinished']})</h2>
<table><tr><th>side</th><th>wins</th><th>rate</th><th>95% Wilson interval</th></tr>{rows}</table>
<h2>Victory levels</h2>
<table><tr><th>winner</th><th>level</th><th>games</th></tr>{levels}</table>
<h2>How the games ended</h2>
<table><tr><th>reason</th><th>games</th></tr>{reasons}</table>
<h2>Game length</h2>
<p>turns: mean {length.get('mean', 0):.2f}, median {length.get('median', 0)},
min {length.get('min', 0)}, max {length.get('max', 0)}</p>
{spent_html}
{cas_html}
<h2>Plots</h2>
{imgs}
</body></html>
"""


def _sides_per_turn(turns, fln, gov, ylabel: str, title: str, height: float,
                    gov_first: bool = False) -> str:
    """One line per side over the turns (``fln`` and ``gov`` are (values, label)), as PNG."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, height))
    ax = fig.add_subplot()
    lines = [(gov, "s", "#1565c0"), (fln, "o", "#2e7d32")]
    for (values, label), marker, color in (lines if gov_first else lines[::-1]):
        ax.plot(turns, values, marker=marker, color=color, label=label)
    ax.set_xlabel("turn")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return _png(fig)
