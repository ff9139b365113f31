"""djebel's games as OpenSpiel Python games: ``python_djebel_algeria`` and
``python_djebel_skirmish`` (registered when this module is imported).

Both are sequential, zero-sum, perfect-information games with sampled chance: the
dice are rolled inside the rules as an action resolves (a Flush's combat, a mission
roll), not offered as separate chance decisions, so ``chance_mode`` is
SAMPLED_STOCHASTIC. A cloned state gets fresh dice by default (``resample_on_clone``),
so a search that clones states (OpenSpiel's MCTS) samples the dice instead of reading
the real game's future rolls; the state itself keeps its seeded dice, so the same seed
and actions replay the same game.

Actions and observation tensors are the encodings of ``djebel.rl.algeria_codec`` and
``djebel.rl.skirmish_codec``; ``action_to_string`` is djebel's notation.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from djebel.core.dice import Dice
from djebel.rl.specs import AlgeriaSpec, SkirmishSpec

_UPPER_LENGTH = {"algeria": 20_000, "skirmish": 20_000}   # decisions; see docs/rl.md


def _game_type(short: str, long: str, params: dict) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short, long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=False,   # a board text is no perfect recall
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)


ALGERIA_PARAMS = {"scenario": "1958", "seed": 0, "shorter_game": False,
                  "resample_on_clone": True}
SKIRMISH_PARAMS = {"scenario": "ambush", "seed": 0, "turn_limit": 0,
                   "resample_on_clone": True}
ALGERIA_TYPE = _game_type("python_djebel_algeria", "djebel: Algeria 1954-1962",
                          ALGERIA_PARAMS)
SKIRMISH_TYPE = _game_type("python_djebel_skirmish", "djebel: Insurgent Commander",
                           SKIRMISH_PARAMS)


def _game_info(spec) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(num_distinct_actions=spec.num_actions, max_chance_outcomes=0,
                            num_players=2, min_utility=-1.0, max_utility=1.0,
                            utility_sum=0.0, max_game_length=_UPPER_LENGTH[spec.game])


class DjebelSpielGame(pyspiel.Game):
    """One of djebel's games for OpenSpiel; the spec says which."""

    def __init__(self, game_type, spec, params):
        super().__init__(game_type, _game_info(spec), params)
        self.spec = spec
        self.seed = int(params["seed"])
        self.resample = bool(params["resample_on_clone"])

    def new_initial_state(self):
        return DjebelSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return DjebelObserver(self.spec, params)


class AlgeriaSpielGame(DjebelSpielGame):
    def __init__(self, params=None):
        params = {**ALGERIA_PARAMS, **(params or {})}
        options = {"shorter_game": True} if params["shorter_game"] else {}
        super().__init__(ALGERIA_TYPE, AlgeriaSpec(str(params["scenario"]), options), params)


class SkirmishSpielGame(DjebelSpielGame):
    def __init__(self, params=None):
        params = {**SKIRMISH_PARAMS, **(params or {})}
        options = {"turn_limit": int(params["turn_limit"])} if params["turn_limit"] else {}
        super().__init__(SKIRMISH_TYPE, SkirmishSpec(str(params["scenario"]), options), params)


class _Table:
    """The djebel game inside an OpenSpiel state. OpenSpiel clones a Python state by
    deep-copying each of its attributes, so the state keeps everything here and this
    object copies itself the djebel way (``game.clone()``, fresh dice if resampling);
    the game of a new state is built only when first needed (a clone never needs it)."""

    __slots__ = ("spec", "seed", "resample", "_game", "clone_seed", "clones", "legal")

    def __init__(self, spec, seed: int, resample: bool, game=None, clone_seed: int = 0):
        self.spec, self.seed, self.resample = spec, seed, resample
        self._game = game
        self.clone_seed = clone_seed or seed
        self.clones = 0
        self.legal: tuple = (-1, {})        # (ply, {index: action})

    @property
    def game(self):
        if self._game is None:
            self._game = self.spec.new_game(self.seed)
        return self._game

    def ply(self) -> int:
        g = self.game
        return len(g.hist) if self.spec.game == "skirmish" else len(g.state.actions)

    def legal_map(self) -> dict:
        n = self.ply()
        if self.legal[0] != n:
            self.legal = (n, self.spec.legal(self.game)[0])
        return self.legal[1]

    def __deepcopy__(self, memo):
        g = self.game.clone()
        self.clones += 1
        # the copy's own stream of seeds: from this table's seed and the copy's number
        seed = Dice(self.clone_seed * 1_000_003 + self.clones).die(1 << 62)
        if self.resample:
            # fresh dice for the copy (sampled chance), never the real game's next rolls
            (g.state.dice if self.spec.game == "algeria" else g.dice).reseed(seed)
        return _Table(self.spec, self.seed, self.resample, g, seed)


class DjebelSpielState(pyspiel.State):
    def __init__(self, game: DjebelSpielGame):
        super().__init__(game)
        self.table = _Table(game.spec, game.seed, game.resample)

    @property
    def g(self):
        """The djebel game (``AlgeriaGame`` or ``SkirmishGame``) of this state."""
        return self.table.game

    # ------------------------------------------------------------ OpenSpiel API
    def current_player(self):
        g = self.g
        if g.is_over():
            return pyspiel.PlayerId.TERMINAL
        return self.table.spec.sides.index(g.active_side)

    def _legal_actions(self, player):
        return sorted(self.table.legal_map())

    def _apply_action(self, action):
        chosen = self.table.legal_map().get(int(action))
        if chosen is None:
            raise pyspiel.SpielError(f"action {action} is not legal here")
        self.g.apply(chosen)

    def _action_to_string(self, player, action):
        chosen = self.table.legal_map().get(int(action)) if not self.g.is_over() else None
        if chosen is not None:
            return str(chosen)
        if self.table.spec.game == "algeria":
            return str(self.table.spec.index_action(self.g, action))
        return f"order {int(action)}"

    def is_terminal(self):
        return self.g.is_over()

    def returns(self):
        g = self.g
        if not g.is_over() or g.result().winner is None:
            return [0.0, 0.0]
        winner = g.result().winner
        return [1.0 if side == winner else -1.0 for side in self.table.spec.sides]

    def __str__(self):
        return self.table.spec.render(self.g)


class DjebelObserver:
    """Observation tensor (the codec's vector) and text (the board and the decision)."""

    def __init__(self, spec, params):
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.spec = spec
        self.tensor = np.zeros(spec.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = self.spec.observe(state.g, self.spec.sides[player])

    def string_from(self, state, player):
        return self.spec.render(state.g)


pyspiel.register_game(ALGERIA_TYPE, AlgeriaSpielGame)
pyspiel.register_game(SKIRMISH_TYPE, SkirmishSpielGame)
