"""The map and the counter mix as fast lookup tables.

Areas and units are small integers, so the game state is a few flat lists
that copy in microseconds. Area 0 is France, 1 Tunisia, 2 Morocco, 3..27 the
25 Algerian areas; units are numbered by type in counter-mix order and named
``<type><n>`` (``fr_xx1``, ``band12``).
"""

from __future__ import annotations

from djebel.algeria.tables import field, load
from djebel.core.errors import ScenarioError

# Boxes (2.2).
UG, OPS, OC, PTL = 0, 1, 2, 3
BOX_NAMES = ("UG", "OPS", "OC", "PTL")

# Off-map locations of a unit (negative so they never clash with an area index).
POOL = -1        # available: to mobilize (Government) or to build/convert into (FLN)
NATO = -2        # taken off by event 55-56; back in the pool next turn
SUEZ = -3        # taken off by event 61-62; returns next turn to the area it left
REMOVED = -4     # removed from the game for good (coup, 11.4)

# Unit flags.
NEUT = 1         # neutralized (2.3-3)
AIRMOBILE = 2    # airmobilized this turn (11.12)
DISPERSED = 4    # division in Dispersed mode (11.7)
ACTIVE = 8       # Government: activated or newly mobilized this turn (6.32)
DEPLOYED = 16    # deployed this Deployment Phase (7-1)
MODE_SET = 32    # division mode changed this Deployment Phase

# Area ratings.
URBAN, RURAL, REMOTE, COUNTRY = "urban", "rural", "remote", "country"

_MAP = load("map")
AREA_IDS: tuple[str, ...] = tuple(field(a, "id", "map", str) for a in _MAP["area"])
AREA_NAMES: tuple[str, ...] = tuple(a["name"] for a in _MAP["area"])
AREA_WILAYA: tuple[str, ...] = tuple(a["wilaya"] for a in _MAP["area"])
AREA_RATING: tuple[str, ...] = tuple(a["rating"] for a in _MAP["area"])
AREA_INDEX: dict[str, int] = {a: i for i, a in enumerate(AREA_IDS)}
FRANCE, TUNISIA, MOROCCO = AREA_INDEX["FRANCE"], AREA_INDEX["TUNISIA"], AREA_INDEX["MOROCCO"]
COUNTRIES = (TUNISIA, MOROCCO)
ALGERIA: tuple[int, ...] = tuple(i for i, r in enumerate(AREA_RATING) if r != COUNTRY)
WILAYAS: tuple[str, ...] = tuple(_MAP["wilayas"])
WILAYA_AREAS: dict[str, tuple[int, ...]] = {
    w: tuple(i for i in range(len(AREA_IDS)) if AREA_WILAYA[i] == w)
    for w in (*WILAYAS, "MOROCCO", "TUNISIA")
}
NUM_AREAS = len(AREA_IDS)

_PAIRS = [(AREA_INDEX[a], AREA_INDEX[b]) for a, b in _MAP["adjacency"]["pairs"]]
ADJACENT: dict[int, frozenset[int]] = {
    i: frozenset({b for a, b in _PAIRS if a == i} | {a for a, b in _PAIRS if b == i})
    for i in range(NUM_AREAS)
}


def _move_targets(area: int) -> tuple[int, ...]:
    """9.13: any other area of the wilaya, or an area of another wilaya (or country)
    adjacent to some area of this wilaya."""
    own = WILAYA_AREAS[AREA_WILAYA[area]]
    out = [a for a in own if a != area]
    for a in own:
        for b in sorted(ADJACENT[a]):
            if b not in own and b not in out:
                out.append(b)
    return tuple(out)


MOVE_TARGETS: dict[int, tuple[int, ...]] = {
    a: _move_targets(a) for a in range(NUM_AREAS) if a != FRANCE
}

# Counter mix (C.7).
_UNITS = load("c7_units")
UNIT_TYPES: tuple[dict, ...] = tuple(_UNITS["unit"])
TYPE_KEYS: tuple[str, ...] = tuple(t["key"] for t in UNIT_TYPES)
TYPE_INDEX = {k: i for i, k in enumerate(TYPE_KEYS)}
FR_XX, FR_X, EL_X, AL_X, POLICE = (TYPE_INDEX[k] for k in ("fr_xx", "fr_x", "el_x", "al_x",
                                                           "police"))
FAILEK, BAND, CADRE, FRONT = (TYPE_INDEX[k] for k in ("failek", "band", "cadre", "front"))
AIRMOBILE_BONUS: int = _UNITS["airmobile"]["contact_bonus"]

UTYPE: tuple[int, ...] = tuple(t for t, spec in enumerate(UNIT_TYPES)
                               for _ in range(spec["count"]))
NUM_UNITS = len(UTYPE)
UNIT_NAMES: tuple[str, ...] = tuple(
    f"{TYPE_KEYS[t]}{UTYPE[:u + 1].count(t)}" for u, t in enumerate(UTYPE))
UNIT_INDEX = {n: u for u, n in enumerate(UNIT_NAMES)}
TYPE_UNITS: dict[int, tuple[int, ...]] = {
    t: tuple(u for u in range(NUM_UNITS) if UTYPE[u] == t) for t in range(len(TYPE_KEYS))}
GOV_UNITS = tuple(u for u in range(NUM_UNITS) if UNIT_TYPES[UTYPE[u]]["side"] == "gov")
FLN_UNITS = tuple(u for u in range(NUM_UNITS) if UNIT_TYPES[UTYPE[u]]["side"] == "fln")


def _side_slice(units: tuple[int, ...]) -> slice:
    """The units of one side as a slice of the per-unit state lists (one pass per side)."""
    if units != tuple(range(units[0], units[-1] + 1)):
        raise ScenarioError("c7_units.toml: list each side's unit types together")
    return slice(units[0], units[-1] + 1)


GOV_SLICE, FLN_SLICE = _side_slice(GOV_UNITS), _side_slice(FLN_UNITS)
GOV_MOBILE_TYPES = frozenset({FR_XX, FR_X, EL_X, AL_X})
FRENCH_MOBILE_TYPES = frozenset({FR_XX, FR_X, EL_X})
FLN_MOBILE_TYPES = frozenset({FAILEK, BAND, CADRE})
BRIGADE_TYPES = frozenset({FR_X, EL_X, AL_X})
IS_ELITE: tuple[bool, ...] = tuple(bool(UNIT_TYPES[t].get("elite")) for t in UTYPE)
TYPE_SIDE: tuple[str, ...] = tuple(t["side"] for t in UNIT_TYPES)


ALGERIA_SET: frozenset[int] = frozenset(ALGERIA)   # the 25 Algerian areas
FLN_MOBILE_UNITS = tuple(u for u in FLN_UNITS if UTYPE[u] in FLN_MOBILE_TYPES)
GOV_MOBILE_UNITS = tuple(u for u in GOV_UNITS if UTYPE[u] in GOV_MOBILE_TYPES)


def is_algerian(area: int) -> bool:
    return area in ALGERIA_SET


def area_arg(name: object) -> int | None:
    """The area index for an action argument, or None."""
    return AREA_INDEX.get(str(name).upper()) if name is not None else None


def unit_arg(name: object) -> int | None:
    """The unit index for an action argument, or None."""
    return UNIT_INDEX.get(str(name))
