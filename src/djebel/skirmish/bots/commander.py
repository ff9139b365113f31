"""The French commander: ``FrenchBot``'s odds with a plan for the whole phase.

``FrenchBot`` judges one action at a time. ``CommanderBot`` keeps that arithmetic
and adds what a commander decides above it:

* the order of the phase: air strikes first, then the fire base (elements with a
  shot, in a leader's group where one is at hand, R24), then the movers, then the
  transports: the enemy is pinned before anything crosses its sight
  (fire and manoeuvre);
* group activation under leaders (R24, D7): members fire first, then move, the
  leader last so that it never runs ahead of its men; the group roll is taken while
  the next actions are worth the rising target;
* no lone leader into open ground: a leader never ends a move without cover or
  concealment in the sight of an unpinned enemy unless a friend stands within the
  group radius of that spot (its own men) -- the leader is the side's rally;
* air support where it pays: the gunship and the jet come on only for a strike
  whose expected worth beats the reaction fire at the spot (pinned enemies cannot
  react, enemies in the open are easy to hit), from spots chosen around the best
  targets; the Pumas go in only once the landing zone is suppressed (no unpinned
  enemy that could still fire at them sees it) or the battle can wait no longer;
  an empty helicopter flies CASEVAC (D73) to a casualty it can reach, lands,
  picks it up, takes off and leaves with it (D64.2);
* searches go first to the compounds no enemy holds.

Like ``FrenchBot`` it reads the game and returns an order: no dice, no changes.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.skirmish.bots.candidates import objectives
from djebel.skirmish.bots.french import (
    FrenchBot,
    _exit_goal,
    _find,
    _own_worth,
    _p2d6_at_least,
    _target_worth,
)
from djebel.skirmish.geometry import Body, bearing, fire_situation
from djebel.skirmish.rules import movement
from djebel.skirmish.rules.aircraft import free_slots, landing_ok, passengers
from djebel.skirmish.rules.garnish import marker_contact
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

STRIKE_RINGS = (14.0, 24.0)          # cm from a target where strike spots are sampled
STRIKE_HEADINGS = 6
STRIKE_TARGETS = 3


def open_and_seen(g: SkirmishGame, e: Element, x: float, y: float,
                  face: float | None = None) -> list[Element]:
    """The unpinned enemies that would see ``e`` at (x, y) with neither concealment nor
    cover (D33/D34 as the fire rules read them): the open ground a leader avoids."""
    t = e.t
    body = Body(x, y, e.facing if face is None else face, t.base_w_cm, t.base_d_cm, False)
    kind = "infantry" if t.is_infantry else "vehicle"
    out = []
    for o in g.elements:
        if o.side == e.side or not o.on_table or o.pinned:
            continue
        sit = fire_situation(g.terrain, o.body, body, kind, False)
        if sit is not None and sit[0] == 0 and sit[1] == 0:
            out.append(o)
    return out


def escorted(g: SkirmishGame, e: Element, x: float, y: float) -> bool:
    """A friendly ground element other than a leader within the group radius of (x, y)."""
    radius = g.tabs["command"]["group_radius_cm"]
    for o in g.elements:
        if o.side != e.side or o.id == e.id or not o.ground or o.type == "leader":
            continue
        if math.hypot(o.x - x, o.y - y) - max(o.t.base_w_cm, o.t.base_d_cm) / 2 <= radius + 1.5:
            return True
    return False


def lone_leader_exposed(g: SkirmishGame, e: Element, x: float, y: float,
                        face: float | None = None) -> bool:
    """R23: a leader alone in open ground that an unpinned enemy sees."""
    return (e.type == "leader" and not escorted(g, e, x, y)
            and bool(open_and_seen(g, e, x, y, face)))


def _dest(a: Action) -> tuple[float, float, float | None] | None:
    if a.verb not in ("move", "sprint") or len(a.args) < 3:
        return None
    words = list(a.args[1:])
    face = None
    if "face" in words:
        i = words.index("face")
        face = float(words[i + 1])
        words = words[:i]
    return float(words[-2]), float(words[-1]), face


class CommanderBot(FrenchBot):
    """French play with a phase plan (see the module docstring)."""

    LZ_SAFE = 0.45          # reaction danger at the LZ below which the Pumas go in
    STRIKE_MIN = 0.25       # a strike must be worth this much more than its risk
    CASEVAC_SAFE = 1.2      # danger a helicopter accepts to fetch a casualty (2 VP)
    LZ_DEADLINE = 0.25      # share of the battle the Pumas may wait for a suppressed LZ

    def choose(self, game: SkirmishGame) -> Action:
        fr = game.frames[-1]
        if fr["k"] == "group":
            self._cache = {}
            acts = game.legal_actions()
            try:
                return self._group(game, fr, acts)
            except IllegalAction:
                return _find(acts, "end") or acts[-1]
        return super().choose(game)

    # ------------------------------------------------------------ the phase plan
    def _main(self, g: SkirmishGame, acts: list[Action]) -> Action:
        best: tuple[float, Action] | None = None
        grouped: set[str] = set()
        for a in acts:
            if a.verb == "group" and len(a.args) >= 3:
                grouped.update(str(x) for x in a.args)
        for a in acts:
            score = self._activation_score(g, a, grouped)
            if score is not None and (best is None or score > best[0]):
                best = (score, a)
        if best is not None:
            return best[1]
        return _find(acts, "endphase") or acts[-1]

    def _activation_score(self, g: SkirmishGame, a: Action, grouped: set[str]) -> float | None:
        """How soon to activate (higher first); None: not this phase."""
        if a.verb == "group":
            if len(a.args) < 3:
                return None                                # a leader and one man: no gain
            members = [g.el(x) for x in a.args[1:]]
            shot = max(self._best_shot_value(g, m) for m in members)
            return 1.15 + shot
        if a.verb != "activate":
            return None
        e = g.el(a.args[0])
        if e.label in grouped and not e.pinned:
            return None                                    # it acts in its leader's group
        if e.t.is_aircraft and (e.off_table or e.airborne):
            return self._air_score(g, e)
        if e.pinned:
            return 0.5
        if e.embarked_in >= 0:
            return 0.2
        return 1.0 + self._best_shot_value(g, e)

    def _air_score(self, g: SkirmishGame, e: Element) -> float | None:
        if e.t.passenger_capacity and _has_troops(g, e):
            if e.on_table:
                return 1.3
            return 1.2 if self._lz_ready(g, e) else None
        if e.t.passenger_capacity:
            if e.on_table or self._casevac_marker(g, e) is not None:
                return 0.9
            return None
        if not e.ap_dice() + e.at_dice():
            return None
        if e.on_table:
            return 2.0 + self._best_shot_value(g, e)
        strike = self._strike(g, e)
        return None if strike is None else 2.0 + strike[0]

    # ------------------------------------------------------------ groups (R24, D7)
    def _group(self, g: SkirmishGame, fr: dict, acts: list[Action]) -> Action:
        ctx = self._ctx(g)
        leader = g.elements[fr["l"]]
        best: tuple[float, Action] | None = None
        for i in fr["m"]:
            e = g.elements[i]
            mine = [a for a in acts if a.args and str(a.args[0]) == e.label
                    and a.verb not in ("roll", "end")]
            if not mine:
                continue
            unpin = _find(mine, "unpin")
            if unpin is not None:
                cand = (1.0, unpin)
            else:
                cand = self._best_action(g, e, mine + [Action("end", (e.label,))], ctx)
                if cand is None or cand[1].verb == "end":
                    continue
                v, a = cand
                if a.verb in ("shoot", "fire"):
                    v += 0.1                                # D7.2: the fire base first
                if e.id == leader.id and a.verb in ("move", "sprint"):
                    v -= 0.08                               # the leader moves last
                cand = (v, a)
            if cand[0] > 0.0 and (best is None or cand[0] > best[0]):
                best = cand
        if best is not None:
            return best[1]
        roll = _find(acts, "roll")
        if roll is not None and self._group_roll_pays(g, fr, ctx):
            return roll
        return _find(acts, "end") or acts[-1]

    def _group_roll_pays(self, g: SkirmishGame, fr: dict, ctx: dict) -> bool:
        """D7.3: one roll at the rising target gives every member an action."""
        if fr["kg"] >= 2:
            return False
        members = [g.elements[i] for i in fr["m"] if not g.elements[i].removed]
        target = g.tabs["command"]["base_target"]["french"] + fr["kg"] + max(
            (m.markers for m in members), default=0)
        p = _p2d6_at_least(target)
        worth = sum(max(0.0, self._next_value(g, m, ctx)) for m in members if not m.pinned)
        worth += 0.4 * sum(1 for m in members if m.pinned)
        return p * worth - len(members) * 0.6 / 36 > 0.25

    # ------------------------------------------------------------ moves
    def _best_move(self, g: SkirmishGame, e: Element, acts: list[Action], ctx: dict,
                   verbs: tuple = ("move", "sprint")) -> tuple[float, Action] | None:
        if e.type == "leader":
            acts = [a for a in acts if not self._leader_exposed(g, e, a)]
        return super()._best_move(g, e, acts, ctx, verbs)

    def _leader_exposed(self, g: SkirmishGame, e: Element, a: Action) -> bool:
        d = _dest(a)
        return d is not None and lone_leader_exposed(g, e, d[0], d[1], d[2])

    def _goals(self, g: SkirmishGame, e: Element) -> list[tuple[float, float]]:
        goals = super()._goals(g, e)
        if e.side != "french" or not e.t.is_infantry or not g.scn.searchable:
            return goals
        free = [(c.x, c.y) for fid in g.scn.searchable if fid not in g.searched
                for c in (g.terrain.feature(fid).centroid,)
                if not _held_by_enemy(g, fid)]
        keep = [p for p in goals if p not in _search_points(g)]
        return (free + keep) if free else goals

    # ------------------------------------------------------------ reactions
    def _react(self, g: SkirmishGame, acts: list[Action]) -> Action:
        """Fire back when it pays; a convoy vehicle caught in an ambush may instead
        sprint for its exit edge (R31, D12: a Sprint is a reaction), out of the kill
        zone and towards its points."""
        chosen = super()._react(g, acts)
        fr = g.frames[-1]
        if fr["k"] != "react":
            return chosen
        for a in acts:
            if a.verb == "unload" and self._troops_at_lz(g, g.el(a.args[0])):
                return a                                   # D12: out before it is shot down
        ctx = self._ctx(g)
        kept = 0.0
        if chosen.verb in ("shoot", "turnshoot"):
            kept = self._attack_value(g, g.el(chosen.args[0]), g.el(chosen.args[1]), False,
                                      ctx)
        escape = self._escape(g, fr, ctx)
        if escape is not None and escape[0] > max(kept, 0.0) + 0.5:
            return escape[1]
        return chosen

    def _troops_at_lz(self, g: SkirmishGame, c: Element) -> bool:
        """A loaded helicopter over its landing zone: its troops are better on the ground
        than aboard when it is hit (R102, D50)."""
        if not (c.t.is_aircraft and c.on_table and _has_troops(g, c)):
            return False
        lz = self._best_lz(g, c)
        return lz is None or math.hypot(c.x - lz[0], c.y - lz[1]) < 15.0

    def _escape(self, g: SkirmishGame, fr: dict, ctx: dict) -> tuple[float, Action] | None:
        from djebel.skirmish.rules.reactions import react_candidates
        best = None
        for i in react_candidates(g, fr):
            o = g.elements[i]
            if not _exit_goal(g, o) or o.immobilized or not o.ground:
                continue
            edge = next(v.get("edge", "east") for v in g.scn.victory
                        if v["hook"] == "exited" and v["side"] == o.side)
            step = 2 * movement.move_cm(g, o)
            if movement.mobility(o) == "wheeled":
                step += movement.move_cm(g, o)
            ux, uy = {"east": (1, 0), "west": (-1, 0), "north": (0, 1),
                      "south": (0, -1)}[edge]
            here = self._place_value(g, o, o.x, o.y, o.facing, ctx, moving=False)
            face = {"east": 0.0, "west": 180.0, "north": 90.0, "south": 270.0}[edge]
            for frac in (1.0, 0.75, 0.5):
                x = round(min(max(o.x + ux * step * frac, 1.0), g.terrain.width - 1.0), 2)
                y = round(min(max(o.y + uy * step * frac, 1.0), g.terrain.depth - 1.0), 2)
                a = Action("sprint", (o.label, x, y, "face", face))
                try:
                    g.validate(a)
                except IllegalAction:
                    continue
                v = self._place_value(g, o, x, y, face, ctx, moving=True) - here
                if best is None or v > best[0]:
                    best = (v, a)
                break
        return best

    # ------------------------------------------------------------ air support
    def _danger(self, g: SkirmishGame, e: Element, x: float, y: float,
                react: bool = False) -> float:
        """An aircraft is lost or not (D48, D64): its expected hits are turned into the
        chance of at least one loss, so many enemies cannot cost more than the aircraft."""
        d = super()._danger(g, e, x, y, react)
        if not e.t.is_aircraft:
            return d
        worth = _own_worth(g, e)
        return worth * (1.0 - math.exp(-d / worth))

    def _special(self, g: SkirmishGame, e: Element, acts: list[Action]) -> tuple | None:
        if e.t.is_aircraft and e.t.passenger_capacity and not _has_troops(g, e):
            return self._casevac_step(g, e, acts)
        if e.t.is_aircraft and e.off_table and (e.ap_dice() + e.at_dice()):
            strike = self._strike(g, e)
            return strike
        return super()._special(g, e, acts)

    def _strike(self, g: SkirmishGame, e: Element) -> tuple[float, Action] | None:
        """The best strike spot for an off-table gunship or jet, if it pays."""
        key = ("strike", e.id)
        if key in self._cache:
            return self._cache[key]
        ctx = self._ctx(g)
        tmp = e.copy()
        tmp.off_table, tmp.airborne = False, True
        foes = [o for o in g.elements if o.side != e.side and o.on_table]
        ranked = sorted(foes, key=lambda o: -self._target_pull(g, o))[:STRIKE_TARGETS]
        w, d = g.terrain.width, g.terrain.depth
        best = None
        for t in ranked:
            for r in STRIKE_RINGS:
                for k in range(STRIKE_HEADINGS):
                    ang = 2 * math.pi * k / STRIKE_HEADINGS
                    x = round(min(max(t.x + r * math.cos(ang), 6.0), w - 6.0), 2)
                    y = round(min(max(t.y + r * math.sin(ang), 6.0), d - 6.0), 2)
                    face = round(bearing(x, y, t.x, t.y), 2)
                    tmp.x, tmp.y, tmp.facing = x, y, face
                    hit = max((self._attack_value(g, tmp, o, True, ctx) for o in foes),
                              default=0.0)
                    if hit <= 0.0:
                        continue
                    # the reactions now, and some of the enemy's next phase (a
                    # gunship may leave before it, a jet may not)
                    later = 0.5 if e.t.is_fixed_wing else 0.25
                    risk = (self._danger(g, tmp, x, y, react=True)
                            + later * self._danger(g, tmp, x, y))
                    v = hit - risk
                    if best is None or v > best[0]:
                        best = (v, x, y, face)
        out = None
        if best is not None and best[0] > self.STRIKE_MIN:
            v, x, y, face = best
            try:
                movement.plan_air(g, tmp, x, y, face)
                out = (3.0 + v, Action("move", (e.label, x, y, "face", face)))
            except IllegalAction:
                out = None
        self._cache[key] = out
        return out

    def _deadline(self, g: SkirmishGame) -> int:
        """From this turn the troops land whatever the LZ (the objective must be taken
        in time)."""
        return max(1, int(g.turn_limit * self.LZ_DEADLINE))

    def _target_pull(self, g: SkirmishGame, o: Element) -> float:
        """Which enemies strike spots are sampled around: the worth of removing them, more
        when pinned (they cannot fire back) or in the open."""
        v = _target_worth(g, o)
        if o.pinned:
            v += 0.5
        if not any(f.props["cover"] != "open" for f in g.terrain.containing(o.x, o.y)):
            v += 0.3
        return v

    def _lz_danger(self, g: SkirmishGame, e: Element, x: float, y: float) -> float:
        tmp = e.copy()
        tmp.off_table, tmp.airborne = False, True
        return self._danger(g, tmp, x, y, react=True)

    def _best_lz(self, g: SkirmishGame, e: Element) -> tuple[float, float] | None:
        key = ("lz", e.id)
        if key in self._cache:
            return self._cache[key]
        lzs = [(f.centroid.x, f.centroid.y) for f in g.terrain.features
               if f.kind == "open_ground" and f.props.get("helo_landing")]
        goals = objectives(g, e)
        if not lzs:
            out = goals[0] if goals else None
        else:
            def cost(p) -> float:
                far = min((math.hypot(gx - p[0], gy - p[1]) for gx, gy in goals), default=0.0)
                return 3.0 * self._lz_danger(g, e, *p) + far / 40.0
            out = min(lzs, key=cost)
        self._cache[key] = out
        return out

    def _lz_ready(self, g: SkirmishGame, e: Element) -> bool:
        """The Pumas land once the LZ is suppressed: no unpinned enemy that could still
        fire at them this phase sees it; from the turn after the middle of the battle
        (the cache must be taken in time) they go in to the least dangerous LZ anyway."""
        lz = self._best_lz(g, e)
        if lz is None:
            return True
        if self._lz_danger(g, e, *lz) < self.LZ_SAFE:
            return True
        if g.turn < self._deadline(g):
            return False
        # past the deadline: still wait while our own strike aircraft can act first
        return not any(o.side == e.side and o.id != e.id and not o.activated
                       and o.t.is_aircraft and (o.ap_dice() + o.at_dice())
                       and not o.t.passenger_capacity
                       and self._air_score(g, o) is not None for o in g.elements)

    # ------------------------------------------------------------ CASEVAC (D73)
    def _casevac_marker(self, g: SkirmishGame, e: Element):
        """The casualty an empty helicopter can reach at an acceptable risk, if any."""
        if "helicopter" not in g.scn.casevac_by or not g.opt("casualty_rules"):
            return None
        if free_slots(g, e) < 1:
            return None
        key = ("casevac", e.id)
        if key in self._cache:
            return self._cache[key]
        tmp = e.copy()
        tmp.off_table = False
        best = None
        for m in g.markers:
            if not m.on_table:
                continue
            tmp.airborne = False
            risk = self._danger(g, tmp, m.x, m.y)
            tmp.airborne = True
            risk += self._danger(g, tmp, m.x, m.y, react=True)
            if landing_ok(g, e, m.x, m.y, e.facing) or risk > self.CASEVAC_SAFE:
                continue
            if best is None or risk < best[0]:
                best = (risk, m)
        out = None if best is None else best[1]
        self._cache[key] = out
        return out

    def _casevac_step(self, g: SkirmishGame, e: Element, acts: list[Action]) -> tuple | None:
        """Fly to the casualty, land on it, pick it up, take off, leave (D73, D64.2)."""
        aboard = any(m.carried_by == e.id and not m.evacuated for m in g.markers)
        touching = [m for m in g.markers if m.on_table and e.ground
                    and marker_contact(g, e, m)]
        if not e.airborne and e.on_table:
            if touching and free_slots(g, e) > 0:
                a = Action("pickup", (e.label, touching[0].label))
                if a in acts:
                    return (5.0, a)
            if aboard or not touching:
                a = _find(acts, "takeoff")
                if a is not None:
                    return (4.0, a)
            return None
        if aboard:
            a = _find(acts, "leave")
            return (4.0, a) if a is not None else None
        m = self._casevac_marker(g, e)
        if m is None:
            if e.on_table:
                a = _find(acts, "leave")
                return (2.0, a) if a is not None else None
            return (-1.0, acts[-1])
        if e.on_table and math.hypot(e.x - m.x, e.y - m.y) < 0.5:
            a = _find(acts, "land")
            return (4.0, a) if a is not None else None
        tmp = e.copy()
        tmp.airborne = True
        try:
            movement.plan_air(g, tmp, round(m.x, 2), round(m.y, 2), round(e.facing, 2))
        except IllegalAction:
            return None
        return (4.0, Action("move", (e.label, round(m.x, 2), round(m.y, 2), "face",
                                     round(e.facing, 2))))


# ---------------------------------------------------------------- helpers

def _has_troops(g: SkirmishGame, e: Element) -> bool:
    return bool(passengers(g, e))


def _search_points(g: SkirmishGame) -> list[tuple[float, float]]:
    return [(c.x, c.y) for fid in g.scn.searchable
            for c in (g.terrain.feature(fid).centroid,)]


def _held_by_enemy(g: SkirmishGame, fid: str) -> bool:
    """Spec 4.2: an Insurgent infantry centre inside the compound stops its search."""
    from shapely.geometry import Point
    poly = g.terrain.feature(fid).poly
    return any(o.side == "insurgents" and o.t.is_infantry and o.on_table
               and poly.covers(Point(o.x, o.y)) for o in g.elements)


__all__ = ["CommanderBot", "escorted", "lone_leader_exposed", "open_and_seen"]
