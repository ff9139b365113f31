"""Actions: small hashable values with a text notation.

An action is a verb and a few arguments (unit names, area ids, numbers).
Its notation is the words joined by spaces (``flush II-1``, ``psp 3``), the
way chess has SAN; ``Action.parse`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from djebel.core.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Action:
    verb: str
    args: tuple = ()

    def __str__(self) -> str:
        if not self.args:
            return self.verb
        return self.verb + " " + " ".join(_word(a) for a in self.args)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action from its notation; numbers become ints or floats."""
        words = text.split()
        if not words:
            raise IllegalAction("notation", "empty action")
        return Action(words[0], tuple(_value(w) for w in words[1:]))


def _word(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _value(word: str) -> object:
    try:
        return int(word)
    except ValueError:
        pass
    try:
        return float(word)
    except ValueError:
        return word
