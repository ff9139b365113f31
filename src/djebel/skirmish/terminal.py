"""Play a battle in the terminal: humans type orders, bots answer."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from djebel.core.errors import DjebelError
from djebel.core.records import make_record
from djebel.skirmish import new_game
from djebel.skirmish.bots import MatrixBot, RandomBot
from djebel.skirmish.render import describe, to_svg

PLAYERS = ("human", "random", "matrix")
HELP = ("orders: a number from the list, or an action such as 'move F3 45.5 60 face 90', "
        "'shoot F3 I2', 'roll F3', 'end F3', 'activate F3', 'endphase'; "
        "also 'list', 'state', 'save FILE', 'quit'")


def play(scenario: str, french: str = "human", insurgents: str = "matrix", seed: int = 0,
         svg_path: str | None = None, input_fn: Callable[[str], str] = input,
         out=None, deploy: bool | None = None) -> int:
    """Run a battle in the terminal; returns the exit code (0) for the command line."""
    run_game(scenario, french, insurgents, seed, svg_path, input_fn, out, deploy)
    return 0


def run_game(scenario: str, french: str = "human", insurgents: str = "matrix", seed: int = 0,
             svg_path: str | None = None, input_fn: Callable[[str], str] = input,
             out=None, deploy: bool | None = None):
    """Run a battle; each side is 'human', 'random' or 'matrix'. Returns the final game.

    With ``deploy`` (by default: whenever a human plays) the battle opens with the
    set-up step, where each side may move its elements within their zones."""
    out = out or sys.stdout
    for who in (french, insurgents):
        if who not in PLAYERS:
            raise DjebelError(f"unknown player {who!r} (choose from {', '.join(PLAYERS)})")
    if deploy is None:
        deploy = "human" in (french, insurgents)
    game = new_game(scenario, seed, {"deploy": True} if deploy else {})
    bots = {}
    for side, who, salt in (("french", french, 11), ("insurgents", insurgents, 29)):
        if who == "random":
            bots[side] = RandomBot(seed * 1000 + salt)
        elif who == "matrix":
            bots[side] = MatrixBot(seed * 1000 + salt)
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
            emit(f"  {i:3d}. {a}")
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
        try:
            game.apply(line)
        except DjebelError as exc:
            emit(f"error: {exc}")
            continue
        draw()
    for entry in game.log.entries()[shown:]:
        emit(f"  {entry}")
    emit(game.prompt())
    emit(describe(game))
    return game
