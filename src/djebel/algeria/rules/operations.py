"""8 Operations Phase: the FLN's initiative, hand-overs, passes (8-2..8-4, INT-28),
and the React window after each FLN mission (8-6, 9.23)."""

from __future__ import annotations

from djebel.algeria.board import AREA_IDS, AREA_RATING, UG, URBAN
from djebel.algeria.flow import Decision, push, step
from djebel.algeria.rules import combat, missions_fln, missions_gov
from djebel.algeria.rules.common import d6, evasion, log, lower_psl, name
from djebel.algeria.state import State
from djebel.core.actions import Action

_HANDOVER, _PASS = Action("handover"), Action("pass")


@step("operations")
def operations(s: State) -> None:
    s.phase = "operations"
    s.ops_last = ""
    push(s, ("oas_suppression",), ("ops_fln", "fln"))


@step("oas_suppression")
def oas_suppression(s: State) -> None:
    """8-1 / 11.3-3: the OAS in an urban area makes its free Suppression first."""
    if s.oas >= 0 and AREA_RATING[s.oas] == URBAN:
        missions_gov.suppress(s, s.oas, oas=True)


class OpsFln(Decision):
    """8-2: the FLN conducts a mission, hands over to the Government, or passes."""

    name = "ops_fln"
    rule = "8"

    def legal(self, s, frame):
        out = missions_fln.options(s)
        if s.ops_last != "gov":          # INT-28 (c): no hand-over right after a GOV pass
            out.append(_HANDOVER)
        out.append(_PASS)
        return out

    def apply(self, s, frame, action):
        if action.verb == "pass":
            if s.ops_last == "gov":
                log(s, "8-4", "Two consecutive passes: the Operations Phase ends")
                return
            s.ops_last = "fln"
            log(s, "8-2", "FLN passes")
            push(s, ("ops_gov", "gov"))
        elif action.verb == "handover":
            s.ops_last = ""
            log(s, "8-2", "FLN hands the initiative to the Government")
            push(s, ("ops_gov", "gov"))
        else:
            s.ops_last = ""
            push(s, ("ops_fln", "fln"))
            missions_fln.start(s, action)

    def why_not(self, s, frame, action):
        if action.verb == "handover":
            return "8", "the FLN may not hand over straight after a Government pass (INT-28)"
        return missions_fln.why_not(s, action)

    def prompt(self, s, frame):
        return f"FLN operations ({s.ap} AP): a mission, handover, or pass"


class OpsGov(Decision):
    """8-2/8-3: the Government conducts one mission or passes."""

    name = "ops_gov"
    rule = "8"

    def legal(self, s, frame):
        out = missions_gov.options(s)
        out.append(_PASS)
        return out

    def apply(self, s, frame, action):
        if action.verb == "pass":
            if s.ops_last == "fln":
                log(s, "8-4", "Two consecutive passes: the Operations Phase ends")
                return
            s.ops_last = "gov"
            log(s, "8-2", "GOV passes")
            push(s, ("ops_fln", "fln"))
        else:
            s.ops_last = ""
            push(s, ("ops_fln", "fln"))
            missions_gov.start(s, action)

    def why_not(self, s, frame, action):
        return missions_gov.why_not(s, action)

    def prompt(self, s, frame):
        return f"GOV operations (PSL {s.gov_psl}): a mission or pass"


# ---------------------------------------------------------------- React (9.23)

@step("react_window")
def react_window(s: State, area: int, targets: tuple | None, strike: bool) -> None:
    """8-6: after an FLN mission the Government may React against its surviving units.

    9.12-7: after a Strike it must, or lose 1d6 PSP."""
    if targets is None:
        targets = tuple(s.combat["fln"])     # Harass: the units left after the combat
    alive = [u for u in targets if s.loc[u] == area]
    if alive and combat.any_eligible(s, area):
        s.combat = {"targets": alive, "strike": strike, "area": area}
        push(s, ("select", "gov", "react", area, (), True))
    elif strike:
        _strike_penalty(s)


def _strike_penalty(s: State) -> None:
    n = d6(s, "9.12", "No React to the Strike: GOV PSL -1d6")
    lower_psl(s, "gov", n, "9.12", "no React to a Strike")


@step("no_react")
def no_react(s: State) -> None:
    if s.combat.get("strike"):
        _strike_penalty(s)


@step("react_roll")
def react_roll(s: State) -> None:
    """9.23-3: contact is automatic; each target evades to UG on 1d6 <= its evasion."""
    c = s.combat
    area = c["area"]
    combat.move_to_area(s, c["gov"], area)
    log(s, "9.23", f"GOV reacts in {AREA_IDS[area]} with "
                   + ", ".join(name(u) for u in c["gov"]))
    stay = []
    for u in c["fln"]:
        r = d6(s, "9.23", f"{name(u)} evasion (needs <= {evasion(u)})")
        if r <= evasion(u):
            s.box[u] = UG
            log(s, "9.23", f"{name(u)} evades to UG")
        else:
            stay.append(u)
    c["fln"] = stay
    if stay:
        combat.start_combat(s)
    else:
        combat.to_oc(s, c["gov"], area)


