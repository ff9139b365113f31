"""Vehicle and aircraft damage (spec 1.10, C.3 steps 4-8): charts, markers, pins, bail."""

from __future__ import annotations

from typing import TYPE_CHECKING

from djebel.skirmish.catalog import damage_result
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

DAMAGE_TYPE = {
    "optics_destroyed": "optics",
    "engine_damage": "engine",
    "immobilized": "immobilized",
    "main_armament_ko": "main_armament",
    "forced_to_land_passengers_hit": "immobilized",     # D47: forced landing = immobilized
}


def damage_roll(g: SkirmishGame, v: Element, unsaved: int) -> str:
    """R91: 1D6 + (unsaved - 1) read on the vehicle's chart, then R107's steps."""
    r = g.roll(1)
    total = r[0] + (unsaved - 1) * g.tabs["damage_roll"]["extra_per_unsaved_hit_after_first"]
    result = damage_result(v.t.damage_chart, total)
    g.log.add("R91", f"{v.label} damage roll {r[0]}+{unsaved - 1}={total} on the "
              f"{v.t.damage_chart} chart: {result.replace('_', ' ')}", dice=r)
    apply_result(g, v, result, unsaved)
    return result


def apply_result(g: SkirmishGame, v: Element, result: str, unsaved: int) -> None:
    """Effect, repeat marker, pin test, bail test (R107/D47)."""
    if result == "pinned":
        g.pin(v)                                           # R96: no test
        return
    if result == "destroyed_passengers_hit":
        g.destroy_vehicle(v, passengers_killed=False)      # R93-R95, D50
        return
    if result == "destroyed_all_killed":
        g.destroy_vehicle(v, passengers_killed=True)       # R103, D52
        return
    dtype = DAMAGE_TYPE[result]
    if dtype in v.damage_types:
        v.markers += 1                                     # R105
        g.log.add("R105", f"{v.label} suffers {dtype} damage again: damage marker "
                  f"({v.markers})")
    else:
        v.damage_types = v.damage_types + (dtype,)
    if dtype == "optics":
        v.optics = True                                    # R97
    elif dtype == "engine":
        v.engine_damaged = True                            # R98
    elif dtype == "main_armament":
        if v.weapons_ko < len(v.weapons()):
            v.weapons_ko += 1                              # R100, D46
    elif result == "forced_to_land_passengers_hit":
        if not g.force_landing(v):                         # R101, D48
            return
    elif dtype == "immobilized":
        v.immobilized = True                               # R99
    pin_test(g, v, unsaved, "R104")                        # R104
    if dtype in ("immobilized", "main_armament") and not v.removed:
        r = g.roll(1)                                      # R106 bail test
        bails = r[0] < g.tabs["bail_test"]["pass_on"]
        g.log.add("R106", f"{v.label} bail test: {'crew BAILS' if bails else 'crew stays'}",
                  dice=r)
        if bails:
            g.abandon(v)


def pin_test(g: SkirmishGame, t: Element, n: int, rule: str = "R72") -> None:
    """R72/R104/D41: 1D6 per unsaved hit, each needs 4+; one failure pins."""
    if t.removed or t.pinned or n <= 0:
        return
    need = g.tabs["pin_test"]["pass_on"]
    rolls = g.roll(n)
    failed = any(r < need for r in rolls)
    g.log.add(rule, f"{t.label} pin test ({n} dice, {need}+): "
              f"{'PINNED' if failed else 'passed'}", dice=rolls)
    if failed:
        g.pin(t)
