"""Move audit: how many ordered ground moves of bot battles go nowhere.

An ordered ground move is a ``move`` or ``sprint`` (an order or a reaction) of a ground
element whose destination is at least 0.5 cm from where it stands; a pivot in place
(destination = position, D19.3) is not one. It goes nowhere when the move rules
(``orders.plan_move``) leave it less than 0.5 cm of path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from djebel.core.actions import Action
from djebel.skirmish import new_game, orders
from djebel.skirmish.bots.french import FrenchBot
from djebel.skirmish.bots.matrix import HeuristicBot, MatrixBot, RandomBot
from djebel.skirmish.geometry import path_length
from djebel.skirmish.scenario import list_scenarios

MIN_MOVE_CM = 0.5        # D19: the path check step; a shorter move went nowhere


@dataclass
class MoveAudit:
    battles: int = 0
    ordered: int = 0
    nowhere: int = 0
    examples: list[str] = field(default_factory=list)


def ordered_move(game, a: Action) -> tuple[float, float] | None:
    """(destination distance, planned path length) of a ground move order, else None."""
    if a.verb not in ("move", "sprint") or not a.args:
        return None
    i = game.labels.get(str(a.args[0]))
    if i is None:
        return None
    e = game.elements[i]
    if not e.ground or e.t.is_aircraft or not e.on_table:
        return None
    pts, _face = orders.parse_path(a)
    if math.hypot(pts[-1][0] - e.x, pts[-1][1] - e.y) < MIN_MOVE_CM:
        return None
    plan = orders.plan_move(game, e, a, 2 if a.verb == "sprint" else 1)
    return math.hypot(pts[-1][0] - e.x, pts[-1][1] - e.y), path_length(plan.path)


def bots_for(kind: str, seed: int) -> tuple:
    """The French and Insurgent bots of one audit battle."""
    if kind == "random":
        return RandomBot(seed), RandomBot(seed + 1)
    if kind == "heuristic":
        return FrenchBot(seed), HeuristicBot(seed + 1)
    return MatrixBot(seed, log=False), MatrixBot(seed + 7, log=False)


def audit(battles: int, seed: int = 0, max_steps: int = 20_000) -> MoveAudit:
    """Play ``battles`` bot battles (every scenario, matrix, heuristic and random bots in
    turn) and count the ordered ground moves and those that go nowhere."""
    out = MoveAudit()
    scenarios = list_scenarios()
    kinds = ("matrix", "heuristic", "random")
    for b in range(battles):
        scn = scenarios[b % len(scenarios)]
        kind = kinds[(b // len(scenarios)) % len(kinds)]
        game = new_game(scn, seed + b, {"log": False})
        french, insurgents = bots_for(kind, seed + b)
        steps = 0
        while not game.is_over() and steps < max_steps:
            bot = french if game.active_side == "french" else insurgents
            a = bot.choose(game)
            m = ordered_move(game, a)
            if m is not None:
                out.ordered += 1
                if m[1] < MIN_MOVE_CM:
                    out.nowhere += 1
                    if len(out.examples) < 20:
                        out.examples.append(f"{scn} seed {seed + b} turn {game.turn}: {a} "
                                            f"({m[0]:.2f} cm asked, {m[1]:.2f} cm moved)")
            game.apply(a)
            steps += 1
        out.battles += 1
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m djebel.skirmish.bots.audit [BATTLES [SEED]]``: print the figures."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    battles = int(args[0]) if args else 60
    seed = int(args[1]) if len(args) > 1 else 0
    r = audit(battles, seed)
    share = r.nowhere / r.ordered if r.ordered else 0.0
    print(f"{r.battles} battles, {r.ordered} ordered ground moves, {r.nowhere} went nowhere "
          f"({share:.1%})")
    for line in r.examples:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
