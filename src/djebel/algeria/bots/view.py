"""A per-decision summary of the board for the bots: who is where, patrols, threats.

Built once per decision from the flat state lists, so every policy reads plain
per-area tallies instead of scanning the 120 counters again.
"""

from __future__ import annotations

from itertools import compress
from operator import ne

from djebel.algeria.board import (
    AL_X,
    ALGERIA,
    AREA_RATING,
    BAND,
    CADRE,
    COUNTRIES,
    DISPERSED,
    EL_X,
    FAILEK,
    FLN_SLICE,
    FR_X,
    FR_XX,
    FRONT,
    GOV_SLICE,
    NEUT,
    NUM_AREAS,
    NUM_UNITS,
    OC,
    OPS,
    POLICE,
    PTL,
    REMOTE,
    UG,
    UNIT_TYPES,
    URBAN,
    UTYPE,
)
from djebel.algeria.state import State

# Mission Success Table (A.3 = B.4): modified roll -> (N, "+" result).
_MST = {-1: (0, True), 0: (0, True), 1: (1, True), 2: (1, False), 3: (1, False),
        4: (2, False), 5: (2, False), 6: (3, False), 7: (4, False), 8: (5, False)}


def _mst_odds(drm: int) -> tuple[float, float, float]:
    n = plus = at = 0.0
    for r in range(1, 7):
        m = max(-1, min(8, r + drm))
        k, p = _MST[m]
        n += k
        plus += p
        at += m >= 6
    return n / 6, plus / 6, at / 6


_ODDS = {d: _mst_odds(d) for d in range(-12, 13)}


def mst_odds(drm: int) -> tuple[float, float, float]:
    """(expected N, probability of '+', probability of '@') for 1d6 + drm on the MST."""
    odds = _ODDS.get(drm)
    return odds if odds is not None else _ODDS[max(-12, min(12, drm))]


# Unit values to the FLN, in "PSP-equivalents", for loss allocation and risk.
FLN_VALUE = {CADRE: 2.0, BAND: 2.5, FAILEK: 5.0, FRONT: 7.0}
FP = tuple(UNIT_TYPES[t]["firepower"] for t in range(len(UNIT_TYPES)))
CONTACT = tuple(UNIT_TYPES[t].get("contact", 0) for t in range(len(UNIT_TYPES)))
EVASION = tuple(UNIT_TYPES[t].get("evasion", 0) for t in range(len(UNIT_TYPES)))
CP = tuple(UNIT_TYPES[t]["control_points"] for t in range(len(UNIT_TYPES)))


_CACHE: list = [None, None]
_REMOTE = [AREA_RATING[a] == REMOTE for a in range(NUM_AREAS)]
_URBAN = [AREA_RATING[a] == URBAN for a in range(NUM_AREAS)]
_AREAS = range(NUM_AREAS)
_UNITS = range(NUM_UNITS)

# Per-unit constants for the one pass over each side's slice of the counters.
_GOV, _FLN = GOV_SLICE, FLN_SLICE
_GOV_TYPES = tuple(UTYPE[_GOV])
_FLN_TYPES = tuple(UTYPE[_FLN])
_IS_FLN = tuple(u in range(NUM_UNITS)[_FLN] for u in _UNITS)
# FLN presence as the Government weighs it (``threat``): Front 3, Failek 2, others 1,
# times 1.6 in an Urban area and 0.6 in a Remote one; none outside Algeria.
_THREAT_W = tuple(3.0 if t == FRONT else 2.0 if t == FAILEK else 1.0
                  for t in range(len(UNIT_TYPES)))


def _threat_mult(remote: list[bool]) -> tuple[float, ...]:
    return tuple(0.0 if a not in ALGERIA else 1.6 if _URBAN[a] else 0.6 if remote[a] else 1.0
                 for a in _AREAS)


_THREAT_MULT = _threat_mult(_REMOTE)
# Past this many counters changed since the last View, a View is built afresh.
_FEW_CHANGES = 8


def _cleared(values: list, areas: list[int]) -> list:
    """A copy of the per-area ``values`` with the entries of ``areas`` unknown again."""
    out = values[:]
    for a in areas:
        out[a] = None
    return out


def view_of(s: State) -> View:
    """The View of ``s``, reused while no action has been applied to it.

    Otherwise worked out from the previous View when few counters differ (see
    ``View.successor``), else built afresh."""
    key = (id(s), len(s.actions), len(s.stack))
    last = _CACHE[1]
    if _CACHE[0] == key and last.s is s:
        return last
    v = last.successor(s) if last is not None else None
    if v is None:
        v = View(s)
    _CACHE[0], _CACHE[1] = key, v
    return v


class View:
    """Per-area tallies of one state."""

    __slots__ = ("s", "fln", "gov", "fln_cp", "gov_cp", "patrol", "police", "elites",
                 "division", "gov_fp", "fln_ops", "fln_ug", "fronts", "threat", "remote",
                 "urban", "memo", "area_memo", "_counters", "_mult")

    def __init__(self, s: State):
        self.s = s
        self.memo = {}
        # Per-area values that read only that area's tallies: key -> one entry per area
        # (None until worked out); a successor keeps the entries of the areas it did not
        # recount.
        self.area_memo: dict[tuple, list] = {}
        loc, box, flags = s.loc, s.box, s.flags
        self._counters = (loc[:], box[:], flags[:], s.resettled[:])
        self.fln = fln = [[] for _ in _AREAS]
        self.fln_ops = fln_ops = [[] for _ in _AREAS]
        self.fln_ug = fln_ug = [[] for _ in _AREAS]
        self.fronts = fronts = [None] * NUM_AREAS
        self.fln_cp = fln_cp = [0] * NUM_AREAS
        threat = [0.0] * NUM_AREAS
        u = _FLN.start
        for a, t, b, f in zip(loc[_FLN], _FLN_TYPES, box[_FLN], flags[_FLN], strict=True):
            if a >= 0:
                fln[a].append(u)
                threat[a] += _THREAT_W[t]
                if t == FRONT:
                    fronts[a] = u
                if not f & NEUT:
                    fln_cp[a] += CP[t]
                    if b == UG:
                        fln_ug[a].append(u)
                    elif b in (OPS, OC):
                        fln_ops[a].append(u)
            u += 1
        self.gov = gov = [[] for _ in _AREAS]
        self.gov_cp = gov_cp = [0] * NUM_AREAS
        self.gov_fp = gov_fp = [0] * NUM_AREAS
        self.patrol = patrol = [0] * NUM_AREAS
        self.police = police = [0] * NUM_AREAS
        self.elites = elites = [0] * NUM_AREAS
        self.division = division = [False] * NUM_AREAS
        u = _GOV.start
        for a, t, b, f in zip(loc[_GOV], _GOV_TYPES, box[_GOV], flags[_GOV], strict=True):
            if a >= 0:
                gov[a].append(u)
                if t == FR_XX:
                    division[a] = True
                if not f & NEUT:
                    if t == FR_XX and f & DISPERSED:
                        gov_cp[a] += 3
                        gov_fp[a] += 12
                    else:
                        gov_cp[a] += CP[t]
                        gov_fp[a] += FP[t]
                    if b == PTL:
                        patrol[a] += 1
                    if t == POLICE:
                        police[a] += 1
                    elif t == EL_X:
                        elites[a] += 1
            u += 1
        if any(s.resettled):
            self.remote = [r or z for r, z in zip(_REMOTE, s.resettled, strict=True)]
            self._mult = _threat_mult(self.remote)
        else:
            self.remote, self._mult = _REMOTE, _THREAT_MULT
        self.urban = _URBAN
        # How much the Government should care about an area: FLN presence, weighted.
        self.threat = [t * m for t, m in zip(threat, self._mult, strict=True)]

    def successor(self, s: State) -> View | None:
        """A View of ``s`` worked out from this one, or None when too much changed.

        A View's tallies depend on the unit locations, boxes and flags and on the
        resettled areas alone. With none of them changed the new View shares these
        tallies; with a few units changed it recounts only the areas those units left
        or entered (the per-area lists are copied, never edited in place). A View with
        the same tallies shares its predecessor's ``memo``; any other starts afresh, and
        keeps the ``area_memo`` entries of the areas it did not recount."""
        loc0, box0, flags0, resettled0 = self._counters
        if s.resettled != resettled0:
            return None
        loc, box, flags = s.loc, s.box, s.flags
        changed: set[int] = set()
        # The snapshots are never edited: an unchanged list keeps its old snapshot.
        if loc != loc0:
            changed.update(compress(_UNITS, map(ne, loc, loc0)))
            loc0 = loc[:]
        if box != box0:
            changed.update(compress(_UNITS, map(ne, box, box0)))
            box0 = box[:]
        if flags != flags0:
            changed.update(compress(_UNITS, map(ne, flags, flags0)))
            flags0 = flags[:]
        if len(changed) > _FEW_CHANGES:
            return None
        v = View.__new__(View)
        v.s, v.memo, v.remote, v.urban, v._mult = s, {}, self.remote, self.urban, self._mult
        v.fln, v.fln_ops, v.fln_ug, v.fronts, v.fln_cp, v.threat = (
            self.fln, self.fln_ops, self.fln_ug, self.fronts, self.fln_cp, self.threat)
        v.gov, v.gov_cp, v.gov_fp, v.patrol, v.police, v.elites, v.division = (
            self.gov, self.gov_cp, self.gov_fp, self.patrol, self.police, self.elites,
            self.division)
        if not changed:
            # The same tallies: the memo's entries (keyed by every other input) still hold.
            v._counters, v.memo, v.area_memo = self._counters, self.memo, self.area_memo
            return v
        old_loc = self._counters[0]
        v._counters = (loc0, box0, flags0, resettled0)
        if self.area_memo:
            touched = [a for a in {old_loc[u] for u in changed} | {loc[u] for u in changed}
                       if a >= 0]
            v.area_memo = {key: _cleared(values, touched)
                           for key, values in self.area_memo.items()}
        else:
            v.area_memo = {}
        fln_moved = [u for u in changed if _IS_FLN[u]]        # (the recounts sort each area)
        gov_moved = [u for u in changed if not _IS_FLN[u]]
        if fln_moved:
            v._recount_fln(fln_moved, old_loc)
        if gov_moved:
            v._recount_gov(gov_moved, old_loc)
        return v

    def _recount_fln(self, moved: list[int], loc0: list[int]) -> None:
        """Recount the FLN tallies of the areas ``moved`` units were in or are in now."""
        loc, box, flags = self.s.loc, self.s.box, self.s.flags
        self.fln = fln = self.fln[:]
        self.fln_ops = fln_ops = self.fln_ops[:]
        self.fln_ug = fln_ug = self.fln_ug[:]
        self.fronts = fronts = self.fronts[:]
        self.fln_cp = fln_cp = self.fln_cp[:]
        self.threat = threat = self.threat[:]
        mult = self._mult
        for a in {loc0[u] for u in moved} | {loc[u] for u in moved}:
            if a < 0:
                continue
            units = [x for x in fln[a] if x not in moved] + [u for u in moved if loc[u] == a]
            units.sort()
            ops, ug, front, cp, w = [], [], None, 0, 0.0
            for u in units:
                t = UTYPE[u]
                w += _THREAT_W[t]
                if t == FRONT:
                    front = u
                if not flags[u] & NEUT:
                    cp += CP[t]
                    b = box[u]
                    if b == UG:
                        ug.append(u)
                    elif b in (OPS, OC):
                        ops.append(u)
            fln[a], fln_ops[a], fln_ug[a], fronts[a], fln_cp[a] = units, ops, ug, front, cp
            threat[a] = w * mult[a]

    def _recount_gov(self, moved: list[int], loc0: list[int]) -> None:
        """Recount the Government tallies of the areas ``moved`` units were in or are in."""
        loc, box, flags = self.s.loc, self.s.box, self.s.flags
        self.gov = gov = self.gov[:]
        self.gov_cp = gov_cp = self.gov_cp[:]
        self.gov_fp = gov_fp = self.gov_fp[:]
        self.patrol = patrol = self.patrol[:]
        self.police = police = self.police[:]
        self.elites = elites = self.elites[:]
        self.division = division = self.division[:]
        for a in {loc0[u] for u in moved} | {loc[u] for u in moved}:
            if a < 0:
                continue
            units = [x for x in gov[a] if x not in moved] + [u for u in moved if loc[u] == a]
            units.sort()
            cp = fp = ptl = pol = eli = 0
            div = False
            for u in units:
                t = UTYPE[u]
                if t == FR_XX:
                    div = True
                f = flags[u]
                if not f & NEUT:
                    if t == FR_XX and f & DISPERSED:
                        cp += 3
                        fp += 12
                    else:
                        cp += CP[t]
                        fp += FP[t]
                    if box[u] == PTL:
                        ptl += 1
                    if t == POLICE:
                        pol += 1
                    elif t == EL_X:
                        eli += 1
            gov[a], division[a] = units, div
            gov_cp[a], gov_fp[a], patrol[a], police[a], elites[a] = cp, fp, ptl, pol, eli

    def per_area(self, key: tuple) -> list:
        """The ``area_memo`` entry ``key``: one value per area, None until worked out.
        For values that read only the area's own tallies (and the counters of the units
        in it); ``key`` names every other input."""
        values = self.area_memo.get(key)
        if values is None:
            values = self.area_memo[key] = [None] * NUM_AREAS
        return values

    def civil_sites(self) -> int:
        """Civil Affairs the Government can run a turn: one in each non-Remote area with
        a non-neutralized Police unit (9.25; once per area per turn, 9-2)."""
        return sum(1 for a in ALGERIA if self.police[a] and not self.remote[a])

    def fln_out(self, a: int) -> int:
        """FLN units in ``a`` out of UG (in OPS or OC), neutralized or not; a unit
        neutralized in UG (2.3-3) is not out."""
        units = self.fln[a]
        if len(units) == len(self.fln_ug[a]):
            return 0            # every unit there is in UG and not neutralized
        box = self.s.box
        return sum(1 for u in units if box[u] != UG)

    def fln_mobile_abroad(self) -> list[int]:
        return [u for a in COUNTRIES for u in self.fln[a] if UTYPE[u] in (CADRE, BAND, FAILEK)]


def is_gov_mobile(u: int) -> bool:
    return UTYPE[u] in (FR_XX, FR_X, EL_X, AL_X)
