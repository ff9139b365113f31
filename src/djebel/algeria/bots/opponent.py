"""OpponentModel: which known way of playing the other side plays like the opponent met.

The searching bots play their rollouts against a model of the opponent. Played
against the plain HeuristicAgent whatever the opponent does, they plan for someone
else when it hides, or plays one idea over and over (the gauntlet): the search bot's
Government won 177 of 200 1958 games against ``hide-raid`` so, 190 with this model
(docs/gauntlet.md).

The model keeps a copy of the game, rebuilt from what a player sees (the actions in
the game's history and the dice faces already rolled, never the stream that rolls the
next ones) and, at every decision of the watched side with more than one legal
action, asks each candidate (that side's heuristic styles and its gauntlet
strategies) what it would have played. A candidate scores 1 for every choice it
predicted, the older ones fading by ``decay`` per decision; the plain heuristic starts
``prior`` ahead, so that a few lucky guesses at the set-up do not switch the model.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from djebel.algeria.bots.gauntlet import GAUNTLET
from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.bots.styles import STYLES, StylePolicy
from djebel.core.dice import Dice
from djebel.core.errors import DjebelError

PRIOR = 3.0


def opponent_models(side: str) -> list[tuple[str, Callable[[int], HeuristicAgent]]]:
    """(name, seed -> agent) of every model of ``side``'s play: its heuristic styles
    (the plain one first) and its gauntlet strategies."""
    out: list[tuple[str, Callable[[int], HeuristicAgent]]] = []
    for i, kw in enumerate(STYLES[side]):
        out.append((f"style{i}", lambda seed, kw=kw: StylePolicy(side, seed, **kw)))
    for name, cls in GAUNTLET[side].items():
        out.append((name, lambda seed, cls=cls: cls(side, seed)))
    return out


class OpponentModel:
    """The candidate models of ``side``'s play, scored on what that side has played.

    Call ``observe`` when the watching agent is asked for a decision (it replays what
    happened since) and ``remember`` once it has answered."""

    def __init__(self, side: str, rng: random.Random, decay: float = 0.97,
                 prior: float = PRIOR):
        self.side = side
        self.decay = decay
        self.models = opponent_models(side)
        self.watchers = [make(rng.getrandbits(32)) for _, make in self.models]
        self.fit = [prior] + [0.0] * (len(self.models) - 1)
        self._shadow = None                           # the game as last seen
        self._seen = 0                                # its number of actions
        self._faces = 0                               # and of dice drawn

    def best(self) -> int:
        """The model that predicted the opponent best so far (ties: the earlier one,
        the plain heuristic first)."""
        return max(range(len(self.fit)), key=lambda i: (self.fit[i], -i))

    def name(self) -> str:
        return self.models[self.best()][0]

    def agent(self, model: int, seed: int) -> HeuristicAgent:
        """A fresh agent playing model ``model``."""
        return self.models[model][1](seed)

    def remember(self, game) -> None:
        """Keep a copy of the game without its dice stream (only the count of faces
        drawn): what comes next is rebuilt from the faces the game shows."""
        shadow = game.clone()
        shadow.state.dice = Dice(0)
        self._shadow, self._seen, self._faces = shadow, len(game.state.actions), \
            game.state.dice.count

    def observe(self, game) -> None:
        """Replay the actions played since the last ``remember`` on the copy, with the
        faces rolled meanwhile as the copy's dice, and score every model on the
        watched side's decisions. A history that does not continue the one it saw (a
        take-back) is not replayed: the models keep their scores."""
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
                if shadow.active_side == self.side and len(shadow.legal_actions()) > 1:
                    for i, watcher in enumerate(self.watchers):
                        hit = watcher.choose(shadow) == action
                        self.fit[i] = self.decay * self.fit[i] + hit
                shadow.apply(action)
        except DjebelError:
            return          # the copy went another way (faces not as shown): stop there
