"""Open-loop Monte Carlo tree search over the game protocol.

Works with any game that has ``clone()``, ``legal_actions()``, ``apply()``,
``is_over()`` and ``active_side``. Chance is handled by determinization: every
iteration clones the root and reseeds its dice, so the tree is keyed by the
sequence of chosen actions (open loop) and averages over the dice.

Only the decisions ``branch(game)`` picks get tree nodes; every other decision
(and every decision below the tree) is played by ``policy(game)``. A rollout
stops at the game's end or when ``stop(game, root)`` says so, and is scored by
``evaluate(game)``: a value in [0, 1] for each side, as a dict.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Action = Any
Game = Any


@dataclass
class Node:
    side: str | None = None
    visits: int = 0
    children: dict = field(default_factory=dict)   # action -> [visits, value sum, Node]


def reseed_dice(game: Game, seed: int) -> None:
    """Default chance sampler: replace the state's dice stream (``Dice.reseed``)."""
    state = getattr(game, "state", None)
    dice = getattr(state, "dice", None)
    if dice is not None:
        dice.reseed(seed)


@dataclass
class MCTS:
    """UCT with progressive widening over a ranked candidate list."""

    policy: Callable[[Game], Action]
    evaluate: Callable[[Game], dict]
    branch: Callable[[Game], bool]
    candidates: Callable[[Game], list]
    stop: Callable[[Game, Game], bool] = lambda game, root: False
    reseed: Callable[[Game, int], None] = reseed_dice
    iterations: int = 64
    seconds: float | None = None
    exploration: float = 0.7
    widening: float = 0.5        # children allowed = 1 + ceil(widening * sqrt(visits))
    max_steps: int = 5000
    margin: float = 0.0          # keep the first candidate unless another beats it by this
    common_seeds: int = 0        # >0: cycle over this many dice seeds (common random numbers)
    rng: random.Random = field(default_factory=random.Random)
    last_iterations: int = 0

    def choose(self, game: Game) -> Action:
        cands = self.candidates(game)
        if len(cands) == 1:
            self.last_iterations = 0
            return cands[0]
        root = Node(game.active_side)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        seeds = [self.rng.getrandbits(62) for _ in range(self.common_seeds)]
        n = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and n > 0:
                    break
            elif n >= self.iterations:
                break
            seed = seeds[n % len(seeds)] if seeds else self.rng.getrandbits(62)
            self._iterate(game, root, cands, seed)
            n += 1
        self.last_iterations = n
        return self._final(root, cands)

    def _final(self, root: Node, cands: list) -> Action:
        """The most visited child; with a margin, the prior choice (the first candidate)
        stays unless another well-tried child's mean value beats it by the margin."""
        best = max(root.children.items(), key=lambda kv: (kv[1][0], kv[1][1]))[0]
        if self.margin <= 0 or cands[0] not in root.children:
            return best
        prior = root.children[cands[0]]
        floor = max(2, prior[0] // 2)
        top, top_mean = cands[0], prior[1] / prior[0]
        for a, (visits, total, _) in root.children.items():
            if visits >= floor and total / visits > top_mean + self.margin:
                top, top_mean = a, total / visits
        return top

    def _iterate(self, root_game: Game, root: Node, root_cands: list, seed: int) -> None:
        g = root_game.clone()
        self.reseed(g, seed)
        path: list[tuple[Node, Action]] = []
        node: Node | None = root
        cands = root_cands
        steps = 0
        while not g.is_over() and steps < self.max_steps:
            if node is not None and (cands is not None or self.branch(g)):
                if cands is None:
                    cands = self.candidates(g)
                if node.side is None:
                    node.side = g.active_side
                action, fresh = self._select(node, cands)
                path.append((node, action))
                g.apply(action)
                steps += 1
                node = None if fresh else node.children[action][2]
                cands = None
                continue
            cands = None
            if self.stop(g, root_game):
                break
            g.apply(self.policy(g))
            steps += 1
        values = self.evaluate(g)
        for nd, action in path:
            stats = nd.children[action]
            stats[0] += 1
            stats[1] += values.get(nd.side, 0.5)
            nd.visits += 1

    def _select(self, node: Node, cands: list) -> tuple[Action, bool]:
        allowed = 1 + math.ceil(self.widening * math.sqrt(node.visits + 1))
        pool = cands[:allowed]
        for a in pool:
            if a not in node.children:
                node.children[a] = [0, 0.0, Node()]
                return a, True
        log_n = math.log(node.visits + 1)
        best, best_sc = None, -1e18
        for a in pool:
            visits, total, _ = node.children[a]
            sc = total / visits + self.exploration * math.sqrt(log_n / visits)
            if sc > best_sc:
                best, best_sc = a, sc
        return best, False
