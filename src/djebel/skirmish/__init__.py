"""Insurgent Commander: tactical Legion-versus-insurgent battles on a 4 ft x 4 ft table.

``new_game("ambush")`` starts a battle; the game object implements the shared
protocol of :mod:`djebel.core.protocol`. Scenarios, the element catalog, the
core tables and the terrain library are TOML files under ``data/``.
"""

from __future__ import annotations

from djebel.skirmish.game import SkirmishGame
from djebel.skirmish.scenario import list_scenarios, shipped_or_embedded


def new_game(scenario: str | dict, seed: int = 0, options: dict | None = None,
             dice_script: tuple = (), rolls: tuple = ()) -> SkirmishGame:
    """A new battle on a shipped scenario id, a scenario table or a scenario file path;
    ``rolls`` are faces already drawn (a record without its seed), drawn before the script."""
    return SkirmishGame(scenario, seed, options, tuple(dice_script), tuple(rolls))


def game_from_header(rec: dict) -> SkirmishGame:
    """The start of the game a record describes (its actions are replayed by the caller).
    The record names a shipped scenario or embeds one: a record never opens a file."""
    return new_game(shipped_or_embedded(rec["scenario"]), rec.get("seed", 0),
                    rec.get("options") or {}, tuple(rec.get("dice_script") or ()),
                    tuple(rec.get("rolls") or ()))


__all__ = ["SkirmishGame", "new_game", "game_from_header", "list_scenarios"]
