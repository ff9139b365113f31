"""The whole game state as plain data, copied field by field.

Per unit: location, box and flags in three flat lists. Per area: control,
terror, resettled and the once-per-turn mission marks. Then the tracks, the
event flags, the pending-step stack that drives the flow (see ``flow.py``)
and the seeded dice.
"""

from __future__ import annotations

from djebel.algeria.board import NUM_AREAS, NUM_UNITS, POOL
from djebel.core.chain import Chain
from djebel.core.dice import Dice
from djebel.core.log import Log

# Control values (10.1).
CONTESTED, FLN_CONTROL, GOV_CONTROL = 0, 1, 2

# Once-per-area-per-turn mission marks (9-2).
DONE_PROPAGANDA, DONE_STRIKE, DONE_RAID, DONE_CIVIL, DONE_SUPPRESSION = 1, 2, 4, 8, 16

# Scalar fields, in the order they are saved. Every one is an int, str, bool or None.
SCALARS = (
    "scenario", "turn", "phase", "fln_psl", "gov_psl", "ap",
    "air_max", "air_avail", "helo_max", "helo_avail", "naval",
    "bz", "bz_active", "bz_new", "independent",
    "oas", "oas_controller", "amnesty", "jealousy", "suez_used",
    "slow_french", "gov_half", "gov_allowance_used", "france_moved",
    "ops_last", "shorter_leader", "control_decided",
    "winner", "level", "end_reason",
    "opt_slow", "opt_independence", "opt_shorter", "opt_bz_ap", "turn_limit",
)

# The OAS marker (11.3): not yet active, active but not placed, or the area it is in.
OAS_INACTIVE, OAS_UNPLACED = -1, -2


class State:
    __slots__ = (*SCALARS, "loc", "box", "flags", "away", "control", "terror", "resettled",
                 "done", "stack", "combat", "dice", "log", "actions", "placed")

    def __init__(self):
        self.scenario = "1954"
        self.turn = 0
        self.phase = "setup"
        self.fln_psl = self.gov_psl = 50
        self.ap = 0
        self.air_max = self.air_avail = self.helo_max = self.helo_avail = self.naval = 0
        self.bz: int | None = None          # Border Zone DRM, None = not mobilized (6.33)
        self.bz_active = False
        self.bz_new = False                 # first mobilized this turn: no improvement yet
        self.independent = False           # Morocco and Tunisia (11.21)
        self.oas = OAS_INACTIVE
        self.oas_controller = ""
        self.amnesty = self.jealousy = self.suez_used = False
        self.slow_french = False            # 13.1 in force
        self.gov_half = 0                   # half PSP owed this Reinforcement Phase (6.3-1)
        self.gov_allowance_used = False     # 13.1: one unit or point per turn
        self.france_moved = False           # one France transfer per Deployment (11.22)
        self.ops_last = ""                  # "fln"/"gov" passed last, "" otherwise (8-4)
        self.shorter_leader = ""            # 13.3 leader at the last check
        self.control_decided = False        # 3-6: all Contested until the first interphase
        self.winner = self.level = self.end_reason = None
        self.opt_slow = self.opt_independence = self.opt_shorter = self.opt_bz_ap = False
        self.turn_limit = 0
        self.loc = [POOL] * NUM_UNITS
        self.box = [0] * NUM_UNITS
        self.flags = [0] * NUM_UNITS
        self.away = [-1] * NUM_UNITS        # Suez: the area an elite left (5-2)
        self.control = [CONTESTED] * NUM_AREAS
        self.terror = [False] * NUM_AREAS
        self.resettled = [False] * NUM_AREAS
        self.done = [0] * NUM_AREAS
        self.stack: list[tuple] = []        # pending steps and decisions, top = last
        self.combat: dict = {}              # the combat being resolved (9-6), if any
        self.dice = Dice(0)
        self.log = Log()
        self.actions = Chain()
        # Not state but a cache of ``loc`` (rules/common.py ``on_map``): the locations it
        # was worked out from and the counters on the map. Shared by copies, never edited.
        self.placed: tuple = (None, (), ())

    def copy(self) -> State:
        s = State.__new__(State)
        for name in SCALARS:
            setattr(s, name, getattr(self, name))
        s.loc = self.loc[:]
        s.box = self.box[:]
        s.flags = self.flags[:]
        s.away = self.away[:]
        s.control = self.control[:]
        s.terror = self.terror[:]
        s.resettled = self.resettled[:]
        s.done = self.done[:]
        s.stack = self.stack[:]
        s.combat = _copy_combat(self.combat)
        s.dice = self.dice.copy()
        s.log = self.log.copy()
        s.actions = self.actions.copy()
        s.placed = self.placed
        return s

    def to_json(self, with_log: bool = True) -> dict:
        data = {name: getattr(self, name) for name in SCALARS}
        data.update(
            loc=self.loc, box=self.box, flags=self.flags, away=self.away,
            control=self.control, terror=self.terror, resettled=self.resettled,
            done=self.done, stack=[list(_jsonable(f)) for f in self.stack],
            combat={k: (list(v) if isinstance(v, (list, tuple)) else v)
                    for k, v in self.combat.items()},
            dice=self.dice.to_json(), actions=[str(a) for a in self.actions.to_list()],
        )
        if with_log:
            data["log"] = self.log.to_json()
        return data

    @staticmethod
    def from_json(data: dict) -> State:
        s = State()
        for name in SCALARS:
            if name in data:
                setattr(s, name, data[name])
        for name in ("loc", "box", "flags", "away", "control", "done"):
            if name in data:
                setattr(s, name, [int(x) for x in data[name]])
        for name in ("terror", "resettled"):
            if name in data:
                setattr(s, name, [bool(x) for x in data[name]])
        s.stack = [_tupled(f) for f in data.get("stack", [])]
        s.combat = {k: (list(v) if isinstance(v, list) else v)
                    for k, v in data.get("combat", {}).items()}
        if "dice" in data:
            s.dice = Dice.from_json(data["dice"])
        s.log = Log.from_json(data.get("log", []))
        s.actions = Chain(data.get("actions", []))
        return s


def _copy_combat(c: dict) -> dict:
    if not c:
        return {}
    return {k: (v[:] if isinstance(v, list) else v) for k, v in c.items()}


def _jsonable(frame: tuple):
    return [list(_jsonable(x)) if isinstance(x, tuple) else x for x in frame]


def _tupled(frame: list) -> tuple:
    return tuple(_tupled(x) if isinstance(x, list) else x for x in frame)
