"""Exact odds of Insurgent Commander fire (spec 1.8-1.10), computed with icepool.

The numbers come from the skirmish package's own data: the element catalog
(``djebel.skirmish.catalog.catalog``) and the core tables (``tables``).

* AP fire at infantry: to-hit (R62-R67), saves by cover and side (R68/R69), the
  number of unsaved hits, the chance the target is eliminated (R70) or pinned (R72).
* AT fire at a vehicle or aircraft: to-hit, armour saves with aspect (R87-R89),
  the damage roll read on the target's chart (R91-R95), the chance of a pin (R96,
  R104) and of a crew bail-out (R106).

With ``exact=True`` the probabilities are ``fractions.Fraction``.
"""

from __future__ import annotations

from fractions import Fraction

import icepool

from djebel.core.errors import ScenarioError

D6 = icepool.d6
CONCEALMENT = ("open", "obscured", "heavy")
COVER = ("none", "light", "heavy")
DESTROYED = ("destroyed_passengers_hit", "destroyed_all_killed")


def _data():
    from djebel.skirmish.catalog import catalog, damage_result, tables

    return catalog(), tables(), damage_result


def _element(cat: dict, ident: str):
    if ident not in cat:
        raise ScenarioError(f"unknown element {ident!r} (known: {', '.join(cat)})")
    return cat[ident]


def _p(die: icepool.Die, outcome, exact: bool):
    p = Fraction(dict(die.items()).get(outcome, 0), die.denominator())
    return p if exact else float(p)


def _dist(die: icepool.Die, exact: bool) -> dict:
    den = die.denominator()
    probs = {o: Fraction(q, den) for o, q in die.items()}
    zero = Fraction(0)
    out = {str(n): probs.get(n, zero) for n in range(max(probs) + 1)}
    return out if exact else {k: float(v) for k, v in out.items()}


def to_hit_needed(concealment: str, flank: bool, close: bool, moved: bool,
                  optics: bool = False) -> int:
    """R62-R67 / D24: the number needed on each die, clamped to 2..6."""
    if concealment not in CONCEALMENT:
        raise ScenarioError(f"concealment must be one of {', '.join(CONCEALMENT)}")
    th = _data()[1]["to_hit"]
    needed = (th["open"], th["obscured"], th["heavy_obscured"])[CONCEALMENT.index(concealment)]
    if flank:
        needed += th["flank_or_rear"]
    if close:
        needed += th["close_range"]
    if moved:
        needed += th["move_and_shoot"]
    if optics:
        needed += th["optics_destroyed"]
    return max(th["min_needed"], min(th["max_needed"], needed))


def save_die(need: int) -> icepool.Die:
    """One save die: True when saved (R68/R87: the number needed or more, never a 1);
    ``need`` 0 means no save."""
    if need == 0:
        return icepool.Die([False])
    return D6.map(lambda r: r >= need and r != 1)


def unsaved_die(dice: int, to_hit: int, save_need: int) -> icepool.Die:
    """The number of unsaved hits of ``dice`` dice: each hits on ``to_hit``+ and, if it
    hits, is saved by one save die."""
    one = icepool.map(lambda r, saved: int(r >= to_hit and not saved), D6, save_die(save_need))
    return dice @ one if dice else icepool.Die([0])


def pin_die(n: int) -> icepool.Die:
    """R72/R104: True when a test of ``n`` dice (each needing the pass number) pins."""
    if n <= 0:
        return icepool.Die([False])
    need = _data()[1]["pin_test"]["pass_on"]
    fails = n @ D6.map(lambda r: int(r < need))
    return fails.map(lambda k: k > 0)


def _target_side(attacker, target, target_side: str | None) -> str:
    if target_side:
        if target_side not in target.sides:
            raise ScenarioError(f"{target.id} is not fielded by {target_side!r}")
        return target_side
    if len(target.sides) == 1:
        return target.sides[0]
    if len(attacker.sides) == 1:
        return "insurgent" if attacker.sides[0] == "french" else "french"
    return "insurgent"


def ap_save_needed(attacker, target_side: str, cover: str, hard: bool) -> int:
    """R68/R69/D25: the save number by side and cover, worsened by an 'AP -1' weapon."""
    if cover not in COVER:
        raise ScenarioError(f"cover must be one of {', '.join(COVER)}")
    col = _data()[1]["ap_save"]["french" if target_side == "french" else "insurgent"]
    need = col[("open", "light", "heavy")[COVER.index(cover)]]
    if need == 0:
        return 0
    if attacker.ap_save_modifier and (not attacker.ap_save_modifier_vs_hard_only or hard):
        need -= attacker.ap_save_modifier
    return need if need <= 6 else 0


def fire(attacker: str, target: str, concealment: str = "open", cover: str = "none",
         flank: bool = False, close: bool = False, moved: bool = False, *,
         rear: bool = False, top: bool = False, hard: bool = False, law: bool = False,
         sp: int | None = None, target_sp: int | None = None, target_side: str | None = None,
         optics: bool = False, dice: int | None = None, exact: bool = False) -> dict:
    """Odds of one fire of catalog element ``attacker`` at catalog element ``target``.

    AP (infantry target): ``{"kind": "ap", "unsaved_hits": {...}, "pinned": p,
    "eliminated": p, ...}``. AT (vehicle or aircraft): ``{"kind": "at",
    "unsaved_hits": {...}, "damage": {"no_effect": p, "pinned": p, ...}, "pinned": p,
    "crew_bails": p, ...}``. ``flank``/``rear`` say where the firer is relative to the
    target; ``sp``/``target_sp`` default to full strength; ``optics`` is a firer with
    destroyed optics (R66); ``dice`` overrides the firepower (a damaged firer's)."""
    cat, tabs, damage_result = _data()
    f = _element(cat, attacker)
    t = _element(cat, target)
    needed = to_hit_needed(concealment, flank or rear, close, moved, optics)
    base = {"attacker": f.id, "target": t.id, "to_hit": needed}
    if t.is_infantry:
        if f.hard_target_only_ap and not hard:
            raise ScenarioError(f"{f.id}'s AP dice fire only at a hard target (R75): "
                                "add --hard")
        if f.is_infantry:
            s = f.strength if sp is None else sp
            if not 1 <= s <= f.strength:
                raise ScenarioError(f"{f.id} has 1..{f.strength} SP")
            fp = f.ap_fp_by_sp[s - 1]
        else:
            fp = f.ap_fp
        dice = fp if dice is None else dice
        if dice <= 0:
            raise ScenarioError(f"{f.id} has no AP firepower (R57)")
        side = _target_side(f, t, target_side)
        need = ap_save_needed(f, side, cover, hard)
        unsaved = unsaved_die(dice, needed, need)
        tsp = t.strength if target_sp is None else target_sp
        outcome = unsaved.map(lambda u: "eliminated" if u >= tsp else
                              pin_die(u).map(lambda pinned: "pinned" if pinned else "steady"))
        return {**base, "kind": "ap", "dice": dice, "target_side": side, "save": need,
                "unsaved_hits": _dist(unsaved, exact),
                "pinned": _p(outcome, "pinned", exact),
                "eliminated": _p(outcome, "eliminated", exact)}
    # AT fire (R86-R107)
    dice = (f.one_shot_fp if law else f.at_fp) if dice is None else dice
    allowed = f.one_shot_only_vs_armour if law else f.at_only_vs_armour
    if law and f.one_shot_uses <= 0:
        raise ScenarioError(f"{f.id} has no one-shot AT volley (R78)")
    if dice <= 0:
        raise ScenarioError(f"{f.id} has no AT firepower (R57)")
    if allowed and t.armour_save not in allowed:
        raise ScenarioError(f"{f.id}'s AT dice may only fire at armour "
                            f"{'/'.join(map(str, allowed))} (R76)")
    if f.at_vs_aircraft_only and not t.is_aircraft and not law:
        raise ScenarioError(f"{f.id}'s AT dice fire only at aircraft (D43)")
    need = t.armour_save
    if not t.is_aircraft:
        asp = tabs["armour_aspect"]
        pen = asp["rear"] if rear else asp["flank"] if flank else asp["front"]
        if top:
            pen = max(pen, asp["top"])
        need += pen
    need = need if need <= 6 else 0
    unsaved = unsaved_die(dice, needed, need)
    extra = tabs["damage_roll"]["extra_per_unsaved_hit_after_first"]
    chart = t.damage_chart

    def result(u: int):
        if u == 0:
            return icepool.Die(["no_effect"])
        return D6.map(lambda r: damage_result(chart, r + (u - 1) * extra))

    damage = unsaved.map(result)
    bail_need = tabs["bail_test"]["pass_on"]

    def after(u: int):
        """(pinned, bails) after u unsaved hits (R96, R104, R106)."""
        if u == 0:
            return icepool.Die([(False, False)])

        def steps(r: int):
            res = damage_result(chart, r + (u - 1) * extra)
            if res == "pinned":
                return icepool.Die([(True, False)])
            if res in DESTROYED:
                return icepool.Die([(False, False)])
            bails = res in ("immobilized", "main_armament_ko", "forced_to_land_passengers_hit")
            bail = D6.map(lambda b: b < bail_need) if bails else icepool.Die([False])
            return icepool.map(lambda p, b: (p, b), pin_die(u), bail)

        return D6.map(steps)

    effects = unsaved.map(after)
    den = effects.denominator()
    pinned = Fraction(sum(q for (p, _b), q in effects.items() if p), den)
    bails = Fraction(sum(q for (_p, b), q in effects.items() if b), den)
    dmg = {k: Fraction(q, damage.denominator()) for k, q in damage.items()}
    order = ["no_effect"] + [row["result"] for row in tabs["damage"][chart]["rows"]]
    dmg_out = {k: dmg[k] for k in order if k in dmg}
    conv = (lambda x: x) if exact else float
    return {**base, "kind": "at", "dice": dice, "save": need, "chart": chart,
            "unsaved_hits": _dist(unsaved, exact),
            "damage": {k: conv(v) for k, v in dmg_out.items()},
            "pinned": conv(pinned), "crew_bails": conv(bails),
            "destroyed": conv(sum((dmg.get(k, Fraction(0)) for k in DESTROYED), Fraction(0)))}


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def in_game(game, firer, target, *, moving: bool, law: bool = False,
            charge: bool | None = None) -> dict:
    """The odds of ``firer`` attacking ``target`` now in a running battle: the same
    computation as :func:`fire`, with every flag read from the table the way the
    engine's attack reads it (D34 situation, R62-R67 to-hit, R68/R87 saves).
    ``charge`` (by default: whether the battle waits on fire at a charger, R33) lets
    the French fire at a charger already in contact (R122 applies to other fire)."""
    from djebel.skirmish.geometry import aspect, distance
    from djebel.skirmish.rules import fire as rules

    if charge is None:
        charge = charging(game)
    rules.check_attack(game, firer, target, law=law, arc=False, charge=charge)
    conc, cover, hard = rules.situation(game, firer, target)
    cat = rules.category(target)
    th = game.tabs["to_hit"]
    side = aspect(target.body, firer.body) if not target.t.is_aircraft else "front"
    dice = firer.ap_dice() if cat == "ap" else (firer.t.one_shot_fp if law else
                                                 firer.at_dice())
    out = fire(firer.type, target.type, CONCEALMENT[conc], COVER[cover],
               flank=side == "flank", rear=side == "rear",
               close=distance(firer.body, target.body) <= th["close_range_cm"][cat] + 1e-9,
               moved=moving, top=firer.airborne, hard=hard, law=law,
               sp=firer.sp if firer.t.is_infantry else None,
               target_sp=target.sp if target.t.is_infantry else None,
               target_side="french" if target.side == "french" else "insurgent",
               optics=firer.optics, dice=dice)
    return out


def charging(game) -> bool:
    """Whether the battle waits on the fire of the charged side at a charger (R33)."""
    return bool(game.frames) and game.frames[-1].get("k") == "charge"


def summary(game, firer, target, *, moving: bool, law: bool = False) -> str:
    """One line: dice, to-hit, save, unsaved hits and what they do to ``target``."""
    o = in_game(game, firer, target, moving=moving, law=law)
    save = f"save {o['save']}+" if o["save"] else "no save"
    hits = ", ".join(f"{k}: {_pct(v)}" for k, v in o["unsaved_hits"].items() if v)
    head = (f"{firer.label} -> {target.label}: {o['dice']} {o['kind'].upper()} dice "
            f"hit on {o['to_hit']}+, {save}; unsaved hits {hits}")
    if o["kind"] == "ap":
        return f"{head}; pinned {_pct(o['pinned'])}, eliminated {_pct(o['eliminated'])}"
    return (f"{head}; destroyed {_pct(o['destroyed'])}, pinned {_pct(o['pinned'])}, "
            f"crew bails {_pct(o['crew_bails'])}")


FIRE_VERBS = ("shoot", "fire", "turnshoot", "owfire")


def describe(game, action) -> str | None:
    """The exact odds of a fire order in a running battle (``shoot``, ``fire``,
    ``turnshoot``, ``owfire``), one line per attack; None for any other order.
    A fire into a close combat shares its hits (D56): the odds are those of the
    target alone."""
    from djebel.core.actions import Action
    from djebel.skirmish.rules.fire import category

    a = Action.parse(action) if isinstance(action, str) else action
    if a.verb not in FIRE_VERBS or not a.args or game.over:
        return None
    fr = game.frames[-1] if game.frames else {}
    firer = game.el(a.args[0])
    if a.verb == "owfire":
        if fr.get("k") != "ow":
            return None                      # not an Overwatch moment: apply() says why
        names = [game.elements[fr["t"]].label]
    else:
        names = [str(w) for w in a.args[1:] if str(w) != "law"]
    law = "law" in [str(w) for w in a.args]
    # R65: a Move and Shoot fires at -1 before or after its move; turning to face is a move
    moving = a.verb in ("turnshoot", "fire")
    lines = []
    for name in names:
        target = game.el(name)
        at_law = law and category(target) == "at"
        lines.append(summary(game, firer, target, moving=moving, law=at_law))
    return " | ".join(lines) if lines else None

