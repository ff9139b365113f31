"""Positions: a game described as readable JSON, the way chess has FEN.

A position lists units by area and box with their states, the tracks, markers, turn,
phase and (optionally) the pending decision stack. Tests, bug reports, tutorials and
puzzles start from one, with seeded or scripted dice.

Unit tokens are type keys (the first free counter of that type) or counters' names
(``band12``, as ``to_position`` writes them, so that the stack's frames and the actions
that follow name the same units), with marks: ``band*`` neutralized, ``fr_x^`` airmobile,
``fr_xx~`` dispersed, ``el_x!`` activated this turn. Example::

    {"scenario": "1958", "turn": 2, "phase": "operations",
     "fln_psl": 55, "gov_psl": 48, "ap": 7,
     "areas": {"ALGIERS": {"control": "fln", "terror": true,
                           "UG": ["cadre"], "OPS": ["front", "cadre"], "PTL": ["police"]}}}

A position is checked against the rules (``position_checks.py``): a Government mobile unit
in OPS or PTL in the Operations Phase carries ``!`` (6.32-1), Fronts stand one per area
outside Remote areas (6.2-2), and so on. The stack, when given, has ``["turn_start"]`` at
the bottom and no frame of the set-up, a combat or a React.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from djebel.algeria import flow
from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AREA_IDS,
    AREA_INDEX,
    AREA_RATING,
    BOX_NAMES,
    DISPERSED,
    NATO,
    NEUT,
    POOL,
    REMOVED,
    RURAL,
    SUEZ,
    TYPE_INDEX,
    TYPE_KEYS,
    UNIT_INDEX,
    UNIT_NAMES,
    is_algerian,
)
from djebel.algeria.game import OPTIONS, SCRIPT_FACES, AlgeriaGame, check_options
from djebel.algeria.position_checks import check_frame, check_ready, check_units, probe
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
from djebel.core.dice import Dice, check_script
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
OAS_WHERE = ("unplaced", "FRANCE", "ALGIERS", "ORAN", "CONSTANTINE")


KNOWN = ("scenario", "options", "turn", "phase", "fln_psl", "gov_psl", "ap", "naval", "air",
         "helo", "border_zone", "independent", "oas", "amnesty", "jealousy", "suez_used",
         "slow_french", "areas", "nato", "removed", "suez", "stack")
AREA_KEYS = (*BOX_NAMES, "control", "terror", "resettled")
# Phase names a position with an explicit stack may carry (``state.phase``).
PHASE_NAMES = (*PHASES, "random events")


class _Reader:
    """Reads one position; every error names the field (under ``prefix``) and the rule."""

    def __init__(self, prefix: str):
        self.prefix = prefix

    def err(self, field: str, msg: str, rule: str | None = None) -> ScenarioError:
        tail = f" [rule {rule}]" if rule else ""
        field = repr(self.prefix + field)[1:-1]     # keys as typed, on one line
        return ScenarioError(f"position: field '{field}': {msg}{tail}")

    def int(self, data: dict, key: str, default: int, lo: int = 0, hi: int = 99,
            rule: str | None = None, field: str = "") -> int:
        value = data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.err(field + key, f"expected an integer {lo}..{hi}, found {value!r}",
                           rule)
        return value

    def only(self, data: dict, keys: tuple[str, ...], field: str) -> None:
        """Refuse a key a sub-object does not take (a typo would silently mean a default)."""
        for key in data:
            if key not in keys:
                raise self.err(field + str(key), f"unknown field (known: {', '.join(keys)})")

    def flag(self, data: dict, key: str, field: str = "") -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self.err(field + key, f"expected true or false, found {value!r}")
        return value

    def list(self, data: dict, key: str, field: str = "") -> list:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise self.err(field + key, f"expected a list of unit tokens, found {value!r}")
        return value

    def token(self, s: State, token: object, where: str) -> int:
        if not isinstance(token, str):
            raise self.err(where, f"expected a unit token like 'band*', found {token!r}")
        key = token.rstrip("".join(MARKS))
        if key in UNIT_INDEX:           # one counter by name: "band12"
            u = UNIT_INDEX[key]
            if s.loc[u] != POOL:
                raise self.err(where, f"counter {key} is listed twice")
        elif key in TYPE_INDEX:         # the first free counter of the type
            u = free_counter(s, TYPE_INDEX[key])
            if u is None:
                raise self.err(where, f"more {key} units than the counter mix has", "INT-04")
        else:
            raise self.err(where, f"unknown unit type {key!r} (known: {', '.join(TYPE_KEYS)}, "
                                  "or a counter's name such as band12)")
        for mark in token[len(key):]:
            s.flags[u] |= MARKS[mark]
        return u


def from_position(data: dict[str, Any], seed: int = 0, dice_script: tuple | list = (),
                  log: bool = True, field: str = "", rolls: tuple = ()) -> AlgeriaGame:
    """A game starting at a described position, checked against the rules.

    Every error is a ScenarioError naming the field (prefixed by ``field``, e.g.
    ``start.`` for the position inside a record) and the rule the position breaks.
    """
    r = _Reader(field)
    if not isinstance(data, dict):
        raise ScenarioError(f"position{' ' + field.rstrip('.') if field else ''}: "
                            "expected a JSON object")
    for key in data:
        if key not in KNOWN:
            raise r.err(str(key), f"unknown field (known: {', '.join(KNOWN)})")
    scenario = data.get("scenario", "1958")
    if not isinstance(scenario, str):
        raise r.err("scenario", f"expected a scenario name, found {scenario!r}")
    try:
        scenario_spec(scenario)
    except ScenarioError as exc:
        raise r.err("scenario", str(exc)) from None
    try:
        options = check_options(scenario, data.get("options"))
    except ScenarioError as exc:
        raise r.err("options", str(exc).removeprefix("field 'options': ")) from None
    dice_script = check_script(dice_script, SCRIPT_FACES)
    if not isinstance(seed, Integral) or isinstance(seed, bool):
        raise ScenarioError(f"field 'seed': expected an integer, found {seed!r}")
    seed = int(seed)                 # numpy integers too (the RL environments)
    s = State()
    s.dice = Dice(seed, tuple(rolls) + tuple(dice_script))
    from djebel.core.log import Log
    s.log = Log(log)
    for key, value in options.items():
        setattr(s, OPTIONS[key][0], value)
    s.scenario = scenario
    s.turn = r.int(data, "turn", 1, 1, 999)
    # 12.2-1: a PSL at 0 has ended the game.
    s.fln_psl = r.int(data, "fln_psl", 50, 1, 99, "12.2-1")
    s.gov_psl = r.int(data, "gov_psl", 50, 1, 99, "12.2-1")
    s.ap = r.int(data, "ap", 0)
    s.naval = r.int(data, "naval", 0)
    for name in ("air", "helo"):
        spec = data.get(name, {})
        if isinstance(spec, int) and not isinstance(spec, bool):
            spec = {"max": spec, "available": spec}
        if not isinstance(spec, dict):
            raise r.err(name, "expected {\"max\": N, \"available\": N} or a number")
        r.only(spec, ("max", "available"), f"{name}.")
        mx = r.int(spec, "max", 0, field=f"{name}.")
        setattr(s, f"{name}_max", mx)
        setattr(s, f"{name}_avail", r.int(spec, "available", mx, 0, mx, "11.11-1",
                                          field=f"{name}."))
    independent = data.get("independent", scenario != "1954")
    if not isinstance(independent, bool):
        raise r.err("independent", f"expected true or false, found {independent!r}")
    if not independent and scenario != "1954":
        raise r.err("independent", f"Morocco and Tunisia are independent from the start "
                                   f"of the {scenario} scenario", "3-5")
    s.independent = independent
    bz = data.get("border_zone")
    if bz is not None:
        if not isinstance(bz, dict):
            raise r.err("border_zone", "expected null or {\"drm\": 0..-3, \"active\": bool}")
        if not s.independent:
            raise r.err("border_zone", "the Border Zone needs Morocco and Tunisia "
                                       "independent", "6.33-1")
        r.only(bz, ("drm", "active"), "border_zone.")
        s.bz = r.int(bz, "drm", 0, -3, 0, field="border_zone.")
        s.bz_active = r.flag(bz, "active", "border_zone.")
    for flag in ("amnesty", "jealousy", "slow_french"):
        setattr(s, flag, r.flag(data, flag))
    if s.slow_french and not s.opt_slow:
        raise r.err("slow_french", "Slow French Reaction is in force only with the option "
                                   "slow_french_reaction", "13.1-1")
    suez_used = data.get("suez_used", False)
    if not (isinstance(suez_used, bool) or isinstance(suez_used, int)
            and 0 <= suez_used <= s.turn):
        raise r.err("suez_used", f"expected true, false or the turn of the event "
                                 f"(1..{s.turn}), found {suez_used!r}")
    s.suez_used = suez_used
    _read_oas(s, r, data.get("oas"))
    pending: list[tuple[str, object, int, int, int]] = []   # field, token, loc, box, away
    _read_areas(s, r, data.get("areas", {}), pending)
    for key, code in OFF_MAP.items():
        pending += [(f"{key}[{i}]", token, code, 0, -1)
                    for i, token in enumerate(r.list(data, key))]
    _read_suez(s, r, data.get("suez", {}), pending)
    fields: dict[int, str] = {}
    # Counters named exactly ("band12") first, then the first free counter of each type.
    for field_, token, loc, box, away in sorted(pending, key=lambda p: not _named(p[1])):
        u = r.token(s, token, field_)
        s.loc[u], s.box[u], s.away[u], fields[u] = loc, box, away, field_
    check_units(s, fields, r.err)
    s.control_decided = s.turn > 1
    if "stack" in data:
        stack = data["stack"]
        if not isinstance(stack, list) or not stack:
            raise r.err("stack", "expected a non-empty list of frames (the pending "
                                 "decision last); a position is a game in progress")
        if stack[0] != ["turn_start"]:
            raise r.err("stack[0]", f"expected [\"turn_start\"], found {stack[0]!r}: the "
                                    "next turn is always at the bottom of the stack", "4")
        s.stack = []
        for i, f in enumerate(stack):
            frame = _frame(f)
            if frame is None:
                raise r.err(f"stack[{i}]", f"expected a frame like [\"ops_fln\", \"fln\"], "
                                           f"found {f!r}")
            check_frame(s, frame, f"stack[{i}]", r.err)
            s.stack.append(frame)
        phase = data.get("phase", "operations")
        if not isinstance(phase, str) or phase not in PHASE_NAMES:
            raise r.err("phase", f"expected one of {', '.join(PHASE_NAMES)}")
    else:
        phase = data.get("phase", "operations")
        if not isinstance(phase, str) or phase not in PHASES:
            raise r.err("phase", f"expected one of {', '.join(PHASES)}")
        flow.push(s, *((step,) for step in PHASES[phase]), ("turn_start",))
    s.phase = phase
    flow.advance(s)
    if s.winner is None:
        check_ready(s, fields, r.err)
        probe(s, r.err)
    header = {"game": "algeria", "scenario": scenario, "seed": seed, "options": options,
              "dice_script": list(dice_script), "start": data}
    if rolls:
        header["rolls"] = list(rolls)
    return AlgeriaGame(s, header)


def _read_oas(s: State, r: _Reader, oas: object) -> None:
    """11.3: the OAS marker, unplaced or in an Urban area or France, and who controls it."""
    if oas is None:
        return
    if not isinstance(oas, dict) or set(oas) - {"where", "controller"}:
        raise r.err("oas", "expected {\"where\": unplaced|FRANCE|ALGIERS|ORAN|CONSTANTINE, "
                           "\"controller\": fln|gov}")
    where = oas.get("where", "unplaced")
    if where not in OAS_WHERE:
        raise r.err("oas.where", f"expected one of {', '.join(OAS_WHERE)}, found {where!r}",
                    "11.3-2")
    controller = oas.get("controller", "gov")
    if controller not in ("fln", "gov"):
        raise r.err("oas.controller", f"expected fln or gov, found {controller!r}", "11.3-1")
    s.oas = OAS_UNPLACED if where == "unplaced" else AREA_INDEX[where]
    s.oas_controller = controller


def _named(token: object) -> bool:
    return isinstance(token, str) and token.rstrip("".join(MARKS)) in UNIT_INDEX


def _read_areas(s: State, r: _Reader, areas: object, pending: list) -> None:
    if not isinstance(areas, dict):
        raise r.err("areas", "expected an object keyed by area id")
    for area_id, spec in areas.items():
        if area_id not in AREA_INDEX:
            raise r.err(f"areas.{area_id}", f"unknown area (known: {', '.join(AREA_IDS)})")
        a = AREA_INDEX[area_id]
        at = f"areas.{area_id}."
        if not isinstance(spec, dict):
            raise r.err(at[:-1], "expected an object of boxes and markers")
        for key in spec:
            if key not in AREA_KEYS:
                raise r.err(f"{at}{key}", f"unknown box or marker (known: "
                                          f"{', '.join(AREA_KEYS)})")
        country = not is_algerian(a)
        if "control" in spec:
            if not isinstance(spec["control"], str) or spec["control"] not in CONTROL:
                raise r.err(f"{at}control", "expected fln, gov or contested")
            if country and spec["control"] != "contested":
                raise r.err(f"{at}control", "France, Morocco and Tunisia are never "
                                            "controlled", "10.1-1")
            s.control[a] = CONTROL[spec["control"]]
        s.terror[a] = r.flag(spec, "terror", at)
        s.resettled[a] = r.flag(spec, "resettled", at)
        if country and s.terror[a]:
            raise r.err(f"{at}terror", "only Algerian areas can be Terrorized", "11.5-1")
        if s.resettled[a] and AREA_RATING[a] != RURAL:
            raise r.err(f"{at}resettled", f"only Rural areas can be resettled ({area_id} is "
                                          f"{AREA_RATING[a]})", "9.27-1")
        for b, box in enumerate(BOX_NAMES):
            pending += [(f"{at}{box}[{i}]", token, a, b, -1)
                        for i, token in enumerate(r.list(spec, box, at))]


def _read_suez(s: State, r: _Reader, suez: object, pending: list) -> None:
    """C.2 (61-62): elites at Suez and the area each returns to; ``{token: area}`` or a
    list of ``[token, area]`` pairs (for more than one of a type)."""
    if isinstance(suez, dict):
        pairs = list(suez.items())
    elif isinstance(suez, list) and all(isinstance(p, list) and len(p) == 2 for p in suez):
        pairs = [tuple(p) for p in suez]
    else:
        raise r.err("suez", "expected [[\"el_x\", AREA], ...] or {\"el_x\": AREA}")
    if pairs and s.scenario != "1954":
        raise r.err("suez", "the Suez crisis happens only in the 1954 scenario", "INT-08")
    for i, (token, area_id) in enumerate(pairs):
        if not isinstance(area_id, str) or not is_algerian(AREA_INDEX.get(area_id, -1)):
            raise r.err(f"suez[{i}]", f"expected the Algerian area the unit left, found "
                                      f"{area_id!r}", "C.2 (61-62)")
        pending.append((f"suez[{i}]", token, SUEZ, 0, AREA_INDEX[area_id]))
    if pairs and s.suez_used in (False, True):
        s.suez_used = s.turn    # the elites left this turn: they return next turn (DIS-18)


def _frame(f: object) -> tuple | None:
    """A stack frame from JSON: a non-empty list whose nested lists become tuples."""
    if not isinstance(f, list) or not f:
        return None
    return _tupled(f)


def _listed(f: tuple) -> list:
    return [_listed(x) if isinstance(x, tuple) else x for x in f]


def _tupled(f: list) -> tuple:
    return tuple(_tupled(x) if isinstance(x, list) else x for x in f)


def to_position(game: AlgeriaGame) -> dict[str, Any]:
    """The position of a game, with its exact pending decision stack."""
    s = game.state
    areas: dict[str, dict] = {}
    for u, a in enumerate(s.loc):
        if a < 0:
            continue
        mark = "".join(m for m, bit in MARKS.items() if s.flags[u] & bit)
        areas.setdefault(AREA_IDS[a], {}).setdefault(BOX_NAMES[s.box[u]], []).append(
            UNIT_NAMES[u] + mark)
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
        "nato": [UNIT_NAMES[u] for u, a in enumerate(s.loc) if a == NATO],
        "removed": [UNIT_NAMES[u] for u, a in enumerate(s.loc) if a == REMOVED],
        "suez": [[UNIT_NAMES[u], AREA_IDS[s.away[u]]]
                 for u, a in enumerate(s.loc) if a == SUEZ],
        "stack": [_listed(f) for f in s.stack],
    }
