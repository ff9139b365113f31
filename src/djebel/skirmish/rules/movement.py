"""Movement (spec 1.12-1.13, D19, D53, D61-D63, D69): plans for ground and air moves.

``plan_ground`` is the single judge of a ground move: it measures the path,
stops it at difficult terrain or enemy contact, and refuses impassable
terrain, overlaps and over-long paths. Legal-action candidates are filtered
through it, so every offered move applies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import LineString, Point

from djebel.core.errors import IllegalAction
from djebel.core.memo import Memo
from djebel.skirmish.geometry import (
    Body,
    base_poly,
    base_poly_uncached,
    bearing,
    corners,
    path_length,
    point_along,
    truncate,
)
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

STOP_GAP = 0.05          # cm: how close a stopped base sits to what stopped it


@dataclass
class MovePlan:
    """What a legal move will do: its (possibly shortened) path and consequences."""

    path: list[tuple[float, float]]
    face: float
    exited: str = ""
    contact: bool = False
    breach: list[str] = field(default_factory=list)
    stopped_by: str = ""


def mobility(e: Element) -> str:
    t = e.t
    return "foot" if t.is_infantry else t.mobility


def move_cm(g: SkirmishGame, e: Element) -> float:
    """R126/D61: one move; engine damage makes a vehicle move 10 cm."""
    mv = g.tabs["movement"]
    if e.t.is_infantry:
        return mv["foot_cm"]
    if e.engine_damaged:
        return mv["engine_damaged_cm"]
    return mv["ground_vehicle_cm"]


def _heading(path: list[tuple[float, float]], default: float) -> float:
    for (x0, y0), (x1, y1) in zip(reversed(path[:-1]), reversed(path[1:]), strict=False):
        if math.hypot(x1 - x0, y1 - y0) > 1e-9:
            return bearing(x0, y0, x1, y1)
    return default


def _body_at(e: Element, path, dist: float, face: float | None = None) -> Body:
    """The base at ``dist`` along the path: at the start as it stands, then turned to the
    facing it will end with (D19.2: it may rotate freely while moving), or along the
    direction of travel when no facing is given."""
    x, y, h = point_along(path, dist)
    t = e.t
    turn = (face if face is not None else h) if dist > 0 else e.facing
    return Body(x, y, turn, t.base_w_cm, t.base_d_cm, False)


BOUND_MARGIN = 1e-9     # cm: far above the rounding of a gap, far below any sampling


def first_touch(e: Element, path, poly, thresh: float = STOP_GAP,
                face: float | None = None) -> float | None:
    """Distance along the path at which the base first comes within ``thresh`` of poly.

    Steps adaptively: a base moving d cm gets at most d cm closer to anything, so the
    gap measured at one sample is a safe step to the next (never more than 2 cm, so
    turns at waypoints stay sampled finely).

    The same reasoning spares measures without changing any answer: when the base keeps
    one facing (a ``face`` given, or a single leg), a gap measured at one distance
    bounds the gap at another by the distance between them, and a sample whose gap is
    bounded at least 2 cm beyond ``thresh`` (a full step, no touch), or a bisection
    point the bounds decide, is not measured.
    """
    total = path_length(path)
    steady = face is not None or len(path) == 2       # one facing for every d > 0

    def gap_at(d: float) -> float:
        return base_poly_uncached(_body_at(e, path, d, face)).distance(poly)

    prev = prev_gap = 0.0
    d = 0.0
    low = low_at = None       # a lower bound of the gap at low_at > 0, and where
    while True:
        if steady and low is not None and low - (d - low_at) >= thresh + 2.0 + BOUND_MARGIN:
            gap = low - (d - low_at)                      # at least thresh + 2: not measured
        else:
            gap = gap_at(d)
            if d > 0:
                low, low_at = gap, d
        if gap <= thresh:
            if d == 0.0:
                return 0.0
            lo, hi = prev, d
            lo_gap, hi_gap = prev_gap, gap                # a lower bound, the gap
            for _ in range(16):
                mid = (lo + hi) / 2
                least = lo_gap - (mid - lo) if steady and lo > 0 else -math.inf
                most = hi_gap + (hi - mid) if steady else math.inf
                if least > thresh + BOUND_MARGIN:
                    lo, lo_gap = mid, least
                elif most <= thresh - BOUND_MARGIN:
                    hi, hi_gap = mid, most
                else:
                    g = gap_at(mid)
                    if g <= thresh:
                        hi, hi_gap = mid, g
                    else:
                        lo, lo_gap = mid, g
            return hi
        if d >= total:
            return None
        prev, prev_gap = d, gap
        d = min(total, d + min(2.0, max(0.25, gap - thresh)))


def crossing_exit(e: Element, path, poly, face: float | None = None) -> float | None:
    """D62.2: the distance along the path at which a base that starts on ``poly`` first
    comes clear of it on the far side, touching its far edge; None if it never does.

    Exact on each straight leg: a convex base translated along the leg's direction u
    last meets the part of the feature it is on either where a line through one of
    that part's corners parallel to u leaves the base, or where such a line through a
    corner of the base leaves the feature, so the exit is the largest of those gaps.
    A feature may be in pieces (a canal cut by a footbridge): a piece the base still
    touches where it leaves the others is crossed too, so the exit is clear of them all."""
    run = 0.0
    touch = 1e-7 + STOP_GAP * 2
    for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg <= 1e-12:
            continue
        ux, uy = (x1 - x0) / seg, (y1 - y0) / seg
        t = e.t
        turn = face if face is not None else bearing(x0, y0, x1, y1)
        base = base_poly(Body(x0, y0, turn, t.base_w_cm, t.base_d_cm, False))
        swept = shapely.MultiPolygon([base, shapely.affinity.translate(base, ux * seg,
                                                                       uy * seg)]).convex_hull
        near = poly.intersection(swept)
        pieces = [q for q in getattr(near, "geoms", [near]) if q.geom_type == "Polygon"]
        parts = [q for q in pieces if q.distance(base) <= touch]
        if not parts:
            return run if run > 0 else None
        while True:
            # grown by 1e-7 cm: the sweep of the base's outermost corner is an edge of
            # the clipped part, and a line along an edge meets a polygon unreliably
            part = shapely.unary_union(parts).buffer(1e-7, join_style="mitre")
            far = _last_meeting(base, part, ux, uy, seg)
            there = shapely.affinity.translate(base, ux * max(far, 0.0), uy * max(far, 0.0))
            more = [q for q in pieces if q not in parts and q.distance(there) <= touch]
            if not more:
                break
            parts += more
        if run == 0 and far <= 1e-9:
            return None                     # the base sets off away from the feature
        if far < seg - 1e-9:
            return run + max(0.0, far)
        run += seg
    return None


def _last_meeting(base, part, ux: float, uy: float, seg: float) -> float:
    """How far ``base`` moves along (ux, uy) before it last meets ``part``."""
    reach = seg + 100.0

    def spans(geom, pts: list[tuple[float, float]]) -> list[list[float]]:
        # the lines through every point at once: one array call, not one per point
        if not pts:
            return []
        lines = shapely.linestrings(np.array(
            [((px - ux * reach, py - uy * reach), (px + ux * reach, py + uy * reach))
             for px, py in pts]).reshape(len(pts), 2, 2))
        return [[(cx - px) * ux + (cy - py) * uy for cx, cy in _coords(cut)]
                for (px, py), cut in zip(pts, shapely.intersection(lines, geom), strict=True)]

    best = -math.inf
    grown = base.buffer(1e-7, join_style="mitre")         # robust along the base's edges
    for hits in spans(grown, _coords(part.boundary)):
        if hits:
            best = max(best, -min(hits))
    for hits in spans(part, _coords(base.exterior)):
        if hits:
            best = max(best, max(hits))
    return best


def _coords(geom) -> list[tuple[float, float]]:
    if geom.is_empty:
        return []
    if hasattr(geom, "geoms"):
        return [c for g in geom.geoms for c in _coords(g)]
    return list(geom.coords)


def _exit_edge(g: SkirmishGame, x: float, y: float) -> str:
    w, h = g.terrain.width, g.terrain.depth
    if x >= w - 1e-9:
        return "east"
    if x <= 1e-9:
        return "west"
    if y >= h - 1e-9:
        return "north"
    if y <= 1e-9:
        return "south"
    return ""


# plan_ground's memo: a refusal as (rule, reason), a plan as the 6-tuple of its fields.
# Plain tuples rather than exceptions or MovePlans: a kept exception keeps its traceback
# (every frame and game clone it ran through), and the collector stops tracking tuples
# of plain values, so a full memo does not lengthen full collections.
_PLAN_CACHE: Memo[tuple, tuple] = Memo(100_000)
# the D62 part of a plan: (stop distance or None, what stopped it, D63 breaches)
_TERRAIN_STOPS: Memo[tuple, tuple] = Memo(100_000)


def _reach_box(e: Element, path: list[tuple[float, float]]) -> tuple[float, ...]:
    """A box holding every position of the moving base along ``path``, 1 cm wider:
    nothing outside it can stop, block or be overlapped by the move."""
    t = e.t
    reach = math.hypot(t.base_w_cm, t.base_d_cm) / 2 + 1.0
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    return (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)


def _overlaps(b: tuple[float, ...], box_: tuple[float, ...]) -> bool:
    return not (b[0] > box_[2] or b[2] < box_[0] or b[1] > box_[3] or b[3] < box_[1])


def _ground_spots(g: SkirmishGame) -> list[tuple[int, float, float, float, float]]:
    """(id, x, y, facing, half-diagonal) of every ground element (cached until the
    state changes)."""
    spots = g._cache.get("ground_spots")
    if spots is None:
        spots = [(o.id, o.x, o.y, o.facing, math.hypot(o.t.base_w_cm, o.t.base_d_cm) / 2)
                 for o in g.elements if o.ground]
        g._cache["ground_spots"] = spots
    return spots


def _near_spots(g: SkirmishGame, box_: tuple[float, ...]) -> tuple[tuple, ...]:
    """(id, x, y, facing) of the ground elements whose bases may reach into ``box_``."""
    x0, y0, x1, y1 = box_
    return tuple((i, x, y, f) for i, x, y, f, r in _ground_spots(g)
                 if x - r <= x1 and x + r >= x0 and y - r <= y1 and y + r >= y0)


def plan_ground(g: SkirmishGame, e: Element, pts: list[tuple[float, float]], face: float | None,
                moves: int) -> MovePlan:
    """Judge a ground move of ``moves`` allowances along ``pts`` (waypoints, destination).

    The answer depends only on the mover, the path, the terrain and where the ground
    elements within reach of the path stand, so it is memoised on exactly those
    (legal-action lists ask the same questions again and again, and a move elsewhere
    on the table changes none of the answers)."""
    carrying = any(m.carried_by == e.id and not m.evacuated for m in g.markers)
    box_ = _reach_box(e, [(e.x, e.y), *pts])
    key = (g.terrain.version, g.scn.path, g.opt("road_bonus_requires_road_path"),
           e.id, e.side, e.type, e.x, e.y, e.facing, e.immobilized, e.engine_damaged,
           carrying, tuple(pts), face, moves,
           _near_spots(g, box_))
    hit = _PLAN_CACHE.get(key)
    if hit is None:
        try:
            p = _plan_ground(g, e, pts, face, moves)
            hit = (tuple(p.path), p.face, p.exited, p.contact, tuple(p.breach), p.stopped_by)
        except IllegalAction as exc:
            hit = (exc.rule, exc.reason)
        _PLAN_CACHE.store(key, hit)
    if len(hit) == 2:
        raise IllegalAction(*hit)
    return MovePlan(list(hit[0]), hit[1], hit[2], hit[3], list(hit[4]), hit[5])


def _plan_ground(g: SkirmishGame, e: Element, pts: list[tuple[float, float]], face: float | None,
                 moves: int) -> MovePlan:
    t = e.t
    mob = mobility(e)
    if e.immobilized:
        raise IllegalAction("R99", f"{e.label} is immobilized and cannot move or pivot")
    start = (e.x, e.y)
    path = [start] + [(float(x), float(y)) for x, y in pts]
    length = path_length(path)
    step = move_cm(g, e)
    allow = step * moves
    terrain = g.terrain
    if mob == "wheeled" and length > 1e-9:                 # R127/D61 road bonus
        roads = terrain.roads
        if roads.is_empty:
            on_start = on_end = along = False
        else:
            on_start = roads.covers(Point(start))
            on_end = on_start and roads.covers(Point(path[-1]))
            along = on_end and (not g.opt("road_bonus_requires_road_path")
                                or terrain.roads_eps.covers(LineString(path)))
        if on_start and on_end and along:
            allow += step * g.tabs["movement"]["wheeled_road_bonus_moves"]
    if length > allow + 1e-6:
        raise IllegalAction("R126", f"{e.label} may move {allow:g} cm, the path is "
                            f"{length:.1f} cm")
    w_, d_ = terrain.width, terrain.depth
    exited = ""
    end = path[-1]
    if not (0 < end[0] < w_ and 0 < end[1] < d_):
        edge = _exit_edge(g, min(max(end[0], 0), w_), min(max(end[1], 0), d_))
        if end[0] < -1e-9 or end[0] > w_ + 1e-9 or end[1] < -1e-9 or end[1] > d_ + 1e-9:
            raise IllegalAction("D69", "a ground move must end on the table or on its edge")
        if edge not in g.scn.exit_edges[e.side]:
            raise IllegalAction("D69", f"the {edge or 'table'} edge is not an exit for the "
                                f"{e.side}")
        if t.is_infantry and any(m.carried_by == e.id and not m.evacuated for m in g.markers):
            raise IllegalAction("D73", "infantry carrying a casualty may not leave the table")
        exited = edge
    heading = _heading(path, e.facing)
    moved = length > 1e-9
    stop_at: float | None = None
    stopped_by = ""
    breach: list[str] = []
    half = min(t.base_w_cm, t.base_d_cm) / 2
    start_poly = base_poly(e.body)
    box_ = _reach_box(e, path)
    others = [g.elements[spot[0]] for spot in _near_spots(g, box_)]

    def near(b) -> bool:
        return _overlaps(b, box_)

    turn = face          # D19.2: the base turns to its final facing as it sets off
    swept: list = []     # the region the base sweeps, worked out when first needed

    def reaches(poly) -> bool:
        if not moved:
            return False
        if not swept:
            swept.append(_swept(e, path, turn))
        return swept[0].distance(poly) <= STOP_GAP + 1e-9

    # D62.2 with D19.6: a base within one path-check step (plus the gap a stop leaves) of
    # a feature crossed at the normal rate is touching it, so no move shorter than that
    # step is needed; a full-action crossing (canal) needs the D67 contact
    step_touch = g.tabs["movement"]["path_check_step_cm"] + STOP_GAP
    contact_eps = g.tabs["table"]["contact_eps_cm"]
    if moved:
        # D62: difficult terrain stops the move; a move starting on it may cross. The
        # answer reads only the terrain, the base and the path, so it is memoised apart
        # from the elements near the path (the plan memo's key holds those too)
        tkey = (terrain.version, mob, t.base_w_cm, t.base_d_cm, e.facing, tuple(path), turn,
                step_touch, contact_eps)
        hit_t = _TERRAIN_STOPS.get(tkey)
        if hit_t is None:
            for f, poly in terrain.difficult(mob):
                if not near(f.bounds) or not reaches(poly):   # (poly lies within f's box)
                    continue
                full = f.props["crossing"] == "full_action"
                touching = contact_eps if full else step_touch
                if start_poly.distance(poly) <= touching:
                    if full:
                        d = crossing_exit(e, path, poly, turn)
                        # clear within one step: the base only grazed it turning on the bank
                        if d is not None and d > step_touch and (stop_at is None or d < stop_at):
                            stop_at, stopped_by = d, f"crossed {f.id}"
                    if mob == "tracked" and f.props["breachable"]:
                        breach.append(f.id)                # D63
                    continue
                d = first_touch(e, path, poly, face=turn)
                if d is not None and (stop_at is None or d < stop_at):
                    stop_at, stopped_by = d, f"difficult terrain {f.id}"
            hit_t = _TERRAIN_STOPS.store(tkey, (stop_at, stopped_by, tuple(breach)))
        stop_at, stopped_by, breach = hit_t[0], hit_t[1], list(hit_t[2])
        # D53: contact with an enemy stops the move
        for o in others:
            if o.side == e.side:
                continue
            ob = base_poly(o.body)
            if not reaches(ob):
                continue
            if not t.is_infantry and not o.t.is_infantry:
                raise IllegalAction("R124", f"a vehicle may not move into contact with "
                                    f"{o.label} (no vehicle-against-vehicle close combat)")
            if start_poly.distance(ob) <= g.tabs["table"]["contact_eps_cm"]:
                continue
            d = first_touch(e, path, ob, face=turn)
            if d is not None and (stop_at is None or d < stop_at):
                stop_at, stopped_by = d, f"contact with {o.label}"
    contact = stopped_by.startswith("contact")
    if stop_at is not None and stop_at < length - 1e-9:
        path = truncate(path, stop_at)
        exited = ""
        length = path_length(path)
        moved = length > 1e-9
        # the base was tested in the facing it ends with, so it ends touching what stopped it
        face_final = _heading(path, e.facing) if face is None else face
    else:
        face_final = face if face is not None else (heading if moved else e.facing)
        stopped_by = "" if not contact else stopped_by
    end = path[-1]
    end_body = Body(end[0], end[1], face_final, t.base_w_cm, t.base_d_cm, False)
    end_poly = base_poly(end_body)
    geoms = [end_poly] + ([_corridor(path, half)] if moved else [])
    lo_x, lo_y, hi_x, hi_y = -1e-6, -1e-6, w_ + 1e-6, d_ + 1e-6
    if exited:
        lo_x, lo_y, hi_x, hi_y = _edge_limits(exited, lo_x, lo_y, hi_x, hi_y)
    for geom in geoms:
        b = geom.bounds
        if b[0] < lo_x or b[1] < lo_y or b[2] > hi_x or b[3] > hi_y:
            raise IllegalAction("D19", f"{e.label}'s base would leave the table")
    imp = terrain.impassable(mob)
    for geom in geoms:
        if not imp.is_empty and geom.intersects(imp) and geom.intersection(imp).area > 1e-6:
            raise IllegalAction("R142", f"{e.label} may not enter terrain impassable to "
                                f"{mob} elements")
    for o in others:
        if o.id == e.id:
            continue
        ob = base_poly(o.body)
        for geom in geoms:
            if geom.intersects(ob) and geom.intersection(ob).area > 1e-6:
                raise IllegalAction("D19", f"{e.label}'s base would overlap {o.label}")
    radius = g.tabs["civilians"]["footprint_radius_cm"]
    clear = radius + math.hypot(t.base_w_cm, t.base_d_cm) / 2      # centre to centre
    for cx, cy in g.scn.civilians:
        if math.hypot(cx - end[0], cy - end[1]) >= clear:
            continue
        if end_poly.distance(Point(cx, cy)) < radius - 1e-9:
            raise IllegalAction("D75", f"{e.label} may not end a move on civilians")
    contact = contact and stop_at is not None
    return MovePlan(path, face_final, exited, contact, breach, stopped_by)


def _swept(e: Element, path: list[tuple[float, float]], turn: float | None):
    """A region holding every position of the moving base: on one straight leg exactly
    the hull of the base at both ends (it is convex and translated), else the centre
    line widened by the base's half-diagonal."""
    t = e.t
    if len(path) == 2:
        heading = bearing(*path[0], *path[1])
        f = heading if turn is None else turn
        pts = [c for x, y in path for c in corners(Body(x, y, f, t.base_w_cm, t.base_d_cm, False))]
        return shapely.convex_hull(shapely.multipoints(np.array(pts + corners(e.body))))
    return LineString(path).buffer(math.hypot(t.base_w_cm, t.base_d_cm) / 2 + 1e-6)


def _corridor(path: list[tuple[float, float]], half: float):
    """The strip a base of half-width ``half`` sweeps along the path (flat ends)."""
    if len(path) == 2:
        (x0, y0), (x1, y1) = path
        n = math.hypot(x1 - x0, y1 - y0)
        px, py = -(y1 - y0) / n * half, (x1 - x0) / n * half
        return shapely.polygons(np.array([(x0 + px, y0 + py), (x1 + px, y1 + py),
                                          (x1 - px, y1 - py), (x0 - px, y0 - py)]))
    return LineString(path).buffer(half, cap_style="flat")


def _edge_limits(edge: str, lo_x: float, lo_y: float, hi_x: float, hi_y: float):
    """Table limits relaxed on the edge an element is leaving by (D69)."""
    big = 30.0
    if edge == "east":
        hi_x += big
    elif edge == "west":
        lo_x -= big
    elif edge == "north":
        hi_y += big
    else:
        lo_y -= big
    return lo_x, lo_y, hi_x, hi_y


def plan_air(g: SkirmishGame, e: Element, x: float, y: float, face: float | None) -> MovePlan:
    """R129/D64: an aircraft move goes anywhere on the table, ignoring the ground."""
    if not e.airborne:
        raise IllegalAction("R134", f"{e.label} is landed: it must take off before moving")
    w, d = g.terrain.width, g.terrain.depth
    if not (0 <= x <= w and 0 <= y <= d):
        raise IllegalAction("R129", "an aircraft move ends on the table (use 'leave' to exit)")
    f = face if face is not None else (e.facing if e.off_table else
                                        (bearing(e.x, e.y, x, y) if (e.x, e.y) != (x, y)
                                         else e.facing))
    t = e.t
    body = Body(x, y, f, t.base_w_cm, t.base_d_cm, True)
    for o in g.elements:
        if o.id != e.id and o.on_table and o.airborne and base_poly(o.body).intersection(
                base_poly(body)).area > 1e-6:
            raise IllegalAction("D64", f"{e.label} may not end over {o.label}")
    start = (e.x, e.y) if not e.off_table else (x, y)
    return MovePlan([start, (x, y)], f)


def entry_point(g: SkirmishGame, edge: str, x: float, y: float) -> tuple[float, float, float]:
    """D70: the point of the entry edge nearest (x, y), and the inward facing."""
    w, d = g.terrain.width, g.terrain.depth
    x = min(max(x, 0.0), w)
    y = min(max(y, 0.0), d)
    return {"west": (0.0, y, 0.0), "east": (w, y, 180.0), "south": (x, 0.0, 90.0),
            "north": (x, d, 270.0)}[edge]


def plan_entry(g: SkirmishGame, e: Element, pts: list[tuple[float, float]], face: float | None,
               moves: int) -> tuple[MovePlan, tuple[float, float, float]]:
    """D70: a ground reinforcement's first move, measured from its entry edge."""
    edge = g.entry.get(e.label)
    if not edge:
        raise IllegalAction("D70", f"{e.label} has no entry edge")
    if not pts:
        raise IllegalAction("D70", "an entering element must move onto the table")
    ex, ey, inward = entry_point(g, edge, pts[0][0], pts[0][1])
    tmp = e.copy()
    tmp.off_table = False
    tmp.x, tmp.y, tmp.facing = ex, ey, inward
    return plan_ground(g, tmp, pts, face, moves), (ex, ey, inward)
