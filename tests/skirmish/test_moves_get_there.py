"""Moves always get there (D19, D62): no offered move goes nowhere, crossings end in
contact on the far side, and bot battles order no zero-length ground moves."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skirmish_helpers import F, I

from djebel.core.actions import Action
from djebel.skirmish import list_scenarios, new_game, orders
from djebel.skirmish.bots.audit import MIN_MOVE_CM, audit, bots_for, ordered_move
from djebel.skirmish.geometry import Body, base_poly


def _check_offered_moves(g) -> int:
    """Every offered ground move covers at least one path-check step (D19.6); every
    full-action crossing ends touching the feature, clear of it (D62.2)."""
    checked = 0
    for a in g.legal_actions():
        m = ordered_move(g, a)
        if m is None:
            continue
        checked += 1
        assert m[1] >= MIN_MOVE_CM, f"{a} is offered but moves {m[1]:.2f} cm"
        e = g.el(a.args[0])
        plan = orders.plan_move(g, e, a, 2 if a.verb == "sprint" else 1)
        if plan.stopped_by.startswith("crossed "):
            fid = plan.stopped_by.split()[1]
            mob = "foot" if e.t.is_infantry else e.t.mobility
            poly = next(p for f, p in g.terrain.difficult(mob) if f.id == fid)
            end = base_poly(Body(plan.path[-1][0], plan.path[-1][1], plan.face,
                                 e.t.base_w_cm, e.t.base_d_cm, False))
            assert end.distance(poly) <= 1e-6 and end.intersection(poly).area <= 1e-9, a
    return checked


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenario=st.sampled_from(list_scenarios()), seed=st.integers(0, 10_000),
       steps=st.integers(20, 160), kind=st.sampled_from(["random", "matrix", "heuristic"]))
def test_D19_D62_every_offered_move_gets_somewhere_in_random_and_bot_play(scenario, seed,
                                                                         steps, kind):
    g = new_game(scenario, seed, {"log": False})
    french, insurgents = bots_for(kind, seed)
    bots = {"french": french, "insurgents": insurgents}
    checked = 0
    for _ in range(steps):
        if g.is_over():
            break
        checked += _check_offered_moves(g)
        g.apply(bots[g.active_side].choose(g))
    assert checked > 0 or g.is_over()


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(left=st.floats(20, 40), width=st.floats(1, 3), dy=st.floats(-6, 6),
       face=st.one_of(st.none(), st.floats(0, 359)), kind=st.sampled_from(["canal", "river"]),
       approach=st.floats(0.6, 6))
def test_D62_crossing_ends_touching_the_far_edge(tmp_path_factory, left, width, dy, face,
                                                 kind, approach):
    from skirmish_helpers import builder

    build = builder(tmp_path_factory.mktemp("x"))
    canal = {"id": "c1", "kind": kind, "rect": [left, left + width, 0, 122]}
    block = {"id": "b9", "kind": "building", "rect": [100, 110, 90, 112]}
    g = build([F("french_rifle", left - 1.5 - approach, 60), I("ins_rifle", 115, 115)],
              terrain=[canal, block], dice=(6, 6))
    poly = next(p for f, p in g.terrain.difficult("foot") if f.id == "c1")
    g.apply("activate F1")
    g.apply(f"move F1 {left} 60")                 # D62.1: stops touching the near bank
    e = g.el("F1")
    assert base_poly(e.body).distance(poly) <= 0.1
    g.apply("hold F1")
    g.apply("roll F1")
    # 9.9 cm across: enough to clear a 3 cm canal with the 4 x 3 base turned any way
    ux, uy = width + 6, dy
    k = 9.9 / math.hypot(ux, uy)
    tx, ty = round(e.x + ux * k, 2), round(e.y + uy * k, 2)
    tail = "" if face is None else f" face {round(face, 2)}"
    g.apply(f"move F1 {tx} {ty}{tail}")
    e = g.el("F1")
    b = base_poly(e.body)
    assert b.distance(poly) <= 1e-6 and b.intersection(poly).area <= 1e-9   # touching
    assert b.centroid.x > left + width                                        # far side
    assert math.hypot(e.x - tx, e.y - ty) > 1e-6                 # the crossing ends there


def test_D19_bot_battles_order_no_zero_length_ground_moves():
    # the full measurement (200 battles) is `python -m djebel.skirmish.bots.audit 200`
    result = audit(11, seed=100)      # every scenario at least twice
    assert result.ordered > 100
    assert (result.nowhere, result.examples) == (0, [])


@pytest.mark.parametrize("x", [38.5, 40.0])
def test_D62_a_base_leaving_a_canal_bank_is_not_crossing(build, x):
    canal = {"id": "c1", "kind": "canal", "rect": [34, 37, 0, 122]}
    g = build([F("leader", x, 60), I("ins_rifle", 115, 115)], terrain=[canal])
    g.apply("activate F1")
    g.apply("move F1 44.25 59.71 face 356.23")   # turning on the bank, moving away
    assert (g.el("F1").x, g.el("F1").y) == (44.25, 59.71)


def _canal_with_footbridge(build):
    canal = {"id": "canal1", "kind": "canal", "rect": [34, 37, 0, 122]}
    footbridge = {"id": "fbridge1", "kind": "footbridge", "rect": [34, 37, 85, 88]}
    g = build([F("leader", 15, 60), F("french_rifle", 31.58, 82, 35),
               I("ins_rifle", 115, 115)], terrain=[canal, footbridge])
    poly = next(p for f, p in g.terrain.difficult("foot") if f.id == "canal1")
    assert len(poly.geoms) == 2                            # cut in two by the footbridge
    assert base_poly(g.el("F2").body).distance(poly) <= 0.1   # touching the near bank
    g.apply("activate F2")
    return g, poly


def test_D62_2_crossing_a_canal_cut_by_a_footbridge_clears_every_piece(build):
    """The case a random search found: ``sprint F2 38.78 89.2 face 324`` from the bank,
    past the end of the canal's southern piece, once stopped as the base left that piece
    but 1.4 cm2 inside the northern one (beyond the footbridge). The base is still in
    the canal there, so the crossing goes on: this sprint ends at its destination, in
    the canal (D62.2: it may cross or enter), and a longer one crosses both pieces and
    ends clear of them, touching the far edge."""
    g, poly = _canal_with_footbridge(build)
    e = g.el("F2")
    plan = orders.plan_move(g, e, Action.parse("sprint F2 38.78 89.2 face 324"), 2)
    assert (plan.stopped_by, plan.path[-1]) == ("", (38.78, 89.2))       # entered
    g, poly = _canal_with_footbridge(build)
    g.apply("sprint F2 40 90 face 324")
    e = g.el("F2")
    end = base_poly(e.body)
    assert end.distance(poly) <= 1e-6 and end.intersection(poly).area <= 1e-9
    assert end.distance(poly.geoms[1]) <= 1e-6            # touching the northern piece
    assert (round(e.x, 2), round(e.y, 2), e.facing) == (39.39, 89.42, 324)
