"""PettingZoo AEC environments over djebel's games (``algeria_v0``, ``skirmish_v0``).

The agents are the game's sides; the agent to act is the side the rules ask. Each
observation is ``{"observation": float32 vector, "action_mask": int8 vector}``; the
decision's text is in ``infos[agent]["decision"]``. Rewards are +1 / -1 (0 for a draw)
when the game ends; with ``shaped=True`` every step also pays each agent the change of
its shaping potential (``spec.potential``) times ``shaping``, which sums to the same
total plus a potential difference (potential-based shaping, Ng et al. 1999).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from djebel.core.errors import IllegalAction


class DjebelAEC(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, spec, render_mode: str | None = None, shaped: bool = False,
                 shaping: float = 1.0, max_steps: int = 0):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.spec_ = spec
        self.metadata = {**self.metadata, "name": spec.name}
        self.render_mode = render_mode
        self.shaped, self.shaping, self.max_steps = shaped, float(shaping), int(max_steps)
        self.possible_agents = list(spec.sides)
        obs_space = spaces.Dict({
            "observation": spaces.Box(-spec.obs_bound, spec.obs_bound, (spec.obs_size,),
                                      np.float32),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space if i == 0 else _copy_space(obs_space)
                                   for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(spec.num_actions)
                              for a in self.possible_agents}
        self.game = None
        self._seed_rng = np.random.default_rng()

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; ``seed`` fixes its dice (the same seed and actions, the same
        game). ``options={"game_seed": N}`` starts the game of seed N directly."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = (options or {}).get("game_seed")
        if game_seed is None:
            game_seed = int(self._seed_rng.integers(0, 2**62))
        self.game = self.spec_.new_game(int(game_seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.num_steps = 0
        self._potential = self._potentials()
        self._refresh()

    def _potentials(self) -> dict[str, float]:
        if not self.shaped:
            return {}
        return {a: self.spec_.potential(self.game, a) for a in self.possible_agents}

    def _refresh(self) -> None:
        """The legal actions and the agent to act after a change of the game."""
        game = self.game
        self._obs_cache: dict = {}
        if game.is_over():
            self._legal = {}
            self._mask = np.zeros(self.spec_.num_actions, dtype=np.int8)
            to_move = None
        else:
            self._legal, self._mask = self.spec_.legal(game)
            self.agent_selection = to_move = game.active_side
        text = game.prompt()          # at the end: "game over: ..." and the result
        for a in self.agents:
            self.infos[a] = {"decision": text, "to_move": to_move}

    def observe(self, agent: str) -> dict:
        hit = self._obs_cache.get(agent)
        if hit is None:
            mask = self._mask if agent == self.agent_selection else np.zeros_like(self._mask)
            hit = {"observation": self.spec_.observe(self.game, agent), "action_mask": mask}
            self._obs_cache[agent] = hit
        return hit

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction("rl", f"{agent} is to act: None is only for a finished agent")
        chosen = self._legal.get(int(action))
        if chosen is None:
            raise IllegalAction("rl", f"action {int(action)} is not legal now (mask it out)")
        self.apply_action(chosen)

    def apply_action(self, chosen) -> None:
        """Play a djebel action (an ``Action`` or its notation) for the agent to act; the
        game checks it. Bots that compute their own orders play through this."""
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(chosen)
        self.num_steps += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.shaped:
            now = self._potentials()
            for a in self.agents:
                self.rewards[a] = self.shaping * (now[a] - self._potential[a])
            self._potential = now
        if self.game.is_over():
            winner = self.game.result().winner
            for a in self.agents:
                self.rewards[a] += 0.0 if winner is None else 1.0 if a == winner else -1.0
                self.terminations[a] = True
        elif self.max_steps and self.num_steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self._refresh()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def action_text(self, index: int) -> str:
        """The notation of the action at ``index`` now (djebel's notation)."""
        return str(self.spec_.index_action(self.game, index))

    def render(self) -> str | None:
        if self.game is None:
            return None
        text = self.spec_.render(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    return spaces.Dict({k: spaces.Box(v.low, v.high, v.shape, v.dtype)
                        for k, v in space.spaces.items()})
