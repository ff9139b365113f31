"""The game protocol both games implement.

Everything generic (terminal, bots, simulation, web app, records) drives a
game only through this surface, so it never needs to know which game it is.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from djebel.core.actions import Action
from djebel.core.log import Log


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    winner: str | None            # a side name, or None for a draw
    level: str                    # e.g. "decisive" (Algeria 12.2) or "victory points"
    scores: dict[str, int] = field(default_factory=dict)   # final PSLs, points...
    reason: str = ""

    def to_json(self) -> dict:
        return {"winner": self.winner, "level": self.level, "scores": dict(self.scores),
                "reason": self.reason}


@runtime_checkable
class Game(Protocol):
    """What every game offers (see design notes in the README)."""

    name: str
    sides: tuple[str, ...]
    log: Log

    @property
    def active_side(self) -> str | None: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action | str) -> None: ...

    def clone(self) -> Game: ...

    def is_over(self) -> bool: ...

    def result(self) -> Result | None: ...

    def to_json(self) -> dict: ...

    def prompt(self) -> str: ...

    def history(self) -> list[str]: ...

    def record_header(self) -> dict[str, Any]: ...


def state_hash(state: dict) -> str:
    """A short, stable hash of a game's JSON state (the log excluded by the caller)."""
    blob = json.dumps(state, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:32]
