"""Constants and small helpers shared by the heuristic policies."""

from __future__ import annotations

from djebel.algeria.board import (
    ALGERIA,
    AREA_INDEX,
    EL_X,
    TYPE_UNITS,
    UNIT_INDEX,
)
from djebel.algeria.tables import tables
from djebel.core.actions import Action

GOV_RESERVE = 38        # the Government spends PSL only above this (coup/OAS zone is <= 30)
POLICE_FLOOR = 20      # the Government mobilizes Police for Civil Affairs above this PSL
FLN_SAFE = 30           # below this the FLN keeps its PSP for itself
ALGERIA_SET = frozenset(ALGERIA)
ELITES = TYPE_UNITS[EL_X]   # the elite brigades, which hunt by helicopter (11.12-4)


def _u(name: object) -> int:
    u = UNIT_INDEX.get(name)
    return u if u is not None else UNIT_INDEX[str(name)]


def _a(name: object) -> int:
    """The area an action argument names; the ids the rules hand out are found as is."""
    a = AREA_INDEX.get(name)
    return a if a is not None else AREA_INDEX[str(name).upper()]


def _listed(legal: list[Action], verb: str, *args: object) -> Action:
    """The element of ``legal`` equal to ``Action(verb, args)``: the game's validate finds
    a listed object by identity at once. A new Action when none is listed (validate then
    says why it is illegal)."""
    for act in legal:
        if act.verb == verb and act.args == args:
            return act
    return Action(verb, args)


_HITS: dict[int, float] = {}


def expected_hits(fp: int) -> float:
    """Mean hits on the CRT (C.3) for a firepower total (the chart is fixed, so each total
    is worked out once)."""
    hits = _HITS.get(fp)
    if hits is None:
        t = tables()
        hits = _HITS[fp] = sum(t.crt(fp, r) for r in range(1, 7)) / 6
    return hits


_OUTFIRE: dict[tuple[int, int], float] = {}


def outfire(fp: int, back: int) -> float:
    """Chance that firepower ``fp`` scores more hits on the CRT (C.3) than ``back`` fired
    at it: the side with more hits neutralizes the other's units (9-6.4)."""
    p = _OUTFIRE.get((fp, back))
    if p is None:
        t = tables()
        p = _OUTFIRE[fp, back] = sum(t.crt(fp, r) > t.crt(back, q)
                                     for r in range(1, 7) for q in range(1, 7)) / 36
    return p


def turn_key(s) -> tuple:
    """A mark of where ``s`` stands: its turn, the length of its history and the last
    action in it (see ``same_turn``)."""
    n = len(s.actions)
    return s.turn, n, s.actions.back(0) if n else None


def same_turn(key: tuple, s) -> bool:
    """Whether ``s`` is in the turn ``key`` (a ``turn_key``) was made in, on a history
    that continues that one: keyed by the game's content, not by its state object, so
    that a copy of the game (a clone, a replay) gets the answers the game itself would,
    and a history that went another way (a take-back) does not."""
    if not key or key[0] != s.turn:
        return False
    extra = len(s.actions) - key[1]
    if extra < 0:
        return False
    return not key[1] or s.actions.back(extra) == key[2]
