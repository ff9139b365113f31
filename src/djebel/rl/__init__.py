"""Reinforcement-learning environments over djebel's games (the ``djebel[rl]`` extra).

- ``djebel.rl.algeria_v0`` / ``djebel.rl.skirmish_v0``: PettingZoo AEC environments.
- ``djebel.rl.gym_env.SingleAgentEnv``: one side as a Gymnasium environment against a
  djebel bot.
- ``djebel.rl.spiel``: both games registered with OpenSpiel as Python games.

The encodings (``algeria_codec``, ``skirmish_codec``) need only numpy; docs/rl.md
describes them field by field.
"""
