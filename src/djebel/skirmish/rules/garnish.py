"""Garnish (spec 1.14-1.15, D73-D79): casualty markers, civilians, victory points."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import shapely
from shapely.geometry import Point

from djebel.core.memo import Memo
from djebel.skirmish.geometry import Body, base_poly, bearing, corners, hull, points
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame


_ZONES_CACHE: Memo[tuple, tuple[int, ...]] = Memo(100_000)


def civilians_in_fire_zones(g: SkirmishGame, f: Element, t: Element) -> list[int]:
    """R155: the civilians within a footprint of the side band of f's fire at t or of the
    lane beyond t (to the table edge).

    Memoised on all it reads (both bases, the civilians, the band and footprint, the
    table): the French bots ask it of every shot they weigh."""
    civs = g.scn.civilians
    if not civs:
        return []
    cfg = g.tabs["civilians"]
    key = (tuple(f.body), tuple(t.body), civs, cfg["side_band_cm"], cfg["footprint_radius_cm"],
           g.terrain.width, g.terrain.depth)
    hit = _ZONES_CACHE.get(key)
    if hit is None:
        hit = _ZONES_CACHE.store(key, _in_fire_zones(g, f, t))
    return list(hit)


def _in_fire_zones(g: SkirmishGame, f: Element, t: Element) -> tuple[int, ...]:
    cfg = g.tabs["civilians"]
    lane = hull(corners(f.body) + corners(t.body))
    band = lane.buffer(cfg["side_band_cm"]).difference(lane)
    brg = math.radians(bearing(f.x, f.y, t.x, t.y))
    far = 2 * (g.terrain.width + g.terrain.depth)
    moved = Body(t.x + math.cos(brg) * far, t.y + math.sin(brg) * far, t.facing, t.body.w,
                 t.body.d)
    beyond = hull(corners(t.body) + corners(moved)).intersection(g.terrain.table)
    radius = cfg["footprint_radius_cm"]
    pts = points(g.scn.civilians)
    near = (shapely.distance(band, pts) <= radius) | (shapely.distance(beyond, pts) <= radius)
    return tuple(int(i) for i in near.nonzero()[0])


def collateral(g: SkirmishGame, f: Element, t: Element, n: int) -> None:
    """R155/D77: civilians beside the lane or beyond the target may be hit."""
    civs = g.scn.civilians
    if not civs or n <= 0:
        return
    cfg = g.tabs["civilians"]
    near = civilians_in_fire_zones(g, f, t)
    if not near:
        return
    rolls = g.roll(n)
    hit_on = g.opt("collateral_hit_on") or cfg["collateral_hit_on"]
    k = sum(1 for r in rolls if r >= hit_on)
    g.log.add("R155", f"collateral roll for {f.label}'s fire: {k} civilian casualt"
              f"{'y' if k == 1 else 'ies'}", dice=rolls, side=f.side)
    if k:
        i = min(near, key=lambda j: (math.hypot(civs[j][0] - t.x, civs[j][1] - t.y), j))
        hits = list(g.civ_hits)
        hits[i] += k
        g.civ_hits = hits


def marker_contact(g: SkirmishGame, e: Element, m) -> bool:
    """Base contact between an element and a 3x3 cm casualty marker (D73.2)."""
    body = Body(m.x, m.y, 0.0, 3.0, 3.0)
    return base_poly(e.body).distance(base_poly(body)) <= g.tabs["table"]["contact_eps_cm"]


def in_casevac_zone(g: SkirmishGame, e: Element) -> bool:
    return any(z.covers(Point(e.x, e.y)) for z in g.scn.casevac_zones)


def score(g: SkirmishGame, final: bool) -> dict[str, int]:
    """D78: victory points of both sides from the scenario's hooks."""
    pts = {"french": 0, "insurgents": 0}
    for v in g.scn.victory:
        hook = v["hook"]
        n = 0
        if hook in ("removed", "exited"):
            for e in g.elements:
                if e.side != v.get("of", g.other(v["side"])):
                    continue
                if v.get("kinds") and e.t.kind not in v["kinds"]:
                    continue
                if v.get("types") and e.type not in v["types"]:
                    continue
                if hook == "exited":
                    if e.removed == "exited" and e.exit_edge == v.get("edge", e.exit_edge):
                        n += 1
                    continue
                fates = set(v.get("fates", ["eliminated", "destroyed", "abandoned"]))
                if e.removed in fates or ("forced_down" in fates and e.forced_down):
                    n += 1
        elif hook == "casualties_not_evacuated":
            n = sum(1 for m in g.markers if not m.evacuated)
        elif hook == "civilian_casualties":
            n = sum(g.civ_hits)
        elif hook == "objective_searched":
            n = len(g.searched)
        elif hook == "objective_held":
            n = 1 if objective_held(g, v["feature"], v["side"]) else 0
            if not final:
                n = 0
        pts[v["side"]] += n * v["points"]
    return pts


def objective_held(g: SkirmishGame, fid: str, side: str) -> bool:
    """D78: an unpinned friendly infantry centre inside, no enemy infantry centre inside."""
    poly = g.terrain.feature(fid).poly
    mine = any(e.side == side and e.t.is_infantry and e.on_table and not e.pinned
               and poly.covers(Point(e.x, e.y)) for e in g.elements)
    theirs = any(e.side != side and e.t.is_infantry and e.on_table
                 and poly.covers(Point(e.x, e.y)) for e in g.elements)
    return mine and not theirs


def update_searched(g: SkirmishGame) -> None:
    """Spec 4.2: searched at the end of a French phase, for good."""
    done = set(g.searched)
    for fid in g.scn.searchable:
        if fid in done:
            continue
        poly = g.terrain.feature(fid).poly
        french = any(e.side == "french" and e.t.is_infantry and e.on_table and not e.pinned
                     and not g.in_fight(e.id) and poly.covers(Point(e.x, e.y))
                     for e in g.elements)
        ins = any(e.side == "insurgents" and e.t.is_infantry and e.on_table
                  and poly.covers(Point(e.x, e.y)) for e in g.elements)
        if french and not ins:
            done.add(fid)
            g.log.add("4.2", f"objective {fid} searched")
    g.searched = tuple(sorted(done))
