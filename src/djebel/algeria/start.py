"""Where a recorded game starts: the scenario's set-up, or a described position.

Kept apart from ``game`` because positions are games (``position`` builds an
``AlgeriaGame``), so the game module cannot import them without a cycle.
"""

from __future__ import annotations

from djebel.algeria.game import AlgeriaGame, new_game
from djebel.algeria.position import from_position


def game_from_header(rec: dict) -> AlgeriaGame:
    """The start of the game a record describes (before its actions)."""
    script = rec.get("dice_script") or ()
    rolls = tuple(rec.get("rolls") or ())
    if rec.get("start") is not None:
        return from_position(rec["start"], seed=rec["seed"], dice_script=script,
                             rolls=rolls, field="start.")
    return new_game(rec["scenario"], rec["seed"], rec.get("options"), script, rolls=rolls)
