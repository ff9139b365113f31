"""Actions: small hashable values with a text notation.

An action is a verb and a few arguments (unit names, area ids, numbers).
Its notation is the words joined by spaces (``flush II-1``, ``psp 3``), the
way chess has SAN; ``Action.parse`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from djebel.core.errors import IllegalAction, brief

MAX_TEXT = 200          # characters of an action's notation, as typed and as stored
MAX_NUMBER = 10**4      # size of a number in an action (positions are cm, counts small):
                        # written with two decimals at most, it fits the 6 digits of str()


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
        """Read an action from its notation; numbers become ints or floats.

        Its text is bounded and its numbers finite and of sensible size, so that what is
        stored (``str`` of the action, numbers written canonically) stays short."""
        if len(text) > MAX_TEXT:
            raise IllegalAction("notation", f"an action is at most {MAX_TEXT} characters, "
                                            f"this one has {len(text)}")
        words = text.split()
        if not words:
            raise IllegalAction("notation", "empty action")
        return Action(words[0], tuple(_value(w) for w in words[1:]))


def _word(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _value(word: str) -> object:
    number: int | float
    try:
        number = int(word)
    except ValueError:
        try:
            number = float(word)
        except ValueError:
            return word
    if not abs(number) <= MAX_NUMBER:                    # NaN fails this too
        raise IllegalAction("notation", f"number {brief(word, 24)} is out of range "
                                        f"(-{MAX_NUMBER} to {MAX_NUMBER})")
    return number
