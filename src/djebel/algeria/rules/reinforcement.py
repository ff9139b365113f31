"""6 Reinforcement Phase: Government mobilization and activation (6.3, B.1), then FLN
AP income (6.1, A.4) and builds and conversions (6.2, A.1)."""

from __future__ import annotations

import math
from functools import cache

from djebel.algeria.board import (
    ACTIVE,
    AL_X,
    ALGERIA,
    ALGERIA_SET,
    AREA_IDS,
    AREA_RATING,
    BAND,
    CADRE,
    COUNTRIES,
    EL_X,
    FAILEK,
    FLN_UNITS,
    FRANCE,
    FRENCH_MOBILE_TYPES,
    FRONT,
    GOV_MOBILE_TYPES,
    GOV_UNITS,
    NEUT,
    OC,
    OPS,
    POLICE,
    PTL,
    REMOTE,
    SUEZ,
    TYPE_KEYS,
    TYPE_UNITS,
    UG,
    UTYPE,
    area_arg,
    is_algerian,
    unit_arg,
)
from djebel.algeria.flow import Decision, push, step
from djebel.algeria.rules import special
from djebel.algeria.rules.common import (
    exchange,
    fln_abroad,
    fln_areas,
    free_counter,
    gain_ap,
    log,
    lower_psl,
    name,
    on_map,
    rating,
    unit_actions,
    where,
)
from djebel.algeria.state import CONTESTED, FLN_CONTROL, OAS_INACTIVE, State
from djebel.algeria.tables import tables
from djebel.core.actions import Action

POINTS = ("air", "helo", "naval")
_DONE = Action("done")
_MOBILIZE = tuple(Action("mobilize", (k,)) for k in TYPE_KEYS)
_BUY = {p: Action("buy", (p,)) for p in POINTS}
_ACTIVATE, _REMOVE = unit_actions("activate"), unit_actions("remove")
_BUILD = tuple(tuple(Action("build", (k, a)) for a in AREA_IDS) for k in TYPE_KEYS)
_CONVERT = {k: unit_actions("convert", k) for k in ("front", "band", "failek")}
_REDUCE = unit_actions("reduce")
_AT_ALGERIA = tuple(Action("at", (AREA_IDS[a],)) for a in ALGERIA)
_BORDER_ZONE, _ACTIVATE_BZ, _ACTIVATE_ALL, _REMOVE_OAS = (
    Action("border-zone"), Action("activate", ("border-zone",)), Action("activate", ("all",)),
    Action("remove-oas"))
_MOBILIZE_TYPES = (*sorted(GOV_MOBILE_TYPES), POLICE)
BZ_LIMIT = -3      # INT-19: the Border Zone track ends at -3


# ---------------------------------------------------------------- Government (6.3)

def cost_halves(value: float) -> int:
    return round(value * 2)


def can_pay(s: State, halves: int) -> bool:
    """6.3-1/6.3-2: costs add up over the phase (a half rounds up); never spend below 1."""
    return s.gov_psl - (s.gov_half + halves + 1) // 2 >= 1    # halves >= 0: a ceiling


def pay(s: State, halves: int, why: str) -> None:
    total = s.gov_half + halves
    s.gov_half = total % 2
    lower_psl(s, "gov", total // 2, "B.1", why)


@cache          # B.1 is read once (``tables()`` is cached too)
def mobilize_cost(t: int) -> int:
    return cost_halves(tables().b1["unit"][TYPE_KEYS[t]]["mobilize"])


@cache
def activate_cost(u: int) -> int:
    return cost_halves(tables().b1["unit"][TYPE_KEYS[UTYPE[u]]]["activate"])


@cache
def point_cost(p: str) -> int:
    """6.31-5 / B.1: an Air, Helo or Naval point, in halves of a PSP."""
    return cost_halves(tables().b1["point"][p]["mobilize"])


@cache
def border_zone_cost(what: str) -> int:
    """6.33 / B.1: a Border Zone step (``mobilize``) or its activation (``activate``)."""
    return cost_halves(tables().b1["border_zone"][what])


@step("gov_reinforcement")
def gov_reinforcement(s: State) -> None:
    """6-1/6-2: the Government part comes first; 13.1 lapse and OAS activation checks."""
    s.phase = "reinforcement"
    if s.slow_french and s.fln_psl > s.gov_psl:
        s.slow_french = False
        log(s, "13.1", "FLN PSL exceeds GOV PSL: Slow French Reaction lapses for good")
    special.check_oas_activation(s)
    for u in TYPE_UNITS[EL_X]:   # only elites go to Suez
        if s.loc[u] == SUEZ and s.turn > s.suez_used:
            # DIS-18: Suez elites return in this Reinforcement Phase and must be activated.
            s.loc[u], s.box[u], s.away[u] = s.away[u], OPS, -1
            log(s, "C.2", f"{name(u)} returns from Suez to {AREA_IDS[s.loc[u]]}")
    push(s, ("gov_reinf", "gov"), ("gov_reinf_end",))
    special.oas_place_if(s, "gov")


def _slow_blocks(s: State) -> bool:
    """13.1-2: while in force, one mobile unit or one point per turn (Police exempt)."""
    return s.slow_french and s.gov_allowance_used


def gov_options(s: State) -> list[Action]:
    out = []
    slow = _slow_blocks(s)
    for t in _MOBILIZE_TYPES:
        if free_counter(s, t) is not None and can_pay(s, mobilize_cost(t)) and (
                t == POLICE or not slow):
            out.append(_MOBILIZE[t])
    if not slow:
        for p in POINTS:
            if can_pay(s, point_cost(p)):
                out.append(_BUY[p])
    if s.independent and can_pay(s, border_zone_cost("mobilize")) and (
            s.bz is None or (s.bz > BZ_LIMIT and not s.bz_new)):
        out.append(_BORDER_ZONE)
    if s.bz is not None and s.bz < 0 and not s.bz_active and can_pay(
            s, border_zone_cost("activate")):
        out.append(_ACTIVATE_BZ)
    act = activation_candidates(s)
    for u in act:
        out.append(_ACTIVATE[u])
    if len(act) > 1:
        out.append(_ACTIVATE_ALL)
    loc = s.loc
    for u in TYPE_UNITS[POLICE]:
        if loc[u] in ALGERIA_SET:           # is_algerian()
            out.append(_REMOVE[u])
    if s.oas != OAS_INACTIVE and s.gov_psl > 70:
        out.append(_REMOVE_OAS)
    out.append(_DONE)
    return out


def activation_candidates(s: State) -> list[int]:
    """6.32: French mobile units in OPS, not neutralized, not yet active, affordable."""
    box, flags = s.box, s.flags
    return [u for u in on_map(s)[1] if UTYPE[u] in FRENCH_MOBILE_TYPES and box[u] == OPS
            and not flags[u] & (ACTIVE | NEUT) and can_pay(s, activate_cost(u))]


def activate(s: State, u: int) -> None:
    pay(s, activate_cost(u), f"activate {name(u)}")
    s.flags[u] |= ACTIVE
    log(s, "6.32", f"{name(u)} in {where(s, u)} activated")


class GovReinforcement(Decision):
    """6.3: mobilize units and points, Border Zone, activate, remove Police, end."""

    name = "gov_reinf"
    rule = "6.3"

    def legal(self, s, frame):
        return gov_options(s)

    def apply(self, s, frame, action):
        verb, args = action.verb, action.args
        if verb == "done":
            return
        push(s, ("gov_reinf", "gov"))
        if verb == "mobilize":
            push(s, ("mobilize_where", "gov", TYPE_KEYS.index(args[0]), -1))
        elif verb == "buy":
            p = args[0]
            pay(s, point_cost(p), f"{p} point")
            s.gov_allowance_used = True
            if p == "air":       # 6.31-5: Maximum and Available both rise
                s.air_max += 1
                s.air_avail += 1
            elif p == "helo":
                s.helo_max += 1
                s.helo_avail += 1
            else:
                s.naval += 1
            log(s, "6.31", f"GOV buys 1 {p} point")
        elif verb == "border-zone":
            pay(s, border_zone_cost("mobilize"), "Border Zone")
            if s.bz is None:
                s.bz, s.bz_new = 0, True
            else:
                s.bz -= 1
            log(s, "6.33", f"Border Zone DRM now {s.bz}")
        elif verb == "activate" and args[0] == "border-zone":
            pay(s, border_zone_cost("activate"), "activate Border Zone")
            s.bz_active = True
            log(s, "6.33", "Border Zone active this turn")
        elif verb == "activate" and args[0] == "all":
            for u in activation_candidates(s):
                if can_pay(s, activate_cost(u)):
                    activate(s, u)
        elif verb == "activate":
            activate(s, unit_arg(args[0]))
        elif verb == "remove":
            u = unit_arg(args[0])
            log(s, "6.31", f"{name(u)} removed from {where(s, u)}")
            s.loc[u], s.box[u], s.flags[u] = -1, PTL, 0
        elif verb == "remove-oas":
            s.oas, s.oas_controller = OAS_INACTIVE, ""
            log(s, "11.3", "GOV PSL above 70: the OAS is removed")

    def why_not(self, s, frame, action):
        return why_not_gov_reinf(s, action) or super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return (f"GOV reinforcement: PSL {s.gov_psl}{'.5 owed' if s.gov_half else ''}: "
                f"mobilize, buy points, activate, or done")


def _gov_afford(s: State, halves: int, what: str) -> tuple[str, str] | None:
    cost = f"{halves / 2:g}"
    return None if can_pay(s, halves) else (
        "6.3-2", f"{what} costs {cost} PSP (B.1): the GOV PSL ({s.gov_psl}) may not fall "
                 "below 1")


def why_not_gov_reinf(s: State, action: Action) -> tuple[str, str] | None:
    """The 6.3 rule a refused Government reinforcement breaks (costs: B.1), or None when
    the action is not one of these (then the generic refusal applies)."""
    verb, args = action.verb, action.args
    arg = str(args[0]) if len(args) == 1 else None
    if verb == "mobilize" and arg in TYPE_KEYS:
        t = TYPE_KEYS.index(arg)
        if t not in GOV_MOBILE_TYPES and t != POLICE:
            return "6.31-1", f"the Government mobilizes its own units; {arg} is an FLN type"
        if free_counter(s, t) is None:
            return "6.31-1", f"no {arg} counter off the map to mobilize (counter mix)"
        if t != POLICE and _slow_blocks(s):
            return "13.1-2", ("Slow French Reaction: one mobile unit or one point per turn, "
                              "already taken")
        return _gov_afford(s, mobilize_cost(t), f"a {arg}")
    if verb == "buy" and arg in POINTS:
        if _slow_blocks(s):
            return "13.1-2", ("Slow French Reaction: one mobile unit or one point per turn, "
                              "already taken")
        return _gov_afford(s, point_cost(arg), f"an {arg} point")
    if verb == "border-zone" and not args:
        if not s.independent:
            return "6.33-1", "no Border Zone before Morocco and Tunisia are independent"
        if s.bz is not None and s.bz <= BZ_LIMIT:
            return "6.33-2", f"the Border Zone is at {BZ_LIMIT} already, its lowest (INT-19)"
        if s.bz_new:
            return "6.33-2", "the Border Zone was first mobilized this turn: no step further yet"
        return _gov_afford(s, border_zone_cost("mobilize"), "the Border Zone")
    if verb == "activate" and arg == "border-zone":
        if s.bz is None:
            return "6.32-5", "there is no Border Zone to activate (mobilize it first, 6.33)"
        if s.bz_active:
            return "6.32-5", "the Border Zone is active already this turn"
        if not s.bz:
            return "6.32-5", "the Border Zone is at DRM 0: activating it changes nothing"
        return _gov_afford(s, border_zone_cost("activate"),
                           "activating the Border Zone")
    u = unit_arg(arg) if arg is not None else None
    if verb == "activate" and u in GOV_UNITS:
        n = name(u)
        if UTYPE[u] not in FRENCH_MOBILE_TYPES:
            return "6.32-2", f"only French mobile units are activated ({n} needs none)"
        if s.loc[u] < 0:
            return "6.32-1", f"{n} is not on the map"
        if s.flags[u] & ACTIVE:
            return "6.32-1", f"{n} is active already"
        if s.flags[u] & NEUT:
            return "6.32-3", f"{n} is neutralized and cannot be activated"
        if s.box[u] != OPS:
            return "6.32-1", f"{n} is in OC: only units in OPS are activated"
        return _gov_afford(s, activate_cost(u), f"activating {n}")
    if verb == "remove" and u in GOV_UNITS:
        if UTYPE[u] != POLICE:
            return "6.31-4", f"only Police leave the map here ({name(u)} is not Police)"
        return "6.31-4", f"{name(u)} is not on the map"
    if verb == "remove-oas" and not args:
        if s.oas == OAS_INACTIVE:
            return "11.3-6", "the OAS is not active"
        return "11.3-6", f"the OAS is removed only with GOV PSL above 70 (now {s.gov_psl})"
    return None


class MobilizeWhere(Decision):
    """6.31-2/6.31-3: a new unit goes to the OPS box (Police: PTL) of any Algerian area.

    Frame: (mobilize_where, gov, type, free_budget); budget -1 means a paid mobilization,
    otherwise the coup's free budget (11.4-3)."""

    name = "mobilize_where"
    rule = "6.31"

    def legal(self, s, frame):
        return list(_AT_ALGERIA)

    def apply(self, s, frame, action):
        _, side, t, budget = frame
        a = area_arg(action.args[0])
        u = free_counter(s, t)
        cost = mobilize_cost(t)
        if budget < 0:
            pay(s, cost, f"mobilize {TYPE_KEYS[t]}")
            if t != POLICE:
                s.gov_allowance_used = True
        s.loc[u] = a
        s.box[u] = PTL if t == POLICE else OPS
        s.flags[u] = ACTIVE if budget < 0 and t != POLICE else 0
        log(s, "11.4" if budget >= 0 else "6.31",
            f"{name(u)} mobilized in {AREA_IDS[a]}" + (" (free)" if budget >= 0 else ""))
        if budget >= 0:
            left = budget - cost // 2
            if left > 0 and special.free_types(s, left):
                push(s, ("coup_mobilize", "gov", left))

    def why_not(self, s, frame, action):
        if action.verb == "at" and len(action.args) == 1:
            rule = "6.31-3" if frame[2] == POLICE else "6.31-2"
            return rule, (f"a new {TYPE_KEYS[frame[2]]} goes to an Algerian area, not "
                          f"{action.args[0]}")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"GOV: where does the new {TYPE_KEYS[frame[2]]} go?"


@step("gov_reinf_end")
def gov_reinf_end(s: State) -> None:
    """6.3-1: pay the rounded-up half; 6.32-1: French units not activated go to OC;
    6.32-2: Algerian brigades are active for free unless neutralized."""
    if s.gov_half:
        s.gov_half = 0
        lower_psl(s, "gov", 1, "6.3", "half PSP rounded up")
    box, flags = s.box, s.flags
    for u in on_map(s)[1]:
        if UTYPE[u] not in GOV_MOBILE_TYPES or box[u] != OPS:
            continue
        if UTYPE[u] == AL_X and not flags[u] & NEUT:
            flags[u] |= ACTIVE
        elif not flags[u] & ACTIVE:
            box[u] = OC


# ---------------------------------------------------------------- FLN (6.1, 6.2)

@step("fln_reinforcement")
def fln_reinforcement(s: State) -> None:
    fln_income(s)
    push(s, ("fln_reinf", "fln"))
    special.oas_place_if(s, "fln")


def area_income(s: State, a: int, fln_at: set[int] | None = None) -> int:
    """6.1-1 / A.4: income of one Algerian area (0 if Government-controlled, DIS-04).

    ``fln_at``: the areas holding a non-neutralized FLN unit, when already known."""
    c = s.control[a]
    if c == FLN_CONTROL:
        kind = "controlled"
    elif c == CONTESTED and (
            a in fln_at if fln_at is not None else any(
                s.loc[u] == a and not s.flags[u] & NEUT for u in FLN_UNITS)):
        kind = "contested"
    else:
        return 0
    income = tables().a4["area_income"]
    n = income[REMOTE if s.resettled[a] else AREA_RATING[a]][kind]      # rating(), 2.2-6
    if n and s.terror[a]:
        n = max(0, n + income["terror"])   # INT-16
    return n


def psl_income(s: State) -> int:
    """6.1-2: FLN PSL x 10%, rounded up, minus Naval points (option: minus Border Zone)."""
    n = math.ceil(s.fln_psl * tables().a4["psl_income"]["percent"] / 100) - s.naval
    if s.opt_bz_ap and s.bz_active and s.bz:
        n += s.bz          # DIS-05 option border_zone_cuts_ap
    return max(0, n)


def fln_income(s: State) -> None:
    fln_at = fln_areas(s)
    control = s.control       # only an area the FLN controls or holds can pay (6.1-1)
    areas = 0
    for a in ALGERIA:
        if control[a] == FLN_CONTROL or a in fln_at:
            areas += area_income(s, a, fln_at)
    gain_ap(s, areas, "6.1", "areas")
    gain_ap(s, psl_income(s), "6.1", "FLN PSL less Naval points")


def _fronts(s: State) -> set[int]:
    return {s.loc[u] for u in TYPE_UNITS[FRONT] if s.loc[u] >= 0}


def fln_options(s: State) -> list[Action]:
    a1 = tables().a1
    out = []
    loc, flags, ap = s.loc, s.flags, s.ap
    # One pass over the Fronts: the areas holding one (6.2-2: one per area), the
    # non-neutralized ones' areas as build sites (6.2-1), the Fronts to reduce (6.2-5).
    fronts, sites, reducible = set(), set(), []
    for u in TYPE_UNITS[FRONT]:
        a = loc[u]
        if a >= 0:
            fronts.add(a)
            reducible.append(u)
            if not flags[u] & NEUT:
                sites.add(a)
    build_sites = sorted(sites)
    if s.independent:
        build_sites += COUNTRIES
    free_cadre = free_counter(s, CADRE) is not None
    free_band = free_counter(s, BAND) is not None
    build = a1["build"]
    for t, free in ((CADRE, free_cadre), (BAND, free_band)):
        if not free:
            continue
        for a in build_sites:
            cost = build["cost_abroad"] if a in COUNTRIES else build["cost"]
            if ap >= cost:
                out.append(_BUILD[t][a])
    conv = a1["convert"]
    can_front = free_counter(s, FRONT) is not None and ap >= conv["cadre_front"]["cost"]
    can_band = free_band and ap >= conv["cadre_band"]["cost"]
    can_failek = free_counter(s, FAILEK) is not None and ap >= conv["band_failek"]["cost"]
    resettled = s.resettled
    for u in on_map(s)[0]:
        a = loc[u]
        if UTYPE[u] != CADRE or a == FRANCE or flags[u] & NEUT:
            continue
        if (can_front and a in ALGERIA_SET and a not in fronts
                and (REMOTE if resettled[a] else AREA_RATING[a]) != REMOTE):   # rating()
            out.append(_CONVERT["front"][u])
        if can_band:
            out.append(_CONVERT["band"][u])
    if can_failek and fln_abroad(s):
        for u in TYPE_UNITS[BAND]:
            if loc[u] in COUNTRIES:
                out.append(_CONVERT["failek"][u])
    if free_cadre:
        out += [_REDUCE[u] for u in reducible]
    out.append(_DONE)
    return out


class FlnReinforcement(Decision):
    """6.2: build Cadres/Bands, convert Cadre->Front/Band, Band->Failek, Front->Cadre."""

    name = "fln_reinf"
    rule = "6.2"

    def legal(self, s, frame):
        return fln_options(s)

    def apply(self, s, frame, action):
        verb, args = action.verb, action.args
        if verb == "done":
            return
        push(s, ("fln_reinf", "fln"))
        a1 = tables().a1
        if verb == "build":
            t = TYPE_KEYS.index(args[0])
            a = area_arg(args[1])
            cost = a1["build"]["cost_abroad"] if a in COUNTRIES else a1["build"]["cost"]
            s.ap -= cost
            u = free_counter(s, t)
            s.loc[u], s.box[u], s.flags[u] = a, UG, 0
            log(s, "6.2", f"FLN builds {name(u)} in {AREA_IDS[a]} ({cost} AP)")
        elif verb == "convert":
            u = unit_arg(args[0])
            key = {"front": "cadre_front", "band": ("cadre_band" if UTYPE[u] == CADRE else ""),
                   "failek": "band_failek"}[args[1]]
            cost = a1["convert"][key]["cost"]
            s.ap -= cost
            was = where(s, u)
            v = exchange(s, u, TYPE_KEYS.index(args[1]))
            s.box[v] = UG
            log(s, "6.2", f"FLN converts {name(u)} to {name(v)} in {was} ({cost} AP)")
        elif verb == "reduce":
            u = unit_arg(args[0])
            was = where(s, u)
            v = exchange(s, u, CADRE)
            log(s, "6.2-5", f"FLN turns {name(u)} into {name(v)} in {was}")

    def why_not(self, s, frame, action):
        return why_not_fln_reinf(s, action) or super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"FLN reinforcement: {s.ap} AP: build, convert, or done"


def _afford(s: State, cost: int, what: str) -> tuple[str, str] | None:
    return None if s.ap >= cost else ("6.2-8", f"{what} costs {cost} AP (A.1); "
                                               f"the FLN has {s.ap}")


def why_not_fln_reinf(s: State, action: Action) -> tuple[str, str] | None:
    """The 6.2 rule a refused build or conversion breaks (costs: A.1), or None when the
    action is not one of these (then the generic refusal applies)."""
    verb, args = action.verb, action.args
    a1 = tables().a1
    if verb == "build" and len(args) == 2 and args[0] in TYPE_KEYS:
        t, a = TYPE_KEYS.index(args[0]), area_arg(args[1])
        if t not in (CADRE, BAND):
            return "6.2-1", "only Cadres and Bands are built (Fronts and Failek by conversion)"
        if a is None:
            return None
        if free_counter(s, t) is None:
            return "6.2-8", f"no {args[0]} counter left (counter mix, INT-04)"
        if a in COUNTRIES and s.independent:
            return _afford(s, a1["build"]["cost_abroad"], "a build in Morocco/Tunisia")
        if not any(s.loc[u] == a and not s.flags[u] & NEUT for u in TYPE_UNITS[FRONT]):
            return "6.2-1", f"no non-neutralized Front in {AREA_IDS[a]} to build there"
        return _afford(s, a1["build"]["cost"], "a build")
    if verb == "reduce" and len(args) == 1 and unit_arg(args[0]) in FLN_UNITS:
        u = unit_arg(args[0])
        if UTYPE[u] != FRONT:
            return "6.2-5", f"only a Front is turned into a Cadre ({name(u)} is not one)"
        if s.loc[u] < 0:
            return "6.2-5", f"{name(u)} is not on the map"
        return "6.2-8", "no cadre counter left (counter mix, INT-04)"
    if verb == "convert" and len(args) == 2:
        u = unit_arg(args[0])
        if u is None or u not in FLN_UNITS:
            return None
        if s.loc[u] < 0:
            return "6.2-2", f"{name(u)} is not on the map"
        a = s.loc[u]
        if args[1] in ("front", "band") and UTYPE[u] != CADRE:
            rule = "6.2-2" if args[1] == "front" else "6.2-3"
            return rule, f"only a Cadre converts to a {args[1]}"
        if args[1] == "failek" and UTYPE[u] != BAND:
            return "6.2-4", "only a Band converts to a Failek"
        if s.flags[u] & NEUT:
            return "6.2-2", f"{name(u)} is neutralized"
        if args[1] == "front":
            if not is_algerian(a):
                return "6.2-2", "no Front in Morocco, Tunisia or France"
            if rating(s, a) == REMOTE:
                return "6.2-2", f"no Front in a Remote area ({AREA_IDS[a]}, A.1)"
            if a in _fronts(s):
                return "6.2-2", f"{AREA_IDS[a]} already holds a Front (one per area)"
            key = "cadre_front"
        elif args[1] == "failek":
            if a not in COUNTRIES:
                return "6.2-4", "a Band converts to a Failek only in Morocco or Tunisia"
            key = "band_failek"
        elif args[1] == "band":
            if a == FRANCE:
                return "6.2-3", "the France Cadre cannot convert"
            key = "cadre_band"
        else:
            return None
        if free_counter(s, TYPE_KEYS.index(args[1])) is None:
            return "6.2-8", f"no {args[1]} counter left (counter mix, INT-04)"
        return _afford(s, a1["convert"][key]["cost"], f"a conversion to {args[1]}")
    return None
