"""The whole log of a game, page by page, each entry placed in its turn, phase and side.

A log entry does not say when it was written, so the game's record is replayed once and
the log's length noted before each action (kept per game and extended as the game goes
on): the entries between two marks belong to the action between them, played by the side
that was to act, in the turn and phase the game was in.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from djebel.core.memo import Memo
from djebel.core.records import announce, game_from_record
from djebel.web.pacing import in_setup

PAGE_MAX = 500


@dataclass
class Marks:
    actions: list[str]
    game: object                       # the replay, after ``actions``
    start: tuple[int, str]             # turn and phase before the first action
    starts: list[int] = field(default_factory=list)     # log length before action i
    stages: list[tuple[int, str, str]] = field(default_factory=list)   # turn, phase, side


_MARKS: Memo[str, Marks] = Memo(64)


def stage(game) -> tuple[int, str]:
    """The turn and phase a game is in (the skirmish: its deployment, or whose turn)."""
    if game.name == "algeria":
        return game.state.turn, game.state.phase
    if in_setup(game):
        return game.turn, "deployment"
    return game.turn, f"{game.phasing} turn"


def marks(gid: str, header: dict, actions: list[str]) -> Marks:
    """The marks of game ``gid`` after ``actions`` (replaying only what is new since the
    last call; from the start after an undo)."""
    m = _MARKS.get(gid)
    if m is None or m.actions != actions[:len(m.actions)] or len(m.actions) > len(actions):
        game = game_from_record(dict(header, actions=actions), f"game {gid}", upto=0)
        m = Marks([], game, stage(game))
    g = m.game
    for i in range(len(m.actions), len(actions)):
        m.starts.append(len(g.log))
        m.stages.append((*stage(g), g.active_side or ""))
        g.apply(actions[i])
        announce(g, header, i + 1)
        m.actions.append(actions[i])
    _MARKS.store(gid, m)
    return m


def page(game, m: Marks, offset: int | None, limit: int) -> dict:
    """Entries ``offset`` to ``offset + limit`` of ``game``'s log (the last ``limit`` when
    ``offset`` is None), each with the action that wrote it (``ply``, 0 for the set-up
    before any action), its turn, phase and acting side; and where each turn starts."""
    entries = game.log.entries()
    total = len(entries)
    limit = max(1, min(limit, PAGE_MAX))
    if offset is None:
        offset = max(0, total - limit)
    out = []
    for n in range(offset, min(total, offset + limit)):
        i = bisect_right(m.starts, n) - 1
        if i < 0:
            turn, phase, actor = (*m.start, "")
        else:
            turn, phase, actor = m.stages[i]
        out.append(dict(entries[n].to_json(), n=n, ply=i + 1, turn=turn, phase=phase,
                        actor=actor))
    turns: dict[int, int] = {}
    for i, (turn, _phase, _side) in enumerate(m.stages):
        turns.setdefault(turn, i)
    return {"total": total, "offset": offset, "limit": limit, "entries": out,
            "turns": [{"turn": t, "ply": p} for t, p in sorted(turns.items())]}
