"""Turn structure, activation, command rolls and blunders (spec 1.1-1.4)."""

from __future__ import annotations

import pytest
from skirmish_helpers import F, I

from djebel.core.errors import IllegalAction

WALL = {"id": "b1", "kind": "building", "rect": [35, 45, 0, 122]}   # no LOS across


def test_R11_free_action_then_R12_R14_rising_target(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL],
              dice=(3, 4, 4, 3))
    g.apply("activate F1")
    g.apply("overwatch F1")                      # the free action: no roll
    assert g.dice.pos == 0
    g.apply("roll F1")                           # 7 vs 7+: success
    assert g.el("F1").k == 1 and g.frames[-1]["credits"] == 1
    g.apply("overwatch F1")
    g.apply("roll F1")                           # 7 vs 8+: fail ends the activation (R19)
    assert g.frames[-1]["k"] == "main"
    assert g.el("F1").activated


def test_R13_insurgent_base_target_is_8(build):
    g = build([I("ins_rifle", 80, 20), F("french_rifle", 20, 20)], terrain=[WALL],
              first_side="insurgents", dice=(3, 4))
    g.apply("activate I1")
    g.apply("overwatch I1")
    g.apply("roll I1")
    assert g.frames[-1]["k"] == "main"


def test_R15_leader_in_contact_adds_one(build):
    g = build([F("french_rifle", 20, 20), F("leader", 20, 23.5), I("ins_rifle", 80, 20)],
              terrain=[WALL], dice=(3, 3))
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.apply("roll F1")                           # 6 + 1 >= 7
    assert g.frames[-1]["credits"] == 1


def test_R16_damage_markers_lower_the_roll(build):
    g = build([F("lav", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL], dice=(4, 4))
    g.el("F1").markers = 2
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.apply("roll F1")                           # 8 - 2 < 7
    assert g.frames[-1]["k"] == "main"


def test_R17_double_six_gives_two_actions(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL],
              dice=(6, 6))
    g.el("F1").k = 7                             # target 14: only a double six succeeds
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.apply("roll F1")
    assert g.frames[-1]["credits"] == 2 and g.el("F1").k == 8


def test_R18_double_one_blunders_R25_result_6_pins(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL],
              dice=(1, 1, 6))
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.apply("roll F1")
    assert g.el("F1").pinned and g.frames[-1]["k"] == "main"     # R26 activation over


def test_R20_owner_may_end_activation_without_acting(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL])
    g.apply("activate F1")
    g.apply("end F1")
    assert g.frames[-1]["k"] == "main"
    with pytest.raises(IllegalAction) as exc:
        g.apply("activate F1")                   # R10: once per phase
    assert exc.value.rule == "R10"


def test_R21_pinned_element_has_no_free_action_and_unpins_by_roll(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL],
              dice=(4, 4))
    g.el("F1").pinned = True
    g.apply("activate F1")
    before = g.state_hash()
    with pytest.raises(IllegalAction) as exc:
        g.apply("overwatch F1")
    assert exc.value.rule == "R12"
    assert g.state_hash() == before
    g.apply("roll F1")
    f1 = g.el("F1")
    assert not f1.pinned and f1.k == 1 and g.frames[-1]["credits"] == 0     # D4


def test_R25_blunder_1_sniper_kills_closest_leader(build):
    g = build([F("french_rifle", 20, 20), F("leader", 20, 30), F("leader", 20, 60),
               I("ins_rifle", 80, 20)], terrain=[WALL], dice=(1, 1, 1))
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.apply("roll F1")
    assert g.el("F2").removed == "eliminated" and not g.el("F3").removed
    assert len(g.markers) == 1                   # R149


def test_R25_blunder_2_mortar_barrage(build):
    # barrage 5 dice 4+: 4,4,1,1,1 = 2 hits; French open save 6: 1,1 -> 2 SP lost;
    # pin test 2 dice: 5,5
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL],
              dice=(1, 1, 2, 4, 4, 1, 1, 1, 1, 1, 5, 5))
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.apply("roll F1")
    assert g.el("F1").sp == 3 and not g.el("F1").pinned


def test_R25_blunder_4_falls_back_two_moves_and_pins(build):
    g = build([F("french_rifle", 60, 20), I("ins_rifle", 100, 20)], dice=(1, 1, 4))
    g.apply("activate F1")
    g.apply("overwatch F1")
    if g.frames[-1]["k"] == "react":
        g.apply("pass")
    g.apply("roll F1")
    f1 = g.el("F1")
    assert f1.pinned and f1.x == pytest.approx(40.0) and f1.y == pytest.approx(20.0)


def test_R27_rally_by_leader_needs_a_command_roll(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), I("ins_rifle", 80, 20)],
              terrain=[WALL], dice=(4, 4))
    g.el("F2").pinned = True
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("rally F1 F2")                   # R51: never the free action
    assert exc.value.rule == "R51"
    g.apply("end F1")
    assert g.el("F2").pinned


def test_D2_free_action_given_up_by_rolling_for_a_rally(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), I("ins_rifle", 80, 20)],
              terrain=[WALL], dice=(4, 4))
    g.el("F2").pinned = True
    g.apply("activate F1")
    assert g.frames[-1]["free"] and "roll F1" in [str(a) for a in g.legal_actions()]
    g.apply("roll F1")                           # D2: the free action is forfeited
    fr = g.frames[-1]
    assert (fr["free"], fr["credits"], g.el("F1").k, g.dice.pos) == (False, 1, 1, 2)
    g.apply("rally F1 F2")                       # R51: the rolled action rallies
    assert not g.el("F2").pinned
    assert "roll F1" in [str(a) for a in g.legal_actions()]   # nothing left but a roll


def test_R51_rally_with_a_won_action_unpins(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), I("ins_rifle", 80, 20)],
              terrain=[WALL], dice=(4, 4))
    g.el("F2").pinned = True
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.apply("roll F1")
    g.apply("rally F1 F2")
    assert not g.el("F2").pinned
    g.apply("end F1")
    g.apply("activate F2")
    assert g.frames[-1]["free"]                  # D5: rallied before activating


def test_R3_R5_phases_alternate_and_D79_turn_limit_ends(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL],
              turn_limit=2)
    order = []
    while not g.is_over():
        order.append((g.turn, g.phasing))
        g.apply("endphase")
    assert order == [(1, "french"), (1, "insurgents"), (2, "french"), (2, "insurgents")]
    assert g.result() is not None and g.active_side is None


def test_R6_scenario_may_give_insurgents_the_first_phase(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL],
              first_side="insurgents")
    assert g.active_side == "insurgents"


def test_R8_pins_and_overwatch_persist_across_phases(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)], terrain=[WALL])
    g.apply("activate F1")
    g.apply("overwatch F1")
    g.el("I1").pinned = True
    g.apply("end F1")
    g.apply("endphase")
    assert g.el("F1").overwatch and g.el("I1").pinned and not g.el("F1").activated
