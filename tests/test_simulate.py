"""Batch simulation: reproducible seeds, summaries, HTML report, CLI, Ray backend, bench."""

from __future__ import annotations

import builtins
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from djebel.core.errors import ScenarioError
from djebel.simulate import bench, report, runner
from djebel.simulate.cli import app
from djebel.simulate.runner import Job

JOB = Job("algeria", "1958", {"fln": "random", "gov": "random"}, seed=11)


def test_same_seed_same_results_whatever_the_workers():
    one = runner.run(JOB, 12, workers=1)
    two = runner.run(JOB, 12, workers=2)
    assert one == two
    assert [r["index"] for r in one] == list(range(12))
    other = runner.run(Job("algeria", "1958", {"fln": "random", "gov": "random"}, seed=12),
                       12, workers=1)
    assert other != one


def test_game_seed_depends_on_job_seed_and_index_only():
    assert runner.derive_seed(3, 4) == runner.derive_seed(3, 4)
    seeds = {runner.derive_seed(s, i, p) for s in range(3) for i in range(20)
             for p in ("dice", "fln", "gov")}
    assert len(seeds) == 180
    assert all(0 <= x < 2**63 for x in seeds)


def test_chunks_cover_every_game_once():
    for games in (0, 1, 7, 100, 1001):
        flat = [i for c in runner.chunks(games, 4) for i in c]
        assert flat == list(range(games))


def test_game_result_records_turns():
    r = runner.play_one(JOB, 0)
    assert r["winner"] in ("fln", "gov", None)
    assert r["turns"] >= 1 and r["history"]
    turns = [row[0] for row in r["history"]]
    assert turns == sorted(set(turns)) and turns[0] == 1
    assert all(len(row) == 5 for row in r["history"])


def test_wilson_interval():
    lo, hi = report.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert report.wilson(0, 10)[0] == 0.0 and report.wilson(10, 10)[1] == 1.0
    assert report.wilson(0, 0) == (0.0, 1.0)


def test_summary_and_report(tmp_path):
    results = runner.run(JOB, 10, workers=1)
    summary = report.summarize(results, ("fln", "gov"))
    assert summary["games"] == 10
    assert sum(w["games"] for w in summary["wins"].values()) + summary["draws"] + summary[
        "unfinished"] == 10
    for w in summary["wins"].values():
        assert w["ci95"][0] <= w["rate"] <= w["ci95"][1]
    assert sum(summary["reasons"].values()) == 10
    page = report.html_report("test", JOB.to_json(), summary, results)
    assert page.count("data:image/png;base64,") == 5
    for name in ("psl", "control", "spending", "levels"):
        assert f'alt="{name}"' in page


runner_cli = CliRunner()


def test_cli_json_and_report(tmp_path):
    out = tmp_path / "out.html"
    res = runner_cli.invoke(app, ["algeria", "--scenario", "1960", "--games", "6", "--fln",
                                  "random", "--gov", "random", "--seed", "3", "--workers", "1",
                                  "--json", "--report", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["summary"]["games"] == 6
    assert set(data["summary"]["wins"]) == {"fln", "gov"}
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "data:image/png;base64," in text


def test_cli_human_output_with_option():
    res = runner_cli.invoke(app, ["algeria", "--scenario", "1954", "--games", "4", "--fln",
                                  "random", "--gov", "random", "--workers", "2",
                                  "--option", "shorter_game"])
    assert res.exit_code == 0, res.output
    assert "Wilson" in res.output and "victory levels" in res.output


def test_bad_job_fails_early():
    with pytest.raises(ScenarioError):
        runner.check(Job("algeria", "1999", {"fln": "random", "gov": "random"}))
    with pytest.raises(ScenarioError):
        runner.check(Job("algeria", "1958", {"fln": "random", "gov": "random"},
                         options={"slow_french_reaction": True}))
    with pytest.raises(ScenarioError):
        runner.run(JOB, 1, backend="mpi")


def test_ray_missing_gives_clear_error(monkeypatch):
    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("no ray")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(ScenarioError, match="djebel\\[ray\\]"):
        runner.run(JOB, 2, backend="ray")


def test_bench_reports_both_figures():
    res = bench.run(0.4, workers=2)
    for key in ("games_per_second_1_core", "games_per_second_all_cores", "speedup", "agents"):
        assert key in res
    assert res["games_1_core"] >= 1 and res["games_all_cores"] >= 2
    assert res["agents"] in ("heuristic", "random")
    assert (res["agents"] == "random") == ("note" in res)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ray_backend_on_a_local_head(tmp_path, monkeypatch):
    pytest.importorskip("ray", reason="the Ray backend is the optional extra djebel[ray]")
    port = _free_port()
    # A private HOME: no auth token or cluster file from another Ray session applies.
    monkeypatch.setenv("HOME", str(tmp_path))
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", HOME=str(tmp_path))
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
         f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=2",
         "--include-dashboard=false", "--disable-usage-stats"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env)
    try:
        job = Job("algeria", "1958", {"fln": "random", "gov": "random"}, seed=5)
        deadline = time.monotonic() + 90
        while True:
            try:
                got = runner.run(job, 6, workers=2, backend="ray",
                                 address=f"127.0.0.1:{port}")
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)
        assert got == runner.run(job, 6, workers=1)
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait(10)


def test_skirmish_batch_reproducible_with_casualties():
    job = Job("skirmish", "ambush", {"french": "random", "insurgents": "random"}, seed=4)
    one = runner.run(job, 2, workers=1)
    assert one == runner.run(job, 2, workers=2)
    for r in one:
        assert r["winner"] in ("french", "insurgents", None)
        assert set(r["casualties"]) >= {"french_elements_lost", "insurgents_elements_lost"}
    summary = report.summarize(one, ("french", "insurgents"))
    assert "casualties" in summary and summary["games"] == 2


def test_cli_gov_style_plays_the_styled_heuristic_agent():
    """``--gov-style hunt=0``: the job carries the style, and its games are those of
    a Job with the same ``agent_options``, whatever the number of workers."""
    res = runner_cli.invoke(app, ["algeria", "--scenario", "1958", "--games", "6", "--seed",
                                  "5", "--workers", "2", "--json", "--gov-style", "hunt=0"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["job"]["agent_options"] == {"gov": {"hunt": 0}}
    styled = Job("algeria", "1958", {"fln": "heuristic", "gov": "heuristic"}, seed=5,
                 agent_options={"gov": {"hunt": 0}})
    results = runner.run(styled, 6, workers=1)
    assert data["summary"] == report.summarize(results, ("fln", "gov"))
    plain = runner.run(Job("algeria", "1958", {"fln": "heuristic", "gov": "heuristic"},
                           seed=5), 6, workers=1)
    assert plain != results


def test_parse_style_reads_each_type_and_names_bad_settings():
    from djebel.agents import parse_style
    assert parse_style("gov", ["air_guard=2", "deny=1.5", "control-buy=off"]) == {
        "air_guard": 2, "deny": 1.5, "control_buy": False}
    assert parse_style("fln", ["fronts=on", "fln_finish=99"]) == {"fronts": True,
                                                                  "fln_finish": 99}
    for side, item, message in (("gov", "fronts=off", "one of spend"),
                                ("fln", "propaganda", "KEY=VALUE"),
                                ("fln", "propaganda=lots", "a number"),
                                ("gov", "adapt=maybe", "on or off")):
        with pytest.raises(ScenarioError, match=message):
            parse_style(side, [item])


def test_turn_series_spread_and_spending_of_synthetic_games():
    """Three games: the PSL percentiles per turn over the games still going, and the
    mean spending per turn and over every turn played."""
    results = [
        {"history": [[1, 40, 50, 1, 2], [2, 30, 45, 1, 2]], "spent": [[1, 4, 2], [2, 2, 0]]},
        {"history": [[1, 44, 52, 0, 3], [2, 38, 41, 2, 1]], "spent": [[1, 6, 4], [2, 0, 6]]},
        {"history": [[1, 48, 54, 2, 1]], "spent": [[1, 5, 3]]},
    ]
    s = report.turn_series(results)
    assert s["turn"] == [1, 2] and s["games"] == [3, 2]
    assert s["fln_psl"] == [44, 34] and s["gov_psl"] == [52, 43]
    assert s["fln_psl_p25"][0] == pytest.approx(42) and s["fln_psl_p75"][0] == pytest.approx(46)
    assert s["gov_psl_p10"][1] == pytest.approx(41.4) and s["gov_psl_p90"][1] == pytest.approx(44.6)
    sp = report.spending(results)
    assert sp["turn"] == [1, 2] and sp["gov_psp"] == [5, 1] and sp["fln_ap"] == [3, 3]
    assert sp["mean_gov_psp"] == pytest.approx(17 / 5) and sp["mean_fln_ap"] == 3


def test_game_result_records_spending_per_turn():
    r = runner.play_one(Job("algeria", "1958", {"fln": "heuristic", "gov": "heuristic"}, 4), 0)
    assert [row[0] for row in r["spent"]] == [row[0] for row in r["history"]]
    assert sum(row[1] for row in r["spent"]) > 0 and sum(row[2] for row in r["spent"]) > 0


def test_newcombe_interval_of_a_difference():
    """The 13.1 effect of the heuristic balance table: 72.4% -> 99.9% of 1000 games,
    +27.5 points, 95% Newcombe interval +24.8 to +30.4."""
    from djebel.simulate.balance import newcombe
    lo, hi = newcombe(724, 1000, 999, 1000)
    assert (round(100 * lo, 1), round(100 * hi, 1)) == (24.8, 30.4)
    lo, hi = newcombe(139, 1000, 139, 1000)
    assert lo == pytest.approx(-hi) and lo < 0


def test_balance_page_lists_every_setup_and_effect(tmp_path):
    from djebel.simulate import balance
    setups = (("1960", ""), ("1960", "shorter_game"))
    rows = balance.measure({"fln": "random", "gov": "heuristic"}, 4, 1, workers=1,
                           setups=setups)
    page = balance.markdown(rows, {"fln": "random", "gov": "heuristic"}, 4, 1, "djebel ...")
    assert page.count("| 1960 | (none) | 4 |") == 1 and "| shorter_game (13.3) | 1960 |" in page
    assert "GOV PSP per turn" in page and "Wilson" in page


def test_balance_without_options_measures_the_scenarios_only(tmp_path):
    """``--no-options``: the three scenarios without any optional rule (13.x, DIS-05),
    for bots too costly for eleven lines; the page says no rule was measured."""
    out = tmp_path / "b.md"
    res = runner_cli.invoke(app, ["balance", "--fln", "random", "--gov", "random", "--games",
                                  "2", "--workers", "1", "--no-options", "--markdown",
                                  str(out)])
    assert res.exit_code == 0, res.output
    page = out.read_text()
    for sc in ("1954", "1958", "1960"):
        assert page.count(f"| {sc} | (none) | 2 |") == 1
    assert "shorter_game" not in page and "Effect of each optional rule" not in page
    assert "No optional rule was measured" in page and "--no-options" in page
