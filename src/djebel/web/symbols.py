"""The APP-6 symbol of each counter: the table in data/symbols.toml, checked once.

The page draws the symbols (static/symbols.js); this module only says which symbol each
Algeria unit type and skirmish catalog element gets, so the mapping lives in one data file
with a reason for each choice."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

from djebel.core.errors import ScenarioError

FUNCTIONS = ("infantry", "armour", "mechanized", "armoured_recon", "airborne", "air_assault",
             "marines", "police", "guerrilla", "antitank", "air_defence", "vehicle",
             "rotary_wing", "fixed_wing")
ECHELONS = ("", "team", "squad", "section", "company", "battalion", "regiment", "brigade",
            "division")
MOBILITY = ("", "wheeled", "tracked", "amphibious")
FIELDS = {"function", "echelon", "mobility", "hq", "letter"}
FILE = "symbols.toml"


def parse(data: dict, name: str = FILE) -> dict[str, dict[str, dict]]:
    """Check the table; each error names the file, the row and the field."""
    out: dict[str, dict[str, dict]] = {}
    for game in ("algeria", "skirmish"):
        rows = data.get(game)
        if not isinstance(rows, dict):
            raise ScenarioError(f"{name}: no [{game}.*] rows")
        out[game] = {}
        for key, row in rows.items():
            where = f"{name}: [{game}.{key}]"
            extra = set(row) - FIELDS
            if extra:
                raise ScenarioError(f"{where}: unknown field {sorted(extra)[0]!r}")
            fn = row.get("function")
            if fn not in FUNCTIONS:
                raise ScenarioError(f"{where}: function {fn!r} is not one of {FUNCTIONS}")
            ech = row.get("echelon", "")
            if ech not in ECHELONS:
                raise ScenarioError(f"{where}: echelon {ech!r} is not one of {ECHELONS}")
            mob = row.get("mobility", "")
            if mob not in MOBILITY:
                raise ScenarioError(f"{where}: mobility {mob!r} is not one of {MOBILITY}")
            letter = row.get("letter", "")
            if not isinstance(letter, str) or len(letter) > 2:
                raise ScenarioError(f"{where}: letter must be at most two characters")
            out[game][key] = {"fn": fn, "echelon": ech, "mobility": mob,
                              "hq": bool(row.get("hq", False)), "letter": letter}
    return out


@lru_cache(maxsize=1)
def table() -> dict[str, dict[str, dict]]:
    """The shipped table, with every unit type and catalog element in it."""
    from djebel.algeria.board import TYPE_KEYS
    from djebel.skirmish.catalog import catalog

    text = resources.files("djebel.web").joinpath("data", FILE).read_text()
    try:
        out = parse(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{FILE}: {exc}") from None
    for game, keys in (("algeria", TYPE_KEYS), ("skirmish", tuple(catalog()))):
        missing = [k for k in keys if k not in out[game]]
        if missing:
            raise ScenarioError(f"{FILE}: no symbol for {game} {missing[0]!r}")
    return out


def symbol(game: str, key: str) -> dict:
    """The symbol of one unit type or element; an element added to the catalog without a
    row gets a plain infantry or vehicle symbol rather than none."""
    hit = table()[game].get(key)
    if hit is not None:
        return hit
    return {"fn": "infantry", "echelon": "", "mobility": "", "hq": False, "letter": "?"}
