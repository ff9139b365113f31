"""SearchAgent: open-loop Monte Carlo tree search with heuristic rollouts.

The tree branches only on the Operations-phase mission choices of the side
searching (``ops_fln``/``ops_gov``), over the HeuristicAgent's top-ranked
candidates plus ``pass``; every other decision, and every decision of the
opponent, is played by the HeuristicAgent. Rollouts run to the end of the
current turn (control, final PSL adjustment included) and are scored by an
evaluation of the PSLs, control, AP and the units on the map. With an
iteration budget the agent is deterministic for its seed; a time budget
(``seconds``) makes it depend on the machine's speed.
"""

from __future__ import annotations

import math
import random

from djebel.algeria.board import (
    CADRE,
    FLN_UNITS,
    FRONT,
    GOV_MOBILE_TYPES,
    GOV_UNITS,
    NEUT,
    UTYPE,
)
from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.state import FLN_CONTROL, GOV_CONTROL
from djebel.core.actions import Action
from djebel.core.search import MCTS

SEARCHED = ("ops_fln", "ops_gov")
SCALE = 10.0


def evaluate(game) -> dict:
    """Win chances of each side in [0, 1]: exact at the end, else a logistic score."""
    s = game.state
    if s.winner is not None:
        return {"fln": 1.0 if s.winner == "fln" else 0.0,
                "gov": 1.0 if s.winner == "gov" else 0.0}
    fc, gc = s.control.count(FLN_CONTROL), s.control.count(GOV_CONTROL)
    loc, flags = s.loc, s.flags
    fln_units = 0.0
    for u in FLN_UNITS:
        if loc[u] >= 0:
            w = 1.5 if UTYPE[u] == FRONT else 0.4 if UTYPE[u] == CADRE else 0.6
            fln_units += w * (0.5 if flags[u] & NEUT else 1.0)
    gov_units = sum(0.3 for u in GOV_UNITS if loc[u] >= 0 and UTYPE[u] in GOV_MOBILE_TYPES
                    and not flags[u] & NEUT)
    # Each side's PSL counts more the closer it is to zero.
    x = (_life(s.fln_psl) - _life(s.gov_psl) + 0.5 * (fc - gc) + 0.15 * s.ap
         + 0.4 * fln_units - gov_units - 0.4 * s.naval)
    p = 1.0 / (1.0 + math.exp(-x / SCALE))
    return {"fln": p, "gov": 1.0 - p}


def _life(psl: int) -> float:
    return psl - 12.0 * math.exp(-psl / 12.0)


class SearchAgent:
    """MCTS over the Operations-phase missions, the HeuristicAgent everywhere else."""

    def __init__(self, side: str, seed: int = 0, iterations: int = 48,
                 seconds: float | None = None, width: int = 5, margin: float = 0.02,
                 common_seeds: int = 8):
        self.side = side
        self.rng = random.Random(seed)
        self.width = width
        self.heuristic = HeuristicAgent(side, self.rng.getrandbits(32))
        self.players = {"fln": HeuristicAgent("fln", self.rng.getrandbits(32)),
                        "gov": HeuristicAgent("gov", self.rng.getrandbits(32))}
        self.mcts = MCTS(policy=self._policy, evaluate=evaluate, branch=self._branch,
                         candidates=self._candidates, stop=_turn_over,
                         iterations=iterations, seconds=seconds, margin=margin,
                         common_seeds=common_seeds,
                         rng=random.Random(self.rng.getrandbits(62)))
        self.searches = 0

    def choose(self, game) -> Action:
        if game.decision() not in SEARCHED:
            return self.heuristic.choose(game)
        cands = self._candidates(game)
        if len(cands) == 1:
            return cands[0]
        self.searches += 1
        return self.mcts.choose(game)

    def _policy(self, game) -> Action:
        return self.players[game.active_side].choose(game)

    def _branch(self, game) -> bool:
        return game.active_side == self.side and game.decision() in SEARCHED

    def _candidates(self, game) -> list[Action]:
        ranked = self.players[game.active_side].ranked(game)
        ranked.sort(key=lambda sa: -sa[0])
        out = [a for _, a in ranked[:self.width]]
        for _, a in ranked:
            if a.verb == "pass" and a not in out:
                out.append(a)
        return out


def _turn_over(game, root) -> bool:
    return game.state.turn > root.state.turn
