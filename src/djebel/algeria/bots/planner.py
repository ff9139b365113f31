"""PlannerAgent: style switching against a model of the opponent it actually meets.

Today's ``search`` agent picks, once a turn, the HeuristicAgent style whose rollouts
win most, with the opponent in those rollouts always the plain HeuristicAgent; an
opponent that plays otherwise (a human who hides, a one-idea gauntlet strategy, the
search agent itself switching styles) is then met with a plan made for someone else.
The planner adds:

* **An opponent model.** It keeps a copy of the game, rebuilt from what a player sees
  (the actions in the game's history and the dice faces already rolled, never the
  stream that rolls the next ones) and, at every decision of the other side with more
  than one legal action, asks each candidate model (the other side's heuristic
  styles and the gauntlet strategies) what it would have played. A model scores 1
  for every choice it predicted, the older ones fading by ``decay`` per decision.
  The rollouts play the opponent with the model that predicted it best.
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
* **Short rollouts** (optional): with ``horizon`` set, the style rollouts also stop
  that many turns ahead and are scored by the evaluation rather than played out.

Measured against the search agent with sides swapped on the same seeds (docs/ladder.md,
56% of 66 games) it is about as strong, not shown stronger; the opponent model is for
opponents that do not play like the heuristic (the gauntlet, docs/gauntlet.md).

The agent's choices are a function of its seed and the game's history alone (an
iteration budget, no clock): it is deterministic for a seed, and the web app can
rebuild its memory by consulting it along a record.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from djebel.algeria.bots.evaluation import win_chance
from djebel.algeria.bots.gauntlet import GAUNTLET
from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.bots.search import MAX_ROLLOUT_TURNS, STYLES, StyleRecord, pick_style
from djebel.core.actions import Action
from djebel.core.dice import Dice
from djebel.core.errors import DjebelError

OTHER = {"fln": "gov", "gov": "fln"}
PRIOR = 3.0


def opponent_models(side: str) -> list[tuple[str, Callable[[int], HeuristicAgent]]]:
    """(name, seed -> agent) of every model of ``side``'s play: its heuristic styles
    (the plain one first) and its gauntlet strategies."""
    out: list[tuple[str, Callable[[int], HeuristicAgent]]] = []
    for i, kw in enumerate(STYLES[side]):
        out.append((f"style{i}", lambda seed, kw=kw: HeuristicAgent(side, seed, **kw)))
    for name, cls in GAUNTLET[side].items():
        out.append((name, lambda seed, cls=cls: cls(side, seed)))
    return out


class PlannerAgent:
    """Style switching with rollouts against the best-fitting opponent model."""

    def __init__(self, side: str, seed: int = 0, rollouts: int = 16,
                 horizon: int | None = None, memory: float = 1.0, decay: float = 0.97,
                 share_rollouts: int = 8, margin: float = 0.03, screen: int = 6,
                 finalists: int = 2, z: float = 2.0, switch_lead: float = 2.0):
        self.side, self.other = side, OTHER[side]
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.horizon = horizon
        self.memory = memory
        self.decay = decay
        self.styles = [HeuristicAgent(side, self.rng.getrandbits(32), **kw)
                       for kw in STYLES[side]]
        self.style = 0
        self.current = self.styles[0]
        self.share_rollouts = share_rollouts
        self.margin = margin
        self.shares: list[tuple[int, int, int]] = []  # (turn, heuristic's psp, chosen)
        self.models = opponent_models(self.other)
        self.watchers = [make(self.rng.getrandbits(32)) for _, make in self.models]
        # The plain heuristic starts with a head start that fades like the evidence:
        # a few lucky guesses at the set-up do not switch the model.
        self.fit = [PRIOR] + [0.0] * (len(self.models) - 1)
        self.screen, self.finalists = screen, finalists
        self.z, self.switch_lead = z, switch_lead
        self.record = StyleRecord(len(self.styles))
        self.picks: list[tuple[int, int, int]] = []   # (turn, style, opponent model)
        self.times: list[float] = []                 # seconds per decision
        self._turn = -1
        self._shadow = None                           # the game as last seen
        self._seen = 0                                # its number of actions
        self._faces = 0                               # and of dice drawn

    # ------------------------------------------------------------ entry point
    def choose(self, game) -> Action:
        t0 = time.perf_counter()
        self._observe(game)
        s = game.state
        if self.rollouts and s.turn >= 1 and s.turn != self._turn:
            self._turn = s.turn
            self.style = self._pick_style(game)
            self.current = self.styles[self.style]
        action = self.current.choose(game)
        if self.share_rollouts and game.decision() == "share":
            action = self._share(game, action)
        self._remember(game)
        self.times.append(time.perf_counter() - t0)
        return action

    def model(self) -> int:
        """The opponent model that predicted the opponent best so far (ties: the
        earlier one, the plain heuristic first)."""
        return max(range(len(self.fit)), key=lambda i: (self.fit[i], -i))

    # ------------------------------------------------------------ opponent model
    def _remember(self, game) -> None:
        """Keep a copy of the game without its dice stream (only the count of faces
        drawn): what comes next is rebuilt from the faces the game shows."""
        shadow = game.clone()
        shadow.state.dice = Dice(0)
        self._shadow, self._seen, self._faces = shadow, len(game.state.actions), \
            game.state.dice.count

    def _observe(self, game) -> None:
        """Replay the actions played since this agent's last decision on its copy,
        with the faces rolled meanwhile as the copy's dice, and score every model on
        the other side's decisions. A history that does not continue the one it saw
        (a take-back) is not replayed: the models keep their scores."""
        s = game.state
        shadow = self._shadow
        if shadow is None or not s.actions.extends(shadow.state.actions):
            return
        n, new_faces = len(s.actions) - self._seen, s.dice.count - self._faces
        faces, node = [], s.dice.drawn
        for _ in range(new_faces):
            if node is None:
                return
            faces.append(node[0])
            node = node[1]
        faces.reverse()
        shadow.state.dice = Dice(0, tuple(faces))
        try:
            for action in s.actions.tail(n):
                if shadow.active_side == self.other and len(shadow.legal_actions()) > 1:
                    for i, watcher in enumerate(self.watchers):
                        hit = watcher.choose(shadow) == action
                        self.fit[i] = self.decay * self.fit[i] + hit
                shadow.apply(action)
        except DjebelError:
            return          # the copy went another way (faces not as shown): stop there

    # ------------------------------------------------------------ style switching
    def _pick_style(self, game) -> int:
        """The style to play this turn (``pick_style``: the plain heuristic's unless
        another is clearly better), rollouts against the best-fitting model."""
        model = self.model()
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
        agents = {self.side: HeuristicAgent(self.side, rng.getrandbits(32), **style),
                  self.other: self.models[model][1](rng.getrandbits(32))}
        if first is not None:
            g.apply(first)
        s = g.state
        stop = s.turn + (MAX_ROLLOUT_TURNS if horizon is None else horizon)
        while s.winner is None:
            if s.turn > stop:
                return 0.5 if horizon is None else win_chance(g, self.side)
            g.apply(agents[g.active_side].choose(g))
        return 1.0 if s.winner == self.side else 0.0

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
        model, kw = self.model(), STYLES[self.side][self.style]
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
