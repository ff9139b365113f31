"""The games djebel knows, by name: the one place generic code looks them up."""

from __future__ import annotations

import importlib

from djebel.core.errors import RecordError, ScenarioError

GAMES = {"algeria": "djebel.algeria", "skirmish": "djebel.skirmish"}


def game_module(name: str, where: str = ""):
    """The module of game ``name``; it offers ``new_game`` and ``game_from_header``."""
    if name not in GAMES:
        known = ", ".join(GAMES)
        msg = f"unknown game {name!r} (known: {known})"
        if where:
            raise RecordError(f"{where}: field 'game': {msg}")
        raise ScenarioError(msg)
    return importlib.import_module(GAMES[name])
