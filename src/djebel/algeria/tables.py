"""The charts (A.1-C.8) and the map, loaded once from ``data/*.toml``.

A designer may edit a data file to play a variant; a missing or mistyped
field is reported with the file and field name.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from djebel.core.errors import ScenarioError


def load(name: str) -> dict[str, Any]:
    """Read ``data/<name>.toml``."""
    path = resources.files("djebel.algeria") / "data" / f"{name}.toml"
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ScenarioError(f"algeria data file {name}.toml is missing") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"algeria data file {name}.toml: {exc}") from None


def field(data: dict, key: str, file: str, kind: type | tuple = (int, float, str, list, dict)):
    """``data[key]`` checked for presence and type, or an error naming file and field."""
    if key not in data:
        raise ScenarioError(f"{file}.toml: field '{key}' is missing")
    value = data[key]
    if not isinstance(value, kind):
        raise ScenarioError(f"{file}.toml: field '{key}' should be {kind}, found {value!r}")
    return value


@dataclass(frozen=True)
class MstResult:
    """One cell of the Mission Success Table (A.3/B.4): a number and a symbol."""

    n: int
    plus: bool    # "+": the mission went wrong
    at: bool      # "@": extra success
    text: str


@dataclass(frozen=True)
class Tables:
    mst: tuple[MstResult, ...]            # index roll - min_roll
    mst_min: int
    mst_max: int
    crt_columns: tuple[tuple[int, int], ...]
    crt_hits: tuple[tuple[int, ...], ...]
    depreciation: tuple[tuple[int, int, int], ...]
    coup: tuple[dict, ...]
    events: tuple[dict, ...]
    event_at: dict[int, dict]             # C.2 by roll: every roll of each event's range
    a1: dict
    a2: dict
    a4: dict
    b1: dict
    b2: dict
    b3: dict
    c1: dict
    c4: dict
    c5: dict
    c6: dict

    def mst_result(self, roll: int) -> MstResult:
        """A.3/B.4: clamp the modified roll to the table and read the cell."""
        roll = min(max(roll, self.mst_min), self.mst_max)
        return self.mst[roll - self.mst_min]

    def crt_column(self, firepower: int) -> int:
        """C.3: the column for a firepower total (below 1 reads as 1, 36+ as the last)."""
        for i, (_lo, hi) in enumerate(self.crt_columns):
            if firepower <= hi:
                return i
        return len(self.crt_columns) - 1

    def crt(self, firepower: int, roll: int) -> int:
        """C.3: hits for a firepower total and a die roll."""
        return self.crt_hits[roll - 1][self.crt_column(firepower)]

    def depreciation_loss(self, points: int) -> int:
        """C.4: the loss number for a number of points."""
        for lo, hi, loss in self.depreciation:
            if lo <= points <= hi:
                return loss
        return 0

    def coup_row(self, roll: int) -> dict:
        """B.2: the row for a modified 2d6 roll."""
        for row in self.coup:
            lo, hi = row["rolls"]
            if lo <= roll <= hi:
                return row
        return self.coup[0] if roll < self.coup[0]["rolls"][0] else self.coup[-1]

    def event(self, roll: int) -> dict:
        """C.2: the event for a tens-and-units roll (11..66)."""
        ev = self.event_at.get(roll)
        if ev is None:
            raise ScenarioError(f"c2_random_events.toml: no event for roll {roll}")
        return ev


def _parse_mst(file: str) -> tuple[tuple[MstResult, ...], int, int]:
    data = load(file)
    lo, hi = field(data, "min_roll", file, int), field(data, "max_roll", file, int)
    rows = {field(r, "roll", file, int): field(r, "result", file, str)
            for r in field(data, "row", file, list)}
    cells = []
    for roll in range(lo, hi + 1):
        if roll not in rows:
            raise ScenarioError(f"{file}.toml: no row for roll {roll}")
        text = rows[roll]
        digits = text.rstrip("+@")
        if not digits.isdigit():
            raise ScenarioError(f"{file}.toml: field 'result' {text!r} is not N, N+ or N@")
        cells.append(MstResult(int(digits), text.endswith("+"), text.endswith("@"), text))
    return tuple(cells), lo, hi


def _events_by_roll(events: tuple[dict, ...]) -> dict[int, dict]:
    """C.2 as a look-up by roll; where two ranges overlap, the first listed wins."""
    out: dict[int, dict] = {}
    for ev in events:
        lo, hi = ev["rolls"]
        for roll in range(lo, hi + 1):
            out.setdefault(roll, ev)
    return out


@cache
def tables() -> Tables:
    mst, lo, hi = _parse_mst("a3_mission_success")
    if _parse_mst("b4_mission_success")[0] != mst:
        raise ScenarioError("a3_mission_success.toml and b4_mission_success.toml differ; "
                            "the charts print one table twice")
    crt = load("c3_crt")
    hits = field(crt, "hits", "c3_crt", list)
    cols = field(crt, "columns", "c3_crt", list)
    if len(hits) != 6 or any(len(row) != len(cols) for row in hits):
        raise ScenarioError("c3_crt.toml: field 'hits' must have 6 rows of one value per column")
    c4 = load("c4_depreciation")
    events = tuple(field(load("c2_random_events"), "event", "c2_random_events", list))
    return Tables(
        mst=mst, mst_min=lo, mst_max=hi,
        crt_columns=tuple(tuple(c) for c in cols),
        crt_hits=tuple(tuple(r) for r in hits),
        depreciation=tuple(tuple(b) for b in field(c4, "bands", "c4_depreciation", list)),
        coup=tuple(field(load("b2_coup"), "row", "b2_coup", list)),
        events=events, event_at=_events_by_roll(events),
        a1=load("a1_reinforcement"), a2=load("a2_fln_missions"), a4=load("a4_ap_sources"),
        b1=load("b1_mobilization"), b2=load("b2_coup"), b3=load("b3_gov_missions"),
        c1=load("c1_sequence"), c4=c4, c5=load("c5_recovery"), c6=load("c6_psl_adjustments"),
    )
