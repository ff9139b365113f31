"""``djebel bench rl``: the figures it prints (speed itself is not asserted)."""

import json

import pytest

RL_MISSING = "the rl extra is not installed (pip install 'djebel[rl]')"
pytest.importorskip("pettingzoo", reason=RL_MISSING)

from typer.testing import CliRunner  # noqa: E402

from djebel.cli import app  # noqa: E402


def test_bench_rl_prints_steps_per_second_for_both_games():
    result = CliRunner().invoke(app, ["bench", "rl", "--seconds", "0.3",
                                      "--skirmish-seconds", "0.3", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["algeria_env_steps_per_second"] > 0
    assert figures["skirmish_env_steps_per_second"] > 0
    assert set(figures) >= {"algeria_engine_decisions_per_second",
                            "algeria_microseconds_per_step",
                            "algeria_microseconds_in_encodings"}


def test_bench_rl_profile_shows_where_a_step_spends_its_time():
    pytest.importorskip("pyinstrument", reason="pyinstrument (the profile extra) is absent")
    result = CliRunner().invoke(app, ["bench", "rl", "--seconds", "0.3", "--profile"])
    assert result.exit_code == 0, result.output
    assert "DjebelAEC.step" in result.output and "observe" in result.output
