"""9-6 Combat (C.3 CRT), and the Government unit selection and Air Points it needs
(Flush 9.22, React 9.23, Harass return fire 9.15, Air Points 11.11)."""

from __future__ import annotations

import math

from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AREA_IDS,
    BOX_NAMES,
    BRIGADE_TYPES,
    FR_XX,
    GOV_MOBILE_TYPES,
    GOV_UNITS,
    IS_ELITE,
    NEUT,
    OPS,
    POLICE,
    PTL,
    UTYPE,
    unit_arg,
)
from djebel.algeria.flow import Decision, push, step
from djebel.algeria.rules import deployment
from djebel.algeria.rules.common import (
    firepower,
    has_division,
    is_urban,
    log,
    name,
    neutralize,
    number_actions,
    on_map,
    roll,
    share,
    take_fln_loss,
    to_oc,
    unit_actions,
)
from djebel.algeria.state import State
from djebel.algeria.tables import tables
from djebel.core.actions import Action

_ADD, _AIRMOBILIZE = unit_actions("add"), unit_actions("airmobilize")
_HIT = unit_actions("hit")
_AIR = number_actions("air", 99)       # shared up to 99 Air Points; more built when asked
_GO, _NO_REACT = Action("go"), Action("no-react")

# ---------------------------------------------------------------- selection (9.22-2/-3)


def eligible(s: State, u: int, area: int, selected: tuple,
             division: bool | None = None) -> bool:
    """9.22-2/-3, 11.12-4, DIS-16: may ``u`` join a Flush/React in ``area`` now?
    ``division``: whether a division is in ``area`` (INT-55), when already known."""
    loc = s.loc[u]
    if (UTYPE[u] not in GOV_MOBILE_TYPES or loc < 0 or s.box[u] not in (OPS, PTL)
            or s.flags[u] & NEUT or u in selected):
        return False
    if division is None:
        division = has_division(s, area)
    if loc != area and not (s.flags[u] & AIRMOBILE and (IS_ELITE[u] or division)):
        return False
    if selected and not division:
        return IS_ELITE[u] and all(IS_ELITE[v] for v in selected)
    return True


def could_fly(s: State, u: int, area: int, selected: tuple,
              division: bool | None = None) -> bool:
    """11.12-2: a brigade may be airmobilized during the selection, to join from afar.
    ``division`` as for ``eligible``."""
    if u in selected or not deployment.can_airmobilize(s, u):
        return False
    if division is None:
        division = has_division(s, area)
    if s.loc[u] != area and not (IS_ELITE[u] or division):
        return False
    if selected and not division:
        return IS_ELITE[u] and all(IS_ELITE[v] for v in selected)
    return True


def any_eligible(s: State, area: int) -> bool:
    """9.22-2/-3, 11.12-4: some Government unit could be chosen for a mission in ``area``
    (what ``Census.can_flush_or_react`` answers, for one area without the census)."""
    loc, box, flags = s.loc, s.box, s.flags
    helo = s.helo_avail
    division = fly_any = False
    for u in on_map(s)[1]:
        a, t = loc[u], UTYPE[u]
        if t == POLICE:
            continue
        if a == area and t == FR_XX:
            division = True
        f = flags[u]
        if f & NEUT or box[u] not in (OPS, PTL):
            continue
        if a == area:
            return True
        if f & AIRMOBILE or (t in BRIGADE_TYPES and f & ACTIVE
                             and helo >= deployment.helo_cost(u)):
            if IS_ELITE[u]:
                return True
            fly_any = True
    return division and fly_any


class Select(Decision):
    """Choose the units of a Flush or React one by one, airmobilizing on the way.

    Frame: (select, gov, mission, area, selected, optional). ``optional`` React
    windows also offer ``no-react`` before the first unit is chosen.
    """

    name = "select"
    rule = "9.22"

    def legal(self, s, frame):
        _, _, mission, area, selected, optional = frame
        division = has_division(s, area)
        out = [_ADD[u] for u in on_map(s)[1] if eligible(s, u, area, selected, division)]
        out += [_AIRMOBILIZE[u] for u in deployment.BRIGADE_UNITS
                if could_fly(s, u, area, selected, division)]
        if selected:
            out.append(_GO)
        elif optional:
            out.append(_NO_REACT)
        return out

    def apply(self, s, frame, action):
        _, side, mission, area, selected, optional = frame
        if action.verb == "go":
            s.combat = {"mission": mission, "area": area, "gov": list(selected),
                        "fln": s.combat.get("targets", []), "air": 0,
                        "strike": s.combat.get("strike", False)}
            if air_possible(s, area):
                push(s, ("air_commit", "gov"), (f"{mission}_roll",))
            else:       # no choice to make: no Air Points, or an Urban area (11.11-3)
                push(s, (f"{mission}_roll",))
            return
        if action.verb == "no-react":
            push(s, ("no_react",))
            return
        u = unit_arg(action.args[0])
        if action.verb == "airmobilize":
            deployment.airmobilize(s, u)
            push(s, frame)
        else:
            push(s, (frame[0], side, mission, area, (*selected, u), optional))

    def why_not(self, s, frame, action):
        _, _, mission, area, selected, optional = frame
        u = unit_arg(action.args[0]) if len(action.args) == 1 else None
        if action.verb == "add" and u in GOV_UNITS:
            return why_not_join(s, u, area, selected, mission)
        if action.verb == "airmobilize" and u in GOV_UNITS:
            return why_not_fly(s, u, area, selected, mission)
        if action.verb == "go" and not selected:
            return ("9.22-2", f"choose at least one unit for the {mission} first"
                    + (" (or no-react)" if optional else ""))
        if action.verb == "no-react":
            if not optional:
                return "9.22", "no-react answers a React; a Flush once begun takes a unit"
            return "9.23", "units are chosen: go (the React is then made)"
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        _, _, mission, area, selected, optional = frame
        chosen = ", ".join(name(u) for u in selected) or "none yet"
        return f"GOV: units for the {mission} in {AREA_IDS[area]} (chosen: {chosen})"


def _grouping(s: State, u: int, area: int, selected: tuple) -> tuple[str, str] | None:
    """9.22-3: several units only if all are elite or a French division is in the area."""
    if selected and not has_division(s, area) and not (
            IS_ELITE[u] and all(IS_ELITE[v] for v in selected)):
        return "9.22-3", (f"several units only if all are elite or a French division is in "
                          f"{AREA_IDS[area]}")
    return None


def why_not_join(s: State, u: int, area: int, selected: tuple,
                 mission: str) -> tuple[str, str]:
    """The rule that keeps ``u`` out of a Flush or React in ``area`` (9.22-2/-3, 11.12-4)."""
    n = name(u)
    if UTYPE[u] not in GOV_MOBILE_TYPES:
        return "9.22-2", f"only mobile units {mission}; {n} is Police"
    if u in selected:
        return "9.22-2", f"{n} is chosen already"
    if s.loc[u] < 0:
        return "9.22-2", f"{n} is not on the map"
    if s.flags[u] & NEUT:
        return "2.3-3", f"{n} is neutralized and cannot act"
    if s.box[u] not in (OPS, PTL):
        return "9.22-2", f"{n} is in the {BOX_NAMES[s.box[u]]} box (OPS or PTL needed)"
    if s.loc[u] != area:
        if not s.flags[u] & AIRMOBILE:
            return "9.22-2", (f"{n} is in {AREA_IDS[s.loc[u]]}: from another area only "
                              "airmobile units join (11.12)")
        if not (IS_ELITE[u] or has_division(s, area)):
            return "11.12-4", (f"{n} may fly in only if elite or a French division is in "
                               f"{AREA_IDS[area]} (DIS-16)")
    return _grouping(s, u, area, selected) or ("9.22", f"{n} cannot join now")


def why_not_fly(s: State, u: int, area: int, selected: tuple,
                mission: str) -> tuple[str, str]:
    """The rule that keeps ``u`` from being airmobilized to join (11.12)."""
    w = deployment.why_not_airmobilize(s, u)
    if w is not None:
        return w
    if s.loc[u] != area and not (IS_ELITE[u] or has_division(s, area)):
        return "11.12-4", (f"{name(u)} may fly in only if elite or a French division is in "
                           f"{AREA_IDS[area]} (DIS-16)")
    return _grouping(s, u, area, selected) or ("11.12", f"{name(u)} cannot fly now")


class AirCommit(Decision):
    """11.11-2: commit Available Air Points, each +1d6 firepower (never in Urban areas).

    DIS-12: offered for every Government CRT roll outside Urban areas."""

    name = "air_commit"
    rule = "11.11"

    def legal(self, s, frame):
        if is_urban(s.combat["area"]):
            return [_AIR[0]]
        if s.air_avail < len(_AIR):
            return list(_AIR[:s.air_avail + 1])      # air 0 .. air Available
        return [Action("air", (k,)) for k in range(s.air_avail + 1)]

    def apply(self, s, frame, action):
        k = action.args[0]
        s.air_avail -= k
        s.combat["air"] = k
        if k:
            log(s, "11.11", f"GOV commits {k} Air Point(s)")

    def why_not(self, s, frame, action):
        if action.verb == "air" and len(action.args) == 1 and isinstance(action.args[0], int):
            if is_urban(s.combat["area"]):
                return "11.11-3", "no Air Points in an Urban area: air 0"
            return "11.11-2", (f"{action.args[0]} Air Points asked, {s.air_avail} available "
                               f"(air 0 to air {s.air_avail})")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"GOV: commit Air Points (available {s.air_avail})"


def air_possible(s: State, area: int) -> bool:
    return s.air_avail > 0 and not is_urban(area)


# ---------------------------------------------------------------- combat (9-6, C.3)

def start_combat(s: State) -> None:
    """9-6.1: both sides fire at once; then PSP, losses, neutralization, OC (INT-38)."""
    c = s.combat
    t = tables()
    fln_fp = sum(firepower(s, u) for u in c["fln"])
    gov_fp = sum(firepower(s, u) for u in c["gov"])
    if c.get("half"):
        gov_fp = math.ceil(gov_fp / 2)         # 9.15-4: fires back at half, rounded up
    if c.get("air"):
        gov_fp += sum(roll(s, "11.11", f"{c['air']} Air Point(s)", c["air"]))
    fr = roll(s, "C.3", f"FLN fires with firepower {fln_fp}")[0]
    gr = roll(s, "C.3", f"GOV fires with firepower {gov_fp}")[0]
    c["on_gov"] = t.crt(fln_fp, fr)
    c["on_fln"] = t.crt(gov_fp, gr)
    c["elim"] = 0
    c["to_apply"] = c["on_fln"]
    if s.log.enabled:
        log(s, "C.3", f"Hits: {c['on_gov']} on GOV, {c['on_fln']} on FLN")
    push(s, ("fln_losses",), ("combat_elim_share",), ("combat_end",))
    # 9-6.2: each hit on Government units is 1 PSP the FLN shares out.
    share(s, "fln", c["on_gov"], "C.3", "hits on Government units")


@step("fln_losses")
def fln_losses(s: State) -> None:
    c = s.combat
    if c["to_apply"] > 0 and c["fln"]:
        push(s, ("take_hit", "fln"))


class TakeHit(Decision):
    """9-6.3: the FLN applies each hit to one of its involved units."""

    name = "take_hit"
    rule = "C.3"

    def legal(self, s, frame):
        return [_HIT[u] for u in s.combat["fln"]]

    def apply(self, s, frame, action):
        c = s.combat
        u = unit_arg(action.args[0])
        c["to_apply"] -= 1
        idx = c["fln"].index(u)
        v, psp = take_fln_loss(s, u, "C.3")
        c["elim"] += psp
        if v is None:
            del c["fln"][idx]
        else:
            c["fln"][idx] = v
        push(s, ("fln_losses",))

    def why_not(self, s, frame, action):
        if action.verb == "hit" and len(action.args) == 1:
            units = ", ".join(name(u) for u in s.combat["fln"])
            return "9-6.3", (f"{action.args[0]} is not in this combat: a hit goes to one "
                             f"of the FLN units involved ({units})")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"FLN: apply a hit ({s.combat['to_apply']} left)"


@step("combat_elim_share")
def combat_elim_share(s: State) -> None:
    share(s, "gov", s.combat["elim"], "C.6", "FLN units eliminated")


@step("combat_end")
def combat_end(s: State) -> None:
    """9-6.4: the side with the larger table result is neutralized; 9-6.5: all to OC."""
    c = s.combat
    if c["on_fln"] > c["on_gov"]:
        for u in c["fln"]:
            neutralize(s, u, "C.3")
    elif c["on_gov"] > c["on_fln"]:
        for u in c["gov"]:
            neutralize(s, u, "C.3")
    to_oc(s, c["fln"])
    to_oc(s, c["gov"], c["area"])


def move_to_area(s: State, units, area: int) -> None:
    """INT-31: airmobile units from elsewhere end in the target area."""
    for u in units:
        if s.loc[u] != area:
            log(s, "11.12", f"{name(u)} flies to {AREA_IDS[area]}")
            s.loc[u] = area


