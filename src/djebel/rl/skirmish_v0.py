"""PettingZoo AEC environment ``skirmish_v0``: Insurgent Commander, French against
insurgents.

``env(scenario="ambush", options=None, shaped=False, shaping=1.0, max_steps=0,
render_mode=None)``; ``options`` are the game's (``turn_limit`` shortens a battle).
Encodings: docs/rl.md and ``djebel.rl.skirmish_codec``.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from djebel.rl.aec import DjebelAEC
from djebel.rl.specs import SkirmishSpec


def raw_env(scenario: str = "ambush", options: dict | None = None, render_mode=None,
            **kwargs) -> DjebelAEC:
    return DjebelAEC(SkirmishSpec(str(scenario), dict(options or {})), render_mode, **kwargs)


def env(**kwargs):
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
