"""Fire combat (spec 1.8, 1.9, Appendix C.2/C.3): legality, to-hit, AP saves, pins.

Functions take the game (``g``) and mutate its state through it; every die is
drawn from ``g.dice`` and logged with the rule that rolled it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from djebel.core.errors import IllegalAction
from djebel.skirmish.geometry import aspect, distance, fire_situation, in_arc
from djebel.skirmish.rules import damage
from djebel.skirmish.rules.damage import pin_test
from djebel.skirmish.state import Element

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

CONC_NAMES = ("open", "obscured", "heavy obscured")
COVER_NAMES = ("open", "light", "heavy")


def category(target: Element) -> str:
    """R58/D27: infantry are AP targets, vehicles and aircraft AT targets."""
    return "ap" if target.t.is_infantry else "at"


def check_attack(g: SkirmishGame, f: Element, t: Element, *, law: bool = False, arc: bool = True,
                 reaction_target: int | None = None, charge: bool = False) -> tuple | None:
    """Raise IllegalAction unless ``f`` may attack ``t`` now; returns the fire situation."""
    cat = category(t)
    if t.side == f.side:
        raise IllegalAction("R60", f"{t.label} is not an enemy element")
    if not t.on_table:
        raise IllegalAction("R60", f"{t.label} is not on the table")
    if not f.on_table:
        raise IllegalAction("R140", f"{f.label} is not on the table")
    if reaction_target is not None and t.id != reaction_target:
        raise IllegalAction("R30", "reaction fire may only target the element that acted")
    if f.airborne and t.airborne:
        raise IllegalAction("R125", "no air-to-air combat")
    if cat == "ap":
        if f.ap_dice() <= 0:
            raise IllegalAction("R57", f"{f.label} has no AP firepower")
    else:
        ft = f.t
        if law:
            if ft.one_shot_uses <= 0 or f.one_shot_used:
                raise IllegalAction("R78", f"{f.label} has no one-shot AT volley left")
            allowed = ft.one_shot_only_vs_armour
        else:
            if f.at_dice() <= 0:
                raise IllegalAction("R57", f"{f.label} has no AT firepower")
            allowed = ft.at_only_vs_armour
        if allowed and t.t.armour_save not in allowed:
            raise IllegalAction("R76", f"{f.label}'s AT dice may only fire at armour "
                                f"{'/'.join(map(str, allowed))}")
        if ft.at_vs_aircraft_only and not (t.t.is_aircraft and t.airborne) and not law:
            raise IllegalAction("D43", f"{f.label}'s AT dice fire only at airborne aircraft")
    if f.side == "french" and g.in_fight(t.id) and not charge:
        raise IllegalAction("R122", "French elements may not fire into close combat")
    if not g.sees(f, t):
        raise IllegalAction("R147", f"{f.label} has no line of sight to {t.label}")
    if arc and not in_arc(f.body, t.body):
        raise IllegalAction("R60", f"{t.label} is outside {f.label}'s forward 180 degrees")
    max_range = g.opt("max_range_cm")
    if max_range and distance(f.body, t.body) > max_range:
        raise IllegalAction("D32", "target beyond the scenario's maximum range")
    if cat == "ap" and f.t.hard_target_only_ap:
        sit = situation(g, f, t)
        if not sit[2]:
            raise IllegalAction("R75", f"{f.label}'s AP dice fire only at a hard target "
                                "(wall, bldg)")
        return sit
    return None


def situation(g: SkirmishGame, f: Element, t: Element) -> tuple[int, int, bool]:
    """D34: concealment, cover and hardness of the best clear line from f to t."""
    cat = category(t)
    blast = cat == "ap" and f.t.blast_ap and g.opt("blast_vs_buildings")
    tk = "infantry" if t.t.is_infantry else "vehicle"
    sit = fire_situation(g.terrain, f.body, t.body, tk, blast)
    if sit is None:
        raise IllegalAction("R147", f"{f.label} has no line of sight to {t.label}")
    return sit


def to_hit_needed(g: SkirmishGame, f: Element, t: Element, conc: int, cat: str,
                  moving: bool) -> int:
    """R62-R67 / D24: base by concealment, modifiers, clamped to 2..6."""
    th = g.tabs["to_hit"]
    needed = (th["open"], th["obscured"], th["heavy_obscured"])[conc]
    if not t.t.is_aircraft and aspect(t.body, f.body) != "front":
        needed += th["flank_or_rear"]                      # R63, D29.2
    if distance(f.body, t.body) <= th["close_range_cm"][cat] + 1e-9:
        needed += th["close_range"]                        # R64, D30
    if moving:
        needed += th["move_and_shoot"]                     # R65
    if f.optics:
        needed += th["optics_destroyed"]                   # R66, D42
    return max(th["min_needed"], min(th["max_needed"], needed))


def attack(g: SkirmishGame, f: Element, t: Element, *, moving: bool, law: bool = False,
           arc: bool = True,
           reaction_target: int | None = None, dice_override: int | None = None,
           sit: tuple | None = None, charge: bool = False) -> int:
    """Resolve one AP or AT attack (C.2 / C.3); returns the number of hits."""
    if sit is None:
        sit = check_attack(g, f, t, law=law, arc=arc, reaction_target=reaction_target,
                           charge=charge)
    if sit is None:
        sit = situation(g, f, t)
    conc, cover, hard = sit
    cat = category(t)
    needed = to_hit_needed(g, f, t, conc, cat, moving)
    if dice_override is not None:
        n = dice_override
    elif cat == "ap":
        n = f.ap_dice()
    else:
        n = f.t.one_shot_fp if law else f.at_dice()
    if law:
        f.one_shot_used = True                             # R78 marked even if it misses
    rolls = g.roll(n)
    hits = sum(1 for r in rolls if r >= needed)
    g.last_fire = (f.id, t.id)
    g.log.add("R62", f"{f.label} fires {n} {cat.upper()}{' (AT-4 volley)' if law else ''} "
              f"dice at {t.label} ({CONC_NAMES[conc]}, need {needed}+): {hits} hit(s)",
              dice=rolls, side=f.side)
    collateral = f.side == "french" and t.side == "insurgents" and g.opt("civilian_rules")
    trigger = g.opt("collateral_trigger") or g.tabs["civilians"]["collateral_trigger"]
    if hits == 0:
        if collateral:
            g.collateral(f, t, n)                          # R155, D77 (either trigger)
        return 0
    fight = None if charge else g.fight_of(t.id)
    if fight and f.side == "insurgents":
        _split_into_fight(g, f, t, hits, cat, fight)       # R122, D56
        return hits
    unsaved = apply_hits(g, f, t, hits, cat, cover, hard)
    if unsaved == 0 and collateral and trigger == "no_unsaved_hits":
        g.collateral(f, t, n)                              # D77 option
    return hits


def apply_hits(g: SkirmishGame, f: Element | None, t: Element, hits: int, cat: str, cover: int,
               hard: bool, weapon_mod: bool = True, top: bool | None = None) -> int:
    """Saves and their consequences for ``hits`` on ``t``; returns unsaved hits."""
    if cat == "ap":
        need = ap_save_needed(g, f, t, cover, hard, weapon_mod)
        unsaved = roll_saves(g, t, hits, need, "R68")
        if unsaved:
            infantry_losses(g, t, unsaved, "R70")
        return unsaved
    need = armour_needed(g, f, t, top)
    unsaved = roll_saves(g, t, hits, need, "R87")
    if unsaved:
        damage.damage_roll(g, t, unsaved)
    else:
        g.log.add("R90", f"{t.label}: every hit saved, no effect")
    return unsaved


def ap_save_needed(g: SkirmishGame, f: Element | None, t: Element, cover: int, hard: bool,
                   weapon_mod: bool = True) -> int:
    """R68/R69/D25: side column by cover, +1 for an 'AP -1 to save' weapon; 0 = none."""
    col = g.tabs["ap_save"]["french" if t.side == "french" else "insurgent"]
    need = col[("open", "light", "heavy")[cover]]
    if need == 0:
        return 0
    if weapon_mod and f is not None and f.t.ap_save_modifier and (
            not f.t.ap_save_modifier_vs_hard_only or hard):
        need -= f.t.ap_save_modifier
    return need if need <= 6 else 0


def armour_needed(g: SkirmishGame, f: Element | None, t: Element, top: bool | None = None) -> int:
    """R87-R89/D29: armour plus the worst aspect penalty; aircraft ignore aspect."""
    need = t.t.armour_save
    if t.t.is_aircraft or f is None:
        return need if need <= 6 else 0
    asp = g.tabs["armour_aspect"]
    pen = asp[aspect(t.body, f.body)]
    if top if top is not None else f.airborne:
        pen = max(pen, asp["top"])
    need += pen
    return need if need <= 6 else 0


def roll_saves(g: SkirmishGame, t: Element, hits: int, need: int, rule: str) -> int:
    if need == 0:
        g.log.add(rule, f"{t.label} has no save against {hits} hit(s)")
        return hits
    rolls = g.roll(hits)
    saved = sum(1 for r in rolls if r >= need and r != 1)
    g.log.add(rule, f"{t.label} saves on {need}+: {saved} of {hits} saved", dice=rolls)
    return hits - saved


def infantry_losses(g: SkirmishGame, t: Element, unsaved: int, rule: str, pin: bool = True) -> None:
    """R70/D40: lose SP (overkill lost), eliminate at 0, else pin test (R72)."""
    t.sp = max(0, t.sp - unsaved)
    g.log.add(rule, f"{t.label} loses {unsaved} SP ({t.sp} left)")
    if t.sp == 0:
        g.remove(t, "eliminated")
    elif pin:
        pin_test(g, t, unsaved)


def _split_into_fight(g: SkirmishGame, f: Element, t: Element, hits: int, cat: str,
                      fight: set) -> None:
    """D56: hits shared half and half between the two sides of the fight."""
    own, other = hits // 2, hits // 2
    if hits % 2:
        r = g.roll(1)
        if r[0] <= 3:
            own += 1
        else:
            other += 1
        g.log.add("D56", "odd hit into the fight", dice=r)
    for side, n in ((f.side, own), (t.side, other)):
        members = sorted((g.elements[i] for i in fight if g.elements[i].side == side
                          and category(g.elements[i]) == cat), key=lambda e: e.id)
        if not members or n == 0:
            continue
        share = split_evenly(n, members)
        for e, k in share:
            if k and not e.removed:
                tk = "infantry" if e.t.is_infantry else "vehicle"
                sit = fire_situation(g.terrain, f.body, e.body, tk, False) or (0, 0, False)
                apply_hits(g, f, e, k, cat, sit[1], sit[2])


def split_evenly(hits: int, members: list[Element]) -> list[tuple[Element, int]]:
    """D54: floor share each; the remainder one each, elements that would die first."""
    n = len(members)
    base, rem = divmod(hits, n)
    share = {e.id: base for e in members}

    def killable(e: Element) -> int:
        return 0 if e.t.is_infantry and e.sp <= base + 1 else 1

    for e in sorted(members, key=lambda e: (killable(e), e.id))[:rem]:
        share[e.id] += 1
    return [(e, share[e.id]) for e in members]
