"""9.1 FLN missions: Propaganda 9.11, Strike 9.12, Move 9.13, Raid 9.14, Harass 9.15 (A.2)."""

from __future__ import annotations

from functools import cache

from djebel.algeria.board import (
    AREA_IDS,
    AREA_RATING,
    AREA_WILAYA,
    BAND,
    CADRE,
    COUNTRIES,
    COUNTRY,
    FAILEK,
    FLN_UNITS,
    FRANCE,
    FRONT,
    GOV_SLICE,
    GOV_UNITS,
    MOVE_TARGETS,
    NEUT,
    OC,
    OPS,
    POLICE,
    REMOTE,
    TYPE_UNITS,
    UNIT_NAMES,
    URBAN,
    UTYPE,
    area_arg,
    is_algerian,
    unit_arg,
)
from djebel.algeria.flow import Decision, push, step
from djebel.algeria.rules import combat
from djebel.algeria.rules.choices import pick
from djebel.algeria.rules.common import (
    area_actions,
    band_or_failek,
    d6,
    eliminate,
    gain_ap,
    log,
    name,
    neutralize,
    on_map,
    patrol_count,
    rating,
    roll,
    set_terror,
    take_fln_loss,
    to_oc,
    unit_actions,
    where,
)
from djebel.algeria.state import DONE_PROPAGANDA, DONE_RAID, DONE_STRIKE, State
from djebel.algeria.tables import MstResult, tables
from djebel.core.actions import Action

Why = tuple[str, str] | None
_TO, _TARGET, _GO = area_actions("to"), unit_actions("target"), Action("go")


def a2(mission: str) -> dict:
    return tables().a2[mission]


def mst(s: State, rule: str, what: str, drm: int) -> MstResult:
    """Roll 1d6 + DRM on the Mission Success Table (A.3)."""
    r = d6(s, rule, f"{what}: Mission Success Table, DRM {drm:+d}")
    res = tables().mst_result(r + drm)
    if s.log.enabled:
        log(s, "A.3", f"{what}: modified roll {r + drm} -> {res.text}")
    return res


def _ready(s: State, u: int) -> Why:
    """2.2-3 / 2.3-3: a unit conducts a mission from the OPS box and not neutralized."""
    if s.loc[u] < 0:
        return "2.1", f"{name(u)} is not on the map"
    if s.flags[u] & NEUT:
        return "2.3-3", f"{name(u)} is neutralized and cannot act"
    if s.box[u] != OPS:
        return "2.2-3", f"{name(u)} must be in the OPS box to conduct a mission"
    return None


def after_mission(s: State, fln_psp: int, gov_psp: int, react: tuple | None, rule: str,
                  why: str) -> None:
    """INT-34: FLN shares out its PSP, then the Government its PSP, then React (8-6)."""
    frames = []
    if fln_psp > 0:
        frames.append(("share", "fln", fln_psp, rule, why))
    if gov_psp > 0:
        frames.append(("share", "gov", gov_psp, "C.6", "FLN units eliminated"))
    if react is not None:
        frames.append(("react_window", *react))
    push(s, *frames)


# ---------------------------------------------------------------- 9.11 Propaganda

def why_not_propaganda(s: State, u: int) -> Why:
    if UTYPE[u] not in (FRONT, CADRE):
        return "9.11", "only a Front or a Cadre may conduct Propaganda"
    a = s.loc[u]
    if a == FRANCE:
        if s.flags[u] & NEUT:
            return "2.3-3", f"{name(u)} is neutralized"
        if s.done[FRANCE] & DONE_PROPAGANDA:
            return "11.22", "the France Cadre already did its Propaganda this turn"
    else:
        if (w := _ready(s, u)) is not None:
            return w
        if not is_algerian(a):
            return "INT-61", "units in Morocco or Tunisia can only Move"
        if rating(s, a) == REMOTE:
            return "9.11", "no Propaganda in Remote areas"
        if s.done[a] & DONE_PROPAGANDA:
            return "9-2", f"only one Propaganda per area per turn ({AREA_IDS[a]})"
    if s.ap < a2("propaganda")["cost"]:
        return "8-7", "not enough AP"
    return None


def propaganda(s: State, u: int) -> None:
    """9.11: 1 AP; MST with -1 per unit on Patrol and -1 if Terrorized; x2 in Urban."""
    spec = a2("propaganda")
    a = s.loc[u]
    s.ap -= spec["cost"]
    s.done[a] |= DONE_PROPAGANDA
    log(s, "9.11", f"FLN Propaganda by {name(u)} in {AREA_IDS[a]}")
    drm = 0
    if a != FRANCE:      # 11.22-3: no patrol or terror DRM in France
        drm = spec["drm_per_patrol"] * patrol_count(s, a) + (
            spec["drm_terror"] if s.terror[a] else 0)
    res = mst(s, "9.11", "Propaganda", drm)
    n = res.n * (spec["urban_multiplier"] if rating(s, a) == URBAN else 1)
    s.box[u] = OC
    elim = 0
    survivor: int | None = u
    if res.plus:
        survivor, elim = take_fln_loss(s, u, "9.11")
    react = None if a == FRANCE or survivor is None else (a, (survivor,), False)
    after_mission(s, n, elim, react, "9.11", "Propaganda")


# ---------------------------------------------------------------- 9.12 Strike

def why_not_strike(s: State, u: int) -> Why:
    if UTYPE[u] != FRONT:
        return "9.12", "a Strike is conducted by a Front"
    if (w := _ready(s, u)) is not None:
        return w
    a = s.loc[u]
    if rating(s, a) != URBAN:
        return "9.12", "Strikes only in Urban areas"
    if s.done[a] & DONE_STRIKE:
        return "9-2", f"only one Strike per area per turn ({AREA_IDS[a]})"
    if s.ap < a2("strike")["cost"]:
        return "8-7", "not enough AP"
    return None


class StrikeAssist(Decision):
    """9.12-1: Cadres from the same OPS box may assist (+1 DRM each)."""

    name = "strike_assist"
    rule = "9.12"

    def legal(self, s, frame):
        _, _, front, helpers = frame
        a = s.loc[front]
        out = [Action("assist", (UNIT_NAMES[u],)) for u in TYPE_UNITS[CADRE]
               if s.loc[u] == a and s.box[u] == OPS and not s.flags[u] & NEUT
               and u not in helpers]
        return out + [_GO]

    def apply(self, s, frame, action):
        _, side, front, helpers = frame
        if action.verb == "go":
            strike(s, front, helpers)
        else:
            push(s, (frame[0], side, front, (*helpers, unit_arg(action.args[0]))))

    def why_not(self, s, frame, action):
        u = unit_arg(action.args[0]) if len(action.args) == 1 else None
        if action.verb == "assist" and u in FLN_UNITS:
            if UTYPE[u] != CADRE:
                return "9.12-1", f"only Cadres assist a Strike ({name(u)} is not one)"
            return _why_not_helper(s, u, s.loc[frame[2]], frame[3], "9.12-1")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"FLN: Cadres to assist the Strike in {AREA_IDS[s.loc[frame[2]]]}, then go"


def strike(s: State, front: int, helpers: tuple) -> None:
    """9.12: 3 AP; N d6 PSP; + hits every participant; @ neutralizes every Police unit."""
    spec = a2("strike")
    a = s.loc[front]
    s.ap -= spec["cost"]
    s.done[a] |= DONE_STRIKE
    units = (front, *helpers)
    log(s, "9.12", f"FLN Strike in {AREA_IDS[a]} by " + ", ".join(name(u) for u in units))
    drm = (spec["drm_per_cadre"] * len(helpers) + spec["drm_per_patrol"] * patrol_count(s, a)
           + (spec["drm_terror"] if s.terror[a] else 0))
    res = mst(s, "9.12", "Strike", drm)
    psp = sum(roll(s, "9.12", f"Strike: {res.n}d6 PSP", res.n)) if res.n else 0
    to_oc(s, units)
    elim, survivors = 0, []
    if res.plus:
        for u in units:
            v, e = take_fln_loss(s, u, "9.12")
            elim += e
            if v is not None:
                survivors.append(v)
    else:
        survivors = list(units)
    police = 0
    if res.at:
        for p in TYPE_UNITS[POLICE]:
            if s.loc[p] == a and not s.flags[p] & NEUT:
                neutralize(s, p, "9.12")
                police += 1       # DIS-13: 1 PSP per Police unit neutralized (C.6)
    after_mission(s, psp + police, elim, (a, tuple(survivors), True), "9.12", "Strike")


# ---------------------------------------------------------------- 9.13 Move

def why_not_move(s: State, u: int) -> Why:
    if UTYPE[u] not in (CADRE, BAND, FAILEK):
        return "9.13", "only a Cadre, Band or Failek may Move"
    if s.loc[u] == FRANCE:
        return "11.22", "the France Cadre cannot Move"
    if (w := _ready(s, u)) is not None:
        return w
    if not destinations(s, u):
        return "9.13", f"{name(u)} has no legal destination"
    return None


def destinations(s: State, u: int) -> list[int]:
    """9.13-3: the wilaya, or areas of other wilayas bordering it; borders need
    independence; 34-36 Jealousy & Paranoia forbids wilaya crossings (DIS-08)."""
    return list(_destinations(s.loc[u], bool(s.independent), bool(s.jealousy)))


def destinations_from(s: State, a: int) -> tuple[int, ...]:
    """``destinations`` of any mover in area ``a`` (the unit itself does not matter)."""
    return _destinations(a, bool(s.independent), bool(s.jealousy))


@cache
def _destinations(a: int, independent: bool, jealousy: bool) -> tuple[int, ...]:
    """``destinations`` from area ``a``: fixed by the map and the two event flags."""
    out = []
    for b in MOVE_TARGETS[a]:
        crossing_border = a in COUNTRIES or b in COUNTRIES
        if crossing_border and not independent:
            continue
        if jealousy and not crossing_border and AREA_WILAYA[a] != AREA_WILAYA[b]:
            continue
        out.append(b)
    return tuple(out)


class MoveTo(Decision):
    """9.13: choose the destination of the moving unit."""

    name = "move_to"
    rule = "9.13"

    def legal(self, s, frame):
        return [_TO[b] for b in destinations(s, frame[2])]

    def apply(self, s, frame, action):
        move(s, frame[2], area_arg(action.args[0]))

    def why_not(self, s, frame, action):
        b = area_arg(action.args[0]) if action.verb == "to" and action.args else None
        a = s.loc[frame[2]]
        if b == a:
            return "9.13-3", f"{name(frame[2])} is in {AREA_IDS[a]} already: a Move goes elsewhere"
        if b is None:
            return super().why_not(s, frame, action)
        if b not in MOVE_TARGETS[a]:
            return "9.13-3", (f"{AREA_IDS[b]} is neither in {name(frame[2])}'s wilaya nor "
                              f"an area of another wilaya bordering it")
        if (a in COUNTRIES or b in COUNTRIES) and not s.independent:
            return "9.13-3", "crossing the border needs Morocco and Tunisia independent"
        if s.jealousy:
            return "DIS-08", "Jealousy & Paranoia (events 34-36): no wilaya crossings"
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"FLN: where does {name(frame[2])} move?"


def move(s: State, u: int, dest: int) -> None:
    """9.13-4/-5: -1 per unit on Patrol at the destination, Border Zone DRM when crossing;
    a + eliminates the unit, otherwise it arrives in the destination's OC box."""
    spec = a2("move")
    a = s.loc[u]
    drm = spec["drm_per_patrol"] * patrol_count(s, dest) if is_algerian(dest) else 0
    if (a in COUNTRIES or dest in COUNTRIES) and s.bz_active and s.bz:
        drm += s.bz
    log(s, "9.13", f"FLN moves {name(u)} from {AREA_IDS[a]} to {AREA_IDS[dest]}")
    res = mst(s, "9.13", "Move", drm)
    if res.plus:
        eliminate(s, u, "9.13")
        after_mission(s, 0, 1, None, "9.13", "Move")
        return
    s.loc[u], s.box[u] = dest, OC
    # DIS-11: the Government may React after a Move, in the destination area.
    after_mission(s, 0, 0, (dest, (u,), False) if is_algerian(dest) else None, "9.13", "Move")


# ---------------------------------------------------------------- 9.14 Raid

def why_not_raid(s: State, u: int) -> Why:
    if not band_or_failek(u):
        return "9.14", "only Bands and Faileks may Raid"
    if (w := _ready(s, u)) is not None:
        return w
    a = s.loc[u]
    if not is_algerian(a):
        return "INT-61", "units in Morocco or Tunisia can only Move"
    if rating(s, a) == REMOTE:
        return "9.14", "no Raid in Remote areas"
    if s.done[a] & DONE_RAID:
        return "9-2", f"only one Raid per area per turn ({AREA_IDS[a]})"
    if s.ap < a2("raid")["cost"]:
        return "8-7", "not enough AP"
    return None


def _why_not_helper(s: State, u: int, a: int, chosen: tuple, rule: str) -> tuple[str, str]:
    """Why ``u`` cannot join a mission of units in the OPS box of area ``a``."""
    if u in chosen:
        return rule, f"{name(u)} is taking part already"
    if s.loc[u] >= 0 and s.loc[u] != a:
        return rule, f"{name(u)} is in {where(s, u)}: only units in {AREA_IDS[a]} join"
    return _ready(s, u) or (rule, f"{name(u)} cannot join now")


def _raiders(s: State, a: int, chosen: tuple) -> list[int]:
    return [u for u in FLN_UNITS if s.loc[u] == a and s.box[u] == OPS and band_or_failek(u)
            and not s.flags[u] & NEUT and u not in chosen]


class RaidAdd(Decision):
    """9.14-1: more Bands/Faileks from the same OPS box may join (+1 DRM each)."""

    name = "raid_add"
    rule = "9.14"

    def legal(self, s, frame):
        _, _, a, chosen = frame
        return [Action("add", (UNIT_NAMES[u],)) for u in _raiders(s, a, chosen)] + [
            _GO]

    def apply(self, s, frame, action):
        _, side, a, chosen = frame
        if action.verb == "go":
            raid(s, a, chosen)
        else:
            push(s, (frame[0], side, a, (*chosen, unit_arg(action.args[0]))))

    def why_not(self, s, frame, action):
        u = unit_arg(action.args[0]) if len(action.args) == 1 else None
        if action.verb == "add" and u in FLN_UNITS:
            if not band_or_failek(u):
                return "9.14-1", f"only Bands and Faileks raid ({name(u)} is not one)"
            return _why_not_helper(s, u, frame[2], frame[3], "9.14-1")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"FLN: more units for the Raid in {AREA_IDS[frame[2]]}, then go"


def raid(s: State, a: int, units: tuple) -> None:
    """9.14: 1 AP; N AP gained (x2 Urban); + a participant neutralized and Terror;
    @ a Police unit neutralized and Terror (DIS-13, DIS-14)."""
    spec = a2("raid")
    s.ap -= spec["cost"]
    s.done[a] |= DONE_RAID
    log(s, "9.14", f"FLN Raid in {AREA_IDS[a]} by " + ", ".join(name(u) for u in units))
    drm = spec["drm_per_extra_unit"] * (len(units) - 1) + spec["drm_per_patrol"] * patrol_count(
        s, a)
    res = mst(s, "9.14", "Raid", drm)
    gain_ap(s, res.n * (spec["urban_multiplier"] if rating(s, a) == URBAN else 1), "9.14",
            "Raid")
    to_oc(s, units)
    police = [p for p in TYPE_UNITS[POLICE] if s.loc[p] == a and not s.flags[p] & NEUT]
    police_psp = 1 if res.at and police else 0
    after_mission(s, police_psp, 0, (a, units, False), "9.14", "Police neutralized")
    if res.at:
        set_terror(s, a, "9.14")
        pick(s, "fln", "9.14", "neutralize", 1, police, "neutralize (Raid @)")
    if res.plus:
        set_terror(s, a, "9.14")
        pick(s, "fln", "9.14", "neutralize", 1, units, "neutralize (Raid +)")


# ---------------------------------------------------------------- 9.15 Harass

def why_not_harass(s: State, u: int) -> Why:
    if not band_or_failek(u):
        return "9.15", "only Bands and Faileks may Harass"
    if (w := _ready(s, u)) is not None:
        return w
    a = s.loc[u]
    if not is_algerian(a):
        return "INT-61", "units in Morocco or Tunisia can only Move"
    if not any(s.loc[g] == a for g in GOV_UNITS):
        return "9.15", f"no Government unit to harass in {AREA_IDS[a]} (INT-62)"
    return None


class HarassJoin(Decision):
    """9.15-2 / DIS-19: units harass singly unless a Failek is present; then Bands and
    Faileks from the same OPS box may combine."""

    name = "harass_join"
    rule = "9.15"

    def legal(self, s, frame):
        _, _, a, chosen = frame
        has_failek = any(UTYPE[u] == FAILEK for u in chosen)
        return [Action("add", (UNIT_NAMES[u],)) for u in _raiders(s, a, chosen)
                if has_failek or UTYPE[u] == FAILEK] + [_GO]

    def apply(self, s, frame, action):
        _, side, a, chosen = frame
        if action.verb == "go":
            push(s, ("harass_target", side, a, chosen))
        else:
            push(s, (frame[0], side, a, (*chosen, unit_arg(action.args[0]))))

    def why_not(self, s, frame, action):
        u = unit_arg(action.args[0]) if len(action.args) == 1 else None
        if action.verb == "add" and u in FLN_UNITS:
            if not band_or_failek(u):
                return "9.15-2", f"only Bands and Faileks harass ({name(u)} is not one)"
            chosen = frame[3]
            if UTYPE[u] != FAILEK and not any(UTYPE[v] == FAILEK for v in chosen):
                return "9.15-2", ("units harass singly unless a Failek harasses: add a "
                                  "Failek first (DIS-19)")
            return _why_not_helper(s, u, frame[2], chosen, "9.15-2")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"FLN: units joining the Harass in {AREA_IDS[frame[2]]}, then go"


class HarassTarget(Decision):
    """9.15-3: the target is one Government unit in the area (any box, INT-37)."""

    name = "harass_target"
    rule = "9.15"

    def legal(self, s, frame):
        a = frame[2]
        return [_TARGET[g] for g in GOV_UNITS if s.loc[g] == a]

    def apply(self, s, frame, action):
        _, _, a, units = frame
        g = unit_arg(action.args[0])
        log(s, "9.15", f"FLN harasses {name(g)} in {AREA_IDS[a]} with "
                       + ", ".join(name(u) for u in units))
        s.combat = {"mission": "harass", "area": a, "fln": list(units), "gov": [g],
                    "half": True, "air": 0}
        frames = [("harass_fire",), ("react_window", a, None, False)]
        if combat.air_possible(s, a):
            frames.insert(0, ("air_commit", "gov"))
        push(s, *frames)

    def why_not(self, s, frame, action):
        g = unit_arg(action.args[0]) if len(action.args) == 1 else None
        if action.verb == "target" and g is not None:
            if g not in GOV_UNITS:
                return "9.15-3", f"the target is a Government unit ({name(g)} is FLN)"
            there = f"is in {where(s, g)}" if s.loc[g] >= 0 else "is not on the map"
            return "9.15-3", (f"{name(g)} {there}: the target is a Government unit in "
                              f"{AREA_IDS[frame[2]]}")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        return f"FLN: choose the Government unit to harass in {AREA_IDS[frame[2]]}"


@step("harass_fire")
def harass_fire(s: State) -> None:
    """9.15-4: FLN fires at full firepower, the target back at half (rounded up)."""
    combat.start_combat(s)


# ---------------------------------------------------------------- menu

CHECKS = {"propaganda": why_not_propaganda, "strike": why_not_strike, "move": why_not_move,
          "raid": why_not_raid, "harass": why_not_harass}


_MENU = {verb: unit_actions(verb) for verb in CHECKS}
_PROPAGANDA, _STRIKE, _MOVE, _RAID, _HARASS = (
    _MENU[v] for v in ("propaganda", "strike", "move", "raid", "harass"))
_PROPAGANDISTS = frozenset({FRONT, CADRE})
_MOVERS = frozenset({CADRE, BAND, FAILEK})
_RAIDERS = frozenset({BAND, FAILEK})


def options(s: State) -> list[Action]:
    """Every mission the FLN may start now (one action per conducting unit), unit by unit
    in CHECKS order.

    The same conditions as the why_not_* checks, with what does not depend on the unit
    (AP, Government presence, a way out of the area) answered once per call."""
    out = []
    loc, box, flags, done = s.loc, s.box, s.flags, s.done
    ap, resettled = s.ap, s.resettled
    propaganda_ap = ap >= a2("propaganda")["cost"]
    strike_ap = ap >= a2("strike")["cost"]
    raid_ap = ap >= a2("raid")["cost"]
    gov_at = set(loc[GOV_SLICE])
    can_move: dict[int, bool] = {}
    for u in on_map(s)[0]:
        a = loc[u]
        if (box[u] != OPS and a != FRANCE) or flags[u] & NEUT:   # 2.2-3 (France: 11.22)
            continue
        t = UTYPE[u]
        if a == FRANCE:
            # 11.22: the France Cadre only does Propaganda, from any box.
            if (t in _PROPAGANDISTS and not done[FRANCE] & DONE_PROPAGANDA
                    and propaganda_ap):
                out.append(_PROPAGANDA[u])
            continue
        algerian = AREA_RATING[a] != COUNTRY    # INT-61
        r = REMOTE if resettled[a] else AREA_RATING[a]      # rating(), 2.2-6
        if (t in _PROPAGANDISTS and algerian and r != REMOTE
                and not done[a] & DONE_PROPAGANDA and propaganda_ap):
            out.append(_PROPAGANDA[u])
        if t == FRONT and r == URBAN and not done[a] & DONE_STRIKE and strike_ap:
            out.append(_STRIKE[u])
        if t in _MOVERS:
            if a not in can_move:
                can_move[a] = bool(destinations_from(s, a))
            if can_move[a]:
                out.append(_MOVE[u])
        if t in _RAIDERS and algerian:
            if r != REMOTE and not done[a] & DONE_RAID and raid_ap:
                out.append(_RAID[u])
            if a in gov_at:
                out.append(_HARASS[u])
    return out


def why_not(s: State, action: Action) -> tuple[str, str]:
    check = CHECKS.get(action.verb)
    if check is None:
        return "8-2", (f"'{action.verb}' is not an FLN mission (propaganda, strike, move, "
                       "raid, harass, handover, pass)")
    u = unit_arg(action.args[0]) if action.args else None
    if u is None or len(action.args) != 1:
        return "8-2", f"'{action.verb}' takes one FLN unit, e.g. '{action.verb} cadre3'"
    w = check(s, u)
    return w if w is not None else ("8-2", "not available now")


def start(s: State, action: Action) -> None:
    u = unit_arg(action.args[0])
    verb = action.verb
    if verb == "propaganda":
        propaganda(s, u)
    elif verb == "strike":
        push(s, ("strike_assist", "fln", u, ()))
    elif verb == "move":
        push(s, ("move_to", "fln", u))
    elif verb == "raid":
        push(s, ("raid_add", "fln", s.loc[u], (u,)))
    elif verb == "harass":
        push(s, ("harass_join", "fln", s.loc[u], (u,)))
