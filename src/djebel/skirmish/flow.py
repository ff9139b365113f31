"""The decision flow: phases, moves in progress, reactions pushed after actions.

``SkirmishGame.apply`` hands one action to the handler of the decision frame on
top of the stack (``orders`` for the phasing side, ``reaction_orders`` for the
other); ``advance`` then runs automatic frames until a side must decide. Every check
happens before any change, and ``SkirmishGame.apply`` restores a snapshot if
anything still goes wrong, so an illegal action changes nothing.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shapely import wkt
from shapely.geometry import LineString
from shapely.ops import unary_union

from djebel.core.protocol import Result
from djebel.skirmish.geometry import base_poly, path_length, point_along
from djebel.skirmish.rules import (
    activation,
    aircraft,
    close_combat,
    garnish,
    movement,
    reactions,
)
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame


def start_phase(g: SkirmishGame) -> None:
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


def end_phase(g: SkirmishGame) -> None:
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


def finish(g: SkirmishGame, winner: str | None, reason: str) -> None:
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


def _able(g: SkirmishGame, side: str) -> bool:
    for e in g.elements:
        if e.side != side or e.removed:
            continue
        if not e.off_table:
            return True
        if (e.max_sorties == 0 or e.sorties_used < e.max_sorties) and (
                e.available_turn <= g.turn_limit):
            return True
    return False


def advance(g: SkirmishGame) -> None:
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
        if k in ("main", "deploy"):
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
            if reactions.react_candidates(g, fr):
                return
            g.frames.pop()
            continue
        if k in ("ow", "charge"):
            if reactions.live_cands(g, fr):
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


def observers(g: SkirmishGame, e: Element) -> list[int]:
    """D14: enemies on the table that see ``e`` now."""
    return [o.id for o in g.elements if o.side != e.side and o.on_table and g.sees(o, e)]


def push_react(g: SkirmishGame, e: Element, obs: list[int] | None = None) -> None:
    """R32: reactions follow the completed action (none to reactions themselves, R37)."""
    if e.side != g.phasing or not e.on_table:
        return
    if obs is None:
        obs = observers(g, e)
    if obs:
        g.frames.append({"k": "react", "t": e.id, "obs": sorted(set(obs))})


def start_move(g: SkirmishGame, e: Element, plan: movement.MovePlan, after: str, ow: bool) -> None:
    """Begin a move in progress; OW may interrupt it at sampled points (D14-D16)."""
    obs0 = observers(g, e) if ow else []
    g.frames.append({
        "k": "moving", "e": e.id, "path": [tuple(p) for p in plan.path], "face": plan.face,
        "i": 0, "ow": ow, "seen": [], "ends": [], "after": after, "exited": plan.exited,
        "breach": list(plan.breach), "contact": plan.contact, "pinned0": e.pinned,
        "obs": obs0, "stopped": False,
        "prefight": sorted(i for f in g.fights() for i in f),
    })


def _step_move(g: SkirmishGame, fr: dict) -> bool:
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
                if reactions.ow_ready(g, o, e):
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
                     and reactions.can_charge_react(g, o)
                     and base_poly(o.body).distance(base_poly(e.body)) <= eps]
            if cands:
                g.frames.append({"k": "charge", "t": e.id, "cands": cands})   # R33, D17
    return False


def _seen_now(g: SkirmishGame, e: Element, already: list[int]) -> list[int]:
    return [o.id for o in g.elements
            if o.side != e.side and o.on_table and o.id not in already and g.sees(o, e)]


def _breach(g: SkirmishGame, e: Element, path, fids: list[str]) -> None:
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


def _exit(g: SkirmishGame, e: Element, edge: str) -> None:
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


def _after(g: SkirmishGame, fr: dict) -> None:
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


def _act_frame(g: SkirmishGame, e: Element) -> dict | None:
    for f in reversed(g.frames):
        if f["k"] == "act" and f["e"] == e.id:
            return f
    return None


def prompt(g: SkirmishGame) -> str:
    """One line: who must decide what now."""
    if g.over:
        r = g.result()
        return f"game over: {r.reason}; winner {r.winner or 'none'} {r.scores}"
    fr = g.frames[-1]
    side = g.active_side
    k = fr["k"]
    if k == "deploy":
        # spec 4: only elements with a set-up zone may be placed; the others start where
        # the scenario puts them
        movable = [e.label for e in g.elements if e.side == side and e.label in g.zones]
        if not movable:
            return f"set-up: the {side} start where the scenario places them; 'ready'"
        return (f"set-up: {side} may place {', '.join(movable)} in their zones "
                f"('place {movable[0]} x y face F'), then 'ready'")
    head = f"turn {g.turn}/{g.turn_limit}, {g.phasing} phase: {side}"
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
