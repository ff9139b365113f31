"""What the environments need of each game: how to start one, its action and
observation encodings, its text board and its shaping potential.

The PettingZoo, Gymnasium and OpenSpiel adapters all drive a game through one of these
two specs, so every encoding rule lives in the codec modules and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from djebel.core.actions import Action
from djebel.core.errors import ScenarioError
from djebel.rl import algeria_codec, skirmish_codec


@dataclass(frozen=True)
class AlgeriaSpec:
    """Algeria (``algeria_v0``): scenario and options as for ``algeria.new_game``."""

    scenario: str = "1958"
    options: dict = field(default_factory=dict)
    log: bool = False          # the game log is not part of the observation; off is faster

    name = "algeria_v0"
    game = "algeria"

    def __post_init__(self):
        """Refuse an unknown scenario or option now, not at the first reset."""
        from djebel.algeria.game import check_options
        from djebel.algeria.rules.setup import scenario_spec
        scenario_spec(self.scenario)
        check_options(self.scenario, self.options)
    sides = algeria_codec.SIDES
    num_actions = algeria_codec.NUM_ACTIONS
    obs_size = algeria_codec.OBS_SIZE
    obs_bound = algeria_codec.OBS_BOUND

    def new_game(self, seed: int):
        from djebel import algeria
        return algeria.new_game(self.scenario, seed=seed, options=self.options, log=self.log)

    def legal(self, game) -> tuple[dict[int, Action], np.ndarray]:
        """``{index: action}`` of the legal actions and their mask."""
        return algeria_codec.legal_map(game.legal_actions())

    def observe(self, game, side: str) -> np.ndarray:
        return algeria_codec.observe(game, side)

    def index_action(self, game, index: int) -> Action:
        return algeria_codec.index_action(index)

    def action_index(self, game, action: Action | str) -> int:
        return algeria_codec.action_index(action)

    def render(self, game) -> str:
        from djebel.algeria.text import describe
        return describe(game.state) + "\n" + game.prompt()

    def potential(self, game, side: str) -> float:
        """Shaping potential: (own PSL - other side's PSL) / 100 (PSLs run 0..99, 5-1)."""
        s = game.state
        diff = s.fln_psl - s.gov_psl
        return (diff if side == "fln" else -diff) / 100.0


@dataclass(frozen=True)
class SkirmishSpec:
    """Insurgent Commander (``skirmish_v0``): scenario id and game options."""

    scenario: str = "ambush"
    options: dict = field(default_factory=dict)

    name = "skirmish_v0"
    game = "skirmish"

    def __post_init__(self):
        """Refuse an unknown scenario or option now, not at the first reset."""
        self.new_game(0)
    sides = skirmish_codec.SIDES
    num_actions = skirmish_codec.NUM_ACTIONS
    obs_size = skirmish_codec.OBS_SIZE
    obs_bound = skirmish_codec.OBS_BOUND

    def new_game(self, seed: int):
        from djebel import skirmish
        return skirmish.new_game(self.scenario, seed=seed, options={"log": False,
                                                                    **self.options})

    def legal(self, game) -> tuple[dict[int, Action], np.ndarray]:
        """``{number: order}`` of the candidate orders and their mask."""
        actions = skirmish_codec.orders(game)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[:len(actions)] = 1
        return dict(enumerate(actions)), mask

    def observe(self, game, side: str) -> np.ndarray:
        return skirmish_codec.observe(game, side)

    def index_action(self, game, index: int) -> Action:
        return skirmish_codec.index_action(game, index)

    def action_index(self, game, action: Action | str) -> int:
        return skirmish_codec.action_index(game, action)

    def render(self, game) -> str:
        from djebel.skirmish.render import describe
        return describe(game) + "\n" + game.prompt()

    def potential(self, game, side: str) -> float:
        """Shaping potential: own share of strength points left minus the enemy's
        (each side's SP on the table or embarked, over its SP at the start)."""
        share = {}
        for s in self.sides:
            els = [e for e in game.elements if e.side == s]
            start = sum(e.t.strength for e in els) or 1
            share[s] = sum(e.sp for e in els if not e.removed) / start
        other = self.sides[1 - self.sides.index(side)]
        return share[side] - share[other]


def make_spec(game: str, **kwargs):
    if game == "algeria":
        return AlgeriaSpec(**kwargs)
    if game == "skirmish":
        return SkirmishSpec(**kwargs)
    raise ScenarioError(f"unknown game {game!r} (known: algeria, skirmish)")
