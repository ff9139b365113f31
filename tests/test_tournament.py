"""``run_tournament`` and ``djebel tournament algeria``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from djebel.simulate.tournament import derive_seed, run_tournament, wilson


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(20, 20)
    assert hi == 1.0 and 0.83 < lo < 0.84


def test_seeds_are_derived_from_tournament_seed_and_index():
    assert derive_seed(1, 2) == derive_seed(1, 2)
    assert len({derive_seed(1, i) for i in range(50)} | {derive_seed(2, 0)}) == 51


def _strip(out):
    out = dict(out)
    for key in ("seconds", "games_per_second"):
        out.pop(key)
    out["records"] = [{k: v for k, v in r.items() if k != "seconds"} for r in out["records"]]
    return out


def test_tournament_is_identical_for_identical_seeds():
    agents = {"fln": "heuristic", "gov": "heuristic"}
    a = run_tournament("algeria", "1960", agents, 6, seed=4)
    b = run_tournament("algeria", "1960", agents, 6, seed=4)
    assert _strip(a) == _strip(b)
    assert a["games"] == 6 and sum(a["wins"].values()) == 6
    lo, hi = a["fln_ci95"]
    assert lo <= a["fln_win_rate"] <= hi
    c = run_tournament("algeria", "1960", agents, 6, seed=5)
    assert [r["seed"] for r in c["records"]] != [r["seed"] for r in a["records"]]


def test_tournament_with_workers_matches_serial():
    agents = {"fln": "heuristic", "gov": "random"}
    serial = run_tournament("algeria", "1954", agents, 4, seed=9)
    parallel = run_tournament("algeria", "1954", agents, 4, seed=9, workers=2)
    assert _strip(serial) == _strip(parallel)


def test_tournament_cli_json():
    from djebel.cli import app

    result = CliRunner().invoke(app, ["tournament", "algeria", "--scenario", "1958",
                                      "--fln", "heuristic", "--gov", "random", "--games", "5",
                                      "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    line = [x for x in result.output.splitlines() if x.startswith("{")][-1]
    data = json.loads(line)
    assert data["games"] == 5 and data["wins"]["fln"] + data["wins"]["gov"] == 5
    assert "fln_ci95" in data and data["levels"]


def test_tournament_cli_table_with_search():
    from djebel.cli import app

    result = CliRunner().invoke(app, ["tournament", "algeria", "--fln", "search", "--gov",
                                      "heuristic", "--games", "1", "--iterations", "2",
                                      "--rollouts", "1"])
    assert result.exit_code == 0, result.output
    assert "FLN win rate" in result.output and "Wilson" in result.output


def test_tournament_cli_styles_reach_the_heuristic_agent():
    """``--gov-style KEY=VALUE`` plays the heuristic Government in that style: the same
    games as run_tournament with those settings, echoed in the JSON."""
    from djebel.cli import app

    args = ["tournament", "algeria", "--scenario", "1958", "--games", "6", "--seed", "4",
            "--json", "--gov-style", "air_guard=1", "--gov-style", "gov_keep=0"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads([x for x in result.output.splitlines() if x.startswith("{")][-1])
    style = {"air_guard": 1, "gov_keep": 0}
    assert data["agent_options"] == {"gov": style}
    direct = run_tournament("algeria", "1958", {"fln": "heuristic", "gov": "heuristic"}, 6, 4,
                            agent_options={"gov": style})
    assert data["wins"] == direct["wins"] and data["turns"] == direct["turns"]


@pytest.mark.parametrize(("args", "message"), [
    (["--gov-style", "air_guard=two"], "expected a whole number"),
    (["--gov-style", "fronts=off"], "KEY one of spend"),
    (["--fln-style", "fronts=maybe"], "expected on or off"),
    (["--fln", "random", "--fln-style", "fronts=off"], "the FLN agent is 'random'"),
])
def test_tournament_cli_rejects_bad_styles(args, message):
    from djebel.cli import app

    result = CliRunner().invoke(app, ["tournament", "algeria", "--games", "1", *args])
    assert result.exit_code != 0
    assert message in " ".join(result.output.replace("│", " ").split())
    assert "Traceback" not in result.output


def test_ladder_swaps_sides_on_the_same_seeds_and_pools_both_cells():
    from djebel.simulate import ladder
    r = ladder.play("heuristic", "random", "1960", 3, 5)
    fln, gov = r["cells"]
    assert (fln["new_side"], gov["new_side"]) == ("fln", "gov")
    assert r["games"] == 6 and r["wins"] == fln["wins"] + gov["wins"]
    assert r["ci95"][0] <= r["rate"] <= r["ci95"][1]
    assert r["pass"] == (r["rate"] >= ladder.TARGET)
    table = ladder.markdown([r], "djebel tournament ladder")
    assert "| 1960 | heuristic | random | FLN | 3 |" in table and "| **1960** |" in table


def test_runs_split_at_any_game_add_up_to_the_whole_run():
    """``first``: games 0-1 and 2-3 of a seed are games 0-3 of it, so a long ladder can
    be played in runs whose wins add up."""
    from djebel.simulate import ladder
    agents = {"fln": "heuristic", "gov": "heuristic"}
    whole = run_tournament("algeria", "1960", agents, 4, 5)
    parts = [run_tournament("algeria", "1960", agents, 2, 5, first=k) for k in (0, 2)]

    def key(r):
        return r["index"], r["seed"], r["winner"], r["turns"], r["psl"]
    assert [key(r) for p in parts for r in p["records"]] == [key(r) for r in whole["records"]]
    assert [r["index"] for r in parts[1]["records"]] == [2, 3]
    split = [ladder.play("heuristic", "random", "1960", 1, 5, first=k) for k in (0, 1)]
    both = ladder.play("heuristic", "random", "1960", 2, 5)
    assert sum(r["wins"] for r in split) == both["wins"]
    from djebel.cli import app
    res = CliRunner().invoke(app, ["tournament", "ladder", "--new", "heuristic", "--old",
                                   "random", "--scenario", "1960", "--games", "1",
                                   "--first", "3"])
    assert res.exit_code == 0 and "--games 1 --seed 0 --first 3" in " ".join(res.output.split())


def test_ladder_command_refuses_an_unknown_bot():
    from djebel.cli import app
    result = CliRunner().invoke(app, ["tournament", "ladder", "--new", "nobody", "--games", "1"])
    assert result.exit_code == 2 and "--new 'nobody'" in result.output
