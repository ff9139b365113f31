"""SearchAgent: rollout search over the HeuristicAgent's styles and missions.

Two searches, both over the game protocol with chance sampled by reseeding the
dice of cloned states:

* **Style switching** (policy switching): at the start of each of its turns the
  agent plays ``rollouts`` complete games from the current state with each of a
  few HeuristicAgent styles (for the Government, whether it races by Civil Affairs
  below the coup line, whether a pair of elite brigades hunts by helicopter, how
  readily its patrols go where the FLN's Cadres would propagandize, when it lowers
  the FLN PSL, how much it spends on units; for the FLN, how eagerly it
  propagandizes, whether it converts Cadres into Fronts, whether it keeps its units
  underground from a hunting group, whether it builds Cadres rather than Bands, how
  readily its units move and whether it always lowers the Government's PSL), the
  opponent played by the model of it that predicted its choices best so far
  (``djebel.algeria.bots.opponent``: one of its heuristic styles or gauntlet
  strategies; the plain heuristic until another fits better), the same dice seeds
  for every style (``pick_style``). It
  keeps the plain heuristic's style unless another leads it clearly: by at least
  ``switch_lead`` rollouts and ``z`` standard errors of the paired differences,
  the earlier turns' counted with weight ``memory`` (1 by default: a style's record
  builds up over the game). Search then cannot make the bot much worse than its
  rollout policy against an opponent unlike the one it imagines (a one-idea
  strategy of the gauntlet), and the styles still behind the heuristic after
  ``screen`` seeds play no more rollouts, which halves the time of a turn's search.
  ``z=0, switch_lead=0`` and ``screen`` at least ``rollouts`` give the earlier
  rule: the style that won most.
* **Mission tree** (``tree=True``): open-loop MCTS over the Operations-phase
  mission choices of its own side (``ops_fln``/``ops_gov``), over the
  HeuristicAgent's top-ranked candidates plus ``pass``; rollouts run to the end
  of the turn and are scored by an evaluation of the PSLs, control, AP and the
  units on the map.

Both sides use style switching by default. Measured against the heuristic
opponent it beat the mission tree on both sides (FLN, 60 games each: 92% against
75% in 1958, 38% against 10% in 1960; Government 1954, 200 games: 50% against
37.5%): what decides games is the plan for the whole turn (where the PSP and AP
go), not single missions. With an iteration budget the agent is deterministic for
its seed; a time budget (``seconds``) makes it depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

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
from djebel.algeria.bots.opponent import OpponentModel
from djebel.algeria.bots.styles import STYLES, StylePolicy, play_out
from djebel.algeria.rules.common import other
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




class StyleRecord:
    """What the rollouts of the earlier turns said about each style: per style, its
    paired lead over style 0 (the plain heuristic) and the sum of the squared
    differences; index 0 stays 0."""

    def __init__(self, n: int):
        self.lead = [0.0] * n
        self.spread = [0.0] * n


def pick_style(record: StyleRecord, play: Callable[[int, int], float],
               seeds: Callable[[], int], rollouts: int, screen: int, finalists: int,
               memory: float, z: float, switch_lead: float,
               deadline: float | None = None) -> int:
    """The plain heuristic's style (0) unless another is clearly better.

    ``play(style, seed)`` is one rollout's result for this side (1, 0.5 or 0). Every
    style plays ``screen`` seeds from ``seeds()`` (common random numbers); only the
    challengers then ahead of style 0 (at most ``finalists``) play the rest of the
    ``rollouts`` seeds beside it. A challenger's lead is the sum, over the seeds both
    played, of its result minus style 0's, this turn's added to ``memory`` times the
    earlier turns'. The best challenger is played only if its lead is at least
    ``switch_lead`` and more than ``z`` standard errors of the paired differences:
    search never trades the heuristic's plan for a style that won a few lucky
    rollouts (``z=0, switch_lead=0`` and ``screen >= rollouts``: the style that won
    most, ties to the earlier). With a ``deadline`` (``time.perf_counter``) no seed
    starts after it, once one seed is done."""
    n = len(record.lead)
    lead = [memory * x for x in record.lead]
    spread = [memory * x for x in record.spread]
    alive = list(range(n))
    for k in range(rollouts):
        if k == screen:
            ahead = sorted((i for i in range(1, n) if lead[i] > 0),
                           key=lambda i: (-lead[i], i))[:finalists]
            if not ahead:
                break
            alive = [0, *ahead]
        seed = seeds()
        base = play(0, seed)
        for i in alive[1:]:
            d = play(i, seed) - base
            lead[i] += d
            spread[i] += d * d
        if deadline is not None and time.perf_counter() >= deadline:
            break
    record.lead, record.spread = lead, spread
    if n == 1:
        return 0
    best = max(range(1, n), key=lambda i: (lead[i], -i))
    sure = lead[best] >= switch_lead and lead[best] > z * spread[best] ** 0.5
    return best if sure else 0


class SearchAgent:
    """Style switching and MCTS over the Operations-phase missions (see the module)."""

    def __init__(self, side: str, seed: int = 0, iterations: int = 48,
                 seconds: float | None = None, width: int = 5, margin: float = 0.02,
                 common_seeds: int = 8, tree: bool = False,
                 rollouts: int | None = None, memory: float = 1.0, screen: int = 6,
                 finalists: int = 2, z: float = 2.0, switch_lead: float = 2.0,
                 model: bool = True):
        self.side = side
        self.rng = random.Random(seed)
        self.width = width
        self.heuristic = StylePolicy(side, self.rng.getrandbits(32))
        self.players = {"fln": StylePolicy("fln", self.rng.getrandbits(32)),
                        "gov": StylePolicy("gov", self.rng.getrandbits(32))}
        self.mcts = MCTS(policy=self._policy, evaluate=evaluate, branch=self._branch,
                         candidates=self._candidates, stop=_turn_over,
                         iterations=iterations, seconds=seconds, margin=margin,
                         common_seeds=common_seeds,
                         rng=random.Random(self.rng.getrandbits(62)))
        self.tree = bool(tree)
        self.rollouts = 16 if rollouts is None else rollouts
        self.styles: list[HeuristicAgent] = []
        if self.rollouts:
            self.styles = [StylePolicy(side, self.rng.getrandbits(32), **kw)
                           for kw in STYLES[side]]
            self.switch_rng = random.Random(self.rng.getrandbits(62))
        self._turn = -1
        self.searches = 0
        self.picks: list[int] = []      # the style index chosen each turn
        # How much the earlier turns' rollouts still count (0: each turn on its own).
        # Measured with memory 1 against 0 (100 games each, FLN): 91% against 87% in
        # 1958, 43% against 38% in 1960.
        self.memory = memory
        self.screen, self.finalists = screen, finalists
        self.z, self.switch_lead = z, switch_lead
        self.record = StyleRecord(len(STYLES[side]))
        # Whom the rollouts play: the best-fitting model of the opponent, or always
        # the plain heuristic (``model=False``, the agent of before).
        self.opponent = (OpponentModel(other(side), random.Random(self.rng.getrandbits(62)))
                         if model else None)

    def choose(self, game) -> Action:
        if self.opponent is not None:
            self.opponent.observe(game)
        action = self._choose(game)
        if self.opponent is not None:
            self.opponent.remember(game)
        return action

    def _choose(self, game) -> Action:
        if self.styles and game.state.turn != self._turn and game.state.turn >= 1:
            self._turn = game.state.turn
            self.heuristic = self.styles[self._pick_style(game)]
        if not self.tree or game.decision() not in SEARCHED:
            return self.heuristic.choose(game)
        cands = self._candidates(game)
        if len(cands) == 1:
            return cands[0]
        self.searches += 1
        return self.mcts.choose(game)

    def _pick_style(self, game) -> int:
        """The style to play this turn (``pick_style``: the plain heuristic's unless
        another is clearly better), rollouts against the opponent's model."""
        styles = STYLES[self.side]
        deadline = (time.perf_counter() + self.mcts.seconds) if self.mcts.seconds else None
        best = pick_style(self.record, lambda i, seed: self._rollout(game, styles[i], seed),
                          lambda: self.switch_rng.getrandbits(62), self.rollouts,
                          self.screen, self.finalists, self.memory, self.z,
                          self.switch_lead, deadline)
        self.picks.append(best)
        return best

    def _rollout(self, game, style: dict, seed: int) -> float:
        """1, 0 or 0.5: this side's result of one game played out from ``game``."""
        g = game.clone()
        g.state.dice.reseed(seed)
        rng = random.Random(seed)
        them = other(self.side)
        mine = StylePolicy(self.side, rng.getrandbits(32), **style)
        theirs = (self.opponent.agent(self.opponent.best(), rng.getrandbits(32))
                  if self.opponent is not None else StylePolicy(them, rng.getrandbits(32)))
        play_out(g, {self.side: mine, them: theirs})
        winner = g.state.winner
        return 0.5 if winner is None else 1.0 if winner == self.side else 0.0

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
