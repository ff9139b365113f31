"""Resigning: a seat ends its game and the other side wins.

A resignation is no move of the rules, so it is kept in the stored game's header
(``resigned``: the side and the action count it came at) and laid over the game each
time the game is rebuilt; the record's actions stay those the rules played.
"""

from __future__ import annotations

from djebel.core.protocol import Result

REASON = "{side} resigned"


def other(sides: tuple[str, str], side: str) -> str:
    return sides[1] if side == sides[0] else sides[0]


def apply(game, sides: tuple[str, str], side: str) -> None:
    """End ``game`` as lost by ``side``: the other side wins, said in the log."""
    winner = other(sides, side)
    reason = REASON.format(side=side.upper())
    game.log.add("", f"{reason}: {winner.upper()} wins", side=side)
    if game.name == "algeria":
        s = game.state
        s.winner, s.level, s.end_reason, s.phase = winner, "resignation", reason, "over"
        s.stack = type(s.stack)()          # no decision is pending any more
        return
    scores = dict(game.result().scores) if game.result() else {}
    game.over = True
    game._result = Result(winner, "resignation", scores, reason)
