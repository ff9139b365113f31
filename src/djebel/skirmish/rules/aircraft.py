"""Aircraft and passengers (spec 1.12, D21-D23, D48, D64): landing, take-off, unloading."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from shapely.geometry import Point

from djebel.core.errors import IllegalAction
from djebel.skirmish.geometry import Body, base_poly, base_poly_uncached
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame


def landing_ok(g: SkirmishGame, e: Element, x: float, y: float, facing: float) -> str:
    """D23: '' if a helicopter base may sit here, else the reason."""
    t = e.t
    poly = base_poly(Body(x, y, facing, t.base_w_cm, t.base_d_cm, False))
    if not g.terrain.table.covers(poly):
        return "the base would leave the table"
    if poly.intersects(g.terrain.no_landing) and poly.intersection(
            g.terrain.no_landing).area > 1e-6:
        return "terrain there is not a landing spot"
    for o in g.elements:
        if o.id != e.id and o.ground and base_poly(o.body).intersection(poly).area > 1e-6:
            return f"the base would overlap {o.label}"
    return ""


def check_land(g: SkirmishGame, e: Element) -> None:
    if not e.t.is_helicopter or not e.airborne or e.off_table:
        raise IllegalAction("R135", f"{e.label} is not an airborne helicopter on the table")
    why = landing_ok(g, e, e.x, e.y, e.facing)
    if why:
        raise IllegalAction("D23", f"{e.label} cannot land here: {why}")


def check_takeoff(g: SkirmishGame, e: Element) -> None:
    if not e.t.is_helicopter or e.airborne or not e.on_table:
        raise IllegalAction("R134", f"{e.label} is not a landed helicopter")
    if e.immobilized or e.forced_down:
        raise IllegalAction("D48", f"{e.label} was forced down and cannot take off")
    if g.in_fight(e.id):
        raise IllegalAction("R120", f"{e.label} is in close combat")


def passengers(g: SkirmishGame, carrier: Element) -> list[Element]:
    return [o for o in g.elements if o.embarked_in == carrier.id and not o.removed]


def load_used(g: SkirmishGame, carrier: Element) -> int:
    """D21.6: passengers and casualty markers aboard each take a slot."""
    n = len(passengers(g, carrier))
    n += sum(1 for m in g.markers if m.carried_by == carrier.id and not m.evacuated)
    n += sum(1 for p in passengers(g, carrier) for m in g.markers
             if m.carried_by == p.id and not m.evacuated)
    return n


def free_slots(g: SkirmishGame, carrier: Element) -> int:
    return carrier.t.passenger_capacity - load_used(g, carrier)


def _spots(carrier: Element, p: Element) -> Iterator[tuple[float, float]]:
    """D21.2: where a passenger may go, in the order tried: under a hovering helicopter
    (the point below, then rings at 2.5 and 5 cm), else touching the carrier's base
    every 15 degrees starting behind it (each found as it is needed: the first that
    fits is usually among the first few)."""
    t = p.t
    if carrier.airborne:
        for r in (0.0, 2.5, 5.0):
            for k in range(8 if r else 1):
                a = math.radians(carrier.facing + 45 * k)
                yield (carrier.x + r * math.cos(a), carrier.y + r * math.sin(a))
        return
    cb = base_poly(carrier.body)
    far = math.hypot(carrier.t.base_w_cm, carrier.t.base_d_cm) / 2 + math.hypot(
        t.base_w_cm, t.base_d_cm) / 2 + 0.5
    for k in range(24):
        a = math.radians(carrier.facing + 180 + 15 * k)
        ux, uy = math.cos(a), math.sin(a)
        lo, hi = 0.0, far
        for _ in range(14):
            mid = (lo + hi) / 2
            b = Body(carrier.x + ux * mid, carrier.y + uy * mid, carrier.facing,
                     t.base_w_cm, t.base_d_cm)
            if base_poly_uncached(b).distance(cb) > 0.04:
                hi = mid
            else:
                lo = mid
        yield (carrier.x + ux * hi, carrier.y + uy * hi)


def place_positions(g: SkirmishGame, carrier: Element, p: Element, allow_enemy_contact: bool,
                    taken: list[Body]) -> Body | None:
    """D21.2: a spot for a passenger, touching the carrier (or under a hovering helicopter)."""
    t = p.t
    eps = g.tabs["table"]["contact_eps_cm"]
    cands = _spots(carrier, p)
    imp = g.terrain.impassable("foot")
    radius = g.tabs["civilians"]["footprint_radius_cm"]
    for x, y in cands:
        b = Body(round(x, 3), round(y, 3), carrier.facing, t.base_w_cm, t.base_d_cm)
        poly = base_poly(b)
        if not g.terrain.table.covers(poly):
            continue
        if poly.intersects(imp) and poly.intersection(imp).area > 1e-6:
            continue
        bad = False
        for o in g.elements:
            if o.id in (p.id,) or not o.ground:
                continue
            ob = base_poly(o.body)
            if ob.intersection(poly).area > 1e-6:
                bad = True
                break
            if (o.side != p.side and not allow_enemy_contact
                    and ob.distance(poly) <= eps):
                bad = True
                break
        if bad or any(base_poly(tb).intersection(poly).area > 1e-6 for tb in taken):
            continue
        if any(poly.distance(Point(c)) < radius for c in g.scn.civilians):
            continue
        return b
    return None


def unload(g: SkirmishGame, carrier: Element, who: list[Element], reaction: bool) -> list[Element]:
    """Put passengers down; those that cannot be placed stay aboard (D21.2)."""
    taken: list[Body] = []
    out = []
    for p in who:
        b = place_positions(g, carrier, p, g.in_fight(carrier.id), taken)
        if b is None:
            g.log.add("D21", f"{p.label} cannot be placed and stays aboard {carrier.label}")
            continue
        p.embarked_in = -1
        g.place(p, b.x, b.y, b.facing)
        if reaction or p.side != g.phasing:
            p.reacted = True          # D21.5: put down in the enemy phase, no reaction in it
        taken.append(b)
        out.append(p)
        g.log.add("R138", f"{p.label} unloads from {carrier.label} at ({b.x:.1f}, {b.y:.1f})")
    return out


def force_landing(g: SkirmishGame, v: Element) -> bool:
    """D48: come down at once (nearest legal spot within 20 cm) or be destroyed."""
    spots = [(0.0, 0.0)] + [(r * math.cos(math.radians(a)), r * math.sin(math.radians(a)))
                            for r in (5.0, 10.0, 15.0, 20.0) for a in range(0, 360, 30)]
    for dx, dy in spots:
        x, y = v.x + dx, v.y + dy
        if not landing_ok(g, v, x, y, v.facing):
            v.airborne = False
            v.immobilized = True
            v.forced_down = True
            g.place(v, x, y, v.facing)
            g.log.add("R101", f"{v.label} is forced to land at ({x:.1f}, {y:.1f})")
            g.passengers_hit(v)
            return True
    g.log.add("D48", f"{v.label} finds no landing spot and is destroyed")
    g.destroy_vehicle(v, passengers_killed=True)
    return False


def leave_table(g: SkirmishGame, e: Element) -> None:
    """D64.2: an aircraft leaves; passengers and casualties aboard are evacuated."""
    for p in passengers(g, e):
        g.evacuate_carried(p, "helicopter")
        p.removed = "exited"
        p.exit_edge = "air"
    g.evacuate_carried(e, "helicopter" if e.t.is_helicopter else "aircraft")
    e.off_table = True
    e.overwatch = False
    g.dirty()
    g.log.add("R132" if e.t.is_fixed_wing else "D64", f"{e.label} leaves the table")
