"""PettingZoo AEC environment ``algeria_v0``: Algeria, FLN against the Government.

``env(scenario="1958", options=None, shaped=False, shaping=1.0, max_steps=0,
render_mode=None)``; ``raw_env`` is the same without PettingZoo's order-enforcing
wrapper (a little faster). Encodings: docs/rl.md and ``djebel.rl.algeria_codec``.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from djebel.rl.aec import DjebelAEC
from djebel.rl.specs import AlgeriaSpec


def raw_env(scenario: str = "1958", options: dict | None = None, render_mode=None,
            **kwargs) -> DjebelAEC:
    return DjebelAEC(AlgeriaSpec(str(scenario), dict(options or {})), render_mode, **kwargs)


def env(**kwargs):
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
