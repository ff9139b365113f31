"""examples/train_fln.py: teacher games, a behaviour-cloning pass on their few hundred
decisions, a few hundred MaskablePPO steps, the files it writes and the evaluation it
reports (the real run and its figures are in docs/rl.md)."""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

TRAIN_MISSING = "the train extra is not installed (pip install 'djebel[train]')"
pytest.importorskip("torch", reason=TRAIN_MISSING)
pytest.importorskip("sb3_contrib", reason=TRAIN_MISSING)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_fln.py"
QUICK = ["--timesteps", "256", "--n-steps", "128", "--batch-size", "64", "--envs", "1",
         "--eval-games", "2", "--check-games", "1", "--max-steps", "150"]


def load_example():
    spec = importlib.util.spec_from_file_location("train_fln", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cloning_then_ppo_writes_its_models_curves_plot_and_evaluation(tmp_path):
    example = load_example()
    report = example.main(["--bc-games", "1", "--bc-epochs", "2", *QUICK,
                           "--out", str(tmp_path)])
    assert report["timesteps"] == 256          # two updates of 128 steps
    teacher = report["teacher"]
    assert teacher["games"] == 1 and teacher["samples"] > 10
    assert report["bc"]["fit_samples"] == teacher["samples"]   # one game: nothing held out
    assert [r["epoch"] for r in report["bc_epochs_log"]] == [1, 2]
    for r in report["bc_epochs_log"]:
        assert 0 <= r["accuracy"] <= 1 and r["loss"] > 0
    assert report["warmup"] == 0.0             # cloning starts against the heuristic
    assert set(report["evaluation"]) == {
        f"{who} FLN vs {gov} Government" for who in ("trained", "cloned", "random", "teacher")
        for gov in ("random", "heuristic")}
    for r in report["evaluation"].values():
        assert r["games"] == 2 and 0 <= r["wins"] <= 2
        lo, hi = r["wilson95"]
        assert lo <= r["rate"] <= hi
    assert json.loads((tmp_path / "evaluation.json").read_text()) == report
    assert (tmp_path / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0] == "minute,timestep,opponent,won,return,margin"
    assert len(rows) - 1 == report["episodes"]
    assert len((tmp_path / "bc.csv").read_text().splitlines()) == 3
    # a check before cloning, after each epoch and at the end
    assert len((tmp_path / "checks.csv").read_text().splitlines()) - 1 >= 4

    # --evaluate reads the finished run back and evaluates it again, the same way
    again = example.main(["--evaluate", "--eval-games", "2", "--envs", "1",
                          "--max-steps", "150", "--out", str(tmp_path)])
    assert again["evaluation"] == report["evaluation"]

    # the saved policy reloads and, masked, only ever picks legal actions
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

    env = example.run_env(tmp_path, "heuristic", 3000)   # the inputs the run kept
    assert env.observation_space.shape == (report["inputs"],)
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


def test_pure_reinforcement_learning_is_still_an_option(tmp_path):
    example = load_example()
    report = example.main(["--bc-games", "0", *QUICK, "--eval-games", "1",
                           "--out", str(tmp_path)])
    assert report["timesteps"] == 256 and "teacher" not in report
    assert report["warmup"] == 0.25            # the random-Government curriculum
    assert not (tmp_path / "bc_model.zip").exists()
    assert {k.split(" FLN")[0] for k in report["evaluation"]} == {
        "trained", "random", "teacher"}


def test_teacher_samples_are_the_heuristic_fln_decisions_with_a_choice():
    example = load_example()
    data = example.record_games((0, 1, "1954", 3000, 2.0, 0.995, True))
    n = len(data["actions"])
    assert data["obs"].shape == (n, example.make_env("1954", "heuristic", 10)
                                 .observation_space.shape[0])
    masks = np.unpackbits(data["masks"], axis=1, count=3657).astype(bool)
    same = np.unpackbits(data["same"], axis=1, count=3657).astype(bool)
    rows = np.arange(n)
    assert masks[rows, data["actions"]].all()          # the teacher's action is legal
    assert same[rows, data["actions"]].all()           # and identical to itself
    assert (same <= masks).all()                       # identical actions are legal ones
    assert (masks.sum(axis=1) > 1).all()               # forced decisions are left out
    assert data["wins"] in (0, 1) and np.isfinite(data["returns"]).all()


def test_the_counter_block_says_where_each_counter_is():
    example = load_example()
    from djebel import algeria
    from djebel.algeria.board import NUM_AREAS, UNIT_NAMES

    game = algeria.new_game("1954", seed=3)
    while game.state.phase == "setup":         # every counter of the set-up placed
        game.apply(game.legal_actions()[0])
    s = game.state
    block = example.counter_block(s).reshape(len(UNIT_NAMES), example.UNIT_WIDTH)
    for u in range(len(UNIT_NAMES)):
        on_map = s.loc[u] >= 0
        assert block[u, :NUM_AREAS].sum() == on_map
        if on_map:
            assert block[u, s.loc[u]] == 1
            assert block[u, NUM_AREAS + s.box[u]] == 1
    assert (block.sum(axis=1) > 0).any() and (block.sum(axis=1) == 0).any()


def test_evaluate_without_a_finished_run_is_a_one_line_error(tmp_path, capsys):
    example = load_example()
    with pytest.raises(SystemExit) as exit_:
        example.main(["--evaluate", "--out", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--evaluate: no finished run in" in err and "train.json" in err
