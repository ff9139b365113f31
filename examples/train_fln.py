"""Train the FLN against the heuristic Government with MaskablePPO, plot, evaluate.

sb3-contrib's MaskablePPO (stable-baselines3, PyTorch) learns on the Gymnasium
environment ``djebel.rl.gym_env.SingleAgentEnv``: the FLN is the learner, a djebel bot
plays the Government, and the action mask keeps every sampled action legal. The reward
is the game's result (+1 / -1) plus the potential-based PSL shaping (``shaped=True``,
docs/rl.md), so the learner hears about a PSL swing before the game ends.

    pip install 'djebel[train]'
    python examples/train_fln.py --minutes 25 --envs 2 --out runs/fln

stops at ``--timesteps`` or after ``--minutes`` of wall time, whichever comes first,
then writes to ``--out``: ``model.zip`` and ``vecnormalize.pkl`` (the policy and its
observation scaling), ``curve.csv`` (every training episode: timestep, FLN won,
return), ``learning_curve.png``, and ``evaluation.json``: the trained FLN against the
random and the heuristic Government over ``--eval-games`` seeded games each, with 95%
Wilson intervals, beside a uniformly random FLN on the same seeds.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

from djebel.rl.gym_env import SingleAgentEnv
from djebel.simulate.report import wilson

SIDE = "fln"
EVAL_SEED = 1_000_000      # evaluation games are seeded apart from the training ones


class VectorOnly(gym.ObservationWrapper):
    """The observation vector without the mask: the policy masks its logits with
    ``action_masks()`` instead of reading the mask as 3,657 more inputs."""

    def __init__(self, env: SingleAgentEnv):
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


class Result(gym.Wrapper):
    """Puts ``info["won"]`` (the learner won the game) on an episode's last step."""

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            result = self.env.unwrapped.aec.game.result()
            info["won"] = float(result is not None and result.winner == SIDE)
        return obs, reward, terminated, truncated, info


def make_env(scenario: str, opponent: str, max_steps: int) -> gym.Env:
    env = SingleAgentEnv("algeria", side=SIDE, opponent=opponent, scenario=scenario,
                         shaped=True, max_steps=max_steps)
    return VectorOnly(Result(env))


class Curve(BaseCallback):
    """Records every finished training episode and stops at the wall-time budget."""

    def __init__(self, deadline: float):
        super().__init__()
        self.deadline = deadline
        self.rows: list[tuple[int, float, float]] = []

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:
                self.rows.append((self.num_timesteps, info.get("won", 0.0),
                                  float(info["episode"]["r"])))
        return time.monotonic() < self.deadline


def train(args) -> tuple[MaskablePPO, VecNormalize, list[tuple[int, float, float]], float]:
    torch.set_num_threads(1)
    venv = DummyVecEnv([lambda: Monitor(make_env(args.scenario, args.opponent, args.max_steps),
                                        info_keywords=("won",))
                        for _ in range(args.envs)])
    venv.seed(args.seed)
    venv = VecNormalize(venv, norm_obs=True, norm_reward=False, clip_obs=10.0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=4, learning_rate=3e-4, gamma=0.995, gae_lambda=0.95,
                        ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]},
                        seed=args.seed, device="cpu", verbose=0)
    start = time.monotonic()
    curve = Curve(start + 60 * args.minutes)
    model.learn(total_timesteps=args.timesteps, callback=curve)
    return model, venv, curve.rows, time.monotonic() - start


def play(policy: Callable[[np.ndarray, np.ndarray], int], opponent: str, games: int,
         scenario: str, max_steps: int) -> dict:
    """FLN wins of ``policy`` over ``games`` seeded games against ``opponent``."""
    env = make_env(scenario, opponent, max_steps)
    wins = 0
    for i in range(games):
        obs, _ = env.reset(seed=EVAL_SEED + i)
        while True:
            obs, _, terminated, truncated, info = env.step(policy(obs, env.action_masks()))
            if terminated or truncated:
                wins += int(info["won"])
                break
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games if games else 0.0,
            "wilson95": [lo, hi]}


def evaluate(model: MaskablePPO, venv: VecNormalize, games: int, scenario: str,
             max_steps: int) -> dict:
    venv.training = False

    def trained(obs, mask):
        action, _ = model.predict(venv.normalize_obs(obs), action_masks=mask,
                                  deterministic=True)
        return int(action)

    rng = np.random.default_rng(EVAL_SEED)

    def uniform(obs, mask):
        return int(rng.choice(np.flatnonzero(mask)))

    return {f"{name} FLN vs {opponent} Government": play(policy, opponent, games, scenario,
                                                         max_steps)
            for name, policy in (("trained", trained), ("random", uniform))
            for opponent in ("random", "heuristic")}


def plot(rows: list[tuple[int, float, float]], path: Path, window: int, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([r[0] for r in rows])
    won = np.array([r[1] for r in rows])
    ret = np.array([r[2] for r in rows])
    w = max(1, min(window, len(rows)))
    kernel = np.ones(w) / w
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    if len(rows):
        x = steps[w - 1:]
        ax.plot(x, np.convolve(won, kernel, "valid"), color="tab:blue",
                label=f"FLN win rate (last {w} episodes)")
        ax.plot(x, np.convolve(ret, kernel, "valid"), color="tab:orange",
                label="episode return (result + PSL shaping)")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_ylim(-1.1, 1.1)
    ax.set_xlabel("FLN decisions (timesteps)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text}")
    return n


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="1954", choices=["1954", "1958", "1960"])
    p.add_argument("--opponent", default="heuristic", help="the Government bot trained against")
    p.add_argument("--timesteps", type=positive, default=2_000_000)
    p.add_argument("--minutes", type=float, default=25.0, help="wall-time budget of training")
    p.add_argument("--envs", type=positive, default=2, help="environments stepped in turn")
    p.add_argument("--n-steps", type=positive, default=1024, help="steps per env per update")
    p.add_argument("--batch-size", type=positive, default=256)
    p.add_argument("--max-steps", type=positive, default=3000,
                   help="truncate a game after N actions")
    p.add_argument("--eval-games", type=int, default=100)
    p.add_argument("--window", type=positive, default=100, help="episodes in the curve's average")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/fln"))
    args = p.parse_args(argv)

    args.out.mkdir(parents=True, exist_ok=True)
    cpu0 = time.process_time()
    model, venv, rows, wall = train(args)
    cpu = time.process_time() - cpu0
    model.save(args.out / "model.zip")
    venv.save(str(args.out / "vecnormalize.pkl"))
    with open(args.out / "curve.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["timestep", "won", "return"])
        writer.writerows(rows)
    plot(rows, args.out / "learning_curve.png", args.window,
         f"MaskablePPO FLN vs {args.opponent} Government, {args.scenario} "
         f"({model.num_timesteps:,} steps, {wall / 60:.0f} min)")
    report = {"scenario": args.scenario, "opponent": args.opponent,
              "timesteps": model.num_timesteps, "episodes": len(rows),
              "train_wall_s": round(wall, 1), "train_cpu_s": round(cpu, 1),
              "evaluation": evaluate(model, venv, args.eval_games, args.scenario,
                                     args.max_steps)}
    (args.out / "evaluation.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"trained {report['timesteps']:,} steps, {len(rows)} episodes, "
          f"{wall:.0f} s wall, {cpu:.0f} s CPU")
    for name, r in report["evaluation"].items():
        lo, hi = r["wilson95"]
        print(f"{name}: {r['wins']}/{r['games']} = {100 * r['rate']:.0f}% "
              f"(95% Wilson {100 * lo:.0f}-{100 * hi:.0f}%)")
    return report


if __name__ == "__main__":
    main()
