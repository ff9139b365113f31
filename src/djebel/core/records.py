"""Game records: the unit of persistence (files, database, fixtures, bug reports).

A record is JSON: engine version, game, scenario, options, the dice, optional start
position, the actions in notation, and a hash of the final state. Replaying a record
rebuilds the game exactly.

The dice come in one of two forms. A full record carries the ``seed`` (and any
scripted ``dice_script``), so it replays the whole game and shows where every die
came from; it is what a finished game gives. A record taken while the game runs
carries ``rolls`` instead, the faces drawn so far: it replays to the present and says
nothing of the future. Continuing it draws fresh dice from a new secret seed, and
the game log says so.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from djebel import __version__
from djebel.core.dice import secret_seed
from djebel.core.errors import DjebelError, RecordError, brief

RECORD_FORMAT = 1
REQUIRED = ("format", "engine", "game", "scenario", "actions")
# Header fields that tell what the dice will do: never shown while the game runs.
SECRET = ("seed", "dice_script", "rolls")
FRESH_NOTE = ("the dice so far are the record's rolls; from here on they are fresh "
              "(a new secret seed)")
NOTES = {
    "analysis": "analysis game: free take-backs (undo goes past die rolls and the other "
                "side's actions)",
    "chosen_seed": "the dice follow a seed chosen when the game was created: whoever "
                   "knows it can foresee them",
}
# Optional fields and the JSON types they take (null means "not given").
FIELD_TYPES = (
    ("game", str, "a game name"),
    ("scenario", (str, dict), "a scenario id (or, for the skirmish, a scenario table)"),
    ("options", (dict, type(None)), "an object of options"),
    ("dice_script", (list, type(None)), "a list of die faces"),
    ("start", (dict, type(None)), "a position (an object)"),
    ("final_hash", (str, type(None)), "a hash string"),
)


def make_record(game, header: dict[str, Any] | None = None, *,
                full: bool | None = None) -> dict[str, Any]:
    """The record of ``game`` as it stands now: with its seed once the game is over
    (or with ``full``), with the faces rolled so far instead while it runs.

    ``header`` is the stored header of the game (the web app's), else the game's own.
    """
    rec = {"format": RECORD_FORMAT, "engine": __version__}
    rec.update(game.record_header() if header is None else header)
    rec["format"], rec["engine"] = RECORD_FORMAT, __version__
    if not (game.is_over() if full is None else full):
        for key in SECRET + ("fresh_dice_at",):
            rec.pop(key, None)
        rolls = game.dice.rolled()
        if len(rolls) != game.dice.count:
            raise RecordError(f"the faces of {game.dice.count - len(rolls)} dice drawn "
                              "are not known: only a full record can be made")
        rec["rolls"] = rolls
    rec["actions"] = game.history()
    rec["final_hash"] = game.state_hash()
    return rec


def public_header(header: dict[str, Any], over: bool) -> dict[str, Any]:
    """What a player may see of a stored header: all of it once the game is over, and
    nothing that tells what the dice will do before."""
    if over:
        return dict(header)
    return {k: v for k, v in header.items() if k not in SECRET}


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


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
    if "seed" not in rec and "rolls" not in rec:
        raise RecordError(f"{where}: field 'seed' is missing (or 'rolls', the faces "
                          "rolled so far, for a game in progress)")
    if "seed" in rec and not _int(rec["seed"]):
        raise RecordError(f"{where}: field 'seed' must be an integer")
    rolls = rec.get("rolls", [])
    if not isinstance(rolls, list):
        raise RecordError(f"{where}: field 'rolls' must be a list of die faces")
    for i, face in enumerate(rolls):
        if not _int(face) or face < 1:
            raise RecordError(f"{where}: field 'rolls[{i}]' must be a die face (1 or more), "
                              f"not {face!r}")
    at = rec.get("fresh_dice_at")
    if at is not None and not (_int(at) and 0 <= at <= len(rec["actions"])):
        raise RecordError(f"{where}: field 'fresh_dice_at' must be an action count "
                          f"0..{len(rec['actions'])}")
    for key in NOTES:
        if not isinstance(rec.get(key, False), bool):
            raise RecordError(f"{where}: field '{key}' must be true or false")
    for key, kinds, what in FIELD_TYPES:
        if key in rec and not isinstance(rec[key], kinds):
            raise RecordError(f"{where}: field '{key}' must be {what}, not {rec[key]!r}")
    return rec


def announce(game, rec: dict[str, Any], ply: int) -> None:
    """Log what the header says about the dice and take-backs from action ``ply`` on
    (the game options at 0, fresh dice where a record without its seed was continued)."""
    if ply == 0:
        for key, text in NOTES.items():
            if rec.get(key):
                game.log.add("", text)
    if rec.get("fresh_dice_at") == ply:
        game.log.add("", FRESH_NOTE)


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
                          f"the record says {brief(want)}")
    return game



class ReplayTooLong(RecordError):
    """Replaying a record took longer than its caller allows."""


def game_from_record(rec: dict[str, Any], where: str = "record", upto: int | None = None,
                     deadline: float | None = None):
    """Rebuild the game a record describes, replaying its actions (all, or the first
    ``upto``); past ``deadline`` (``time.monotonic()``) it stops with ReplayTooLong.

    A record without a seed (the ``rolls`` of a game in progress) must use up exactly
    its rolls; the dice then continue from a new secret seed, kept in the game's header.
    """
    from djebel.games import game_module

    module = game_module(rec["game"], where)
    if "seed" not in rec:
        rec = dict(rec, seed=secret_seed(), fresh_dice_at=len(rec["actions"]))
        rec.pop("dice_script", None)
    try:
        game = module.game_from_header(rec)
    except (DjebelError, ValueError) as exc:    # ValueError: a scripted face no die has
        raise RecordError(f"{where}: {exc}") from None
    actions = rec["actions"] if upto is None else rec["actions"][:upto]
    announce(game, rec, 0)
    for i, text in enumerate(actions):
        if deadline is not None and time.monotonic() > deadline:
            raise ReplayTooLong(f"{where}: replaying stopped at action {i} of {len(actions)}, "
                                f"out of time")
        try:
            game.apply(text)
        except (DjebelError, ValueError) as exc:
            raise RecordError(f"{where}: field 'actions[{i}]' ({text!r}): {exc}") from None
        announce(game, rec, i + 1)
    if upto is None:
        _check_rolls_used(game, rec, where)
    return game


def _check_rolls_used(game, rec: dict[str, Any], where: str) -> None:
    """The actions of a record drew exactly the faces it carries before fresh dice."""
    if rec.get("fresh_dice_at") != len(rec["actions"]):
        return
    known = len(rec.get("rolls", ()))
    drawn = game.dice.count
    if drawn != known:
        raise RecordError(f"{where}: field 'rolls' holds {known} faces but the actions "
                          f"draw {drawn} dice")


def verify_record(rec: dict[str, Any], where: str = "record"):
    """Replay and compare with the stored final hash; returns the game."""
    return check_final_hash(rec, game_from_record(rec, where), where)
