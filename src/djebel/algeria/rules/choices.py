"""Small decisions many rules share: sharing out PSP (9-4) and picking units."""

from __future__ import annotations

from djebel.algeria.board import unit_arg
from djebel.algeria.flow import Decision, push
from djebel.algeria.rules.common import (
    PSL_MAX,
    lower_psl,
    name,
    neutralize,
    number_actions,
    other,
    raise_psl,
    unit_actions,
)
from djebel.algeria.state import State
from djebel.core.actions import Action

_PICK = unit_actions("pick")
_PSP = number_actions("psp", PSL_MAX)


class Share(Decision):
    """9-4 / INT-63: the entitled side splits N PSP: ``psp K`` raises its own PSL by K
    and lowers the other side's by N-K. Frame: (share, side, n, rule, why)."""

    name = "share"
    rule = "9-4"

    def legal(self, s, frame):
        n = frame[2]
        if n < len(_PSP):
            return list(_PSP[n::-1])           # psp n .. psp 0
        return [Action("psp", (k,)) for k in range(n, -1, -1)]

    def apply(self, s, frame, action):
        _, side, n, rule, why = frame
        k = action.args[0]
        raise_psl(s, side, k, rule, why)
        lower_psl(s, other(side), n - k, rule, why)

    def why_not(self, s, frame, action):
        n = frame[2]
        if action.verb == "psp" and len(action.args) == 1:
            return "9-4", (f"{action.args[0]} is not between 0 and {n}: psp K raises your "
                           f"PSL by K and lowers the other side's by {n}-K")
        return super().why_not(s, frame, action)

    def prompt(self, s, frame):
        _, side, n, _, why = frame
        return (f"{side.upper()}: share out {n} PSP ({why}): psp K = +K to own PSL, "
                f"-(N-K) to the other")


# The effects a Pick may have, by name (frames hold names, never functions).
def _neutralize(s: State, u: int, rule: str) -> None:
    neutralize(s, u, rule)


PICK_EFFECTS = {"neutralize": _neutralize}


class Pick(Decision):
    """Choose ``count`` units one at a time from a list, applying a named effect to each.

    Frame: (pick, side, rule, effect, count, candidates, what). Used for the Factional
    Purge (5-2), Suppression victims (9.26-3), Raid side effects (9.14).
    """

    name = "pick"

    def legal(self, s, frame):
        return [_PICK[u] for u in frame[5]]

    def apply(self, s, frame, action):
        _, side, rule, effect, count, cands, what = frame
        u = unit_arg(action.args[0])
        PICK_EFFECTS[effect](s, u, rule)
        rest = tuple(c for c in cands if c != u)
        if count > 1 and rest:
            push(s, ("pick", side, rule, effect, count - 1, rest, what))

    def prompt(self, s, frame):
        _, side, rule, effect, count, cands, what = frame
        return f"{side.upper()}: pick {count} unit(s) to {what}"

    def why_not(self, s, frame, action):
        return frame[2], f"pick one of: {', '.join(name(u) for u in frame[5])}"


def pick(s: State, side: str, rule: str, effect: str, count: int, cands, what: str) -> None:
    """Push a Pick, or apply it at once when the choice is forced (all candidates)."""
    cands = tuple(cands)
    count = min(count, len(cands))
    if count <= 0:
        return
    if count == len(cands):
        for u in cands:
            PICK_EFFECTS[effect](s, u, rule)
        return
    push(s, ("pick", side, rule, effect, count, cands, what))
