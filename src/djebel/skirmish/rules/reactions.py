"""Who may react, fire Overwatch or fire at a charger (spec 1.5, 1.6, D12-D18).

The orders that carry reactions out are in ``skirmish.reaction_orders``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from djebel.core.errors import IllegalAction
from djebel.skirmish.geometry import bearing
from djebel.skirmish.rules import fire, movement
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame


def can_react(g: SkirmishGame, o: Element) -> bool:
    """R28/R34-R36: unpinned, not yet reacted, on the table, not in a fight, no jets."""
    return (o.side != g.phasing and o.on_table and not o.pinned and not o.reacted
            and not o.t.is_fixed_wing and not g.in_fight(o.id))


def react_candidates(g: SkirmishGame, fr: dict) -> list[int]:
    t = g.elements[fr["t"]]
    out = []
    for i in fr["obs"]:
        o = g.elements[i]
        if can_react(g, o):
            out.append(i)
    if not t.on_table:
        # the trigger is gone: only non-fire reactions would remain; keep it simple
        return []
    return out


def can_charge_react(g: SkirmishGame, o: Element) -> bool:
    """R33/D17: like a reaction, but the fight the charge just started does not count."""
    return (o.side != g.phasing and o.on_table and not o.pinned and not o.reacted
            and not o.t.is_fixed_wing)


def live_cands(g: SkirmishGame, fr: dict) -> list[int]:
    t = g.elements[fr["t"]]
    if not t.on_table:
        return []
    out = []
    for i in fr["cands"]:
        o = g.elements[i]
        ok = can_charge_react(g, o) if fr["k"] == "charge" else can_react(g, o)
        if not ok:
            continue
        if fr["k"] == "ow" and not o.overwatch:
            continue
        out.append(i)
    return out


def ow_ready(g: SkirmishGame, o: Element, t: Element) -> bool:
    """R42/R43/D15: an OW element that sees the mover in its forward arc and can hit it."""
    if not (o.overwatch and can_react(g, o)):
        return False
    try:
        fire.check_attack(g, o, t, reaction_target=t.id)
    except IllegalAction:
        return False
    return True


def check_pivot(g: SkirmishGame, o: Element, t: Element) -> float:
    """D17/D19.3: turning to face is a move; the new facing must be a legal place."""
    face = round(bearing(o.x, o.y, t.x, t.y), 2)
    if o.immobilized:
        raise IllegalAction("D51", f"{o.label} is immobilized and cannot pivot")
    if o.ground and not o.t.is_aircraft:
        movement.plan_ground(g, o, [], face, 1)
    return face
