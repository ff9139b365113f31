"""Algeria as fixed-size numbers: the action enumeration and the observation vector.

The action space is every primitive action the rules can offer, enumerated once from
the map and the counter mix (``ACTIONS``): verb templates whose argument domains are
unit names, area ids, unit types and small numbers, expanded in a fixed order. A
legal action's index is a dictionary look-up, an index's action a list look-up, so an
index means the same action in every position. The layout of the observation is
``OBS_FIELDS`` (name, size), documented in docs/rl.md.
"""

from __future__ import annotations

from array import array
from itertools import compress, product
from operator import attrgetter, ne

import numpy as np

from djebel.algeria import flow
from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AREA_IDS,
    AREA_INDEX,
    BOX_NAMES,
    DEPLOYED,
    DISPERSED,
    MODE_SET,
    NATO,
    NEUT,
    NUM_AREAS,
    NUM_UNITS,
    POOL,
    REMOVED,
    SUEZ,
    TYPE_INDEX,
    TYPE_KEYS,
    UNIT_NAMES,
    UTYPE,
    WILAYAS,
)
from djebel.algeria.game import AlgeriaGame
from djebel.algeria.rules.common import AP_MAX, PSL_MAX
from djebel.algeria.rules.reinforcement import POINTS
from djebel.algeria.state import OAS_INACTIVE, OAS_UNPLACED, State
from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.rl.layout import offsets

SIDES = ("fln", "gov")
UNITS, AREAS, TYPES = UNIT_NAMES, AREA_IDS, TYPE_KEYS
NUMBERS = tuple(range(max(PSL_MAX, AP_MAX) + 1))   # psp K (9-4), air K (11.11)

# (verb, argument domains): every action is one element of a template's product.
TEMPLATES: tuple[tuple[str, tuple[tuple, ...]], ...] = (
    ("place", (TYPES, AREAS)), ("place", (("fr_xx",), AREAS, ("dispersed",))),   # 3-4
    ("place", (("auto",),)),
    ("mobilize", (TYPES,)), ("at", (AREAS,)), ("buy", (POINTS,)),                 # 6.3
    ("border-zone", ()), ("activate", (UNITS,)), ("activate", (("border-zone", "all"),)),
    ("remove", (UNITS,)), ("remove-oas", ()), ("done", ()),
    ("build", (TYPES, AREAS)), ("convert", (UNITS, ("front", "band", "failek"))),  # 6.2
    ("reduce", (UNITS,)),
    ("deploy", (UNITS,)), ("stay", ()), ("to", (("PTL", *AREAS),)),               # 7-1..7-3
    ("mode", (UNITS, ("concentrated", "dispersed"))), ("airmobilize", (UNITS,)),
    ("surface", (UNITS,)), ("surface", (("all",),)), ("france", (UNITS,)),        # 7-4
    ("recall", (AREAS,)),
    ("propaganda", (UNITS,)), ("strike", (UNITS,)), ("move", (UNITS,)),           # 9.1
    ("raid", (UNITS,)), ("harass", (UNITS,)), ("assist", (UNITS,)), ("add", (UNITS,)),
    ("go", ()), ("target", (UNITS,)), ("handover", ()), ("pass", ()),
    ("flush", (AREAS,)), ("intelligence", (AREAS,)), ("civil-affairs", (AREAS,)),  # 9.2
    ("suppression", (AREAS,)), ("resettle", (AREAS,)),
    ("no-react", ()), ("air", (NUMBERS,)), ("hit", (UNITS,)), ("psp", (NUMBERS,)),
    ("pick", (UNITS,)), ("un", (("raise-fln", "lower-gov"),)), ("purge", (WILAYAS,)),  # C.2
    ("oas", (AREAS,)),                                                                # 11.3
)


ACTIONS: tuple[Action, ...] = tuple(Action(verb, args) for verb, domains in TEMPLATES
                                    for args in product(*domains))
INDEX: dict[Action, int] = {a: i for i, a in enumerate(ACTIONS)}
NUM_ACTIONS = len(ACTIONS)
if len(INDEX) != NUM_ACTIONS:      # two templates overlapping would make indices ambiguous
    raise AssertionError("the Algeria action templates overlap")


def action_index(action: Action | str) -> int:
    """The index of an action (its notation or the object)."""
    if isinstance(action, str):
        action = Action.parse(action)
    i = INDEX.get(action)
    if i is None:
        raise IllegalAction("rl", "not an action of the Algeria action space", action)
    return i


def index_action(index: int) -> Action:
    """The action at ``index`` of the action space."""
    if not 0 <= int(index) < NUM_ACTIONS:
        raise IllegalAction("rl", f"action index {index} outside 0..{NUM_ACTIONS - 1}")
    return ACTIONS[int(index)]


# id(action) -> index for the action objects the engine hands out: most are shared
# constants (rules/common.py), so an identity look-up skips hashing the dataclass. Every
# object whose id is a key is kept alive in _KEPT (both are cleared together), so no id
# can be reused by another object while it is a key.
_BY_ID: dict[int, int] = {}
_KEPT: list[Action] = []
_BY_ID_MAX = 1 << 16


def _register(a: Action) -> int:
    i = INDEX.get(a)
    if i is None:
        raise IllegalAction("rl", "not an action of the Algeria action space", a)
    if len(_KEPT) >= _BY_ID_MAX:
        _BY_ID.clear()
        _KEPT.clear()
    _BY_ID[id(a)] = i
    _KEPT.append(a)
    return i


def legal_map(actions: list[Action]) -> tuple[dict[int, Action], np.ndarray]:
    """``{index: action}`` and the mask of a legal-action list, in one pass (what an
    environment needs at every step): the indices by C-level look-ups of the objects'
    ids, the rare object not seen before by value."""
    idx = list(map(_BY_ID.get, map(id, actions)))
    if None in idx:
        idx = [_register(a) if i is None else i for a, i in zip(actions, idx, strict=True)]
    mask = bytearray(NUM_ACTIONS)
    for i in idx:
        mask[i] = 1
    return dict(zip(idx, actions, strict=True)), np.frombuffer(mask, dtype=np.int8)


def legal_indices(game: AlgeriaGame) -> list[int]:
    """Indices of the legal actions, in the engine's order."""
    return indices(game.legal_actions())


def indices(actions: list[Action]) -> list[int]:
    """The indices of ``actions``, in their order."""
    return list(legal_map(actions)[0])


def action_mask(game: AlgeriaGame) -> np.ndarray:
    return mask_of(legal_indices(game))


def mask_of(idx: list[int]) -> np.ndarray:
    """The int8 mask with ones at ``idx`` (a bytearray filled in Python is quicker than
    numpy's conversion of a short index list)."""
    mask = bytearray(NUM_ACTIONS)
    for i in idx:
        mask[i] = 1
    return np.frombuffer(mask, dtype=np.int8)


# ---------------------------------------------------------------- observation

# Where a unit can be: the 28 map locations (France, Tunisia, Morocco, the 25 areas),
# then off the map.
OFF_MAP = (POOL, NATO, SUEZ, REMOVED)
NUM_BOXES, NUM_TYPES = 4, len(TYPE_KEYS)
UNIT_CHANNELS = ("count", "neutralized", "airmobile", "dispersed", "active", "deployed",
                 "mode_set")
_FLAG_BITS = (NEUT, AIRMOBILE, DISPERSED, ACTIVE, DEPLOYED, MODE_SET)
PHASES = ("setup", "reinforcement", "random events", "deployment", "operations",
          "interphase", "over")
DECISIONS = tuple(sorted(flow.DECISIONS))
SCENARIOS = ("1954", "1958", "1960")
# Numeric and yes/no tracks, as they are in the state (None counts as 0).
TRACKS = ("turn", "fln_psl", "gov_psl", "ap", "air_max", "air_avail", "helo_max",
          "helo_avail", "naval", "bz_active", "bz_new", "independent", "amnesty", "jealousy",
          "suez_used", "slow_french", "gov_half", "gov_allowance_used", "france_moved",
          "control_decided", "opt_slow", "opt_independence", "opt_shorter", "opt_bz_ap",
          "turn_limit")

OBS_FIELDS: tuple[tuple[str, int], ...] = (
    ("units", NUM_AREAS * NUM_BOXES * NUM_TYPES * len(UNIT_CHANNELS)),
    ("off_map", len(OFF_MAP) * NUM_TYPES),
    ("control", NUM_AREAS * 3),
    ("terror", NUM_AREAS),
    ("resettled", NUM_AREAS),
    ("missions_done", NUM_AREAS * 5),
    ("oas", 2 + NUM_AREAS),
    ("oas_controller", 2),
    ("border_zone", 2),
    ("tracks", len(TRACKS)),
    ("ops_last", 2),
    ("shorter_leader", 2),
    ("scenario", len(SCENARIOS)),
    ("phase", len(PHASES)),
    ("decision", len(DECISIONS)),
    ("to_move", 2),
    ("observer", 2),
    ("subject_units", NUM_UNITS),
    ("chosen_units", NUM_UNITS),
    ("combat_units", NUM_UNITS),
    ("subject_area", NUM_AREAS),
    ("subject_type", NUM_TYPES),
    ("subject_number", 1),
)
OFFSETS, OBS_SIZE = offsets(OBS_FIELDS)
# every field lies in [-OBS_BOUND, OBS_BOUND]: PSL and AP <= 99 (5-1, INT-17), counts
# of a unit type <= 30 (C.7), Border Zone DRM and shares small (6.33, 9-4)
OBS_BOUND = 100.0

_PHASE = {p: i for i, p in enumerate(PHASES)}
_DECISION = {d: i for i, d in enumerate(DECISIONS)}
_SIDE = {s: i for i, s in enumerate(SIDES)}
_SCENARIO = {s: i for i, s in enumerate(SCENARIOS)}
_NCH = len(UNIT_CHANNELS)
# Index of the "count" channel of [location][box][type]; the flag channels follow it.
_UNIT_BASE = tuple(tuple(tuple(((loc * NUM_BOXES + b) * NUM_TYPES + t) * _NCH
                               for t in range(NUM_TYPES)) for b in range(NUM_BOXES))
                   for loc in range(NUM_AREAS))
# The channels (1..6) a unit's flags add to, for every value of the flags.
_FLAG_CHANNELS = tuple(tuple(ch for ch, bit in enumerate(_FLAG_BITS, 1) if f & bit)
                       for f in range(2 * max(_FLAG_BITS)))
_OFF_BASE = {loc: OFFSETS["off_map"] + i * NUM_TYPES for i, loc in enumerate(OFF_MAP)}
_AREA_RANGE = range(NUM_AREAS)
_UNIT_RANGE = range(NUM_UNITS)
_tracks = attrgetter(*TRACKS)
(_O_OAS, _O_OAS_CONTROLLER, _O_OPS_LAST, _O_SHORTER, _O_SCENARIO, _O_PHASE, _O_OBSERVER,
 _O_BZ, _O_TRACKS, _O_NUMBER) = (OFFSETS[f] for f in (
    "oas", "oas_controller", "ops_last", "shorter_leader", "scenario", "phase", "observer",
    "border_zone", "tracks", "subject_number"))
(_O_DECISION, _O_TO_MOVE, _O_SUBJECT_UNITS, _O_CHOSEN, _O_COMBAT, _O_SUBJECT_AREA,
 _O_SUBJECT_TYPE) = (OFFSETS[f] for f in (
    "decision", "to_move", "subject_units", "chosen_units", "combat_units", "subject_area",
    "subject_type"))
_DONE_BITS = tuple(tuple(k for k in range(5) if d >> k & 1) for d in range(32))

# Frame layouts of the decisions that are about particular units, an area or a number
# (see the ``push`` calls in algeria/rules): name -> (subject unit, area, chosen units,
# unit type, number) positions in the frame, or None.
_FRAME_SLOTS: dict[str, tuple] = {
    "deploy_to": (2, None, None, None, None),
    "move_to": (2, None, None, None, None),
    "strike_assist": (2, None, 3, None, None),
    "raid_add": (None, 2, 3, None, None),
    "harass_join": (None, 2, 3, None, None),
    "harass_target": (None, 2, 3, None, None),
    "select": (None, 3, 4, None, None),
    "share": (None, None, None, None, 2),
    "pick": (None, None, None, None, 4),
    "mobilize_where": (None, None, None, 2, 3),
    "coup_mobilize": (None, None, None, None, 2),
    "nato_remove": (None, None, None, None, 2),
}


_UNITS_END = OFFSETS["control"]                 # units and off_map
_AREAS_END = OFFSETS["oas"]                     # control, terror, resettled, missions_done
_BOARD_END = OFFSETS["decision"]                # oas .. phase: the rest of the board
_NUM_TRACKS = len(TRACKS)


class _Board:
    """The board part of the vector (``units`` .. ``phase``) as last computed, with the
    lists it came from. Consecutive decisions mostly leave the units (about half the
    time), the area markers and the tracks (almost always) as they were: comparing
    lists is far cheaper than encoding them, and the few units that changed are found
    by a C-level pass (``map(ne, ...)``) and moved in the block. Compared by value, so
    any game can use it; ``observe`` copies the block into each vector it returns."""

    def __init__(self) -> None:
        # The block lives in an ``array``, which numpy views without a copy: the few
        # cells a moved unit changes are written by the array's own item assignment,
        # several times quicker than numpy's for single cells.
        # It is a whole observation long: ``observe`` writes the decision part's few
        # cells there, copies the vector out and clears them again.
        self.buf = array("f", bytes(4 * OBS_SIZE))
        self.vec = np.frombuffer(self.buf, dtype=np.float32)
        self.units: tuple[list, list, list] | None = None
        self.areas: tuple = ()
        self.rest: tuple = ()           # the markers of _rest_block but the tracks
        self.tracks: tuple = ()

    def update(self, s: State) -> np.ndarray:
        vec = self.vec
        units = self.units
        if units is None or len(units[0]) != len(s.loc):
            vec[:_UNITS_END] = unit_block_fresh(s)
            self.units = (s.loc[:], s.box[:], s.flags[:])
        elif units[0] != s.loc or units[1] != s.box or units[2] != s.flags:
            self._move_units(s, units)
        areas = self.areas
        if not (areas and areas[0] == s.control and areas[1] == s.terror
                and areas[2] == s.resettled and areas[3] == s.done):
            vec[_UNITS_END:_AREAS_END] = _area_block(s)
            self.areas = (s.control[:], s.terror[:], s.resettled[:], s.done[:])
        markers = (s.oas, s.oas_controller, s.ops_last, s.shorter_leader, s.scenario,
                   s.phase, s.bz)
        tracks = _tracks(s)
        if markers != self.rest:
            vec[_AREAS_END:_BOARD_END] = _rest_block(*markers, tracks)
            self.rest, self.tracks = markers, tracks
        elif tracks != self.tracks:
            # Mostly only a track moved (PSL, AP, points): its cells alone are rewritten.
            vec[_O_TRACKS:_O_TRACKS + _NUM_TRACKS] = tracks
            self.tracks = tracks
        return vec

    def _move_units(self, s: State, units: tuple[list, list, list]) -> None:
        changed: set[int] = set()
        snapshot = []
        for now, before in zip((s.loc, s.box, s.flags), units, strict=True):
            if now != before:
                changed.update(compress(_UNIT_RANGE, map(ne, now, before)))
                snapshot.append(now[:])
            else:
                snapshot.append(before)     # (never edited: it still holds these values)
        if len(changed) > 16:
            self.vec[:_UNITS_END] = unit_block_fresh(s)
        else:
            buf = self.buf
            old_loc, old_box, old_flags = units
            loc, box, flags = s.loc, s.box, s.flags
            for u in changed:
                for i in _contribution(u, old_loc[u], old_box[u], old_flags[u]):
                    buf[i] -= 1
                for i in _contribution(u, loc[u], box[u], flags[u]):
                    buf[i] += 1
        self.units = tuple(snapshot)


_BOARD = _Board()


def _contribution(u: int, loc: int, box: int, f: int) -> list[int]:
    """The indices of the unit block that unit ``u`` adds one to."""
    if loc < 0:
        return [_OFF_BASE[loc] + UTYPE[u]]
    i = _UNIT_BASE[loc][box][UTYPE[u]]
    return [i, *(i + ch for ch in _FLAG_CHANNELS[f])] if f else [i]


def unit_block_fresh(s: State) -> np.ndarray:
    """The unit block computed from scratch (``_Board`` updates the last one)."""
    idx: list[int] = []
    add = idx.append
    unit_base, flag_channels, utype, off_base = _UNIT_BASE, _FLAG_CHANNELS, UTYPE, _OFF_BASE
    flags = s.flags
    for u, (loc, box) in enumerate(zip(s.loc, s.box, strict=True)):
        if loc >= 0:
            i = unit_base[loc][box][utype[u]]
            add(i)
            f = flags[u]
            if f:
                for ch in flag_channels[f]:
                    add(i + ch)
        else:
            add(off_base[loc] + utype[u])
    return np.bincount(np.fromiter(idx, np.intp, len(idx)),
                       minlength=_UNITS_END).astype(np.float32)


def _area_block(s: State) -> np.ndarray:
    """control, terror, resettled and missions_done."""
    control, terror, resettled, done = s.control, s.terror, s.resettled, s.done
    block = np.zeros(_AREAS_END - _UNITS_END, dtype=np.float32)
    o, t, r, d = (OFFSETS["control"] - _UNITS_END, OFFSETS["terror"] - _UNITS_END,
                  OFFSETS["resettled"] - _UNITS_END, OFFSETS["missions_done"] - _UNITS_END)
    for a in _AREA_RANGE:
        block[o + 3 * a + control[a]] = 1
        if terror[a]:
            block[t + a] = 1
        if resettled[a]:
            block[r + a] = 1
        if done[a]:
            for k in _DONE_BITS[done[a]]:
                block[d + 5 * a + k] = 1
    return block


def _rest_block(oas, oas_controller, ops_last, shorter_leader, scenario, phase, bz,
                tracks) -> np.ndarray:
    """oas, oas_controller, border_zone, tracks, ops_last, shorter_leader, scenario and
    phase (offsets from ``oas``)."""
    block = np.zeros(_BOARD_END - _AREAS_END, dtype=np.float32)
    ones = [_O_OAS + (0 if oas == OAS_INACTIVE else 1 if oas == OAS_UNPLACED else 2 + oas)]
    if oas_controller:
        ones.append(_O_OAS_CONTROLLER + _SIDE[oas_controller])
    if ops_last:
        ones.append(_O_OPS_LAST + _SIDE[ops_last])
    if shorter_leader in _SIDE:
        ones.append(_O_SHORTER + _SIDE[shorter_leader])
    if scenario in _SCENARIO:
        ones.append(_O_SCENARIO + _SCENARIO[scenario])
    if phase in _PHASE:
        ones.append(_O_PHASE + _PHASE[phase])
    for i in ones:
        block[i - _AREAS_END] = 1
    if bz is not None:
        block[_O_BZ - _AREAS_END], block[_O_BZ + 1 - _AREAS_END] = 1, bz
    o = _O_TRACKS - _AREAS_END
    block[o:o + _NUM_TRACKS] = tracks
    return block


def observe(game: AlgeriaGame, observer: str) -> np.ndarray:
    """The observation vector of ``observer`` (the game is open: both sides see all)."""
    s: State = game.s
    ones: list[int] = [_O_OBSERVER + _SIDE[observer]]
    number = _decision_context(s, ones.append)
    vec = _BOARD.update(s)
    buf = _BOARD.buf
    try:
        for i in ones:
            buf[i] = 1
        if number:
            buf[_O_NUMBER] = number
        return vec.copy()
    finally:            # the decision part stays zero between calls
        for i in ones:
            buf[i] = 0
        buf[_O_NUMBER] = 0


def _decision_context(s: State, add) -> int:
    """Add the indices of the pending decision's context; return its number (0 if none)."""
    combat = s.combat
    area = -1
    if combat:
        o = _O_COMBAT
        for key in ("gov", "fln", "targets"):
            for u in combat.get(key) or ():
                add(o + u)
        if isinstance(combat.get("area"), int):
            area = combat["area"]
    number = 0
    if s.stack:
        frame = s.stack[-1]
        name = frame[0]
        dec = flow.DECISIONS.get(name)
        if dec is not None:
            add(_O_DECISION + _DECISION[name])
            add(_O_TO_MOVE + _SIDE[dec.side(s, frame)])
            slots = _FRAME_SLOTS.get(name)
            if slots is not None:
                unit, where, chosen, utype, num = slots
                if unit is not None:
                    add(_O_SUBJECT_UNITS + frame[unit])
                if where is not None and frame[where] >= 0:
                    area = frame[where]
                if chosen is not None:
                    o = _O_CHOSEN
                    for u in frame[chosen]:
                        add(o + u)
                if utype is not None:
                    add(_O_SUBJECT_TYPE + frame[utype])
                if num is not None:
                    number = frame[num]
    if area >= 0:
        add(_O_SUBJECT_AREA + area)
    return number


# ---------------------------------------------------------------- reading a vector

def field(obs: np.ndarray, name: str) -> np.ndarray:
    """The slice of an observation that holds field ``name`` of OBS_FIELDS."""
    size = dict(OBS_FIELDS)[name]
    return obs[OFFSETS[name]:OFFSETS[name] + size]


def unit_index(area: str, box: str, unit_type: str, channel: str = "count") -> int:
    """Where the ``channel`` of ``unit_type`` in ``box`` of ``area`` is in the vector
    (``unit_index("ALGIERS", "OPS", "el_x")``)."""
    return (_UNIT_BASE[AREA_INDEX[area]][BOX_NAMES.index(box)][TYPE_INDEX[unit_type]]
            + UNIT_CHANNELS.index(channel))
