"""The game log: what happened, each die rolled and the rule that applied.

Stored as a persistent linked list, so cloning a game shares the history
instead of copying it (tree search clones thousands of times a second).
"""

from __future__ import annotations

from typing import NamedTuple

from djebel.core.chain import Chain


class LogEntry(NamedTuple):
    rule: str          # rule number, e.g. "9.22" or "C.3"
    text: str          # what happened, readable
    dice: tuple = ()   # the faces rolled for this entry, if any
    side: str = ""     # who acted, if anyone

    def __str__(self) -> str:
        dice = f" [dice {' '.join(map(str, self.dice))}]" if self.dice else ""
        rule = f"({self.rule}) " if self.rule else ""
        return f"{rule}{self.text}{dice}"

    def to_json(self) -> dict:
        return {"rule": self.rule, "text": self.text, "dice": list(self.dice), "side": self.side}


class Log:
    """Append-only log; ``copy()`` is O(1) and copies never affect each other."""

    __slots__ = ("_chain", "enabled")

    def __init__(self, enabled: bool = True):
        self._chain = Chain()
        self.enabled = enabled

    def add(self, rule: str, text: str, dice: tuple = (), side: str = "") -> None:
        if self.enabled:
            self._chain.append(LogEntry(rule, text, dice, side))

    def __len__(self) -> int:
        return len(self._chain)

    def entries(self) -> list[LogEntry]:
        return self._chain.to_list()

    def tail(self, n: int) -> list[LogEntry]:
        return self._chain.tail(n)

    def __iter__(self):
        return iter(self.entries())

    def __getitem__(self, index):
        return self.entries()[index]

    def copy(self) -> Log:
        c = Log.__new__(Log)
        c._chain, c.enabled = self._chain.copy(), self.enabled
        return c

    def to_json(self) -> list[dict]:
        return [e.to_json() for e in self.entries()]

    @staticmethod
    def from_json(data: list[dict], enabled: bool = True) -> Log:
        log = Log(enabled)
        for e in data:
            log.add(e.get("rule", ""), e.get("text", ""), tuple(e.get("dice", ())),
                    e.get("side", ""))
        return log
