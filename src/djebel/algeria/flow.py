"""The flow of a game as an explicit state machine.

``state.stack`` holds pending frames, the top one last. A frame is a tuple
whose first item names either an automatic *step* (run at once, may push more
frames) or a *decision* (waits for the side that must choose). Both kinds are
registered here by name, so the whole flow is plain data: a state can be
cloned, saved and restored at any decision point.
"""

from __future__ import annotations

from collections.abc import Callable

from djebel.algeria.board import AREA_INDEX, FLN_UNITS, TYPE_KEYS, UNIT_INDEX
from djebel.algeria.state import State
from djebel.core.actions import Action

STEPS: dict[str, Callable[..., None]] = {}
DECISIONS: dict[str, Decision] = {}


class GameOver(Exception):  # noqa: N818 - a signal, not an error
    """Raised the moment a PSL reaches 0 (12.2); the state already holds the result."""


def step(name: str):
    """Register an automatic step ``fn(state, *args)``."""
    def deco(fn):
        STEPS[name] = fn
        return fn
    return deco


WHY_LISTED = 8          # legal actions a generic refusal names


class Decision:
    """A point where one side chooses. Subclasses list and apply actions.

    ``legal`` and ``apply`` are the only two places a decision is defined, so
    what is offered and what it does stay side by side. ``why_not`` explains a
    refused action by the rule it breaks.
    """

    name = ""
    rule = ""      # the rule this decision belongs to, cited in errors

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.name:
            DECISIONS[cls.name] = cls()

    def side(self, s: State, frame: tuple) -> str:
        return frame[1]

    def legal(self, s: State, frame: tuple) -> list[Action]:
        raise NotImplementedError

    def apply(self, s: State, frame: tuple, action: Action) -> None:
        raise NotImplementedError

    def prompt(self, s: State, frame: tuple) -> str:
        return self.name

    def why_not(self, s: State, frame: tuple, action: Action) -> tuple[str, str]:
        """(rule, reason) for an action that is not legal here. Decisions whose
        refusals have a rule of their own override this; by default the reason names
        what may be chosen instead, so that the player sees the way forward."""
        legal = self.legal(s, frame)
        here = self.prompt(s, frame)
        same = [str(a) for a in legal if a.verb == action.verb]
        if not same:
            verbs = list(dict.fromkeys(a.verb for a in legal))
            return self.rule, (f"not a choice now ({here}): the choices are "
                               f"{', '.join(verbs)}")
        wrong = wrong_kind(action, [a for a in legal if a.verb == action.verb])
        if wrong is not None:
            return self.rule, f"{wrong} ({here})"
        more = f" and {len(same) - WHY_LISTED} more" if len(same) > WHY_LISTED else ""
        return self.rule, (f"not a legal choice now ({here}): legal are "
                           f"{', '.join(same[:WHY_LISTED])}{more}")


def _kind(value: object) -> str:
    """What an action argument names: a side's unit, an area, a unit type, a number."""
    w = str(value)
    if isinstance(value, int):
        return "a number"
    if w in UNIT_INDEX:
        return "an FLN unit" if UNIT_INDEX[w] in FLN_UNITS else "a Government unit"
    if w.upper() in AREA_INDEX:
        return "an area"
    if w in TYPE_KEYS:
        return "a unit type"
    return "a word"


def wrong_kind(action: Action, same: list[Action]) -> str | None:
    """Why ``action`` names the wrong kind of thing where every legal action with its verb
    names another (a unit where an area goes, an FLN unit for a Government choice), or
    None when the kinds agree."""
    for i, value in enumerate(action.args):
        kinds = {_kind(a.args[i]) for a in same if len(a.args) > i}
        got = _kind(value)
        if kinds and got not in kinds:
            want = " or ".join(sorted(kinds))
            example = next(str(a) for a in same if len(a.args) > i)
            return (f"'{action.verb}' takes {want} here and {value} is {got} "
                    f"(for example '{example}')")
    return None


def push(s: State, *frames: tuple) -> None:
    """Push frames so that the first one given runs first."""
    if len(frames) == 1:
        s.stack.append(frames[0])
    else:
        s.stack.extend(reversed(frames))


def advance(s: State) -> None:
    """Run automatic steps until a decision is on top or the game is over."""
    stack = s.stack
    try:
        while stack:
            frame = stack[-1]
            fn = STEPS.get(frame[0])
            if fn is None:
                return
            stack.pop()
            if len(frame) == 1:
                fn(s)
            else:
                fn(s, *frame[1:])
    except GameOver:
        stack.clear()


def current(s: State) -> tuple[Decision, tuple] | None:
    if not s.stack:
        return None
    frame = s.stack[-1]
    return DECISIONS[frame[0]], frame
