"""Constants and small helpers shared by the heuristic policies."""

from __future__ import annotations

from djebel.algeria.board import (
    AREA_INDEX,
    UNIT_INDEX,
)
from djebel.algeria.tables import tables

GOV_RESERVE = 38        # the Government spends PSL only above this (coup/OAS zone is <= 30)
FLN_SAFE = 30           # below this the FLN keeps its PSP for itself


def _u(name: object) -> int:
    return UNIT_INDEX[str(name)]


def _a(name: object) -> int:
    return AREA_INDEX[str(name).upper()]


def expected_hits(fp: int) -> float:
    """Mean hits on the CRT (C.3) for a firepower total."""
    t = tables()
    return sum(t.crt(fp, r) for r in range(1, 7)) / 6
