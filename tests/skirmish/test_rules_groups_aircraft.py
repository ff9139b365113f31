"""Group activation (R24, D7, D8), aircraft and passengers (spec 1.12), casualties (1.14)."""

from __future__ import annotations

import pytest
from skirmish_helpers import F, I, go

from djebel.core.errors import IllegalAction

WALL = {"id": "b1", "kind": "building", "rect": [70, 80, 0, 122]}
FAR = I("ins_rifle", 115, 60)


def test_R24_group_activation_shared_roll(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), F("mmg", 24, 20), FAR],
              terrain=[WALL], dice=(4, 3))
    acts = [str(a) for a in g.legal_actions()]
    assert "group F1 F2 F3" in acts
    g.apply("group F1 F2 F3")
    assert all(g.el(x).activated for x in ("F1", "F2", "F3"))
    g.apply("overwatch F2")                      # free actions first (D7.2)
    with pytest.raises(IllegalAction):
        g.apply("roll F2")                       # members never roll on their own
    g.apply("roll F1")                           # 7 vs 7+: every member gets one action
    fr = g.frames[-1]
    assert fr["k"] == "group" and fr["kg"] == 1
    assert set(fr["credits"].values()) == {1}
    g.apply("overwatch F3")
    assert g.frames[-1]["credits"][str(g.el("F3").id)] == 0


def test_D7_group_failure_ends_every_member(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), FAR], terrain=[WALL],
              dice=(2, 3))
    g.apply("group F1 F2")
    g.apply("roll F1")
    assert g.frames[-1]["k"] == "main"
    with pytest.raises(IllegalAction):
        g.apply("activate F2")


def test_D7_members_must_be_close_to_the_leader(build):
    g = build([F("leader", 20, 20), F("french_rifle", 40, 20), FAR], terrain=[WALL])
    with pytest.raises(IllegalAction) as exc:
        g.apply("group F1 F2")
    assert exc.value.rule == "D7"


def test_D8_group_blunder_applies_to_every_member(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), F("mmg", 24, 20), FAR],
              terrain=[WALL], dice=(1, 1, 6))
    g.apply("group F1 F2 F3")
    g.apply("roll F1")
    assert all(g.el(x).pinned for x in ("F1", "F2", "F3"))


def test_R129_R130_aircraft_enters_with_its_free_action(build):
    g = build([F("attack_helo", 0, 0, off_table=True), FAR], terrain=[WALL])
    g.apply("activate F1")
    g.apply("move F1 40 60 face 0")
    e = g.el("F1")
    assert not e.off_table and e.airborne and (e.x, e.y) == (40.0, 60.0)
    assert e.sorties_used == 1


def test_R132_fixed_wing_must_leave_next_phase(build):
    g = build([F("a10_style", 0, 0, off_table=True, max_sorties=2), FAR], terrain=[WALL])
    go(g, "activate F1")
    go(g, "move F1 40 60 face 0")
    go(g, "hold F1")
    go(g, "end F1")
    go(g, "endphase")
    assert g.el("F1").on_table                   # stays through the enemy phase (D64.4)
    go(g, "endphase")
    assert g.el("F1").off_table                  # left at the start of its next phase
    assert g.el("F1").activated


def test_R35_fixed_wing_never_reacts(build):
    from djebel.skirmish.rules.reactions import can_react
    g = build([F("a10_style", 40, 60, airborne=True), I("ins_rifle", 60, 60)],
              first_side="insurgents")
    assert not can_react(g, g.el("F1"))


def test_R134_take_off_then_move_R135_land(build):
    g = build([F("utility_helo", 30, 60, 0), FAR], terrain=[WALL], dice=(4, 4, 5, 5))
    go(g, "activate F1")
    with pytest.raises(IllegalAction) as exc:
        go(g, "move F1 50 60")
    assert exc.value.rule == "R134"
    go(g, "takeoff F1")
    assert g.el("F1").airborne
    go(g, "roll F1")
    go(g, "move F1 50 60 face 0")
    go(g, "hold F1")
    go(g, "roll F1")
    go(g, "land F1")
    assert not g.el("F1").airborne


def test_D23_no_landing_on_buildings(build):
    b = {"id": "b2", "kind": "building", "rect": [45, 55, 55, 65]}
    g = build([F("utility_helo", 50, 60, 0, airborne=True), FAR], terrain=[WALL, b])
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("land F1")
    assert exc.value.rule == "D23"


def test_R136_fast_rope_and_R139_passengers_then_activate(build):
    g = build([F("utility_helo", 40, 60, 0, airborne=True, passengers=["french_rifle", "mmg"]),
               FAR], terrain=[WALL])
    go(g, "activate F1")
    go(g, "unload F1")
    for lab in ("F2", "F3"):
        p = g.el(lab)
        assert p.on_table and ((p.x - 40) ** 2 + (p.y - 60) ** 2) ** 0.5 <= 5.0 + 1e-9
    go(g, "end F1")
    go(g, "activate F2")
    assert g.frames[-1]["free"]


def test_R138_passengers_cannot_unload_themselves(build):
    g = build([F("hmmwv_m2", 40, 60, 0, passengers=["french_rifle"]), FAR], terrain=[WALL])
    with pytest.raises(IllegalAction) as exc:
        g.apply("activate F2")
    assert exc.value.rule == "R10" and "R138" in str(exc.value)
    g.el("F1").immobilized = True               # D21.3: now they may dismount
    g.apply("activate F2")
    g.apply("dismount F2")
    assert g.el("F2").on_table


def test_R137_load_needs_contact_and_a_free_slot(build):
    g = build([F("french_rifle", 40, 63.3, 90), F("hmmwv_m2", 40, 60, 0),
               F("mmg", 44, 56.2, 0), FAR], terrain=[WALL])
    g.apply("activate F1")
    g.apply("load F1 F2")
    assert g.el("F1").embarked_in == g.el("F2").id
    g.apply("end F1")
    g.apply("activate F3")
    with pytest.raises(IllegalAction) as exc:
        g.apply("load F3 F2")
    assert exc.value.rule == "D22"               # the HMMWV's one slot is taken


def test_R149_D73_casualty_pickup_and_casevac(build):
    g = build([F("french_rifle", 10, 60, 0), F("leader", 13.05, 60), FAR], terrain=[WALL],
              casevac_zones=[[0, 20, 0, 122]], dice=(4, 4))
    g.remove(g.el("F2"), "eliminated")
    assert len(g.markers) == 1 and g.markers[0].on_table
    g.apply("activate F1")
    g.apply("pickup F1 C1")
    assert g.markers[0].carried_by == g.el("F1").id
    g.apply("roll F1")
    g.apply("setdown F1")
    assert g.markers[0].evacuated


def test_D69_vehicle_exit_evacuates_casualties_aboard(build):
    g = build([F("hmmwv_m2", 110, 60, 0), F("leader", 110, 63.3), FAR], terrain=[WALL],
              dice=(4, 4))
    g.remove(g.el("F2"), "eliminated")
    g.apply("activate F1")
    with pytest.raises(IllegalAction):
        g.apply("move F1 122 60")                # no exit edge in this scenario


def test_D73_exit_edge_with_casualty(build, tmp_path):
    from skirmish_helpers import scenario_text

    from djebel.skirmish import new_game
    text = scenario_text([F("hmmwv_m2", 104, 60, 0), F("leader", 104, 63.3),
                          I("ins_rifle", 115, 100)],
                         terrain=[WALL | {"rect": [60, 62, 0, 122]}])
    text = text.replace("[[terrain]]", '[sides.french]\nexit_edges = ["east"]\n\n[[terrain]]', 1)
    path = tmp_path / "exit.toml"
    path.write_text(text)
    g = new_game(str(path), 0, {}, (4, 4))
    g.remove(g.el("F2"), "eliminated")
    go(g, "activate F1")
    go(g, "pickup F1 C1")
    go(g, "roll F1")
    go(g, "move F1 122 60")
    assert g.el("F1").removed == "exited" and g.markers[0].evacuated


def test_D7_pinned_member_uses_its_share_to_unpin(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), FAR], terrain=[WALL],
              dice=(4, 3, 4, 3))
    g.apply("group F1 F2")
    g.pin(g.el("F2"))
    assert g.el("F2").id not in g.frames[-1]["free"]          # D10: free action lost
    g.apply("overwatch F1")
    g.apply("roll F1")                           # success: F2's share unpins it at once
    assert not g.el("F2").pinned and g.frames[-1]["credits"][str(g.el("F2").id)] == 0
    g.apply("overwatch F1")
    g.apply("roll F1")                           # 7 vs 8+: fails, the group is over
    assert g.frames[-1]["k"] == "main"


def test_D7_member_pinned_after_the_roll_unpins_with_its_share(build):
    g = build([F("leader", 20, 20), F("french_rifle", 20, 23.5), FAR], terrain=[WALL],
              dice=(4, 3))
    g.apply("group F1 F2")
    g.apply("overwatch F1")
    g.apply("roll F1")
    g.pin(g.el("F2"))
    assert "unpin F2" in [str(a) for a in g.legal_actions()]
    with pytest.raises(IllegalAction):
        g.apply("overwatch F2")
    g.apply("unpin F2")
    assert not g.el("F2").pinned
