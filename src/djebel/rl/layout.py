"""The layout of an observation vector: named fields of fixed size, one after another."""

from __future__ import annotations


def offsets(fields: tuple[tuple[str, int], ...]) -> tuple[dict[str, int], int]:
    """Where each field starts, and the length of the whole vector."""
    out: dict[str, int] = {}
    at = 0
    for name, size in fields:
        out[name] = at
        at += size
    return out, at
