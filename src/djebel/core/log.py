"""The game log: what happened, each die rolled and the rule that applied.

Stored as a persistent linked list, so cloning a game shares the history
instead of copying it (tree search clones thousands of times a second).
"""

from __future__ import annotations

from typing import NamedTuple


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

    __slots__ = ("_head", "_len", "enabled")

    def __init__(self, enabled: bool = True):
        self._head: tuple | None = None
        self._len = 0
        self.enabled = enabled

    def add(self, rule: str, text: str, dice: tuple = (), side: str = "") -> None:
        if self.enabled:
            self._head = (LogEntry(rule, text, dice, side), self._head)
            self._len += 1

    def __len__(self) -> int:
        return self._len

    def entries(self) -> list[LogEntry]:
        out = []
        node = self._head
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def tail(self, n: int) -> list[LogEntry]:
        out = []
        node = self._head
        while node is not None and len(out) < n:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def __iter__(self):
        return iter(self.entries())

    def __getitem__(self, index):
        return self.entries()[index]

    def copy(self) -> Log:
        c = Log.__new__(Log)
        c._head, c._len, c.enabled = self._head, self._len, self.enabled
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
