"""Play many bot-against-bot games, on every core or on a Ray cluster.

A :class:`Job` says which game, scenario, agents and options to play. Game ``i``
of a job seeded ``K`` gets its dice seed and its agents' seeds from ``(K, i)``
alone (:func:`derive_seed`), so a job gives the same results whatever the
number of workers or the backend. Each game returns a plain dict (winner,
level, length, per-turn PSLs and areas controlled); results come back in game
order.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field

from djebel.core.errors import ScenarioError

BACKENDS = ("process", "ray")


@dataclass(frozen=True)
class Job:
    """What to play: ``agents`` maps each side to an agent name (see ``djebel.agents``)."""

    game: str                                  # "algeria" or "skirmish"
    scenario: str
    agents: dict[str, str]
    seed: int = 0
    options: dict[str, bool] = field(default_factory=dict)
    max_turns: int = 100                       # safety stop: the game is "unfinished"
    # Keyword options per side for make_agent (the heuristic agent's style settings).
    agent_options: dict[str, dict] = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


def derive_seed(seed: int, index: int, purpose: str = "dice") -> int:
    """A 63-bit seed for game ``index`` of a job seeded ``seed``, one per purpose
    ("dice", or a side name for that side's agent)."""
    digest = hashlib.blake2b(f"{seed}:{index}:{purpose}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


# ---------------------------------------------------------------- one game

def _agents(job: Job, sides: Iterable[str], index: int) -> dict:
    from djebel.agents import make_agent

    return {side: make_agent(job.agents[side], job.game, side, derive_seed(job.seed, index, side),
                             **job.agent_options.get(side, {}))
            for side in sides}


def play_algeria(job: Job, index: int) -> dict:
    """One game of Algeria; the PSLs and areas controlled are recorded at the first
    decision of every turn (the values in force for that turn) and at the end, and
    per turn what each side paid in its own actions (``spent``)."""
    from djebel import algeria
    from djebel.algeria.state import FLN_CONTROL, GOV_CONTROL

    game = algeria.new_game(job.scenario, seed=derive_seed(job.seed, index),
                            options=job.options, log=False)
    agents = _agents(job, game.sides, index)
    s = game.state
    turns: list[list[int]] = []      # [turn, fln_psl, gov_psl, fln_areas, gov_areas]
    decisions = 0

    def snapshot() -> list[int]:
        return [s.turn, s.fln_psl, s.gov_psl, s.control.count(FLN_CONTROL),
                s.control.count(GOV_CONTROL)]

    spent: list[list[int]] = []      # [turn, GOV PSP spent, FLN AP spent]
    while not game.is_over():
        if s.turn > job.max_turns:
            break
        if s.turn >= 1 and (not turns or turns[-1][0] != s.turn):
            turns.append(snapshot())
            spent.append([s.turn, 0, 0])
        side = game.active_side
        gov_psl, ap = s.gov_psl, s.ap
        game.apply(agents[side].choose(game))
        decisions += 1
        if spent:
            # What a side pays in its own actions: the Government's PSL (mobilization,
            # activation, mission costs; B.1, B.3), the FLN's AP (A.1, A.2).
            if side == "gov":
                spent[-1][1] += max(0, gov_psl - s.gov_psl)
            elif side == "fln":
                spent[-1][2] += max(0, ap - s.ap)
    final = snapshot()
    r = game.result()
    return {
        "index": index, "winner": r.winner if r else None,
        "level": r.level if r else "unfinished", "reason": r.reason if r else "turn limit",
        "turns": s.turn, "decisions": decisions,
        "psl": {"fln": s.fln_psl, "gov": s.gov_psl},
        "history": turns, "final": final, "spent": spent,
    }


def play_skirmish(job: Job, index: int) -> dict:
    """One Insurgent Commander battle: winner, level, length, casualties per side, and
    the French elements fielded at the start and still in play after the first
    Insurgent phase (how well a convoy survives an ambush)."""
    from djebel import skirmish

    options = {"log": False, **job.options}
    game = skirmish.new_game(job.scenario, seed=derive_seed(job.seed, index), options=options)
    agents = _agents(job, game.sides, index)
    fielded = [e.id for e in game.elements if e.side == "french" and not e.off_table]
    first_phase: dict[str, int] | None = None
    decisions = 0
    limit = job.max_turns * 1000
    while not game.is_over() and decisions < limit:
        game.apply(agents[game.active_side].choose(game))
        decisions += 1
        if first_phase is None and (game.is_over() or _past_first_insurgent_phase(game)):
            kept = sum(1 for i in fielded if game.elements[i].removed not in LOST)
            first_phase = {"french_fielded": len(fielded), "french_kept": kept}
    r = game.result()
    return {
        "index": index, "winner": r.winner if r else None,
        "level": r.level if r else "unfinished", "reason": r.reason if r else "decision limit",
        "turns": getattr(game, "turn", 0), "decisions": decisions,
        "scores": dict(r.scores) if r else {},
        "casualties": skirmish_casualties(game),
        "first_insurgent_phase": first_phase,
    }


LOST = ("eliminated", "destroyed", "abandoned")      # the fates that lose an element


def _past_first_insurgent_phase(game) -> bool:
    """The first Insurgent phase of turn 1 is over (the game is in a later phase)."""
    insurgent_phase = 0 if game.scn.first_side == "insurgents" else 1
    return game.turn > 1 or game.phase_no > insurgent_phase


def skirmish_casualties(game) -> dict[str, int]:
    """Per side: elements lost (eliminated, destroyed or abandoned) and infantry SP lost."""
    out: dict[str, int] = {}
    for e in game.elements:
        lost = e.removed in LOST
        out[f"{e.side}_elements_lost"] = out.get(f"{e.side}_elements_lost", 0) + int(lost)
        if e.t.is_infantry:
            sp_lost = e.t.strength if e.removed == "eliminated" else e.t.strength - e.sp
            out[f"{e.side}_sp_lost"] = out.get(f"{e.side}_sp_lost", 0) + max(0, sp_lost)
    return out


PLAYERS: dict[str, Callable[[Job, int], dict]] = {
    "algeria": play_algeria, "skirmish": play_skirmish}


def play_one(job: Job, index: int) -> dict:
    return PLAYERS[job.game](job, index)


def play_chunk(job: Job, indices: list[int]) -> list[dict]:
    """Games ``indices`` of the job, played one after the other (a worker's task)."""
    return [play_one(job, i) for i in indices]


# ---------------------------------------------------------------- many games

def check(job: Job) -> None:
    """Fail early, in the caller's process, on a bad game, scenario, option or agent."""
    if job.game not in PLAYERS:
        raise ScenarioError(f"unknown game {job.game!r} (known: {', '.join(PLAYERS)})")
    if job.game == "algeria":
        from djebel import algeria
        from djebel.algeria.game import check_options
        if job.scenario not in algeria.SCENARIOS:
            raise ScenarioError(f"unknown scenario {job.scenario!r} "
                                f"(known: {', '.join(algeria.SCENARIOS)})")
        check_options(job.scenario, job.options)
        sides = ("fln", "gov")
    else:
        from djebel import skirmish
        sides = skirmish.new_game(job.scenario, seed=0).sides
    for side in sides:
        if side not in job.agents:
            raise ScenarioError(f"no agent for side {side!r}")
    _agents(job, sides, 0)


def chunks(games: int, workers: int) -> list[list[int]]:
    """Split game indices into tasks small enough to balance the load."""
    size = max(1, min(25, games // max(1, workers * 8)))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def run(job: Job, games: int, workers: int | None = None, backend: str = "process",
        address: str | None = None,
        progress: Callable[[int], None] | None = None) -> list[dict]:
    """Play ``games`` games of ``job`` and return their results in game order.

    ``backend="process"`` uses a ProcessPoolExecutor of ``workers`` processes (default:
    every core; 1 plays in this process); ``backend="ray"`` sends the same tasks to a
    Ray cluster (``address``, or a local one). ``progress(n)`` is called after each
    task with the number of games it finished."""
    if backend not in BACKENDS:
        raise ScenarioError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if games < 0:
        raise ScenarioError("the number of games cannot be negative")
    workers = workers or default_workers()
    tasks = chunks(games, workers)
    results: list[dict] = []
    if backend == "ray":
        results = _run_ray(job, tasks, address, progress)
    elif workers == 1:
        for task in tasks:
            results.extend(play_chunk(job, task))
            if progress:
                progress(len(task))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending = {pool.submit(play_chunk, job, task) for task in tasks}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    part = fut.result()
                    results.extend(part)
                    if progress:
                        progress(len(part))
    results.sort(key=lambda r: r["index"])
    return results


def import_ray():
    """Ray, or a clear error when the optional extra is not installed."""
    try:
        import ray
    except ImportError:
        raise ScenarioError("the Ray backend needs the optional extra: "
                            "pip install 'djebel[ray]' (or pip install 'ray>=2.9')") from None
    return ray


def _run_ray(job: Job, tasks: list[list[int]], address: str | None,
             progress: Callable[[int], None] | None) -> list[dict]:
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        # No address: always a fresh local instance on loopback (never a stale cluster).
        kwargs = {} if address else {"_node_ip_address": "127.0.0.1"}
        ray.init(address=address or "local", ignore_reinit_error=True, log_to_driver=False,
                 include_dashboard=False, **kwargs)
    try:
        remote = ray.remote(play_chunk)
        pending = [remote.remote(job, task) for task in tasks]
        results: list[dict] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                part = ray.get(ref)
                results.extend(part)
                if progress:
                    progress(len(part))
        return results
    finally:
        if started_here:
            ray.shutdown()
