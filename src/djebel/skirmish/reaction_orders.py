"""Reaction, Overwatch and charge-fire orders of the non-phasing side (spec 1.5, 1.6,
D12-D18): the handlers of the ``react``, ``ow`` and ``charge`` frames."""

from __future__ import annotations

from typing import TYPE_CHECKING

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.skirmish import flow, orders
from djebel.skirmish.rules import fire
from djebel.skirmish.rules.reactions import check_pivot, live_cands, ow_ready, react_candidates
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame


def do_react(g: SkirmishGame, fr: dict, a: Action) -> None:
    if a.verb == "pass":
        g.frames.pop()
        return
    t = g.elements[fr["t"]]
    o = orders.arg_el(g, a, 0, "R29")
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
    o = orders.arg_el(g, a, 0, "R42")
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
    o = orders.arg_el(g, a, 0, "R33")
    if o.id not in live_cands(g, fr):
        raise IllegalAction("R33", f"{o.label} may not fire at the charger")
    t = g.elements[fr["t"]]
    _reaction(g, o, t, a, charge=True)
    fr["cands"] = [i for i in fr["cands"] if i != o.id]
