"""A per-decision summary of the board for the bots: who is where, patrols, threats.

Built once per decision from the flat state lists, so every policy reads plain
per-area tallies instead of scanning the 120 counters again.
"""

from __future__ import annotations

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

# Per-unit constants for the one pass over each side's slice of the counters.
_GOV, _FLN = GOV_SLICE, FLN_SLICE
_GOV_TYPES = tuple(UTYPE[_GOV])
_FLN_TYPES = tuple(UTYPE[_FLN])
# FLN presence as the Government weighs it (``threat``): Front 3, Failek 2, others 1.
_THREAT_W = tuple(3.0 if t == FRONT else 2.0 if t == FAILEK else 1.0
                  for t in range(len(UNIT_TYPES)))
_THREAT_MULT = tuple(0.0 if a not in ALGERIA else 1.6 if _URBAN[a] else 0.6
                     if _REMOTE[a] else 1.0 for a in _AREAS)


def view_of(s: State) -> View:
    """The View of ``s``, reused while no action has been applied to it.

    After an action that moved no counter (same locations, boxes, flags and resettled
    areas: all a View's tallies depend on) the new View shares the previous one's
    tallies; each View keeps its own ``memo``."""
    key = (id(s), len(s.actions), len(s.stack))
    last = _CACHE[1]
    if _CACHE[0] == key and last.s is s:
        return last
    v = last.sharing(s) if last is not None and last.same_counters(s) else View(s)
    _CACHE[0], _CACHE[1] = key, v
    return v


class View:
    """Per-area tallies of one state."""

    __slots__ = ("s", "fln", "gov", "fln_cp", "gov_cp", "patrol", "police", "elites",
                 "division", "gov_fp", "fln_ops", "fln_ug", "fronts", "threat", "remote",
                 "urban", "memo", "_counters")

    def __init__(self, s: State):
        self.s = s
        self.memo = {}
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
        self.remote = ([r or z for r, z in zip(_REMOTE, s.resettled, strict=True)]
                       if any(s.resettled) else _REMOTE)
        self.urban = _URBAN
        # How much the Government should care about an area: FLN presence, weighted.
        if self.remote is not _REMOTE:
            self.threat = [t * (0.0 if a not in ALGERIA else 1.6 if _URBAN[a] else 0.6
                                if self.remote[a] else 1.0) for a, t in enumerate(threat)]
        else:
            self.threat = [t * m for t, m in zip(threat, _THREAT_MULT, strict=True)]

    def same_counters(self, s: State) -> bool:
        """Whether ``s`` has this View's unit locations, boxes, flags and resettled areas."""
        loc, box, flags, resettled = self._counters
        return s.loc == loc and s.box == box and s.flags == flags and s.resettled == resettled

    def sharing(self, s: State) -> View:
        """A View of ``s`` (same counters as this one) sharing these tallies, fresh memo."""
        v = View.__new__(View)
        for name in View.__slots__:
            setattr(v, name, getattr(self, name))
        v.s = s
        v.memo = {}
        return v

    def fln_mobile_abroad(self) -> list[int]:
        return [u for a in COUNTRIES for u in self.fln[a] if UTYPE[u] in (CADRE, BAND, FAILEK)]


def is_gov_mobile(u: int) -> bool:
    return UTYPE[u] in (FR_XX, FR_X, EL_X, AL_X)
