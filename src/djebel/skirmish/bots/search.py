"""Searching commanders: rollouts over the heuristic's candidate orders.

``SearchCommander`` plays either side. At each of its own decisions that opens
something (which element or group activates next, and an element's first order
of an activation) it takes the heuristic's few best candidates -- for the French
the best order of each kind that ``CommanderBot`` weighs (special order, fire,
Shoot and Move, move, sprint, Overwatch), for the Insurgents the three courses of
the decision matrix (D72) -- and runs open-loop Monte Carlo rollouts over them
with ``core.search.MCTS`` (one tree level, UCB at the root): each rollout clones
the game, reseeds its dice (common random numbers: every candidate meets the same
dice), plays the candidate, lets the heuristics of both sides finish the
activation and every reaction to it, and scores the position. Every other
decision (reactions, Overwatch fire, the rest of an activation) is the heuristic's.

The score (``evaluate``) is the victory points as if the battle ended now (D78)
plus what is not yet in them: strength points lost, pinned elements and the
fire each side's elements stand in. The budget is ``iterations`` rollouts per
searched decision (deterministic for a seed) or ``seconds`` per decision.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from djebel.core.actions import Action
from djebel.core.log import Log
from djebel.core.search import MCTS
from djebel.skirmish.bots.candidates import COVER_FOES, exposure
from djebel.skirmish.bots.commander import CommanderBot
from djebel.skirmish.bots.french import _own_worth, _target_worth
from djebel.skirmish.bots.matrix import COURSES, HeuristicBot
from djebel.skirmish.geometry import centre_distance
from djebel.skirmish.rules.garnish import score

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

DEFAULT_ITERATIONS = 8
DEFAULT_WIDTH = 3
SCALE = 6.0                    # victory points for a 73% evaluation
MARGIN = 0.04                  # the heuristic's choice stays unless beaten by this
PROGRESS_W = 0.4               # share of an objective's points credited for closeness
PROGRESS_CM = 80.0             # no credit farther than this


def standing(g: SkirmishGame) -> float:
    """French minus Insurgent worth of the position: D78 points as if the battle ended
    now, strength lost and pins (what the next fire will turn into points), and the
    exposure of every element on the ground to its nearest enemies."""
    pts = score(g, final=True)
    v = float(pts["french"] - pts["insurgents"])
    for e in g.elements:
        if e.removed or not e.on_table:
            continue
        sign = 1.0 if e.side == "french" else -1.0
        worth = _own_worth(g, e) if e.side == "french" else _target_worth(g, e)
        hurt = 0.0
        if e.t.is_infantry and e.t.strength:
            hurt += 0.5 * (1 - e.sp / e.t.strength)
        if e.pinned:
            hurt += 0.25
        if e.immobilized or e.weapons_ko:
            hurt += 0.25
        if e.ground and not e.t.is_aircraft:
            foes = sorted((o for o in g.elements if o.side != e.side and o.on_table
                           and not o.pinned),
                          key=lambda o: centre_distance(o.body, e.body))[:COVER_FOES]
            hurt += 0.15 * exposure(g, e, e.x, e.y, foes)[0]
        v -= sign * worth * min(hurt, 1.0)
    return v + progress(g)


def progress(g: SkirmishGame) -> float:
    """Part of the French objectives' points not yet scored, by how near the nearest
    French element able to score them stands (infantry to hold or search, a vehicle
    to exit): a rollout one activation long sees the advance, not only the arrival."""
    v = 0.0
    searched_fids = set(g.searched)
    infantry = [e for e in g.elements if e.side == "french" and e.on_table and e.t.is_infantry]
    for hook in g.scn.victory:
        if hook["side"] != "french":
            continue
        goals: list[tuple[float, float]] = []
        if hook["hook"] == "objective_held":
            c = g.terrain.feature(hook["feature"]).centroid
            goals = [(c.x, c.y)]
        elif hook["hook"] == "objective_searched":
            goals = [(c.x, c.y) for fid in g.scn.searchable if fid not in searched_fids
                     for c in (g.terrain.feature(fid).centroid,)]
        for gx, gy in goals:
            d = min((math.hypot(e.x - gx, e.y - gy) for e in infantry), default=None)
            if d is not None:
                v += PROGRESS_W * hook["points"] * max(0.0, 1.0 - d / PROGRESS_CM)
    return v


def evaluate(g: SkirmishGame) -> dict:
    """Each side's chance in [0, 1]: exact once the battle is over, else logistic."""
    r = g.result() if g.is_over() else None
    if r is not None:
        if r.winner is None:
            return {"french": 0.5, "insurgents": 0.5}
        return {r.winner: 1.0, g.other(r.winner): 0.0}
    p = 1.0 / (1.0 + math.exp(-standing(g) / SCALE))
    return {"french": p, "insurgents": 1.0 - p}


def searched(g: SkirmishGame, side: str) -> bool:
    """Decisions the search opens: the phasing side's choice of what activates, and an
    activating element's first order (not its Shoot-and-Move second half, not a group
    member's order, not a command roll)."""
    if g.active_side != side or g.phasing != side:
        return False
    fr = g.frames[-1]
    if fr["k"] == "main":
        return True
    return fr["k"] == "act" and not fr["sub"] and not fr.get("grp") and (
        fr["free"] or fr["credits"] > 0)


class SearchCommander:
    """Rollout search for ``side`` over its heuristic's candidates (module docstring)."""

    def __init__(self, side: str, seed: int = 0, iterations: int = DEFAULT_ITERATIONS,
                 width: int = DEFAULT_WIDTH, seconds: float | None = None) -> None:
        if side not in ("french", "insurgents"):
            raise ValueError(f"unknown side {side!r}")
        self.side = side
        self.width = max(1, int(width))
        self.french = CommanderBot(seed)
        self.insurgents = HeuristicBot(seed, log=False)
        self.mine = self.french if side == "french" else self.insurgents
        self.mcts = MCTS(policy=self._policy, evaluate=evaluate, branch=lambda g: False,
                         candidates=self.candidates, stop=_activation_over,
                         iterations=max(1, int(iterations)), seconds=seconds,
                         common_seeds=max(1, int(iterations)), margin=MARGIN,
                         rng=random.Random(seed))

    def choose(self, game: SkirmishGame) -> Action:
        if not searched(game, self.side):
            return self.mine.choose(game)
        root = game.clone()
        root.log = Log(enabled=False)
        a = self.mcts.choose(root)
        return a

    def _policy(self, g: SkirmishGame) -> Action:
        return (self.french if g.active_side == "french" else self.insurgents).choose(g)

    # ------------------------------------------------------------ candidates
    def candidates(self, g: SkirmishGame) -> list[Action]:
        """The heuristic's choice first, then its next best, ``width`` in all. Ending
        the phase or the activation is tried only when the heuristic proposes it: a
        rollout one activation long cannot see what waiting loses."""
        first = self.mine.choose(g)
        fr = g.frames[-1]
        if fr["k"] == "main":
            others = self._main_options(g, g.legal_actions())
        elif self.side == "french":
            e = g.elements[fr["e"]]
            opts = self.french.options(g, e, g.legal_actions())
            others = [a for _, a in sorted(opts, key=lambda t: -t[0])]
        else:
            others = self._courses(g, fr)
        out = [first]
        for a in others:
            if a is not None and a not in out:
                out.append(a)
            if len(out) >= self.width:
                break
        return out

    def _main_options(self, g: SkirmishGame, acts: list[Action]) -> list[Action]:
        if self.side == "french":
            grouped = {str(x) for a in acts if a.verb == "group" and len(a.args) >= 3
                       for x in a.args}
            rated = [(self.french._activation_score(g, a, grouped), i, a)
                     for i, a in enumerate(acts)]
            rated = [r for r in rated if r[0] is not None]
        else:
            rated = []
            for i, a in enumerate(acts):
                if a.verb != "activate":
                    continue
                e = g.el(a.args[0])
                sees = e.on_table and any(o.side != e.side and o.on_table and g.sees(e, o)
                                          for o in g.elements)
                rated.append(((0 if e.pinned else 2) + (1 if sees else 0), i, a))
        rated.sort(key=lambda r: (-r[0], r[1]))
        # ending the phase is tried only when the heuristic proposes it (it is first)
        return [a for _, _, a in rated]

    def _courses(self, g: SkirmishGame, fr: dict) -> list[Action]:
        """D72: the matrix's three courses (the goofiest with either coin)."""
        e = g.elements[fr["e"]]
        acts = g.menu()
        out = []
        for course in COURSES:
            for coin in ((1, 2) if course == "goofiest" else (1,)):
                out.append(self.insurgents._follow(g, e, (course, coin), acts))
        return [a for a in out if a.verb != "end"]


def _activation_over(g: SkirmishGame, root: SkirmishGame) -> bool:
    """A rollout stops once the activation it opened and every reaction to it are done:
    the phasing side is back at its choice of what activates (or the phase changed)."""
    return g.frames[-1]["k"] == "main" or g.phasing != root.phasing


__all__ = ["SearchCommander", "evaluate", "searched", "standing"]
