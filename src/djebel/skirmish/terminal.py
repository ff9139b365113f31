"""Play a battle in the terminal: humans type orders, bots answer."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from djebel.agents import agent_names, make_agent
from djebel.core.actions import Action
from djebel.core.errors import DjebelError
from djebel.core.records import FRESH_NOTE, NOTES, game_from_record, load_record, make_record
from djebel.core.undo import take_back
from djebel.odds.skirmish import describe as fire_odds
from djebel.skirmish import new_game, orders
from djebel.skirmish.geometry import path_length
from djebel.skirmish.render import describe, to_svg
from djebel.skirmish.rules import movement

PLAYERS = ("human", *agent_names("skirmish"))
HELP = ("orders: a number from the list, or an action such as 'move F3 45.5 60 face 90', "
        "'shoot F3 I2', 'roll F3', 'end F3', 'activate F3', 'endphase'; "
        "also 'list', 'state', 'save FILE', 'undo' (your own last order, if it rolled no "
        "dice; any order in an analysis game), 'quit'")


def play(scenario: str, french: str = "human", insurgents: str = "matrix", seed: int = 0,
         svg_path: str | None = None, input_fn: Callable[[str], str] = input,
         out=None, deploy: bool | None = None, analysis: bool = False,
         load: str = "", agent_options: dict | None = None) -> int:
    """Run a battle in the terminal; returns the exit code (0) for the command line."""
    run_game(scenario, french, insurgents, seed, svg_path, input_fn, out, deploy, analysis,
             load, agent_options)
    return 0


def run_game(scenario: str, french: str = "human", insurgents: str = "matrix", seed: int = 0,
             svg_path: str | None = None, input_fn: Callable[[str], str] = input,
             out=None, deploy: bool | None = None, analysis: bool = False, load: str = "",
             agent_options: dict | None = None):
    """Run a battle; each side is 'human' or a bot of ``agent_names("skirmish")``.
    Returns the final game. ``agent_options`` go to every bot (the searching
    commander's budget: ``iterations``, ``width``, ``seconds``).

    ``load`` continues the battle of a record file instead of starting ``scenario``.

    With ``deploy`` (by default: whenever a human plays) the battle opens with the
    set-up step, where each side may move its elements within their zones. ``undo``
    goes back no further than the last die roll or the other side's last order, except
    in an ``analysis`` game (announced in the log)."""
    out = out or sys.stdout
    for who in (french, insurgents):
        if who not in PLAYERS:
            raise DjebelError(f"unknown player {who!r} (choose from {', '.join(PLAYERS)})")
    if deploy is None:
        deploy = "human" in (french, insurgents)
    if load:
        rec = load_record(load)
        if rec["game"] != "skirmish":
            raise DjebelError(f"{load}: field 'game' is {rec['game']!r}, not a skirmish")
        game = game_from_record(rec, load)
        if "seed" not in rec:
            print(f"{load}: {FRESH_NOTE}", file=out)
    elif not scenario:
        raise DjebelError("give a scenario id, or --load FILE to continue a record")
    else:
        game = new_game(scenario, seed, {"deploy": True} if deploy else {})
    if analysis:
        game.log.add("", NOTES["analysis"])
    snapshots: list = []          # the game before each human order, for 'undo'
    bots = {}
    for side, who, salt in (("french", french, 11), ("insurgents", insurgents, 29)):
        if who != "human":
            bots[side] = make_agent(who, "skirmish", side, seed * 1000 + salt,
                                    **(agent_options or {}))
    shown = 0

    def emit(text: str) -> None:
        print(text, file=out)

    def draw() -> None:
        if svg_path:
            Path(svg_path).write_text(to_svg(game))

    emit(describe(game))
    draw()
    while not game.is_over():
        for entry in game.log.entries()[shown:]:
            emit(f"  {entry}")
        shown = len(game.log)
        side = game.active_side
        if side in bots:
            action = bots[side].choose(game)
            emit(f"{side}> {action}")
            game.apply(action)
            draw()
            continue
        actions = game.legal_actions()
        emit(game.prompt())
        for i, a in enumerate(actions, 1):
            note = move_note(game, a)
            emit(f"  {i:3d}. {a}" + (f"   ({note})" if note else ""))
        try:
            line = input_fn(f"{side}> ").strip()
        except EOFError:
            emit("end of input: stopping")
            return game
        if not line:
            continue
        if line in ("quit", "exit"):
            return game
        if line in ("help", "?"):
            emit(HELP)
            continue
        if line == "state":
            emit(describe(game))
            continue
        if line == "list":
            continue
        if line == "undo":
            back, message = take_back(snapshots, game, side, analysis)
            emit(message)
            if back is not game:
                game = back
                shown = len(game.log)
                draw()
            continue
        if line.startswith("save "):
            path = line[5:].strip()
            try:
                Path(path).write_text(json.dumps(make_record(game), indent=1) + "\n")
            except OSError as exc:
                emit(f"error: cannot save to {path}: {exc.strerror}")
                continue
            emit(f"saved {path}")
            continue
        if line.isdigit():
            n = int(line)
            if not 1 <= n <= len(actions):
                emit(f"error: choose 1..{len(actions)}")
                continue
            line = str(actions[n - 1])
        if not _confirm(game, line, input_fn, emit):
            continue
        before = game.clone()
        try:
            game.apply(line)
        except DjebelError as exc:
            emit(f"error: {exc}")
            continue
        snapshots = (snapshots + [before])[-100:]
        draw()
    for entry in game.log.entries()[shown:]:
        emit(f"  {entry}")
    emit(game.prompt())
    emit(describe(game))
    return game


def move_note(game, action: Action) -> str:
    """For a ground or air move: the distance its path covers once the move rules have
    stopped it (D19, D62) and which unpinned enemies would see where it ends (R147)."""
    if action.verb not in ("move", "sprint") or not action.args:
        return ""
    moves = 2 if action.verb == "sprint" else 1
    try:
        e = game.el(action.args[0])
        if e.off_table and not e.t.is_aircraft:     # D70: measured from its entry edge
            plan, _ = movement.plan_entry(game, e, *orders.parse_path(action), moves)
        else:
            plan = orders.plan_move(game, e, action, moves)
    except DjebelError:
        return ""
    there = e.copy()
    there.off_table = False
    there.x, there.y, there.facing = plan.path[-1][0], plan.path[-1][1], plan.face
    if e.t.is_aircraft:
        there.airborne = True
    seen = [o.label for o in game.elements
            if o.side != e.side and o.on_table and not o.pinned and game.sees(o, there)]
    stop = f", stops: {plan.stopped_by}" if plan.stopped_by else ""
    view = f"seen by {' '.join(seen)}" if seen else "unseen by unpinned enemies"
    if e.off_table and e.t.is_aircraft:           # R129: any point, straight from off the table
        return f"arrives from off the table{stop}; {view}"
    return f"{path_length(plan.path):.1f} cm{stop}; {view}"


def _confirm(game, line: str, input_fn: Callable[[str], str], emit) -> bool:
    """Show the exact odds of a fire order (``djebel odds skirmish fire``) and ask to go
    ahead; any other order, or one that is not legal, goes straight to ``apply``."""
    try:
        text = fire_odds(game, line)
        if text:
            game.validate(line)          # on a clone: an illegal order shows no odds
    except (DjebelError, ValueError):
        return True
    if not text:
        return True
    emit(f"odds: {text}")
    try:
        answer = input_fn("carry it out? [Y/n] ").strip().lower()
    except EOFError:
        return False
    return answer in ("", "y", "yes")
