"""Bounded memos: module-level caches that empty themselves rather than grow forever."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict that is cleared, whole, when a store finds it over ``limit`` entries.

    Clearing all at once keeps a lookup a plain dict lookup (no recency to keep up);
    the memos hold answers that are cheap to work out again."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def store(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` and return it."""
        if len(self) > self.limit:
            self.clear()
        self[key] = value
        return value
