"""The element catalog and core tables, read once from TOML under ``data/``.

The catalog is data a player may extend: every row carries its printed values
(AP/AT firepower, strength, armour) and every special note as an explicit
field, so the rules code never tests a type name.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from djebel.core.errors import ScenarioError

DATA = Path(__file__).parent / "data"

KINDS = ("leader", "infantry", "vehicle", "aircraft")
MOBILITIES = ("foot", "wheeled", "tracked", "helicopter", "fixed_wing")
CHARTS = ("none", "civilian", "armoured", "aircraft")
CLASSES = ("none", "civilian", "armoured", "aircraft")


@dataclass(frozen=True, slots=True)
class ElementType:
    """One catalog row (seed table row plus the engine fields of spec 2.2)."""

    id: str
    name: str
    seed_row: int
    kind: str
    vehicle_class: str
    mobility: str
    sides: tuple[str, ...]
    ap_fp: int
    at_fp: int
    strength: int
    armour_save: int
    ap_fp_by_sp: tuple[int, ...]
    ap_save_modifier: int
    ap_save_modifier_vs_hard_only: bool
    hard_target_only_ap: bool
    at_only_vs_armour: tuple[int, ...]
    at_vs_aircraft_only: bool
    choose_ap_or_at_per_action: bool
    one_shot_fp: int
    one_shot_uses: int
    one_shot_only_vs_armour: tuple[int, ...]
    blast_ap: bool
    damage_chart: str
    cc_save: int
    passenger_capacity: int
    base_w_cm: float
    base_d_cm: float
    seed_note: str

    @property
    def is_infantry(self) -> bool:
        """D11: leaders are infantry for every rule."""
        return self.kind in ("leader", "infantry")

    @property
    def is_aircraft(self) -> bool:
        return self.kind == "aircraft"

    @property
    def is_helicopter(self) -> bool:
        return self.mobility == "helicopter"

    @property
    def is_fixed_wing(self) -> bool:
        return self.mobility == "fixed_wing"


_FIELDS = {
    "id": str, "name": str, "seed_row": int, "kind": str, "vehicle_class": str,
    "mobility": str, "sides": list, "ap_fp": int, "at_fp": int, "strength": int,
    "armour_save": int, "ap_fp_by_sp": list, "ap_save_modifier": int,
    "ap_save_modifier_vs_hard_only": bool, "hard_target_only_ap": bool,
    "at_only_vs_armour": list, "at_vs_aircraft_only": bool,
    "choose_ap_or_at_per_action": bool, "one_shot_at": dict, "blast_ap": bool,
    "damage_chart": str, "cc_save": int, "passenger_capacity": int,
    "base_w_cm": (int, float), "base_d_cm": (int, float), "seed_note": str,
}


def _fail(path: Path | str, where: str, field: str, expected: str, got: object) -> ScenarioError:
    return ScenarioError(f"{path}: {where} field '{field}': expected {expected}, got {got!r}")


def load_toml(path: Path | str) -> dict:
    """Read a TOML file; syntax errors name the file."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML ({exc})") from None


def parse_catalog(data: dict, path: Path | str) -> dict[str, ElementType]:
    """Validate catalog rows; each error names the file, row and field."""
    rows = data.get("element")
    if not isinstance(rows, list) or not rows:
        raise _fail(path, "top level", "element", "a non-empty array of tables", rows)
    out: dict[str, ElementType] = {}
    for i, row in enumerate(rows):
        where = f"element[{i}] ({row.get('id', '?')})"
        for name, typ in _FIELDS.items():
            if name not in row:
                raise _fail(path, where, name, f"a value of type {typ}", None)
            val = row[name]
            if isinstance(val, bool) and typ is int:
                raise _fail(path, where, name, "an integer", val)
            if not isinstance(val, typ):
                raise _fail(path, where, name, f"a value of type {typ}", val)
        if row["kind"] not in KINDS:
            raise _fail(path, where, "kind", f"one of {KINDS}", row["kind"])
        if row["mobility"] not in MOBILITIES:
            raise _fail(path, where, "mobility", f"one of {MOBILITIES}", row["mobility"])
        if row["damage_chart"] not in CHARTS:
            raise _fail(path, where, "damage_chart", f"one of {CHARTS}", row["damage_chart"])
        if row["vehicle_class"] not in CLASSES:
            raise _fail(path, where, "vehicle_class", f"one of {CLASSES}", row["vehicle_class"])
        infantry = row["kind"] in ("leader", "infantry")
        if infantry and len(row["ap_fp_by_sp"]) != row["strength"]:
            raise _fail(path, where, "ap_fp_by_sp", f"{row['strength']} values (one per SP)",
                        row["ap_fp_by_sp"])
        if infantry and row["strength"] < 1:
            raise _fail(path, where, "strength", "at least 1 for infantry", row["strength"])
        if not infantry and not 2 <= row["armour_save"] <= 6:
            raise _fail(path, where, "armour_save", "2..6 for vehicles and aircraft",
                        row["armour_save"])
        if row["base_w_cm"] <= 0 or row["base_d_cm"] <= 0:
            raise _fail(path, where, "base_w_cm", "positive base sizes", row["base_w_cm"])
        shot = row["one_shot_at"]
        for key in ("fp", "uses", "at_only_vs_armour"):
            if key not in shot:
                raise _fail(path, where, f"one_shot_at.{key}", "a value", None)
        if row["id"] in out:
            raise _fail(path, where, "id", "a unique id", row["id"])
        out[row["id"]] = ElementType(
            id=row["id"], name=row["name"], seed_row=row["seed_row"], kind=row["kind"],
            vehicle_class=row["vehicle_class"], mobility=row["mobility"],
            sides=tuple(row["sides"]), ap_fp=row["ap_fp"], at_fp=row["at_fp"],
            strength=row["strength"], armour_save=row["armour_save"],
            ap_fp_by_sp=tuple(row["ap_fp_by_sp"]), ap_save_modifier=row["ap_save_modifier"],
            ap_save_modifier_vs_hard_only=row["ap_save_modifier_vs_hard_only"],
            hard_target_only_ap=row["hard_target_only_ap"],
            at_only_vs_armour=tuple(row["at_only_vs_armour"]),
            at_vs_aircraft_only=row["at_vs_aircraft_only"],
            choose_ap_or_at_per_action=row["choose_ap_or_at_per_action"],
            one_shot_fp=int(shot["fp"]), one_shot_uses=int(shot["uses"]),
            one_shot_only_vs_armour=tuple(shot["at_only_vs_armour"]),
            blast_ap=row["blast_ap"], damage_chart=row["damage_chart"], cc_save=row["cc_save"],
            passenger_capacity=row["passenger_capacity"], base_w_cm=float(row["base_w_cm"]),
            base_d_cm=float(row["base_d_cm"]), seed_note=row["seed_note"],
        )
    return out


@cache
def catalog() -> dict[str, ElementType]:
    """The shipped catalog (cached, immutable rows)."""
    path = DATA / "catalog.toml"
    return parse_catalog(load_toml(path), path)


@cache
def tables() -> dict:
    """The core tables of spec Appendix A (to-hit, saves, charts, moves...)."""
    path = DATA / "tables.toml"
    data = load_toml(path)
    for section in ("command", "blunder", "to_hit", "ap_save", "armour_aspect", "damage",
                    "close_combat", "movement", "civilians", "decision_matrix", "options"):
        if section not in data:
            raise ScenarioError(f"{path}: section '{section}' is missing")
    return data


def damage_result(chart: str, total: int) -> str:
    """Read a damage total on a chart; totals above the top row read as it (D45)."""
    rows = tables()["damage"][chart]["rows"]
    total = max(1, total)
    for row in rows:
        if row["min"] <= total <= row["max"]:
            return row["result"]
    return rows[-1]["result"]
