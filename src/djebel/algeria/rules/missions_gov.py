"""9.2 Government missions: Flush 9.22, Intelligence 9.24, Civil Affairs 9.25,
Suppression 9.26, Population Resettlement 9.27 (B.3). React (9.23) is in operations.py."""

from __future__ import annotations

from djebel.algeria.board import (
    ALGERIA,
    AREA_IDS,
    AREA_RATING,
    BAND,
    CADRE,
    FAILEK,
    FLN_UNITS,
    FRONT,
    NEUT,
    OC,
    OPS,
    POLICE,
    REMOTE,
    RURAL,
    TYPE_UNITS,
    UG,
    URBAN,
    UTYPE,
    area_arg,
)
from djebel.algeria.flow import push, step
from djebel.algeria.rules import combat
from djebel.algeria.rules.choices import pick
from djebel.algeria.rules.common import (
    Census,
    area_actions,
    contact,
    d6,
    elite_count,
    evasion,
    log,
    lower_psl,
    name,
    neutralize,
    raise_psl,
    rating,
    reduce,
    roll,
    set_terror,
)
from djebel.algeria.rules.missions_fln import mst
from djebel.algeria.state import DONE_CIVIL, DONE_SUPPRESSION, State
from djebel.algeria.tables import tables
from djebel.core.actions import Action

Why = tuple[str, str] | None


def b3(mission: str) -> dict:
    return tables().b3[mission]


def _pay(s: State, mission: str) -> None:
    cost = b3(mission)["cost"]
    lower_psl(s, "gov", cost, "B.3", mission.replace("_", " "))


def _police_mission(s: State, a: int, mission: str, c: Census) -> Why:
    """Intelligence, Civil Affairs, Suppression, Resettlement need a non-neutralized Police
    unit and the PSP (INT-18: never spend the PSL to 0)."""
    if not c.police[a]:
        return "9.24", f"needs a non-neutralized Police unit in {AREA_IDS[a]}"
    if s.gov_psl <= b3(mission)["cost"]:
        return "8-7", "not enough PSP"
    if s.slow_french and mission != "intelligence":
        return "13.1", "no Civil Affairs, Suppression or Resettlement under Slow French Reaction"
    return None


def why_not_flush(s: State, a: int, c: Census) -> Why:
    if not (c.fln_in_box[OPS][a] or c.fln_in_box[OC][a]):
        return "9.22", f"no FLN unit in the OPS or OC box of {AREA_IDS[a]}"
    if not c.can_flush_or_react(a):
        return "9.22", f"no Government unit can Flush in {AREA_IDS[a]}"
    return None


def why_not_intelligence(s: State, a: int, c: Census) -> Why:
    if not c.fln_in_box[UG][a]:
        return "9.24", f"no FLN unit in the UG box of {AREA_IDS[a]}"
    return _police_mission(s, a, "intelligence", c)


def why_not_civil_affairs(s: State, a: int, c: Census) -> Why:
    if rating(s, a) == REMOTE:
        return "9.25", "no Civil Affairs in Remote areas"
    if s.done[a] & DONE_CIVIL:
        return "9-2", f"only one Civil Affairs per area per turn ({AREA_IDS[a]})"
    return _police_mission(s, a, "civil_affairs", c)


def why_not_suppression(s: State, a: int, c: Census) -> Why:
    if s.done[a] & DONE_SUPPRESSION:
        return "9-2", f"only one Suppression per area per turn ({AREA_IDS[a]})"
    return _police_mission(s, a, "suppression", c)


def why_not_resettle(s: State, a: int, c: Census) -> Why:
    if rating(s, a) != RURAL:
        return "9.27", "Population Resettlement only in Rural areas"
    return _police_mission(s, a, "resettlement", c)


CHECKS = {"flush": why_not_flush, "intelligence": why_not_intelligence,
          "civil-affairs": why_not_civil_affairs, "suppression": why_not_suppression,
          "resettle": why_not_resettle}


_MENU = {verb: area_actions(verb) for verb in CHECKS}
_FLUSH, _INTELLIGENCE, _CIVIL, _SUPPRESS, _RESETTLE = (
    _MENU[v] for v in ("flush", "intelligence", "civil-affairs", "suppression", "resettle"))


def options(s: State) -> list[Action]:
    """Every mission the Government may start now, area by area in CHECKS order.

    The same conditions as the why_not_* checks, tested from one Census with the
    area-independent ones (PSP, 13.1) answered once."""
    out = []
    c = Census(s)
    psl, slow = s.gov_psl, s.slow_french
    intelligence_ok = psl > b3("intelligence")["cost"]
    civil_ok = not slow and psl > b3("civil_affairs")["cost"]
    suppress_ok = not slow and psl > b3("suppression")["cost"]
    resettle_ok = not slow and psl > b3("resettlement")["cost"]
    fln_ug, fln_ops, fln_oc = (c.fln_in_box[b] for b in (UG, OPS, OC))
    police, done, resettled = c.police, s.done, s.resettled
    for a in ALGERIA:
        if (fln_ops[a] or fln_oc[a]) and c.can_flush_or_react(a):
            out.append(_FLUSH[a])
        if not police[a]:
            continue
        if fln_ug[a] and intelligence_ok:
            out.append(_INTELLIGENCE[a])
        r = REMOTE if resettled[a] else AREA_RATING[a]     # rating(), 2.2-6
        if civil_ok and r != REMOTE and not done[a] & DONE_CIVIL:
            out.append(_CIVIL[a])
        if suppress_ok and not done[a] & DONE_SUPPRESSION:
            out.append(_SUPPRESS[a])
        if resettle_ok and r == RURAL:
            out.append(_RESETTLE[a])
    return out


def why_not(s: State, action: Action) -> tuple[str, str]:
    check = CHECKS.get(action.verb)
    if check is None:
        return "8-2", (f"'{action.verb}' is not a Government mission (flush, intelligence, "
                       "civil-affairs, suppression, resettle, pass)")
    a = area_arg(action.args[0]) if len(action.args) == 1 else None
    if a is None or a not in ALGERIA:
        return "8-2", f"'{action.verb}' takes one Algerian area, e.g. '{action.verb} II-1'"
    w = check(s, a, Census(s))
    return w if w is not None else ("8-2", "not available now")


def start(s: State, action: Action) -> None:
    a = area_arg(action.args[0])
    verb = action.verb
    if verb == "flush":
        s.combat = {}
        push(s, ("select", "gov", "flush", a, (), False))
    elif verb == "intelligence":
        intelligence(s, a)
    elif verb == "civil-affairs":
        civil_affairs(s, a)
    elif verb == "suppression":
        suppress(s, a)
    else:
        resettle(s, a)


def contact_roll(s: State, u: int, a: int, total: int, rule: str) -> bool:
    """9.22-6 / 9.24-3: 1d6 per FLN unit, +1 evasion above the contact total, +1 Remote,
    +1 Terrorized, -1 Urban; found on a modified roll <= the contact total."""
    spec = b3("flush")
    drm = 0
    if evasion(u) > total:
        drm += spec["drm_evasion_higher"]
    r_ = rating(s, a)
    if r_ == REMOTE:
        drm += spec["drm_remote"]
    if s.terror[a]:
        drm += spec["drm_terror"]
    if r_ == URBAN:
        drm += spec["drm_urban"]
    r = d6(s, rule, f"{name(u)} contact roll (DRM {drm:+d}, contact {total})")
    return r + drm <= total


@step("flush_roll")
def flush_roll(s: State) -> None:
    """9.22-5..-8: contact rolls for every FLN unit in OPS and OC, then combat."""
    c = s.combat
    a = c["area"]
    combat.move_to_area(s, c["gov"], a)
    total = sum(contact(s, u) for u in c["gov"])
    log(s, "9.22", f"GOV Flush in {AREA_IDS[a]} with " + ", ".join(name(u) for u in c["gov"])
        + f" (contact {total})")
    found = [u for u in FLN_UNITS if s.loc[u] == a and s.box[u] in (OPS, OC)
             and contact_roll(s, u, a, total, "9.22")]
    c["fln"] = found
    if found:
        log(s, "9.22", "Contacted: " + ", ".join(name(u) for u in found))
        combat.start_combat(s)
    else:
        log(s, "9.22", "No contact")
        combat.to_oc(s, c["gov"], a)


def intelligence(s: State, a: int) -> None:
    """9.24: 1 PSP; Police contact total; found UG units go to OC."""
    _pay(s, "intelligence")
    total = sum(contact(s, p) for p in TYPE_UNITS[POLICE]
                if s.loc[p] == a and not s.flags[p] & NEUT)
    log(s, "9.24", f"GOV Intelligence in {AREA_IDS[a]} (contact {total})")
    for u in FLN_UNITS:
        if s.loc[u] == a and s.box[u] == UG and contact_roll(s, u, a, total, "9.24"):
            s.box[u] = OC
            log(s, "9.24", f"{name(u)} found: moved to OC")


def civil_affairs(s: State, a: int) -> None:
    """9.25: 1 PSP; FLN PSL -N; @ or + removes the Terror marker."""
    spec = b3("civil_affairs")
    _pay(s, "civil_affairs")
    s.done[a] |= DONE_CIVIL
    if s.log.enabled:
        log(s, "9.25", f"GOV Civil Affairs in {AREA_IDS[a]}")
    res = mst(s, "9.25", "Civil Affairs", spec["drm_amnesty"] if s.amnesty else 0)
    if (res.at or res.plus) and s.terror[a]:
        s.terror[a] = False
        log(s, "9.25", f"Terror marker removed from {AREA_IDS[a]}")
    lower_psl(s, "fln", res.n, "9.25", "Civil Affairs")


def suppress(s: State, a: int, oas: bool = False) -> None:
    """9.26 (and 11.3-3 for the OAS): N Bands/Faileks neutralized, the FLN choosing;
    @ also every Cadre and Front, and Terror; + GOV -1d6 and Terror."""
    spec = b3("suppression")
    if not oas:
        _pay(s, "suppression")
    s.done[a] |= DONE_SUPPRESSION
    drm = (0 if oas else spec["drm_per_elite"] * elite_count(s, a)) + (
        spec["drm_amnesty"] if s.amnesty else 0)
    who = "OAS" if oas else "GOV"
    log(s, "11.3" if oas else "9.26", f"{who} Suppression in {AREA_IDS[a]}")
    res = mst(s, "9.26", "Suppression", drm)
    if oas or res.at or res.plus:
        set_terror(s, a, "11.3" if oas and not (res.at or res.plus) else "9.26")
    if res.at:
        for u in FLN_UNITS:
            if s.loc[u] == a and UTYPE[u] in (CADRE, FRONT):
                neutralize(s, u, "9.26")
    victims = [u for u in FLN_UNITS if s.loc[u] == a and UTYPE[u] in (BAND, FAILEK)
               and not s.flags[u] & NEUT]
    pick(s, "fln", "9.26", "neutralize", res.n, victims, "neutralize (Suppression)")
    if res.plus:
        n = d6(s, "9.26", "Suppression failed: GOV PSL -1d6")
        lower_psl(s, "gov", n, "9.26", "failed Suppression")


def resettle(s: State, a: int) -> None:
    """9.27: 1 PSP; the area becomes Remote for good and Terrorized; Fronts become Cadres
    (GOV +2, FLN -1 each); FLN +3d6 PSL."""
    _pay(s, "resettlement")
    s.resettled[a] = True
    log(s, "9.27", f"GOV resettles the population of {AREA_IDS[a]}: the area is Remote")
    set_terror(s, a, "9.27")
    for u in TYPE_UNITS[FRONT]:
        if s.loc[u] == a:
            reduce(s, u, "9.27")
    n = sum(roll(s, "9.27", "Resettlement: FLN +3d6 PSP", b3("resettlement")["fln_psp_d6"]))
    raise_psl(s, "fln", n, "9.27", "Population Resettlement")


