"""AlgeriaGame: the game protocol over the state machine in ``flow.py``."""

from __future__ import annotations

from itertools import repeat
from numbers import Integral
from operator import is_
from typing import Any

from djebel.algeria import flow
from djebel.algeria import rules as _rules  # noqa: F401  (registers every step and decision)
from djebel.algeria.board import WILAYA_AREAS
from djebel.algeria.rules import setup
from djebel.algeria.state import State
from djebel.core.actions import Action
from djebel.core.dice import Dice, check_script
from djebel.core.errors import DjebelError, IllegalAction, ScenarioError
from djebel.core.log import Log
from djebel.core.protocol import Result, state_hash

# Game options: name -> (state field, rule, scenarios it is allowed in or None for all).
OPTIONS = {
    "slow_french_reaction": ("opt_slow", "13.1", ("1954",)),
    "deterministic_independence": ("opt_independence", "13.2", ("1954",)),
    "shorter_game": ("opt_shorter", "13.3", None),
    "border_zone_cuts_ap": ("opt_bz_ap", "DIS-05", None),
}


# The largest die Algeria rolls: set-up's ``place auto``, a dN over the N areas of a
# wilaya (3-4; 9 in wilaya V). Every other roll is a d6, and checks its own faces.
SCRIPT_FACES = max(len(areas) for areas in WILAYA_AREAS.values())


def check_options(scenario: str, options: object) -> dict[str, bool]:
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ScenarioError(f"field 'options': expected an object of option names and "
                            f"true/false, found {options!r}")
    options = dict(options)
    for key, value in options.items():
        if key not in OPTIONS:
            raise ScenarioError(f"unknown option {key!r} (known: {', '.join(OPTIONS)})")
        if not isinstance(value, bool):
            raise ScenarioError(f"option {key!r} must be true or false, not {value!r}")
        allowed = OPTIONS[key][2]
        if value and allowed and scenario not in allowed:
            raise ScenarioError(f"option {key!r} (rule {OPTIONS[key][1]}) is only for the "
                                f"{'/'.join(allowed)} scenario")
    return options


class AlgeriaGame:
    """One game of Algeria. Drive it with ``legal_actions()`` and ``apply()``."""

    name = "algeria"
    sides = ("fln", "gov")

    __slots__ = ("s", "header", "_offered")

    def __init__(self, state: State, header: dict[str, Any]):
        self.s = state
        self.header = header
        self._offered: tuple = (None, -1, ())   # (frame, history length, actions)

    # ------------------------------------------------------------ protocol
    @property
    def log(self) -> Log:
        return self.s.log

    @property
    def state(self) -> State:
        return self.s

    @property
    def active_side(self) -> str | None:
        cur = flow.current(self.s)
        if cur is None:
            return None
        dec, frame = cur
        return dec.side(self.s, frame)

    def legal_actions(self) -> list[Action]:
        cur = flow.current(self.s)
        if cur is None:
            return []
        dec, frame = cur
        actions = dec.legal(self.s, frame)
        self._offered = (frame, len(self.s.actions), actions)
        return actions

    def validate(self, action: Action | str) -> Action:
        """The action, parsed; raises IllegalAction naming the rule if it is not legal."""
        if isinstance(action, str):
            action = Action.parse(action)
        cur = flow.current(self.s)
        if cur is None:
            raise IllegalAction("12.2", "the game is over", action)
        dec, frame = cur
        offered_frame, n, offered = self._offered
        if offered_frame is frame and n == len(self.s.actions) and (
                any(map(is_, offered, repeat(action))) or action in offered):
            # Listed by legal_actions() for this very decision, with no action applied
            # since: the same list, not recomputed. (Direct edits of ``state`` between
            # the two calls bypass the rules; call legal_actions() again after them.)
            # Agents mostly hand back one of the listed objects: found by identity first.
            return action
        if action not in dec.legal(self.s, frame):
            rule, reason = dec.why_not(self.s, frame, action)
            raise IllegalAction(rule, reason, action)
        return action

    def apply(self, action: Action | str) -> None:
        action = self.validate(action)
        if self.s.dice.script_left:
            # A scripted die that is not a face of the die rolled stops the action midway
            # (ScenarioError): the game is put back as it was, as for an illegal action.
            before = self.s.copy()
            try:
                self._apply(action)
            except DjebelError:
                self.s = before
                raise
        else:
            self._apply(action)

    def _apply(self, action: Action) -> None:
        s = self.s
        frame = s.stack.pop()
        s.actions.append(action)     # as text when the history is read
        try:
            flow.DECISIONS[frame[0]].apply(s, frame, action)
        except flow.GameOver:
            s.stack.clear()
            return
        flow.advance(s)

    def clone(self) -> AlgeriaGame:
        return AlgeriaGame(self.s.copy(), self.header)

    def is_over(self) -> bool:
        return self.s.winner is not None

    def result(self) -> Result | None:
        s = self.s
        if s.winner is None:
            return None
        return Result(s.winner, s.level, {"fln": s.fln_psl, "gov": s.gov_psl}, s.end_reason)

    def prompt(self) -> str:
        cur = flow.current(self.s)
        if cur is None:
            r = self.result()
            return f"game over: {r.winner.upper()} {r.level} victory" if r else "no decision"
        dec, frame = cur
        return dec.prompt(self.s, frame)

    @property
    def dice(self) -> Dice:
        """The game's dice (the same object as ``state.dice``)."""
        return self.s.dice

    def decision(self) -> str:
        """The kind of the pending decision (e.g. ``ops_fln``), or '' when over."""
        return self.s.stack[-1][0] if self.s.stack else ""

    # ------------------------------------------------------------ records
    def history(self) -> list[str]:
        return [str(a) for a in self.s.actions.to_list()]

    def record_header(self) -> dict[str, Any]:
        return dict(self.header)

    def state_hash(self) -> str:
        data = self.s.to_json(with_log=False)
        del data["actions"]
        data["dice"] = self.s.dice.hash_json()
        return state_hash(data)

    def to_json(self) -> dict:
        return {"game": "algeria", "header": self.header, "state": self.s.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> AlgeriaGame:
        return cls(State.from_json(data["state"]), dict(data.get("header", {})))


def new_game(scenario: str = "1954", seed: int = 0, options: dict | None = None,
             dice_script: tuple | list = (), log: bool = True,
             rolls: tuple | list = ()) -> AlgeriaGame:
    """Start a game of ``scenario`` ("1954", "1958", "1960") at the set-up; ``rolls``
    are faces already drawn (a record without its seed), drawn before the script."""
    scenario = str(scenario)
    setup.scenario_spec(scenario)
    options = check_options(scenario, options)
    dice_script = check_script(dice_script, SCRIPT_FACES)
    if not isinstance(seed, Integral) or isinstance(seed, bool):
        raise ScenarioError(f"field 'seed': expected an integer, found {seed!r}")
    seed = int(seed)                 # numpy integers too (the RL environments)
    s = State()
    s.dice = Dice(seed, tuple(rolls) + tuple(dice_script))
    s.log = Log(log)
    for key, value in options.items():
        setattr(s, OPTIONS[key][0], value)
    setup.start(s, scenario)
    flow.advance(s)
    header = {"game": "algeria", "scenario": scenario, "seed": seed, "options": options,
              "dice_script": list(dice_script)}
    if rolls:
        header["rolls"] = list(rolls)
    return AlgeriaGame(s, header)

