"""examples/train_fln.py: a few hundred MaskablePPO steps, the files it writes, the
evaluation it reports (the real run and its figures are in docs/rl.md)."""

import importlib.util
import json
from pathlib import Path

import pytest

TRAIN_MISSING = "the train extra is not installed (pip install 'djebel[train]')"
pytest.importorskip("torch", reason=TRAIN_MISSING)
pytest.importorskip("sb3_contrib", reason=TRAIN_MISSING)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_fln.py"


def load_example():
    spec = importlib.util.spec_from_file_location("train_fln", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_short_training_run_writes_its_model_curve_plot_and_evaluation(tmp_path):
    example = load_example()
    report = example.main(["--timesteps", "256", "--n-steps", "128", "--batch-size", "64",
                           "--envs", "1", "--eval-games", "2", "--out", str(tmp_path)])
    assert report["timesteps"] == 256          # two updates of 128 steps
    assert set(report["evaluation"]) == {
        f"{who} FLN vs {gov} Government" for who in ("trained", "random")
        for gov in ("random", "heuristic")}
    for r in report["evaluation"].values():
        assert r["games"] == 2 and 0 <= r["wins"] <= 2
        lo, hi = r["wilson95"]
        assert lo <= r["rate"] <= hi
    assert json.loads((tmp_path / "evaluation.json").read_text()) == report
    assert (tmp_path / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0] == "timestep,opponent,won,return,margin"
    assert len(rows) - 1 == report["episodes"]

    # --evaluate reads the finished run back and evaluates it again, the same way
    again = example.main(["--evaluate", "--eval-games", "2", "--out", str(tmp_path)])
    assert again["evaluation"] == report["evaluation"]
    assert again["timesteps"] == report["timesteps"]

    # the saved policy reloads and, masked, only ever picks legal actions
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

    env = example.make_env("1954", "heuristic", 3000)
    venv = VecNormalize.load(str(tmp_path / "vecnormalize.pkl"), DummyVecEnv([lambda: env]))
    model = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    obs, _ = env.reset(seed=5)
    for _ in range(50):
        mask = env.action_masks()
        action, _ = model.predict(venv.normalize_obs(obs), action_masks=mask)
        assert mask[int(action)]
        obs, _, terminated, truncated, info = env.step(action)
        assert "illegal" not in info
        if terminated or truncated:
            break


def test_evaluate_without_a_finished_run_is_a_one_line_error(tmp_path, capsys):
    example = load_example()
    with pytest.raises(SystemExit) as exit_:
        example.main(["--evaluate", "--out", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--evaluate: no finished run in" in err and "train.json" in err
