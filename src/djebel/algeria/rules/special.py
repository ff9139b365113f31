"""11 Special rules: Morocco and Tunisia (11.21), the OAS (11.3), the coup d'etat (11.4),
and optional 13.2."""

from __future__ import annotations

from djebel.algeria.board import (
    AREA_IDS,
    AREA_INDEX,
    AREA_RATING,
    EL_X,
    FRANCE,
    GOV_MOBILE_TYPES,
    REMOVED,
    TYPE_KEYS,
    TYPE_UNITS,
    URBAN,
    is_algerian,
)
from djebel.algeria.flow import Decision, push
from djebel.algeria.rules.choices import PICK_EFFECTS, pick
from djebel.algeria.rules.common import change_psl, d6, free_counter, log, name, raise_psl, roll
from djebel.algeria.state import OAS_INACTIVE, OAS_UNPLACED, State
from djebel.algeria.tables import tables
from djebel.core.actions import Action

OAS_SITES = tuple(a for a, r in enumerate(AREA_RATING) if r == URBAN) + (FRANCE,)


# ---------------------------------------------------------------- 11.21 independence

def grant_independence(s: State, rule: str) -> None:
    """11.21-2: Morocco and Tunisia become independent: FLN +2d6 and GOV +2d6 PSL."""
    s.independent = True
    log(s, "11.21", "Morocco and Tunisia gain independence")
    fln = sum(roll(s, "11.21", "FLN PSL gain (2d6)", 2))
    raise_psl(s, "fln", fln, "11.21", "independence")
    gov = sum(roll(s, "11.21", "GOV PSL gain (2d6)", 2))
    raise_psl(s, "gov", gov, "11.21", "independence")


def deterministic_independence(s: State) -> None:
    """13.2-1: each Random Events Phase, independence on 1d6 <= the turn number."""
    r = d6(s, "13.2", f"More deterministic independence (need <= {s.turn})")
    if r <= s.turn:
        grant_independence(s, "13.2")


# ---------------------------------------------------------------- 11.3 OAS

def roll_oas_controller(s: State) -> None:
    """11.3-1: 1-3 FLN, 4-6 Government (C.1)."""
    lo, hi = tables().c1["oas_fln_on"]
    r = d6(s, "11.3", "OAS control")
    s.oas_controller = "fln" if lo <= r <= hi else "gov"
    log(s, "11.3", f"The {s.oas_controller.upper()} controls the OAS this turn")


def check_oas_activation(s: State) -> None:
    """11.3-1 / C.1: the OAS activates when the Government PSL is 30 or less."""
    if s.oas == OAS_INACTIVE and s.gov_psl <= tables().c1["oas_active_psl"]:
        s.oas = OAS_UNPLACED
        log(s, "11.3", "The OAS becomes active")
        roll_oas_controller(s)


class OasPlace(Decision):
    """11.3-2: the controller places or moves the OAS to an urban area or France."""

    name = "oas_place"
    rule = "11.3"

    def legal(self, s, frame):
        return [Action("oas", (AREA_IDS[a],)) for a in OAS_SITES]

    def apply(self, s, frame, action):
        s.oas = AREA_INDEX[action.args[0]]
        log(s, "11.3", f"{frame[1].upper()} places the OAS in {AREA_IDS[s.oas]}")

    def why_not(self, s, frame, action):
        if action.verb == "oas" and len(action.args) == 1:
            return "11.3-2", (f"the OAS goes to an Urban area (Constantine, Algiers, Oran) "
                              f"or France, not {action.args[0]}")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"{frame[1].upper()}: place the OAS (Constantine, Algiers, Oran or France)"


def oas_place_if(s: State, side: str) -> None:
    if s.oas != OAS_INACTIVE and s.oas_controller == side:
        push(s, ("oas_place", side))


# ---------------------------------------------------------------- 11.4 coup d'etat

def coup_check(s: State) -> None:
    """11.4-1 / B.2: Government PSL <= 30: a coup attempt on 1d6 (+1 OAS in France) >= 6."""
    b2 = tables().b2
    if s.gov_psl > b2["threshold"]:
        return
    drm = b2["oas_france_drm"] if s.oas == FRANCE else 0
    r = d6(s, "11.4", f"Coup check (DRM {drm:+d})") + drm
    if r < b2["attempt_on"]:
        return
    r = sum(roll(s, "B.2", f"Coup attempt: Coup Table (2d6, DRM {drm:+d})", 2)) + drm
    row = tables().coup_row(r)
    log(s, "B.2", f"Coup: {row['result']} ({r})")
    n = row["psp_d6"]
    faces = roll(s, "B.2", f"{n:+d}d6 PSP", abs(n))
    # Steps after a PSL change run only if the game goes on (GameOver stops them).
    elites = row["remove_elite"]
    if row["remove_elite_d6"]:
        elites = sum(roll(s, "B.2", f"elite units removed ({row['remove_elite_d6']}d6)",
                          row["remove_elite_d6"]))
    budget = sum(roll(s, "B.2", f"free mobilization ({row['mobilize_d6']}d6 PSP)",
                      row["mobilize_d6"])) if row["mobilize_d6"] else 0
    if elites:
        on_map = [u for u in TYPE_UNITS[EL_X] if is_algerian(s.loc[u])]
        pick(s, "gov", "11.4", "remove_elite", elites, on_map, "remove from the game (coup)")
    if budget:
        push(s, ("coup_mobilize", "gov", budget))
    change_psl(s, "gov", sum(faces) * (1 if n > 0 else -1), "B.2", "coup")


def _remove_elite(s: State, u: int, rule: str) -> None:
    """11.4-4: removed for good, never mobilized again."""
    log(s, rule, f"{name(u)} removed from the game")
    s.loc[u], s.flags[u] = REMOVED, 0


PICK_EFFECTS["remove_elite"] = _remove_elite


def free_types(s: State, budget: int) -> list[int]:
    """11.4-3: unit types in the pool whose B.1 cost fits the remaining free budget."""
    b1 = tables().b1["unit"]
    return [t for t in sorted(GOV_MOBILE_TYPES) + [TYPE_KEYS.index("police")]
            if b1[TYPE_KEYS[t]]["mobilize"] <= budget and free_counter(s, t) is not None]


class CoupMobilize(Decision):
    """11.4-3 / INT-52: mobilize units worth up to X PSP for free; the rest is lost."""

    name = "coup_mobilize"
    rule = "11.4"

    def legal(self, s, frame):
        return [Action("mobilize", (TYPE_KEYS[t],)) for t in free_types(s, frame[2])] + [
            Action("done")]

    def apply(self, s, frame, action):
        if action.verb == "done":
            return
        t = TYPE_KEYS.index(action.args[0])
        push(s, ("mobilize_where", "gov", t, frame[2]))

    def why_not(self, s, frame, action):
        key = str(action.args[0]) if action.verb == "mobilize" and action.args else None
        if key in TYPE_KEYS:
            t = TYPE_KEYS.index(key)
            if t not in GOV_MOBILE_TYPES and key != "police":
                return "11.4-3", f"the coup mobilizes Government units; {key} is an FLN type"
            if free_counter(s, t) is None:
                return "6.31-1", f"no {key} counter off the map to mobilize (counter mix)"
            cost = tables().b1["unit"][key]["mobilize"]
            return "11.4-3", (f"a {key} costs {cost:g} PSP (B.1); {frame[2]} PSP of free "
                              "mobilization are left")
        if action.verb == "mobilize":
            return "11.4-3", "the coup mobilizes units only (no points or Border Zone, INT-52)"
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"GOV: coup: mobilize up to {frame[2]} PSP of units for free"


