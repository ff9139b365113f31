"""Decisions of spec section 3 that need their own checks (D21-D77)."""

from __future__ import annotations

import pytest
from skirmish_helpers import F, I, go

from djebel.core.errors import IllegalAction
from djebel.skirmish.rules import activation, damage, fire

BLOCK = {"id": "b9", "kind": "building", "rect": [100, 110, 90, 112]}
FAR = I("ins_rifle", 115, 115)


def test_D56_insurgent_fire_into_a_fight_is_split(build):
    # I2 fires 5 dice at F1 who is fighting I1: 4 hits, split 2 / 2 between the sides
    g = build([I("ins_rifle", 60, 20, 180), F("french_rifle", 20, 20, 0),
               I("ins_rifle", 23.05, 20, 180)], first_side="insurgents",
              dice=(6, 6, 6, 6, 1) + (1, 1) + (1, 1) + (5, 5) + (6, 6))
    assert g.in_fight(g.el("F1").id)
    g.apply("activate I1")
    g.apply("shoot I1 F1")
    assert g.el("I2").sp == 3 and g.el("F1").sp == 3


def test_D66_blunder_3_fires_at_the_farthest_friend(build):
    # 5 AP dice at 4+ at F3 (farthest): 6,6,1,1,1 -> 2 hits; French open save 6: 1,1;
    # pin dice 5,5
    g = build([F("french_rifle", 20, 20), F("french_rifle", 30, 20), F("french_rifle", 60, 20),
               FAR], terrain=[BLOCK], dice=(1, 1, 3, 6, 6, 1, 1, 1, 1, 1, 5, 5))
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.apply("roll F1")
    assert g.el("F3").sp == 3 and g.el("F2").sp == 5


def test_D65_blunder_5_advances_into_close_combat_then_pins(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 35, 20, 180), FAR],
              dice=(1, 1, 5) + (1,) * 40)
    g.el("I1").pinned = True                    # no charge fire
    g.apply("activate F1")
    g.apply("overwatch F1")
    while g.frames[-1]["k"] == "react":
        g.apply("pass")
    g.apply("roll F1")
    f1 = g.el("F1")
    assert g.in_fight(f1.id) and f1.pinned
    assert f1.x == pytest.approx(35 - 3, abs=0.06)


@pytest.mark.parametrize("result", (4, 5))
def test_D65_landed_helicopter_that_blunders_stays_put_and_is_pinned(build, result):
    """A landed helicopter moves only by taking off (R134): blunder results 4 (fall back)
    and 5 (advance) leave it where it is, pinned, like an immobilized vehicle."""
    g = build([F("utility_helo", 20, 20, 0), I("ins_rifle", 35, 20, 180), FAR],
              terrain=[BLOCK])
    helo = g.el("F1")
    assert not helo.airborne
    follow = activation.blunder(g, helo, forced=result)
    assert (helo.x, helo.y, helo.facing) == (20, 20, 0)
    # result 4 pins at once; result 5 leaves the pin to the order that rolled (no contact)
    assert helo.pinned if result == 4 else follow == ["react", "pin"]


def test_D77_collateral_options(build):
    kw = dict(civilians=[(52, 30)], terrain=[BLOCK])
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)],
              options={"collateral_hit_on": 6}, dice=(1,) * 5 + (5, 6, 5, 6, 1), **kw)
    fire.attack(g, g.el("F1"), g.el("I1"), moving=False)
    assert sum(g.civ_hits) == 2
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 50, 20, 180)],
              options={"collateral_trigger": "no_unsaved_hits"},
              dice=(6, 1, 1, 1, 1) + (6,) * 5, **kw)
    fire.attack(g, g.el("F1"), g.el("I1"), moving=False)
    assert sum(g.civ_hits) == 0                 # the hit was not saved (no save in the open)


def test_D36_blast_option_off(build):
    b = {"id": "b1", "kind": "building", "rect": [45, 55, 15, 25]}
    g = build([I("t55", 20, 20, 0), F("french_rifle", 50, 20)], terrain=[b],
              first_side="insurgents", options={"blast_vs_buildings": False})
    assert fire.situation(g, g.el("I1"), g.el("F1"))[0] == 2


def test_D32_max_range_option(build):
    g = build([F("french_rifle", 10, 10, 45), I("ins_rifle", 110, 110)],
              options={"max_range_cm": 50.0})
    with pytest.raises(IllegalAction) as exc:
        fire.check_attack(g, g.el("F1"), g.el("I1"))
    assert exc.value.rule == "D32"


def test_D53_unload_never_into_enemy_contact(build):
    g = build([F("hmmwv_m2", 40, 60, 0, passengers=["french_rifle"]),
               I("ins_rifle", 47, 60, 180), FAR], terrain=[BLOCK])
    g.apply("activate F1")
    go(g, "unload F1")
    p = g.el("F2")
    assert p.on_table and not g.in_fight(p.id)


def test_D21_passengers_unloaded_in_the_enemy_phase_cannot_react(build):
    g = build([I("ins_rifle", 80, 60, 180), F("hmmwv_m2", 40, 60, 0, passengers=["mmg"])],
              first_side="insurgents", terrain=[BLOCK], dice=(1,) * 5)
    g.apply("activate I1")
    g.apply("overwatch I1")
    g.apply("unload F1")                         # the carrier's reaction
    assert g.el("F2").on_table and g.el("F2").reacted


def test_D64_pinned_jet_leaves_anyway(build):
    g = build([F("a10_style", 40, 60, airborne=True), FAR], first_side="insurgents",
              terrain=[BLOCK])
    g.el("F1").pinned = True
    g.apply("endphase")
    assert g.el("F1").off_table and not g.el("F1").pinned


def test_D48_forced_landing_without_a_spot_destroys(build):
    woods = {"id": "w1", "kind": "dense_woods", "rect": [0, 122, 30, 90]}
    g = build([F("utility_helo", 60, 60, 0, airborne=True, passengers=["french_rifle"]), FAR],
              terrain=[woods, BLOCK])
    damage.apply_result(g, g.el("F1"), "forced_to_land_passengers_hit", 1)
    assert g.el("F1").removed == "destroyed" and g.el("F2").removed == "eliminated"


def test_D49_bailed_crew_passengers_dismount_unhurt(build):
    g = build([F("m113_m2", 40, 60, 0, passengers=["french_rifle"]), FAR], terrain=[BLOCK],
              dice=(6, 1))
    damage.apply_result(g, g.el("F1"), "immobilized", 1)          # pin 6, bail 1
    assert g.el("F1").removed == "abandoned"
    p = g.el("F2")
    assert p.on_table and p.sp == 5 and not p.pinned
    assert g.markers == []                       # the crew got away


@pytest.mark.parametrize("phase, may_react", [("insurgents", False), ("french", True)])
def test_D21_5_passengers_of_a_bail_out_in_the_enemy_phase_do_not_react(build, phase,
                                                                         may_react):
    from djebel.skirmish.rules.reactions import can_react

    g = build([F("m113_m2", 40, 60, 0, passengers=["french_rifle"]), FAR], terrain=[BLOCK],
              dice=(6, 1), first_side=phase)
    damage.apply_result(g, g.el("F1"), "immobilized", 1)          # pin 6, bail 1
    p = g.el("F2")
    assert g.el("F1").removed == "abandoned" and p.on_table
    assert p.reacted is not may_react
    if phase == "insurgents":
        assert not can_react(g, p)               # D21.5: not in this enemy phase
        g.apply("endphase")                      # its own phase: it activates normally
        g.apply("activate F2")
        assert g.frames[-1]["free"]


def test_D50_passengers_save_with_the_ground_cover(build):
    woods = {"id": "w1", "kind": "light_woods", "rect": [30, 50, 50, 70]}
    g = build([F("m113_m2", 40, 60, 0, passengers=["french_rifle"]), FAR],
              terrain=[woods, BLOCK], dice=(5, 5, 5, 5, 4) + (6,))
    damage.apply_result(g, g.el("F1"), "destroyed_passengers_hit", 1)
    p = g.el("F2")                               # French light cover: 5+; four saved
    assert p.sp == 4 and p.on_table


def test_D41_eliminated_element_takes_no_pin_test(build):
    g = build([F("leader", 20, 20), FAR], terrain=[BLOCK], dice=())
    fire.infantry_losses(g, g.el("F1"), 3, "R70")
    assert g.el("F1").removed == "eliminated" and g.dice.pos == 0


def test_D6_leader_bonus_not_for_a_blundered_element(build):
    g = build([F("french_rifle", 20, 20), F("leader", 20, 23.5), FAR], terrain=[BLOCK])
    e = g.el("F1")
    assert activation.leader_bonus(g, e) == 1
    e.blundered_turn = g.turn
    assert activation.leader_bonus(g, e) == 0
    g.el("F2").pinned = True
    e.blundered_turn = 0
    assert activation.leader_bonus(g, e) == 0
