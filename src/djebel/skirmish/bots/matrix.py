"""Bots: the solo decision matrix (spec 1.16, D71/D72) and a random player.

The bots never draw from the game's dice: a bot's die would change the state
without an action in the record, and replays would diverge. Each bot owns a
seeded ``Dice`` instead, so a bot with the same seed makes the same choices.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from djebel.core.actions import Action
from djebel.core.dice import Dice
from djebel.skirmish.bots.candidates import Menu, objectives
from djebel.skirmish.geometry import centre_distance
from djebel.skirmish.rules.activation import cr_target
from djebel.skirmish.rules.aircraft import passengers

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

COURSES = ("most_dangerous", "most_likely", "goofiest")


class RandomBot:
    """Uniformly random legal actions from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: SkirmishGame) -> Action:
        return self.rng.choice(game.legal_actions())


def _band(roll: int, bands: list[dict]) -> str:
    for b in bands:
        if b["min"] <= roll <= b["max"]:
            return b["course"]
    return "most_likely"


class MatrixBot:
    """The designer's decision matrix: three courses fixed before a d10 picks one.

    For each activation of one of its elements the bot writes down the most
    dangerous, most likely and goofiest course of action (D72), logs all three,
    rolls its own d10 (bands 1-3 / 4-9 / 10, D71) and follows the course drawn
    for the whole activation; if the course becomes impossible it falls back to
    its most-likely logic. Reactions, overwatch and charge fire follow simple
    "shoot the trigger if you can" logic.
    """

    def __init__(self, seed: int = 0, log: bool = True, dice_script: tuple = ()) -> None:
        self.dice = Dice(seed, tuple(dice_script))
        self.plans: dict[tuple, tuple[str, int]] = {}
        self.log = log

    # ------------------------------------------------------------ entry point
    def choose(self, game: SkirmishGame) -> Action:
        acts = game.menu()
        fr = game.frames[-1]
        k = fr["k"]
        if k == "main":
            return self._main(game, acts)
        if k == "act":
            return self._act(game, fr, acts)
        if k in ("react", "charge"):
            return (_find(acts, "shoot") or _find(acts, "turnshoot") or _find(acts, "pass")
                    or acts.last())
        if k == "ow":
            return _find(acts, "owfire") or acts.last()
        if k == "deploy":
            return acts.last()                             # keep the scenario's set-up
        return acts.last()

    # ------------------------------------------------------------ phase level
    def _main(self, game: SkirmishGame, acts: Menu) -> Action:
        """Activate elements that can see an enemy first, then the rest, then end."""
        cands = acts.of("activate")
        if not cands:
            return acts.last()
        best = None
        for a in cands:
            e = game.el(a.args[0])
            score = 0 if e.pinned else 2
            if e.on_table and any(o.side != e.side and o.on_table and game.sees(e, o)
                                  for o in game.elements):
                score += 1
            if best is None or score > best[0]:
                best = (score, a)
        return best[1]

    # ------------------------------------------------------------ activation
    def _act(self, game: SkirmishGame, fr: dict, acts: Menu) -> Action:
        e = game.elements[fr["e"]]
        key = (game.turn, game.phase_no, e.id)
        if fr["sub"] == "fire":
            return self._best_fire(game, e, acts, "fire") or _find(acts, "hold")
        if fr["sub"] == "move":
            return _find(acts, "hold") or acts.last()
        has_action = fr["free"] or fr["credits"] > 0
        if not has_action:
            # keep rolling while the target is still easy enough (a roll is no course)
            limit = 8 if e.side == "french" else 9
            if e.pinned or (cr_target(game, e) <= limit and fr.get("credits", 0) == 0
                            and e.k < 2):
                return _find(acts, "roll") or _find(acts, "end")
            return _find(acts, "end")
        plan = self.plans.get(key)
        if plan is None:
            plan = self._decide(game, e, acts)
            self.plans = {k: v for k, v in self.plans.items() if k[:2] == key[:2]}
            self.plans[key] = plan
        return self._follow(game, e, plan, acts)

    def _decide(self, game: SkirmishGame, e, acts: Menu) -> tuple[str, int]:
        """D72: fix three courses, log them, roll the d10 and return the drawn one with
        the goofiest course's coin (tossed once, before the courses are written down, so
        that the course drawn is the course logged, R158). Unlogged, the courses not
        drawn are not worked out (they change nothing)."""
        coin = self.dice.die(2)
        if self.log:
            plans = {c: self._describe(game, e, (c, coin), acts) for c in COURSES}
        roll = self.dice.die(10)
        bands = game.tabs["decision_matrix"]["bands"]
        course = _band(roll, bands)
        if self.log:
            game.log.add("D72", f"{e.label} matrix: dangerous={plans['most_dangerous']}; "
                         f"likely={plans['most_likely']}; goofiest={plans['goofiest']}; "
                         f"d10={roll} -> {course.replace('_', ' ')}", dice=(roll,),
                         side=e.side)
        return course, coin

    def _describe(self, game: SkirmishGame, e, plan: tuple[str, int], acts: Menu) -> str:
        return str(self._follow(game, e, plan, acts))

    def _follow(self, game: SkirmishGame, e, plan: tuple[str, int], acts: Menu) -> Action:
        a = self._pick(game, e, plan, acts)
        if a is None:
            a = self._pick(game, e, ("most_likely", plan[1]), acts)
        return a or _find(acts, "end") or acts.last()

    def _pick(self, game: SkirmishGame, e, plan: tuple[str, int],
              acts: Menu) -> Action | None:
        course, coin = plan
        if course == "most_likely":
            # the French press on to the scenario's objectives; everyone else stays in
            # cover and fires, otherwise watches, otherwise closes in carefully
            if e.t.is_aircraft:
                a = self._air_choice(game, e, acts)
                if a is not None:
                    return a
            if e.side == "french" and not e.t.is_aircraft:
                a = self._special(acts) or self._objective_move(game, e, acts)
                if a is not None:
                    return a
            return (self._special(acts) or self._best_fire(game, e, acts, "shoot")
                    or (_find(acts, "overwatch") if not e.overwatch else None)
                    or self._move(game, e, acts, "move", toward=True))
        if course == "most_dangerous":
            # move to hurt the enemy most: close in and fire (AT first), or push on
            at_fire = self._best_fire(game, e, acts, "fire", prefer_at=True)
            return (at_fire or self._move(game, e, acts, "move", toward=True)
                    or self._best_fire(game, e, acts, "shoot", prefer_at=True))
        # goofiest: a heroic rush at the enemy, or an unforced fall-back
        if coin == 1:
            return self._move(game, e, acts, "sprint", toward=True) or self._move(
                game, e, acts, "move", toward=True)
        return self._move(game, e, acts, "sprint", toward=False) or _find(acts, "end")

    @staticmethod
    def _air_choice(game: SkirmishGame, e, acts: Menu) -> Action | None:
        """Transports make for the landing zone farthest from the enemy and put their
        troops down; gunships and jets attack."""
        if passengers(game, e):
            a = _find(acts, "unload")
            lzs = [f.centroid for f in game.terrain.features
                   if f.kind == "open_ground" and f.props.get("helo_landing")]
            foes = [o for o in game.elements if o.side != e.side and o.on_table]
            if not lzs or not foes:
                return a
            def threat(x: float, y: float) -> float:
                return -min(math.hypot(o.x - x, o.y - y) for o in foes)
            best_lz = min(lzs, key=lambda c: threat(c.x, c.y))
            here = math.hypot(e.x - best_lz.x, e.y - best_lz.y) if e.on_table else 1e9
            if here < 8.0 and a is not None:
                return a
            moves = [m for m in acts.of("move") if len(m.args) >= 3]
            if moves:
                return min(moves, key=lambda m: math.hypot(float(m.args[1]) - best_lz.x,
                                                           float(m.args[2]) - best_lz.y))
            return a
        return None

    @staticmethod
    def _objective_move(game: SkirmishGame, e, acts: Menu) -> Action | None:
        """The move or sprint that gets closest to an objective, if it gains ground."""
        goals = objectives(game, e)
        if not goals or not e.on_table:
            return None
        now = min(math.hypot(gx - e.x, gy - e.y) for gx, gy in goals)
        if now < 3.0:
            return None
        best = None
        for a in acts.of("move", "sprint"):
            if len(a.args) < 3:
                continue
            x, y = float(a.args[1]), float(a.args[2])
            d = min(math.hypot(gx - x, gy - y) for gx, gy in goals)
            if d < now - 1.0 and (best is None or d < best[0]):
                best = (d, a)
        return best[1] if best else None

    @staticmethod
    def _special(acts: Menu) -> Action | None:
        # a roll is offered to an element with its free action only to rally (D2, R51)
        for verb in ("cc", "unload", "pickup", "stow", "setdown", "rally", "dismount", "land",
                     "roll"):
            a = _find(acts, verb)
            if a is not None:
                return a
        return None

    @staticmethod
    def _best_fire(game: SkirmishGame, e, acts: Menu, verb: str,
                   prefer_at: bool = False) -> Action | None:
        best = None
        for a in acts.of(verb):
            targets = [game.el(x) for x in a.args[1:] if str(x) != "law"]
            score = 0.0
            for t in targets:
                d = centre_distance(e.body, t.body)
                if t.t.is_infantry:
                    score += e.ap_dice() * (1.5 if not prefer_at else 1.0)
                else:
                    dice = e.t.one_shot_fp if "law" in a.args else e.at_dice()
                    score += dice * (2.0 if prefer_at else 1.2) * (7 - t.t.armour_save) / 3
                score += max(0.0, 3.0 - d / 20.0)
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best else None

    @staticmethod
    def _move(game: SkirmishGame, e, acts: Menu, verb: str, toward: bool) -> Action | None:
        foes = [o for o in game.elements if o.side != e.side and o.on_table]
        best = None
        for a in acts.of(verb):
            if len(a.args) < 3:
                continue
            x, y = float(a.args[1]), float(a.args[2])
            d = min((math.hypot(o.x - x, o.y - y) for o in foes), default=0.0)
            score = -d if toward else d
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best else None


def _find(acts: Menu, verb: str) -> Action | None:
    return acts.first(verb)


def play_out(game: SkirmishGame, french, insurgents, max_steps: int = 20_000) -> int:
    """Let two bots finish a game; returns the number of actions applied."""
    steps = 0
    while not game.is_over() and steps < max_steps:
        bot = french if game.active_side == "french" else insurgents
        game.apply(bot.choose(game))
        steps += 1
    return steps


class HeuristicBot(MatrixBot):
    """The designer's 'most logical decision' without the matrix: always the most
    likely course (no d10, nothing logged), for fast and predictable play."""

    def _decide(self, game: SkirmishGame, e, acts: Menu) -> tuple[str, int]:
        return "most_likely", 1
