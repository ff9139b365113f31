"""Which of a bot's decisions a player wants to watch at the bot's pace.

The server waits ``--bot-delay`` seconds after a bot's move so that a person can follow
it; set-up placements, forced single choices and the ``done`` steps that close a phase
tell nobody anything, so a bot plays them at once (the Government's 34 placements of the
1958 set-up would otherwise keep the FLN waiting 14 s at 0.4 s each).
"""

from __future__ import annotations

from djebel.core.actions import Action

# the verbs that only close a step or a phase (Algeria 3-4, 6.2; skirmish D-turn ends)
BOOKKEEPING_VERBS = frozenset({"done", "confirm", "ready", "end", "endphase"})


def in_setup(game) -> bool:
    """Whether ``game`` is still being set up: Algeria's set-up (3-4 placements, before
    turn 1) or the skirmish deployment (the scenario's set-up order)."""
    if game.name == "algeria":
        return game.state.phase == "setup"
    frames = getattr(game, "frames", None)
    return bool(frames) and frames[-1].get("k") == "deploy"


def watched(game, action: Action | str) -> bool:
    """Whether the bot's ``action``, chosen in ``game`` (before it is applied), is a move
    to watch: not a set-up placement, not the only legal action, not a closing step."""
    act = action if isinstance(action, Action) else Action.parse(str(action))
    if in_setup(game) or act.verb in BOOKKEEPING_VERBS:
        return False
    legal = game.legal_actions()
    return len(legal) > 1
