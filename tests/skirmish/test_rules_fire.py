"""Fire combat rules (spec 1.8-1.10) with scripted dice."""

from __future__ import annotations

import pytest
from skirmish_helpers import F, I

from djebel.core.errors import IllegalAction
from djebel.skirmish.rules import fire


def _shoot(g, order: str) -> None:
    g.apply(f"activate {order.split()[1]}")
    g.apply(order)


def test_R62_R68_open_to_hit_and_insurgent_no_save(build):
    # 5 AP dice at 4+: faces 4,4,3,2,1 = 2 hits; Insurgents in the open: no save;
    # pin test 2 dice 4,5: passed
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)], dice=(4, 4, 3, 2, 1, 4, 5))
    _shoot(g, "shoot F1 I1")
    i1 = g.el("I1")
    assert i1.sp == 3 and not i1.pinned
    assert g.dice.pos == 7


def test_R72_pin_test_one_failure_pins(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)], dice=(6, 6, 1, 1, 1, 4, 3))
    _shoot(g, "shoot F1 I1")
    assert g.el("I1").sp == 3 and g.el("I1").pinned


def test_R68_french_body_armour_saves_6_in_open(build):
    # Insurgent rifle fires 5 AP: 3 hits; French save 6 in the open: one 6 saves
    g = build([I("ins_rifle", 50, 20), F("french_rifle", 20, 20)], first_side="insurgents",
              dice=(5, 5, 5, 1, 1, 6, 2, 3, 4, 4))
    _shoot(g, "shoot I1 F1")
    assert g.el("F1").sp == 3
    assert not g.el("F1").pinned


def test_R71_strength_loss_reduces_firepower(build):
    g = build([F("mmg", 20, 20), I("ins_rifle", 50, 20)])
    mmg = g.el("F1")
    assert mmg.ap_dice() == 6
    mmg.sp = 2
    assert mmg.ap_dice() == 4
    mmg.sp = 1
    assert mmg.ap_dice() == 2
    rifle = g.el("I1")
    rifle.sp = 4
    assert rifle.ap_dice() == 4


def test_R63_flank_and_R64_close_range_modify_to_hit(build):
    # firer 8 cm to the target's flank: 4 -1 (flank) -1 (close) = 2+
    g = build([F("french_rifle", 50, 30, 270), I("ins_rifle", 50, 20, 0)])
    f, t = g.el("F1"), g.el("I1")
    assert fire.to_hit_needed(g, f, t, 0, "ap", moving=False) == 2
    assert fire.to_hit_needed(g, f, t, 0, "ap", moving=True) == 3          # R65
    assert fire.to_hit_needed(g, f, t, 2, "ap", moving=True) == 5
    f.optics = True
    assert fire.to_hit_needed(g, f, t, 2, "ap", moving=True) == 6           # R66, R67


def test_R67_needed_never_above_6(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 90, 20)])
    f, t = g.el("F1"), g.el("I1")
    f.optics = True
    assert fire.to_hit_needed(g, f, t, 2, "ap", moving=True) == 6


def test_R60_target_outside_forward_arc_is_illegal(build):
    g = build([F("french_rifle", 20, 20, 180), I("ins_rifle", 50, 20)])
    g.apply("activate F1")
    before = g.state_hash()
    with pytest.raises(IllegalAction) as exc:
        g.apply("shoot F1 I1")
    assert exc.value.rule == "R60"
    assert g.state_hash() == before


def test_R147_no_shot_without_line_of_sight(build):
    wall = {"id": "b1", "kind": "building", "rect": [30, 40, 10, 30]}
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)], terrain=[wall])
    g.apply("activate F1")
    before = g.state_hash()
    with pytest.raises(IllegalAction) as exc:
        g.apply("shoot F1 I1")
    assert exc.value.rule == "R147"
    assert g.state_hash() == before


def test_R81_building_heavy_obscured_heavy_cover(build):
    b = {"id": "b1", "kind": "building", "rect": [45, 55, 15, 25]}
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)], terrain=[b])
    assert fire.situation(g, g.el("F1"), g.el("I1")) == (2, 2, True)


def test_R82_blast_weapon_hits_building_as_open(build):
    b = {"id": "b1", "kind": "building", "rect": [45, 55, 15, 25]}
    g = build([I("t55", 20, 20, 0), F("french_rifle", 50, 20)], terrain=[b],
              first_side="insurgents")
    sit = fire.situation(g, g.el("I1"), g.el("F1"))
    assert sit == (0, 2, True)
    # French heavy cover 4+, worsened by the tank's AP -1 to 5+
    assert fire.ap_save_needed(g, g.el("I1"), g.el("F1"), sit[1], sit[2]) == 5


def test_R83_crop_field_heavy_obscured_open_save(build):
    c = {"id": "c1", "kind": "crop_field", "rect": [45, 55, 15, 25]}
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)], terrain=[c])
    assert fire.situation(g, g.el("F1"), g.el("I1")) == (2, 0, False)


def test_R84_orchard_aisle_is_open(build):
    o = {"id": "o1", "kind": "orchard", "rect": [40, 60, 10, 30], "aisle_bearings_deg": [0.0]}
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)], terrain=[o])
    assert fire.situation(g, g.el("F1"), g.el("I1"))[0] == 0
    g2 = build([F("french_rifle", 20, 5), I("ins_rifle", 50, 20)], terrain=[o])
    assert fire.situation(g2, g2.el("F1"), g2.el("I1"))[0] == 1


def test_R69_ap_minus_one_removes_french_open_save(build):
    g = build([I("technical_hmg", 20, 20, 0), F("french_rifle", 50, 20)], first_side="insurgents")
    assert fire.ap_save_needed(g, g.el("I1"), g.el("F1"), 0, False) == 0
    assert fire.ap_save_needed(g, g.el("I1"), g.el("F1"), 1, False) == 6
    assert fire.ap_save_needed(g, None, g.el("F1"), 0, False) == 6


def test_R76_at_restriction_technical_hmg_cannot_fire_at_panhard(build):
    g = build([I("technical_hmg", 20, 20, 0), F("panhard", 60, 20, 0)], first_side="insurgents")
    g.apply("activate I1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("shoot I1 F1")
    assert exc.value.rule == "R76"


def test_R77_ins_rifle_fires_ap_or_at_not_both(build):
    g = build([I("ins_rifle", 20, 20, 0), F("french_rifle", 50, 20), F("hmmwv_m2", 50, 40)],
              first_side="insurgents")
    g.apply("activate I1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("shoot I1 F1 F2")
    assert exc.value.rule == "R77"


def test_R78_law_volley_once_per_game(build):
    # 6 AT dice at a T-55 (armour 3): all miss (1s): no save rolls; marked used
    g = build([F("french_rifle", 20, 20), I("t55", 60, 20, 180)],
              dice=(1, 1, 1, 1, 1, 1))
    g.apply("activate F1")
    with pytest.raises(IllegalAction):
        g.apply("shoot F1 I1")           # normal AT 3 only against armour 6 (R76)
    g.apply("shoot F1 I1 law")
    assert g.el("F1").one_shot_used
    assert g.dice.pos == 6


def test_R87_R91_R94_armour_save_damage_roll_and_chart(build):
    # 4 AT dice (ins rifle) at HMMWV flank: to hit 4-1=3+: 3 hits; armour 5+1 flank = 6:
    # saves 6,2,3 -> 2 unsaved; damage 3+1=4 immobilized; pin 2 dice 5,5; bail 4 stays
    g = build([I("ins_rifle", 50, 50, 270), F("hmmwv_m2", 50, 20, 0)],
              first_side="insurgents", dice=(3, 3, 3, 1, 6, 2, 3, 3, 5, 5, 4))
    _shoot(g, "shoot I1 F1")
    v = g.el("F1")
    assert v.immobilized and not v.removed and not v.pinned
    assert v.damage_types == ("immobilized",)


def test_R89_armour_6_has_no_flank_save(build):
    g = build([F("french_rifle", 50, 40, 270), I("technical_hmg", 50, 20, 0)])
    assert fire.armour_needed(g, g.el("F1"), g.el("I1")) == 0


def test_R87_top_attack_from_aircraft(build):
    g = build([F("attack_helo", 50, 40, 270, airborne=True), I("t55", 50, 20, 90)])
    assert fire.armour_needed(g, g.el("F1"), g.el("I1")) == 5


def test_R88_aircraft_save_ignores_aspect(build):
    g = build([I("ins_rifle", 50, 40, 270), F("utility_helo", 50, 20, 90)],
              first_side="insurgents")
    assert fire.armour_needed(g, g.el("I1"), g.el("F1")) == 6


def test_R105_repeated_damage_adds_marker_and_R106_bail(build):
    from djebel.skirmish.rules import damage
    g = build([F("lav", 50, 20, 0), I("ins_rifle", 90, 90)],
              dice=(4, 6, 6, 1))
    v = g.el("F1")
    damage.apply_result(g, v, "main_armament_ko", 1)   # pin die 4, bail die 6
    assert v.weapons_ko == 1 and v.markers == 0 and v.at_dice() == 0
    damage.apply_result(g, v, "main_armament_ko", 1)   # pin die 6, bail die 1: bails
    assert v.markers == 1 and v.removed == "abandoned"


def test_R93_civilian_chart_destroyed_passengers_hit(build):
    from djebel.skirmish.rules import damage
    g = build([F("range_rover", 50, 20, 0, passengers=["french_rifle"]),
               I("ins_rifle", 90, 90)], dice=(4,) + (1,) * 5)
    damage.apply_result(g, g.el("F1"), "destroyed_passengers_hit", 1)
    assert g.el("F1").removed == "destroyed"
    assert g.el("F2").removed == "eliminated"
    assert len(g.markers) == 2          # R149: crew and passengers leave casualty markers


def test_R95_aircraft_chart_forced_landing(build):
    from djebel.skirmish.catalog import damage_result
    assert damage_result("aircraft", 4) == "forced_to_land_passengers_hit"
    assert damage_result("aircraft", 9) == "destroyed_all_killed"
    assert damage_result("armoured", 7) == "destroyed_passengers_hit"
    assert damage_result("civilian", 3) == "immobilized"


def test_R122_french_may_not_fire_into_close_combat(build):
    g = build([F("french_rifle", 20, 20), F("leader", 51, 23.5), I("ins_rifle", 50, 20)])
    assert g.in_fight(g.el("I1").id)
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("shoot F1 I1")
    assert exc.value.rule == "R122"


def test_R154_civilians_block_french_line_of_fire(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)], civilians=[(35, 20)])
    assert not g.sees(g.el("F1"), g.el("I1"))
    assert g.sees(g.el("I1"), g.el("F1"))


def test_R155_collateral_roll_on_a_miss(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)], civilians=[(52, 30)],
              dice=(1, 1, 1, 1, 1, 5, 6, 1, 2, 3))
    _shoot(g, "shoot F1 I1")
    assert sum(g.civ_hits) == 2
