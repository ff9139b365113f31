"""Orders of the phasing side: activation, command rolls, groups and every action
(spec 1.2-1.4, 1.7, 1.12, D2-D10, D19-D23, D73)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.skirmish import flow
from djebel.skirmish.geometry import Body, base_poly, distance
from djebel.skirmish.rules import (
    activation,
    aircraft,
    fire,
    garnish,
    movement,
    reactions,
)
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame


def eligible_to_activate(g: SkirmishGame, e: Element) -> str:
    """R10/D9: '' if the phasing player may activate ``e`` now, else why not."""
    if e.side != g.phasing:
        return "it is not that side's phase"
    if e.removed:
        return "it is out of play"
    if e.activated:
        return "it has already activated this phase (R10)"
    if e.off_table:
        if e.available_turn > g.turn:
            return f"it is not available before turn {e.available_turn}"
        if e.max_sorties and e.sorties_used >= e.max_sorties:
            return "it has flown all its sorties"
        return ""
    if e.embarked_in >= 0:
        c = g.elements[e.embarked_in]
        if c.immobilized or c.forced_down or g.in_fight(c.id):
            return ""
        return "it is embarked: only its carrier can unload it (R138)"
    return ""


def do_main(g: SkirmishGame, fr: dict, a: Action) -> None:
    if a.verb == "endphase":
        g.log.add("R5", f"{g.phasing} end their phase", side=g.phasing)
        flow.end_phase(g)
        return
    if a.verb == "group":
        _form_group(g, a)
        return
    if a.verb != "activate":
        raise IllegalAction("R10", "choose 'activate ELEMENT', 'group LEADER ...' or 'endphase'")
    e = arg_el(g, a, 0, "R10")
    why = eligible_to_activate(g, e)
    if why:
        raise IllegalAction("R10", f"{e.label} cannot activate: {why}")
    e.activated = True
    free = not e.pinned                                    # R11, R21
    g.frames.append({"k": "act", "e": e.id, "free": free, "credits": 0, "sub": "",
                     "obs": []})
    g.log.add("R9", f"{e.label} activates{' (free action)' if free else ' (pinned)'}",
              side=e.side)


def _form_group(g: SkirmishGame, a: Action) -> None:
    """R24/D7.1: a leader forms a group of nearby, unpinned, not yet activated elements."""
    leader = arg_el(g, a, 0, "R24")
    if leader.type != "leader":
        raise IllegalAction("R24", f"{leader.label} is not a leader")
    why = eligible_to_activate(g, leader)
    if why or not leader.on_table or leader.pinned or g.in_fight(leader.id) or leader.airborne:
        raise IllegalAction("R24", f"{leader.label} cannot lead a group now")
    members = [g.el(x, "R24") for x in a.args[1:]]
    if not members:
        raise IllegalAction("R24", "name the group's members: 'group L1 F2 F3'")
    if len({m.id for m in members}) != len(members):
        raise IllegalAction("R24", "a member is named twice")
    for m in members:
        why = activation.group_members_ok(g, leader, m)
        if why:
            raise IllegalAction("D7", f"{m.label} cannot join the group: {why}")
    ids = [leader.id] + [m.id for m in members]
    for i in ids:
        g.elements[i].activated = True
    g.frames.append({"k": "group", "l": leader.id, "m": ids, "free": list(ids),
                     "credits": {}, "kg": 0})
    g.log.add("R24", f"{leader.label} activates a group: "
              + ", ".join(g.elements[i].label for i in ids), side=leader.side)


def do_group(g: SkirmishGame, fr: dict, a: Action) -> None:
    """D7.2-D7.5: members' free actions, then the leader's group command rolls."""
    leader = g.elements[fr["l"]]
    if a.verb in ("end", "roll") and a.args and str(a.args[0]) != leader.label:
        raise IllegalAction("D7", f"{leader.label} leads this group; it rolls or ends it")
    if a.verb == "end":
        g.frames.pop()
        g.log.add("R20", f"{leader.label}'s group ends its activation", side=leader.side)
        return
    members = [g.elements[i] for i in fr["m"] if not g.elements[i].removed]
    if a.verb == "roll":
        if any(v > 0 for v in fr["credits"].values()):
            raise IllegalAction("R12", "every member must use its share first")
        out = activation.group_roll(g, leader, members, fr["kg"])
        fr["free"] = []
        if out == "blunder":
            g.frames.pop()
            _group_blunder(g, leader, members)
            return
        if out == "fail":
            g.frames.pop()                                 # D7.5
            return
        fr["kg"] += 1
        credits = {}
        for m in members:
            share = 2 if out == "double6" else 1
            if m.pinned:
                m.pinned = False                           # D7.4: the share unpins
                share -= 1
            credits[str(m.id)] = share
        fr["credits"] = credits
        return
    if not a.args:
        raise IllegalAction("D7", "orders name the member first")
    e = g.el(a.args[0], "D7")
    if e.id not in fr["m"] or e.removed:
        raise IllegalAction("D7", f"{e.label} is not in this group")
    free = e.id in fr["free"]
    credit = fr["credits"].get(str(e.id), 0)
    if not free and credit <= 0:
        raise IllegalAction("R12", f"{e.label} has no action left in this group activation")
    if a.verb == "unpin" or e.pinned:
        if a.verb != "unpin" or not e.pinned or credit <= 0:
            raise IllegalAction("D7", f"a pinned member uses its share to unpin: 'unpin {e.label}'"
                                if e.pinned else f"{e.label} is not pinned")
        fr["credits"] = dict(fr["credits"], **{str(e.id): credit - 1})
        e.pinned = False                                   # D7.4
        g.log.add("D7", f"{e.label} uses its share to unpin", side=e.side)
        return
    act = {"k": "act", "e": e.id, "free": free, "credits": 0 if free else 1, "sub": "",
           "obs": [], "grp": True}
    if free:
        fr["free"] = [i for i in fr["free"] if i != e.id]
    else:
        fr["credits"] = dict(fr["credits"], **{str(e.id): credit - 1})
    g.frames.append(act)
    if a.verb in ("roll", "end"):
        raise IllegalAction("D7", "members do not roll or end on their own in a group")
    do_act(g, act, a)


def _group_blunder(g: SkirmishGame, leader: Element, members: list[Element]) -> None:
    """D8: one blunder roll for the whole group."""
    r = g.roll(1)
    n = r[0]
    g.log.add("D8", f"{leader.label}'s group blunders", dice=r, side=leader.side)
    if n == 1:
        for m in members:
            m.blundered_turn = g.turn
        activation.blunder(g, leader, forced=1)
        return
    for m in sorted(members, key=lambda m: m.id):
        if m.removed:
            continue
        follow = activation.blunder(g, m, forced=n)
        blunder_follow(g, m, follow)


def _spend(g: SkirmishGame, fr: dict, e: Element) -> None:
    if fr["free"]:
        fr["free"] = False
    elif fr["credits"] > 0:
        fr["credits"] -= 1
    else:
        raise IllegalAction("R12", f"{e.label} has no action left: take a command roll")
    if e.overwatch:
        e.overwatch = False                                # D15.2


def _need_action(fr: dict, e: Element, rally: bool = False) -> None:
    if rally and fr["credits"] <= 0:
        raise IllegalAction("R51", "Rally can never be the free action: it needs a command roll")
    if not fr["free"] and fr["credits"] <= 0:
        raise IllegalAction("R12", f"{e.label} has no action left: take a command roll")


ACT_VERBS = ("roll", "end", "move", "sprint", "shoot", "fire", "hold", "overwatch", "load",
             "unload", "dismount", "pickup", "stow", "setdown", "rally", "takeoff", "land",
             "leave", "cc")


def do_act(g: SkirmishGame, fr: dict, a: Action) -> None:
    e = g.elements[fr["e"]]
    if a.verb not in ACT_VERBS:
        raise IllegalAction("R46", f"unknown order {a.verb!r}")
    if fr.get("grp") and a.verb in ("end", "roll"):
        raise IllegalAction("D7", "members of a group do not roll or end on their own")
    if a.verb in ("end", "roll"):
        if a.args and str(a.args[0]) != e.label:
            raise IllegalAction("R10", f"{e.label} is the element activating")
    elif not a.args or str(a.args[0]) != e.label:
        raise IllegalAction("R10", f"{e.label} is the element activating; orders name it first")
    sub = fr["sub"]
    if sub == "fire" and a.verb not in ("fire", "hold"):
        raise IllegalAction("R46", f"{e.label} may fire (at -1) or 'hold' after its move")
    if sub == "move" and a.verb not in ("move", "hold"):
        raise IllegalAction("R46", f"{e.label} may move or 'hold' after its fire")
    if sub == "" and a.verb == "hold":
        raise IllegalAction("R46", "nothing to hold")
    verb = a.verb
    if verb == "end":
        g.frames.pop()
        g.log.add("R20", f"{e.label} ends its activation", side=e.side)
        return
    if verb == "roll":
        if fr["credits"] > 0:
            raise IllegalAction("R12", f"{e.label} still has an action to use first")
        # D2: an unused free action may be given up for a roll (it is forfeited by the CR)
        if e.overwatch:
            e.overwatch = False
        _command(g, fr, e)
        return
    if verb == "hold":
        fr["sub"] = ""
        flow.push_react(g, e, fr.get("obs") or None)
        return
    fight = g.in_fight(e.id)
    if fight and verb != "cc":
        raise IllegalAction("R54", f"{e.label} is in close combat: its actions fight rounds")
    if verb == "cc":
        if not fight:
            raise IllegalAction("R121", f"{e.label} is not in close combat")
        _need_action(fr, e)
        _spend(g, fr, e)
        g.frames.append({"k": "react", "t": e.id, "obs": flow.observers(g, e)})
        g.frames.append({"k": "cc", "e": e.id})            # R121, D55
        return
    if e.embarked_in >= 0 and verb != "dismount":
        raise IllegalAction("R140", f"{e.label} is embarked: it can only dismount")
    if e.off_table and verb not in ("move", "sprint"):
        raise IllegalAction("R130", f"{e.label} is off the table: its first move brings it on")
    if sub == "fire":
        fire_order(g, e, a, moving=True)
        fr["sub"] = ""
        flow.push_react(g, e, fr.get("obs") or None)
        return
    if sub == "move":
        plan = plan_move(g, e, a, 1)
        fr["sub"] = ""
        flow.start_move(g, e, plan, "react", ow=True)
        return
    _need_action(fr, e, rally=(verb == "rally"))
    if e.t.is_fixed_wing and e.on_table and verb not in ("move", "shoot", "fire", "leave"):
        raise IllegalAction("R132", f"{e.label} can only move, shoot or leave")
    if verb in ("move", "sprint"):
        if verb == "sprint" and e.t.is_aircraft:
            raise IllegalAction("R129", "aircraft moves are unlimited: use 'move'")
        moves = 1 if verb == "move" else 2
        if e.off_table and not e.t.is_aircraft:
            pts, face = parse_path(a)
            plan, (ex, ey, inward) = movement.plan_entry(g, e, pts, face, moves)
            _spend(g, fr, e)
            e.off_table = False                            # D70
            g.place(e, ex, ey, inward)
            g.log.add("D70", f"{e.label} enters by the {g.entry[e.label]} edge", side=e.side)
            flow.start_move(g, e, plan, "ms" if verb == "move" else "react", ow=True)
            return
        plan = plan_move(g, e, a, moves)
        _spend(g, fr, e)
        if e.off_table:
            e.off_table = False                            # R129: arrives from off the table
            e.sorties_used += 1
            x, y = plan.path[-1]
            g.place(e, x, y, plan.face)
            g.log.add("R129", f"{e.label} arrives at ({e.x:.1f}, {e.y:.1f})", side=e.side)
            plan = movement.MovePlan([(x, y), (x, y)], plan.face)
        flow.start_move(g, e, plan, "ms" if verb == "move" else "react", ow=True)
        return
    if verb == "shoot":
        fire_order(g, e, a, moving=False, check_only=True)
        _spend(g, fr, e)
        fire_order(g, e, a, moving=False)
        flow.push_react(g, e)
        return
    if verb == "fire":
        fire_order(g, e, a, moving=True, check_only=True)
        _spend(g, fr, e)
        fire_order(g, e, a, moving=True)
        if not e.removed and not e.pinned:
            fr["sub"] = "move"
        else:
            flow.push_react(g, e)
        return
    if verb == "leave":
        if not e.t.is_aircraft or not e.airborne:
            raise IllegalAction("R129", f"{e.label} is not an airborne aircraft")
        _spend(g, fr, e)
        aircraft.leave_table(g, e)
        fr["left"] = True
        g.frames.pop()
        return
    other_action(g, e, a, reaction=False, fr=fr)


def _command(g: SkirmishGame, fr: dict, e: Element) -> None:
    """C.1 for an element's own activation."""
    out = activation.command_roll(g, e)
    if out == "blunder":
        g.frames.pop()                                     # R19, R26
        follow = activation.blunder(g, e)
        blunder_follow(g, e, follow)
        return
    if out == "fail":
        g.frames.pop()                                     # R19
        return
    fr["free"] = False                                     # D2: free action forfeited
    e.k += 1                                               # R14, D1
    gained = 2 if out == "double6" else 1
    if e.pinned:
        e.pinned = False                                   # R21, D4
        g.log.add("R21", f"{e.label} unpins itself")
        gained = 1 if out == "double6" else 0
        if g.opt("unpin_roll_grants_action"):
            gained += 1
    fr["credits"] += gained


def blunder_follow(g: SkirmishGame, e: Element, follow: list[str]) -> None:
    if e.removed:
        return
    if "react" in follow:
        flow.push_react(g, e)
    if "pin" in follow:
        g.frames.append({"k": "pin", "e": e.id})
    if "cc" in follow and g.in_fight(e.id):
        g.frames.append({"k": "cc", "e": e.id})
        eps = g.tabs["table"]["contact_eps_cm"]
        cands = [o.id for o in g.elements
                 if o.side != e.side and o.ground and reactions.can_charge_react(g, o)
                 and base_poly(o.body).distance(base_poly(e.body)) <= eps]
        if cands and e.side == g.phasing:
            g.frames.append({"k": "charge", "t": e.id, "cands": cands})    # D17


def plan_move(g: SkirmishGame, e: Element, a: Action, moves: int) -> movement.MovePlan:
    pts, face = parse_path(a)
    if e.t.is_aircraft and (e.airborne or e.off_table):
        if len(pts) != 1:
            raise IllegalAction("R129", "an aircraft move names one destination")
        if e.off_table:
            e2 = e.copy()
            e2.airborne = True
            return movement.plan_air(g, e2, pts[0][0], pts[0][1], face)
        return movement.plan_air(g, e, pts[0][0], pts[0][1], face)
    if e.t.is_aircraft:
        raise IllegalAction("R134", f"{e.label} is landed: take off first")
    return movement.plan_ground(g, e, pts, face, moves)


def _targets(g: SkirmishGame, e: Element, a: Action) -> tuple[list[Element], bool]:
    words = [str(w) for w in a.args[1:]]
    law = "law" in words
    names = [w for w in words if w != "law"]
    if not names:
        raise IllegalAction("R60", "name a target: 'shoot F1 I3'")
    if len(names) > 2:
        raise IllegalAction("R56", "one fire is at most one AP and one AT attack")
    ts = [g.el(n, "R60") for n in names]
    cats = [fire.category(t) for t in ts]
    if len(ts) == 2:
        if cats[0] == cats[1]:
            raise IllegalAction("R56", "the two attacks of one fire must be one AP, one AT")
        if e.t.choose_ap_or_at_per_action:
            raise IllegalAction("R77", f"{e.label} fires AP or AT in one action, not both")
    if law and "at" not in cats:
        raise IllegalAction("R78", "the AT-4 volley is an AT attack")
    return ts, law


def fire_order(g: SkirmishGame, e: Element, a: Action, moving: bool, check_only: bool = False,
          arc: bool = True, reaction_target: int | None = None, charge: bool = False) -> None:
    if e.embarked_in >= 0 or not e.on_table:
        raise IllegalAction("R140", f"{e.label} cannot fire from where it is")
    ts, law = _targets(g, e, a)
    sits = []
    for t in ts:
        use_law = law and fire.category(t) == "at"
        sits.append(fire.check_attack(g, e, t, law=use_law, arc=arc,
                                      reaction_target=reaction_target, charge=charge))
    if check_only:
        return
    for t, sit in zip(ts, sits, strict=True):
        if e.removed or t.removed or not t.on_table:
            continue
        use_law = law and fire.category(t) == "at"
        fire.attack(g, e, t, moving=moving, law=use_law, sit=sit, charge=charge)


def contact(g: SkirmishGame, a: Element, b_el: Element) -> bool:
    eps = g.tabs["table"]["contact_eps_cm"]
    return base_poly(a.body).distance(base_poly(b_el.body)) <= eps


def other_action(g: SkirmishGame, e: Element, a: Action, reaction: bool, fr: dict | None) -> None:
    """Overwatch, load/unload, casualties, rally, take-off and landing (R40-R52, D21, D73)."""
    verb = a.verb

    def spend() -> None:
        if fr is not None:
            _spend(g, fr, e)

    if verb == "overwatch":
        if e.t.is_fixed_wing:
            raise IllegalAction("R35", "fixed-wing aircraft cannot react or overwatch")
        spend()
        e.overwatch = True
        g.log.add("R40", f"{e.label} goes on overwatch", side=e.side)
        if not reaction:
            flow.push_react(g, e)
        return
    if verb == "load":
        c = arg_el(g, a, 1, "R137")
        if not e.t.is_infantry:
            raise IllegalAction("R137", "only infantry get into vehicles")
        if c.side != e.side or c.t.passenger_capacity <= 0 or not c.ground:
            raise IllegalAction("R137", f"{c.label} is not a friendly carrier on the ground")
        if c.t.is_aircraft and c.airborne:
            raise IllegalAction("D21", "an airborne helicopter cannot take anyone aboard")
        if not contact(g, e, c):
            raise IllegalAction("R137", f"{e.label} is not in base contact with {c.label}")
        need = 1 + sum(1 for m in g.markers if m.carried_by == e.id and not m.evacuated)
        if aircraft.free_slots(g, c) < need:
            raise IllegalAction("D22", f"{c.label} has no free slot")
        spend()
        e.embarked_in = c.id
        e.overwatch = False
        g.dirty()
        g.log.add("R137", f"{e.label} boards {c.label}", side=e.side)
        flow.push_react(g, c) if not reaction else None
        return
    if verb == "unload":
        if g.in_fight(e.id):
            raise IllegalAction("D59", "a carrier in close combat cannot order an unload")
        aboard = aircraft.passengers(g, e)
        if not aboard:
            raise IllegalAction("R138", f"{e.label} carries no passengers")
        if e.airborne and not g.opt("fast_rope_allowed"):
            raise IllegalAction("R136", "fast-roping is switched off: land first")
        names = [str(w) for w in a.args[1:]]
        who = aboard if not names else [g.el(n, "R138") for n in names]
        if any(p not in aboard for p in who):
            raise IllegalAction("R138", f"not all of {names} are aboard {e.label}")
        spend()
        done = aircraft.unload(g, e, who, reaction)
        if not done:
            g.log.add("R138", f"{e.label}'s passengers could not be placed")
        if not reaction:
            flow.push_react(g, e)
        return
    if verb == "dismount":
        c = g.elements[e.embarked_in] if e.embarked_in >= 0 else None
        if c is None:
            raise IllegalAction("R137", f"{e.label} is not embarked")
        if not (c.immobilized or c.forced_down or g.in_fight(c.id)):
            raise IllegalAction("R138", "passengers may dismount by themselves only from an "
                                "immobilized, downed or fighting carrier (D21.3)")
        spend()
        done = aircraft.unload(g, c, [e], reaction)
        if not done:
            raise IllegalAction("D21", f"there is no room to put {e.label} down")
        flow.push_react(g, e)
        return
    if verb in ("pickup", "stow", "setdown"):
        _casualty_action(g, e, a, spend)
        return
    if verb == "rally":
        p = arg_el(g, a, 1, "R51")
        if e.type != "leader":
            raise IllegalAction("R51", "only leaders rally")
        if p.side != e.side or not p.pinned or p.id == e.id or not p.on_table:
            raise IllegalAction("R51", f"{p.label} is not a pinned friendly element")
        if not contact(g, e, p):
            raise IllegalAction("R51", f"{e.label} is not in base contact with {p.label}")
        if reaction:
            out = activation.command_roll(g, e, reaction=True)          # D18
            if out == "blunder":
                follow = activation.blunder(g, e)
                blunder_follow(g, e, follow)
                return
            if out == "fail":
                return
        else:
            spend()
        p.pinned = False
        g.log.add("R51", f"{e.label} rallies {p.label}", side=e.side)
        if p.blundered_turn == g.turn and p.side == g.phasing:
            p.activated = True                             # R27: no further actions
        if not reaction:
            flow.push_react(g, e)
        return
    if verb in ("takeoff", "land"):
        up = verb == "takeoff"          # R134 take-off, R135 landing
        (aircraft.check_takeoff if up else aircraft.check_land)(g, e)
        spend()
        e.airborne = up
        g.dirty()
        g.log.add("R134" if up else "R135", f"{e.label} {'takes off' if up else 'lands'}",
                  side=e.side)
        if not reaction:
            flow.push_react(g, e)
        return
    raise IllegalAction("R46", f"{e.label} cannot '{verb}' now")


def _casualty_action(g: SkirmishGame, e: Element, a: Action, spend) -> None:
    """D73.3/D73.4: pick up, stow and set down casualty markers."""
    if e.side != "french" or not g.opt("casualty_rules"):
        raise IllegalAction("D73", "only the French recover casualties")
    verb = a.verb
    if verb == "pickup":
        if len(a.args) < 2:
            raise IllegalAction("D73", "name the casualty marker: 'pickup F3 C1'")
        mid = str(a.args[1])
        ms = [m for m in g.markers if m.label == mid and m.on_table]
        if not ms:
            raise IllegalAction("D73", f"no casualty marker {mid} on the table")
        m = ms[0]
        if not garnish.marker_contact(g, e, m):
            raise IllegalAction("D73", f"{e.label} is not in base contact with {mid}")
        if e.t.is_infantry:
            if any(x.carried_by == e.id and not x.evacuated for x in g.markers):
                raise IllegalAction("D73", f"{e.label} already carries a casualty")
        elif e.t.passenger_capacity <= 0 or aircraft.free_slots(g, e) < 1 or e.airborne:
            raise IllegalAction("D73", f"{e.label} cannot take a casualty aboard")
        spend()
        _set_marker(g, m.id, carried_by=e.id)
        g.log.add("D73", f"{e.label} picks up casualty {mid}", side=e.side)
        flow.push_react(g, e)
        return
    if verb == "stow":
        c = arg_el(g, a, 1, "D73")
        mine = [m for m in g.markers if m.carried_by == e.id and not m.evacuated]
        if not e.t.is_infantry or not mine:
            raise IllegalAction("D73", f"{e.label} carries no casualty")
        if c.side != e.side or c.t.passenger_capacity <= 0 or not c.ground:
            raise IllegalAction("D73", f"{c.label} is not a friendly carrier on the ground")
        if not contact(g, e, c) or aircraft.free_slots(g, c) < 1:
            raise IllegalAction("D73", f"{c.label} is not in contact or has no free slot")
        spend()
        _set_marker(g, mine[0].id, carried_by=c.id)
        g.log.add("D73", f"{e.label} hands its casualty to {c.label}", side=e.side)
        flow.push_react(g, e)
        return
    mine = [m for m in g.markers if m.carried_by == e.id and not m.evacuated]
    if not mine:
        raise IllegalAction("D73", f"{e.label} carries no casualty")
    if not garnish.in_casevac_zone(g, e):
        raise IllegalAction("R150", f"{e.label} is not inside a CASEVAC zone")
    spend()
    for m in mine:
        _set_marker(g, m.id, evacuated=True)
        g.log.add("R150", f"casualty {m.label} evacuated at the CASEVAC point")
    flow.push_react(g, e)


def _set_marker(g: SkirmishGame, mid: int, **changes) -> None:
    ms = list(g.markers)
    m = ms[mid].copy()
    for k, v in changes.items():
        setattr(m, k, v)
    ms[mid] = m
    g.markers = ms


def check_place(g: SkirmishGame, e: Element, x: float, y: float, face: float) -> None:
    """Spec 4: a set-up position inside the element's zone, on legal ground, clear of
    other bases and civilians, and far enough from the enemy."""
    from shapely.geometry import Point

    fe = g.zones.get(e.label)
    if fe is None or e.side != g.frames[-1]["side"] or not e.on_table:
        raise IllegalAction("4", f"{e.label} has a fixed set-up position")
    spot = Point(x, y)
    if not any(z.distance(spot) <= 1e-6 for z in fe.zone):
        raise IllegalAction("4", f"({x:g}, {y:g}) is outside {e.label}'s set-up zone")
    t = e.t
    body = Body(x, y, face, t.base_w_cm, t.base_d_cm, e.airborne)
    poly = base_poly(body)
    b = poly.bounds
    if b[0] < 0 or b[1] < 0 or b[2] > g.terrain.width or b[3] > g.terrain.depth:
        raise IllegalAction("D19", f"{e.label}'s base would leave the table")
    reach = math.hypot(t.base_w_cm, t.base_d_cm) / 2     # centre to a corner
    if not e.airborne:
        imp = g.terrain.impassable(movement.mobility(e))
        # a base that does not touch the impassable ground has no area on it: skip the overlay
        if not imp.is_empty and poly.intersects(imp) and poly.intersection(imp).area > 1e-6:
            raise IllegalAction("R142", f"{e.label} cannot stand on that terrain")
        for o in g.elements:
            if o.id == e.id or not o.ground:
                continue
            # Bases whose circumscribed circles are apart cannot overlap: skip the polygons.
            if math.hypot(o.x - x, o.y - y) > reach + math.hypot(o.t.base_w_cm,
                                                                 o.t.base_d_cm) / 2:
                continue
            if base_poly(o.body).intersection(poly).area > 1e-6:
                raise IllegalAction("D19", f"{e.label}'s base would overlap {o.label}")
    radius = g.tabs["civilians"]["footprint_radius_cm"]
    # a civilian farther than radius + reach from the centre is farther than radius from
    # every point of the base: only the others need the exact distance
    near = reach + radius + 1e-6
    if any(poly.distance(Point(c)) < radius for c in g.scn.civilians
           if math.hypot(c[0] - x, c[1] - y) <= near):
        raise IllegalAction("D75", f"{e.label} may not stand on civilians")
    if fe.min_enemy_cm:
        for o in g.elements:
            if o.side != e.side and o.on_table and distance(body, o.body) < fe.min_enemy_cm:
                raise IllegalAction("4", f"{e.label} must set up at least {fe.min_enemy_cm:g} cm "
                                    f"from {o.label}")


def do_deploy(g: SkirmishGame, fr: dict, a: Action) -> None:
    """Spec 4: 'place', 'overwatch' (where the scenario allows it) and 'ready'."""
    side = fr["side"]
    if a.verb == "ready":
        if a.args:
            raise IllegalAction("4", "'ready' takes no arguments")
        order = g.scn.setup_order
        g.log.add("4", f"{side} are deployed", side=side)
        if side == order[-1]:
            flow.start_phase(g)
        else:
            fr["side"] = order[order.index(side) + 1]
        return
    e = arg_el(g, a, 0, "4")
    if e.side != side:
        raise IllegalAction("4", f"{e.label} is not the {side}'")
    if a.verb == "overwatch":
        if side not in g.scn.may_start_overwatch or not e.on_table or e.t.is_fixed_wing:
            raise IllegalAction("4", f"the {side} may not start on Overwatch here")
        e.overwatch = not e.overwatch
        return
    if a.verb != "place":
        raise IllegalAction("4", "set-up orders: 'place E x y [face F]', 'overwatch E', 'ready'")
    pts, face = parse_path(a)
    if len(pts) != 1:
        raise IllegalAction("4", "'place' takes one position")
    face = e.facing if face is None else face
    check_place(g, e, pts[0][0], pts[0][1], face)
    g.place(e, pts[0][0], pts[0][1], face)


def arg_el(g: SkirmishGame, a: Action, i: int, rule: str) -> Element:
    if len(a.args) <= i:
        raise IllegalAction(rule, f"'{a.verb}' needs an element name")
    return g.el(a.args[i], rule)


def parse_path(a: Action, start: int = 1) -> tuple[list[tuple[float, float]], float | None]:
    """``x y [x y ...] [face F]`` after the element name."""
    words = list(a.args[start:])
    face = None
    if "face" in words:
        i = words.index("face")
        if i != len(words) - 2 or not isinstance(words[-1], int | float):
            raise IllegalAction("D19", "write 'face DEGREES' at the end of the move")
        face = float(words[-1]) % 360.0
        words = words[:i]
    if not words or len(words) % 2 or not all(isinstance(w, int | float) for w in words):
        raise IllegalAction("D19", "a move needs x y coordinates (cm), e.g. 'move F1 45.5 60'")
    pts = [(float(words[j]), float(words[j + 1])) for j in range(0, len(words), 2)]
    return pts, face
