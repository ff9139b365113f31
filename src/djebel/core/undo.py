"""Take-backs: how far ``undo`` may go back.

A side may take back its own last actions, one at a time, but never past a die roll
(the die has been seen: taking it back would let a player try another action on it)
and never past the other side's last action. Free take-backs, past both, are for
analysis games only, announced in the game log.
"""

from __future__ import annotations

ANALYSIS_HINT = "free take-backs are for analysis games"


def refusal(before, after, side: str | None) -> str | None:
    """Why ``side`` may not take back the one action that led from game ``before`` to
    game ``after``; None when it may."""
    actor = before.active_side
    if actor != side:
        return (f"the last action was {actor}'s: {side} can take back only its own "
                f"actions, and none before the other side's last one")
    if after.dice.count != before.dice.count:
        return "the last action rolled dice: undo goes back no further than the last die roll"
    return None


def take_back(snapshots: list, game, side: str, analysis: bool = False) -> tuple[object, str]:
    """'undo' at ``side``'s prompt in a terminal: the game to go on with, and what to say.

    ``snapshots`` holds the game before each human action, oldest first; the one used
    is popped. In an analysis game the bots' replies are taken back with it.
    """
    if not snapshots:
        return game, "nothing to undo"
    before = snapshots[-1]
    if analysis:
        snapshots.pop()
        return before, "undone (analysis): back to your previous decision"
    if len(game.history()) != len(before.history()) + 1:
        return game, (f"cannot undo: the other side has acted since your last action "
                      f"({ANALYSIS_HINT}: --analysis)")
    why = refusal(before, game, side)
    if why is not None:
        return game, f"cannot undo: {why} ({ANALYSIS_HINT}: --analysis)"
    snapshots.pop()
    return before, "undone: back to your previous decision"
