"""Table geometry: bases, terrain features, line of sight, arcs and distances.

Everything is computed with shapely on the continuous table (cm, origin at the
south-west corner, angles counter-clockwise from east). Terrain is immutable
and shared between game clones; line-of-sight answers are memoised because
the same pairs of positions are asked about again and again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import count
from typing import NamedTuple

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union
from shapely.strtree import STRtree

from djebel.core.memo import Memo

LEVELS = {"open": 0, "obscured": 1, "heavy_obscured": 2}
COVER_LEVELS = {"open": 0, "light": 1, "heavy": 2}
MOVE_LEVELS = ("open", "difficult", "impassable")
OVERRIDES = {"bridge", "footbridge", "ford"}      # replace the water under them (App. B)
WATER = {"canal", "river", "ford"}
EPS = 1e-7
_versions = count(1)


class Body(NamedTuple):
    """What geometry needs of an element: position, facing, base and altitude."""

    x: float
    y: float
    facing: float
    w: float
    d: float
    air: bool = False


@dataclass(eq=False)
class Feature:
    """One terrain feature: an id, a library kind, its values and its polygon."""

    id: str
    kind: str
    poly: Polygon
    props: dict

    def __post_init__(self) -> None:
        shapely.prepare(self.poly)
        self.bounds = self.poly.bounds
        hull = self.poly.convex_hull
        self.convex = (self.poly.geom_type == "Polygon" and not self.poly.interiors
                       and abs(hull.area - self.poly.area) < 1e-9)
        pts = list(shapely.geometry.polygon.orient(self.poly, 1.0).exterior.coords)[:-1] \
            if self.convex else []
        self.verts = [(float(x), float(y)) for x, y in pts]
        # each counter-clockwise edge: its start a, its direction b - a, its inward normal
        self.edges = [(ax, ay, bx - ax, by - ay, -(by - ay), bx - ax)
                      for (ax, ay), (bx, by) in zip(self.verts, self.verts[1:] + self.verts[:1],
                                                    strict=True)]
        self.blocks = bool(self.props["blocks_los"] or self.props["hill"])
        self.centroid = self.poly.centroid        # made once: the bots aim at it often

    def clip(self, p: tuple, q: tuple) -> tuple[float, float] | None:
        """Cyrus-Beck: the parameter interval of segment p-q inside this convex polygon."""
        t0, t1 = 0.0, 1.0
        px, py = p
        dx, dy = q[0] - px, q[1] - py
        for ax, ay, _, _, nx, ny in self.edges:
            num = nx * (px - ax) + ny * (py - ay)
            den = nx * dx + ny * dy
            if abs(den) < 1e-15:
                if num < -1e-12:
                    return None
                continue
            t = -num / den
            if den > 0:
                if t > t0:
                    t0 = t
            elif t < t1:
                t1 = t
            if t0 > t1:
                return None
        return (t0, t1)

    def covers_point(self, x: float, y: float) -> bool:
        return not any(ex * (y - ay) - ey * (x - ax) < -1e-12
                       for ax, ay, ex, ey, _, _ in self.edges)

    def conc(self, target_kind: str, air: bool) -> int:
        table = self.props["air_concealment" if air else "concealment"]
        return LEVELS[table[target_kind]]

    def move(self, mobility: str) -> str:
        return self.props["move"][mobility]


@dataclass(eq=False)
class Terrain:
    """The table and its features, with indexes built once per terrain version."""

    width: float
    depth: float
    features: tuple[Feature, ...]
    version: int = field(default_factory=lambda: next(_versions))

    def __post_init__(self) -> None:
        self.tree = STRtree([f.poly for f in self.features])
        self._by_id: dict[str, Feature] = {}
        for f in self.features:
            self._by_id.setdefault(f.id, f)
        self.blockers = [f for f in self.features if f.blocks]
        self.table = box(0, 0, self.width, self.depth)
        overrides = [f.poly for f in self.features if f.kind in OVERRIDES]
        self._impassable: dict[str, object] = {}
        self._difficult: dict[str, list[tuple[Feature, object]]] = {}
        for mob in ("foot", "wheeled", "tracked"):
            imp, dif = [], []
            for f in self.features:
                level = f.move(mob)
                poly = f.poly
                if f.kind in WATER and overrides and f.kind not in OVERRIDES:
                    poly = poly.difference(unary_union(overrides))
                if f.kind == "ford" and f.kind in WATER:
                    over = [o.poly for o in self.features if o.kind in ("bridge", "footbridge")]
                    if over:
                        poly = poly.difference(unary_union(over))
                if poly.is_empty:
                    continue
                if level == "impassable":
                    imp.append(poly)
                elif level == "difficult":
                    shapely.prepare(poly)
                    dif.append((f, poly))
            geom = unary_union(imp) if imp else Polygon()
            shapely.prepare(geom)
            self._impassable[mob] = geom
            self._difficult[mob] = dif
        roads = [f.poly for f in self.features if f.props.get("road")]
        self.roads = unary_union(roads) if roads else Polygon()
        shapely.prepare(self.roads)
        self.roads_eps = self.roads.buffer(1e-6) if roads else Polygon()
        shapely.prepare(self.roads_eps)
        nolanding = [f.poly for f in self.features if not f.props.get("helo_landing", True)]
        self.no_landing = unary_union(nolanding) if nolanding else Polygon()
        shapely.prepare(self.no_landing)

    def impassable(self, mobility: str):
        return self._impassable[mobility]

    def difficult(self, mobility: str) -> list[tuple[Feature, object]]:
        return self._difficult[mobility]

    def feature(self, fid: str) -> Feature:
        return self._by_id[fid]

    def containing(self, x: float, y: float) -> list[Feature]:
        """Features whose polygon contains the point (D34 'own feature')."""
        out = []
        for f in self.features:
            b = f.bounds
            if x < b[0] or x > b[2] or y < b[1] or y > b[3]:
                continue
            if f.convex:
                if f.covers_point(x, y):
                    out.append(f)
            elif f.poly.intersects(Point(x, y)):
                out.append(f)
        return out

    def with_feature(self, feature: Feature) -> Terrain:
        """A copy with one more feature (a wreck, D52)."""
        return Terrain(self.width, self.depth, self.features + (feature,))

    def with_breach(self, fid: str, hole) -> Terrain:
        """A copy with part of a breachable feature removed (D63)."""
        feats = []
        for f in self.features:
            if f.id == fid:
                poly = f.poly.difference(hole)
                if poly.is_empty:
                    continue
                if poly.geom_type != "Polygon":
                    for k, part in enumerate(getattr(poly, "geoms", [])):
                        if part.geom_type == "Polygon" and part.area > 1e-6:
                            feats.append(Feature(f"{f.id}" if k == 0 else f"{f.id}~{k}",
                                                 f.kind, part, f.props))
                    continue
                feats.append(Feature(f.id, f.kind, poly, f.props))
            else:
                feats.append(f)
        return Terrain(self.width, self.depth, tuple(feats))


# ---------------------------------------------------------------- bases

def corners(b: Body) -> list[tuple[float, float]]:
    """The four corners of a base: depth along the facing, width across it (D67)."""
    rad = math.radians(b.facing)
    fx, fy = math.cos(rad), math.sin(rad)
    px, py = -fy, fx
    hd, hw = b.d / 2, b.w / 2
    return [
        (b.x + fx * hd + px * hw, b.y + fy * hd + py * hw),
        (b.x - fx * hd + px * hw, b.y - fy * hd + py * hw),
        (b.x - fx * hd - px * hw, b.y - fy * hd - py * hw),
        (b.x + fx * hd - px * hw, b.y + fy * hd - py * hw),
    ]


_POLY_CACHE: Memo[tuple, Polygon] = Memo(50_000)


def base_poly(b: Body) -> Polygon:
    """The base as a polygon, memoised (bases stand still over many questions)."""
    key = (b.x, b.y, b.facing, b.w, b.d)
    poly = _POLY_CACHE.get(key)
    if poly is None:
        poly = _POLY_CACHE.store(key, base_poly_uncached(b))
    return poly


def base_poly_uncached(b: Body) -> Polygon:
    """The base as a polygon, built from an array (the quickest shapely way): for spots
    asked about once, such as the samples of a moving base."""
    return shapely.polygons(np.array(corners(b)))


def sample_points(b: Body) -> list[tuple[float, float]]:
    """D33.1: the centre and the corners pulled 0.1 cm towards it."""
    pts = [(b.x, b.y)]
    for cx, cy in corners(b):
        dx, dy = b.x - cx, b.y - cy
        n = math.hypot(dx, dy) or 1.0
        pts.append((cx + dx / n * 0.1, cy + dy / n * 0.1))
    return pts


def distance(a: Body, b: Body) -> float:
    """Edge-to-edge distance between two bases in the table plane (0 if touching)."""
    return base_poly(a).distance(base_poly(b))


def centre_distance(a: Body, b: Body) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    return math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360.0


def angle_diff(a: float, b: float) -> float:
    """Absolute difference between two bearings, 0..180."""
    d = abs(a - b) % 360.0
    return 360.0 - d if d > 180.0 else d


def in_arc(firer: Body, target: Body) -> bool:
    """D31: the target's centre lies within 90 degrees of the firer's facing."""
    if firer.x == target.x and firer.y == target.y:
        return True
    return angle_diff(firer.facing, bearing(firer.x, firer.y, target.x, target.y)) <= 90.0 + 1e-9


def aspect(target: Body, firer: Body) -> str:
    """D29: front / flank / rear of the target as seen from the firer's centre."""
    if firer.x == target.x and firer.y == target.y:
        return "front"
    theta = angle_diff(target.facing, bearing(target.x, target.y, firer.x, firer.y))
    if theta <= 45.0:
        return "front"
    if theta <= 135.0:
        return "flank"
    return "rear"


# ---------------------------------------------------------------- line of sight

def _segment_blocked(terrain: Terrain, p: tuple, q: tuple, skip_ground: bool) -> bool:
    """D33.3 (a, b) for one segment; airborne ends skip terrain entirely."""
    if skip_ground:
        return False
    minx, maxx = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
    miny, maxy = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
    seglen = math.hypot(q[0] - p[0], q[1] - p[1])
    for f in terrain.blockers:
        b = f.bounds
        if b[0] > maxx or b[2] < minx or b[1] > maxy or b[3] < miny:
            continue
        if f.convex:
            iv = f.clip(p, q)
            if iv is None or (iv[1] - iv[0]) * seglen <= 1e-6:
                continue
            if f.props["hill"]:
                if not (f.covers_point(p[0], p[1]) or f.covers_point(q[0], q[1])):
                    return True
                continue
            depth = f.props["edge_depth_cm"]
            length = (iv[1] - iv[0]) * seglen
            if depth >= 0 and length > depth + 1e-9:
                return True                           # deeper than an edge may be
            # the edge an end stands in does not block (D33.3 b)
            excused = (iv[0] <= 1e-9 and f.covers_point(p[0], p[1])) or (
                iv[1] >= 1 - 1e-9 and f.covers_point(q[0], q[1]))
            if not excused:
                return True
            continue
        if _blocked_by_shape(f, p, q):
            return True
    return False


def _blocked_by_shape(f: Feature, p: tuple, q: tuple) -> bool:
    """The general (non-convex) case of D33.3, with shapely."""
    line = LineString([p, q])
    props = f.props
    if not f.poly.intersects(line):
        return False
    inter = f.poly.intersection(line)
    if inter.length <= 1e-6:
        return False
    pin = f.poly.intersects(Point(p))
    qin = f.poly.intersects(Point(q))
    if props["hill"]:
        return not (pin or qin)
    depth = props["edge_depth_cm"]
    for piece in getattr(inter, "geoms", [inter]):
        if piece.geom_type != "LineString" or piece.length <= 1e-6:
            continue
        excused = False
        for end, inside in ((p, pin), (q, qin)):
            if inside and piece.distance(Point(end)) < 1e-6 and (
                    depth < 0 or piece.length <= depth + 1e-9):
                excused = True
        if not excused:
            return True
    return False


class _Only(NamedTuple):
    """A terrain of one blocking feature, to ask which features block a line."""

    blockers: list


def blocking_features(terrain: Terrain, p: tuple, q: tuple) -> list[Feature]:
    """The features that, each on its own, block the ground line p-q (D33.3): what a
    ruler laid on the table shows as blocking the view."""
    return [f for f in terrain.blockers if _segment_blocked(_Only([f]), p, q, False)]


def clear_segments(terrain: Terrain, a: Body, b: Body) -> list[tuple[tuple, tuple]]:
    """All clear segments between two bodies (D33.2), centre-to-centre first."""
    skip = a.air or b.air
    out = []
    seen = set()
    for src, dst in ((a, b), (b, a)):
        for pt in sample_points(dst):
            seg = ((src.x, src.y), pt)
            key = (seg[0], seg[1]) if src is a else (seg[1], seg[0])
            if key in seen:
                continue
            seen.add(key)
            if not _segment_blocked(terrain, seg[0], seg[1], skip):
                out.append((seg[0], seg[1]) if src is a else (seg[1], seg[0]))
    return out


# The LOS and lane memo keys hold plain tuples of numbers, not the Body named tuples
# (which are equal to them): the collector stops tracking plain tuples of numbers, so
# large memos do not lengthen every full collection (a pause for every request in
# flight).
_LOS_CACHE: Memo[tuple, bool] = Memo(400_000)


def terrain_los(terrain: Terrain, a: Body, b: Body) -> bool:
    """Mutual terrain LOS (D33 without civilians), memoised."""
    if a > b:
        a, b = b, a
    key = (terrain.version, tuple(a), tuple(b))      # plain tuples: see _LOS_CACHE
    hit = _LOS_CACHE.get(key)
    if hit is not None:
        return hit
    return _LOS_CACHE.store(key, los_uncached(terrain, a, b))


_LANE_CACHE: Memo[tuple, bool] = Memo(200_000)


def civilians_in_lane(a: Body, b: Body, civs: tuple, radius: float) -> bool:
    """D76: a civilian circle touches the convex hull of the two bases."""
    if not civs:
        return False
    key = (tuple(a), tuple(b), civs, radius)          # plain tuples: see _LOS_CACHE
    hit = _LANE_CACHE.get(key)
    if hit is not None:
        return hit
    lane = hull(corners(a) + corners(b))
    return _LANE_CACHE.store(key, bool((shapely.distance(lane, points(civs)) <= radius).any()))


def hull(pts: list[tuple[float, float]]):
    """The convex hull of some points (built in one call, not point by point)."""
    return shapely.convex_hull(shapely.multipoints(pts))


@lru_cache(maxsize=64)
def points(pts: tuple[tuple[float, float], ...]) -> np.ndarray:
    """Fixed points (a scenario's civilians) as an array of shapely points, made once,
    for vectorised distances."""
    return shapely.points(pts)


# ---------------------------------------------------------------- concealment and cover

_SITUATION_CACHE: Memo[tuple, tuple | None] = Memo(200_000)
_NONE = ("no line of sight",)          # how the memo keeps a None answer


def fire_situation(terrain: Terrain, firer: Body, target: Body, target_kind: str,
                   blast: bool) -> tuple[int, int, bool] | None:
    """D34: (concealment, cover, hard) of the best clear segment, or None without LOS.

    ``target_kind`` is "infantry" or "vehicle"; cover is 0 for vehicles and aircraft.
    ``blast`` makes concealment that comes from a hard feature count as open (D36).
    Memoised on all it reads (the terrain version, both bodies, the kind, blast): the
    bots weigh the same shots again and again.
    """
    key = (terrain.version, tuple(firer), tuple(target), target_kind, blast)
    hit = _SITUATION_CACHE.get(key)
    if hit is None:
        sit = fire_situation_uncached(terrain, firer, target, target_kind, blast)
        hit = _SITUATION_CACHE.store(key, _NONE if sit is None else sit)
    return None if hit is _NONE else hit


def fire_situation_uncached(terrain: Terrain, firer: Body, target: Body, target_kind: str,
                            blast: bool) -> tuple[int, int, bool] | None:
    """D34 as ``fire_situation`` says, without the memo."""
    if target.air:
        return (0, 0, False)
    segs = clear_segments(terrain, firer, target)
    if not segs:
        return None
    own = terrain.containing(target.x, target.y)
    firer_feats = set() if firer.air else set(terrain.containing(firer.x, firer.y))
    firer_on_hill = [f for f in firer_feats if f.props["hill"]]
    tpoly = base_poly(target)
    best: tuple[int, int, bool] | None = None
    for p, q in segs:
        brg = bearing(p[0], p[1], q[0], q[1])
        conc, cover, hard = 0, 0, False
        for f in own:
            if _aisle(f, brg):
                continue
            if f.kind == "crest" and any(h.poly.intersects(f.poly) for h in firer_on_hill):
                continue   # D38: looking down on the crest from the hill
            c = f.conc(target_kind, firer.air)
            if not (blast and f.props["hard"]):
                conc = max(conc, c)
            fc = COVER_LEVELS[f.props["cover"]]
            if fc > cover or (fc == cover and fc > 0 and f.props["hard"]):
                cover, hard = fc, f.props["hard"] or (hard and fc == cover)
        if not firer.air:
            # the features whose boxes the line's box meets (what the tree would give; the
            # levels are maxima, so the order is free), the line made only for those
            lo_x, hi_x = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
            lo_y, hi_y = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
            line = None
            for f in terrain.features:
                b = f.bounds
                if b[0] > hi_x or b[2] < lo_x or b[1] > hi_y or b[3] < lo_y or f in own \
                        or f in firer_feats or _aisle(f, brg):
                    continue
                if line is None:
                    line = LineString([p, q])
                if not f.poly.intersects(line):
                    continue
                props = f.props
                if props["linear"]:
                    if f.poly.distance(tpoly) <= props["protects_within_cm"] + EPS:
                        c = LEVELS[props["concealment"][target_kind]]
                        if not (blast and props["hard"]):
                            conc = max(conc, c)
                        fc = COVER_LEVELS[props["cover"]]
                        if fc > cover or (fc == cover and fc > 0 and props["hard"]):
                            cover, hard = fc, props["hard"]
                else:
                    conc = max(conc, LEVELS[props["intervening"][target_kind]])
        if target_kind != "infantry":
            cover, hard = 0, False
        cand = (conc, cover, hard)
        if best is None or (cand[0], cand[1]) < (best[0], best[1]):
            best = cand
    return best


def _aisle(f: Feature, brg: float) -> bool:
    """D37: looking straight down an orchard aisle makes the feature open."""
    tol = f.props.get("aisle_tolerance_deg", 5.0)
    for a in f.props.get("aisle_bearings_deg", ()):
        if angle_diff(brg, a) <= tol or angle_diff(brg, a + 180.0) <= tol:
            return True
    return False


# ---------------------------------------------------------------- paths

def path_length(path: list[tuple[float, float]]) -> float:
    return sum(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(path, path[1:],
                                                                           strict=False))


def point_along(path: list[tuple[float, float]], dist: float) -> tuple[float, float, float]:
    """The point at ``dist`` along a polyline and the heading there."""
    run = 0.0
    heading = 0.0
    for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg <= 1e-12:
            continue
        heading = bearing(x0, y0, x1, y1)
        if run + seg >= dist:
            t = (dist - run) / seg
            return (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, heading)
        run += seg
    x, y = path[-1]
    return (x, y, heading)


def truncate(path: list[tuple[float, float]], dist: float) -> list[tuple[float, float]]:
    """The first ``dist`` cm of a polyline."""
    out = [path[0]]
    run = 0.0
    for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        if run + seg >= dist - 1e-12:
            t = 0.0 if seg <= 1e-12 else (dist - run) / seg
            out.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t))
            return out
        out.append((x1, y1))
        run += seg
    return out


def rect(x0: float, x1: float, y0: float, y1: float) -> Polygon:
    return box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def los_uncached(terrain: Terrain, a: Body, b: Body) -> bool:
    """Terrain LOS without the memo (for benchmarks and cross-checks)."""
    if a.air or b.air:
        return True
    for src, dst in ((a, b), (b, a)):
        for pt in sample_points(dst):
            if not _segment_blocked(terrain, (src.x, src.y), pt, False):
                return True
    return False
