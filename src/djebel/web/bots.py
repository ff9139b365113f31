"""The web app's bots: each bot seat's choice is a function of the stored game alone.

A bot's agent is seeded from the game's secret seed and its side, and its memory
(its random generator, the Government's turn budget, a skirmish activation's
course, the search agent's record of its styles) is rebuilt by folding the record:
the agent is consulted at every one of its side's decisions, in order, on its own
copy of the game, and the recorded action is applied whatever it answered. The
process that drives a game after a restart, or after another worker stopped,
therefore asks exactly what an uninterrupted one would, and gets the same answer.
Every bot plays to an iteration budget, never a time budget, for the same reason.
"""

from __future__ import annotations

from djebel.agents import make_agent
from djebel.core.actions import Action
from djebel.core.records import game_from_record

SIDES = {"algeria": ("fln", "gov"), "skirmish": ("french", "insurgents")}


def bot_options(game: str, bot: str) -> dict:
    """The options of a web bot: none today. (The search agent keeps its default budget
    of 16 rollouts per style and turn; a ``seconds`` budget would make its choices
    depend on the machine's load.)"""
    return {}


def agent_seed(header: dict, game: str, side: str) -> int:
    return int(header.get("seed", 0)) * 7 + SIDES[game].index(side) + 1


class BotSeat:
    """One bot seat of one game: its agent and the agent's own copy of the game, kept
    at the stored record's ``ply``. Used from one thread at a time."""

    def __init__(self, header: dict, game: str, side: str, bot: str, gid: str = ""):
        self.header, self.name, self.side, self.bot, self.gid = header, game, side, bot, gid
        self._begin()

    def _begin(self) -> None:
        self.agent = make_agent(self.bot, self.name, self.side,
                                agent_seed(self.header, self.name, self.side),
                                **bot_options(self.name, self.bot))
        self.game = game_from_record(dict(self.header, actions=[]), f"game {self.gid}")
        self.seen: list[str] = []                       # the actions folded so far
        self.answer: tuple[int, Action] | None = None   # (ply, action) last asked

    @property
    def ply(self) -> int:
        return len(self.seen)

    def choose(self, actions: list[str]) -> Action:
        """The bot's action after the recorded ``actions`` (its side must be to act)."""
        if actions[:self.ply] != self.seen:
            self._begin()              # an undo took back actions it had folded: again
        for text in actions[self.ply:]:
            self._ask()
            self.game.apply(text)
            self.seen.append(text)
        action = self._ask()
        if action is None:
            raise ValueError(f"{self.side} is not to act after {self.ply} actions")
        return action

    def _ask(self) -> Action | None:
        """Consult the agent once per decision of its side (the fold of its memory)."""
        if self.game.is_over() or self.game.active_side != self.side:
            return None
        if self.answer is None or self.answer[0] != self.ply:
            self.answer = (self.ply, self.agent.choose(self.game))
        return self.answer[1]
