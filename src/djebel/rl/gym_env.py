"""One side of a djebel game as a Gymnasium environment, the other played by a bot.

``SingleAgentEnv("algeria", side="fln", opponent="heuristic")``: any agent name of
``djebel.agents`` for that game (``random``, ``heuristic``, ``search`` for Algeria;
``random``, ``matrix``, ``heuristic`` for the skirmish). Observations, actions and
rewards are those of the PettingZoo environment (``djebel.rl.aec``), seen by ``side``;
the reward of a step sums what ``side`` earned over its action and the bot's replies.

An index the action mask rules out ends the episode as a loss (reward -1,
``info["illegal"]``), the way PettingZoo's TerminateIllegalWrapper does, and leaves the
game unchanged: agents that sample from the mask never see it.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from djebel.agents import agent_names, make_agent
from djebel.core.errors import ScenarioError
from djebel.rl.aec import DjebelAEC
from djebel.rl.specs import make_spec


class SingleAgentEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game: str = "algeria", side: str | None = None,
                 opponent: str = "random", render_mode: str | None = None,
                 shaped: bool = False, shaping: float = 1.0, max_steps: int = 0,
                 opponent_options: dict | None = None, **game_kwargs):
        self.aec = DjebelAEC(make_spec(game, **game_kwargs), None, shaped, shaping, max_steps)
        sides = self.aec.possible_agents
        self.side = side or sides[0]
        if self.side not in sides:
            raise ScenarioError(f"unknown side {self.side!r} for {game} (sides: "
                                f"{', '.join(sides)})")
        self.game_name = game
        self.set_opponent(opponent)
        self.opponent_options = dict(opponent_options or {})
        self.other = sides[1 - sides.index(self.side)]
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.side)
        self.action_space = self.aec.action_space(self.side)
        self.opponent = None

    def set_opponent(self, opponent: str) -> None:
        """The bot of the other side from the next episode on (a curriculum changes it
        between episodes): any agent name of ``djebel.agents`` for the game."""
        if opponent not in agent_names(self.game_name):
            raise ScenarioError(f"unknown agent {opponent!r} for {self.game_name} (known: "
                                f"{', '.join(agent_names(self.game_name))})")
        self.opponent_name = opponent

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.aec.reset(options={"game_seed": game_seed, **(options or {})})
        # the bot's own generator, from the same seed: same seed, same episode
        self.opponent = make_agent(self.opponent_name, self.game_name, self.other,
                                   game_seed % (2**31), **self.opponent_options)
        self.aec._cumulative_rewards[self.side] = 0.0
        self._play_opponent()
        return self._obs(), self._info()

    def _play_opponent(self) -> None:
        aec = self.aec
        while not aec.game.is_over() and aec.agent_selection == self.other and not (
                aec.truncations[self.other]):
            aec.apply_action(self.opponent.choose(aec.game))

    def _obs(self) -> dict:
        obs = self.aec.observe(self.side)      # the environment's cache: hand out copies
        return {"observation": obs["observation"].copy(),
                "action_mask": obs["action_mask"].copy()}

    def _info(self, **more) -> dict:
        return {**self.aec.infos[self.side], **more}

    def step(self, action):
        aec = self.aec
        index = int(action)
        if index not in aec._legal:
            return self._obs(), -1.0, True, False, self._info(illegal=True)
        aec._cumulative_rewards[self.side] = 0.0
        aec.apply_action(aec._legal[index])
        self._play_opponent()
        reward = float(aec._cumulative_rewards[self.side])
        aec._cumulative_rewards[self.side] = 0.0
        terminated = bool(aec.terminations[self.side])
        truncated = bool(aec.truncations[self.side]) and not terminated
        return self._obs(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The mask of the legal actions (the name sb3-contrib's MaskablePPO calls)."""
        return self.aec.observe(self.side)["action_mask"].astype(bool)

    def render(self):
        text = self.aec.spec_.render(self.aec.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text
