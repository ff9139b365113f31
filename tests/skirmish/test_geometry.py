"""Geometry: line of sight, arcs, aspect, distances and the fast clipping path."""

from __future__ import annotations

import random

import pytest

from djebel.skirmish.geometry import (
    Body,
    Feature,
    Terrain,
    _blocked_by_shape,
    _segment_blocked,
    aspect,
    distance,
    in_arc,
    los_uncached,
    rect,
    terrain_los,
)
from djebel.skirmish.scenario import load_scenario, terrain_library


def _terrain(*specs) -> Terrain:
    lib = terrain_library()
    feats = []
    for i, (kind, r) in enumerate(specs):
        feats.append(Feature(f"f{i}", kind, rect(*r), dict(lib[kind])))
    return Terrain(122.0, 122.0, tuple(feats))


def man(x, y, facing=0.0, air=False) -> Body:
    return Body(x, y, facing, 4.0, 3.0, air)


def test_R147_building_blocks_los():
    t = _terrain(("building", (40, 50, 10, 30)))
    assert not terrain_los(t, man(20, 20), man(70, 20))
    assert terrain_los(t, man(20, 40), man(70, 40))


def test_D33_occupants_of_a_building_see_out_and_are_seen():
    t = _terrain(("building", (40, 50, 10, 30)))
    assert terrain_los(t, man(45, 20), man(80, 20))


def test_D33_dense_woods_edge_depth():
    t = _terrain(("dense_woods", (40, 60, 0, 122)))
    assert terrain_los(t, man(42, 60), man(10, 60))        # at the edge: seen
    assert not terrain_los(t, man(50, 60), man(10, 60))    # deep inside: hidden
    assert not terrain_los(t, man(20, 60), man(80, 60))    # across the wood


def test_D33_hill_dead_ground_and_view_from_the_top():
    t = _terrain(("hill", (40, 60, 0, 122)))
    assert not terrain_los(t, man(30, 60), man(70, 60))
    assert terrain_los(t, man(50, 60), man(80, 60))


def test_R148_airborne_aircraft_see_over_everything():
    t = _terrain(("building", (40, 50, 10, 30)))
    helo = Body(70, 20, 0, 5, 12, True)
    assert terrain_los(t, man(20, 20), helo)


def test_D31_forward_arc_and_D29_aspect():
    me = man(50, 50, 0)
    assert in_arc(me, man(60, 55))
    assert in_arc(me, man(50, 60))                       # exactly 90 degrees
    assert not in_arc(me, man(40, 50))
    assert aspect(man(50, 50, 0), man(60, 50)) == "front"
    assert aspect(man(50, 50, 0), man(50, 60)) == "flank"
    assert aspect(man(50, 50, 0), man(40, 51)) == "rear"


def test_D67_edge_to_edge_distance_and_contact():
    assert distance(man(10, 10), man(20, 10)) == pytest.approx(7.0)
    assert distance(man(10, 10), man(13, 10)) == pytest.approx(0.0)


def test_fast_clipping_matches_shapely_on_the_shipped_terrain():
    rng = random.Random(7)
    for name in ("ambush", "search", "hotlz"):
        terrain = load_scenario(name).terrain
        for _ in range(600):
            p = (rng.uniform(0, 122), rng.uniform(0, 122))
            q = (rng.uniform(0, 122), rng.uniform(0, 122))
            fast = _segment_blocked(terrain, p, q, False)
            slow = any(_blocked_by_shape(f, p, q) for f in terrain.blockers)
            assert fast == slow, (name, p, q)


def test_los_is_mutual_and_memo_agrees():
    terrain = load_scenario("ambush").terrain
    rng = random.Random(3)
    for _ in range(200):
        a = man(rng.uniform(2, 120), rng.uniform(2, 120), rng.uniform(0, 360))
        b = man(rng.uniform(2, 120), rng.uniform(2, 120), rng.uniform(0, 360))
        assert los_uncached(terrain, a, b) == los_uncached(terrain, b, a)
        assert terrain_los(terrain, a, b) == los_uncached(terrain, a, b)


def test_R141_hot_lz_north_is_dead_ground_for_the_village():
    # spec 4.3: LZ North is hidden from the village by the ridge, seen from the cache
    from djebel.skirmish import new_game
    g = new_game("hotlz", 0)
    helo = Body(65.0, 101.0, 0.0, 5.0, 12.0, False)
    landed_view = {e.label: los_uncached(g.terrain, e.body, helo)
                   for e in g.elements if e.side == "insurgents"}
    village = {e.label: e.t.id for e in g.elements
               if e.side == "insurgents" and e.x >= 80}
    assert village == {"I4": "ins_rifle", "I5": "mmg", "I6": "sam"}   # as rebalanced
    for lab in village:                                  # the village rifles, MMG, SAM
        assert not landed_view[lab], lab
    assert landed_view["I2"] and landed_view["I3"]      # the cache garrison sees it
    flying = helo._replace(air=True)
    assert los_uncached(g.terrain, g.el("I6").body, flying)   # R148: airborne is exposed
