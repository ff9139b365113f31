"""3 Set-up: scenario tracks, then each side places its listed units (C.8)."""

from __future__ import annotations

from djebel.algeria.board import (
    AREA_IDS,
    AREA_INDEX,
    DISPERSED,
    FLN_UNITS,
    FR_XX,
    FRONT,
    OPS,
    POLICE,
    PTL,
    REMOTE,
    TYPE_INDEX,
    TYPE_KEYS,
    UG,
    WILAYA_AREAS,
    area_arg,
)
from djebel.algeria.flow import Decision, push, step
from djebel.algeria.rules.common import free_counter, gain_ap, log, rating, roll
from djebel.algeria.state import State
from djebel.algeria.tables import load
from djebel.core.actions import Action
from djebel.core.errors import ScenarioError

SCENARIOS = load("c8_scenarios")["scenario"]
_PLACE = tuple(tuple(Action("place", (k, a)) for a in AREA_IDS) for k in TYPE_KEYS)
_PLACE_DISPERSED = tuple(Action("place", (TYPE_KEYS[FR_XX], a, "dispersed")) for a in AREA_IDS)
_PLACE_AUTO = Action("place", ("auto",))


def scenario_spec(name: str) -> dict:
    if name not in SCENARIOS:
        raise ScenarioError(f"unknown scenario {name!r} (known: {', '.join(SCENARIOS)})")
    return SCENARIOS[name]


def start(s: State, scenario: str) -> None:
    """3-2: tracks from chart C.8; queue the units each side must place."""
    spec = scenario_spec(scenario)
    s.scenario = scenario
    s.gov_psl, s.fln_psl = spec["gov_psl"], spec["fln_psl"]
    s.air_max = s.air_avail = spec["air"]
    s.helo_max = s.helo_avail = spec["helo"]
    s.naval = spec["naval"]
    s.independent = bool(spec["independent"])
    s.bz = spec["border_zone"] if isinstance(spec["border_zone"], int) else None
    s.slow_french = s.opt_slow
    log(s, "C.8", f"Scenario {scenario}: GOV PSL {s.gov_psl}, FLN PSL {s.fln_psl}, "
                  f"Air {s.air_max}, Helo {s.helo_max}, Naval {s.naval}")
    queues = {}
    for side in ("gov", "fln"):
        q = []
        for wilaya, units in spec.get(side, {}).items():
            for key, count in units.items():
                if key not in TYPE_INDEX:
                    raise ScenarioError(f"c8_scenarios.toml: scenario.{scenario}.{side}.{wilaya}: "
                                        f"unknown unit type {key!r}")
                t = TYPE_INDEX[key]
                for _ in range(count):
                    if wilaya in ("MOROCCO", "TUNISIA"):
                        _place(s, t, AREA_INDEX[wilaya], False)
                    else:
                        q.append((t, wilaya))
        queues[side] = tuple(q)
    push(s, ("setup_ap",), ("setup_place", "gov", queues["gov"]),
         ("setup_place", "fln", queues["fln"]), ("turn_start",))


@step("setup_ap")
def setup_ap(s: State) -> None:
    """3-3: the FLN begins with 2d6 AP as compensation."""
    faces = roll(s, "3-3", "FLN starting AP (2d6)", 2)
    gain_ap(s, sum(faces), "3-3", "starting AP")


def _place(s: State, t: int, area: int, dispersed: bool) -> int:
    u = free_counter(s, t)
    if u is None:
        raise ScenarioError(f"scenario needs more {TYPE_KEYS[t]} counters than exist")
    s.loc[u] = area
    # 3-4: Police in PTL, FLN in UG; Government mobile units in OPS (printed 10.3/DIS-10:
    # French units not activated in turn 1 then go to OC).
    if t == POLICE:
        s.box[u] = PTL
    elif u in FLN_UNITS:
        s.box[u] = UG
    else:
        s.box[u] = OPS
    if dispersed:
        s.flags[u] |= DISPERSED
    return u


def placement_areas(s: State, t: int, wilaya: str) -> list[int]:
    """3-4: any area of the wilaya; Fronts max one per area and never in Remote areas."""
    areas = list(WILAYA_AREAS[wilaya])
    if t == FRONT:
        fronts = {s.loc[u] for u in FLN_UNITS if s.loc[u] >= 0 and _is_front(u)}
        areas = [a for a in areas if rating(s, a) != REMOTE and a not in fronts]
    return areas


def _is_front(u: int) -> bool:
    from djebel.algeria.board import UTYPE
    return UTYPE[u] == FRONT


def auto_misfit(s: State, queue: tuple) -> tuple[int, int, int, int, str] | None:
    """Where scripted dice cannot serve ``place auto``, or None.

    ``place auto`` rolls one die per unit left, in the order listed: a dN, N the number
    of areas open to that unit (3-4), the result picking the N-th of them in map order.
    While a dice script lasts these rolls take its next values like any other roll, so
    a value must be a face of that die: the first that is not is returned as (script
    index, value, N, unit type, wilaya), found by placing on a copy of the state.
    """
    if not s.dice.script_left:
        return None
    c = s.copy()
    script, pos = c.dice.script, c.dice.pos      # read ahead, drawing no die on the copy
    for t, wilaya in queue:
        if pos >= len(script):
            return None
        areas = placement_areas(c, t, wilaya)
        if not 1 <= script[pos] <= len(areas):
            return pos, script[pos], len(areas), t, wilaya
        _place(c, t, areas[script[pos] - 1], False)
        pos += 1
    return None


def why_not_place(s: State, frame: tuple, action: Action) -> tuple[str, str] | None:
    """3-4: the units are placed in the listed order, each in an area of its wilaya;
    a Front never in a Remote area nor beside another Front."""
    t, wilaya = frame[2][0]
    if action.verb != "place" or len(action.args) < 2:
        return None
    if action.args[0] != TYPE_KEYS[t]:
        return "3-4", (f"the next unit to place is a {TYPE_KEYS[t]} of wilaya {wilaya} "
                       "(the set-up is placed in its listed order)")
    a = area_arg(action.args[1])
    if a is None:
        return None
    if a not in WILAYA_AREAS[wilaya]:
        return "3-4", f"{AREA_IDS[a]} is not in wilaya {wilaya}, where this {TYPE_KEYS[t]} goes"
    if t == FRONT and rating(s, a) == REMOTE:
        return "3-4", f"no Front in a Remote area ({AREA_IDS[a]}, A.1)"
    if t == FRONT:
        return "3-4", f"{AREA_IDS[a]} already holds a Front (one per area)"
    return None


class SetupPlace(Decision):
    """3-4: place the next listed unit in an area of its wilaya (divisions in either mode),
    or ``place auto`` to place all the rest at random (see ``auto_misfit`` for scripted
    dice)."""

    name = "setup_place"
    rule = "3-4"

    def legal(self, s, frame):
        _, side, queue = frame
        t, wilaya = queue[0]
        out = []
        for a in placement_areas(s, t, wilaya):
            out.append(_PLACE[t][a])
            if t == FR_XX:
                out.append(_PLACE_DISPERSED[a])
        if auto_misfit(s, queue) is None:
            out.append(_PLACE_AUTO)
        return out

    def why_not(self, s, frame, action):
        misfit = auto_misfit(s, frame[2]) if action == _PLACE_AUTO else None
        if misfit is None:
            return why_not_place(s, frame, action) or super().why_not(s, frame, action)
        i, value, n, t, wilaya = misfit
        return "3-4", (f"place auto rolls a d{n} for the {TYPE_KEYS[t]} of wilaya {wilaya}, "
                       f"but the next scripted die (dice_script[{i}]) is {value}; place the "
                       f"units one by one, or script faces 1..{n} for these rolls")

    def apply(self, s, frame, action):
        _, side, queue = frame
        if action.args == ("auto",):
            for t, wilaya in queue:
                areas = placement_areas(s, t, wilaya)
                a = areas[s.dice.die(len(areas)) - 1]
                u = _place(s, t, a, False)
                log(s, "3-4", f"{side.upper()} places {TYPE_KEYS[t]} ({_n(u)}) in {AREA_IDS[a]}")
            return
        t, _ = queue[0]
        a = area_arg(action.args[1])
        u = _place(s, t, a, len(action.args) > 2)
        log(s, "3-4", f"{side.upper()} places {_n(u)} in {AREA_IDS[a]}"
                      + (" (dispersed)" if len(action.args) > 2 else ""))
        if len(queue) > 1:
            push(s, ("setup_place", side, queue[1:]))

    def prompt(self, s, frame):
        _, side, queue = frame
        t, wilaya = queue[0]
        return (f"{side.upper()} set-up: place {TYPE_KEYS[t]} in wilaya {wilaya} "
                f"({len(queue)} left)")


def _n(u: int) -> str:
    from djebel.algeria.board import UNIT_NAMES
    return UNIT_NAMES[u]


