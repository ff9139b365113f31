"""Where the skirmish's numbered candidate orders come from: the one place djebel.rl
depends on how the skirmish lists its candidates (``djebel.skirmish.bots.candidates``, through
the game's ``legal_actions``), so a move of that module changes only this file."""

from __future__ import annotations

from djebel.core.actions import Action
from djebel.skirmish.game import SkirmishGame


def candidate_orders(game: SkirmishGame) -> list[Action]:
    """The candidate orders of the pending decision, in the game's order (cached by the
    game until the next action)."""
    return game.legal_actions()
