"""What a position may hold: the rules a described game must satisfy before it is played.

``from_position`` reads the JSON; the checks here refuse what the rules never allow
(a Police unit in an UG box, two Fronts in one area, a Government unit in France,
units abroad before independence, a pending decision the position cannot back up), so
that a bad position is one clear error naming its field and the rule, never a game
that plays on from an impossible state, nor a crash later.
"""

from __future__ import annotations

from collections.abc import Callable

from djebel.algeria import flow
from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AREA_IDS,
    BOX_NAMES,
    BRIGADE_TYPES,
    CADRE,
    COUNTRIES,
    DISPERSED,
    EL_X,
    FR_X,
    FR_XX,
    FRANCE,
    FRONT,
    GOV_MOBILE_TYPES,
    NATO,
    NEUT,
    NUM_AREAS,
    NUM_UNITS,
    OC,
    POLICE,
    PTL,
    REMOTE,
    REMOVED,
    SUEZ,
    TYPE_KEYS,
    TYPE_SIDE,
    UG,
    UTYPE,
    is_algerian,
)
from djebel.algeria.rules.choices import PICK_EFFECTS
from djebel.algeria.rules.common import free_counter, rating
from djebel.algeria.state import State
from djebel.core.errors import DjebelError

Err = Callable[..., DjebelError]     # err(field, message, rule) -> the error to raise


# ---------------------------------------------------------------- units

def check_units(s: State, fields: dict[int, str], err: Err) -> None:
    """Every placed unit against the box, country and Front rules; ``fields[u]`` is the
    field that placed unit ``u``."""
    fronts: dict[int, int] = {}
    in_france = 0
    for u, field in fields.items():
        t, a, flags = UTYPE[u], s.loc[u], s.flags[u]
        key, gov = TYPE_KEYS[t], TYPE_SIDE[t] == "gov"
        _check_marks(s, t, flags, field, err)
        if a in (NATO, REMOVED, SUEZ):
            _check_off_map(s, t, a, flags, field, err)
            continue
        box = BOX_NAMES[s.box[u]]
        if gov and s.box[u] == UG:
            raise err(field, f"{key} in an UG box: UG is for FLN units only", "2.2-1")
        if not gov and s.box[u] == PTL:
            raise err(field, f"{key} in a PTL box: PTL is for Government units only", "2.2-1")
        if t == POLICE and s.box[u] != PTL:
            raise err(field, f"police in the {box} box: Police are always in PTL", "2.2-5")
        if a == FRANCE:
            if gov:
                raise err(field, f"{key} in France: Government units never go there",
                          "11.22-1")
            if t != CADRE:
                raise err(field, f"{key} in France: only a Cadre may be there", "11.22-2")
            in_france += 1
            if in_france > 1:
                raise err(field, "a second Cadre in France: at most one may be there",
                          "11.22-2")
        elif a in COUNTRIES:
            country = AREA_IDS[a].capitalize()
            if gov:
                raise err(field, f"{key} in {country}: Government units never enter "
                                 "Morocco or Tunisia", "2.2-8")
            if not s.independent:
                raise err(field, f"{key} in {country} before its independence (field "
                                 "'independent' is false)", "11.21-1")
            if t == FRONT:
                raise err(field, f"a Front in {country}: Fronts are only in Algerian areas",
                          "6.2-2")
            if flags & NEUT:
                raise err(field, f"a neutralized {key} in {country}: units there are never "
                                 "neutralized", "INT-61")
        if t == FRONT and is_algerian(a):
            if rating(s, a) == REMOTE:
                why = "resettled, so Remote" if s.resettled[a] else "Remote"
                raise err(field, f"a Front in {AREA_IDS[a]}, which is {why}: no Front in "
                                 "a Remote area", "6.2-2")
            if a in fronts:
                raise err(field, f"a second Front in {AREA_IDS[a]}: at most one Front per "
                                 "area", "6.2-2")
            fronts[a] = u


def check_ready(s: State, fields: dict[int, str], err: Err) -> None:
    """Boxes that depend on the phase the position has reached (after its automatic steps):
    from Deployment on, a Government mobile unit in OPS or PTL was activated and is not
    neutralized (6.32-1, 2.3-3); airmobility ends at Redeployment (11.12-5); and the FLN
    reinforces with all its units in Algeria in UG (10.3-1)."""
    for u, field in fields.items():
        t, a, box, flags = UTYPE[u], s.loc[u], s.box[u], s.flags[u]
        if not is_algerian(a):
            continue
        key = TYPE_KEYS[t]
        if t in GOV_MOBILE_TYPES:
            if s.phase in ("deployment", "operations") and box != OC:
                if not flags & ACTIVE:
                    raise err(field, f"{key} in {BOX_NAMES[box]} in the {s.phase} phase but "
                                     "not activated (mark it '!' or put it in OC)", "6.32-1")
                if flags & NEUT:
                    raise err(field, f"a neutralized {key} in {BOX_NAMES[box]}: it can "
                                     "neither deploy nor act (put it in OC)", "2.3-3")
            if s.phase in ("random events", "reinforcement") and flags & AIRMOBILE:
                raise err(field, f"{key} still airmobile in the {s.phase} phase: "
                                 "airmobility ends at Redeployment", "11.12-5")
        elif TYPE_SIDE[t] == "fln" and s.phase == "reinforcement" and box != UG:
            raise err(field, f"{key} in {BOX_NAMES[box]} in the reinforcement phase: FLN "
                             "units in Algeria are in UG until they surface", "10.3-1")


def _check_marks(s: State, t: int, flags: int, field: str, err: Err) -> None:
    key = TYPE_KEYS[t]
    if flags & DISPERSED:
        if t != FR_XX:
            raise err(field, f"{key} marked dispersed (~): only French divisions have "
                             "modes", "11.7-1")
        if s.slow_french:
            raise err(field, "a dispersed division while Slow French Reaction is in force",
                      "13.1-2")
    if flags & AIRMOBILE and t not in BRIGADE_TYPES:
        raise err(field, f"{key} marked airmobile (^): only brigades can be airmobilized",
                  "11.12-1")
    if flags & ACTIVE and t not in GOV_MOBILE_TYPES:
        raise err(field, f"{key} marked activated (!): only Government mobile units are "
                         "activated", "6.32-1")


def _check_off_map(s: State, t: int, where: int, flags: int, field: str, err: Err) -> None:
    key = TYPE_KEYS[t]
    if flags:
        raise err(field, f"{key} off the map with marks: units off the map carry none",
                  "C.2")
    if where == NATO and t not in (FR_XX, FR_X):
        raise err(field, f"{key} taken off by NATO: only French divisions and brigades go",
                  "C.2 (55-56)")
    if where == SUEZ and t != EL_X:
        raise err(field, f"{key} at Suez: only elite brigades go", "C.2 (61-62)")
    if where == REMOVED and t != EL_X:
        raise err(field, f"{key} removed from the game: only elites are (coup)", "11.4-4")


# ---------------------------------------------------------------- the pending decision

def _side(v, s):
    return v in ("fln", "gov")


def _unit(v, s):
    return _is_int(v) and 0 <= v < NUM_UNITS and s.loc[v] >= 0


def _area(v, s):
    return _is_int(v) and 0 <= v < NUM_AREAS and is_algerian(v)


def _units(v, s):
    return _counters(v, s) and all(s.loc[u] >= 0 for u in v)


def _counters(v, s):
    """Distinct units, which may since have left the map (a React's targets, 9.23-1)."""
    return (isinstance(v, tuple) and all(_is_int(u) and 0 <= u < NUM_UNITS for u in v)
            and len(set(v)) == len(v))


def _count(v, s):
    return _is_int(v) and 0 <= v <= 200


def _text(v, s):
    return isinstance(v, str) and len(v) <= 80


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _lit(*values):
    return lambda v, s: isinstance(v, (str, bool)) and v in values


FLN, GOV, BOOL = _lit("fln"), _lit("gov"), _lit(True, False)

# The frames a position's stack may hold, with a test for each argument. Set-up frames
# (3) and those inside a combat or a React (9-6, 9.23), whose data a position does not
# hold, are not accepted.
FRAMES: dict[str, tuple] = {
    **{name: () for name in (
        "turn_start", "random_events", "gov_reinforcement", "gov_reinf_end",
        "fln_reinforcement", "gov_deployment_start", "fln_deployment_start",
        "fln_deploy_end", "operations", "oas_control", "oas_suppression", "interphase",
        "final_psl")},
    "react_window": (_area, _counters, BOOL),
    "ops_fln": (FLN,), "ops_gov": (GOV,), "fln_reinf": (FLN,), "gov_reinf": (GOV,),
    "fln_deploy": (FLN,), "gov_deploy": (GOV,), "purge_wilaya": (GOV,),
    "oas_place": (_side,), "un_debate": (_side,),
    "deploy_to": (GOV, _unit), "move_to": (FLN, _unit),
    "strike_assist": (FLN, _unit, _units),
    "harass_join": (FLN, _area, _units), "harass_target": (FLN, _area, _units),
    "raid_add": (FLN, _area, _units),
    "select": (GOV, _lit("flush"), _area, _units, BOOL),
    "share": (_side, _count, _text, _text),
    "pick": (_side, _text, _lit(*PICK_EFFECTS), _count, _units, _text),
    "nato_remove": (GOV, _count), "coup_mobilize": (GOV, _count),
    "mobilize_where": (GOV, lambda v, s: _is_int(v) and 0 <= v < len(TYPE_KEYS)
                       and TYPE_SIDE[v] == "gov" and free_counter(s, v) is not None,
                       lambda v, s: _is_int(v) and -1 <= v <= 200),
}
# The side whose units a frame names.
UNITS_OF = {"deploy_to": "gov", "select": "gov", "move_to": "fln", "strike_assist": "fln",
            "harass_join": "fln", "harass_target": "fln", "raid_add": "fln",
            "react_window": "fln"}
NOT_IN_POSITIONS = {
    "setup_ap": "3", "setup_place": "3", "air_commit": "11.11", "flush_roll": "9.22",
    "react_roll": "9.23", "harass_fire": "9.15", "fln_losses": "9-6", "take_hit": "9-6",
    "combat_elim_share": "9-6", "combat_end": "9-6", "no_react": "9.23",
}


def describable(stack: list[tuple]) -> bool:
    """Whether a state with this stack can be written as a position and read back (not in
    the set-up, a combat or a React, whose data a position does not hold)."""
    return not any(_outside(f) for f in stack)


def _outside(frame: tuple) -> str | None:
    """The rule of the set-up, combat or React step a frame belongs to, or None."""
    name = frame[0] if frame else None
    if not isinstance(name, str):
        return None
    if name == "select" and len(frame) > 2 and frame[2] == "react":
        return "9.23"
    return NOT_IN_POSITIONS.get(name)


def check_frame(s: State, frame: tuple, field: str, err: Err) -> None:
    """A frame of the pending-decision stack: a known kind, with arguments that fit it."""
    name = frame[0] if frame else None
    rule = _outside(frame)
    if rule:
        raise err(field, f"frame {name!r} is inside the set-up, a combat or a React, which "
                         "a position cannot describe", rule)
    if not isinstance(name, str) or name not in FRAMES:
        raise err(field, f"unknown frame {name!r} (a position's stack takes: "
                         f"{', '.join(FRAMES)})")
    tests = FRAMES[name]
    args = frame[1:]
    if len(args) != len(tests):
        raise err(field, f"frame {name!r} takes {len(tests)} argument(s), found {len(args)}")
    for i, (test, value) in enumerate(zip(tests, args, strict=True)):
        if not test(value, s):
            raise err(f"{field}[{i + 1}]", f"{value!r} does not fit frame {name!r} here")
    if name == "pick" and args[2] in ("suez", "remove_elite") and any(
            UTYPE[u] != EL_X for u in args[4]):
        raise err(f"{field}[5]", f"only elite brigades can be picked for {args[2]!r}",
                  "11.4-4" if args[2] == "remove_elite" else "C.2 (61-62)")
    side = UNITS_OF.get(name)
    for i, value in enumerate(args):
        units = value if isinstance(value, tuple) else (value,)
        if side and tests[i] in (_unit, _units, _counters) and any(
                TYPE_SIDE[UTYPE[u]] != side for u in units):
            raise err(f"{field}[{i + 1}]", f"frame {name!r} takes {side.upper()} units here")


def probe(s: State, err: Err) -> None:
    """The pending decision must offer at least one action, and listing the actions of
    every decision in the stack must work on this position."""
    if not s.stack or s.stack[-1][0] not in flow.DECISIONS:
        raise err("stack", "no decision is pending once the position's steps have run")
    for i in range(len(s.stack) - 1, -1, -1):
        frame = s.stack[i]
        dec = flow.DECISIONS.get(frame[0])
        if dec is None:
            continue
        try:
            actions = dec.legal(s, frame)
            dec.prompt(s, frame)
        except DjebelError:
            raise
        except Exception as exc:          # noqa: BLE001 - a frame that does not fit
            raise err(f"stack[{i}]", f"frame {frame[0]!r} does not fit this position "
                                     f"({type(exc).__name__} listing its actions)") from None
        if i == len(s.stack) - 1 and not actions:
            raise err(f"stack[{i}]", f"the pending decision {frame[0]!r} offers no action "
                                     "in this position")
