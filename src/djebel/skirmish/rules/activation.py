"""Activation and command rolls (spec 1.2, 1.4, C.1): targets, leader bonus, blunders."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from djebel.core.errors import IllegalAction
from djebel.skirmish.geometry import COVER_LEVELS, bearing, centre_distance, distance
from djebel.skirmish.rules.fire import apply_hits, attack, category, situation
from djebel.skirmish.rules.movement import move_cm, plan_ground
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame


def cr_target(g: SkirmishGame, e: Element, reaction: bool = False) -> int:
    """R13/R14/D1: base 7 (French) or 8 (Insurgents) plus successes this phase."""
    base = g.tabs["command"]["base_target"]["french" if e.side == "french" else "insurgent"]
    return base if reaction else base + e.k


def leader_bonus(g: SkirmishGame, e: Element) -> int:
    """R15/D6: +1 when an unpinned friendly leader on the table touches the element."""
    if e.blundered_turn == g.turn or not e.on_table:
        return 0                                           # R27
    eps = g.tabs["table"]["contact_eps_cm"]
    for o in g.elements:
        if (o.id != e.id and o.side == e.side and o.type == "leader" and o.on_table
                and not o.pinned and not o.airborne and distance(o.body, e.body) <= eps):
            return g.tabs["command"]["leader_contact_bonus"]
    return 0


def command_roll(g: SkirmishGame, e: Element, reaction: bool = False) -> str:
    """C.1: roll 2d6; returns 'blunder', 'fail', 'success' or 'double6'."""
    target = cr_target(g, e, reaction)
    mod = (0 if reaction else leader_bonus(g, e)) - e.markers      # R15, R16
    r = g.roll(2)
    if r[0] == 1 and r[1] == 1:
        outcome = "blunder"                                # R18
    elif r[0] == 6 and r[1] == 6:
        outcome = "double6"                                # R17
    else:
        outcome = "success" if r[0] + r[1] + mod >= target else "fail"
    g.log.add("R12", f"{e.label} command roll {r[0]}+{r[1]}{mod:+d} vs {target}+: {outcome}",
              dice=r, side=e.side)
    return outcome


def blunder(g: SkirmishGame, e: Element, forced: int | None = None) -> list[str]:
    """R25/D65/D66: roll 1D6 on the blunder table (or apply a group's roll, D8);
    returns follow-ups ('react', 'pin', 'cc')."""
    r = g.roll(1) if forced is None else (forced,)
    n = r[0]
    e.blundered_turn = g.turn
    if e.airborne and n in (4, 5):
        n = 6                                              # D65: aircraft read 4-5 as 6
    names = {1: "sniper", 2: "mortar barrage", 3: "confused fire", 4: "fall back",
             5: "confused advance", 6: "confused, pinned"}
    g.log.add("R25", f"{e.label} BLUNDERS: {names[n]}", dice=r if forced is None else (),
              side=e.side)
    follow: list[str] = []
    if n == 1:
        leaders = [o for o in g.elements if o.side == e.side and o.type == "leader"
                   and o.on_table]
        if leaders:
            victim = min(leaders, key=lambda o: (centre_distance(o.body, e.body), o.id))
            g.log.add("D66", f"a sniper kills {victim.label}")
            g.remove(victim, "eliminated")
    elif n == 2:
        _barrage(g, e)
    elif n == 3:
        if _confused_fire(g, e):
            follow.append("react")
    elif n == 4:
        _fall_back(g, e)
        follow.append("react")
        if not e.removed:
            g.pin(e)
    elif n == 5:
        contact = _advance_on_enemy(g, e)
        follow.append("react")
        follow.append("pin")
        if contact:
            follow.append("cc")
    else:
        g.pin(e)
    return follow


def _barrage(g: SkirmishGame, e: Element) -> None:
    """D66 result 2: five dice, 4+ each a hit; saves without weapon modifiers."""
    spec = g.tabs["blunder"]["rows"][1]
    if e.airborne:
        g.log.add("D66", f"the barrage cannot reach airborne {e.label}")
        return
    rolls = g.roll(spec["dice"])
    hits = sum(1 for x in rolls if x >= spec["hit_on"])
    g.log.add("R25", f"mortar barrage on {e.label}: {hits} hit(s)", dice=rolls)
    if not hits:
        return
    cover = 0
    hard = False
    if e.t.is_infantry:
        for f in g.terrain.containing(e.x, e.y):
            c = COVER_LEVELS[f.props["cover"]]
            if c > cover:
                cover, hard = c, f.props["hard"]
    apply_hits(g, None, e, hits, "ap" if e.t.is_infantry else "at", cover, hard,
               weapon_mod=False, top=False)


def _confused_fire(g: SkirmishGame, e: Element) -> bool:
    """D66 result 3: full dice at the farthest friendly element it can see and hurt."""
    best = None
    for o in g.elements:
        if o.id == e.id or o.side != e.side or not o.on_table:
            continue
        if e.side == "french" and g.in_fight(o.id):
            continue
        if not g.terrain_sees(e, o):
            continue
        cat = category(o)
        if cat == "ap" and (e.ap_dice() <= 0 or e.t.hard_target_only_ap):
            continue
        if cat == "at":
            if e.at_dice() <= 0:
                continue
            if e.t.at_only_vs_armour and o.t.armour_save not in e.t.at_only_vs_armour:
                continue
            if e.t.at_vs_aircraft_only and not (o.t.is_aircraft and o.airborne):
                continue
            if e.airborne and o.airborne:
                continue
        d = centre_distance(e.body, o.body)
        if best is None or d > best[0]:
            best = (d, o)
    if best is None:
        g.log.add("D66", f"{e.label} has no friendly target: no effect")
        return False
    o = best[1]
    attack(g, e, o, moving=False, sit=situation(g, e, o))
    return True


def _straight_moves(g: SkirmishGame, e: Element, heading: float, moves: int) -> bool:
    """Move up to ``moves`` allowances straight along ``heading``; True on enemy contact.

    D65 reads immobilized vehicles as not moving; a landed helicopter is read the same way,
    since it moves only by taking off first (R134) and has no ground allowance."""
    if e.immobilized or not e.ground or e.t.is_aircraft:
        return False
    full = move_cm(g, e) * moves
    rad = math.radians(heading)
    lo, hi = 0.0, full
    plan = None
    try:
        plan = plan_ground(g, e, [(e.x + math.cos(rad) * full, e.y + math.sin(rad) * full)],
                           e.facing, moves)
    except IllegalAction:
        for _ in range(12):
            mid = (lo + hi) / 2
            try:
                p = plan_ground(g, e, [(e.x + math.cos(rad) * mid, e.y + math.sin(rad) * mid)],
                                e.facing, moves)
                plan, lo = p, mid
            except IllegalAction:
                hi = mid
    if plan is None or len(plan.path) < 2:
        return False
    g.place(e, plan.path[-1][0], plan.path[-1][1], plan.face)
    g.log.add("D65", f"{e.label} moves to ({e.x:.1f}, {e.y:.1f})")
    return plan.contact


def _nearest_enemy(g: SkirmishGame, e: Element) -> Element | None:
    enemies = [o for o in g.elements if o.side != e.side and o.on_table]
    if not enemies:
        return None
    return min(enemies, key=lambda o: (centre_distance(o.body, e.body), o.id))


def _fall_back(g: SkirmishGame, e: Element) -> None:
    """D65 result 4: two moves straight away from the nearest enemy, facing unchanged."""
    foe = _nearest_enemy(g, e)
    if foe is not None:
        heading = bearing(foe.x, foe.y, e.x, e.y)
    else:
        heading = {"west": 180.0, "east": 0.0, "north": 90.0, "south": 270.0}[
            g.scn.home_edges[e.side]]
    _straight_moves(g, e, heading, 2)


def _advance_on_enemy(g: SkirmishGame, e: Element) -> bool:
    """D65 result 5: two moves towards the nearest enemy, stopping at contact."""
    foe = _nearest_enemy(g, e)
    if foe is None:
        return False
    return _straight_moves(g, e, bearing(e.x, e.y, foe.x, foe.y), 2)


def group_members_ok(g: SkirmishGame, leader: Element, member: Element) -> str:
    """D7.1: '' if ``member`` may join ``leader``'s group now, else why not."""
    if member.side != leader.side or member.id == leader.id:
        return "not a friendly element"
    if member.type == "leader":
        return "leaders cannot join another leader's group (D11)"
    if not member.on_table or member.pinned or member.activated:
        return "it must be on the table, unpinned and not yet activated"
    if member.blundered_turn == g.turn:
        return "it blundered this turn (R27)"
    if g.in_fight(member.id):
        return "it is in close combat"
    if member.airborne:
        return "airborne aircraft cannot join a group"
    radius = g.tabs["command"]["group_radius_cm"]
    if distance(member.body, leader.body) > radius + 1e-9:
        return f"it is more than {radius:g} cm from the leader"
    return ""


def group_roll(g: SkirmishGame, leader: Element, members: list[Element], kg: int) -> str:
    """D7.3: the leader rolls for the group; no leader +1; the worst damage markers count."""
    base = g.tabs["command"]["base_target"]["french" if leader.side == "french" else "insurgent"]
    target = base + kg
    mod = -max((m.markers for m in members), default=0)
    r = g.roll(2)
    if r[0] == 1 and r[1] == 1:
        outcome = "blunder"
    elif r[0] == 6 and r[1] == 6:
        outcome = "double6"
    else:
        outcome = "success" if r[0] + r[1] + mod >= target else "fail"
    g.log.add("D7", f"{leader.label}'s group command roll {r[0]}+{r[1]}{mod:+d} vs {target}+: "
              f"{outcome}", dice=r, side=leader.side)
    return outcome
