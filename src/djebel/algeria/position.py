"""Positions: a game described as readable JSON, the way chess has FEN.

A position lists units by area and box with their states, the tracks, markers, turn,
phase and (optionally) the pending decision stack. Tests, bug reports, tutorials and
puzzles start from one, with seeded or scripted dice.

Unit tokens are type keys with marks: ``band*`` neutralized, ``fr_x^`` airmobile,
``fr_xx~`` dispersed, ``el_x!`` activated this turn. Example::

    {"scenario": "1958", "turn": 2, "phase": "operations",
     "fln_psl": 55, "gov_psl": 48, "ap": 7,
     "areas": {"ALGIERS": {"control": "fln", "terror": true,
                           "UG": ["cadre"], "OPS": ["front", "cadre"], "PTL": ["police"]}}}
"""

from __future__ import annotations

from typing import Any

from djebel.algeria import flow
from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AREA_IDS,
    AREA_INDEX,
    BOX_NAMES,
    DISPERSED,
    NATO,
    NEUT,
    REMOVED,
    SUEZ,
    TYPE_INDEX,
    TYPE_KEYS,
    UTYPE,
)
from djebel.algeria.game import OPTIONS, AlgeriaGame, check_options
from djebel.algeria.rules.common import free_counter
from djebel.algeria.rules.setup import scenario_spec
from djebel.algeria.state import (
    CONTESTED,
    FLN_CONTROL,
    GOV_CONTROL,
    OAS_INACTIVE,
    OAS_UNPLACED,
    State,
)
from djebel.core.dice import Dice
from djebel.core.errors import ScenarioError

MARKS = {"*": NEUT, "^": AIRMOBILE, "~": DISPERSED, "!": ACTIVE}
CONTROL = {"fln": FLN_CONTROL, "gov": GOV_CONTROL, "contested": CONTESTED}
TURN_REST = ("gov_reinforcement", "fln_reinforcement", "gov_deployment_start",
             "fln_deployment_start", "operations", "interphase")
PHASES = {  # phase name -> the steps left in the turn, then the next turn
    "random_events": ("random_events", *TURN_REST),
    "reinforcement": TURN_REST,
    "fln_reinforcement": TURN_REST[1:],
    "deployment": TURN_REST[2:],
    "fln_deployment": TURN_REST[3:],
    "operations": TURN_REST[4:],
    "interphase": TURN_REST[5:],
}
OFF_MAP = {"nato": NATO, "removed": REMOVED}


def _err(field: str, msg: str) -> ScenarioError:
    return ScenarioError(f"position: field '{field}': {msg}")


def _int(data: dict, key: str, default: int, lo: int = 0, hi: int = 99) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _err(key, f"expected an integer {lo}..{hi}, found {value!r}")
    return value


def _token(s: State, token: str, where: str) -> int:
    if not isinstance(token, str):
        raise _err(where, f"expected a unit token like 'band*', found {token!r}")
    key = token.rstrip("".join(MARKS))
    if key not in TYPE_INDEX:
        raise _err(where, f"unknown unit type {key!r} (known: {', '.join(TYPE_KEYS)})")
    u = free_counter(s, TYPE_INDEX[key])
    if u is None:
        raise _err(where, f"more {key} units than the counter mix has")
    for mark in token[len(key):]:
        s.flags[u] |= MARKS[mark]
    return u


def from_position(data: dict[str, Any], seed: int = 0, dice_script: tuple = (),
                  log: bool = True, rolls: tuple = ()) -> AlgeriaGame:
    """A game starting at a described position; errors name the field."""
    if not isinstance(data, dict):
        raise ScenarioError("position: expected a JSON object")
    scenario = str(data.get("scenario", "1958"))
    scenario_spec(scenario)
    options = check_options(scenario, data.get("options"))
    s = State()
    s.dice = Dice(seed, tuple(rolls) + tuple(dice_script))
    from djebel.core.log import Log
    s.log = Log(log)
    for key, value in options.items():
        setattr(s, OPTIONS[key][0], value)
    s.scenario = scenario
    s.turn = _int(data, "turn", 1, 1, 999)
    s.fln_psl = _int(data, "fln_psl", 50)
    s.gov_psl = _int(data, "gov_psl", 50)
    s.ap = _int(data, "ap", 0)
    s.naval = _int(data, "naval", 0)
    for name in ("air", "helo"):
        spec = data.get(name, {})
        if isinstance(spec, int):
            spec = {"max": spec, "available": spec}
        if not isinstance(spec, dict):
            raise _err(name, "expected {\"max\": N, \"available\": N} or a number")
        mx = _int(spec, "max", 0)
        setattr(s, f"{name}_max", mx)
        setattr(s, f"{name}_avail", _int(spec, "available", mx, 0, mx))
    bz = data.get("border_zone")
    if bz is not None:
        if not isinstance(bz, dict):
            raise _err("border_zone", "expected null or {\"drm\": 0..-3, \"active\": bool}")
        s.bz = _int(bz, "drm", 0, -3, 0)
        s.bz_active = bool(bz.get("active", False))
    s.independent = bool(data.get("independent", scenario != "1954"))
    for flag in ("amnesty", "jealousy", "suez_used", "slow_french"):
        setattr(s, flag, bool(data.get(flag, False)))
    oas = data.get("oas")
    if oas is not None:
        where = oas.get("where", "unplaced") if isinstance(oas, dict) else None
        if where not in ("unplaced", "FRANCE", "ALGIERS", "ORAN", "CONSTANTINE"):
            raise _err("oas", "expected {\"where\": unplaced|FRANCE|ALGIERS|ORAN|CONSTANTINE, "
                              "\"controller\": fln|gov}")
        s.oas = OAS_UNPLACED if where == "unplaced" else AREA_INDEX[where]
        s.oas_controller = oas.get("controller", "gov")
    areas = data.get("areas", {})
    if not isinstance(areas, dict):
        raise _err("areas", "expected an object keyed by area id")
    for area_id, spec in areas.items():
        if area_id not in AREA_INDEX:
            raise _err(f"areas.{area_id}", f"unknown area (known: {', '.join(AREA_IDS)})")
        a = AREA_INDEX[area_id]
        if not isinstance(spec, dict):
            raise _err(f"areas.{area_id}", "expected an object of boxes and markers")
        if "control" in spec:
            if spec["control"] not in CONTROL:
                raise _err(f"areas.{area_id}.control", "expected fln, gov or contested")
            s.control[a] = CONTROL[spec["control"]]
        s.terror[a] = bool(spec.get("terror", False))
        s.resettled[a] = bool(spec.get("resettled", False))
        for b, box in enumerate(BOX_NAMES):
            for i, token in enumerate(spec.get(box, [])):
                u = _token(s, token, f"areas.{area_id}.{box}[{i}]")
                s.loc[u], s.box[u] = a, b
    for key, code in OFF_MAP.items():
        for i, token in enumerate(data.get(key, [])):
            u = _token(s, token, f"{key}[{i}]")
            s.loc[u] = code
    for i, (token, area_id) in enumerate(data.get("suez", {}).items()):
        u = _token(s, token, f"suez[{i}]")
        s.loc[u], s.away[u] = SUEZ, AREA_INDEX[area_id]
    s.control_decided = s.turn > 1
    if "stack" in data:
        s.stack = [tuple(f) for f in data["stack"]]
        s.phase = str(data.get("phase", "operations"))
    else:
        phase = data.get("phase", "operations")
        if phase not in PHASES:
            raise _err("phase", f"expected one of {', '.join(PHASES)}")
        s.phase = phase
        flow.push(s, *((step,) for step in PHASES[phase]), ("turn_start",))
    flow.advance(s)
    header = {"game": "algeria", "scenario": scenario, "seed": seed, "options": options,
              "dice_script": list(dice_script), "start": data}
    if rolls:
        header["rolls"] = list(rolls)
    return AlgeriaGame(s, header)


def to_position(game: AlgeriaGame) -> dict[str, Any]:
    """The position of a game, with its exact pending decision stack."""
    s = game.state
    areas: dict[str, dict] = {}
    for u, a in enumerate(s.loc):
        if a < 0:
            continue
        mark = "".join(m for m, bit in MARKS.items() if s.flags[u] & bit)
        areas.setdefault(AREA_IDS[a], {}).setdefault(BOX_NAMES[s.box[u]], []).append(
            TYPE_KEYS[UTYPE[u]] + mark)
    for a, area in enumerate(AREA_IDS):
        if s.control[a] != CONTESTED:
            areas.setdefault(area, {})["control"] = "fln" if s.control[a] == FLN_CONTROL else "gov"
        if s.terror[a]:
            areas.setdefault(area, {})["terror"] = True
        if s.resettled[a]:
            areas.setdefault(area, {})["resettled"] = True
    opts = {k: getattr(s, v[0]) for k, v in OPTIONS.items() if getattr(s, v[0])}
    return {
        "scenario": s.scenario, "turn": s.turn, "phase": s.phase, "options": opts,
        "fln_psl": s.fln_psl, "gov_psl": s.gov_psl, "ap": s.ap, "naval": s.naval,
        "air": {"max": s.air_max, "available": s.air_avail},
        "helo": {"max": s.helo_max, "available": s.helo_avail},
        "border_zone": None if s.bz is None else {"drm": s.bz, "active": s.bz_active},
        "independent": s.independent,
        "oas": None if s.oas == OAS_INACTIVE else {
            "where": "unplaced" if s.oas == OAS_UNPLACED else AREA_IDS[s.oas],
            "controller": s.oas_controller},
        "amnesty": s.amnesty, "jealousy": s.jealousy, "suez_used": s.suez_used,
        "slow_french": s.slow_french,
        "areas": areas,
        "nato": [TYPE_KEYS[UTYPE[u]] for u, a in enumerate(s.loc) if a == NATO],
        "removed": [TYPE_KEYS[UTYPE[u]] for u, a in enumerate(s.loc) if a == REMOVED],
        "stack": [list(f) for f in s.stack],
    }
