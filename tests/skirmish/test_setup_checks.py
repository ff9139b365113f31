"""Set-up positions (spec 4, D19, D75, R142): check_place refuses a spot exactly when
the base would stand on impassable ground or on a civilian, however it gets there."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Point

from djebel.core.errors import IllegalAction
from djebel.skirmish import orders
from djebel.skirmish.geometry import Body, base_poly
from djebel.skirmish.rules import movement
from djebel.web.service import new_game


@pytest.mark.parametrize("scenario", ["search", "hotlz"])
def test_set_up_refuses_civilians_and_impassable_ground_exactly(scenario):
    g = new_game("skirmish", scenario, 1, {}, True)
    side = g.frames[-1]["side"]
    radius = g.tabs["civilians"]["footprint_radius_cm"]
    seen = {"ok": 0, "D75": 0, "R142": 0}
    for e in g.elements:
        if e.side != side or e.label not in g.zones or not e.on_table:
            continue
        imp = g.terrain.impassable(movement.mobility(e))
        # spots on and around every civilian, and a ring around the element
        spots = [(cx + dx, cy + dy) for cx, cy in g.scn.civilians
                 for dx in (-4.0, -2.0, 0.0, 2.0, 4.0) for dy in (-4.0, 0.0, 4.0)]
        spots += [(e.x + 6 * math.cos(a / 4), e.y + 6 * math.sin(a / 4)) for a in range(25)]
        for x, y in spots:
            try:
                orders.check_place(g, e, x, y, e.facing)
                rule = None
            except IllegalAction as exc:
                rule = exc.rule
            if rule not in (None, "D75", "R142"):
                continue                          # outside the zone, off the table, ...
            poly = base_poly(Body(x, y, e.facing, e.t.base_w_cm, e.t.base_d_cm, e.airborne))
            on_imp = (not e.airborne and not imp.is_empty
                      and poly.intersection(imp).area > 1e-6)
            on_civ = any(poly.distance(Point(c)) < radius for c in g.scn.civilians)
            if rule == "R142":
                assert on_imp, (e.label, x, y)
            elif rule == "D75":
                assert on_civ and not on_imp, (e.label, x, y)
            else:
                assert not on_imp and not on_civ, (e.label, x, y)
            seen["ok" if rule is None else rule] += 1
    assert seen["ok"] > 0 and seen["D75"] > 0
