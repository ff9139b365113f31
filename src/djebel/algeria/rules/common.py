"""Helpers every rule uses: dice with logging, PSL changes (12.1), unit moves and counts."""

from __future__ import annotations

from itertools import compress, repeat
from operator import and_, ge

from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AIRMOBILE_BONUS,
    AREA_IDS,
    AREA_RATING,
    BAND,
    BOX_NAMES,
    BRIGADE_TYPES,
    CADRE,
    DISPERSED,
    FAILEK,
    FLN_SLICE,
    FLN_UNITS,
    FR_XX,
    FRONT,
    GOV_MOBILE_TYPES,
    GOV_SLICE,
    GOV_UNITS,
    IS_ELITE,
    MOROCCO,
    NEUT,
    NUM_AREAS,
    OC,
    OPS,
    POLICE,
    POOL,
    PTL,
    REMOTE,
    TUNISIA,
    TYPE_UNITS,
    UG,
    UNIT_NAMES,
    UNIT_TYPES,
    URBAN,
    UTYPE,
)
from djebel.algeria.flow import GameOver, push
from djebel.algeria.state import State
from djebel.core.actions import Action

PSL_MAX = 99
AP_MAX = 99     # INT-17: AP capped at 99, the excess is lost


# ---------------------------------------------------------------- actions

def unit_actions(verb: str, *more: object) -> tuple[Action, ...]:
    """``Action(verb, (unit name, *more))`` for every unit, by unit index.

    Actions are immutable values, so the legal-action lists hand out these shared ones
    instead of building the same objects again at every decision."""
    return tuple(Action(verb, (n, *more)) for n in UNIT_NAMES)


def area_actions(verb: str, *more: object) -> tuple[Action, ...]:
    """``Action(verb, (area id, *more))`` for every area, by area index (shared, as above)."""
    return tuple(Action(verb, (a, *more)) for a in AREA_IDS)


def number_actions(verb: str, top: int) -> tuple[Action, ...]:
    """``Action(verb, (k,))`` for k = 0..top, by k (shared, as above)."""
    return tuple(Action(verb, (k,)) for k in range(top + 1))


# ---------------------------------------------------------------- dice

def roll(s: State, rule: str, what: str, n: int = 1) -> list[int]:
    """Roll ``n`` d6 from the state's dice and log them with the rule."""
    faces = [s.dice.die(6) for _ in range(n)]
    s.log.add(rule, what, tuple(faces))
    return faces


def d6(s: State, rule: str, what: str) -> int:
    """One d6, logged as ``roll`` logs it."""
    face = s.dice.die(6)
    s.log.add(rule, what, (face,))
    return face


def log(s: State, rule: str, text: str) -> None:
    s.log.add(rule, text)


# ---------------------------------------------------------------- PSL (12.1, 12.2)

def victory_level(psl: int) -> str:
    """12.2-2: the level of a victory from the winner's PSL."""
    if psl >= 51:
        return "decisive"
    if psl >= 26:
        return "substantial"
    return "marginal"


def end_game(s: State, winner: str, reason: str, level: str | None = None) -> None:
    s.winner = winner
    s.level = level or victory_level(s.fln_psl if winner == "fln" else s.gov_psl)
    s.end_reason = reason
    s.phase = "over"
    s.log.add("12.2", f"{winner.upper()} wins: {reason} ({s.level} victory)")
    raise GameOver


def lower_psl(s: State, side: str, n: int, rule: str, why: str = "") -> None:
    """12.1-3: a loss stops at 0; 12.2-1: a PSL of 0 ends the game at once."""
    if n <= 0:
        return
    if side == "fln":
        s.fln_psl = max(0, s.fln_psl - n)
        now = s.fln_psl
    else:
        s.gov_psl = max(0, s.gov_psl - n)
        now = s.gov_psl
    if s.log.enabled:       # (the text is not even built for an unlogged game)
        s.log.add(rule, f"{side.upper()} PSL -{n}{' (' + why + ')' if why else ''} -> {now}")
    if now == 0:
        end_game(s, "gov" if side == "fln" else "fln", f"{side.upper()} PSL fell to 0")


def raise_psl(s: State, side: str, n: int, rule: str, why: str = "") -> None:
    """12.1-2: a gain above 99 stops at 99 and the excess comes off the other side."""
    if n <= 0:
        return
    cur = s.fln_psl if side == "fln" else s.gov_psl
    new = min(PSL_MAX, cur + n)
    excess = cur + n - new
    if side == "fln":
        s.fln_psl = new
    else:
        s.gov_psl = new
    if s.log.enabled:
        s.log.add(rule, f"{side.upper()} PSL +{n}{' (' + why + ')' if why else ''} -> {new}")
    if excess:
        lower_psl(s, other(side), excess, "12.1", "overflow above 99")


def change_psl(s: State, side: str, n: int, rule: str, why: str = "") -> None:
    if n >= 0:
        raise_psl(s, side, n, rule, why)
    else:
        lower_psl(s, side, -n, rule, why)


def other(side: str) -> str:
    return "gov" if side == "fln" else "fln"


def gain_ap(s: State, n: int, rule: str, why: str) -> None:
    if n <= 0:
        return
    s.ap = min(AP_MAX, s.ap + n)
    if s.log.enabled:
        s.log.add(rule, f"FLN +{n} AP ({why}) -> {s.ap}")


def share(s: State, side: str, n: int, rule: str, why: str) -> None:
    """9-4: ``side`` shares out ``n`` PSP between its own gain and the other's loss."""
    if n > 0:
        push(s, ("share", side, n, rule, why))


# ---------------------------------------------------------------- units

def name(u: int) -> str:
    return UNIT_NAMES[u]


def where(s: State, u: int) -> str:
    a = s.loc[u]
    return AREA_IDS[a] if a >= 0 else "off-map"


def units_in(s: State, area: int, side_units: tuple[int, ...], box: int | None = None):
    loc, bx = s.loc, s.box
    if box is None:
        return [u for u in side_units if loc[u] == area]
    return [u for u in side_units if loc[u] == area and bx[u] == box]


def fln_in(s: State, area: int, box: int | None = None) -> list[int]:
    return units_in(s, area, FLN_UNITS, box)


def gov_in(s: State, area: int, box: int | None = None) -> list[int]:
    return units_in(s, area, GOV_UNITS, box)


def flagged(flags: list[int], bit: int) -> list[int]:
    """The units whose ``flags`` have ``bit``, in unit order (found by C-level passes:
    the interphase asks this of every unit each turn). The few distinct flag values
    are looked at first: most turns have no unit with the bit at all."""
    if not any(value & bit for value in set(flags)):
        return []
    hits = list(map(and_, flags, repeat(bit)))
    out, u = [], -1
    for _ in range(hits.count(bit)):
        u = hits.index(bit, u + 1)
        out.append(u)
    return out


_FLN_ZEROS, _GOV_ZEROS = (0,) * len(FLN_UNITS), (0,) * len(GOV_UNITS)


def on_map(s: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(FLN, Government) counters on the map (an area, France, Morocco or Tunisia), in
    unit order. Most counters wait in the pool (1954: 18 of 120 on the map) and most
    rules look only at those on the map, so the two lists are kept in ``s.placed`` with
    the locations they come from, and worked out again (at C level) only when a location
    differs: comparing the locations costs a fraction of a pass over the counters."""
    was, fln, gov = s.placed
    loc = s.loc
    if was != loc:
        was = loc[:]
        fln = tuple(compress(FLN_UNITS, map(ge, loc[FLN_SLICE], _FLN_ZEROS)))
        gov = tuple(compress(GOV_UNITS, map(ge, loc[GOV_SLICE], _GOV_ZEROS)))
        s.placed = (was, fln, gov)
    return fln, gov


def fln_areas(s: State) -> set[int]:
    """The areas holding a non-neutralized FLN unit."""
    loc, flags = s.loc, s.flags
    return {loc[u] for u in on_map(s)[0] if not flags[u] & NEUT}


def fln_abroad(s: State) -> bool:
    """An FLN counter in Morocco or Tunisia: two C-level searches, so that the per-unit
    loops looking for them are skipped in the turns without one (most of 1954's)."""
    fln = s.loc[FLN_SLICE]
    return TUNISIA in fln or MOROCCO in fln


def is_neut(s: State, u: int) -> bool:
    return bool(s.flags[u] & NEUT)


def free_counter(s: State, t: int) -> int | None:
    """The first counter of type ``t`` not in use (INT-04: the counter mix limits)."""
    loc = s.loc
    for u in TYPE_UNITS[t]:
        if loc[u] == POOL:
            return u
    return None


def patrol_count(s: State, area: int) -> int:
    """9-3: non-neutralized Government units in the PTL box, Police included."""
    loc, box, flags = s.loc, s.box, s.flags
    return sum(1 for u in GOV_UNITS if loc[u] == area and box[u] == PTL and not flags[u] & NEUT)


def has_division(s: State, area: int) -> bool:
    """INT-55: a French division in the area, any box or state."""
    loc = s.loc
    return any(loc[u] == area for u in TYPE_UNITS[FR_XX])


def rating(s: State, area: int) -> str:
    """2.2-6: a resettled Rural area is Remote for the rest of the game."""
    return REMOTE if s.resettled[area] else AREA_RATING[area]


def is_urban(area: int) -> bool:
    return AREA_RATING[area] == URBAN


# C.7 ratings by unit: (normal, dispersed) where the unit is a division, else (normal,).
_FP = tuple((UNIT_TYPES[t]["firepower"], UNIT_TYPES[t]["dispersed"]["firepower"])
            if t == FR_XX else (UNIT_TYPES[t]["firepower"],) for t in UTYPE)
_CONTACT = tuple(UNIT_TYPES[t].get("contact", 0) for t in UTYPE)
_IS_DIVISION = tuple(t == FR_XX for t in UTYPE)
_DISPERSED_CONTACT: int = UNIT_TYPES[FR_XX]["dispersed"]["contact"]


def firepower(s: State, u: int) -> int:
    """C.7 firepower; 11.7: a Dispersed division's own rating."""
    fp = _FP[u]
    if len(fp) > 1 and s.flags[u] & DISPERSED:
        return fp[1]
    return fp[0]


def contact(s: State, u: int) -> int:
    """Contact rating, with the dispersed division's and airmobile brigade's +1."""
    f = s.flags[u]
    if f & DISPERSED and _IS_DIVISION[u]:
        return _DISPERSED_CONTACT
    if f & AIRMOBILE:
        return _CONTACT[u] + AIRMOBILE_BONUS
    return _CONTACT[u]


def evasion(u: int) -> int:
    return UNIT_TYPES[UTYPE[u]]["evasion"]


# 10.1-1 control points by unit: (normal, Dispersed); only a division's differ (11.7).
CONTROL_POINTS: tuple[tuple[int, int], ...] = tuple(
    (UNIT_TYPES[t]["control_points"],
     UNIT_TYPES[t]["dispersed"]["control_points"] if t == FR_XX
     else UNIT_TYPES[t]["control_points"]) for t in UTYPE)


def control_points(s: State, u: int) -> int:
    return CONTROL_POINTS[u][1 if s.flags[u] & DISPERSED else 0]


def neutralize(s: State, u: int, rule: str) -> None:
    """2.3-3; INT-44: a neutralized unit stays in the box it is in."""
    if not s.flags[u] & NEUT:
        s.flags[u] |= NEUT
        log(s, rule, f"{name(u)} in {where(s, u)} neutralized")


def eliminate(s: State, u: int, rule: str) -> None:
    """An FLN Cadre/Band goes back to the counter pool (INT-04)."""
    log(s, rule, f"{name(u)} in {where(s, u)} eliminated")
    s.loc[u] = POOL
    s.box[u] = UG
    s.flags[u] = 0


def exchange(s: State, u: int, new_type: int) -> int | None:
    """Swap a counter for one of ``new_type`` in the same place and state (6.2-6)."""
    v = free_counter(s, new_type)
    if v is None:
        return None
    s.loc[v], s.box[v], s.flags[v] = s.loc[u], s.box[u], s.flags[u]
    s.loc[u], s.box[u], s.flags[u] = POOL, UG, 0
    return v


def reduce(s: State, u: int, rule: str) -> int | None:
    """C.3/C.6: Front -> Cadre or Failek -> Band: GOV +2 and FLN -1.

    INT-04: with no spare counter the unit is eliminated, with the same PSP effect.
    Returns the new unit, or None if the unit is gone. PSL changes may end the game.
    """
    t = UTYPE[u]
    new_type = CADRE if t == FRONT else BAND
    was = where(s, u)
    v = exchange(s, u, new_type)
    if v is None:
        eliminate(s, u, rule)
        log(s, "INT-04", f"no spare {UNIT_TYPES[new_type]['name']} counter: eliminated instead")
    else:
        log(s, rule, f"{name(u)} in {was} reduced to {name(v)}")
    raise_psl(s, "gov", 2, "C.6", "FLN unit reduced")
    lower_psl(s, "fln", 1, "C.6", "FLN unit reduced")
    return v


def take_fln_loss(s: State, u: int, rule: str) -> tuple[int | None, int]:
    """One loss on an FLN unit: Cadre/Band eliminated, Front/Failek reduced (C.3).

    Returns (the unit still standing or None, Government PSP to share out).
    """
    t = UTYPE[u]
    if t in (CADRE, BAND):
        eliminate(s, u, rule)
        return None, 1
    return reduce(s, u, rule), 0


def elite_count(s: State, area: int) -> int:
    """INT-41: non-neutralized elite units in the area, any box."""
    loc, flags = s.loc, s.flags
    return sum(1 for u in GOV_UNITS if loc[u] == area and IS_ELITE[u] and not flags[u] & NEUT)


def has_police(s: State, area: int) -> bool:
    """A non-neutralized Police unit in the area (9.24-9.27)."""
    loc, flags = s.loc, s.flags
    return any(loc[u] == area and not flags[u] & NEUT for u in TYPE_UNITS[POLICE])


def mobile_gov(u: int) -> bool:
    return UTYPE[u] in GOV_MOBILE_TYPES


def band_or_failek(u: int) -> bool:
    return UTYPE[u] in (BAND, FAILEK)


def set_terror(s: State, area: int, rule: str) -> None:
    """11.5-1: at most one Terror marker per area."""
    if not s.terror[area]:
        s.terror[area] = True
        log(s, rule, f"{AREA_IDS[area]} is Terrorized")


def to_oc(s: State, units, area: int | None = None) -> None:
    """9-1: units that acted go to the OC box (of ``area`` if given). Police stay in PTL."""
    for u in units:
        if s.loc[u] < 0 or UTYPE[u] == POLICE:
            continue
        if area is not None:
            s.loc[u] = area
        s.box[u] = OC


_HELO_COST = tuple(spec.get("airmobilize_helo_cost", 0) for spec in UNIT_TYPES)


class Census:
    """What each area holds, from one pass over the units.

    Listing legal actions asks the same questions of every area; answering them from one
    census instead of rescanning all units per area keeps decisions fast.
    """

    __slots__ = ("fln_in_box", "gov_any", "police", "division", "ready", "fly_elite", "fly_any")

    def __init__(self, s: State):
        n = NUM_AREAS
        # FLN counters by box, then area: fln_in_box[OPS][a] (four flat lists are
        # quicker to make than one small list per area).
        self.fln_in_box = fln_in_box = tuple([0] * n for _ in BOX_NAMES)
        self.gov_any = gov_any = [False] * n
        self.police = police = [False] * n
        self.division = division = [False] * n
        self.ready = ready = [False] * n    # a Government mobile unit able to Flush/React here
        self.fly_elite = False              # an elite able to fly in (airmobile or could be)
        self.fly_any = False                # any unit able to fly in
        loc, box, flags = s.loc, s.box, s.flags
        fln, gov = on_map(s)
        for u in fln:
            fln_in_box[box[u]][loc[u]] += 1
        helo = s.helo_avail
        for u in gov:
            a = loc[u]
            gov_any[a] = True
            f, t = flags[u], UTYPE[u]
            if t == POLICE:
                if not f & NEUT:
                    police[a] = True
            else:
                if t == FR_XX:
                    division[a] = True
                if not f & NEUT and box[u] in (OPS, PTL):
                    ready[a] = True
                    if f & AIRMOBILE or (t in BRIGADE_TYPES and f & ACTIVE
                                         and helo >= _HELO_COST[t]):
                        self.fly_any = True
                        if IS_ELITE[u]:
                            self.fly_elite = True

    def can_flush_or_react(self, a: int) -> bool:
        """9.22-2/-3, 11.12-4: some Government unit could be chosen for a mission in ``a``."""
        return self.ready[a] or self.fly_elite or (self.division[a] and self.fly_any)
