"""A tactical heuristic for the French side of Insurgent Commander.

``FrenchBot`` scores every candidate action with the engine's own fire
arithmetic (``rules.fire``: concealment and cover, to-hit, saves, armour by
aspect, the damage charts) and picks the best one greedily:

* fire: exact binomial odds of eliminating, pinning or damaging the target,
  weighted by the target's victory points and its firepower, minus the
  expected cost of civilian casualties when the attack could trigger a
  collateral roll (R155/D77);
* movement: progress towards the scenario's objectives (searches, the held
  objective, the exit edge, casualties, CASEVAC) minus the fire the enemy can
  bring on the destination, plus the fire the element can bring from there;
* command rolls: at most one or two extra actions per element and only when the
  next action is worth the blunder risk;
* reactions and Overwatch: fire only when the odds pay, leaders rally.

The bot never draws from the game's dice and never mutates the game: positions
are judged on copies of elements. Ties are broken by candidate order, so the
same seed and game state always give the same action.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import TYPE_CHECKING

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.skirmish.bots.candidates import _act as cand_act
from djebel.skirmish.bots.candidates import objectives
from djebel.skirmish.catalog import damage_result
from djebel.skirmish.geometry import Body, fire_situation, in_arc
from djebel.skirmish.rules import fire
from djebel.skirmish.rules.activation import cr_target, leader_bonus
from djebel.skirmish.rules.aircraft import passengers
from djebel.skirmish.rules.garnish import civilians_in_fire_zones
from djebel.skirmish.rules.reactions import check_pivot
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

DAMAGE_VALUE = {
    "pinned": 0.15, "optics_destroyed": 0.15, "engine_damage": 0.15, "immobilized": 0.3,
    "main_armament_ko": 0.45, "forced_to_land_passengers_hit": 0.9,
    "destroyed_passengers_hit": 1.0, "destroyed_all_killed": 1.0,
}


@lru_cache(maxsize=4096)
def _binom(n: int, p: float) -> tuple[float, ...]:
    return tuple(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


def _p_at_least(need: int) -> float:
    """Chance one die meets ``need`` (0 = never, natural 1 always fails)."""
    if need <= 0 or need > 6:
        return 0.0
    return (7 - max(need, 2)) / 6


def _p2d6_at_least(t: int) -> float:
    ways = sum(1 for a in range(1, 7) for b in range(1, 7)
               if (a + b >= t or (a == 6 and b == 6)) and not (a == 1 and b == 1))
    return ways / 36


class FrenchBot:
    """Greedy, odds-driven French play (see the module docstring)."""

    DANGER_W = 1.0
    REACT_W = 0.25
    OFFENCE_W = 0.3
    SHOT_REACT_W = 0.5

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.jitter = self.rng.random() * 1e-6
        self._cache = {}

    # ------------------------------------------------------------ entry point
    def choose(self, game: SkirmishGame) -> Action:
        acts = game.legal_actions()
        self._cache: dict = {}
        fr = game.frames[-1]
        k = fr["k"]
        try:
            if k == "main":
                return self._main(game, acts)
            if k == "act":
                return self._act(game, fr, acts)
            if k in ("react", "charge"):
                return self._react(game, acts)
            if k == "ow":
                return self._ow(game, acts)
            if k == "group":
                return _find(acts, "end") or acts[-1]
        except IllegalAction:
            pass
        return acts[-1]

    # ------------------------------------------------------------ context
    def _ctx(self, g: SkirmishGame) -> dict:
        civ_pts = sum(v["points"] for v in g.scn.victory if v["hook"] == "civilian_casualties")
        sd = (g.scn.sudden_death or {}).get("civilian_casualties_at_least")
        hits = sum(g.civ_hits)
        civ_cost = float(civ_pts)
        if sd:
            civ_cost += 6.0 * (hits + 1) / sd
        return {"civ_cost": civ_cost}

    # ------------------------------------------------------------ phase level
    def _main(self, g: SkirmishGame, acts: list[Action]) -> Action:
        best: tuple[float, Action] | None = None
        for a in acts:
            if a.verb != "activate":
                continue
            e = g.el(a.args[0])
            if e.pinned:
                score = 0.5
            elif e.embarked_in >= 0:
                score = 0.2                                  # let the carrier act first
            elif e.off_table and e.t.is_aircraft and _has_passengers(g, e):
                # transports come in after the guns have drawn the enemy's Overwatch
                ow = sum(1 for o in g.elements if o.side != e.side and o.on_table
                         and o.overwatch)
                score = 0.9 - 0.1 * ow
            elif e.off_table and e.t.is_aircraft and e.ap_dice() + e.at_dice():
                score = 1.5
            else:
                score = 1.0 + self._best_shot_value(g, e)
            if best is None or score > best[0]:
                best = (score, a)
        if best is not None:
            return best[1]
        return _find(acts, "endphase") or acts[-1]

    def _best_shot_value(self, g: SkirmishGame, e: Element) -> float:
        if not e.on_table:
            return 0.0
        best = 0.0
        ctx = self._ctx(g)
        for o in g.elements:
            if o.side == e.side or not o.on_table:
                continue
            v = self._attack_value(g, e, o, False, ctx)
            best = max(best, v)
        return best

    # ------------------------------------------------------------ activation
    def _act(self, g: SkirmishGame, fr: dict, acts: list[Action]) -> Action:
        e = g.elements[fr["e"]]
        ctx = self._ctx(g)
        if fr["sub"] == "fire":
            a = self._best_fire(g, e, acts, "fire", ctx, moving=True)
            return a[1] if a and a[0] > 0 else (_find(acts, "hold") or acts[-1])
        if fr["sub"] == "move":
            a = self._best_move(g, e, acts, ctx, verbs=("move",))
            return a[1] if a and a[0] > 0.05 else (_find(acts, "hold") or acts[-1])
        if _find(acts, "cc"):
            return _find(acts, "cc")
        has_action = fr["free"] or fr["credits"] > 0
        if not has_action:
            return self._roll_or_end(g, e, acts, ctx)
        best = self._best_action(g, e, acts, ctx)
        if best is None or best[0] <= 0.0:
            return _find(acts, "end") or acts[-1]
        return best[1]

    def _roll_or_end(self, g: SkirmishGame, e: Element, acts: list[Action], ctx: dict) -> Action:
        roll = _find(acts, "roll")
        end = _find(acts, "end") or acts[-1]
        if roll is None:
            return end
        target = cr_target(g, e) - leader_bonus(g, e) + e.markers
        p = _p2d6_at_least(target)
        if e.pinned:
            return roll if p >= 0.4 else end
        value = self._next_value(g, e, ctx)
        if target <= 8 and p * value - 0.9 / 36 > 0.15:
            return roll
        return end

    def _next_value(self, g: SkirmishGame, e: Element, ctx: dict) -> float:
        """What one more action would be worth (fire, objective move, casualty work)."""
        fake = {"free": True, "credits": 0, "sub": ""}
        try:
            acts = cand_act(g, fake, e)
        except IllegalAction:
            return 0.0
        best = self._best_action(g, e, acts, ctx)
        return best[0] if best else 0.0

    def _best_action(self, g: SkirmishGame, e: Element, acts: list[Action],
                     ctx: dict) -> tuple[float, Action] | None:
        """The best action and its worth relative to ending the activation (0)."""
        opts = self.options(g, e, acts, ctx)
        return max(opts, key=lambda t: t[0]) if opts else None

    def options(self, g: SkirmishGame, e: Element, acts: list[Action],
                ctx: dict | None = None) -> list[tuple[float, Action]]:
        """The best action of each kind (special order, fire, move, sprint, Overwatch)
        with its worth relative to ending the activation (0), in a fixed order: the
        candidates a search tries besides the best one."""
        ctx = self._ctx(g) if ctx is None else ctx
        out: list[tuple[float, Action]] = []
        react_here = self._danger(g, e, e.x, e.y, react=True) if e.on_table else 0.0
        special = self._special(g, e, acts)
        if special is not None:
            out.append((special[0] - 0.5 * react_here, special[1]))
        rc = self.SHOT_REACT_W * react_here
        for verb, moving, bonus in (("shoot", False, 0.0), ("fire", True, 0.02)):
            fire_opts = self._fire_options(g, e, acts, verb, ctx, moving=moving)
            if fire_opts:
                v, a = max(fire_opts, key=lambda t: t[0])
                out.append((v - rc + bonus, a))
        for verbs in (("move",), ("sprint",)):
            mv = self._best_move(g, e, acts, ctx, verbs=verbs)
            if mv is not None:
                out.append(mv)
        ow = _find(acts, "overwatch")
        if ow is not None and not e.overwatch and not e.t.is_aircraft:
            out.append((self._overwatch_value(g, e) - react_here, ow))
        return out

    # ------------------------------------------------------------ special orders
    def _special(self, g: SkirmishGame, e: Element, acts: list[Action]) -> tuple | None:
        for verb, v in (("setdown", 5.0), ("stow", 4.0), ("pickup", 3.0), ("rally", 2.5)):
            a = _find(acts, verb)
            if a is not None:
                return (v, a)
        if e.t.is_aircraft:
            return self._air_special(g, e, acts)
        dis = _find(acts, "dismount")
        if dis is not None:
            return (self._dismount_value(g, e), dis)
        un = _find(acts, "unload")
        if un is not None and not e.t.is_aircraft:
            return (self._ground_unload_value(g, e), un)
        return None

    def _dismount_value(self, g: SkirmishGame, e: Element) -> float:
        c = g.elements[e.embarked_in]
        if c.removed:
            return 1.0
        if _exit_goal(g, c):
            return -1.0                                    # ride out with the convoy
        if c.t.is_aircraft:
            return 1.0
        return 0.8 if _near_objective(g, c, 25.0) or c.immobilized else 0.1

    def _ground_unload_value(self, g: SkirmishGame, e: Element) -> float:
        if _exit_goal(g, e) and not e.immobilized:
            return -1.0
        return 0.9 if _near_objective(g, e, 25.0) or e.immobilized else 0.0

    def _air_special(self, g: SkirmishGame, e: Element, acts: list[Action]) -> tuple | None:
        carrying = passengers(g, e)
        carrying_markers = any(m.carried_by == e.id and not m.evacuated for m in g.markers)
        if carrying:
            un = _find(acts, "unload")
            lz = self._best_lz(g, e)
            if un is not None and (lz is None or math.hypot(e.x - lz[0], e.y - lz[1]) < 10):
                return (3.0, un)
            return None
        leave = _find(acts, "leave")
        if e.t.is_fixed_wing:
            return None
        if e.t.passenger_capacity:
            if carrying_markers and leave is not None:
                return (3.0, leave)
            land = _find(acts, "land")
            if land is not None and any(m.on_table for m in g.markers) and \
                    self._danger(g, e, e.x, e.y) < 0.3:
                return None
            if leave is not None and e.on_table:
                return (2.0, leave)                        # an empty transport is a target
        return None

    def _best_lz(self, g: SkirmishGame, e: Element) -> tuple[float, float] | None:
        lzs = [f.centroid for f in g.terrain.features
               if f.kind == "open_ground" and f.props.get("helo_landing")]
        if not lzs:
            goals = objectives(g, e)
            return goals[0] if goals else None
        goals = objectives(g, e)
        tmp = e.copy()
        tmp.airborne = False
        tmp.off_table = False

        def cost(c) -> float:
            d = self._danger(g, tmp, c.x, c.y)
            far = min((math.hypot(gx - c.x, gy - c.y) for gx, gy in goals), default=0.0)
            return d * 3.0 + far / 40.0

        best = min(lzs, key=cost)
        return (best.x, best.y)

    # ------------------------------------------------------------ fire
    def _fire_options(self, g: SkirmishGame, e: Element, acts: list[Action], verb: str,
                      ctx: dict, moving: bool) -> list[tuple[float, Action]]:
        out = []
        for a in acts:
            if a.verb != verb:
                continue
            law = "law" in a.args
            v = 0.0
            for x in a.args[1:]:
                if str(x) == "law":
                    continue
                v += self._attack_value(g, e, g.el(x), moving, ctx, law=law)
            if law:
                v -= 0.3                                   # the volley is once per game
            out.append((v, a))
        return out

    def _best_fire(self, g, e, acts, verb, ctx, moving) -> tuple[float, Action] | None:
        opts = self._fire_options(g, e, acts, verb, ctx, moving)
        return max(opts, key=lambda t: t[0]) if opts else None

    def _attack_value(self, g: SkirmishGame, f: Element, t: Element, moving: bool, ctx: dict,
                      law: bool = False, collateral: bool = True) -> float:
        """Expected worth of one attack by f on t, collateral cost deducted (0 if illegal)."""
        try:
            sit = fire.check_attack(g, f, t, law=law)
            if sit is None:
                sit = fire.situation(g, f, t)
        except IllegalAction:
            return 0.0
        conc, cover, hard = sit
        cat = fire.category(t)
        need = fire.to_hit_needed(g, f, t, conc, cat, moving)
        ph = _p_at_least(need)
        n = f.ap_dice() if cat == "ap" else (f.t.one_shot_fp if law else f.at_dice())
        if n <= 0:
            return 0.0
        worth = _target_worth(g, t)
        if cat == "ap":
            save = fire.ap_save_needed(g, f, t, cover, hard)
            q = ph * (1 - _p_at_least(save))
            dist = _binom(n, q)
            v = 0.0
            for k, pk in enumerate(dist):
                if k == 0:
                    continue
                if k >= t.sp:
                    v += pk * worth
                else:
                    pin = 0.0 if t.pinned else 1 - 0.5 ** k
                    v += pk * (worth * 0.5 * k / max(1, t.t.strength) + pin * 0.35 * worth)
        else:
            save = fire.armour_needed(g, f, t)
            q = ph * (1 - _p_at_least(save))
            dist = _binom(n, q)
            v = 0.0
            chart = t.t.damage_chart
            for k, pk in enumerate(dist):
                if k == 0:
                    continue
                dv = 0.0
                for r in range(1, 7):
                    res = damage_result(chart, r + k - 1)
                    dv += DAMAGE_VALUE.get(res, 0.2) / 6
                v += pk * dv * worth
        if collateral:
            v -= self._collateral_cost(g, f, t, n, ph, ctx)
        return v

    def _collateral_cost(self, g: SkirmishGame, f: Element, t: Element, n: int, ph: float,
                         ctx: dict) -> float:
        if not (f.side == "french" and g.opt("civilian_rules") and g.scn.civilians):
            return 0.0
        p_miss = (1 - ph) ** n
        if p_miss < 1e-4 or not _civilians_exposed(g, f, t):
            return 0.0
        hit_on = g.opt("collateral_hit_on") or g.tabs["civilians"]["collateral_hit_on"]
        expected = p_miss * n * _p_at_least(hit_on)
        cost = ctx["civ_cost"]
        sd = (g.scn.sudden_death or {}).get("civilian_casualties_at_least")
        if sd:
            # the chance this roll alone reaches the sudden-death count is ruinous
            left = sd - sum(g.civ_hits)
            pk = _binom(n, _p_at_least(hit_on))
            p_sd = p_miss * sum(pk[left:]) if left <= n else 0.0
            return expected * cost + p_sd * 40.0
        return expected * cost

    # ------------------------------------------------------------ movement
    def _best_move(self, g: SkirmishGame, e: Element, acts: list[Action], ctx: dict,
                   verbs: tuple = ("move", "sprint")) -> tuple[float, Action] | None:
        moves = [a for a in acts if a.verb in verbs and len(a.args) >= 3]
        if not moves:
            return None
        if e.off_table:
            # an armed aircraft waiting off table does nothing for the battle
            here = -1e3 if _has_passengers(g, e) else -1.0 if e.ap_dice() + e.at_dice() else 0.0
        else:
            here = self._place_value(g, e, e.x, e.y, e.facing, ctx, moving=False)
        best = None
        for a in moves:
            x, y = float(a.args[1]), float(a.args[2])
            face = float(a.args[4]) if len(a.args) >= 5 else e.facing
            v = self._place_value(g, e, x, y, face, ctx, moving=True) - here
            if a.verb == "sprint":
                v -= 0.03
            if best is None or v > best[0]:
                best = (v, a)
        return best

    def _place_value(self, g: SkirmishGame, e: Element, x: float, y: float, face: float,
                     ctx: dict, moving: bool) -> float:
        """Worth of standing at (x, y): objectives, exposure, and fire it could deliver."""
        key = (e.id, round(x, 2), round(y, 2), round(face, 1), moving)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        tmp = e.copy()
        tmp.x, tmp.y, tmp.facing = x, y, face
        if e.off_table and e.t.is_aircraft:
            tmp.off_table = False
            tmp.airborne = True
        v = 0.0
        goals = self._goals(g, e)
        if goals:
            d = min(math.hypot(gx - x, gy - y) for gx, gy in goals)
            v -= d * self._goal_weight(g, e)
        on = e.on_table or (e.off_table and e.t.is_aircraft and moving)
        if on:
            dw = self.DANGER_W
            if e.t.is_aircraft and e.t.passenger_capacity and _has_passengers(g, e):
                dw *= 0.25                                 # the landing must happen
            elif _exit_goal(g, e):
                dw *= 0.4                                  # staying put is no safer
            elif e.t.is_aircraft and e.ap_dice() + e.at_dice() and not e.t.passenger_capacity:
                dw *= 0.4                                  # gunships are there to fight
            v -= dw * self._danger(g, tmp, x, y)
            if moving:
                v -= dw * self.REACT_W * self._danger(g, tmp, x, y, react=True)
            offence = 0.0
            for o in g.elements:
                if o.side == e.side or not o.on_table:
                    continue
                offence = max(offence, self._attack_value(g, tmp, o, False, ctx,
                                                          collateral=False))
            v += self.OFFENCE_W * offence
        self._cache[key] = v
        return v

    def _goals(self, g: SkirmishGame, e: Element) -> list[tuple[float, float]]:
        if e.type == "leader":
            pinned = [o for o in g.elements if o.side == e.side and o.pinned and o.ground
                      and o.id != e.id and math.hypot(o.x - e.x, o.y - e.y) < 25]
            if pinned:
                o = min(pinned, key=lambda o: math.hypot(o.x - e.x, o.y - e.y))
                return [(o.x, o.y)]
        if e.t.is_aircraft:
            if e.t.passenger_capacity and passengers(g, e):
                lz = self._best_lz(g, e)
                return [lz] if lz else []
            return []
        goals = objectives(g, e)
        return goals

    def _goal_weight(self, g: SkirmishGame, e: Element) -> float:
        if e.t.is_aircraft:
            return 0.06
        if _exit_goal(g, e):
            return 0.15
        if any(m.carried_by == e.id and not m.evacuated for m in g.markers):
            return 0.08
        return 0.03 if e.t.is_infantry else 0.015

    def _danger(self, g: SkirmishGame, e: Element, x: float, y: float,
                react: bool = False) -> float:
        """Expected losses (in element fractions) from every enemy that would see (x, y);
        with ``react`` only from enemies that may still react this phase."""
        body = Body(x, y, e.facing, e.t.base_w_cm, e.t.base_d_cm, e.airborne)
        tmp = e.copy()
        tmp.x, tmp.y = x, y
        if e.off_table and e.t.is_aircraft:
            tmp.off_table = False
            tmp.airborne = True
            body = tmp.body
        total = 0.0
        cat = fire.category(tmp)
        kind = "infantry" if tmp.t.is_infantry else "vehicle"
        for o in g.elements:
            if o.side == e.side or not o.on_table:
                continue
            if cat == "ap":
                n = o.ap_dice()
            else:
                n = o.at_dice()
                allowed = o.t.at_only_vs_armour
                if allowed and tmp.t.armour_save not in allowed:
                    n = 0
                if o.t.at_vs_aircraft_only and not (tmp.t.is_aircraft and tmp.airborne):
                    n = 0
            if n <= 0 or (o.airborne and tmp.airborne):
                continue
            if react and (o.reacted or o.pinned or g.in_fight(o.id) or o.t.is_fixed_wing):
                continue
            blast = cat == "ap" and o.t.blast_ap and g.opt("blast_vs_buildings")
            sit = fire_situation(g.terrain, o.body, body, kind, blast)
            if sit is None:
                continue
            conc, cover, hard = sit
            if cat == "ap" and o.t.hard_target_only_ap and not hard:
                continue
            need = fire.to_hit_needed(g, o, tmp, conc, cat, False)
            ph = _p_at_least(need)
            if cat == "ap":
                save = fire.ap_save_needed(g, o, tmp, cover, hard)
                exp = n * ph * (1 - _p_at_least(save)) / max(1, tmp.sp)
            else:
                save = fire.armour_needed(g, o, tmp)
                exp = n * ph * (1 - _p_at_least(save)) * 0.45
            w = 0.4 if o.pinned else 1.0
            w /= self._targets_of(g, o, e)                 # its fire is shared out
            if not in_arc(o.body, body):
                w *= 0.6
            total += w * min(exp, 1.5)
        return total * _own_worth(g, e)

    def _targets_of(self, g: SkirmishGame, o: Element, e: Element) -> int:
        """How many elements of e's side, e included, the enemy o can see: its fire
        during a phase is spread over them."""
        key = ("targets", o.id, o.x, o.y, e.id)
        hit = self._cache.get(key)
        if hit is None:
            hit = 1 + sum(1 for f in g.elements
                          if f.side == e.side and f.id != e.id and f.on_table
                          and g.terrain_sees(o, f))
            self._cache[key] = hit
        return hit

    def _overwatch_value(self, g: SkirmishGame, e: Element) -> float:
        seen = any(o.side != e.side and o.on_table and g.sees(e, o) for o in g.elements)
        return 0.12 if not seen else 0.06

    # ------------------------------------------------------------ reactions
    def _react(self, g: SkirmishGame, acts: list[Action]) -> Action:
        ctx = self._ctx(g)
        best: tuple[float, Action] | None = None
        for a in acts:
            v = -1.0
            if a.verb in ("shoot", "turnshoot"):
                f, t = g.el(a.args[0]), g.el(a.args[1])
                if a.verb == "turnshoot":
                    v = self._turn_value(g, f, t, ctx)
                else:
                    v = self._attack_value(g, f, t, False, ctx)
            elif a.verb == "rally":
                v = 1.0
            elif a.verb == "unload":
                c = g.el(a.args[0])
                # passengers put down in the open are easier to kill than inside
                v = 0.8 if c.immobilized and not c.t.is_aircraft else -1.0
            if best is None or v > best[0]:
                best = (v, a)
        if best is not None and best[0] > 0.08:
            return best[1]
        return _find(acts, "pass") or acts[-1]

    def _turn_value(self, g: SkirmishGame, f: Element, t: Element, ctx: dict) -> float:
        tmp = f.copy()
        try:
            tmp.facing = check_pivot(g, f, t)
        except IllegalAction:
            return 0.0
        return self._attack_value_copy(g, tmp, t, ctx)

    def _attack_value_copy(self, g: SkirmishGame, f: Element, t: Element, ctx: dict) -> float:
        try:
            sit = fire.situation(g, f, t)
        except IllegalAction:
            return 0.0
        if not g.sees(f, t):
            return 0.0
        del sit
        return self._attack_value(g, f, t, False, ctx) * 0.9

    def _ow(self, g: SkirmishGame, acts: list[Action]) -> Action:
        ctx = self._ctx(g)
        t = g.elements[g.frames[-1]["t"]]
        best = None
        for a in acts:
            if a.verb != "owfire":
                continue
            v = self._attack_value(g, g.el(a.args[0]), t, False, ctx)
            if best is None or v > best[0]:
                best = (v, a)
        if best is not None and best[0] > 0.08:
            return best[1]
        return _find(acts, "wait") or acts[-1]


# ---------------------------------------------------------------- helpers

def _find(acts: list[Action], verb: str) -> Action | None:
    for a in acts:
        if a.verb == verb:
            return a
    return None


def _removal_vp(g: SkirmishGame, x: Element) -> float:
    """The victory points the enemy scores for removing x (the scenario's 'removed' hooks)."""
    vp = 0.0
    for v in g.scn.victory:
        if v["hook"] != "removed" or v["side"] == x.side or v.get("of", x.side) != x.side:
            continue
        if v.get("kinds") and x.t.kind not in v["kinds"]:
            continue
        if v.get("types") and x.type not in v["types"]:
            continue
        vp += v["points"]
    return vp


def _target_worth(g: SkirmishGame, t: Element) -> float:
    """Victory points for removing t plus the threat it poses (its firepower)."""
    vp = _removal_vp(g, t)
    threat = (t.ap_dice() + 1.5 * t.at_dice()) / 6.0
    if t.type == "sam":
        threat += 1.0
    return vp + threat


def _own_worth(g: SkirmishGame, e: Element) -> float:
    """What losing e would cost: the enemy's victory points plus a casualty to evacuate."""
    vp = _removal_vp(g, e)
    if e.side == "french" and g.opt("casualty_rules"):
        vp += sum(v["points"] for v in g.scn.victory
                  if v["hook"] == "casualties_not_evacuated")
    return 1.0 + vp


def _has_passengers(g: SkirmishGame, e: Element) -> bool:
    return any(o.embarked_in == e.id and not o.removed for o in g.elements)


def _exit_goal(g: SkirmishGame, e: Element) -> bool:
    return not e.t.is_infantry and not e.t.is_aircraft and any(
        v["hook"] == "exited" and v["side"] == e.side for v in g.scn.victory)


def _near_objective(g: SkirmishGame, e: Element, r: float) -> bool:
    goals = objectives(g, e)
    return any(math.hypot(gx - e.x, gy - e.y) < r for gx, gy in goals) if goals else True


def _civilians_exposed(g: SkirmishGame, f: Element, t: Element) -> bool:
    """Whether R155's zones (the side band or beyond the target) touch a civilian."""
    return bool(civilians_in_fire_zones(g, f, t))


__all__ = ["FrenchBot"]
