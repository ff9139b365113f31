"""``djebel bench rl``: environment steps per second on one core, masks on.

Figures are per second of CPU time of this process (``time.process_time``), so that
other work on a shared machine does not lower them; the budgets are wall-clock.
A step is what a learner does each move: read the observation and its action mask
(``env.last()``), pick a legal index from the mask, ``env.step(index)``. Uniformly
random legal play from a seeded generator; the PettingZoo environment without its
order-enforcing wrapper. The mask is read as booleans (a view of the int8 array, no
copy): numpy's ``flatnonzero`` takes about 1 microsecond on a bool array of 3,657 and
about 6 on the int8 one, which would be the learner's time, not the environment's.
The same games are also timed without the encodings (the engine alone:
``legal_actions`` and ``apply``), so the cost of the environment shows.
"""

from __future__ import annotations

import random
import time

import numpy as np

from djebel.rl.aec import DjebelAEC
from djebel.rl.specs import AlgeriaSpec, SkirmishSpec


def _env_steps(env: DjebelAEC, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    rng = random.Random(seed)
    steps = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    env.reset(seed=seed)
    while time.perf_counter() - start < seconds:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            games += 1
            env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        env.step(legal[rng.randrange(legal.size)])
        steps += 1
    return steps, games, time.process_time() - cpu


def _engine_steps(spec, seconds: float, seed: int = 1) -> tuple[int, float]:
    rng = random.Random(seed)
    steps, n = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        game = spec.new_game(n)
        n += 1
        while not game.is_over() and time.perf_counter() - start < seconds:
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
    return steps, time.process_time() - cpu


def run(seconds: float = 5.0, skirmish_seconds: float = 5.0, scenario: str = "1958") -> dict:
    spec = AlgeriaSpec(scenario)
    steps, games, elapsed = _env_steps(DjebelAEC(spec), seconds)
    engine, engine_elapsed = _engine_steps(spec, seconds / 2)
    res = {"algeria_env_steps_per_second": round(steps / elapsed),
           "algeria_engine_decisions_per_second": round(engine / engine_elapsed),
           "algeria_games": games}
    us_env, us_engine = elapsed / max(steps, 1) * 1e6, engine_elapsed / max(engine, 1) * 1e6
    res["algeria_microseconds_per_step"] = round(us_env, 1)
    res["algeria_microseconds_in_encodings"] = round(us_env - us_engine, 1)
    if skirmish_seconds > 0:
        sk = SkirmishSpec("ambush")
        steps, games, elapsed = _env_steps(DjebelAEC(sk), skirmish_seconds)
        engine, engine_elapsed = _engine_steps(sk, skirmish_seconds / 2)
        res["skirmish_env_steps_per_second"] = round(steps / elapsed, 1)
        res["skirmish_engine_decisions_per_second"] = round(engine / engine_elapsed, 1)
    res["seconds"] = seconds
    return res


def profile(seconds: float = 5.0, scenario: str = "1958") -> str:
    """Where an Algeria environment step spends its time (pyinstrument's text tree)."""
    from pyinstrument import Profiler  # the profile extra
    env = DjebelAEC(AlgeriaSpec(scenario))
    profiler = Profiler(interval=0.0005)
    profiler.start()
    _env_steps(env, seconds)
    profiler.stop()
    return profiler.output_text(unicode=False, color=False, show_all=False)
