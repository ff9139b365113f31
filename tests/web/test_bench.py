"""``djebel bench serve`` runs (a short, small version of it: figures printed, not judged)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from djebel.cli import app


def test_bench_serve_small():
    res = CliRunner().invoke(app, ["bench", "serve", "--games", "4", "--seconds", "2",
                                   "--warmup", "0.5", "--think", "0.05", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["actions"] > 0 and out["errors"] == 0
    assert out["p50_ms"] <= out["p99_ms"]
