"""Legal-action lists: every action kind open now, with a finite set of useful
candidate destinations and targets.

Each candidate goes through the same check the action itself uses (move plans,
attack checks, or a dry run for the rarer orders), so every offered action
applies. ``validate`` still accepts any legal coordinates, not only these.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from shapely.geometry import LineString, Point

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.core.memo import Memo
from djebel.skirmish import orders
from djebel.skirmish.geometry import (
    COVER_LEVELS,
    LEVELS,
    Body,
    _segment_blocked,
    bearing,
    centre_distance,
    in_arc,
    path_length,
)
from djebel.skirmish.rules import aircraft, fire, garnish, movement, reactions
from djebel.skirmish.rules.activation import group_members_ok
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

COVER_KINDS = {"building", "dense_woods", "light_woods", "wall", "sandbag_emplacement",
               "bunker", "orchard", "crop_field", "rocky_ground", "crest"}


class Menu:
    """The legal actions of one decision, worked out part by part as they are asked for.

    A part is a function giving actions of a few known verbs (or of any verb, ``None``);
    the whole list is the parts in order. A bot that asks only for some verbs (``of``)
    gets the same actions, in the same order, as filtering the whole list, without the
    parts it does not need (a move list costs far more than a list of shots)."""

    __slots__ = ("_parts", "_done", "_all")

    def __init__(self, parts: list[tuple[frozenset[str] | None, Callable[[], list[Action]]]]):
        self._parts = parts
        self._done: dict[int, list[Action]] = {}
        self._all: list[Action] | None = None

    @classmethod
    def of_list(cls, acts: list[Action]) -> Menu:
        m = cls([])
        m._all = acts
        return m

    def _part(self, i: int) -> list[Action]:
        hit = self._done.get(i)
        if hit is None:
            hit = self._done[i] = self._parts[i][1]()
        return hit

    def all(self) -> list[Action]:
        """Every legal action, in the order of the parts."""
        if self._all is None:
            self._all = [a for i in range(len(self._parts)) for a in self._part(i)]
        return self._all

    def of(self, *verbs: str) -> list[Action]:
        """The actions with one of ``verbs``, in list order."""
        if self._all is not None:
            return [a for a in self._all if a.verb in verbs]
        return [a for i, (kinds, _) in enumerate(self._parts)
                if kinds is None or not kinds.isdisjoint(verbs)
                for a in self._part(i) if a.verb in verbs]

    def first(self, verb: str) -> Action | None:
        """The first action with ``verb``, if any."""
        found = self.of(verb)
        return found[0] if found else None

    def last(self) -> Action:
        """The last action (every list ends with one that is always legal)."""
        if self._all is not None:
            return self._all[-1]
        for i in range(len(self._parts) - 1, -1, -1):
            part = self._part(i)
            if part:
                return part[-1]
        raise IndexError("no legal action")


def _ready(acts: list[Action]) -> tuple[None, Callable[[], list[Action]]]:
    return None, lambda: acts


def legal_actions(g: SkirmishGame) -> list[Action]:
    return menu(g).all()


def menu(g: SkirmishGame) -> Menu:
    """The legal actions of the decision open now (see ``Menu``)."""
    fr = g.frames[-1]
    k = fr["k"]
    if k == "act":
        return _act_menu(g, fr)
    if k == "react":
        return _react_menu(g, fr)
    if k == "main":
        out = [Action("activate", (e.label,)) for e in g.elements
               if not orders.eligible_to_activate(g, e)]
        out += _groups(g)
        out.append(Action("endphase"))
        return Menu.of_list(out)
    if k == "group":
        return Menu.of_list(_group_actions(g, fr))
    if k == "deploy":
        return Menu.of_list(_deploy(g, fr))
    if k == "ow":
        t = g.elements[fr["t"]]
        out = [Action("owfire", (g.elements[i].label,)) for i in reactions.live_cands(g, fr)
               if reactions.ow_ready(g, g.elements[i], t)]
        return Menu.of_list(out + [Action("wait")])
    if k == "charge":
        t = g.elements[fr["t"]]
        out = []
        for i in reactions.live_cands(g, fr):
            o = g.elements[i]
            out += _reaction_fire(g, o, t, charge=True)
        return Menu.of_list(out + [Action("pass")])
    raise AssertionError(k)


def _r(x: float) -> float:
    return round(x, 2)


def nearest_enemy(g: SkirmishGame, e: Element) -> Element | None:
    foes = [o for o in g.elements if o.side != e.side and o.on_table]
    if not foes:
        return None
    return min(foes, key=lambda o: (centre_distance(o.body, e.body), o.id))


def _points_of_interest(g: SkirmishGame, e: Element) -> list[tuple[float, float]]:
    """Objectives, casualties, exits and cover worth moving towards."""
    pts = objectives(g, e)
    best = None
    here = {f.id for f in g.terrain.containing(e.x, e.y)}
    for f in g.terrain.features:
        if f.kind not in COVER_KINDS or f.id in here:
            continue
        c = f.centroid
        d = math.hypot(c.x - e.x, c.y - e.y)
        if best is None or d < best[0]:
            best = (d, (c.x, c.y))
    if best:
        pts.append(best[1])
    return pts


def objectives(g: SkirmishGame, e: Element) -> list[tuple[float, float]]:
    """Points the scenario rewards reaching: objectives, exits, casualties, CASEVAC."""
    pts: list[tuple[float, float]] = []
    scn = g.scn
    if e.side == "french":
        for fid in scn.searchable:
            if fid not in g.searched:
                c = g.terrain.feature(fid).centroid
                pts.append((c.x, c.y))
        for v in scn.victory:
            if v["hook"] == "objective_held" and v["side"] == e.side:
                c = g.terrain.feature(v["feature"]).centroid
                pts.append((c.x, c.y))
            if v["hook"] == "exited" and v["side"] == e.side and not e.t.is_infantry:
                edge = v.get("edge", "east")
                pts.append(_edge_point(g, e, edge))
        carrying = any(m.carried_by == e.id and not m.evacuated for m in g.markers)
        if carrying:
            for z in scn.casevac_zones:
                c = z.centroid
                pts.append((c.x, c.y))
            if not e.t.is_infantry and scn.exit_edges.get("french"):
                pts.append(_edge_point(g, e, scn.exit_edges["french"][-1]))
        else:
            ms = [m for m in g.markers if m.on_table]
            if ms:
                m = min(ms, key=lambda m: math.hypot(m.x - e.x, m.y - e.y))
                pts.append((m.x, m.y))
    return pts


def _edge_point(g: SkirmishGame, e: Element, edge: str) -> tuple[float, float]:
    w, d = g.terrain.width, g.terrain.depth
    return {"east": (w, e.y), "west": (0.0, e.y), "north": (e.x, d), "south": (e.x, 0.0)}[edge]


def move_candidates(g: SkirmishGame, e: Element, moves: int, verb: str,
                    limit: int = 6, cover: bool = True) -> list[Action]:
    """A few legal moves: towards/away from the nearest enemy, objectives, cover;
    with ``cover`` also the spots of :func:`cover_candidates`."""
    if e.t.is_aircraft:
        return _air_moves(g, e, verb)
    if e.immobilized or not e.ground:
        return []
    step = movement.move_cm(g, e) * moves
    if movement.mobility(e) == "wheeled":
        step += movement.move_cm(g, e)
    foe = nearest_enemy(g, e)
    targets: list[tuple[float, float, bool]] = []
    if foe is not None:
        targets.append((foe.x, foe.y, True))
        away = math.radians(bearing(foe.x, foe.y, e.x, e.y))
        targets.append((e.x + math.cos(away) * step, e.y + math.sin(away) * step, False))
    for x, y in _points_of_interest(g, e):
        targets.append((x, y, False))
    out: list[Action] = []
    seen = set()
    for tx, ty, _toward_foe in targets:
        dist = math.hypot(tx - e.x, ty - e.y)
        if dist < 0.5:
            continue
        ux, uy = (tx - e.x) / dist, (ty - e.y) / dist
        spots = []
        for frac in (1.0, 0.5, 0.25):
            go = min(step, dist) * frac
            x, y = _r(e.x + ux * go), _r(e.y + uy * go)
            spots.append((x, y, _face_after(g, e, x, y, foe)))
        out += _first_useful(g, e, verb, moves, spots, seen)
        if len(out) >= limit:
            break
    if cover and foe is not None:
        out += cover_candidates(g, e, moves, verb, step, seen)
    if foe is not None and not in_arc(e.body, foe.body):
        face = _r(bearing(e.x, e.y, foe.x, foe.y))
        try:
            movement.plan_ground(g, e, [(_r(e.x), _r(e.y))], face, moves)
            out.append(Action(verb, (e.label, _r(e.x), _r(e.y), "face", face)))
        except IllegalAction:
            pass
    return out


def useful_move(g: SkirmishGame, e: Element, verb: str, x: float, y: float, face: float,
                moves: int) -> Action | None:
    """The move to (x, y) turning to ``face`` (else keeping the direction of travel), if
    the move rules let it cover at least one path-check step (D19.6): a move that a stop
    at terrain or contact would cut shorter is not worth offering."""
    least = g.tabs["movement"]["path_check_step_cm"]
    for turn in (face, None):
        try:
            plan = movement.plan_ground(g, e, [(x, y)], turn, moves)
        except IllegalAction:
            continue
        if path_length(plan.path) >= least:
            tail = ("face", turn) if turn is not None else ()
            return Action(verb, (e.label, x, y, *tail))
    return None


def _first_useful(g: SkirmishGame, e: Element, verb: str, moves: int,
                  spots: list[tuple[float, float, float]], seen: set) -> list[Action]:
    """The first of ``spots`` (x, y, face), in order, worth a move: none once a spot
    already offered comes up (the rest lead the same way)."""
    for x, y, face in spots:
        if (x, y) in seen:
            break
        act = useful_move(g, e, verb, x, y, face, moves)
        if act is not None:
            seen.add((x, y))
            return [act]
    return []


COVER_FOES = 4          # nearest known enemies a cover spot is judged against
COVER_DIRS = 8          # sampled headings around the element


_SITUATIONS: Memo[tuple, tuple | None] = Memo(200_000)


def _situation(g: SkirmishGame, firer: Body, target: Body, kind: str) -> tuple | None:
    """A quick reading of D33/D34 along the centre line only: (concealment, cover) of
    ``target`` seen from ``firer``, or None when terrain blocks the centre line.
    For ranking candidates only; the rules use ``terrain_los`` and ``fire_situation``.

    Memoised on all it reads (the terrain version, both centres, the target's larger
    side, the kind): cover spots and enemies stay put over many lists."""
    key = (g.terrain.version, firer.x, firer.y, target.x, target.y,
           max(target.w, target.d), kind)
    try:
        return _SITUATIONS[key]
    except KeyError:
        pass
    return _SITUATIONS.store(key, _situation_uncached(g, firer, target, kind))


def _situation_uncached(g: SkirmishGame, firer: Body, target: Body, kind: str) -> tuple | None:
    if _segment_blocked(g.terrain, (firer.x, firer.y), (target.x, target.y), False):
        return None
    conc = cover = 0
    own = g.terrain.containing(target.x, target.y)
    for f in own:
        conc = max(conc, f.conc(kind, False))
        cover = max(cover, COVER_LEVELS[f.props["cover"]])
    mine = g.terrain.containing(firer.x, firer.y)
    lo_x, hi_x = sorted((firer.x, target.x))
    lo_y, hi_y = sorted((firer.y, target.y))
    line = None                            # made only for a feature whose box it meets
    for f in g.terrain.features:
        b = f.bounds
        if b[0] > hi_x or b[2] < lo_x or b[1] > hi_y or b[3] < lo_y or f in own or f in mine:
            continue
        if line is None:
            line = LineString([(firer.x, firer.y), (target.x, target.y)])
        if not f.poly.intersects(line):
            continue
        props = f.props
        if props["linear"]:
            if f.poly.distance(Point(target.x, target.y)) <= props["protects_within_cm"] + \
                    max(target.w, target.d) / 2:
                conc = max(conc, LEVELS[props["concealment"][kind]])
                cover = max(cover, COVER_LEVELS[props["cover"]])
        else:
            conc = max(conc, LEVELS[props["intervening"][kind]])
    return conc, cover if kind == "infantry" else 0


def exposure(g: SkirmishGame, e: Element, x: float, y: float, foes: list[Element],
             face: float | None = None) -> tuple[float, int]:
    """How exposed ``e`` would be at (x, y): the summed chance that one die of each
    enemy that sees the spot hits and is not saved (to-hit by concealment, the save
    by cover, as R62/R68 read them), and how many of those enemies it would see."""
    body = Body(x, y, e.facing if face is None else face, e.t.base_w_cm, e.t.base_d_cm,
                e.airborne)
    kind = "infantry" if e.t.is_infantry else "vehicle"
    th = g.tabs["to_hit"]
    total, seen = 0.0, 0
    col = g.tabs["ap_save"]["french" if e.side == "french" else "insurgent"]
    for o in foes:
        sit = _situation(g, o.body, body, kind)
        if sit is None:
            continue
        seen += 1
        conc, cov = sit
        need = (th["open"], th["obscured"], th["heavy_obscured"])[conc]
        p_hit = (7 - need) / 6
        if e.t.is_infantry:
            save = col[("open", "light", "heavy")[cov]]
            p_fail = 1.0 if save == 0 else (save - 1) / 6
        else:
            p_fail = 0.5
        total += p_hit * p_fail
    return total, seen


def _cover_spots(g: SkirmishGame, e: Element, step: float) -> list[tuple[float, float]]:
    """Sampled spots within ``step``: a ring of headings at two distances, and the
    nearest inside point of every feature giving cover or concealment in reach."""
    pts = []
    for i in range(COVER_DIRS):
        a = 2 * math.pi * i / COVER_DIRS
        for frac in (1.0, 0.5):
            pts.append((e.x + math.cos(a) * step * frac, e.y + math.sin(a) * step * frac))
    kind = "infantry" if e.t.is_infantry else "vehicle"
    here = g.terrain.containing(e.x, e.y)
    for f in g.terrain.features:
        props = f.props
        if f in here or (props["cover"] == "open" and f.conc(kind, False) == 0
                         and not props["linear"]):
            continue
        b = f.bounds
        if b[0] > e.x + step or b[2] < e.x - step or b[1] > e.y + step or b[3] < e.y - step:
            continue
        c = f.centroid
        if props["linear"]:
            continue                                      # walls: the ring finds their lee
        d = math.hypot(c.x - e.x, c.y - e.y)
        if d < 0.5:
            continue
        # the nearest point of the feature along the line to its centre, 1.5 cm inside
        line = LineString([(e.x, e.y), (c.x, c.y)])
        hit = line.intersection(f.poly.exterior)
        if hit.is_empty:
            continue
        ip = min(getattr(hit, "geoms", [hit]), key=lambda p: p.distance(line.interpolate(0)))
        ux, uy = (c.x - e.x) / d, (c.y - e.y) / d
        inset = min(1.5 + max(e.t.base_w_cm, e.t.base_d_cm) / 2, max(0.0, d - ip.distance(
            line.interpolate(0))))
        px, py = ip.x + ux * inset, ip.y + uy * inset
        if math.hypot(px - e.x, py - e.y) <= step:
            pts.append((px, py))
    w, dep = g.terrain.width, g.terrain.depth
    return [(_r(x), _r(y)) for x, y in pts if 1.0 <= x <= w - 1.0 and 1.0 <= y <= dep - 1.0]


def cover_candidates(g: SkirmishGame, e: Element, moves: int, verb: str, step: float,
                     seen: set | None = None) -> list[Action]:
    """Up to three legal moves to spots that shelter ``e`` from the enemies it knows of:
    the least exposed spot (in cover, behind walls or out of sight), the least exposed
    spot from which an enemy can be seen (a firing position), and the least exposed
    spot that brings it nearer to its objective or the nearest enemy."""
    if e.t.is_aircraft or e.immobilized or not e.ground:
        return []
    seen = set() if seen is None else seen
    foes = sorted((o for o in g.elements if o.side != e.side and o.on_table),
                  key=lambda o: (centre_distance(o.body, e.body), o.id))[:COVER_FOES]
    if not foes:
        return []
    foe = foes[0]
    here, _ = exposure(g, e, e.x, e.y, foes)
    goals = objectives(g, e) or [(foe.x, foe.y)]

    def gdist(x: float, y: float) -> float:
        return min(math.hypot(gx - x, gy - y) for gx, gy in goals)

    now = gdist(e.x, e.y)
    rated = []
    for x, y in _cover_spots(g, e, step):
        if (x, y) in seen:
            continue
        face = float(round(bearing(x, y, foe.x, foe.y)))
        exp, sees = exposure(g, e, x, y, foes, face)
        rated.append((exp, sees, gdist(x, y), x, y, face))
    picks = [
        sorted((r for r in rated if r[0] < here - 1e-9), key=lambda r: (r[0], r[2])),
        sorted((r for r in rated if r[1] > 0), key=lambda r: (r[0] / r[1], r[2])),
        sorted((r for r in rated if r[2] < now - 0.25 * step),
               key=lambda r: (r[0] + 0.02 * r[2], r[2])),
    ]
    out: list[Action] = []
    for ranked in picks:
        out += _first_useful(g, e, verb, moves, [r[3:] for r in ranked[:6]], seen)
    return out


def entry_candidates(g: SkirmishGame, e: Element) -> list[Action]:
    """D70: moves onto the table from the element's entry edge."""
    edge = g.entry.get(e.label)
    if not edge:
        return []
    ex, ey, inward = movement.entry_point(g, edge, e.x, e.y)
    step = movement.move_cm(g, e)
    out = []
    tmp = e.copy()
    tmp.x, tmp.y, tmp.facing = ex, ey, inward
    foe = nearest_enemy(g, tmp)
    headings = [inward]
    if foe is not None:
        headings.append(bearing(ex, ey, foe.x, foe.y))
    for verb, moves in (("move", 1), ("sprint", 2)):
        for h in headings:
            rad = math.radians(h)
            x, y = _r(ex + math.cos(rad) * step * moves), _r(ey + math.sin(rad) * step * moves)
            face = _face_after(g, tmp, x, y, foe)
            try:
                movement.plan_entry(g, e, [(x, y)], face, moves)
            except IllegalAction:
                continue
            out.append(Action(verb, (e.label, x, y, "face", face)))
    return out


def _face_after(g: SkirmishGame, e: Element, x: float, y: float, foe: Element | None) -> float:
    if foe is None:
        return _r(e.facing)
    return _r(bearing(x, y, foe.x, foe.y))


def _air_moves(g: SkirmishGame, e: Element, verb: str) -> list[Action]:
    if verb != "move" or not (e.airborne or e.off_table):
        return []
    pts: list[tuple[float, float]] = []
    foes = sorted((o for o in g.elements if o.side != e.side and o.on_table),
                  key=lambda o: (centre_distance(o.body, e.body) if not e.off_table else 0,
                                 o.id))
    home = g.scn.home_edges[e.side]
    off = {"west": (-1, 0), "east": (1, 0), "north": (0, 1), "south": (0, -1)}[home]
    for o in foes[:2]:
        pts.append((o.x + off[0] * 15, o.y + off[1] * 15))
    if e.t.is_helicopter:
        for f in g.terrain.features:
            if f.kind == "open_ground" and f.props.get("helo_landing"):
                c = f.centroid
                pts.append((c.x, c.y))
    pts += _points_of_interest(g, e)[:1]
    out = []
    w, d = g.terrain.width, g.terrain.depth
    seen = set()
    for x, y in pts:
        x, y = _r(min(max(x, 6.0), w - 6.0)), _r(min(max(y, 6.0), d - 6.0))
        if (x, y) in seen:
            continue
        seen.add((x, y))
        foe = min(foes, key=lambda o: math.hypot(o.x - x, o.y - y)) if foes else None
        face = _r(bearing(x, y, foe.x, foe.y)) if foe else _r(e.facing)
        tmp = e.copy()
        tmp.airborne = True
        try:
            movement.plan_air(g, tmp, x, y, face)
        except IllegalAction:
            continue
        out.append(Action("move", (e.label, x, y, "face", face)))
    return out


def fire_candidates(g: SkirmishGame, e: Element, verb: str, limit: int = 6) -> list[Action]:
    """Every legal single-target fire (nearest first), a combined AP+AT fire, AT-4 volleys."""
    if not e.on_table:
        return []
    foes = sorted((o for o in g.elements if o.side != e.side and o.on_table),
                  key=lambda o: (centre_distance(o.body, e.body), o.id))
    ap_ok, at_ok, law_ok = [], [], []
    for o in foes:
        try:
            fire.check_attack(g, e, o)
        except IllegalAction:
            pass
        else:
            (ap_ok if fire.category(o) == "ap" else at_ok).append(o)
        if fire.category(o) == "at" and e.t.one_shot_uses and not e.one_shot_used:
            try:
                fire.check_attack(g, e, o, law=True)
                law_ok.append(o)
            except IllegalAction:
                pass
    out = [Action(verb, (e.label, o.label)) for o in (ap_ok + at_ok)][:limit]
    out += [Action(verb, (e.label, o.label, "law")) for o in law_ok[:2]]
    if ap_ok and at_ok and not e.t.choose_ap_or_at_per_action:
        out.append(Action(verb, (e.label, ap_ok[0].label, at_ok[0].label)))
    return out


def _dry(g: SkirmishGame, action: Action) -> bool:
    try:
        g.validate(action)
    except IllegalAction:
        return False
    return True


def _deploy(g: SkirmishGame, fr: dict) -> list[Action]:
    """Spec 4: a few other legal set-up spots per element, Overwatch toggles, 'ready'."""
    out: list[Action] = []
    side = fr["side"]
    for e in g.elements:
        fe = g.zones.get(e.label)
        if e.side != side or fe is None or not e.on_table:
            continue
        spots = [(e.x + dx, e.y + dy) for dx, dy in ((8, 0), (-8, 0), (0, 8), (0, -8))]
        spots += [(p.x, p.y) for z in fe.zone for p in (z.representative_point(),)]
        found = 0
        for x, y in spots:
            x, y = _r(x), _r(y)
            try:
                orders.check_place(g, e, x, y, e.facing)
            except IllegalAction:
                continue
            out.append(Action("place", (e.label, x, y, "face", _r(e.facing))))
            found += 1
            if found == 2:
                break
        if side in g.scn.may_start_overwatch and not e.t.is_fixed_wing:
            out.append(Action("overwatch", (e.label,)))
    return out + [Action("ready")]


def _groups(g: SkirmishGame) -> list[Action]:
    """D7: one candidate group per eligible leader: every element that may join it."""
    out = []
    for leader in g.elements:
        if leader.type != "leader" or leader.side != g.phasing:
            continue
        if orders.eligible_to_activate(g, leader) or not leader.on_table or leader.pinned \
                or leader.airborne or g.in_fight(leader.id):
            continue
        members = [m.label for m in g.elements
                   if abs(m.x - leader.x) < 20 and abs(m.y - leader.y) < 20
                   and not group_members_ok(g, leader, m)]
        if members:
            out.append(Action("group", (leader.label, *members)))
    return out


def _group_actions(g: SkirmishGame, fr: dict) -> list[Action]:
    leader = g.elements[fr["l"]]
    out: list[Action] = []
    for i in fr["m"]:
        e = g.elements[i]
        if e.removed:
            continue
        free = i in fr["free"]
        credit = fr["credits"].get(str(i), 0)
        if e.pinned:
            if credit > 0:
                out.append(Action("unpin", (e.label,)))
            continue
        if free or credit > 0:
            fake = {"free": free, "credits": 0 if free else credit, "sub": ""}
            out += [a for a in _act(g, fake, e) if a.verb not in ("end", "roll")]
    if not any(v > 0 for v in fr["credits"].values()):
        out.append(Action("roll", (leader.label,)))
    out.append(Action("end", (leader.label,)))
    return out


def _act(g: SkirmishGame, fr: dict, e: Element | None = None) -> list[Action]:
    return _act_menu(g, fr, e).all()


MISC_VERBS = frozenset({"unload", "land", "takeoff", "load", "stow", "rally", "pickup",
                        "setdown"})


def _act_menu(g: SkirmishGame, fr: dict, e: Element | None = None) -> Menu:
    e = e if e is not None else g.elements[fr["e"]]
    if fr["sub"] == "fire":
        return Menu([(frozenset({"fire"}), lambda: fire_candidates(g, e, "fire")),
                     (frozenset({"hold"}), lambda: [Action("hold", (e.label,))])])
    if fr["sub"] == "move":
        return Menu([(frozenset({"move"}), lambda: move_candidates(g, e, 1, "move")),
                     (frozenset({"hold"}), lambda: [Action("hold", (e.label,))])])
    out = [Action("end", (e.label,))]
    if not fr["free"] and fr["credits"] <= 0:
        return Menu.of_list([Action("roll", (e.label,))] + out)
    if g.in_fight(e.id):
        return Menu.of_list([Action("cc", (e.label,))] + out)
    if e.embarked_in >= 0:
        a = Action("dismount", (e.label,))
        return Menu.of_list(([a] if _dry(g, a) else []) + out)
    if e.off_table:
        if e.t.is_aircraft:
            return Menu.of_list(move_candidates(g, e, 1, "move") + out)
        return Menu.of_list(entry_candidates(g, e) + out)
    fixed = e.t.is_fixed_wing
    parts = [(frozenset({"shoot"}), lambda: fire_candidates(g, e, "shoot")),
             (frozenset({"move"}), lambda: move_candidates(g, e, 1, "move"))]
    if not e.t.is_aircraft:
        parts.append((frozenset({"sprint"}), lambda: move_candidates(g, e, 2, "sprint", limit=3)))
    parts.append((frozenset({"fire"}), lambda: fire_candidates(g, e, "fire", limit=3)))
    if e.t.is_aircraft and e.airborne:
        parts.append(_ready([Action("leave", (e.label,))]))
    if not fixed:
        parts.append(_ready([Action("overwatch", (e.label,))]))
        parts.append((MISC_VERBS, lambda: _misc(g, e, fr)))
    if fr["free"] and not fr.get("grp"):
        # D2: give the free action up
        parts.append((frozenset({"roll"}),
                      lambda: [Action("roll", (e.label,))] if _could_rally(g, e) else []))
    parts.append(_ready(out))
    return Menu(parts)


def _could_rally(g: SkirmishGame, e: Element) -> bool:
    """R51: a leader in contact with a pinned friend (a rally needs a rolled action)."""
    return e.type == "leader" and any(o.side == e.side and o.pinned and o.on_table
                                 and orders.contact(g, e, o) for o in g.elements)


def _misc(g: SkirmishGame, e: Element, fr: dict) -> list[Action]:
    """Load/unload, casualties, rally, take-off and landing, each dry-run checked."""
    tries: list[Action] = []
    eps = g.tabs["table"]["contact_eps_cm"]
    if e.t.passenger_capacity and aircraft.passengers(g, e):
        tries.append(Action("unload", (e.label,)))
    if e.t.is_helicopter:
        tries.append(Action("land" if e.airborne else "takeoff", (e.label,)))
    near = [o for o in g.elements if o.id != e.id and o.ground and abs(o.x - e.x) < 15
            and abs(o.y - e.y) < 15]
    if e.t.is_infantry:
        for o in near:
            if o.side == e.side and o.t.passenger_capacity and orders.contact(g, e, o):
                tries.append(Action("load", (e.label, o.label)))
                if any(m.carried_by == e.id and not m.evacuated for m in g.markers):
                    tries.append(Action("stow", (e.label, o.label)))
    if e.type == "leader" and fr["credits"] > 0:
        for o in near:
            if o.side == e.side and o.pinned and orders.contact(g, e, o):
                tries.append(Action("rally", (e.label, o.label)))
    if e.side == "french" and g.opt("casualty_rules"):
        for m in g.markers:
            if m.on_table and abs(m.x - e.x) < 15 and abs(m.y - e.y) < 15 and \
                    garnish.marker_contact(g, e, m):
                tries.append(Action("pickup", (e.label, m.label)))
        if any(m.carried_by == e.id and not m.evacuated for m in g.markers) and \
                garnish.in_casevac_zone(g, e):
            tries.append(Action("setdown", (e.label,)))
    del eps
    return [a for a in tries if _dry(g, a)]


def _reaction_fire(g: SkirmishGame, o: Element, t: Element, charge: bool = False) -> list[Action]:
    out = []
    try:
        fire.check_attack(g, o, t, reaction_target=t.id, charge=charge)
        out.append(Action("shoot", (o.label, t.label)))
    except IllegalAction:
        if not o.immobilized and not in_arc(o.body, t.body):
            old = o.facing
            try:
                o.facing = reactions.check_pivot(g, o, t)
                fire.check_attack(g, o, t, reaction_target=t.id, charge=charge)
                out.append(Action("turnshoot", (o.label, t.label)))
            except IllegalAction:
                pass
            finally:
                o.facing = old
                g.dirty()
    return out


def _react(g: SkirmishGame, fr: dict) -> list[Action]:
    return _react_menu(g, fr).all()


def _react_menu(g: SkirmishGame, fr: dict) -> Menu:
    t = g.elements[fr["t"]]
    parts: list[tuple[frozenset[str] | None, Callable[[], list[Action]]]] = []
    for i in reactions.react_candidates(g, fr):
        o = g.elements[i]
        parts.append((frozenset({"shoot", "turnshoot"}),
                      lambda o=o: _reaction_fire(g, o, t)))
        if not o.overwatch:
            parts.append(_ready([Action("overwatch", (o.label,))]))
        if not o.t.is_aircraft:
            parts.append((frozenset({"sprint"}), lambda o=o: move_candidates(
                g, o, 2, "sprint", limit=1, cover=False)))
        parts.append((frozenset({"unload", "rally"}), lambda o=o: _reaction_tries(g, o)))
    parts.append(_ready([Action("pass")]))
    return Menu(parts)


def _reaction_tries(g: SkirmishGame, o: Element) -> list[Action]:
    """D12: the rarer reactions, each dry-run checked."""
    tries = []
    if o.t.passenger_capacity and aircraft.passengers(g, o):
        tries.append(Action("unload", (o.label,)))
    if o.type == "leader":
        for p in g.elements:
            if p.side == o.side and p.pinned and p.on_table and p.id != o.id and \
                    abs(p.x - o.x) < 15 and abs(p.y - o.y) < 15 and orders.contact(g, o, p):
                tries.append(Action("rally", (o.label, p.label)))
    return [a for a in tries if _dry(g, a)]
