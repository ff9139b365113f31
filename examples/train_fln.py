"""Train the FLN against the heuristic Government: behaviour cloning, then MaskablePPO.

sb3-contrib's MaskablePPO (stable-baselines3, PyTorch) learns on the Gymnasium
environment ``djebel.rl.gym_env.SingleAgentEnv``: the FLN is the learner, a djebel bot
plays the Government, and the action mask keeps every sampled action legal.

1. **Teacher games** (``--bc-games``): djebel's heuristic FLN plays the heuristic
   Government through the same environment; every FLN decision with more than one
   legal action is recorded as (observation, action mask, the heuristic's action) with
   the discounted return that followed. The heuristic reads only the board, which is
   open to both players, so the learner's observation holds what it decides on.
2. **Behaviour cloning** (``--bc-epochs``): the MaskablePPO policy is fitted to those
   decisions by cross-entropy over its masked logits (its own ``evaluate_actions``),
   and its value head to the returns, on 90% of the games; the other 10% measure how
   often it picks the teacher's action (or one the rules make identical: the same verb
   on a counter of the same type in the same place and state).
3. **MaskablePPO** fine-tunes the cloned policy for the rest of ``--minutes``. The
   reward is the game's result (+1 / -1) plus ``--shaping`` times the potential-based
   PSL shaping (``shaped=True``, docs/rl.md). ``--envs`` environments step in as many
   processes (``SubprocVecEnv``), the policy learns in the main one.

``--bc-games 0`` is pure reinforcement learning from a random policy, with a curriculum
that plays the first ``--warmup`` share of the time against the random Government.

    pip install 'djebel[train]'
    python examples/train_fln.py --minutes 40 --envs 2 --out runs/fln

writes to ``--out``: ``model.zip`` and ``vecnormalize.pkl`` (the policy and its
observation scaling), ``bc_model.zip`` (the policy as behaviour cloning left it),
``bc.csv`` (every cloning epoch), ``curve.csv`` (every training episode),
``checks.csv`` (the deterministic check games during training), ``learning_curve.png``,
``train.json`` and ``evaluation.json``: the trained FLN, the cloned one, a uniformly
random FLN and the teacher against the random and the heuristic Government over
``--eval-games`` seeded games each (wins with 95% Wilson intervals, the mean final PSL
margin FLN - GOV with its 95% interval). ``--evaluate`` evaluates a finished run again.
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
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

from djebel.agents import make_agent
from djebel.algeria.board import NUM_AREAS, NUM_UNITS, UNIT_NAMES, UTYPE
from djebel.rl import algeria_codec
from djebel.rl.gym_env import SingleAgentEnv
from djebel.simulate.report import wilson

SIDE = "fln"
EVAL_SEED = 1_000_000      # evaluation games are seeded apart from the training ones
CHECK_SEED = 2_000_000     # the check games during training, apart from both
TEACHER_SEED = 3_000_000   # the teacher games
NUM_BOXES = 4
FLAG_BITS = (1, 2, 4, 8, 16, 32)        # the six unit flags of algeria/board.py
UNIT_WIDTH = NUM_AREAS + NUM_BOXES + len(FLAG_BITS)


class PolicyInput(gym.ObservationWrapper):
    """The policy's input: the codec's observation vector (the mask goes to the logits
    through ``action_masks()``, not to the input) and, with ``counters=True``, where
    each of the 120 counters is: a one-hot of its map location and box and its flags;
    with ``keep``, only those inputs (by position).

    The codec counts units by area, box and type, while the actions name counters
    (``surface band3``, ``propaganda cadre7``): without the second block the policy
    cannot tell which counter an action would move. Most of the 12,431 inputs never
    change in a game of one scenario (Government types in FLN boxes, the other
    scenarios' tracks): after cloning, ``keep`` holds the 2,000 or so the teacher
    games moved, which makes every update several times cheaper."""

    def __init__(self, env: gym.Env, counters: bool = True, keep: np.ndarray | None = None):
        super().__init__(env)
        self.counters, self.keep = counters, keep
        codec = env.observation_space["observation"]
        size = codec.shape[0] + (NUM_UNITS * UNIT_WIDTH if counters else 0)
        if keep is not None:
            size = len(keep)
        bound = float(codec.high.max())
        self.observation_space = gym.spaces.Box(-bound, bound, (size,), np.float32)

    def observation(self, observation: dict) -> np.ndarray:
        vec = observation["observation"]
        if self.counters:
            vec = np.concatenate([vec, counter_block(self.env.unwrapped.aec.game.state)])
        return vec if self.keep is None else vec[self.keep]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


_ROWS = np.arange(NUM_UNITS) * UNIT_WIDTH
_FLAGS = np.array(FLAG_BITS)


def counter_block(s) -> np.ndarray:
    """Per counter: its map location one-hot (none when off the map), its box one-hot
    (on the map only) and its flag bits."""
    block = np.zeros(NUM_UNITS * UNIT_WIDTH, dtype=np.float32)
    loc = np.fromiter(s.loc, np.intp, NUM_UNITS)
    box = np.fromiter(s.box, np.intp, NUM_UNITS)
    on = loc >= 0
    block[_ROWS[on] + loc[on]] = 1
    block[_ROWS[on] + NUM_AREAS + box[on]] = 1
    flags = (np.fromiter(s.flags, np.intp, NUM_UNITS)[:, None] & _FLAGS) > 0
    block.reshape(NUM_UNITS, UNIT_WIDTH)[:, NUM_AREAS + NUM_BOXES:] = flags
    return block


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


def make_env(scenario: str, opponent: str, max_steps: int, shaping: float = 2.0,
             counters: bool = True, keep: np.ndarray | None = None) -> gym.Env:
    env = SingleAgentEnv("algeria", side=SIDE, opponent=opponent, scenario=scenario,
                         shaped=True, shaping=shaping, max_steps=max_steps)
    return PolicyInput(Result(env), counters, keep)


def run_env(out: Path, opponent: str, max_steps: int) -> gym.Env:
    """The environment a finished run in ``out`` was trained on (its scenario, inputs
    and kept columns), against ``opponent``."""
    report = json.loads((out / "train.json").read_text())
    keep = np.load(out / "columns.npy") if (out / "columns.npy").is_file() else None
    return make_env(report["scenario"], opponent, max_steps, report["shaping"],
                    report["counters"], keep)


class Encoder(BaseFeaturesExtractor):
    """One layer shared by the policy and the value heads: the inputs are read once per
    sample instead of once per head (most of the cost of an update)."""

    def __init__(self, observation_space: gym.spaces.Box, features_dim: int = 128):
        super().__init__(observation_space, features_dim)
        self.net = nn.Sequential(nn.Linear(observation_space.shape[0], features_dim),
                                 nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations)


# ---------------------------------------------------------------- teacher games

def equivalent(action, legal: dict, state) -> list[int]:
    """The legal indices the rules make identical to ``action``: the same verb and other
    arguments on a counter of the same type, location, box and flags."""
    key = _counter_key(action, state)
    if key is None:
        return [algeria_codec.action_index(action)]
    return [i for i, a in legal.items() if _counter_key(a, state) == key]


_UNIT_OF = {name: u for u, name in enumerate(UNIT_NAMES)}


def _counter_key(action, state) -> tuple | None:
    """The action with each counter it names replaced by (type, location, box, flags);
    None for an action that names no counter."""
    if not any(arg in _UNIT_OF for arg in action.args):
        return None
    key = [action.verb]
    for arg in action.args:
        u = _UNIT_OF.get(arg)
        key.append(arg if u is None else (UTYPE[u], state.loc[u], state.box[u],
                                          state.flags[u]))
    return tuple(key)


def record_games(job: tuple) -> dict:
    """Play ``games`` heuristic-FLN games against the heuristic Government from seed
    ``first`` on; every FLN decision with a choice becomes a sample. Runs in a pool
    worker, so it returns its CPU time too."""
    first, games, scenario, max_steps, shaping, gamma, counters = job
    cpu0 = time.process_time()
    env = make_env(scenario, "heuristic", max_steps, shaping, counters)
    aec = env.unwrapped.aec
    obs_rows, masks, actions, same, returns, games_of, kinds = [], [], [], [], [], [], []
    wins = 0
    for g in range(first, first + games):
        obs, _ = env.reset(seed=TEACHER_SEED + g)
        teacher = make_agent("heuristic", "algeria", SIDE, g)
        rewards, chose = [], []
        while True:
            game = aec.game
            action = teacher.choose(game)
            index = algeria_codec.action_index(action)
            # the round trip: the teacher's action has an index, the mask allows it and
            # the index means that action
            if aec._legal.get(index) != action or algeria_codec.index_action(index) != action:
                raise AssertionError(f"{action} does not round-trip through index {index}")
            if len(aec._legal) > 1:
                chose.append(len(rewards))
                obs_rows.append(obs.astype(np.int8))
                masks.append(np.packbits(env.action_masks()))
                actions.append(index)
                eq = np.zeros(algeria_codec.NUM_ACTIONS, dtype=bool)
                eq[equivalent(action, aec._legal, game.state)] = True
                same.append(np.packbits(eq))
                games_of.append(g)
                kinds.append(game.decision())
            obs, reward, terminated, truncated, info = env.step(index)
            rewards.append(reward)
            if terminated or truncated:
                wins += int(info["won"])
                break
        ret, back = 0.0, np.zeros(len(rewards), dtype=np.float32)
        for t in range(len(rewards) - 1, -1, -1):
            ret = rewards[t] + gamma * ret
            back[t] = ret
        returns.extend(back[chose])
    if not obs_rows:
        raise AssertionError("the teacher games recorded no decision")
    return {"obs": np.stack(obs_rows), "masks": np.stack(masks),
            "actions": np.array(actions, dtype=np.int64), "same": np.stack(same),
            "returns": np.array(returns, dtype=np.float32),
            "games": np.array(games_of), "kinds": np.array(kinds), "wins": wins,
            "cpu": time.process_time() - cpu0}


def record(args) -> dict:
    """The teacher games of ``args.bc_games``, in ``args.envs`` processes."""
    workers = min(args.envs, args.bc_games)
    share = [args.bc_games // workers + (k < args.bc_games % workers)
             for k in range(workers)]
    starts = np.cumsum([0, *share[:-1]])
    jobs = [(int(s), n, args.scenario, args.max_steps, args.shaping, args.gamma,
             not args.codec_only) for s, n in zip(starts, share, strict=True)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(record_games, jobs)
    else:
        parts = [record_games(jobs[0])]
    data = {k: np.concatenate([p[k] for p in parts])
            for k in ("obs", "masks", "actions", "same", "returns", "games", "kinds")}
    data["wins"] = sum(p["wins"] for p in parts)
    data["cpu"] = sum(p["cpu"] for p in parts)
    return data


# ---------------------------------------------------------------- behaviour cloning

def scale_from(data: dict, venv: VecNormalize) -> None:
    """Fix the observation scaling to the teacher's observations (a floor on the
    variance, so an input the teacher never moved stays within the clip)."""
    obs = data["obs"].astype(np.float32)
    venv.obs_rms.mean = obs.mean(axis=0).astype(np.float64)
    venv.obs_rms.var = np.maximum(obs.var(axis=0), 0.01).astype(np.float64)
    venv.obs_rms.count = float(len(obs))
    venv.training = False          # kept fixed while PPO fine-tunes


def _batch(data: dict, rows: np.ndarray, venv: VecNormalize):
    n = algeria_codec.NUM_ACTIONS
    obs = torch.as_tensor(venv.normalize_obs(data["obs"][rows].astype(np.float32)))
    masks = np.unpackbits(data["masks"][rows], axis=1, count=n).astype(bool)
    return (obs, torch.as_tensor(data["actions"][rows]), masks,
            torch.as_tensor(data["returns"][rows]))


def accuracy(model: MaskablePPO, data: dict, rows: np.ndarray, venv: VecNormalize,
             batch: int = 1024) -> dict:
    """Share of ``rows`` where the policy's most likely action is the teacher's or one
    identical to it, overall and by decision kind."""
    hits = np.zeros(len(rows), dtype=bool)
    n = algeria_codec.NUM_ACTIONS
    with torch.no_grad():
        for k in range(0, len(rows), batch):
            part = rows[k:k + batch]
            obs, _, masks, _ = _batch(data, part, venv)
            dist = model.policy.get_distribution(obs, action_masks=masks)
            best = dist.distribution.logits.argmax(dim=1).numpy()
            same = np.unpackbits(data["same"][part], axis=1, count=n).astype(bool)
            hits[k:k + len(part)] = same[np.arange(len(part)), best]
    kinds = data["kinds"][rows]
    by_kind = {str(kd): round(float(hits[kinds == kd].mean()), 3)
               for kd in sorted(set(kinds.tolist()), key=lambda x: -(kinds == x).sum())}
    return {"accuracy": round(float(hits.mean()), 4), "by_kind": by_kind}


def behaviour_clone(model: MaskablePPO, data: dict, venv: VecNormalize, args,
                    on_epoch: Callable[[int, dict], None]) -> dict:
    """Fit the policy to the teacher's actions (cross-entropy over the masked logits)
    and the value head to the returns, through the policy's ``evaluate_actions``."""
    games = np.unique(data["games"])
    rng = np.random.default_rng(args.seed)
    held = rng.choice(games, max(1, len(games) // 10), replace=False) if len(games) > 1 \
        else games[:0]
    val = np.flatnonzero(np.isin(data["games"], held))
    fit = np.flatnonzero(~np.isin(data["games"], held))
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.bc_lr)
    for epoch in range(1, args.bc_epochs + 1):
        # the step size falls linearly to a tenth of --bc-lr at the last epoch
        share = (epoch - 1) / max(args.bc_epochs - 1, 1)
        for group in optimizer.param_groups:
            group["lr"] = args.bc_lr * (1 - 0.9 * share)
        policy.set_training_mode(True)
        order = rng.permutation(fit)
        total = count = 0.0
        for k in range(0, len(order), args.batch_size):
            obs, actions, masks, returns = _batch(data, order[k:k + args.batch_size], venv)
            values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
            loss = -log_prob.mean() + 0.5 * nn.functional.mse_loss(values.flatten(), returns)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            total += float(loss.detach()) * len(actions)
            count += len(actions)
        policy.set_training_mode(False)
        row = {"epoch": epoch, "loss": round(total / max(count, 1), 4),
               **accuracy(model, data, val if len(val) else fit, venv)}
        on_epoch(epoch, row)
    return {"fit_samples": len(fit), "held_out_samples": len(val),
            "held_out_games": len(held)}


# ---------------------------------------------------------------- training

class Curve(BaseCallback):
    """Records every finished training episode, plays the check games every
    ``check_every`` seconds, switches the curriculum's opponent at ``switch`` (a time)
    and stops at the wall-time budget."""

    def __init__(self, start: float, deadline: float, switch: float, first: str, then: str,
                 check: Callable[[], float], check_every: float):
        super().__init__()
        self.start, self.deadline, self.switch = start, deadline, switch
        self.opponent, self.then = first, then
        self.check, self.check_every = check, check_every
        self.next_check = time.monotonic() + check_every
        self.switched_at: float | None = None
        self.rows: list[tuple] = []
        self.checks: list[tuple] = []

    def minutes(self) -> float:
        return (time.monotonic() - self.start) / 60

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:
                self.rows.append((round(self.minutes(), 3), self.num_timesteps,
                                  self.opponent, info.get("won", 0.0),
                                  round(float(info["episode"]["r"]), 4),
                                  info.get("margin", 0.0)))
        now = time.monotonic()
        if self.opponent != self.then and now >= self.switch:
            self.training_env.env_method("set_opponent", self.then)
            self.opponent, self.switched_at = self.then, round(self.minutes(), 3)
        if now >= self.next_check:
            self.checks.append((round(self.minutes(), 3), self.num_timesteps, self.check()))
            self.next_check = time.monotonic() + self.check_every
        return now < self.deadline


def make_venv(args, opponent: str, keep: np.ndarray | None):
    fns = [lambda: Monitor(make_env(args.scenario, opponent, args.max_steps, args.shaping,
                                    not args.codec_only, keep),
                           info_keywords=("won", "margin"))
           for _ in range(args.envs)]
    return SubprocVecEnv(fns, start_method="fork") if args.envs > 1 else DummyVecEnv(fns)


def make_model(args, venv) -> MaskablePPO:
    bc = args.bc_games > 0
    return MaskablePPO(
        "MlpPolicy", venv, n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=4,
        learning_rate=args.lr if args.lr is not None else (5e-5 if bc else 3e-4),
        clip_range=0.1 if bc else 0.2, target_kl=0.02 if bc else None,
        gamma=args.gamma, gae_lambda=0.95,
        ent_coef=args.ent_coef if args.ent_coef is not None else (0.001 if bc else 0.01),
        seed=args.seed, device="cpu", verbose=0,
        policy_kwargs={"features_extractor_class": Encoder,
                       "features_extractor_kwargs": {"features_dim": args.width},
                       "net_arch": {"pi": [64], "vf": [64]}})


def train(args) -> dict:
    """Teacher games, behaviour cloning, MaskablePPO; the model, its scaling and what
    happened, with the wall and CPU seconds of every process."""
    torch.set_num_threads(1)
    torch.distributions.Distribution.set_default_validate_args(False)   # a tenth of BC
    start = time.monotonic()
    deadline = start + 60 * args.minutes
    bc = args.bc_games > 0
    warmup = args.warmup if args.warmup is not None else (0.0 if bc else 0.25)
    first = "random" if warmup > 0 and args.opponent != "random" else args.opponent
    out: dict = {"warmup": warmup, "bc_rows": [], "checks": [], "teacher_cpu_s": 0.0}
    keep = None
    if bc:
        data = record(args)
        out["teacher"] = {"games": args.bc_games, "wins": data["wins"],
                          "samples": len(data["actions"]),
                          "minutes": round((time.monotonic() - start) / 60, 3),
                          "cpu_s": round(data["cpu"], 1)}
        out["teacher_cpu_s"] = data["cpu"]
        keep = np.flatnonzero((data["obs"] != data["obs"][0]).any(axis=0))
        data["obs"] = data["obs"][:, keep]
        np.save(args.out / "columns.npy", keep)
        out["inputs"] = len(keep)
    venv = make_venv(args, first, keep)
    venv.seed(args.seed)
    venv = VecNormalize(venv, norm_obs=True, norm_reward=False, clip_obs=10.0)
    model = make_model(args, venv)
    check_env = make_env(args.scenario, "heuristic", args.max_steps, args.shaping,
                         not args.codec_only, keep)

    def check() -> float:
        """Deterministic games against the heuristic Government (seeds of their own)."""
        r = play(greedy(model, venv), check_env, "heuristic", args.check_games, CHECK_SEED)
        return r["rate"]

    minutes = lambda: round((time.monotonic() - start) / 60, 3)  # noqa: E731
    if bc:
        scale_from(data, venv)
        out["checks"].append((minutes(), 0, check()))

        def on_epoch(epoch: int, row: dict) -> None:
            rate = check()
            out["bc_rows"].append({"minute": minutes(), **row, "check_win_rate": rate})
            out["checks"].append((minutes(), 0, rate))
            print(f"BC epoch {epoch}: loss {row['loss']:.3f}, held-out accuracy "
                  f"{row['accuracy']:.3f}, check games won {rate:.2f}", flush=True)

        out["bc"] = behaviour_clone(model, data, venv, args, on_epoch)
        del data
        model.save(args.out / "bc_model.zip")
    out["bc_end"] = minutes()
    now = time.monotonic()
    curve = Curve(start, deadline, now + (deadline - now) * warmup, first, args.opponent,
                  check, 60 * args.check_minutes)
    if now < deadline:
        model.learn(total_timesteps=args.timesteps, callback=curve)
    out["checks"] += curve.checks
    out["checks"].append((minutes(), model.num_timesteps, check()))
    out.update(model=model, venv=venv, curve=curve, wall=time.monotonic() - start)
    out["worker_cpu_s"] = sum(venv.env_method("cpu_seconds")) if args.envs > 1 else 0.0
    venv.venv.close()
    return out


# ---------------------------------------------------------------- evaluation

def greedy(model: MaskablePPO, venv: VecNormalize) -> Callable[[np.ndarray, np.ndarray], int]:
    def policy(obs, mask):
        action, _ = model.predict(venv.normalize_obs(obs), action_masks=mask,
                                  deterministic=True)
        return int(action)
    return policy


def play(policy, env: gym.Env, opponent: str, games: int, seed: int = EVAL_SEED) -> dict:
    """FLN wins of ``policy`` over ``games`` seeded games on ``env`` against
    ``opponent``: a function of (observation, mask), or ``"teacher"`` for the
    heuristic FLN."""
    env.unwrapped.set_opponent(opponent)
    wins, margins, turns = 0, [], []
    for i in range(games):
        obs, _ = env.reset(seed=seed + i)
        teacher = make_agent("heuristic", "algeria", SIDE, i) if policy == "teacher" else None
        while True:
            if teacher is not None:
                action = algeria_codec.action_index(teacher.choose(env.unwrapped.aec.game))
            else:
                action = policy(obs, env.action_masks())
            obs, _, terminated, truncated, info = env.step(action)
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


def _evaluate_cell(job: tuple) -> tuple[str, dict, float]:
    """One (FLN, Government) cell of the evaluation, in a pool worker."""
    who, opponent, games, out, max_steps = job
    torch.set_num_threads(1)
    cpu0 = time.process_time()
    env = run_env(Path(out), opponent, max_steps)
    if who in ("trained", "cloned"):
        venv = VecNormalize.load(str(Path(out) / "vecnormalize.pkl"),
                                 DummyVecEnv([lambda: env]))
        venv.training = False
        name = "model.zip" if who == "trained" else "bc_model.zip"
        policy = greedy(MaskablePPO.load(Path(out) / name, device="cpu"), venv)
    elif who == "random":
        rng = np.random.default_rng(EVAL_SEED)
        policy = lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))  # noqa: E731
    else:
        policy = "teacher"
    result = play(policy, env, opponent, games, EVAL_SEED)
    return f"{who} FLN vs {opponent} Government", result, time.process_time() - cpu0


def evaluate(out: Path, games: int, max_steps: int, workers: int) -> tuple[dict, float]:
    """Every FLN of the run (trained, cloned when there is one, random, the teacher)
    against the random and the heuristic Government on the same seeds; the results
    and the CPU seconds they took."""
    who = ["trained", *(["cloned"] if (out / "bc_model.zip").is_file() else []),
           "random", "teacher"]
    jobs = [(w, gov, games, str(out), max_steps)
            for w in who for gov in ("random", "heuristic")]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            cells = pool.map(_evaluate_cell, jobs, chunksize=1)
    else:
        cells = [_evaluate_cell(j) for j in jobs]
    return {name: r for name, r, _ in cells}, sum(c for _, _, c in cells)


# ---------------------------------------------------------------- plot

def plot(rows: list[tuple], checks: list[tuple], bc_rows: list[dict], bc_end: float | None,
         path: Path, window: int, title: str, switched_at: float | None = None,
         teacher_rate: float | None = None) -> None:
    """Against wall-clock minutes: the cloning epochs' held-out accuracy, the check
    games' win rate (deterministic, against the heuristic Government), the training
    episodes' win rate and PSL margin; a line where cloning ends and PPO begins."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.2, 4.0), dpi=100)
    if bc_rows:
        ax.plot([r["minute"] for r in bc_rows], [r["accuracy"] for r in bc_rows], "o-",
                color="tab:purple", ms=4, label="cloning: held-out teacher-action accuracy")
    if checks:
        ax.plot([c[0] for c in checks], [c[2] for c in checks], "s-", color="black", ms=4,
                lw=1, label="check games won vs heuristic GOV (deterministic)")
    if rows:
        x = np.array([r[0] for r in rows])
        ax.plot(x, trailing_mean([r[3] for r in rows], window), color="tab:blue",
                label=f"PPO training episodes won (last {window})")
        ax.plot(x, trailing_mean([r[5] / 100 for r in rows], window), color="tab:green",
                label="PPO episodes' final PSL margin FLN - GOV (/100)")
    if bc_rows and bc_end is not None:
        ax.axvline(bc_end, color="tab:red", ls="--", lw=1,
                   label="behaviour cloning ends, MaskablePPO begins")
    if switched_at is not None:
        ax.axvline(switched_at, color="grey", ls=":", lw=1,
                   label="random -> heuristic Government")
    if teacher_rate is not None:
        ax.axhline(teacher_rate, color="tab:purple", ls=":", lw=1,
                   label="teacher's win rate in its games vs heuristic GOV")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_ylim(-0.6, 1.5)
    ax.set_yticks(np.arange(-0.5, 1.01, 0.25))
    ax.set_xlabel("wall-clock minutes of training")
    ax.set_title(title, fontsize=9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper left", ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def trailing_mean(values: list[float], window: int) -> np.ndarray:
    """The mean of the last ``window`` values at each point (of all so far at first)."""
    c = np.cumsum(np.concatenate([[0.0], values]))
    i = np.arange(1, len(values) + 1)
    lo = np.maximum(i - window, 0)
    return (c[i] - c[lo]) / (i - lo)


# ---------------------------------------------------------------- command line

def positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text}")
    return n


def whole(text: str) -> int:
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text}")
    return n


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="1954", choices=["1954", "1958", "1960"])
    p.add_argument("--opponent", default="heuristic", help="the Government bot trained against")
    p.add_argument("--bc-games", type=whole, default=200,
                   help="teacher games recorded for behaviour cloning (0: pure RL)")
    p.add_argument("--bc-epochs", type=positive, default=10)
    p.add_argument("--bc-lr", type=float, default=1e-3,
                   help="cloning's first step size (Adam), falling to a tenth")
    p.add_argument("--codec-only", action="store_true",
                   help="the codec's vector alone as input, without where each counter is")
    p.add_argument("--warmup", type=float, default=None,
                   help="share of the PPO time played against the random Government first "
                        "(default 0.25 without cloning, 0 with)")
    p.add_argument("--shaping", type=float, default=2.0, help="weight of the PSL shaping")
    p.add_argument("--lr", type=float, default=None,
                   help="PPO learning rate (default 3e-4, 5e-5 after cloning)")
    p.add_argument("--ent-coef", type=float, default=None,
                   help="PPO entropy bonus (default 0.01, 0.001 after cloning)")
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--width", type=positive, default=128, help="units of the shared layer")
    p.add_argument("--timesteps", type=positive, default=5_000_000,
                   help="most PPO timesteps")
    p.add_argument("--minutes", type=float, default=40.0,
                   help="wall-time budget of training (teacher games, cloning and PPO)")
    p.add_argument("--envs", type=positive, default=2,
                   help="processes for the teacher games, PPO's environments and evaluation")
    p.add_argument("--n-steps", type=positive, default=1024, help="steps per env per update")
    p.add_argument("--batch-size", type=positive, default=256)
    p.add_argument("--max-steps", type=positive, default=3000,
                   help="truncate a game after N actions")
    p.add_argument("--check-games", type=whole, default=20,
                   help="deterministic games against the heuristic Government per check")
    p.add_argument("--check-minutes", type=float, default=4.0,
                   help="minutes between checks during PPO")
    p.add_argument("--eval-games", type=whole, default=100)
    p.add_argument("--window", type=positive, default=100, help="episodes in the curve's average")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/fln"))
    p.add_argument("--evaluate", action="store_true",
                   help="only evaluate the model a finished run saved in --out")
    return p


def main(argv: list[str] | None = None) -> dict:
    p = parser()
    args = p.parse_args(argv)
    if args.warmup is not None and not 0 <= args.warmup <= 1:
        p.error(f"--warmup: expected a share between 0 and 1, got {args.warmup}")
    if args.minutes <= 0:
        p.error(f"--minutes: expected a positive number, got {args.minutes}")
    if args.evaluate:
        saved = [args.out / n for n in ("train.json", "model.zip", "vecnormalize.pkl")]
        missing = [str(f) for f in saved if not f.is_file()]
        if missing:
            p.error(f"--evaluate: no finished run in {args.out} (missing {', '.join(missing)})")
        report = json.loads(saved[0].read_text())
    else:
        report = run_training(args)
    evaluation, cpu = evaluate(args.out, args.eval_games, args.max_steps, args.envs)
    report["evaluation"], report["eval_cpu_s"] = evaluation, round(cpu, 1)
    (args.out / "evaluation.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"trained {report['timesteps']:,} PPO steps in {report['episodes']} episodes "
          f"after cloning {report.get('teacher', {}).get('samples', 0):,} teacher decisions; "
          f"{report['train_wall_s']:.0f} s wall, {report['train_cpu_s']:.0f} s CPU")
    for name, r in report["evaluation"].items():
        lo, hi = r["wilson95"]
        m, mlo, mhi = r["margin"]
        print(f"{name}: {r['wins']}/{r['games']} = {100 * r['rate']:.0f}% "
              f"(95% Wilson {100 * lo:.0f}-{100 * hi:.0f}%), final PSL margin {m:+.1f} "
              f"({mlo:+.1f} to {mhi:+.1f})")
    return report


def run_training(args) -> dict:
    """Train, save the model, its scaling, the curves, the plot and ``train.json``."""
    args.out.mkdir(parents=True, exist_ok=True)
    cpu0 = time.process_time()
    out = train(args)
    model, venv, curve, wall = out["model"], out["venv"], out["curve"], out["wall"]
    cpu = time.process_time() - cpu0 + out["worker_cpu_s"] + out["teacher_cpu_s"]
    model.save(args.out / "model.zip")
    venv.save(str(args.out / "vecnormalize.pkl"))
    with open(args.out / "curve.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["minute", "timestep", "opponent", "won", "return", "margin"])
        writer.writerows(curve.rows)
    with open(args.out / "checks.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["minute", "timestep", "check_win_rate"])
        writer.writerows(out["checks"])
    if out["bc_rows"]:
        with open(args.out / "bc.csv", "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["minute", "epoch", "loss", "accuracy", "check_win_rate"])
            writer.writerows([r["minute"], r["epoch"], r["loss"], r["accuracy"],
                              r["check_win_rate"]] for r in out["bc_rows"])
    teacher = out.get("teacher")
    what = (f"BC on {teacher['samples']:,} decisions of {teacher['games']} heuristic-FLN "
            f"games, then " if teacher else "")
    plot(curve.rows, out["checks"], out["bc_rows"], out["bc_end"] if teacher else None,
         args.out / "learning_curve.png", args.window,
         f"FLN vs {args.opponent} Government, {args.scenario}, {wall / 60:.0f} min:\n"
         f"{what}MaskablePPO ({model.num_timesteps:,} steps)", curve.switched_at,
         teacher["wins"] / teacher["games"] if teacher else None)
    report = {"scenario": args.scenario, "opponent": args.opponent,
              "counters": not args.codec_only, "inputs": out.get("inputs"),
              "warmup": out["warmup"],
              "switched_at_minute": curve.switched_at, "shaping": args.shaping,
              "bc_games": args.bc_games, "bc_epochs": args.bc_epochs if teacher else 0,
              **({"teacher": teacher, "bc": out["bc"], "bc_epochs_log": out["bc_rows"]}
                 if teacher else {}),
              "bc_end_minute": out["bc_end"],
              "timesteps": model.num_timesteps, "episodes": len(curve.rows),
              "ppo_steps_per_wall_s": round(model.num_timesteps
                                            / max(wall - 60 * out["bc_end"], 1e-9), 1),
              "train_wall_s": round(wall, 1), "train_cpu_s": round(cpu, 1)}
    (args.out / "train.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
