"""Reactions, Overwatch and the charge exception (spec 1.5, 1.6, D12-D18)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.skirmish import flow, orders
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


def do_react(g: SkirmishGame, fr: dict, a: Action) -> None:
    if a.verb == "pass":
        g.frames.pop()
        return
    t = g.elements[fr["t"]]
    o = flow.arg_el(g, a, 0, "R29")
    if o.id not in react_candidates(g, fr):
        raise IllegalAction("R29", f"{o.label} cannot react now (it must have observed the "
                            "action, be unpinned, on the table and not yet have reacted)")
    _reaction(g, o, t, a)


def _reaction(g: SkirmishGame, o: Element, t: Element, a: Action, charge: bool = False) -> None:
    """R31/D12: one action without a CR; fire only at the triggering element."""
    verb = a.verb
    if verb == "shoot":
        orders.fire_order(g, o, a, moving=False, check_only=True, reaction_target=t.id,
                          charge=charge)
        _mark_reacted(g, o)
        orders.fire_order(g, o, a, moving=False, reaction_target=t.id, charge=charge)
        return
    if verb == "turnshoot":
        if o.immobilized:
            raise IllegalAction("D51", f"{o.label} is immobilized and cannot pivot")
        old = o.facing
        face = check_pivot(g, o, t)
        o.facing = face
        try:
            orders.fire_order(g, o, a, moving=True, check_only=True, reaction_target=t.id,
                              charge=charge)
        except IllegalAction:
            o.facing = old
            raise
        g.place(o, o.x, o.y, o.facing)
        _mark_reacted(g, o)
        orders.fire_order(g, o, a, moving=True, reaction_target=t.id, charge=charge)
        return
    if verb in ("sprint", "move"):
        plan = orders.plan_move(g, o, a, 2 if verb == "sprint" else 1)
        _mark_reacted(g, o)
        flow.start_move(g, o, plan, "none", ow=False)
        return
    if verb in ("overwatch", "unload", "takeoff", "land", "rally"):
        _mark_reacted(g, o)
        orders.other_action(g, o, a, reaction=True, fr=None)
        return
    raise IllegalAction("D12", f"'{verb}' is not a reaction")


def check_pivot(g: SkirmishGame, o: Element, t: Element) -> float:
    """D17/D19.3: turning to face is a move; the new facing must be a legal place."""
    from djebel.skirmish.geometry import bearing
    face = round(bearing(o.x, o.y, t.x, t.y), 2)
    if o.immobilized:
        raise IllegalAction("D51", f"{o.label} is immobilized and cannot pivot")
    if o.ground and not o.t.is_aircraft:
        movement.plan_ground(g, o, [], face, 1)
    return face


def _mark_reacted(g: SkirmishGame, o: Element) -> None:
    o.reacted = True
    o.overwatch = False                                    # R44: a reaction ends OW
    g.log.add("R28", f"{o.label} reacts", side=o.side)


def do_ow(g: SkirmishGame, fr: dict, a: Action) -> None:
    if a.verb == "wait":
        g.frames.pop()
        return
    if a.verb != "owfire":
        raise IllegalAction("R42", "choose 'owfire ELEMENT' or 'wait'")
    o = flow.arg_el(g, a, 0, "R42")
    t = g.elements[fr["t"]]
    if o.id not in live_cands(g, fr) or not ow_ready(g, o, t):
        raise IllegalAction("R43", f"{o.label} cannot fire overwatch at {t.label} now")
    o.reacted = True                                       # R44
    o.overwatch = False
    g.log.add("R42", f"{o.label} fires its overwatch at {t.label}", side=o.side)
    fire.attack(g, o, t, moving=False, reaction_target=t.id)
    fr["cands"] = [i for i in fr["cands"] if i != o.id]


def do_charge(g: SkirmishGame, fr: dict, a: Action) -> None:
    if a.verb == "pass":
        g.frames.pop()
        return
    if a.verb not in ("shoot", "turnshoot"):
        raise IllegalAction("R33", "choose 'shoot', 'turnshoot' or 'pass'")
    o = flow.arg_el(g, a, 0, "R33")
    if o.id not in live_cands(g, fr):
        raise IllegalAction("R33", f"{o.label} may not fire at the charger")
    t = g.elements[fr["t"]]
    _reaction(g, o, t, a, charge=True)
    fr["cands"] = [i for i in fr["cands"] if i != o.id]
