"""The decision flow: phases, activations, reactions, overwatch and moves in progress.

``dispatch`` checks and carries out one action for the decision frame on top
of the stack; ``advance`` then runs automatic frames until a side must decide.
Every check happens before any change, and ``SkirmishGame.apply`` restores a
snapshot if anything still goes wrong, so an illegal action changes nothing.
"""

from __future__ import annotations

import math

from shapely import wkt
from shapely.geometry import LineString
from shapely.ops import unary_union

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.core.protocol import Result
from djebel.skirmish.geometry import base_poly, path_length, point_along
from djebel.skirmish.rules import activation, aircraft, close_combat, fire, garnish, movement
from djebel.skirmish.state import Element

# ---------------------------------------------------------------- phases


def start_phase(g) -> None:
    """C.5.1: reset per-phase counters; phasing fixed-wing aircraft leave (D64.3)."""
    for e in g.elements:
        e.activated = False
        e.k = 0
        e.reacted = False
    for e in g.elements:
        if e.side == g.phasing and e.t.is_fixed_wing and e.on_table:
            if e.pinned:
                e.pinned = False
            aircraft.leave_table(g, e)
            e.activated = True
    g.frames = [{"k": "main"}]
    g.log.add("R3", f"turn {g.turn}, {g.phasing} phase", side=g.phasing)


def end_phase(g) -> None:
    """C.5.3: searches, sudden death, then the next phase or the end of the game."""
    if g.phasing == "french" and g.scn.searchable:
        garnish.update_searched(g)
    sd = g.scn.sudden_death
    if sd and sum(g.civ_hits) >= sd.get("civilian_casualties_at_least", 10 ** 9):
        finish(g, sd.get("winner", "insurgents"), "sudden death: civilian casualties")
        return
    if g.phase_no == 1 and g.turn >= g.turn_limit:
        finish(g, None, f"turn limit ({g.turn_limit}) reached")
        return
    if g.phase_no == 0:
        g.phase_no = 1
    else:
        g.phase_no = 0
        g.turn += 1
    g.phasing = g.scn.first_side if g.phase_no == 0 else g.other(g.scn.first_side)
    start_phase(g)


def finish(g, winner: str | None, reason: str) -> None:
    """D78/D79: score both sides; the higher total wins unless a sudden death decided."""
    pts = garnish.score(g, final=True)
    level = "victory points"
    if winner is None:
        if pts["french"] > pts["insurgents"]:
            winner = "french"
        elif pts["insurgents"] > pts["french"]:
            winner = "insurgents"
    else:
        level = "sudden death"
    g.over = True
    g.frames = []
    g._result = Result(winner, level, pts, reason)
    g.log.add("D79", f"game over ({reason}): french {pts['french']}, insurgents "
              f"{pts['insurgents']}, winner {winner or 'none (draw)'}")


def _able(g, side: str) -> bool:
    for e in g.elements:
        if e.side != side or e.removed:
            continue
        if not e.off_table:
            return True
        if (e.max_sorties == 0 or e.sorties_used < e.max_sorties) and (
                e.available_turn <= g.turn_limit):
            return True
    return False


# ---------------------------------------------------------------- advance


def advance(g) -> None:
    """Run automatic frames until a side must decide (or the game ends)."""
    for _ in range(10_000):
        if g.over:
            return
        for side in g.sides:
            if not _able(g, side):
                finish(g, None, f"the {side} have no element left")
                return
        fr = g.frames[-1]
        k = fr["k"]
        if k == "main":
            return
        if k == "act":
            e = g.elements[fr["e"]]
            if e.removed or (e.off_table and e.activated and fr.get("left")):
                g.frames.pop()
                continue
            if fr.get("grp") and not fr["free"] and fr["credits"] <= 0 and not fr["sub"]:
                g.frames.pop()                             # the member's share is spent
                continue
            return
        if k == "group":
            leader = g.elements[fr["l"]]
            if leader.removed or leader.pinned or not leader.on_table:
                g.frames.pop()                             # D7.6
                g.log.add("D7", "the group activation ends with its leader")
                continue
            return
        if k == "react":
            if react_candidates(g, fr):
                return
            g.frames.pop()
            continue
        if k in ("ow", "charge"):
            if _live_cands(g, fr):
                return
            g.frames.pop()
            continue
        if k == "moving":
            if _step_move(g, fr):
                return
            continue
        if k == "after":
            g.frames.pop()
            _after(g, fr)
            continue
        if k == "cc":
            g.frames.pop()
            e = g.elements[fr["e"]]
            fight = None if e.removed else g.fight_of(e.id)
            if fight:
                close_combat.fight_round(g, fight)
                g.dirty()
            continue
        if k == "pin":
            g.frames.pop()
            e = g.elements[fr["e"]]
            if not e.removed:
                g.pin(e)
            continue
        raise AssertionError(f"unknown frame {k}")
    raise AssertionError("flow did not settle")


def can_react(g, o: Element) -> bool:
    """R28/R34-R36: unpinned, not yet reacted, on the table, not in a fight, no jets."""
    return (o.side != g.phasing and o.on_table and not o.pinned and not o.reacted
            and not o.t.is_fixed_wing and not g.in_fight(o.id))


def react_candidates(g, fr: dict) -> list[int]:
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


def can_charge_react(g, o: Element) -> bool:
    """R33/D17: like a reaction, but the fight the charge just started does not count."""
    return (o.side != g.phasing and o.on_table and not o.pinned and not o.reacted
            and not o.t.is_fixed_wing)


def _live_cands(g, fr: dict) -> list[int]:
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


def ow_ready(g, o: Element, t: Element) -> bool:
    """R42/R43/D15: an OW element that sees the mover in its forward arc and can hit it."""
    if not (o.overwatch and can_react(g, o)):
        return False
    try:
        fire.check_attack(g, o, t, reaction_target=t.id)
    except IllegalAction:
        return False
    return True


def observers(g, e: Element) -> list[int]:
    """D14: enemies on the table that see ``e`` now."""
    return [o.id for o in g.elements if o.side != e.side and o.on_table and g.sees(o, e)]


def push_react(g, e: Element, obs: list[int] | None = None) -> None:
    """R32: reactions follow the completed action (none to reactions themselves, R37)."""
    if e.side != g.phasing or not e.on_table:
        return
    if obs is None:
        obs = observers(g, e)
    if obs:
        g.frames.append({"k": "react", "t": e.id, "obs": sorted(set(obs))})


def start_move(g, e: Element, plan: movement.MovePlan, after: str, ow: bool) -> None:
    """Begin a move in progress; OW may interrupt it at sampled points (D14-D16)."""
    obs0 = observers(g, e) if ow else []
    g.frames.append({
        "k": "moving", "e": e.id, "path": [tuple(p) for p in plan.path], "face": plan.face,
        "i": 0, "ow": ow, "seen": [], "ends": [], "after": after, "exited": plan.exited,
        "breach": list(plan.breach), "contact": plan.contact, "pinned0": e.pinned,
        "obs": obs0, "stopped": False,
        "prefight": sorted(i for f in g.fights() for i in f),
    })


def _step_move(g, fr: dict) -> bool:
    """Advance a move in progress; True when it paused for an OW decision."""
    e = g.elements[fr["e"]]
    if e.removed:
        g.frames.pop()
        return False
    path = fr["path"]
    length = path_length(path)
    step = g.tabs["movement"]["observe_sample_step_cm"]
    n = max(1, math.ceil(length / step)) if length > 1e-9 else 0
    if not fr["stopped"] and e.pinned and not fr["pinned0"]:
        fr["stopped"] = True                               # D16: OW fire stopped it
        g.log.add("D16", f"{e.label} is stopped by overwatch fire")
    while not fr["stopped"] and fr["i"] <= n:
        i = fr["i"]
        if n and i < n:
            x, y, h = point_along(path, length * i / n)
            g.place(e, x, y, h if i > 0 else e.facing)
        else:
            g.place(e, path[-1][0], path[-1][1], fr["face"])
        if fr["ow"]:
            ready = []
            for o in g.elements:
                if o.side == e.side or o.id in fr["ends"]:
                    continue
                if i < n and o.id in fr["seen"]:
                    continue
                if ow_ready(g, o, e):
                    ready.append(o.id)
            if ready:
                fr["seen"] = sorted(set(fr["seen"]) | set(ready))
                if i == n:
                    fr["ends"] = sorted(set(fr["ends"]) | set(ready))
                g.frames.append({"k": "ow", "t": e.id, "cands": ready})
                return True
        if fr["ow"] and 0 < i < n and n > 2:
            fr["obs"] = sorted(set(fr["obs"]) | set(_seen_now(g, e, fr["obs"])))
        fr["i"] = i + 1
    # finished (or stopped)
    g.frames.pop()
    g.log.add("R46", f"{e.label} moves to ({e.x:.1f}, {e.y:.1f}) facing {e.facing:.0f}"
              + (" (stopped)" if fr["stopped"] else ""), side=e.side)
    if not fr["stopped"] and fr["breach"]:
        _breach(g, e, path, fr["breach"])
    if not fr["stopped"] and fr["exited"]:
        _exit(g, e, fr["exited"])
        return False
    obs = sorted(set(fr["obs"]) | set(observers(g, e))) if fr["ow"] else []
    g.frames.append({"k": "after", "e": e.id, "what": fr["after"], "obs": obs,
                     "stopped": fr["stopped"]})
    if fr["contact"] and not fr["stopped"] and g.in_fight(e.id):
        g.frames.append({"k": "cc", "e": e.id})
        if e.side == g.phasing and fr["ow"] is not None and fr["after"] != "none":
            eps = g.tabs["table"]["contact_eps_cm"]
            cands = [o.id for o in g.elements
                     if o.side != e.side and o.ground and o.id not in fr["prefight"]
                     and can_charge_react(g, o)
                     and base_poly(o.body).distance(base_poly(e.body)) <= eps]
            if cands:
                g.frames.append({"k": "charge", "t": e.id, "cands": cands})   # R33, D17
    return False


def _seen_now(g, e: Element, already: list[int]) -> list[int]:
    return [o.id for o in g.elements
            if o.side != e.side and o.on_table and o.id not in already and g.sees(o, e)]


def _breach(g, e: Element, path, fids: list[str]) -> None:
    """D63: a tracked vehicle crossing a wall removes the section under its path."""
    t = e.t
    half = min(t.base_w_cm, t.base_d_cm) / 2
    parts = [base_poly(e.body)]
    if path_length(path) > 1e-9:
        parts.append(LineString(path).buffer(half, cap_style="flat"))
    hole = wkt.loads(wkt.dumps(unary_union(parts), rounding_precision=4))
    for fid in fids:
        g.terrain = g.terrain.with_breach(fid, hole)
        g.breaches = g.breaches + [(fid, hole.wkt)]
        g.log.add("R146", f"{e.label} breaches {fid}")


def _exit(g, e: Element, edge: str) -> None:
    """D69: leaving by an exit edge; passengers and casualties aboard count as evacuated."""
    for p in aircraft.passengers(g, e):
        g.evacuate_carried(p, "vehicle")
        p.removed = "exited"
        p.exit_edge = edge
    g.evacuate_carried(e, "vehicle" if not e.t.is_infantry else "zone-none")
    e.removed = "exited"
    e.exit_edge = edge
    e.overwatch = False
    g.dirty()
    g.log.add("D69", f"{e.label} leaves the table by the {edge} edge")


def _after(g, fr: dict) -> None:
    e = g.elements[fr["e"]]
    if e.removed or not e.on_table:
        return
    what = fr["what"]
    if what == "ms":
        act = _act_frame(g, e)
        if act is not None and not fr["stopped"] and not g.in_fight(e.id) and not e.pinned:
            act["sub"] = "fire"
            act["obs"] = fr["obs"]
            return
        push_react(g, e, fr["obs"])
    elif what == "react":
        push_react(g, e, fr["obs"])


def _act_frame(g, e: Element) -> dict | None:
    for f in reversed(g.frames):
        if f["k"] == "act" and f["e"] == e.id:
            return f
    return None


# ---------------------------------------------------------------- dispatch


def dispatch(g, a: Action) -> None:
    fr = g.frames[-1]
    if a.verb in ("pass", "wait", "endphase") and a.args:
        raise IllegalAction("R4", f"'{a.verb}' takes no arguments")
    handler = {"main": _do_main, "act": _do_act, "react": _do_react, "ow": _do_ow,
               "charge": _do_charge, "group": _do_group}[fr["k"]]
    handler(g, fr, a)


def _arg_el(g, a: Action, i: int, rule: str) -> Element:
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


def eligible_to_activate(g, e: Element) -> str:
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


def _do_main(g, fr: dict, a: Action) -> None:
    if a.verb == "endphase":
        g.log.add("R5", f"{g.phasing} end their phase", side=g.phasing)
        end_phase(g)
        return
    if a.verb == "group":
        _form_group(g, a)
        return
    if a.verb != "activate":
        raise IllegalAction("R10", "choose 'activate ELEMENT', 'group LEADER ...' or 'endphase'")
    e = _arg_el(g, a, 0, "R10")
    why = eligible_to_activate(g, e)
    if why:
        raise IllegalAction("R10", f"{e.label} cannot activate: {why}")
    e.activated = True
    free = not e.pinned                                    # R11, R21
    g.frames.append({"k": "act", "e": e.id, "free": free, "credits": 0, "sub": "",
                     "obs": []})
    g.log.add("R9", f"{e.label} activates{' (free action)' if free else ' (pinned)'}",
              side=e.side)


def _form_group(g, a: Action) -> None:
    """R24/D7.1: a leader forms a group of nearby, unpinned, not yet activated elements."""
    leader = _arg_el(g, a, 0, "R24")
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


def _do_group(g, fr: dict, a: Action) -> None:
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
    _do_act(g, act, a)


def _group_blunder(g, leader: Element, members: list[Element]) -> None:
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
        _blunder_follow(g, m, follow)


def _spend(g, fr: dict, e: Element) -> None:
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


def _do_act(g, fr: dict, a: Action) -> None:
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
        if fr["free"] or fr["credits"] > 0:
            raise IllegalAction("R12", f"{e.label} still has an action to use first")
        if e.overwatch:
            e.overwatch = False
        _command(g, fr, e)
        return
    if verb == "hold":
        fr["sub"] = ""
        push_react(g, e, fr.get("obs") or None)
        return
    fight = g.in_fight(e.id)
    if fight and verb != "cc":
        raise IllegalAction("R54", f"{e.label} is in close combat: its actions fight rounds")
    if verb == "cc":
        if not fight:
            raise IllegalAction("R121", f"{e.label} is not in close combat")
        _need_action(fr, e)
        _spend(g, fr, e)
        g.frames.append({"k": "react", "t": e.id, "obs": observers(g, e)})
        g.frames.append({"k": "cc", "e": e.id})            # R121, D55
        return
    if e.embarked_in >= 0 and verb != "dismount":
        raise IllegalAction("R140", f"{e.label} is embarked: it can only dismount")
    if e.off_table and verb not in ("move", "sprint"):
        raise IllegalAction("R130", f"{e.label} is off the table: its first move brings it on")
    if sub == "fire":
        _fire(g, e, a, moving=True)
        fr["sub"] = ""
        push_react(g, e, fr.get("obs") or None)
        return
    if sub == "move":
        plan = _plan_move(g, e, a, 1)
        fr["sub"] = ""
        start_move(g, e, plan, "react", ow=True)
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
            start_move(g, e, plan, "ms" if verb == "move" else "react", ow=True)
            return
        plan = _plan_move(g, e, a, moves)
        _spend(g, fr, e)
        if e.off_table:
            e.off_table = False                            # R129: arrives from off the table
            e.sorties_used += 1
            x, y = plan.path[-1]
            g.place(e, x, y, plan.face)
            g.log.add("R129", f"{e.label} arrives at ({e.x:.1f}, {e.y:.1f})", side=e.side)
            plan = movement.MovePlan([(x, y), (x, y)], plan.face)
        start_move(g, e, plan, "ms" if verb == "move" else "react", ow=True)
        return
    if verb == "shoot":
        _fire(g, e, a, moving=False, check_only=True)
        _spend(g, fr, e)
        _fire(g, e, a, moving=False)
        push_react(g, e)
        return
    if verb == "fire":
        _fire(g, e, a, moving=True, check_only=True)
        _spend(g, fr, e)
        _fire(g, e, a, moving=True)
        if not e.removed and not e.pinned:
            fr["sub"] = "move"
        else:
            push_react(g, e)
        return
    if verb == "leave":
        if not e.t.is_aircraft or not e.airborne:
            raise IllegalAction("R129", f"{e.label} is not an airborne aircraft")
        _spend(g, fr, e)
        aircraft.leave_table(g, e)
        fr["left"] = True
        g.frames.pop()
        return
    _other_action(g, e, a, reaction=False, fr=fr)


def _command(g, fr: dict, e: Element) -> None:
    """C.1 for an element's own activation."""
    out = activation.command_roll(g, e)
    if out == "blunder":
        g.frames.pop()                                     # R19, R26
        follow = activation.blunder(g, e)
        _blunder_follow(g, e, follow)
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


def _blunder_follow(g, e: Element, follow: list[str]) -> None:
    if e.removed:
        return
    if "react" in follow:
        push_react(g, e)
    if "pin" in follow:
        g.frames.append({"k": "pin", "e": e.id})
    if "cc" in follow and g.in_fight(e.id):
        g.frames.append({"k": "cc", "e": e.id})
        eps = g.tabs["table"]["contact_eps_cm"]
        cands = [o.id for o in g.elements
                 if o.side != e.side and o.ground and can_charge_react(g, o)
                 and base_poly(o.body).distance(base_poly(e.body)) <= eps]
        if cands and e.side == g.phasing:
            g.frames.append({"k": "charge", "t": e.id, "cands": cands})    # D17


def _plan_move(g, e: Element, a: Action, moves: int) -> movement.MovePlan:
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


def _targets(g, e: Element, a: Action) -> tuple[list[Element], bool]:
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


def _fire(g, e: Element, a: Action, moving: bool, check_only: bool = False,
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


def _contact(g, a: Element, b_el: Element) -> bool:
    eps = g.tabs["table"]["contact_eps_cm"]
    return base_poly(a.body).distance(base_poly(b_el.body)) <= eps


def _other_action(g, e: Element, a: Action, reaction: bool, fr: dict | None) -> None:
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
            push_react(g, e)
        return
    if verb == "load":
        c = _arg_el(g, a, 1, "R137")
        if not e.t.is_infantry:
            raise IllegalAction("R137", "only infantry get into vehicles")
        if c.side != e.side or c.t.passenger_capacity <= 0 or not c.ground:
            raise IllegalAction("R137", f"{c.label} is not a friendly carrier on the ground")
        if c.t.is_aircraft and c.airborne:
            raise IllegalAction("D21", "an airborne helicopter cannot take anyone aboard")
        if not _contact(g, e, c):
            raise IllegalAction("R137", f"{e.label} is not in base contact with {c.label}")
        need = 1 + sum(1 for m in g.markers if m.carried_by == e.id and not m.evacuated)
        if aircraft.free_slots(g, c) < need:
            raise IllegalAction("D22", f"{c.label} has no free slot")
        spend()
        e.embarked_in = c.id
        e.overwatch = False
        g.dirty()
        g.log.add("R137", f"{e.label} boards {c.label}", side=e.side)
        push_react(g, c) if not reaction else None
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
            push_react(g, e)
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
        push_react(g, e)
        return
    if verb in ("pickup", "stow", "setdown"):
        _casualty_action(g, e, a, spend)
        return
    if verb == "rally":
        p = _arg_el(g, a, 1, "R51")
        if e.type != "leader":
            raise IllegalAction("R51", "only leaders rally")
        if p.side != e.side or not p.pinned or p.id == e.id or not p.on_table:
            raise IllegalAction("R51", f"{p.label} is not a pinned friendly element")
        if not _contact(g, e, p):
            raise IllegalAction("R51", f"{e.label} is not in base contact with {p.label}")
        if reaction:
            out = activation.command_roll(g, e, reaction=True)          # D18
            if out == "blunder":
                follow = activation.blunder(g, e)
                _blunder_follow(g, e, follow)
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
            push_react(g, e)
        return
    if verb == "takeoff":
        aircraft.check_takeoff(g, e)
        spend()
        e.airborne = True
        g.dirty()
        g.log.add("R134", f"{e.label} takes off", side=e.side)
        if not reaction:
            push_react(g, e)
        return
    if verb == "land":
        aircraft.check_land(g, e)
        spend()
        e.airborne = False
        g.dirty()
        g.log.add("R135", f"{e.label} lands", side=e.side)
        if not reaction:
            push_react(g, e)
        return
    raise IllegalAction("R46", f"{e.label} cannot '{verb}' now")


def _casualty_action(g, e: Element, a: Action, spend) -> None:
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
        push_react(g, e)
        return
    if verb == "stow":
        c = _arg_el(g, a, 1, "D73")
        mine = [m for m in g.markers if m.carried_by == e.id and not m.evacuated]
        if not e.t.is_infantry or not mine:
            raise IllegalAction("D73", f"{e.label} carries no casualty")
        if c.side != e.side or c.t.passenger_capacity <= 0 or not c.ground:
            raise IllegalAction("D73", f"{c.label} is not a friendly carrier on the ground")
        if not _contact(g, e, c) or aircraft.free_slots(g, c) < 1:
            raise IllegalAction("D73", f"{c.label} is not in contact or has no free slot")
        spend()
        _set_marker(g, mine[0].id, carried_by=c.id)
        g.log.add("D73", f"{e.label} hands its casualty to {c.label}", side=e.side)
        push_react(g, e)
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
    push_react(g, e)


def _set_marker(g, mid: int, **changes) -> None:
    ms = list(g.markers)
    m = ms[mid].copy()
    for k, v in changes.items():
        setattr(m, k, v)
    ms[mid] = m
    g.markers = ms


# ---------------------------------------------------------------- reactions


def _do_react(g, fr: dict, a: Action) -> None:
    if a.verb == "pass":
        g.frames.pop()
        return
    t = g.elements[fr["t"]]
    o = _arg_el(g, a, 0, "R29")
    if o.id not in react_candidates(g, fr):
        raise IllegalAction("R29", f"{o.label} cannot react now (it must have observed the "
                            "action, be unpinned, on the table and not yet have reacted)")
    _reaction(g, o, t, a)


def _reaction(g, o: Element, t: Element, a: Action, charge: bool = False) -> None:
    """R31/D12: one action without a CR; fire only at the triggering element."""
    verb = a.verb
    if verb == "shoot":
        _fire(g, o, a, moving=False, check_only=True, reaction_target=t.id, charge=charge)
        _mark_reacted(g, o)
        _fire(g, o, a, moving=False, reaction_target=t.id, charge=charge)
        return
    if verb == "turnshoot":
        if o.immobilized:
            raise IllegalAction("D51", f"{o.label} is immobilized and cannot pivot")
        old = o.facing
        face = check_pivot(g, o, t)
        o.facing = face
        try:
            _fire(g, o, a, moving=True, check_only=True, reaction_target=t.id, charge=charge)
        except IllegalAction:
            o.facing = old
            raise
        g.place(o, o.x, o.y, o.facing)
        _mark_reacted(g, o)
        _fire(g, o, a, moving=True, reaction_target=t.id, charge=charge)
        return
    if verb in ("sprint", "move"):
        plan = _plan_move(g, o, a, 2 if verb == "sprint" else 1)
        _mark_reacted(g, o)
        start_move(g, o, plan, "none", ow=False)
        return
    if verb in ("overwatch", "unload", "takeoff", "land", "rally"):
        _mark_reacted(g, o)
        _other_action(g, o, a, reaction=True, fr=None)
        return
    raise IllegalAction("D12", f"'{verb}' is not a reaction")


def check_pivot(g, o: Element, t: Element) -> float:
    """D17/D19.3: turning to face is a move; the new facing must be a legal place."""
    from djebel.skirmish.geometry import bearing
    face = round(bearing(o.x, o.y, t.x, t.y), 2)
    if o.immobilized:
        raise IllegalAction("D51", f"{o.label} is immobilized and cannot pivot")
    if o.ground and not o.t.is_aircraft:
        movement.plan_ground(g, o, [], face, 1)
    return face


def _mark_reacted(g, o: Element) -> None:
    o.reacted = True
    o.overwatch = False                                    # R44: a reaction ends OW
    g.log.add("R28", f"{o.label} reacts", side=o.side)


def _do_ow(g, fr: dict, a: Action) -> None:
    if a.verb == "wait":
        g.frames.pop()
        return
    if a.verb != "owfire":
        raise IllegalAction("R42", "choose 'owfire ELEMENT' or 'wait'")
    o = _arg_el(g, a, 0, "R42")
    t = g.elements[fr["t"]]
    if o.id not in _live_cands(g, fr) or not ow_ready(g, o, t):
        raise IllegalAction("R43", f"{o.label} cannot fire overwatch at {t.label} now")
    o.reacted = True                                       # R44
    o.overwatch = False
    g.log.add("R42", f"{o.label} fires its overwatch at {t.label}", side=o.side)
    fire.attack(g, o, t, moving=False, reaction_target=t.id)
    fr["cands"] = [i for i in fr["cands"] if i != o.id]


def _do_charge(g, fr: dict, a: Action) -> None:
    if a.verb == "pass":
        g.frames.pop()
        return
    if a.verb not in ("shoot", "turnshoot"):
        raise IllegalAction("R33", "choose 'shoot', 'turnshoot' or 'pass'")
    o = _arg_el(g, a, 0, "R33")
    if o.id not in _live_cands(g, fr):
        raise IllegalAction("R33", f"{o.label} may not fire at the charger")
    t = g.elements[fr["t"]]
    _reaction(g, o, t, a, charge=True)
    fr["cands"] = [i for i in fr["cands"] if i != o.id]


def prompt(g) -> str:
    """One line: who must decide what now."""
    if g.over:
        r = g.result()
        return f"game over: {r.reason}; winner {r.winner or 'none'} {r.scores}"
    fr = g.frames[-1]
    side = g.active_side
    head = f"turn {g.turn}/{g.turn_limit}, {g.phasing} phase: {side}"
    k = fr["k"]
    if k == "main":
        return f"{head} choose an element to activate or end the phase"
    if k == "act":
        e = g.elements[fr["e"]]
        if fr["sub"] == "fire":
            return f"{head} {e.label} may fire after its move (-1) or hold"
        if fr["sub"] == "move":
            return f"{head} {e.label} may move after its fire or hold"
        state = ("free action" if fr["free"] else f"{fr['credits']} action(s)"
                 if fr["credits"] else f"command roll at {activation.cr_target(g, e)}+")
        return f"{head} orders for {e.label} ({e.type}): {state}"
    if k == "group":
        leader = g.elements[fr["l"]]
        return f"{head} orders for {leader.label}'s group, a group roll, or end"
    t = g.elements[fr["t"]]
    if k == "react":
        return f"{head} react to {t.label}'s action, or pass"
    if k == "ow":
        return f"{head} overwatch fire at {t.label} moving, or wait"
    return f"{head} fire at {t.label} charging before close combat, or pass"
