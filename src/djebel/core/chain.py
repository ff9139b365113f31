"""A persistent append-only list: O(1) append, O(1) copy, shared tails.

Games keep their action history in one, so ``clone()`` never copies it.
"""

from __future__ import annotations


class Chain:
    __slots__ = ("_head", "_len")

    def __init__(self, items=()):
        self._head: tuple | None = None
        self._len = 0
        for item in items:
            self.append(item)

    def append(self, item) -> None:
        self._head = (item, self._head)
        self._len += 1

    def __len__(self) -> int:
        return self._len

    def to_list(self) -> list:
        return unlink(self._head)

    def tail(self, n: int) -> list:
        """The last ``n`` items, oldest first."""
        out = []
        node = self._head
        while node is not None and len(out) < n:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def back(self, k: int):
        """The item ``k`` places before the last (0: the last), without copying."""
        node = self._head
        for _ in range(k):
            node = node[1]
        return node[0]

    def extends(self, other: Chain) -> bool:
        """True when this chain is ``other`` with items appended since it was copied
        (the very same nodes: a history rebuilt after an undo is not)."""
        return self.since(other) is not None

    def since(self, other: Chain) -> list | None:
        """The items appended since ``other`` was copied from this chain, oldest first;
        None when this chain does not extend ``other`` (see ``extends``)."""
        extra = self._len - other._len
        if extra < 0:
            return None
        out = []
        node = self._head
        for _ in range(extra):
            out.append(node[0])
            node = node[1]
        if node is not other._head:
            return None
        out.reverse()
        return out

    def copy(self) -> Chain:
        c = Chain.__new__(Chain)
        c._head, c._len = self._head, self._len
        return c


def unlink(node: tuple | None) -> list:
    """The items of a linked list of ``(item, older)`` pairs, oldest first."""
    out = []
    while node is not None:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out
