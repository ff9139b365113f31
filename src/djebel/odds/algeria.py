"""Exact odds of the Algeria dice tables, computed with icepool (never by sampling).

Every function reads the charts from ``djebel.algeria.tables`` (the TOML data the
engine plays with) and returns a plain dict. With ``exact=True`` the
probabilities are ``fractions.Fraction``; otherwise floats.

* :func:`crt` - hits of one fire on the C.3 Combat Results Table, Air Points included;
* :func:`mission` - the Mission Success Table (A.3/B.4) cell for a DRM;
* :func:`contact` - one FLN unit found by a Flush or Intelligence (9.22-6, 9.24-3);
* :func:`control` - the 10.1 control of an area for given control points;
* :func:`describe` - a one-line summary of the odds of a pending Algeria action.
"""

from __future__ import annotations

import math
from fractions import Fraction

import icepool

from djebel.algeria.tables import tables

D6 = icepool.d6


def _probs(die: icepool.Die, exact: bool, key=str) -> dict:
    """The die's outcomes in order, as ``{key(outcome): probability}``."""
    den = die.denominator()
    out = {}
    for outcome, qty in die.items():
        p = Fraction(qty, den)
        out[key(outcome)] = p if exact else float(p)
    return out


def _counts(die: icepool.Die, exact: bool) -> dict:
    """Every count from 0 to the largest outcome (zeros included), as ``{"n": p}``."""
    probs = _probs(die, exact, key=int)
    zero = Fraction(0) if exact else 0.0
    return {str(n): probs.get(n, zero) for n in range(max(probs) + 1)}


# ---------------------------------------------------------------- C.3 CRT

def firepower_die(firepower: int, air: int = 0) -> icepool.Die:
    """Total firepower: the units' firepower plus 1d6 per Air Point (11.11)."""
    if air < 0:
        raise ValueError("the number of Air Points cannot be negative")
    die = icepool.Die([firepower])
    if air:
        die = die + air @ D6
    return die


def crt_die(firepower: int, air: int = 0) -> icepool.Die:
    """C.3: hits of one fire, as an icepool Die."""
    t = tables()
    return icepool.map(lambda fp, r: t.crt(fp, r), firepower_die(firepower, air), D6)


def crt(firepower: int, air: int = 0, exact: bool = False) -> dict:
    """C.3: ``{"hits": {"0": p0, "1": p1, ...}}`` for one fire with ``firepower`` and
    ``air`` Air Points (each adds 1d6 to the firepower total)."""
    return {"hits": _counts(crt_die(firepower, air), exact)}


# ---------------------------------------------------------------- A.3 / B.4 MST

def mission_die(drm: int) -> icepool.Die:
    """A.3/B.4: the cell read for 1d6 + DRM (clamped to the table like the engine)."""
    t = tables()
    return (D6 + drm).map(lambda r: t.mst_result(r).text)


def mission(drm: int, exact: bool = False) -> dict:
    """A.3/B.4: ``{"results": {"0+": p, "1": p, "3@": p, ...}}`` keyed by the printed cell,
    in table order."""
    t = tables()
    die = mission_die(drm)
    probs = _probs(die, exact)
    order = []
    for cell in t.mst:
        if cell.text not in order:
            order.append(cell.text)
    results = {text: probs[text] for text in order if text in probs}
    return {"results": results}


def mission_expectation(drm: int) -> Fraction:
    """Mean N of the Mission Success Table for a DRM."""
    t = tables()
    die = (D6 + drm).map(lambda r: t.mst_result(r).n)
    return Fraction(sum(o * q for o, q in die.items()), die.denominator())


# ---------------------------------------------------------------- 9.22-6 contact

def contact_die(rating: int, drm: int) -> icepool.Die:
    """9.22-6 / 9.24-3: True when 1d6 + DRM <= the total contact rating."""
    return (D6 + drm).map(lambda r: r <= rating)


def contact(rating: int, drm: int, exact: bool = False) -> dict:
    """``{"contact": p}``: the chance one FLN unit is contacted (1d6 + DRM <= rating)."""
    p = Fraction(dict(contact_die(rating, drm).items()).get(True, 0), 6)
    return {"contact": p if exact else float(p)}


def contact_drm(rating: int, evasion: int, area_rating: str, terrorized: bool) -> int:
    """B.3 DRMs for one FLN unit: +1 evasion above the contact total, +1 Remote,
    +1 Terrorized, -1 Urban."""
    spec = tables().b3["flush"]
    drm = spec["drm_evasion_higher"] if evasion > rating else 0
    if area_rating == "remote":
        drm += spec["drm_remote"]
    if area_rating == "urban":
        drm += spec["drm_urban"]
    if terrorized:
        drm += spec["drm_terror"]
    return drm


# ---------------------------------------------------------------- 10.1 control

def control(fln: int, gov: int, exact: bool = False) -> dict:
    """10.1: ``{"fln": p, "gov": p, "contested": p}`` for the control points of an area.

    2x the other side's points (and > 0) gives control; equal points are Contested;
    otherwise both roll 1d6 <= the difference and exactly one success wins."""
    if fln < 0 or gov < 0:
        raise ValueError("control points cannot be negative")
    ratio = tables().c1["control"]["control_ratio"]
    zero, one = Fraction(0), Fraction(1)
    if fln == gov:
        res = (zero, zero, one)
    elif fln > 0 and fln >= ratio * gov:
        res = (one, zero, zero)
    elif gov > 0 and gov >= ratio * fln:
        res = (zero, one, zero)
    else:
        diff = abs(fln - gov)
        success = contact_die(diff, 0)       # 1d6 <= diff, the same test
        both = icepool.map(lambda f, g: "fln" if f and not g else "gov" if g and not f
                           else "contested", success, success)
        p = {k: Fraction(q, both.denominator()) for k, q in both.items()}
        res = (p.get("fln", zero), p.get("gov", zero), p.get("contested", zero))
    keys = ("fln", "gov", "contested")
    return {k: (v if exact else float(v)) for k, v in zip(keys, res, strict=True)}


# ---------------------------------------------------------------- pending actions

def _pct(p: float) -> str:
    return "<1%" if 0 < p < 0.005 else f"{100 * p:.0f}%"


def _dist(d: dict) -> str:
    return " ".join(f"{k}:{_pct(v)}" for k, v in d.items() if v)


def describe(game, action) -> str | None:
    """A one-line summary of the odds of ``action`` in ``game`` (an AlgeriaGame), or None
    when the action involves no dice worth showing.

    Covers the FLN missions rolled on the Mission Success Table (Propaganda, Strike once
    its helpers are chosen, Move to a destination, Raid), the CRT hits of a Harass once
    its target is chosen, the Government Civil Affairs, Suppression and Intelligence, the
    contact chances of a Flush and the evasion chances of a React when the units are
    chosen, and the CRT hits for an Air Point commitment.
    """
    from djebel.algeria.board import (
        AREA_IDS,
        COUNTRIES,
        FLN_UNITS,
        FRANCE,
        OC,
        OPS,
        POLICE,
        TYPE_UNITS,
        UG,
        UNIT_NAMES,
        area_arg,
        is_algerian,
        unit_arg,
    )
    from djebel.algeria.rules import common
    from djebel.core.actions import Action

    if isinstance(action, str):
        action = Action.parse(action)
    s = game.state
    t = tables()
    kind = game.decision()
    verb, args = action.verb, action.args

    def mst_line(what: str, drm: int) -> str:
        mean = float(mission_expectation(drm))
        return (f"{what}: MST DRM {drm:+d} -> {_dist(mission(drm)['results'])}"
                f" (mean N {mean:.2f})")

    if kind == "ops_fln" and args:
        u = unit_arg(args[0])
        if u is None or s.loc[u] < 0:
            return None
        a = s.loc[u]
        if verb == "propaganda":
            spec = t.a2["propaganda"]
            drm = 0
            if is_algerian(a):
                drm = (spec["drm_per_patrol"] * common.patrol_count(s, a)
                       + (spec["drm_terror"] if s.terror[a] else 0))
            line = mst_line(f"Propaganda in {AREA_IDS[a]}", drm)
            # 11.22-3: no React to the France Propaganda
            return line if a == FRANCE else line + react_cases(s, a, [u])
        if verb == "raid":
            spec = t.a2["raid"]
            drm = spec["drm_per_patrol"] * common.patrol_count(s, a)
            return mst_line(f"Raid in {AREA_IDS[a]} (one unit)", drm)
        if verb == "strike":
            spec = t.a2["strike"]
            drm = (spec["drm_per_patrol"] * common.patrol_count(s, a)
                   + (spec["drm_terror"] if s.terror[a] else 0))
            return mst_line(f"Strike in {AREA_IDS[a]} (no helpers)", drm)
        return None
    if kind in ("strike_assist", "raid_add") and verb == "go":
        frame = s.stack[-1]
        if kind == "strike_assist":
            front, helpers = frame[2], frame[3]
            a = s.loc[front]
            spec = t.a2["strike"]
            drm = (spec["drm_per_cadre"] * len(helpers)
                   + spec["drm_per_patrol"] * common.patrol_count(s, a)
                   + (spec["drm_terror"] if s.terror[a] else 0))
            return (mst_line(f"Strike in {AREA_IDS[a]}", drm)
                    + react_cases(s, a, [front], strike=True))
        a, units = frame[2], frame[3]
        spec = t.a2["raid"]
        drm = (spec["drm_per_extra_unit"] * (len(units) - 1)
               + spec["drm_per_patrol"] * common.patrol_count(s, a))
        return mst_line(f"Raid in {AREA_IDS[a]}", drm) + react_cases(s, a, list(units))
    if kind == "move_to" and verb == "to" and args:
        u, dest = s.stack[-1][2], area_arg(args[0])
        if dest is None:
            return None
        a = s.loc[u]
        spec = t.a2["move"]
        drm = spec["drm_per_patrol"] * common.patrol_count(s, dest) if is_algerian(dest) else 0
        if (a in COUNTRIES or dest in COUNTRIES) and s.bz_active and s.bz:
            drm += s.bz
        lost = sum(p for k, p in mission(drm)["results"].items() if k.endswith("+"))
        line = f"Move to {AREA_IDS[dest]}: DRM {drm:+d}, unit eliminated {_pct(lost)}"
        # DIS-11: the GOV may React in an Algerian destination, against the unit
        return line + react_cases(s, dest, [u]) if is_algerian(dest) else line
    if kind == "ops_gov" and args:
        a = area_arg(args[0])
        if a is None:
            return None
        if verb == "civil-affairs":
            drm = t.b3["civil_affairs"]["drm_amnesty"] if s.amnesty else 0
            return mst_line(f"Civil Affairs in {AREA_IDS[a]}", drm)
        if verb == "suppression":
            spec = t.b3["suppression"]
            drm = spec["drm_per_elite"] * common.elite_count(s, a) + (
                spec["drm_amnesty"] if s.amnesty else 0)
            return mst_line(f"Suppression in {AREA_IDS[a]}", drm)
        if verb == "intelligence":
            total = sum(common.contact(s, p) for p in TYPE_UNITS[POLICE]
                        if s.loc[p] == a and not s.flags[p] & common.NEUT)
            units = [u for u in FLN_UNITS if s.loc[u] == a and s.box[u] == UG]
            return _contact_line(s, a, total, units, "Intelligence", UNIT_NAMES, AREA_IDS)
        return None
    if kind == "select" and verb == "go":
        _, _, mission_name, a, selected, _ = s.stack[-1]
        if not selected:
            return None           # 9.22-2: 'go' needs a unit first (refused, no dice)
        total = sum(common.contact(s, u) for u in selected)
        if mission_name == "flush":
            units = [u for u in FLN_UNITS if s.loc[u] == a and s.box[u] in (OPS, OC)]
            return _contact_line(s, a, total, units, "Flush", UNIT_NAMES, AREA_IDS)
        targets = [u for u in s.combat.get("targets", []) if s.loc[u] == a]
        if not targets:
            return None
        # 9.23-3 evasion, then 9-6 combat; the Air Points (11.11-2) come next, one case each
        gov_fp = sum(common.firepower(s, u) for u in selected)
        return (f"React in {AREA_IDS[a]}: " + _evasions(targets)
                + _stayers_fire(s, a, targets, [(gov_fp, "")]))
    if kind == "harass_target" and verb == "target" and args:
        g = unit_arg(args[0])
        if g is None:
            return None
        fln_fp = sum(common.firepower(s, u) for u in s.stack[-1][3])
        gov_fp = math.ceil(common.firepower(s, g) / 2)
        harassers = list(s.stack[-1][3])
        text = (f"Harass {UNIT_NAMES[g]}: FLN fire {fln_fp}: hits "
                f"{_dist(crt(fln_fp)['hits'])}; return fire {gov_fp} (half): hits "
                f"{_dist(crt(gov_fp)['hits'])}")
        # 11.11-2: the Government chooses after the target how many Air Points (each
        # +1d6) to add to its return fire; never in Urban areas. One case per choice.
        most = 0 if common.is_urban(s.loc[g]) else s.air_avail
        if most:
            text += "; if the GOV adds Air Points: " + "; ".join(
                f"+{k} Air: hits {_dist(crt(gov_fp, k)['hits'])}" for k in range(1, most + 1))
        # 9.15-6: then the GOV may React against the Harass units that remain
        return text + react_cases(s, s.loc[g], harassers, exclude=g)
    if kind == "air_commit" and verb == "air" and args:
        c = s.combat
        k = int(args[0])
        gov_fp = sum(common.firepower(s, u) for u in c.get("gov", []))
        if c.get("half"):
            gov_fp = math.ceil(gov_fp / 2)
        line = f"GOV fire, firepower {gov_fp}" + (f" + {k}d6 air" if k else "")
        text = f"{line}: hits {_dist(crt(gov_fp, k)['hits'])}"
        if c.get("mission") == "react" and c.get("fln"):
            # 9.23-3: the targets roll their evasion before the combat
            text = _evasions(c["fln"]) + "; if not evaded: " + text
        if c.get("fln"):
            fln_fp = sum(common.firepower(s, u) for u in c["fln"])
            text += f"; FLN fire {fln_fp}: hits {_dist(crt(fln_fp)['hits'])}"
        return text
    return None


def _evasions(targets: list[int]) -> str:
    """9.23-3: each target evades to UG on 1d6 <= its evasion rating."""
    from djebel.algeria.board import UNIT_NAMES
    from djebel.algeria.rules import common

    return ", ".join(f"{UNIT_NAMES[u]} evades {_pct(min(max(common.evasion(u), 0), 6) / 6)}"
                     for u in targets)


def _stayers_fire(s, area: int, targets: list[int], groups: list[tuple[int, str]]) -> str:
    """9-6: the fire of the targets that do not evade, and the Government's fire for each
    reacting group and each number of Air Points it may commit (11.11-2; none in Urban
    areas, 11.11-3)."""
    from djebel.algeria.rules import common

    fln_fp = sum(common.firepower(s, u) for u in targets)
    most = 0 if common.is_urban(area) else s.air_avail
    parts = [f"; if not evaded: FLN fire {fln_fp}: hits {_dist(crt(fln_fp)['hits'])}"]
    for fp, who in groups:
        # Air Points that change nothing (the CRT's last column) are one case, not many
        runs: list[list] = []
        for k in range(most + 1):
            dist = _dist(crt(fp, k)["hits"])
            if runs and runs[-1][2] == dist:
                runs[-1][1] = k
            else:
                runs.append([k, k, dist])
        cases = []
        for first, last, dist in runs:
            air = f"{first}" if first == last else f"{first}-{last}"
            if first == 0:
                more = f" (+{air} Air)" if last else ""
                cases.append(f"GOV fire {fp}{who}{more}: hits {dist}")
            else:
                cases.append(f"+{air} Air: hits {dist}")
        parts.append("; ".join(cases))
    return "; ".join(parts)


def react_groups(s, area: int, exclude: int | None = None) -> list[tuple[int, str]]:
    """The Government's React choices (9.23-2: as Flush, 9.22-2/-3, 11.12-4) as they stand
    now, by total firepower: each unit alone (units of equal firepower named together),
    then the strongest group the grouping rule allows (all elite, or anything with a French
    division in the area) and the Helo points can fly in (11.12-1).
    ``[(firepower, " (who)")]``, weakest first."""
    from djebel.algeria.board import GOV_UNITS, IS_ELITE, UNIT_NAMES
    from djebel.algeria.rules import combat, common
    from djebel.algeria.rules.deployment import helo_cost

    ready = [u for u in GOV_UNITS if u != exclude and combat.eligible(s, u, area, ())]
    flyers = [u for u in GOV_UNITS if u != exclude and u not in ready
              and combat.could_fly(s, u, area, ())]
    by_fp: dict[int, list[str]] = {}
    for u in ready + flyers:
        by_fp.setdefault(common.firepower(s, u), []).append(UNIT_NAMES[u])
    groups = [(fp, f" ({' or '.join(names)})") for fp, names in sorted(by_fp.items())]
    division = common.has_division(s, area)
    team = [u for u in ready if division or IS_ELITE[u]]
    helo = s.helo_avail          # 11.12-1: each brigade flown in costs Helo points
    for u in sorted(flyers, key=lambda u: -common.firepower(s, u)):
        if (division or IS_ELITE[u]) and helo_cost(u) <= helo:
            team.append(u)
            helo -= helo_cost(u)
    if len(team) > 1:
        fp = sum(common.firepower(s, u) for u in team)
        groups.append((fp, f" ({' + '.join(UNIT_NAMES[u] for u in team)})"))
    return groups


def react_cases(s, area: int, targets: list[int], strike: bool = False,
                exclude: int | None = None) -> str:
    """The odds of a React the Government may make after this FLN mission (8-6, 9.23),
    one case per choice it has: no React, each unit or group, each number of Air Points.
    Figures for the mission's units as they are (a ``+`` result may reduce them first)."""
    groups = react_groups(s, area, exclude)
    if not groups:
        # 9.12-7: a Strike nobody can React to costs the GOV 1d6 PSL
        return ("; no GOV unit can React" + (" (GOV PSL -1d6, 9.12-7)" if strike else ""))
    head = ("; the GOV must React (9.12-7) or lose 1d6 PSL; if it reacts: " if strike
            else "; if the GOV reacts (9.23): ")
    return head + _evasions(targets) + _stayers_fire(s, area, targets, groups)


def _contact_line(s, a, total, units, what, unit_names, area_ids) -> str | None:
    from djebel.algeria.rules import common

    if not units:
        return None
    parts = []
    for u in units:
        drm = contact_drm(total, common.evasion(u), common.rating(s, a), s.terror[a])
        parts.append(f"{unit_names[u]} {_pct(contact(total, drm)['contact'])}")
    return f"{what} in {area_ids[a]} (contact {total}): " + ", ".join(parts)
