"""Train the FLN against the heuristic Government with MaskablePPO, plot, evaluate.

sb3-contrib's MaskablePPO (stable-baselines3, PyTorch) learns on the Gymnasium
environment ``djebel.rl.gym_env.SingleAgentEnv``: the FLN is the learner, a djebel bot
plays the Government, and the action mask keeps every sampled action legal. The reward
is the game's result (+1 / -1) plus ``--shaping`` times the potential-based PSL shaping
(``shaped=True``, docs/rl.md), so the learner hears about every PSL swing before the
game ends. A curriculum plays the first ``--warmup`` share of the time budget against
the random Government (which the FLN always beats: the learner first finds the
missions that raise its PSL), then the heuristic one. ``--envs`` environments step in
as many processes (``SubprocVecEnv``), the policy learns in the main one.

    pip install 'djebel[train]'
    python examples/train_fln.py --minutes 32 --envs 2 --out runs/fln

stops at ``--timesteps`` or after ``--minutes`` of wall time, whichever comes first,
then writes to ``--out``: ``model.zip`` and ``vecnormalize.pkl`` (the policy and its
observation scaling), ``curve.csv`` (every training episode: timestep, opponent, FLN
won, return, final PSL margin), ``learning_curve.png``, and ``evaluation.json``: the
trained FLN against the random and the heuristic Government over ``--eval-games``
seeded games each (wins with 95% Wilson intervals, the mean final PSL margin FLN - GOV
with its 95% interval), beside a uniformly random FLN on the same seeds.
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
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecNormalize
from torch import nn

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
    """Puts the game's outcome on an episode's last step: ``info["won"]`` (the learner
    won), ``info["margin"]`` (FLN PSL - GOV PSL at the end), ``info["turns"]``."""

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            game = self.env.unwrapped.aec.game
            result = game.result()
            info["won"] = float(result is not None and result.winner == SIDE)
            info["margin"] = float(game.state.fln_psl - game.state.gov_psl)
            info["turns"] = float(game.state.turn)
        return obs, reward, terminated, truncated, info

    def set_opponent(self, opponent: str) -> None:
        self.env.unwrapped.set_opponent(opponent)

    def cpu_seconds(self) -> float:
        """CPU time of the process this environment steps in."""
        return time.process_time()


def make_env(scenario: str, opponent: str, max_steps: int, shaping: float = 2.0) -> gym.Env:
    env = SingleAgentEnv("algeria", side=SIDE, opponent=opponent, scenario=scenario,
                         shaped=True, shaping=shaping, max_steps=max_steps)
    return VectorOnly(Result(env))


class Encoder(BaseFeaturesExtractor):
    """One layer shared by the policy and the value heads: the 7,871 inputs are read
    once per sample instead of once per head (most of the cost of an update)."""

    def __init__(self, observation_space: gym.spaces.Box, features_dim: int = 128):
        super().__init__(observation_space, features_dim)
        self.net = nn.Sequential(nn.Linear(observation_space.shape[0], features_dim),
                                 nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations)


class Curve(BaseCallback):
    """Records every finished training episode, switches the curriculum's opponent at
    ``switch`` (a time) and stops at the wall-time budget."""

    def __init__(self, deadline: float, switch: float, first: str, then: str):
        super().__init__()
        self.deadline, self.switch = deadline, switch
        self.opponent, self.then = first, then
        self.switched_at: int | None = None
        self.rows: list[tuple[int, str, float, float, float]] = []

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:
                self.rows.append((self.num_timesteps, self.opponent, info.get("won", 0.0),
                                  float(info["episode"]["r"]), info.get("margin", 0.0)))
        now = time.monotonic()
        if self.opponent != self.then and now >= self.switch:
            self.training_env.env_method("set_opponent", self.then)
            self.opponent, self.switched_at = self.then, self.num_timesteps
        return now < self.deadline


def make_venv(args, opponent: str):
    fns = [lambda: Monitor(make_env(args.scenario, opponent, args.max_steps, args.shaping),
                           info_keywords=("won", "margin"))
           for _ in range(args.envs)]
    return SubprocVecEnv(fns) if args.envs > 1 else DummyVecEnv(fns)


def train(args) -> tuple[MaskablePPO, VecNormalize, Curve, float, float]:
    """The trained model, its observation scaling, the curve, the wall seconds and the
    CPU seconds of the environment processes (0 when they step in this one)."""
    torch.set_num_threads(1)
    first = "random" if args.warmup > 0 and args.opponent != "random" else args.opponent
    venv = make_venv(args, first)
    venv.seed(args.seed)
    venv = VecNormalize(venv, norm_obs=True, norm_reward=False, clip_obs=10.0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=4, learning_rate=3e-4, gamma=0.995, gae_lambda=0.95,
                        ent_coef=0.01, seed=args.seed, device="cpu", verbose=0,
                        policy_kwargs={"features_extractor_class": Encoder,
                                       "features_extractor_kwargs": {"features_dim": 128},
                                       "net_arch": {"pi": [64], "vf": [64]}})
    start = time.monotonic()
    curve = Curve(start + 60 * args.minutes, start + 60 * args.minutes * args.warmup,
                  first, args.opponent)
    model.learn(total_timesteps=args.timesteps, callback=curve)
    wall = time.monotonic() - start
    worker_cpu = sum(venv.env_method("cpu_seconds")) if args.envs > 1 else 0.0
    venv.venv.close()
    return model, venv, curve, wall, worker_cpu


def play(policy: Callable[[np.ndarray, np.ndarray], int], opponent: str, games: int,
         scenario: str, max_steps: int) -> dict:
    """FLN wins of ``policy`` over ``games`` seeded games against ``opponent``."""
    env = make_env(scenario, opponent, max_steps)
    wins, margins, turns = 0, [], []
    for i in range(games):
        obs, _ = env.reset(seed=EVAL_SEED + i)
        while True:
            obs, _, terminated, truncated, info = env.step(policy(obs, env.action_masks()))
            if terminated or truncated:
                wins += int(info["won"])
                margins.append(info["margin"])
                turns.append(info["turns"])
                break
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games if games else 0.0,
            "wilson95": [lo, hi], "margin": mean_interval(margins),
            "turns": mean_interval(turns)}


def mean_interval(values: list[float]) -> list[float]:
    """[mean, low, high]: the mean and its 95% normal interval (1.96 standard errors)."""
    if not values:
        return [0.0, 0.0, 0.0]
    m = float(np.mean(values))
    half = 1.96 * float(np.std(values, ddof=1)) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return [round(m, 2), round(m - half, 2), round(m + half, 2)]


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


def plot(rows: list[tuple], path: Path, window: int, title: str,
         switched_at: int | None = None) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([r[0] for r in rows])
    won = np.array([r[2] for r in rows])
    ret = np.array([r[3] for r in rows])
    margin = np.array([r[4] for r in rows]) / 100
    w = max(1, min(window, len(rows)))
    kernel = np.ones(w) / w
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    if len(rows):
        x = steps[w - 1:]
        ax.plot(x, np.convolve(won, kernel, "valid"), color="tab:blue",
                label=f"FLN win rate (last {w} episodes)")
        ax.plot(x, np.convolve(ret, kernel, "valid"), color="tab:orange",
                label="episode return (result + PSL shaping)")
        ax.plot(x, np.convolve(margin, kernel, "valid"), color="tab:green",
                label="final PSL margin FLN - GOV (/100)")
    if switched_at is not None:
        ax.axvline(switched_at, color="black", ls="--", lw=0.8,
                   label="random -> heuristic Government")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_ylim(-3.1, 3.1)
    ax.set_xlabel("FLN decisions (timesteps)")
    ax.set_title(title, fontsize=10)
    if ax.get_legend_handles_labels()[0]:
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
    p.add_argument("--warmup", type=float, default=0.25,
                   help="share of the time budget played against the random Government first")
    p.add_argument("--shaping", type=float, default=2.0, help="weight of the PSL shaping")
    p.add_argument("--timesteps", type=positive, default=5_000_000)
    p.add_argument("--minutes", type=float, default=32.0, help="wall-time budget of training")
    p.add_argument("--envs", type=positive, default=2,
                   help="environments, each in its own process when more than one")
    p.add_argument("--n-steps", type=positive, default=1024, help="steps per env per update")
    p.add_argument("--batch-size", type=positive, default=256)
    p.add_argument("--max-steps", type=positive, default=3000,
                   help="truncate a game after N actions")
    p.add_argument("--eval-games", type=int, default=100)
    p.add_argument("--window", type=positive, default=100, help="episodes in the curve's average")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/fln"))
    p.add_argument("--evaluate", action="store_true",
                   help="only evaluate the model a finished run saved in --out")
    args = p.parse_args(argv)
    if not 0 <= args.warmup <= 1:
        p.error(f"--warmup: expected a share between 0 and 1, got {args.warmup}")
    if args.evaluate:
        saved = [args.out / n for n in ("train.json", "model.zip", "vecnormalize.pkl")]
        missing = [str(f) for f in saved if not f.is_file()]
        if missing:
            p.error(f"--evaluate: no finished run in {args.out} (missing {', '.join(missing)})")
        report = json.loads(saved[0].read_text())
        venv = VecNormalize.load(str(saved[2]), DummyVecEnv(
            [lambda: make_env(report["scenario"], "heuristic", args.max_steps)]))
        model = MaskablePPO.load(saved[1], device="cpu")
    else:
        report = run_training(args)
        model, venv = report.pop("model"), report.pop("venv")
    report["evaluation"] = evaluate(model, venv, args.eval_games, report["scenario"],
                                    args.max_steps)
    (args.out / "evaluation.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"trained {report['timesteps']:,} steps, {report['episodes']} episodes, "
          f"{report['train_wall_s']:.0f} s wall, {report['train_cpu_s']:.0f} s CPU")
    for name, r in report["evaluation"].items():
        lo, hi = r["wilson95"]
        m, mlo, mhi = r["margin"]
        print(f"{name}: {r['wins']}/{r['games']} = {100 * r['rate']:.0f}% "
              f"(95% Wilson {100 * lo:.0f}-{100 * hi:.0f}%), final PSL margin {m:+.1f} "
              f"({mlo:+.1f} to {mhi:+.1f})")
    return report


def run_training(args) -> dict:
    """Train, save the model, its scaling, the curve, the plot and ``train.json``."""
    args.out.mkdir(parents=True, exist_ok=True)
    cpu0 = time.process_time()
    model, venv, curve, wall, worker_cpu = train(args)
    rows = curve.rows
    cpu = time.process_time() - cpu0 + worker_cpu
    model.save(args.out / "model.zip")
    venv.save(str(args.out / "vecnormalize.pkl"))
    with open(args.out / "curve.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["timestep", "opponent", "won", "return", "margin"])
        writer.writerows(rows)
    plot(rows, args.out / "learning_curve.png", args.window,
         f"MaskablePPO FLN vs {args.opponent} Government, {args.scenario} "
         f"({model.num_timesteps:,} steps, {wall / 60:.0f} min)", curve.switched_at)
    report = {"scenario": args.scenario, "opponent": args.opponent,
              "warmup": args.warmup, "switched_at": curve.switched_at,
              "shaping": args.shaping,
              "timesteps": model.num_timesteps, "episodes": len(rows),
              "train_wall_s": round(wall, 1), "train_cpu_s": round(cpu, 1)}
    (args.out / "train.json").write_text(json.dumps(report, indent=2) + "\n")
    return {**report, "model": model, "venv": venv}


if __name__ == "__main__":
    main()
