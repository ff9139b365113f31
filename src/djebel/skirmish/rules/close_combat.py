"""Close combat (spec 1.11, C.4): fights found from base contacts, rounds, allocation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from djebel.skirmish.rules import damage
from djebel.skirmish.rules.fire import infantry_losses, pin_test, split_evenly
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame


def cc_dice(e: Element) -> int:
    """R112/R113/D60: infantry current AP FP; vehicles AP FP or at least 1."""
    if e.t.is_infantry:
        return e.ap_dice()
    return max(1, e.ap_dice())


def fight_round(g: SkirmishGame, fight: set[int]) -> None:
    """One round of the whole fight: both sides roll, then losses apply together."""
    members = [g.elements[i] for i in sorted(fight)]
    sides = {"french": [e for e in members if e.side == "french"],
             "insurgents": [e for e in members if e.side == "insurgents"]}
    if not sides["french"] or not sides["insurgents"]:
        return
    cc = g.tabs["close_combat"]
    for e in members:
        e.overwatch = False                                # R41: CC ends Overwatch
    bonus = int(g.opt("bunker_cc_defender_bonus") or 0)
    in_bunker = {e.id for e in members if bonus and any(
        f.props.get("bunker") for f in g.terrain.containing(e.x, e.y))}
    hits: dict[str, int] = {}
    order = (g.phasing, g.other(g.phasing))
    for side in order:
        total = 0
        defended = any(o.id in in_bunker for o in sides[g.other(side)])
        for e in sides[side]:
            need = cc["hit_on"] + (cc["pinned_modifier"] if e.pinned else 0)   # R110, R114
            if defended and e.id not in in_bunker:
                need += bonus                              # D58 option
            need = min(need, 7)
            rolls = g.roll(cc_dice(e))
            n = sum(1 for r in rolls if r >= need)
            total += n
            g.log.add("R111", f"{e.label} fights with {len(rolls)} dice ({need}+): {n} hit(s)",
                      dice=rolls, side=side)
        hits[side] = total
    alloc: list[tuple[Element, int]] = []
    for side in order:
        enemy = g.other(side)
        alloc += [(e, k) for e, k in split_evenly(hits[side], sides[enemy]) if k]   # R115
    # R116/R117: apply both sides' losses, then pins
    pins: list[tuple[Element, int]] = []
    vehicle_hits: list[tuple[Element, int]] = []
    for e, k in alloc:
        if e.t.is_infantry:
            e.sp = max(0, e.sp - k)
            g.log.add("R116", f"{e.label} takes {k} close-combat hit(s), {e.sp} SP left")
            pins.append((e, k))
        else:
            rolls = g.roll(k)
            unsaved = sum(1 for r in rolls if r < e.t.cc_save)
            g.log.add("R117", f"{e.label} saves close-combat hits on {e.t.cc_save}+: "
                      f"{k - unsaved} of {k} saved", dice=rolls)
            if unsaved:
                vehicle_hits.append((e, unsaved))
    for e, _k in pins:
        if e.sp == 0 and not e.removed:
            infantry_losses(g, e, 0, "R116", pin=False)
    for e, unsaved in vehicle_hits:
        if not e.removed:
            damage.damage_roll(g, e, unsaved)              # R118
    for e, k in pins:
        if not e.removed:
            pin_test(g, e, k, "R116")
    g.log.add("R119", "close-combat round over" + (
        "" if any(not e.removed for e in sides["french"]) and any(
            not e.removed for e in sides["insurgents"]) else ": one side is gone"))
