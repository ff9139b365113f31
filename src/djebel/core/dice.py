"""Seeded, scriptable dice whose whole state is a few ints and two tuples.

Two generators, chosen by the seed:

- a seed of 64 bits or fewer (tests, studies, tree search) drives SplitMix64: one
  64-bit integer of state, fast, so a game state can be cloned or saved cheaply;
- a longer seed, as every secret seed is (``secret_seed``), is the key of BLAKE2b over
  a counter. SplitMix64 is not made to hide its state and might in principle be worked
  back from enough faces; a keyed hash shows nothing of the next face however many
  have been seen. So the dice of a game whose seed is secret cannot be foreseen.

Rolls may also be scripted (a fixed sequence) for tests, bug reports, puzzles and
records that carry the dice already rolled instead of their seed; once the script runs
out, rolls come from the seed again.

Every face drawn is kept (``rolled()``), so a game in progress can be recorded
by what its dice showed without giving away the seed, that is, its future. The
dice serve the game only: bots and tie-breaks draw from their own generators.
"""

from __future__ import annotations

import secrets
from hashlib import blake2b

from djebel.core.chain import unlink
from djebel.core.errors import ScenarioError

_MASK = (1 << 64) - 1


SECRET_BITS = 128


def secret_seed() -> int:
    """A fresh 128-bit seed from the operating system (so a key of BLAKE2b): too many
    to try them all, and the faces it shows tell nothing of the next."""
    return secrets.randbits(SECRET_BITS - 1) | 1 << (SECRET_BITS - 1)


def _key(seed: int) -> bytes | None:
    """The BLAKE2b key of a seed longer than 64 bits (at most 512), else None."""
    if seed >> 64 == 0:
        return None
    if seed.bit_length() > 512:
        raise ValueError("a dice seed has at most 512 bits")
    return seed.to_bytes((seed.bit_length() + 7) // 8, "little")


class Dice:
    __slots__ = ("state", "script", "pos", "count", "drawn", "key")

    def __init__(self, seed: int = 0, script: tuple[int, ...] = ()):
        self.key = _key(seed)
        self.state = 0 if self.key else seed & _MASK
        self.script = tuple(script)
        self.pos = 0
        self.count = 0
        self.drawn: tuple | None = None    # the faces drawn, newest first: (face, older)

    def _keyed64(self) -> int:
        """The next 64 bits of BLAKE2b keyed by the seed, over a counter."""
        self.state += 1
        return int.from_bytes(blake2b(self.state.to_bytes(8, "little"), digest_size=8,
                                      key=self.key).digest(), "little")

    def die(self, sides: int = 6) -> int:
        """One die, 1..sides (the scripted value if a script is pending)."""
        self.count += 1
        if self.pos < len(self.script):
            value = self.script[self.pos]
            self.pos += 1
            if not 1 <= value <= sides:
                raise ScenarioError(f"field 'dice_script[{self.pos - 1}]': scripted roll "
                                    f"{value} is not a face of the d{sides} rolled")
        elif self.key is None:
            # SplitMix64, written out here (games roll dice all the time).
            self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            value = ((z ^ (z >> 31)) >> 11) * sides // (1 << 53) + 1
        else:
            value = (self._keyed64() >> 11) * sides // (1 << 53) + 1
        self.drawn = (value, self.drawn)
        return value

    def rolled(self) -> list[int]:
        """Every face drawn so far, oldest first."""
        return unlink(self.drawn)

    @property
    def script_left(self) -> int:
        return len(self.script) - self.pos

    def copy(self) -> Dice:
        d = Dice.__new__(Dice)
        d.state, d.script, d.pos, d.count = self.state, self.script, self.pos, self.count
        d.drawn, d.key = self.drawn, self.key
        return d

    def reseed(self, seed: int) -> None:
        """Replace the stream (tree search samples chance this way)."""
        self.key = _key(seed)
        self.state = 0 if self.key else seed & _MASK
        self.script, self.pos = (), 0

    def to_json(self) -> dict:
        out = {"state": self.state, "script": list(self.script), "pos": self.pos,
               "count": self.count, "drawn": self.rolled()}
        if self.key is not None:
            out["key"] = self.key.hex()
        return out

    def hash_json(self) -> dict:
        """What a state hash covers: how many dice were drawn, not the stream that
        draws the next ones, so a game rebuilt from the faces already rolled (a record
        without its seed) hashes the same as the game it was recorded from."""
        return {"count": self.count}

    @staticmethod
    def from_json(data: dict) -> Dice:
        d = Dice(int(data["state"]), tuple(int(x) for x in data.get("script", ())))
        if data.get("key"):
            d.key, d.state = bytes.fromhex(data["key"]), int(data["state"])
        d.pos = int(data.get("pos", 0))
        d.count = int(data.get("count", 0))
        for value in data.get("drawn", ()):
            d.drawn = (int(value), d.drawn)
        return d


def check_script(script: object, faces: int = 6, field: str = "dice_script") -> tuple[int, ...]:
    """Scripted dice as given by a user: a list of integers 1..``faces``, the largest die
    the game rolls (each roll then checks its own die's faces)."""
    if not isinstance(script, (list, tuple)):
        raise ScenarioError(f"field '{field}': expected a list of die faces 1..{faces}, "
                            f"found {script!r}")
    for i, value in enumerate(script):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= faces:
            raise ScenarioError(f"field '{field}[{i}]': expected a die face 1..{faces}, "
                                f"found {value!r}")
    return tuple(script)
