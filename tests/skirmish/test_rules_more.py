"""More rules by number: reactions, overwatch, damage details, close combat, terrain."""

from __future__ import annotations

import pytest
from skirmish_helpers import F, I, go

from djebel.core.errors import IllegalAction
from djebel.skirmish.rules import close_combat, damage, fire

BLOCK = {"id": "b9", "kind": "building", "rect": [100, 110, 90, 112]}
FAR = I("ins_rifle", 115, 115)


def test_R1_R2_sides_and_element_kinds(build):
    g = build([F("leader", 20, 20), F("french_rifle", 30, 20), I("ins_rifle", 60, 20)])
    assert g.sides == ("french", "insurgents")
    assert g.el("F1").t.kind == "leader" and g.el("F2").t.kind == "infantry"


def test_R23_leader_fires_one_ap_die(build):
    g = build([F("leader", 20, 20), I("ins_rifle", 60, 20)], dice=(6, 1))
    g.apply("activate F1")
    g.apply("shoot F1 I1")
    assert g.el("I1").sp == 4 and g.dice.pos == 2


def test_R28_R31_one_reaction_per_phase_without_a_roll(build):
    g = build([F("french_rifle", 20, 20), F("french_rifle", 20, 40), I("ins_rifle", 60, 30)],
              terrain=[BLOCK], dice=(1,) * 20)
    g.apply("activate F1")
    g.apply("shoot F1 I1")
    g.apply("shoot I1 F1")                       # no command roll: 5 dice, all miss
    assert g.dice.pos == 10 and g.el("I1").reacted
    g.apply("end F1")
    g.apply("activate F2")
    g.apply("shoot F2 I1")
    assert g.frames[-1]["k"] == "act"            # I1 has reacted already this phase


def test_R29_only_observers_react(build):
    wall = {"id": "b1", "kind": "building", "rect": [40, 50, 0, 60]}
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20), I("ins_rifle", 60, 80)],
              terrain=[wall, BLOCK], dice=(1,) * 5)
    g.apply("activate F1")
    g.apply("overwatch F1")
    assert g.frames[-1]["k"] == "act"            # nobody sees F1 behind the building


def test_R32_reaction_after_the_whole_move_and_shoot(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20)], terrain=[BLOCK],
              dice=(1,) * 5)
    g.apply("activate F1")
    g.apply("move F1 25 20")
    assert g.frames[-1]["k"] == "act" and g.frames[-1]["sub"] == "fire"
    g.apply("fire F1 I1")
    assert g.frames[-1]["k"] == "react"


def test_R37_reactions_do_not_trigger_reactions(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20)], terrain=[BLOCK],
              dice=(1,) * 10)
    g.apply("activate F1")
    g.apply("shoot F1 I1")
    g.apply("shoot I1 F1")
    assert g.frames[-1]["k"] == "act" and g.active_side == "french"


def test_R36_embarked_elements_cannot_react_or_be_fired_at(build):
    g = build([F("hmmwv_m2", 20, 20, passengers=["french_rifle"]), I("ins_rifle", 60, 20)],
              first_side="insurgents", terrain=[BLOCK])
    g.apply("activate I1")
    with pytest.raises(IllegalAction):
        g.apply("shoot I1 F2")


def test_R38_leader_rallies_as_a_reaction(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), I("ins_rifle", 60, 20)],
              first_side="insurgents", terrain=[BLOCK], dice=(4, 3))
    g.el("F2").pinned = True
    g.apply("activate I1")
    g.apply("overwatch I1")
    assert g.frames[-1]["k"] == "react"
    g.apply("rally F1 F2")                       # 7 vs 7+ at the base target (D18)
    assert not g.el("F2").pinned and g.el("F1").reacted


def test_R40_R41_overwatch_ends_on_a_new_order(build):
    g = build([F("french_rifle", 20, 20), FAR], terrain=[BLOCK], dice=(2, 2))
    g.el("F1").overwatch = True
    g.apply("activate F1")
    assert g.el("F1").overwatch                  # idle keeps it (D15.2)
    g.apply("move F1 25 20")
    assert not g.el("F1").overwatch


def test_R45_overwatch_pin_stops_the_move(build):
    # OW fire: 5 dice 6,6,6,1,1 = 3 hits at 4+; French open save 6: 1,1,1; SP 2;
    # pin test 3 dice 1,1,1: pinned -> the move stops where it was fired on
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20, 180, overwatch=True)],
              terrain=[BLOCK], dice=(6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1))
    g.apply("activate F1")
    g.apply("move F1 30 20")
    g.apply("owfire I1")
    f1 = g.el("F1")
    assert f1.pinned and f1.x == 20.0
    assert g.frames[-1]["k"] == "act" and g.frames[-1]["credits"] == 0     # D10


def test_R43_overwatch_needs_the_mover_in_its_arc(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20, 0, overwatch=True)],
              terrain=[BLOCK])
    g.apply("activate F1")
    g.apply("move F1 30 20")
    assert g.frames[-1]["k"] != "ow"


def test_R48_R55_shoot_allows_no_pivot_but_a_move_may_be_a_pivot(build):
    g = build([F("french_rifle", 20, 20, 180), I("ins_rifle", 60, 20)], terrain=[BLOCK],
              dice=(1,) * 5)
    g.apply("activate F1")
    with pytest.raises(IllegalAction):
        g.apply("shoot F1 I1")
    g.apply("move F1 20 20 face 0")              # turning to face is a move (R61)
    assert g.el("F1").facing == 0.0
    g.apply("fire F1 I1")                        # at -1 (R65)


def test_R56_one_ap_and_one_at_attack_in_one_fire(build):
    g = build([F("hmmwv_m2", 20, 20), I("ins_rifle", 60, 20), I("technical_hmg", 60, 40)],
              terrain=[BLOCK], dice=(1,) * 8)
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("shoot F1 I1 I1")
    assert exc.value.rule == "R56"
    g.apply("shoot F1 I1 I2")
    assert g.dice.pos == 8


def test_R58_R57_dice_by_target_category(build):
    g = build([F("range_rover", 20, 20), I("ins_rifle", 60, 20)], terrain=[BLOCK])
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("shoot F1 I1")                   # the Range Rover has no AP firepower
    assert exc.value.rule == "R57"


def test_R59_unlimited_range(build):
    g = build([F("french_rifle", 3, 3, 45), I("ins_rifle", 118, 118)], dice=(1,) * 5)
    g.apply("activate F1")
    g.apply("shoot F1 I1")


def test_R74_open_is_open(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20)])
    assert fire.situation(g, g.el("F1"), g.el("I1")) == (0, 0, False)


def test_R75_R79_hard_target_only_ap(build):
    b = {"id": "b1", "kind": "building", "rect": [55, 65, 15, 25]}
    g = build([F("atgm", 20, 20), I("ins_rifle", 60, 20), I("ins_rifle", 60, 40)],
              terrain=[b, BLOCK])
    f = g.el("F1")
    fire.check_attack(g, f, g.el("I1"))          # inside a building: hard
    with pytest.raises(IllegalAction) as exc:
        fire.check_attack(g, f, g.el("I2"))
    assert exc.value.rule == "R75"


def test_R85_hull_down_crest(build):
    crest = {"id": "c1", "kind": "crest", "rect": [55, 65, 15, 25]}
    g = build([F("french_rifle", 20, 20), I("t55", 60, 20)], terrain=[crest, BLOCK])
    assert fire.situation(g, g.el("F1"), g.el("I1"))[0] == 2


def test_R90_no_unsaved_hit_no_effect(build):
    g = build([F("french_rifle", 20, 20), I("t55", 60, 20)], dice=(4, 4, 4, 4, 4, 4))
    v = g.el("I1")
    fire.apply_hits(g, g.el("F1"), v, 3, "at", 0, False)
    assert not v.pinned and v.damage_types == () and g.dice.pos == 3


def test_R92_chart_by_vehicle_type():
    from djebel.skirmish.catalog import catalog
    cat = catalog()
    assert cat["technical_hmg"].damage_chart == "civilian"
    assert cat["hmmwv_m2"].damage_chart == "armoured"
    assert cat["utility_helo"].damage_chart == "aircraft"


def test_R96_R97_R98_R99_damage_effects(build):
    g = build([F("lav", 20, 20), FAR], terrain=[BLOCK], dice=(6,) * 10)
    v = g.el("F1")
    damage.apply_result(g, v, "pinned", 1)
    assert v.pinned
    v.pinned = False
    damage.apply_result(g, v, "optics_destroyed", 1)
    assert v.optics
    damage.apply_result(g, v, "engine_damage", 1)
    from djebel.skirmish.rules.movement import move_cm
    assert v.engine_damaged and move_cm(g, v) == 10
    damage.apply_result(g, v, "immobilized", 1)
    assert v.immobilized and not v.removed


def test_R100_main_armament_knocked_out_gun_first(build):
    g = build([F("bradley", 20, 20), FAR], terrain=[BLOCK], dice=(6,) * 10)
    v = g.el("F1")
    damage.apply_result(g, v, "main_armament_ko", 1)
    assert v.at_dice() == 0 and v.ap_dice() == 4
    damage.apply_result(g, v, "main_armament_ko", 1)
    assert v.ap_dice() == 0 and v.markers == 1


def test_R101_R102_forced_landing_passengers_hit(build):
    g = build([F("utility_helo", 40, 60, 0, airborne=True, passengers=["french_rifle"]), FAR],
              terrain=[BLOCK], dice=(6, 6, 6, 6, 6, 6, 6))
    v = g.el("F1")
    damage.apply_result(g, v, "forced_to_land_passengers_hit", 1)
    assert v.forced_down and not v.airborne and v.immobilized
    assert g.el("F2").sp == 5                    # five French saves at 6 all made


def test_R103_everyone_aboard_killed(build):
    g = build([F("m113_m2", 40, 60, 0, passengers=["french_rifle", "leader"]), FAR],
              terrain=[BLOCK])
    damage.apply_result(g, g.el("F1"), "destroyed_all_killed", 3)
    assert all(g.el(x).removed for x in ("F1", "F2", "F3"))
    assert len(g.markers) == 3


def test_R104_R107_pin_test_after_damage(build):
    g = build([F("lav", 20, 20), FAR], terrain=[BLOCK], dice=(1, 6))
    v = g.el("F1")
    damage.apply_result(g, v, "optics_destroyed", 2)          # pin dice 1, 6: pinned
    assert v.pinned and v.optics


def test_R109_R115_multi_element_fight_hits_shared(build):
    g = build([F("french_rifle", 20, 20), F("french_rifle", 20, 24.05),
               I("ins_rifle", 23.05, 22, 180)], dice=(2, 2, 2, 1, 1) + (1,) * 5 +
              (2, 2, 2, 2, 2) + (4,) * 10)
    fight = g.fight_of(g.el("I1").id)
    assert fight and len(fight) == 3
    close_combat.fight_round(g, fight)
    # French hits: 3 + 0 + ... first rifle 3 hits, second rifle 0; insurgent 5 hits on two
    assert g.el("I1").sp == 2
    assert sorted((g.el("F1").sp, g.el("F2").sp)) == [2, 3]


def test_R110_pinned_fight_at_4_and_R113_vehicle_cc_dice(build):
    g = build([F("range_rover", 20, 20), I("ins_rifle", 24.55, 20, 180)])
    assert close_combat.cc_dice(g.el("F1")) == 1


def test_R117_R118_vehicle_saves_in_close_combat(build):
    # insurgent 5 dice all hit (2+): 5 hits on the Range Rover, saves on 6: 6,1,1,1,1;
    # 4 unsaved: damage 6+3 destroyed
    g = build([F("range_rover", 20, 20), I("ins_rifle", 24.55, 20, 180)],
              dice=(1,) + (6,) * 5 + (6, 1, 1, 1, 1) + (6,))
    close_combat.fight_round(g, g.fight_of(g.el("F1").id))
    assert g.el("F1").removed == "destroyed"


def test_R119_R123_fight_goes_on_until_one_side_is_gone(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 23.05, 20, 180), FAR],
              dice=(1,) * 10 + (4,) * 10)
    close_combat.fight_round(g, g.fight_of(g.el("F1").id))
    assert g.in_fight(g.el("F1").id)


def test_R125_no_air_to_air(build):
    g = build([F("attack_helo", 20, 20, airborne=True), F("leader", 5, 5),
               I("ins_rifle", 115, 115), F("utility_helo", 60, 60, airborne=True)])
    with pytest.raises(IllegalAction):
        fire.check_attack(g, g.el("F1"), g.el("F3"))


def test_R128_facing_free_at_the_end_of_a_move(build):
    g = build([F("french_rifle", 20, 20), FAR], terrain=[BLOCK])
    g.apply("activate F1")
    g.apply("move F1 25 25 face 200")
    assert g.el("F1").facing == 200.0


def test_R131_helicopters_stay_on_the_table(build):
    g = build([F("utility_helo", 40, 60, 0, airborne=True), FAR], terrain=[BLOCK])
    go(g, "endphase")
    go(g, "endphase")
    assert g.el("F1").on_table


def test_R140_embarked_elements_move_with_the_carrier(build):
    g = build([F("hmmwv_m2", 20, 20, passengers=["french_rifle"]), FAR], terrain=[BLOCK])
    g.apply("activate F1")
    g.apply("move F1 40 20")
    g.apply("hold F1")
    f2 = g.el("F2")
    assert not f2.on_table and f2.embarked_in == g.el("F1").id


def test_R145_ford_stops_vehicles_then_they_cross(build):
    river = {"id": "r1", "kind": "river", "rect": [40, 46, 0, 122]}
    ford = {"id": "f1", "kind": "ford", "rect": [40, 46, 15, 25]}
    g = build([F("hmmwv_m2", 25, 20), FAR], terrain=[river, ford, BLOCK], dice=(6, 6))
    g.apply("activate F1")
    g.apply("move F1 45 20")
    assert g.el("F1").x < 40 - 3.2
    g.apply("hold F1")
    g.apply("roll F1")
    g.apply("move F1 55 20")
    assert g.el("F1").x == 55.0


def test_R151_insurgents_leave_no_casualty_markers(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20)])
    g.remove(g.el("I1"), "eliminated")
    assert g.markers == []


def test_R153_R156_unrecovered_casualties_and_civilians_score(build):
    from djebel.skirmish.rules.garnish import score
    victory = [{"side": "insurgents", "hook": "casualties_not_evacuated", "points": 2},
               {"side": "insurgents", "hook": "civilian_casualties", "points": 1}]
    g = build([F("french_rifle", 20, 20), F("leader", 30, 30), I("ins_rifle", 60, 20)],
              civilians=[(90, 90)], victory=victory)
    g.remove(g.el("F2"), "eliminated")
    g.civ_hits = [3]
    assert score(g, final=True)["insurgents"] == 5


def test_D70_ground_reinforcement_enters_by_its_edge(build):
    g = build([F("french_rifle", 0, 40, 0, off_table=True, entry_edge="west",
                 available_turn=2), I("ins_rifle", 115, 115)], terrain=[BLOCK])
    with pytest.raises(IllegalAction):
        g.apply("activate F1")                   # not before turn 2
    go(g, "endphase")
    go(g, "endphase")
    acts = [str(a) for a in g.legal_actions()]
    assert "activate F1" in acts
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F1 12 40")                 # 12 cm from the edge point
    assert exc.value.rule == "R126"
    go(g, "move F1 10 40 face 0")
    f1 = g.el("F1")
    assert f1.on_table and (f1.x, f1.y) == (10.0, 40.0)


def test_D52_wrecks_as_terrain_option(build):
    g = build([F("lav", 40, 40), I("ins_rifle", 115, 115)], terrain=[BLOCK],
              options={"wrecks_as_terrain": True})
    damage.apply_result(g, g.el("F1"), "destroyed_all_killed", 1)
    assert g.wrecks and any(f.kind == "wreck" for f in g.terrain.features)
    from djebel.skirmish import SkirmishGame
    again = SkirmishGame.from_json(g.to_json())
    assert again.state_hash() == g.state_hash()
    assert any(f.kind == "wreck" for f in again.terrain.features)


def test_R42_overwatch_fires_at_an_arriving_aircraft(build):
    g = build([F("attack_helo", 0, 0, off_table=True),
               I("ins_rifle", 60, 30, 90, overwatch=True)], terrain=[BLOCK], dice=(1,) * 4)
    g.apply("activate F1")
    g.apply("move F1 60 60 face 270")
    assert g.frames[-1]["k"] == "ow"
    g.apply("owfire I1")
    assert g.frames[-1]["k"] == "act" and g.frames[-1]["sub"] == "fire"
