"""PlannerAgent: style switching against a model of the opponent it meets, with its
PSP shares searched.

* **An opponent model** (``djebel.algeria.bots.opponent``): the rollouts play the
  opponent as the model (one of the other side's heuristic styles or gauntlet
  strategies) that predicted its choices best so far.
* **Style switching** as the search agent (``search.pick_style``), over the same
  styles, with the same dice seeds for every style (common random numbers), each
  rollout a clone of the game whose dice are reseeded from the agent's own
  generator: the plain heuristic's style unless another leads it clearly, so that
  search does not make it worse than the heuristic it plays out.
* **PSP shares searched** (9-4): at each share of PSP it plays out four splits (the
  heuristic's, all for itself, all against the enemy, half each) to the start of the
  next turn on common dice, scores them by the fitted position evaluation
  (``djebel.algeria.bots.evaluation``) and keeps the heuristic's unless another is
  ``margin`` better.
* **Its own side's plans** (``OWN``): the FLN planner masses Cadres in a city for
  its Strike in its own play and rollouts (``FlnPolicies._strike_build``), the
  Government planner does not deny Propaganda while it can fly a hunting group
  (``GovPolicies._denying``); the opponent model keeps the styles it was fitted with.
* **Short rollouts** (optional): with ``horizon`` set, the style rollouts also stop
  that many turns ahead and are scored by the evaluation rather than played out.

Measured against the search agent of before the opponent model (``search@ae24d79``)
with sides swapped on the same seeds, it won 70.4% of 1,200 games (docs/ladder.md).

The agent's choices are a function of its seed and the game's history alone (an
iteration budget, no clock): it is deterministic for a seed, and the web app can
rebuild its memory by consulting it along a record.
"""

from __future__ import annotations

import random
import time

from djebel.algeria.bots.evaluation import win_chance
from djebel.algeria.bots.opponent import OpponentModel
from djebel.algeria.bots.search import StyleRecord, pick_style
from djebel.algeria.bots.styles import MAX_ROLLOUT_TURNS, STYLES, StylePolicy, play_out
from djebel.algeria.rules.common import other
from djebel.core.actions import Action

# Settings the planner plays its own side with, in every style and rollout, and does not
# assume of its opponent (docs/gauntlet.md). The FLN's city Strike (9.12): 30 / 21 of
# 30 games against the heuristic Government in 1954 / 1960 with it, 26 / 15 without. The
# Government's hunt before the denial of Propaganda (11.12, GovPolicies._denying):
# against the 1958 strategy of our own ``france`` 46 of 50 games with it, 19 without.
OWN: dict[str, dict] = {"fln": {"strike_plan": True}, "gov": {"deny_hunting": False}}


class PlannerAgent:
    """Style switching with rollouts against the best-fitting opponent model."""

    def __init__(self, side: str, seed: int = 0, rollouts: int = 16,
                 horizon: int | None = None, memory: float = 1.0, decay: float = 0.97,
                 share_rollouts: int = 8, margin: float = 0.03, screen: int = 6,
                 finalists: int = 2, z: float = 2.0, switch_lead: float = 2.0):
        self.side, self.other = side, other(side)
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.horizon = horizon
        self.memory = memory
        self.styles = [self._own(StylePolicy(side, self.rng.getrandbits(32), **kw))
                       for kw in STYLES[side]]
        self.style = 0
        self.current = self.styles[0]
        self.share_rollouts = share_rollouts
        self.margin = margin
        self.shares: list[tuple[int, int, int]] = []  # (turn, heuristic's psp, chosen)
        self.opponent = OpponentModel(self.other, self.rng, decay)
        self.screen, self.finalists = screen, finalists
        self.z, self.switch_lead = z, switch_lead
        self.record = StyleRecord(len(self.styles))
        self.picks: list[tuple[int, int, int]] = []   # (turn, style, opponent model)
        self.times: list[float] = []                 # seconds per decision
        self._turn = -1

    def _own(self, agent: StylePolicy) -> StylePolicy:
        """``agent`` with the settings the planner plays its own side with (``OWN``)."""
        for name, value in OWN[self.side].items():
            setattr(agent, name, value)
        return agent

    # ------------------------------------------------------------ entry point
    def choose(self, game) -> Action:
        t0 = time.perf_counter()
        self.opponent.observe(game)
        s = game.state
        if self.rollouts and s.turn >= 1 and s.turn != self._turn:
            self._turn = s.turn
            self.style = self._pick_style(game)
            self.current = self.styles[self.style]
        action = self.current.choose(game)
        if self.share_rollouts and game.decision() == "share":
            action = self._share(game, action)
        self.opponent.remember(game)
        self.times.append(time.perf_counter() - t0)
        return action

    # ------------------------------------------------------------ style switching
    def _pick_style(self, game) -> int:
        """The style to play this turn (``pick_style``: the plain heuristic's unless
        another is clearly better), rollouts against the best-fitting model."""
        model = self.opponent.best()
        kws = STYLES[self.side]
        pick = pick_style(self.record,
                          lambda i, seed: self._rollout(game, kws[i], model, seed, self.horizon),
                          lambda: self.rng.getrandbits(62), self.rollouts, self.screen,
                          self.finalists, self.memory, self.z, self.switch_lead)
        self.picks.append((game.state.turn, pick, model))
        return pick

    def _rollout(self, game, style: dict, model: int, seed: int, horizon: int | None,
                 first: Action | None = None) -> float:
        """This side's result of one game played on from ``game`` (after ``first``, if
        given) on reseeded dice: 1, 0 or 0.5 (a draw, or a game still going after
        MAX_ROLLOUT_TURNS); with a ``horizon``, the evaluation's win chance once the
        turns after this one up to ``horizon`` are played."""
        g = game.clone()
        g.state.dice.reseed(seed)
        rng = random.Random(seed)
        agents = {self.side: self._own(StylePolicy(self.side, rng.getrandbits(32), **style)),
                  self.other: self.opponent.agent(model, rng.getrandbits(32))}
        if first is not None:
            g.apply(first)
        play_out(g, agents, MAX_ROLLOUT_TURNS if horizon is None else horizon)
        winner = g.state.winner
        if winner is None:
            return 0.5 if horizon is None else win_chance(g, self.side)
        return 1.0 if winner == self.side else 0.0

    # ------------------------------------------------------------ PSP shares (9-4)
    def _share(self, game, default: Action) -> Action:
        """9-4: how many PSP raise the own PSL and how many lower the enemy's. The
        heuristic's split, all for itself, all against the enemy and half each are
        played out to the start of the next turn on the same dice and scored by the
        evaluation; another split replaces the heuristic's only if it scores
        ``margin`` better."""
        n = game.state.stack[-1][2]
        legal = game.legal_actions()
        cands = [default] + [a for a in legal if a.args[0] in (n, 0, n // 2) and a != default]
        if len(cands) == 1:
            return default
        model, kw = self.opponent.best(), STYLES[self.side][self.style]
        totals = [0.0] * len(cands)
        for _ in range(self.share_rollouts):
            seed = self.rng.getrandbits(62)
            for i, a in enumerate(cands):
                totals[i] += self._rollout(game, kw, model, seed, 0, a)
        bar = totals[0] + self.margin * self.share_rollouts
        best = max(range(len(cands)), key=lambda i: (totals[i] if i == 0 or totals[i] > bar
                                                     else -1.0, -i))
        self.shares.append((game.state.turn, default.args[0], cands[best].args[0]))
        return cands[best]
