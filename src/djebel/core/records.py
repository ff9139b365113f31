"""Game records: the unit of persistence (files, database, fixtures, bug reports).

A record is JSON: engine version, game, scenario, options, seed, optional
scripted dice and start position, the actions in notation, and a hash of the
final state. Replaying a record rebuilds the game exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from djebel import __version__
from djebel.core.errors import DjebelError, RecordError

RECORD_FORMAT = 1
REQUIRED = ("format", "engine", "game", "scenario", "seed", "actions")
# Optional fields and the JSON types they take (null means "not given").
FIELD_TYPES = (
    ("game", str, "a game name"), ("scenario", str, "a scenario id"),
    ("options", (dict, type(None)), "an object of options"),
    ("dice_script", (list, type(None)), "a list of die faces"),
    ("start", (dict, type(None)), "a position (an object)"),
    ("final_hash", (str, type(None)), "a hash string"),
)


def make_record(game) -> dict[str, Any]:
    """The record of ``game`` as it stands now."""
    rec = {"format": RECORD_FORMAT, "engine": __version__}
    rec.update(game.record_header())
    rec["actions"] = game.history()
    rec["final_hash"] = game.state_hash()
    return rec


def save_record(game, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(json.dumps(make_record(game), indent=1) + "\n")
    return path


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and check a record file; every problem names the file and field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a record (not UTF-8 text)") from None
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise RecordError(f"{path}: not a record (JSON nested too deeply)") from None
    except ValueError:
        raise RecordError(f"{path}: not a record (a number with too many digits)") from None
    return check_record(rec, str(path))


def check_record(rec: Any, where: str = "record") -> dict[str, Any]:
    if not isinstance(rec, dict):
        raise RecordError(f"{where}: a record is a JSON object")
    for key in REQUIRED:
        if key not in rec:
            raise RecordError(f"{where}: field '{key}' is missing")
    if rec["format"] != RECORD_FORMAT:
        raise RecordError(f"{where}: field 'format' is {rec['format']!r}, "
                          f"this engine reads format {RECORD_FORMAT}")
    if rec["engine"] != __version__:
        raise RecordError(f"{where}: field 'engine' is {rec['engine']!r}, this is djebel "
                          f"{__version__}; replay it with that version")
    if not isinstance(rec["actions"], list) or not all(isinstance(a, str)
                                                      for a in rec["actions"]):
        raise RecordError(f"{where}: field 'actions' must be a list of action strings")
    if not isinstance(rec["seed"], int) or isinstance(rec["seed"], bool):
        raise RecordError(f"{where}: field 'seed' must be an integer")
    for key, kinds, what in FIELD_TYPES:
        if key in rec and not isinstance(rec[key], kinds):
            raise RecordError(f"{where}: field '{key}' must be {what}, not {rec[key]!r}")
    return rec


def check_final_hash(rec: dict[str, Any], game, where: str = "record"):
    """Refuse a record whose game (rebuilt from it) does not end in its ``final_hash``.

    For every door a record comes in by (``replay --verify``, ``play --load``, the web
    upload): a record edited by hand, or made by another engine, is caught here.
    """
    want = rec.get("final_hash")
    if want is None:
        raise RecordError(f"{where}: field 'final_hash' is missing, nothing to verify")
    got = game.state_hash()
    if got != want:
        raise RecordError(f"{where}: field 'final_hash': replay ends in state {got}, "
                          f"the record says {want!r}")
    return game


def game_from_record(rec: dict[str, Any], where: str = "record", upto: int | None = None):
    """Rebuild the game a record describes, replaying its actions (all, or the first ``upto``)."""
    from djebel.games import game_module

    module = game_module(rec["game"], where)
    try:
        game = module.game_from_header(rec)
    except DjebelError as exc:
        raise RecordError(f"{where}: {exc}") from None
    actions = rec["actions"] if upto is None else rec["actions"][:upto]
    for i, text in enumerate(actions):
        try:
            game.apply(text)
        except DjebelError as exc:
            raise RecordError(f"{where}: field 'actions[{i}]' ({text!r}): {exc}") from None
    return game


def verify_record(rec: dict[str, Any], where: str = "record"):
    """Replay and compare with the stored final hash; returns the game."""
    return check_final_hash(rec, game_from_record(rec, where), where)
