"""Plain game-state records: elements and casualty markers.

Each record copies itself field by field (no deepcopy): a game clone copies
a few dozen small objects and shares everything immutable.
"""

from __future__ import annotations

from djebel.skirmish.catalog import ElementType, catalog
from djebel.skirmish.geometry import Body

PERSISTENT = ("id", "label", "side", "type", "x", "y", "facing", "sp", "pinned", "overwatch",
              "embarked_in", "airborne", "immobilized", "engine_damaged", "optics",
              "weapons_ko", "damage_types", "markers", "one_shot_used", "off_table",
              "removed", "exit_edge", "forced_down", "sorties_used", "available_turn",
              "max_sorties", "blundered_turn",
              # per-phase counters (D1)
              "activated", "k", "reacted")


class Element:
    """One element on (or off) the table, with the persistent state of spec section 0."""

    __slots__ = PERSISTENT + ("t",)

    def __init__(self, id: int, label: str, side: str, type: str, x: float = 0.0,
                 y: float = 0.0, facing: float = 0.0) -> None:
        self.id = id
        self.label = label
        self.side = side
        self.type = type
        self.t: ElementType = catalog()[type]        # the type's row (a type never changes)
        self.x = x
        self.y = y
        self.facing = facing
        self.sp = self.t.strength
        self.pinned = False
        self.overwatch = False
        self.embarked_in = -1
        self.airborne = False
        self.immobilized = False
        self.engine_damaged = False
        self.optics = False
        self.weapons_ko = 0
        self.damage_types: tuple[str, ...] = ()
        self.markers = 0
        self.one_shot_used = False
        self.off_table = False
        self.removed = ""
        self.exit_edge = ""
        self.forced_down = False
        self.sorties_used = 0
        self.available_turn = 1
        self.max_sorties = 0
        self.blundered_turn = 0
        self.activated = False
        self.k = 0
        self.reacted = False

    @property
    def on_table(self) -> bool:
        """Present on the table and able to see and be seen (not embarked, off or removed)."""
        return not self.removed and not self.off_table and self.embarked_in < 0

    @property
    def ground(self) -> bool:
        """A ground object for contact, LOS and movement (landed helicopters included)."""
        return self.on_table and not self.airborne

    @property
    def body(self) -> Body:
        t = self.t
        return Body(self.x, self.y, self.facing, t.base_w_cm, t.base_d_cm, self.airborne)

    def ap_dice(self) -> int:
        """R71/D39 for infantry; vehicles lose their AP weapon to a KO (D46)."""
        t = self.t
        if t.is_infantry:
            return t.ap_fp_by_sp[self.sp - 1] if self.sp > 0 else 0
        weapons = self.weapons()
        if "ap" in weapons[: self.weapons_ko]:
            return 0
        return t.ap_fp

    def at_dice(self) -> int:
        t = self.t
        if t.is_infantry:
            return t.at_fp
        if "at" in self.weapons()[: self.weapons_ko]:
            return 0
        return t.at_fp

    def weapons(self) -> list[str]:
        """D46: the AT weapon is the main gun and goes first, then the AP weapon."""
        t = self.t
        out = []
        if t.at_fp > 0:
            out.append("at")
        if t.ap_fp > 0:
            out.append("ap")
        return out

    def copy(self) -> Element:  # replaced below by a generated field-by-field copy
        e = Element.__new__(Element)
        for name in PERSISTENT + ("t",):
            setattr(e, name, getattr(self, name))
        return e

    def to_json(self) -> dict:
        d = {name: getattr(self, name) for name in PERSISTENT}
        d["damage_types"] = list(self.damage_types)
        return d

    @staticmethod
    def from_json(d: dict) -> Element:
        e = Element.__new__(Element)
        for name in PERSISTENT:
            setattr(e, name, d[name])
        e.t = catalog()[e.type]
        e.damage_types = tuple(d["damage_types"])
        return e


def _fast_copy():
    """Write Element.copy out field by field (about three times faster than a loop)."""
    lines = ["def copy(self):", "    e = _new(Element)"]
    lines += [f"    e.{n} = self.{n}" for n in PERSISTENT + ("t",)]
    lines.append("    return e")
    scope = {"_new": object.__new__, "Element": Element}
    exec("\n".join(lines), scope)  # noqa: S102 - generated from the field list above
    Element.copy = scope["copy"]


_fast_copy()


class Marker:
    """A casualty marker (D73): on the table, carried, or evacuated."""

    __slots__ = ("id", "x", "y", "carried_by", "evacuated")

    def __init__(self, id: int, x: float, y: float) -> None:
        self.id = id
        self.x = x
        self.y = y
        self.carried_by = -1
        self.evacuated = False

    @property
    def label(self) -> str:
        return f"C{self.id + 1}"

    @property
    def on_table(self) -> bool:
        return self.carried_by < 0 and not self.evacuated

    def copy(self) -> Marker:
        m = Marker.__new__(Marker)
        m.id, m.x, m.y, m.carried_by, m.evacuated = (self.id, self.x, self.y, self.carried_by,
                                                       self.evacuated)
        return m

    def to_json(self) -> list:
        return [self.id, self.x, self.y, self.carried_by, self.evacuated]

    @staticmethod
    def from_json(d: list) -> Marker:
        m = Marker(d[0], d[1], d[2])
        m.carried_by, m.evacuated = d[3], d[4]
        return m
