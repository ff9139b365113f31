"""10 Turn Interphase: control (10.1), depreciation (10.11), recovery (10.2),
redeployment (10.3), final PSL adjustment (10.4), and the shorter game (13.3)."""

from __future__ import annotations

from djebel.algeria.board import (
    AIRMOBILE,
    ALGERIA,
    ALGERIA_SET,
    AREA_IDS,
    COUNTRIES,
    DISPERSED,
    FLN_MOBILE_TYPES,
    FLN_MOBILE_UNITS,
    FRANCE,
    GOV_MOBILE_TYPES,
    GOV_UNITS,
    IS_ELITE,
    NEUT,
    NUM_AREAS,
    OPS,
    UG,
    UTYPE,
)
from djebel.algeria.flow import push, step
from djebel.algeria.rules import special
from djebel.algeria.rules.common import (
    CONTROL_POINTS,
    d6,
    end_game,
    firepower,
    flagged,
    fln_abroad,
    fln_areas,
    log,
    lower_psl,
    name,
    on_map,
    raise_psl,
    roll,
)
from djebel.algeria.state import CONTESTED, FLN_CONTROL, GOV_CONTROL, OAS_INACTIVE, State
from djebel.algeria.tables import tables


@step("interphase")
def interphase(s: State) -> None:
    s.phase = "interphase"
    control(s)
    depreciation(s)
    recovery(s)
    redeployment(s)
    push(s, ("final_psl",))
    special.coup_check(s)


# ---------------------------------------------------------------- 10.1 control

def points(s: State, a: int) -> tuple[int, int]:
    """10.1-1: Front and Dispersed division 3, every other unit 1; neutralized 0."""
    fln, gov = all_points(s)
    return fln[a], gov[a]


def all_points(s: State) -> tuple[list[int], list[int]]:
    """10.1-1 for every area at once, by area index: (FLN points, Government points)."""
    fln, gov = [0] * NUM_AREAS, [0] * NUM_AREAS
    loc, flags = s.loc, s.flags
    for side, units in zip((fln, gov), on_map(s), strict=True):
        for u in units:
            f = flags[u]
            if not f & NEUT:
                side[loc[u]] += CONTROL_POINTS[u][1 if f & DISPERSED else 0]  # control_points()
    return fln, gov


def control(s: State) -> None:
    """10.1-2..-4: 2x the points (and > 0) controls; otherwise both roll <= the difference."""
    ratio = tables().c1["control"]["control_ratio"]
    s.control_decided = True
    fln_points, gov_points = all_points(s)
    for a in ALGERIA:
        fln, gov = fln_points[a], gov_points[a]
        if fln == gov:
            result = CONTESTED
        elif fln > 0 and fln >= ratio * gov:
            result = FLN_CONTROL
        elif gov > 0 and gov >= ratio * fln:
            result = GOV_CONTROL
        else:
            diff = abs(fln - gov)
            what = (f"Control of {AREA_IDS[a]} ({fln} v {gov}, need <= {diff})"
                    if s.log.enabled else "")
            f, g = roll(s, "10.1", what, 2)
            if (f <= diff) != (g <= diff):
                result = FLN_CONTROL if f <= diff else GOV_CONTROL
            else:
                result = CONTESTED
        s.control[a] = result
    if s.log.enabled:
        fc = s.control.count(FLN_CONTROL)
        gc = s.control.count(GOV_CONTROL)
        log(s, "10.1", f"Control: FLN {fc} areas, GOV {gc} areas")


# ---------------------------------------------------------------- 10.11 depreciation

def psl_drm(psl: int) -> int:
    c4 = tables().c4
    if psl <= c4["psl_low"]:
        return c4["drm_low"]
    if psl >= c4["psl_high"]:
        return c4["drm_high"]
    return 0


def depreciate(s: State, points: int, psl: int, what: str) -> int:
    """C.4: roll 1d6 + DRM; if <= the loss number, lose that many points."""
    if points <= 0:
        return 0
    loss = tables().depreciation_loss(points)
    drm = psl_drm(psl)
    text = f"Depreciation of {points} {what} (loss {loss}, DRM {drm:+d})" if s.log.enabled else ""
    r = d6(s, "10.11", text)
    if r + drm <= loss:
        log(s, "10.11", f"{what}: -{loss}")
        return loss
    return 0


def depreciation(s: State) -> None:
    """10.11-1/-2: Air and Helo Maximums (GOV PSL), then unspent AP (FLN PSL)."""
    s.air_max = max(0, s.air_max - depreciate(s, s.air_max, s.gov_psl, "Air Points"))
    s.helo_max = max(0, s.helo_max - depreciate(s, s.helo_max, s.gov_psl, "Helo Points"))
    s.ap = max(0, s.ap - depreciate(s, s.ap, s.fln_psl, "AP"))


# ---------------------------------------------------------------- 10.2 recovery

def recovery_drm(s: State, u: int) -> int:
    """C.5 / DIS-03 / DIS-20: +1 elite or own PSL >= 70 (one +1); -1 own PSL <= 30."""
    c5 = tables().c5["unit"]
    psl = s.gov_psl if u in GOV_SET else s.fln_psl
    drm = 0
    if IS_ELITE[u] or psl >= c5["psl_high"]:
        drm += c5["drm_elite_or_high_psl"]
    if psl <= c5["psl_low"]:
        drm += c5["drm_low_psl"]
    return drm


GOV_SET = frozenset(GOV_UNITS)


def recovery(s: State) -> None:
    """10.2-1/-2: neutralized units and Terror markers recover on a modified 5+."""
    need = tables().c5["recovers_on"]
    loc, flags = s.loc, s.flags
    for u in flagged(flags, NEUT):
        if loc[u] < 0:
            continue
        drm = recovery_drm(s, u)
        if d6(s, "10.2", f"{name(u)} recovery (DRM {drm:+d})") + drm >= need:
            flags[u] &= ~NEUT
            log(s, "10.2", f"{name(u)} recovers")
    if not any(s.terror):
        return
    bonus = tables().c5["terror"]["drm_no_fln"]
    fln_at = fln_areas(s)
    for a in ALGERIA:
        if s.terror[a]:
            drm = 0 if a in fln_at else bonus
            if d6(s, "10.2", f"Terror in {AREA_IDS[a]} (DRM {drm:+d})") + drm >= need:
                s.terror[a] = False
                log(s, "10.2", f"Terror marker removed from {AREA_IDS[a]}")


# ---------------------------------------------------------------- 10.3 redeployment

def redeployment(s: State) -> None:
    """10.3 / INT-44: FLN units in Algeria to UG; Government mobile units to OPS
    (neutralized or not); airmobile units revert; Air/Helo Available reset; Border Zone
    activation lapses."""
    loc, box, flags = s.loc, s.box, s.flags
    fln, gov = on_map(s)
    for u in fln:
        if loc[u] in ALGERIA_SET:          # is_algerian()
            box[u] = UG
    for u in gov:
        if UTYPE[u] in GOV_MOBILE_TYPES:
            box[u] = OPS
            flags[u] &= ~AIRMOBILE
    s.air_avail, s.helo_avail = s.air_max, s.helo_max
    s.bz_active = False


# ---------------------------------------------------------------- 10.4 final PSL adjustment

@step("final_psl")
def final_psl(s: State) -> None:
    """10.4 steps 2-6 (step 1, the coup, ran before); each PSL change may end the game."""
    c6 = tables().c6
    if s.oas != OAS_INACTIVE and s.oas >= 0:
        n = -(c6["oas_france_gov"] if s.oas == FRANCE else c6["oas_algeria_gov"])
        lower_psl(s, "gov", n, "11.3", "OAS upkeep")
    terror, resettled = s.terror, s.resettled
    if any(terror) or any(resettled):       # (most turns have neither marker)
        marked = sum(1 for a in ALGERIA if terror[a] or resettled[a])
        lower_psl(s, "gov", marked * -c6["terror_or_resettled_gov"], "10.4",
                  "areas Terrorized or resettled (DIS-17)")
    if not _fln_mobile_in_algeria(s):
        n = sum(roll(s, "10.4", "No FLN mobile unit in Algeria: FLN -3d6",
                     c6["no_fln_units_fln_d6"]))
        lower_psl(s, "fln", n, "10.4", "no FLN mobile units in Algeria")
    loc, fp = s.loc, 0
    if fln_abroad(s):
        for u in FLN_MOBILE_UNITS:
            if loc[u] in COUNTRIES:
                fp += firepower(s, u)
        raise_psl(s, "fln", fp * c6["abroad_firepower_percent"] // 100, "10.4",
                  f"firepower {fp} in Morocco/Tunisia")
    fc, gc = s.control.count(FLN_CONTROL), s.control.count(GOV_CONTROL)
    bonus = abs(fc - gc) // c6["control_bonus_divisor"]
    if bonus:
        raise_psl(s, "fln" if fc > gc else "gov", bonus, "10.4", f"control {fc} v {gc}")
    shorter_game(s)


def _fln_mobile_in_algeria(s: State) -> bool:
    """A non-neutralized FLN mobile unit (Cadre, Band, Failek) in Algeria (10.4 step 4).
    A plain loop: in a turn without one it runs over every FLN counter on the map, and
    a generator under ``any`` costs twice as much."""
    loc, flags = s.loc, s.flags
    for u in on_map(s)[0]:  # noqa: SIM110
        if UTYPE[u] in FLN_MOBILE_TYPES and loc[u] in ALGERIA_SET and not flags[u] & NEUT:
            return True
    return False


def shorter_game(s: State) -> None:
    """13.3: at the end of turns 6, 12, 18...: a lead of 26+ twice in a row wins."""
    if not s.opt_shorter or s.turn % 6:
        return
    lead = s.fln_psl - s.gov_psl
    leader = "fln" if lead >= 26 else "gov" if lead <= -26 else ""
    if leader and leader == s.shorter_leader:
        end_game(s, leader, f"13.3 shorter game: led by {abs(lead)} at two checks",
                 "decisive" if abs(lead) >= 51 else "substantial")
    s.shorter_leader = leader
    if leader:
        log(s, "13.3", f"{leader.upper()} leads by {abs(lead)}: one more check to win")
