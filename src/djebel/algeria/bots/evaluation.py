"""A position evaluation fitted on self-play games: the FLN's chance to win.

A logistic regression per scenario on a few features of the position (the two PSLs
and how near each is to 0, areas controlled, AP, the units of each side on the map,
the turn), fitted by ``scripts/fit-evaluation`` on heuristic games played from the
start of every turn, and stored in ``evaluation.toml`` beside this module. The
planner scores a rollout cut short with it. Pure Python: no numpy at play time.
"""

from __future__ import annotations

import math
import tomllib
from functools import cache
from pathlib import Path

from djebel.algeria.board import (
    BAND,
    CADRE,
    FAILEK,
    FLN_SLICE,
    FRONT,
    GOV_MOBILE_TYPES,
    GOV_SLICE,
    NEUT,
    POLICE,
    UTYPE,
)
from djebel.algeria.state import FLN_CONTROL, GOV_CONTROL
from djebel.core.errors import ScenarioError

FEATURES = ("fln_psl", "gov_psl", "fln_near0", "gov_near0", "fln_areas", "gov_areas",
            "ap", "fronts", "bands", "cadres", "fln_neut", "gov_mobile", "police",
            "gov_neut", "naval", "turn")
DATA = Path(__file__).with_name("evaluation.toml")
_FLN_TYPES = UTYPE[FLN_SLICE]
_GOV_TYPES = UTYPE[GOV_SLICE]


def features(s) -> list[float]:
    """The features of state ``s``, in the order of FEATURES (scaled to about 0..1)."""
    fronts = bands = cadres = fln_neut = 0
    for a, t, f in zip(s.loc[FLN_SLICE], _FLN_TYPES, s.flags[FLN_SLICE], strict=True):
        if a < 0:
            continue
        if f & NEUT:
            fln_neut += 1
        elif t == FRONT:
            fronts += 1
        elif t in (BAND, FAILEK):
            bands += 1
        elif t == CADRE:
            cadres += 1
    mobile = police = gov_neut = 0
    for a, t, f in zip(s.loc[GOV_SLICE], _GOV_TYPES, s.flags[GOV_SLICE], strict=True):
        if a < 0:
            continue
        if f & NEUT:
            gov_neut += 1
        elif t == POLICE:
            police += 1
        elif t in GOV_MOBILE_TYPES:
            mobile += 1
    return [s.fln_psl / 50, s.gov_psl / 50, math.exp(-s.fln_psl / 10),
            math.exp(-s.gov_psl / 10), s.control.count(FLN_CONTROL) / 10,
            s.control.count(GOV_CONTROL) / 10, s.ap / 20, fronts / 5, bands / 10,
            cadres / 10, fln_neut / 10, mobile / 10, police / 10, gov_neut / 10,
            s.naval / 5, s.turn / 10]


@cache
def coefficients() -> dict[str, tuple[float, ...]]:
    """Scenario -> (intercept, one weight per feature), from evaluation.toml."""
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    if tuple(data.get("features", ())) != FEATURES:
        raise ScenarioError(f"{DATA.name}: field 'features' does not list {FEATURES}; "
                            "rerun scripts/fit-evaluation")
    out = {}
    for scenario, row in data["scenario"].items():
        weights = tuple(float(w) for w in row["weights"])
        if len(weights) != len(FEATURES) + 1:
            raise ScenarioError(f"{DATA.name}: scenario {scenario}: expected "
                                f"{len(FEATURES) + 1} weights, found {len(weights)}")
        out[scenario] = weights
    return out


def fln_chance(s) -> float:
    """The fitted chance that the FLN wins from state ``s`` (exact once it is over)."""
    if s.winner is not None:
        return 1.0 if s.winner == "fln" else 0.0
    w = coefficients()[s.scenario]
    x = w[0] + sum(wi * fi for wi, fi in zip(w[1:], features(s), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def win_chance(game, side: str) -> float:
    p = fln_chance(game.state)
    return p if side == "fln" else 1.0 - p
