"""Insurgent Commander as fixed-size numbers: numbered candidate orders and the table.

Moves on the table are continuous (centimetres and degrees), so the action space is
the numbered list of candidate orders the game offers at each decision (its
``legal_actions``: activations, moves to useful points, fire at each target in
sight...): action ``k`` is the ``k``-th candidate of the current decision, and the
observation describes every candidate, so that an agent sees what each number means.
The layout is ``OBS_FIELDS`` (name, size), documented in docs/rl.md.
"""

from __future__ import annotations

import math

import numpy as np

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction, ScenarioError
from djebel.rl.layout import offsets
from djebel.rl.skirmish_orders import candidate_orders
from djebel.skirmish.catalog import catalog
from djebel.skirmish.game import SkirmishGame

SIDES = ("french", "insurgents")
MAX_ORDERS = 128        # candidate orders numbered; more than this are cut (never seen: 72)
MAX_ELEMENTS = 32       # element slots (the shipped scenarios have 19 to 23 elements)
MAX_MARKERS = 16        # casualty-marker slots (D73)
TYPES = tuple(catalog())
VERBS = ("activate", "group", "endphase", "move", "sprint", "fire", "shoot", "turnshoot",
         "overwatch", "hold", "end", "roll", "rally", "load", "unload", "dismount",
         "land", "leave", "pickup", "owfire", "wait", "pass", "place", "ready")
FRAME_KINDS = ("main", "act", "group", "react", "ow", "charge", "deploy")
ELEMENT_FLAGS = ("pinned", "overwatch", "airborne", "immobilized", "engine_damaged",
                 "optics", "one_shot_used", "off_table", "forced_down", "activated",
                 "reacted")
ELEMENT_FIELDS = ("present", "french", "insurgents", "on_table", "removed", "embarked",
                  "x", "y", "facing_cos", "facing_sin", "sp", "weapons_ko", "markers",
                  *ELEMENT_FLAGS, *(f"type_{t}" for t in TYPES))
MARKER_FIELDS = ("present", "on_table", "carried", "evacuated", "x", "y")
ORDER_FIELDS = ("valid", *(f"verb_{v}" for v in VERBS), "verb_other",
                *(f"actor_{i}" for i in range(MAX_ELEMENTS)),
                *(f"target_{i}" for i in range(MAX_ELEMENTS)),
                "has_point", "x", "y", "has_facing", "facing_cos", "facing_sin", "word")
TABLE_CM = 122.0        # coordinates are divided by this (a 4 ft table)
OBS_FIELDS: tuple[tuple[str, int], ...] = (
    ("elements", MAX_ELEMENTS * len(ELEMENT_FIELDS)),
    ("markers", MAX_MARKERS * len(MARKER_FIELDS)),
    ("turn", 2),                 # turn, turn limit
    ("phasing", 2),
    ("to_move", 2),
    ("observer", 2),
    ("frame", len(FRAME_KINDS)),
    ("frame_element", MAX_ELEMENTS),
    ("orders", MAX_ORDERS * len(ORDER_FIELDS)),
)
OFFSETS, OBS_SIZE = offsets(OBS_FIELDS)
# every field lies in [-OBS_BOUND, OBS_BOUND]: coordinates over TABLE_CM, cosines,
# strength points, turns and flags
OBS_BOUND = 100.0
NUM_ACTIONS = MAX_ORDERS

_NE, _NO = len(ELEMENT_FIELDS), len(ORDER_FIELDS)
_EF = {name: i for i, name in enumerate(ELEMENT_FIELDS)}
_OF = {name: i for i, name in enumerate(ORDER_FIELDS)}
_TYPE = {t: i for i, t in enumerate(TYPES)}
_VERB = {v: i for i, v in enumerate(VERBS)}
_SIDE = {s: i for i, s in enumerate(SIDES)}
_FRAME = {k: i for i, k in enumerate(FRAME_KINDS)}


def orders(game: SkirmishGame) -> list[Action]:
    """The numbered candidate orders of the pending decision (at most MAX_ORDERS)."""
    return candidate_orders(game)[:MAX_ORDERS]


def legal_indices(game: SkirmishGame) -> list[int]:
    return list(range(len(orders(game))))


def action_mask(game: SkirmishGame) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[:len(orders(game))] = 1
    return mask


def index_action(game: SkirmishGame, index: int) -> Action:
    """The order numbered ``index`` at this decision."""
    listed = orders(game)
    if not 0 <= int(index) < len(listed):
        raise IllegalAction("rl", f"order {index} not offered (0..{len(listed) - 1} are)")
    return listed[int(index)]


def action_index(game: SkirmishGame, action: Action | str) -> int:
    """The number of a candidate order at this decision."""
    if isinstance(action, str):
        action = Action.parse(action)
    listed = orders(game)
    if action not in listed:
        raise IllegalAction("rl", "not one of the numbered candidate orders", action)
    return listed.index(action)


def observe(game: SkirmishGame, observer: str) -> np.ndarray:
    """The observation vector of ``observer`` (the table is open to both sides)."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    if len(game.elements) > MAX_ELEMENTS:
        raise ScenarioError(f"{game.scenario_name}: {len(game.elements)} elements, the "
                            f"reinforcement-learning observation has {MAX_ELEMENTS} slots")
    for e in game.elements:
        o = OFFSETS["elements"] + e.id * _NE
        v = out[o:o + _NE]
        v[_EF["present"]] = 1
        v[_EF[e.side]] = 1
        v[_EF["on_table"]] = e.on_table
        v[_EF["removed"]] = bool(e.removed)
        v[_EF["embarked"]] = e.embarked_in >= 0
        v[_EF["x"]], v[_EF["y"]] = e.x / TABLE_CM, e.y / TABLE_CM
        rad = math.radians(e.facing)
        v[_EF["facing_cos"]], v[_EF["facing_sin"]] = math.cos(rad), math.sin(rad)
        v[_EF["sp"]], v[_EF["weapons_ko"]], v[_EF["markers"]] = e.sp, e.weapons_ko, e.markers
        for name in ELEMENT_FLAGS:
            if getattr(e, name):
                v[_EF[name]] = 1
        v[_EF["type_" + e.type]] = 1
    for m in game.markers[:MAX_MARKERS]:
        o = OFFSETS["markers"] + m.id * len(MARKER_FIELDS)
        if m.id >= MAX_MARKERS:
            continue
        out[o:o + 6] = (1, m.on_table, m.carried_by >= 0, m.evacuated, m.x / TABLE_CM,
                        m.y / TABLE_CM)
    o = OFFSETS["turn"]
    out[o], out[o + 1] = game.turn, game.turn_limit
    out[OFFSETS["phasing"] + _SIDE[game.phasing]] = 1
    out[OFFSETS["observer"] + _SIDE[observer]] = 1
    side = game.active_side
    if side is not None:
        out[OFFSETS["to_move"] + _SIDE[side]] = 1
    if game.frames and not game.over:
        fr = game.frames[-1]
        out[OFFSETS["frame"] + _FRAME[fr["k"]]] = 1
        for key in ("e", "t", "l"):
            if isinstance(fr.get(key), int) and 0 <= fr[key] < MAX_ELEMENTS:
                out[OFFSETS["frame_element"] + fr[key]] = 1
        _orders(game, out)
    return out


def _orders(game: SkirmishGame, out: np.ndarray) -> None:
    labels = game.labels
    for k, a in enumerate(orders(game)):
        o = OFFSETS["orders"] + k * _NO
        v = out[o:o + _NO]
        v[0] = 1
        v[1 + _VERB.get(a.verb, len(VERBS))] = 1
        names = [x for x in a.args if isinstance(x, str) and x in labels]
        if names:
            v[_OF["actor_0"] + labels[names[0]]] = 1
            for n in names[1:]:
                v[_OF["target_0"] + labels[n]] = 1
        nums = [x for x in a.args if isinstance(x, (int, float)) and not isinstance(x, bool)]
        words = [x for x in a.args if isinstance(x, str) and x not in labels]
        if "face" in words and nums:
            rad = math.radians(float(nums[-1]))
            v[_OF["has_facing"]] = 1
            v[_OF["facing_cos"]], v[_OF["facing_sin"]] = math.cos(rad), math.sin(rad)
            nums = nums[:-1]
        if len(nums) >= 2:
            v[_OF["has_point"]] = 1
            v[_OF["x"]], v[_OF["y"]] = nums[0] / TABLE_CM, nums[1] / TABLE_CM
        if any(w != "face" for w in words):
            v[_OF["word"]] = 1

