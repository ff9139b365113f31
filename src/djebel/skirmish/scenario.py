"""Scenarios as data: TOML files validated on load.

A scenario gives the table, its terrain (library kinds with polygons and any
overrides), civilians, forces with their set-up positions and deployment
zones, reinforcements, first side, turn limit and victory conditions. Every
validation error names the file, the field and what was expected.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path

from shapely.geometry import Point, Polygon

from djebel.core.errors import ScenarioError, brief
from djebel.skirmish.catalog import DATA, catalog, load_toml, tables
from djebel.skirmish.geometry import Body, Feature, Terrain, base_poly, distance, rect

SIDES = ("french", "insurgents")
EDGES = ("north", "south", "east", "west")
HOOKS = ("removed", "casualties_not_evacuated", "civilian_casualties", "objective_searched",
         "objective_held", "exited")
FATES = ("eliminated", "destroyed", "abandoned", "exited", "forced_down")
SCENARIO_DIR = DATA / "scenarios"


@dataclass(frozen=True)
class ForceEntry:
    """One element of a force as the scenario places it."""

    side: str
    type: str
    label: str
    x: float
    y: float
    facing: float
    overwatch: bool
    off_table: bool
    airborne: bool
    available_turn: int
    max_sorties: int
    passengers: tuple[str, ...]
    passenger_labels: tuple[str, ...]
    entry_edge: str = ""
    zone: tuple = ()                       # deployment polygons (empty: fixed position)
    min_enemy_cm: float = 0.0


@dataclass(frozen=True)
class Scenario:
    """A validated scenario; immutable and shared by every game played on it."""

    id: str
    name: str
    path: str
    terrain: Terrain
    civilians: tuple[tuple[float, float], ...]
    forces: tuple[ForceEntry, ...]
    first_side: str
    turn_limit: int
    exit_edges: dict
    home_edges: dict
    casevac_zones: tuple
    casevac_by: tuple[str, ...]
    searchable: tuple[str, ...]
    setup_order: tuple[str, ...]
    may_start_overwatch: tuple[str, ...]
    victory: tuple[dict, ...]
    sudden_death: dict
    description: str
    casualties: tuple[tuple[float, float], ...] = ()   # D73 markers down at the start


def _err(path, field: str, expected: str, got: object = None) -> ScenarioError:
    got_txt = "" if got is None else f", got {brief(got)}"
    return ScenarioError(f"{path}: field '{field}': expected {expected}{got_txt}")


NUM_LIMIT = 1_000_000      # cm or degrees; far past any table, short of float overflow


def _num(v) -> bool:
    """A plain finite number of sensible size (10**400 would overflow a float)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and -NUM_LIMIT <= v <= NUM_LIMIT


def _polygon(path, field: str, spec: dict) -> Polygon:
    if "rect" in spec:
        r = spec["rect"]
        if not (isinstance(r, list) and len(r) == 4 and all(_num(v) for v in r)):
            raise _err(path, field + ".rect", "[x0, x1, y0, y1] in cm", r)
        return rect(r[0], r[1], r[2], r[3])
    if "polygon" in spec:
        pts = spec["polygon"]
        if not (isinstance(pts, list) and 3 <= len(pts) <= MAX_POINTS and all(
                isinstance(p, list) and len(p) == 2 and all(_num(v) for v in p) for p in pts)):
            raise _err(path, field + ".polygon", f"a list of 3 to {MAX_POINTS} [x, y] points",
                       pts)
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= 0:
            raise _err(path, field + ".polygon", "a simple polygon with positive area", pts)
        return poly
    raise _err(path, field, "a 'rect' or a 'polygon'")


@cache
def terrain_library() -> dict[str, dict]:
    data = load_toml(DATA / "terrain.toml")
    return data["kind"]


@cache
def _terrain_words() -> dict[str, set]:
    """The words each terrain field (``cover``, ``move.foot``) takes in the library: the
    only ones the rules know what to do with."""
    words: dict[str, set] = {}
    for props in terrain_library().values():
        for key, value in props.items():
            for sub, v in (value.items() if isinstance(value, dict) else [("", value)]):
                if isinstance(v, str):
                    words.setdefault(f"{key}.{sub}" if sub else key, set()).add(v)
    return words


def _check_override(path, field: str, key: str, default: object, value: object) -> None:
    """A scenario's value for a terrain field has the library's shape: a flag for a flag,
    a number for a number, a known word for a word, the same table keys."""
    def word(v, name: str) -> bool:
        return isinstance(v, str) and v in _terrain_words()[name]

    expected = ""
    if isinstance(default, bool) and not isinstance(value, bool):
        expected = "true or false"
    elif _num(default) and not (_num(value) and abs(value) <= 10_000):
        expected = "a number (cm or degrees)"
    elif isinstance(default, str) and not word(value, key):
        expected = f"one of {sorted(_terrain_words()[key])}"
    elif isinstance(default, dict) and not (
            isinstance(value, dict) and set(value) == set(default)
            and all(word(v, f"{key}.{sub}") for sub, v in value.items())):
        expected = "a table of " + ", ".join(
            f"{sub} = {'|'.join(sorted(_terrain_words()[f'{key}.{sub}']))}" for sub in default)
    elif isinstance(default, list) and not (
            isinstance(value, list) and len(value) <= MAX_ENTRIES
            and all(_num(v) and abs(v) <= 10_000 for v in value)):
        expected = "an array of numbers"
    if expected:
        raise _err(path, field, expected, value)


def list_scenarios() -> list[str]:
    """Ids of the shipped scenarios (file stems under data/scenarios)."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))


def load_scenario(name_or_path: str) -> Scenario:
    """A shipped scenario by id, or any scenario file by path (the user names it)."""
    return open_scenario(name_or_path)[0]


def open_scenario(spec: str | dict) -> tuple[Scenario, dict | None]:
    """The scenario ``spec`` names and, unless it is a shipped one, its data (which a
    record embeds, so that replaying the record never reads a file): a shipped id, a
    scenario table, or the path of a scenario file."""
    if isinstance(spec, dict):
        return embedded_scenario(spec), spec
    if spec in list_scenarios():
        return _load(str(SCENARIO_DIR / f"{spec}.toml")), None
    if not isinstance(spec, str) or "\0" in spec:
        raise ScenarioError(f"field 'scenario': expected a scenario id, found {brief(spec)}")
    p = Path(spec)
    try:
        exists = p.exists()
    except (OSError, ValueError):        # a name too long for a path
        exists = False
    if p.suffix == ".toml" or exists:
        data = _read(str(p.resolve()) if exists else str(p))
        return embedded_scenario(data, str(p)), data
    raise ScenarioError(f"unknown scenario {brief(spec)} "
                        f"(shipped: {', '.join(list_scenarios())})")


def shipped_or_embedded(spec: object) -> str | dict:
    """The ``scenario`` of a record: a shipped id or an embedded scenario table, never
    a path (a record comes from anywhere; only the user opens files)."""
    if isinstance(spec, dict) or (isinstance(spec, str) and spec in list_scenarios()):
        return spec
    raise ScenarioError(f"field 'scenario': expected a shipped scenario id "
                        f"({', '.join(list_scenarios())}) or an embedded scenario table, "
                        f"got {brief(spec)}")


@cache
def _load(path: str) -> Scenario:
    return parse_scenario(load_toml(path), path)


def _read(path: str) -> dict:
    """A scenario file's table as JSON holds it (TOML dates become strings), so that what
    is checked now is exactly what a record of the game embeds."""
    return json.loads(json.dumps(load_toml(path), default=str))


def embedded_scenario(data: dict, where: str = "embedded scenario") -> Scenario:
    """A scenario given as a table, validated exactly like a scenario file."""
    try:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        raise ScenarioError(f"{where}: a scenario holds only JSON values "
                            f"(no NaN or infinity)") from None
    return _embedded(hashlib.sha256(text.encode()).hexdigest(), text, where)


@lru_cache(maxsize=32)
def _embedded(digest: str, text: str, where: str) -> Scenario:
    # the path is the content's hash: caches keyed on it never mix two scenarios up
    return replace(parse_scenario(json.loads(text), where), path=f"embedded:{digest}")


# the shape of a scenario table: what each top-level field holds, and for tables and
# arrays, what each of their entries holds (a scenario may come inside a record)
SHAPE = {"table": (dict, None), "terrain": (list, dict), "civilians": (list, list),
         "casualties": (list, list),
         "zones": (dict, list), "sides": (dict, dict), "casevac_zones": (list, list),
         "casevac_by": (list, str), "force": (list, dict), "victory": (list, dict),
         "searchable": (list, str), "sudden_death": (dict, None), "setup_order": (list, str),
         "description": (str, None)}
_WHAT = {dict: "a table", list: "an array", str: "a string"}
MAX_ENTRIES = 100      # of any array or table of a scenario (the shipped ones have 20 at most)
MAX_POINTS = 64        # of a polygon: line of sight is computed against every edge


def _check_shape(data: object, path: str) -> None:
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a table of fields")
    for key, (outer, inner) in SHAPE.items():
        if key not in data:
            continue
        value = data[key]
        if not isinstance(value, outer):
            raise _err(path, key, _WHAT[outer], value)
        if outer is not str and len(value) > MAX_ENTRIES:
            raise _err(path, key, f"at most {MAX_ENTRIES} entries", f"{len(value)} entries")
        if inner is None:
            continue
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, item in items:
            where = f"{key}.{k}" if isinstance(value, dict) else f"{key}[{k}]"
            if not isinstance(item, inner):
                raise _err(path, where, _WHAT[inner], item)
            if inner is not str and len(item) > MAX_ENTRIES:
                raise _err(path, where, f"at most {MAX_ENTRIES} entries", f"{len(item)} entries")


def parse_scenario(data: dict, path: str) -> Scenario:
    """Validate a scenario dict read from ``path``."""
    _check_shape(data, path)
    cat = catalog()
    lib = terrain_library()
    for key, typ, what in (("id", str, "a string"), ("name", str, "a string"),
                           ("turn_limit", int, "a positive integer"),
                           ("first_side", str, "'french' or 'insurgents'")):
        if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
            raise _err(path, key, what, data.get(key))
    if data["turn_limit"] < 1:
        raise _err(path, "turn_limit", "a positive integer", data["turn_limit"])
    if data["first_side"] not in SIDES:
        raise _err(path, "first_side", "'french' or 'insurgents'", data["first_side"])
    table = data.get("table", {})
    width = table.get("width_cm", 122.0)
    depth = table.get("depth_cm", 122.0)
    if not (_num(width) and _num(depth) and 0 < width <= 1000 and 0 < depth <= 1000):
        raise _err(path, "table", "width_cm and depth_cm from 0 to 1000", table)
    # terrain
    feats = []
    seen = set()
    for i, spec in enumerate(data.get("terrain", [])):
        field = f"terrain[{i}]"
        fid = spec.get("id")
        if not isinstance(fid, str) or not fid or " " in fid or fid in seen:
            raise _err(path, field + ".id", "a unique id without spaces", fid)
        seen.add(fid)
        kind = spec.get("kind")
        if not isinstance(kind, str) or kind not in lib:
            raise _err(path, field + ".kind", f"one of {sorted(lib)}", kind)
        props = dict(lib[kind])
        for k, v in spec.items():
            if k in ("id", "kind", "rect", "polygon"):
                continue
            if k not in props:
                raise _err(path, f"{field}.{k}", f"a terrain field of {sorted(props)}", k)
            _check_override(path, f"{field}.{k}", k, props[k], v)
            props[k] = v
        feats.append(Feature(fid, kind, _polygon(path, field, spec), props))
    terrain = Terrain(float(width), float(depth), tuple(feats))
    civs = []
    for i, c in enumerate(data.get("civilians", [])):
        if not (isinstance(c, list) and len(c) == 2 and all(_num(v) for v in c)):
            raise _err(path, f"civilians[{i}]", "[x, y]", c)
        civs.append((float(c[0]), float(c[1])))
    casualties = []
    for i, c in enumerate(data.get("casualties", [])):          # D73: wounded already down
        if not (isinstance(c, list) and len(c) == 2 and all(_num(v) for v in c)
                and 0 <= c[0] <= width and 0 <= c[1] <= depth):
            raise _err(path, f"casualties[{i}]", "[x, y], a point on the table", c)
        casualties.append((float(c[0]), float(c[1])))
    zones: dict[str, object] = {}
    for zname, rects in data.get("zones", {}).items():
        polys = []
        for j, r in enumerate(rects):
            polys.append(_polygon(path, f"zones.{zname}[{j}]", {"rect": r}))
        zones[zname] = polys
    # sides
    exits, homes = {}, {}
    for side in SIDES:
        sd = data.get("sides", {}).get(side, {})
        ex = sd.get("exit_edges", [])
        if not isinstance(ex, list) or not all(e in EDGES for e in ex):
            raise _err(path, f"sides.{side}.exit_edges", f"edges among {EDGES}", ex)
        exits[side] = tuple(ex)
        home = sd.get("home_edge", "west" if side == "french" else "east")
        if home not in EDGES:
            raise _err(path, f"sides.{side}.home_edge", f"one of {EDGES}", home)
        homes[side] = home
    casevac = tuple(_polygon(path, f"casevac_zones[{j}]", {"rect": r})
                    for j, r in enumerate(data.get("casevac_zones", [])))
    casevac_by = tuple(data.get("casevac_by", ["vehicle", "helicopter"]))
    # forces
    forces: list[ForceEntry] = []
    counters = {"french": 0, "insurgents": 0}
    labels: set[str] = set()

    def next_label(side: str, want: str | None, field: str) -> str:
        if want is None:
            counters[side] += 1
            want = ("F" if side == "french" else "I") + str(counters[side])
            while want in labels:
                counters[side] += 1
                want = ("F" if side == "french" else "I") + str(counters[side])
        if not isinstance(want, str) or not want or " " in want or want in labels:
            raise _err(path, field, "a unique label without spaces", want)
        labels.add(want)
        return want

    placed: list[tuple[str, Body, str]] = []
    for i, f in enumerate(data.get("force", [])):
        field = f"force[{i}]"
        side = f.get("side")
        if side not in SIDES:
            raise _err(path, field + ".side", "'french' or 'insurgents'", side)
        typ = f.get("type")
        if not isinstance(typ, str) or typ not in cat:
            raise _err(path, field + ".type", "a catalog id", typ)
        t = cat[typ]
        if (typ, side) in (("french_rifle", "insurgents"), ("ins_rifle", "french")):
            raise _err(path, field + ".side", f"the only side allowed for {typ} (D80)", side)
        off = bool(f.get("off_table", False))
        at = f.get("at", [0.0, 0.0] if off else None)
        if not (isinstance(at, list) and len(at) == 2 and all(_num(v) for v in at)):
            raise _err(path, field + ".at", "[x, y] in cm", at)
        facing = f.get("facing", 0.0)
        if not _num(facing):
            raise _err(path, field + ".facing", "an angle in degrees", facing)
        airborne = bool(f.get("airborne", off and t.is_aircraft))
        if t.is_fixed_wing:
            airborne = True
        if airborne and not t.is_aircraft:
            raise _err(path, field + ".airborne", "false for a ground element", airborne)
        label = next_label(side, f.get("label"), field + ".label")
        body = Body(float(at[0]), float(at[1]), float(facing), t.base_w_cm, t.base_d_cm,
                    airborne)
        if not off:
            if not (0 <= at[0] <= width and 0 <= at[1] <= depth):
                raise _err(path, field + ".at", "a point on the table", at)
            if not airborne:
                mob = "foot" if t.is_infantry else t.mobility
                if mob in ("foot", "wheeled", "tracked") and base_poly(body).intersects(
                        terrain.impassable(mob)) and base_poly(body).intersection(
                        terrain.impassable(mob)).area > 1e-6:
                    raise _err(path, field + ".at", f"a place a {mob} element may stand on", at)
                for other_label, ob, _ in placed:
                    if not ob.air and base_poly(ob).intersection(base_poly(body)).area > 1e-6:
                        raise _err(path, field + ".at", f"a base not overlapping {other_label}",
                                   at)
                radius = tables()["civilians"]["footprint_radius_cm"]
                if any(base_poly(body).distance(Point(c)) < radius for c in civs):
                    raise _err(path, field + ".at", "a base not standing on civilians (D75)",
                               at)
            zone_names = f.get("zone")
            polys = []
            if zone_names is not None:
                names = zone_names if isinstance(zone_names, list) else [zone_names]
                for zn in names:
                    if not isinstance(zn, str):
                        raise _err(path, field + ".zone", "a zone name or terrain id", zn)
                    if zn in zones:
                        polys += zones[zn]
                    elif zn in seen:
                        polys.append(terrain.feature(zn).poly)
                    else:
                        raise _err(path, field + ".zone", "a zone name or terrain id", zn)
                if not any(p.buffer(1e-6).contains(Point(at)) for p in polys):
                    raise _err(path, field + ".at", f"a point inside zone {names}", at)
            placed.append((label, body, side))
        passengers = f.get("passengers", [])
        if not isinstance(passengers, list) or any(not isinstance(p, str) or p not in cat
                                                   for p in passengers):
            raise _err(path, field + ".passengers", "a list of catalog ids", passengers)
        if len(passengers) > t.passenger_capacity:
            raise _err(path, field + ".passengers",
                       f"at most {t.passenger_capacity} (capacity of {typ})", passengers)
        if any(not cat[p].is_infantry for p in passengers):
            raise _err(path, field + ".passengers", "infantry only", passengers)
        plabels = tuple(next_label(side, None, field + ".passengers") for _ in passengers)
        turn = f.get("available_turn", 1)
        sorties = f.get("max_sorties", 0)
        if not isinstance(turn, int) or turn < 1:
            raise _err(path, field + ".available_turn", "a turn number >= 1", turn)
        if not isinstance(sorties, int) or sorties < 0:
            raise _err(path, field + ".max_sorties", "0 (unlimited) or more", sorties)
        entry = f.get("entry_edge", "")
        if off and not t.is_aircraft and entry not in EDGES:
            raise _err(path, field + ".entry_edge",
                       f"the edge a ground reinforcement enters by, one of {EDGES} (D70)", entry)
        gap = f.get("min_enemy_distance_cm", 0.0)
        if not _num(gap) or gap < 0:
            raise _err(path, field + ".min_enemy_distance_cm", "a distance in cm", gap)
        forces.append(ForceEntry(side, typ, label, float(at[0]), float(at[1]), float(facing),
                                 bool(f.get("overwatch", False)), off, airborne, turn, sorties,
                                 tuple(passengers), plabels, entry if off else "",
                                 tuple(polys) if not off else (), float(gap)))
    if not forces:
        raise _err(path, "force", "at least one element")
    for side in SIDES:
        if not any(fe.side == side for fe in forces):
            raise _err(path, "force", f"at least one {side} element")
    # minimum distances from the enemy at set-up
    for i, f in enumerate(data.get("force", [])):
        gap = f.get("min_enemy_distance_cm")
        if gap is None or forces[i].off_table:
            continue
        me = forces[i]
        body = Body(me.x, me.y, me.facing, cat[me.type].base_w_cm, cat[me.type].base_d_cm,
                    me.airborne)
        for label, ob, side in placed:
            if side != me.side and distance(body, ob) < gap - 1e-9:
                raise _err(path, f"force[{i}].at", f"at least {gap} cm from {label}",
                           [me.x, me.y])
    # victory
    victory = []
    for i, v in enumerate(data.get("victory", [])):
        field = f"victory[{i}]"
        if v.get("side") not in SIDES:
            raise _err(path, field + ".side", "'french' or 'insurgents'", v.get("side"))
        if v.get("hook") not in HOOKS:
            raise _err(path, field + ".hook", f"one of {HOOKS}", v.get("hook"))
        if not isinstance(v.get("points"), int):
            raise _err(path, field + ".points", "an integer", v.get("points"))
        fates = v.get("fates", [])
        if not isinstance(fates, list):
            raise _err(path, field + ".fates", f"fates among {FATES}", fates)
        for fate in fates:
            if fate not in FATES:
                raise _err(path, field + ".fates", f"fates among {FATES}", fate)
        if v["hook"] == "objective_held" and (not isinstance(v.get("feature"), str)
                                              or v["feature"] not in seen):
            raise _err(path, field + ".feature", "a terrain id", v.get("feature"))
        victory.append(dict(v))
    searchable = tuple(data.get("searchable", []))
    for s in searchable:
        if s not in seen:
            raise _err(path, "searchable", "terrain ids", s)
    sudden = dict(data.get("sudden_death", {}))
    order = data.get("setup_order", [data["first_side"], "french" if data["first_side"] ==
                                     "insurgents" else "insurgents"])
    if sorted(order) != sorted(SIDES):
        raise _err(path, "setup_order", "both sides, in set-up order", order)
    may_ow = tuple(side for side in SIDES
                   if data.get("sides", {}).get(side, {}).get("may_start_overwatch", False))
    return Scenario(
        id=data["id"], name=data["name"], path=path, terrain=terrain, civilians=tuple(civs),
        forces=tuple(forces), first_side=data["first_side"], turn_limit=data["turn_limit"],
        exit_edges=exits, home_edges=homes, casevac_zones=casevac, casevac_by=casevac_by,
        searchable=searchable, setup_order=tuple(order), may_start_overwatch=may_ow,
        victory=tuple(victory), sudden_death=sudden,
        description=data.get("description", ""), casualties=tuple(casualties),
    )
