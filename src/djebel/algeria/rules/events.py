"""4 Turn start and 5 Random Events Phase (chart C.2), with the OAS control roll."""

from __future__ import annotations

from djebel.algeria.board import (
    ACTIVE,
    AREA_IDS,
    DEPLOYED,
    EL_X,
    FLN_UNITS,
    FR_X,
    FR_XX,
    GOV_SLICE,
    GOV_UNITS,
    MODE_SET,
    NATO,
    NEUT,
    NUM_AREAS,
    OPS,
    POOL,
    SUEZ,
    TYPE_UNITS,
    UNIT_NAMES,
    UTYPE,
    WILAYA_AREAS,
    WILAYAS,
    is_algerian,
    unit_arg,
)
from djebel.algeria.flow import Decision, push, step
from djebel.algeria.rules import special
from djebel.algeria.rules.choices import PICK_EFFECTS, pick
from djebel.algeria.rules.common import (
    change_psl,
    d6,
    gain_ap,
    log,
    lower_psl,
    name,
    raise_psl,
    roll,
    where,
)
from djebel.algeria.state import OAS_INACTIVE, State
from djebel.algeria.tables import tables
from djebel.core.actions import Action


@step("turn_start")
def turn_start(s: State) -> None:
    """4-1: one-turn effects end; units taken off by NATO may be mobilized again."""
    s.turn += 1
    s.amnesty = s.jealousy = s.bz_new = s.gov_allowance_used = s.france_moved = False
    s.done = [0] * NUM_AREAS
    s.ops_last = ""
    flags, loc = s.flags, s.loc
    keep = ~(ACTIVE | DEPLOYED | MODE_SET)
    flags[GOV_SLICE] = [f & keep for f in flags[GOV_SLICE]]
    if NATO in loc[GOV_SLICE]:
        for u in GOV_UNITS:
            if loc[u] == NATO:
                loc[u] = POOL    # 5-2 (55-56): mobilizable again from the next turn on
    if s.log.enabled:
        log(s, "4", f"Turn {s.turn} begins")
    push(s, ("random_events",), ("gov_reinforcement",), ("fln_reinforcement",),
         ("gov_deployment_start",), ("fln_deployment_start",), ("operations",),
         ("interphase",), ("turn_start",))


@step("random_events")
def random_events(s: State) -> None:
    """5-1: roll 1d6 twice (tens, units) on C.2; then the OAS control roll (5-3)."""
    s.phase = "random events"
    if s.opt_independence and not s.independent:
        special.deterministic_independence(s)
    push(s, ("oas_control",))
    tens, units = roll(s, "5-1", "Random event (tens, units)", 2)
    ev = tables().event(tens * 10 + units)
    if s.log.enabled:
        log(s, "C.2", f"Event {tens}{units}: {ev['name']}")
    EVENTS[ev["key"]](s, ev)


@step("oas_control")
def oas_control(s: State) -> None:
    """11.3-1: while the OAS is active, roll for its controller each Random Events Phase."""
    if s.oas != OAS_INACTIVE:
        special.roll_oas_controller(s)


def _no_event(s: State, ev: dict) -> None:
    log(s, "C.2", "No event")


def _foreign_arms(s: State, ev: dict) -> None:
    """31-33: FLN adds 2d6 AP minus the Naval Points (11.6)."""
    total = sum(roll(s, "C.2", "Foreign arms (2d6)", ev["ap_d6"]))
    gain_ap(s, max(0, total - s.naval), "C.2", f"foreign arms {total} - naval {s.naval}")


def _jealousy(s: State, ev: dict) -> None:
    """34-36 (DIS-08): no FLN Move across a wilaya border this turn."""
    s.jealousy = True


def _elections(s: State, ev: dict) -> None:
    """41-42 / 11.4-5: Coup Table with no DRM, PSP part only."""
    r = sum(roll(s, "B.2", "Elections: Coup Table (2d6, no DRM)", 2))
    row = tables().coup_row(r)
    n = row["psp_d6"]
    faces = roll(s, "B.2", f"{row['result']}: {n:+d}d6 PSP", abs(n))
    change_psl(s, "gov", sum(faces) * (1 if n > 0 else -1), "C.2", "elections in France")


def _un_debate(s: State, ev: dict) -> None:
    """43-44 / INT-05: the side with the higher PSL (FLN on a tie) picks the option."""
    chooser = "fln" if s.fln_psl >= s.gov_psl else "gov"
    push(s, ("un_debate", chooser))


class UnDebate(Decision):
    """43-44: raise the FLN PSL by 1d6, or lower the Government PSL by 1d6."""

    name = "un_debate"
    rule = "C.2"

    def legal(self, s, frame):
        return [Action("un", ("raise-fln",)), Action("un", ("lower-gov",))]

    def apply(self, s, frame, action):
        n = d6(s, "C.2", "UN debate (1d6)")
        if action.args[0] == "raise-fln":
            raise_psl(s, "fln", n, "C.2", "UN debate")
        else:
            lower_psl(s, "gov", n, "C.2", "UN debate")

    def why_not(self, s, frame, action):
        return "C.2", "the UN debate (43-44): un raise-fln, or un lower-gov (each 1d6)"

    def prompt(self, s, frame):
        return f"{frame[1].upper()}: UN debate: raise FLN PSL or lower GOV PSL by 1d6"


def _purge(s: State, ev: dict) -> None:
    push(s, ("purge_wilaya", "gov"))


class PurgeWilaya(Decision):
    """45-46 / INT-06: Government picks a wilaya; 1d6 FLN units there are neutralized,
    the FLN choosing which (any type, any box)."""

    name = "purge_wilaya"
    rule = "C.2"

    def legal(self, s, frame):
        return [Action("purge", (w,)) for w in WILAYAS]

    def apply(self, s, frame, action):
        wilaya = action.args[0]
        n = d6(s, "C.2", f"Factional Purge in wilaya {wilaya} (1d6)")
        areas = set(WILAYA_AREAS[wilaya])
        cands = [u for u in FLN_UNITS if s.loc[u] in areas and not s.flags[u] & NEUT]
        pick(s, "fln", "C.2", "neutralize", n, cands, "neutralize (Factional Purge)")

    def why_not(self, s, frame, action):
        return "C.2", ("the Factional Purge (45-46) names a wilaya: purge "
                       + ", ".join(WILAYAS))

    def prompt(self, s, frame):
        return "GOV: Factional Purge: choose a wilaya"


def _independence(s: State, ev: dict) -> None:
    """51-54 / INT-09: independence the first time in 1954; otherwise MST AP (no DRM)."""
    if not s.independent:
        special.grant_independence(s, "C.2")
        return
    r = d6(s, "C.2", "Infiltration: Mission Success Table (no DRM)")
    gain_ap(s, tables().mst_result(r).n, "C.2", "infiltration across the borders")


def _nato(s: State, ev: dict) -> None:
    """55-56 / INT-07: remove 1d6 brigade-equivalents (division = 3), GOV choosing."""
    n = d6(s, "C.2", "NATO pressure: brigades to remove (1d6)")
    on_map = sum(_nato_value(u) for u in _nato_candidates(s))
    target = min(n, on_map)
    if target > 0:
        push(s, ("nato_remove", "gov", target))


def _nato_candidates(s: State) -> list[int]:
    return [u for u in (*TYPE_UNITS[FR_XX], *TYPE_UNITS[FR_X]) if is_algerian(s.loc[u])]


def _nato_value(u: int) -> int:
    return 3 if UTYPE[u] == FR_XX else 1


class NatoRemove(Decision):
    """55-56: take French brigades or divisions off the map until the number is met."""

    name = "nato_remove"
    rule = "C.2"

    def legal(self, s, frame):
        return [Action("remove", (UNIT_NAMES[u],)) for u in _nato_candidates(s)]

    def apply(self, s, frame, action):
        u = unit_arg(action.args[0])
        log(s, "C.2", f"NATO: {name(u)} leaves {AREA_IDS[s.loc[u]]}")
        s.loc[u], s.box[u], s.flags[u] = NATO, OPS, 0
        left = frame[2] - _nato_value(u)
        if left > 0 and _nato_candidates(s):
            push(s, ("nato_remove", "gov", left))

    def why_not(self, s, frame, action):
        u = unit_arg(action.args[0]) if len(action.args) == 1 else None
        if action.verb == "remove" and u is not None:
            return "C.2", (f"NATO pressure (55-56, INT-07) takes French brigades and "
                           f"divisions in Algeria; not {name(u)} in {where(s, u)}")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"GOV: NATO pressure: remove {frame[2]} more brigade(s) (a division counts 3)"


def _suez(s: State, ev: dict) -> None:
    """61-62 / INT-08: once, 1954 only: remove 1d6 elites; they return next turn."""
    if s.scenario != "1954" or s.suez_used:
        log(s, "C.2", "Treated as No Event")
        return
    s.suez_used = s.turn          # remembered: the elites return next turn (DIS-18)
    n = d6(s, "C.2", "Suez: elite units to remove (1d6)")
    elites = [u for u in TYPE_UNITS[EL_X] if is_algerian(s.loc[u])]
    pick(s, "gov", "C.2", "suez", n, elites, "send to Suez")


def _send_to_suez(s: State, u: int, rule: str) -> None:
    log(s, rule, f"Suez: {name(u)} leaves {AREA_IDS[s.loc[u]]}")
    s.away[u] = s.loc[u]
    s.loc[u], s.box[u], s.flags[u] = SUEZ, OPS, 0


PICK_EFFECTS["suez"] = _send_to_suez


def _amnesty(s: State, ev: dict) -> None:
    """63-64: +1 DRM to Civil Affairs and Suppression this turn."""
    s.amnesty = True


def _sartre(s: State, ev: dict) -> None:
    lower_psl(s, "gov", -ev["gov_psp"], "C.2", "Sartre's article")


EVENTS = {
    "none": _no_event, "foreign_arms": _foreign_arms, "jealousy": _jealousy,
    "elections": _elections, "un_debate": _un_debate, "purge": _purge,
    "independence": _independence, "nato": _nato, "suez": _suez, "amnesty": _amnesty,
    "sartre": _sartre,
}
