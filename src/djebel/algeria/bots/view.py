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
    FLN_UNITS,
    FR_X,
    FR_XX,
    FRONT,
    GOV_UNITS,
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
    return _ODDS[max(-12, min(12, drm))]


# Unit values to the FLN, in "PSP-equivalents", for loss allocation and risk.
FLN_VALUE = {CADRE: 2.0, BAND: 2.5, FAILEK: 5.0, FRONT: 7.0}
FP = tuple(UNIT_TYPES[t]["firepower"] for t in range(len(UNIT_TYPES)))
CONTACT = tuple(UNIT_TYPES[t].get("contact", 0) for t in range(len(UNIT_TYPES)))
EVASION = tuple(UNIT_TYPES[t].get("evasion", 0) for t in range(len(UNIT_TYPES)))
CP = tuple(UNIT_TYPES[t]["control_points"] for t in range(len(UNIT_TYPES)))


_CACHE: list = [None, None]
_REMOTE = [AREA_RATING[a] == REMOTE for a in range(NUM_AREAS)]
_URBAN = [AREA_RATING[a] == URBAN for a in range(NUM_AREAS)]


def view_of(s: State) -> View:
    """The View of ``s``, reused while no action has been applied to it."""
    key = (id(s), len(s.actions), len(s.stack))
    if _CACHE[0] == key and _CACHE[1].s is s:
        return _CACHE[1]
    v = View(s)
    _CACHE[0], _CACHE[1] = key, v
    return v


class View:
    """Per-area tallies of one state."""

    __slots__ = ("s", "fln", "gov", "fln_cp", "gov_cp", "patrol", "police", "elites",
                 "division", "gov_fp", "fln_ops", "fln_ug", "fronts", "threat", "remote",
                 "urban", "memo")

    def __init__(self, s: State):
        self.s = s
        loc, box, flags = s.loc, s.box, s.flags
        n = NUM_AREAS
        self.fln = [[] for _ in range(n)]
        self.gov = [[] for _ in range(n)]
        self.fln_cp = [0] * n
        self.gov_cp = [0] * n
        self.patrol = [0] * n
        self.police = [0] * n
        self.elites = [0] * n
        self.division = [False] * n
        self.gov_fp = [0] * n
        self.fln_ops = [[] for _ in range(n)]
        self.fln_ug = [[] for _ in range(n)]
        self.fronts = [None] * n
        fln, fronts, fln_cp, fln_ug, fln_ops = self.fln, self.fronts, self.fln_cp, \
            self.fln_ug, self.fln_ops
        for u in FLN_UNITS:
            a = loc[u]
            if a < 0:
                continue
            fln[a].append(u)
            t = UTYPE[u]
            if t == FRONT:
                fronts[a] = u
            if flags[u] & NEUT:
                continue
            fln_cp[a] += CP[t]
            b = box[u]
            if b == UG:
                fln_ug[a].append(u)
            elif b in (OPS, OC):
                fln_ops[a].append(u)
        gov, gov_cp, gov_fp, patrol = self.gov, self.gov_cp, self.gov_fp, self.patrol
        for u in GOV_UNITS:
            a = loc[u]
            if a < 0:
                continue
            gov[a].append(u)
            t = UTYPE[u]
            if t == FR_XX:
                self.division[a] = True
            f = flags[u]
            if f & NEUT:
                continue
            if t == FR_XX and f & DISPERSED:
                gov_cp[a] += 3
                gov_fp[a] += 12
            else:
                gov_cp[a] += CP[t]
                gov_fp[a] += FP[t]
            if box[u] == PTL:
                patrol[a] += 1
            if t == POLICE:
                self.police[a] += 1
            elif t == EL_X:
                self.elites[a] += 1
        self.remote = ([r or z for r, z in zip(_REMOTE, s.resettled, strict=True)]
                       if any(s.resettled) else _REMOTE)
        self.urban = _URBAN
        self.memo = {}
        # How much the Government should care about an area: FLN presence, weighted.
        self.threat = [0.0] * n
        for a in ALGERIA:
            t = 0.0
            for u in self.fln[a]:
                k = UTYPE[u]
                t += 3.0 if k == FRONT else 2.0 if k == FAILEK else 1.0
            if self.urban[a]:
                t *= 1.6
            elif self.remote[a]:
                t *= 0.6
            self.threat[a] = t

    def fln_mobile_abroad(self) -> list[int]:
        return [u for a in COUNTRIES for u in self.fln[a] if UTYPE[u] in (CADRE, BAND, FAILEK)]


def is_gov_mobile(u: int) -> bool:
    return UTYPE[u] in (FR_XX, FR_X, EL_X, AL_X)
