"""Movement, terrain and close combat (spec 1.11-1.13)."""

from __future__ import annotations

import pytest
from skirmish_helpers import F, I

from djebel.core.errors import IllegalAction

FAR = I("ins_rifle", 115, 115)
BLOCK = {"id": "b9", "kind": "building", "rect": [100, 110, 90, 112]}


def test_R126_infantry_move_is_10cm(build):
    g = build([F("french_rifle", 20, 20), FAR], terrain=[BLOCK])
    g.apply("activate F1")
    before = g.state_hash()
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F1 32 20")
    assert exc.value.rule == "R126" and g.state_hash() == before
    g.apply("move F1 30 20 face 90")
    f1 = g.el("F1")
    assert (f1.x, f1.y, f1.facing) == (30.0, 20.0, 90.0)


def test_R47_sprint_is_two_moves(build):
    g = build([F("french_rifle", 20, 20), FAR], terrain=[BLOCK])
    g.apply("activate F1")
    g.apply("sprint F1 40 20")
    assert g.el("F1").x == 40.0


def test_R126_vehicle_move_20_and_R127_road_bonus(build):
    road = {"id": "r1", "kind": "road", "rect": [0, 122, 15, 25]}
    g = build([F("hmmwv_m2", 20, 20), F("hmmwv_m2", 20, 60), FAR], terrain=[road, BLOCK])
    g.apply("activate F1")
    g.apply("move F1 60 20")                     # 40 cm: 20 + road bonus 20
    assert g.el("F1").x == 60.0
    g.apply("hold F1")
    g.apply("end F1")
    g.apply("activate F2")
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F2 45 60")                 # off road: 20 cm only
    assert exc.value.rule == "R126"


def test_R142_impassable_terrain_and_moving_around_it(build):
    b = {"id": "b1", "kind": "building", "rect": [28, 32, 14, 26]}
    g = build([F("hmmwv_m2", 20, 20), FAR], terrain=[b, BLOCK])
    g.apply("activate F1")
    before = g.state_hash()
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F1 38 20")                 # straight through the building
    assert exc.value.rule == "R142" and g.state_hash() == before
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F1 23 28.5 36 29")         # around it, but 22 cm (R126)
    assert exc.value.rule == "R126"
    g.apply("move F1 23 28.5 33 29")             # round the north side: 19 cm
    assert g.el("F1").x == 33.0 and g.el("F1").y == 29.0


def test_R143_difficult_terrain_stops_then_crosses(build):
    b = {"id": "b1", "kind": "building", "rect": [25, 35, 10, 30]}
    g = build([F("french_rifle", 18, 20), FAR], terrain=[b, BLOCK], dice=(6, 6))
    g.apply("activate F1")
    g.apply("move F1 28 20")
    f1 = g.el("F1")
    assert f1.x == pytest.approx(25 - 1.5 - 0.05, abs=0.02)     # stopped touching it
    g.apply("hold F1")
    g.apply("roll F1")
    g.apply("move F1 30 20")                     # starts touching: enters
    assert g.el("F1").x == 30.0


def test_R144_canal_takes_a_full_action_to_cross(build):
    canal = {"id": "c1", "kind": "canal", "rect": [30, 33, 0, 122]}
    g = build([F("french_rifle", 28, 20), FAR], terrain=[canal, BLOCK])
    g.apply("activate F1")
    g.apply("move F1 29 20")                     # reaches the bank
    x_bank = g.el("F1").x
    assert x_bank < 28.6
    g.apply("hold F1")
    g.apply("end F1")
    g.apply("endphase")
    g.apply("endphase")
    g.apply("activate F1")
    g.apply("move F1 38 20")                     # crossing ends on the far bank
    assert g.el("F1").x == pytest.approx(33 + 1.5, abs=0.6)


def test_R144_vehicles_cannot_cross_a_canal(build):
    canal = {"id": "c1", "kind": "canal", "rect": [30, 33, 0, 122]}
    g = build([F("hmmwv_m2", 20, 20), FAR], terrain=[canal, BLOCK])
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F1 40 20")
    assert exc.value.rule == "R142"


def test_R146_tracked_vehicle_breaches_wall(build):
    wall = {"id": "w1", "kind": "wall", "rect": [29.1, 30.1, 0, 40]}
    g = build([F("m113_m2", 23, 20), FAR], terrain=[wall, BLOCK], dice=(6, 6))
    g.apply("activate F1")
    g.apply("move F1 42 20")                     # stops at the wall
    assert g.el("F1").x < 29.1
    g.apply("hold F1")
    g.apply("roll F1")
    g.apply("move F1 40 20")
    assert g.el("F1").x == 40.0
    assert g.breaches and g.breaches[0][0] == "w1"


def test_D69_exit_by_scenario_edge(build):
    g = build([F("hmmwv_m2", 110, 60), FAR], terrain=[BLOCK])     # no exit edge named
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F1 122 60")
    assert exc.value.rule == "D69"


def test_R108_contact_stops_the_move_and_close_combat_follows(build):
    # charge: I1 has no LOS? it sees; it is pinned so no charge reaction. Round:
    # French rifle 5 dice 2,2,2,1,1 = 3 hits; insurgent pinned rifle (4+) 4,4,1,1,1 = 2;
    # pin tests: I1 3 dice 4,4,4; F1 2 dice 4,4
    g = build([F("french_rifle", 33, 20), I("ins_rifle", 45, 20, 180)], terrain=[BLOCK],
              dice=(2, 2, 2, 1, 1, 4, 4, 1, 1, 1, 4, 4, 4, 4, 4))
    g.el("I1").pinned = True
    g.apply("activate F1")
    g.apply("move F1 43 20")
    f1, i1 = g.el("F1"), g.el("I1")
    assert f1.x == pytest.approx(45 - 3, abs=0.06)
    assert g.in_fight(f1.id)
    assert i1.sp == 2 and f1.sp == 3


def test_R54_R121_in_fight_only_close_combat_actions(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 23, 20, 180)], terrain=[BLOCK],
              dice=(1,) * 10 + (4,) * 10)
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F1 15 20")
    assert exc.value.rule == "R54"
    g.apply("cc F1")                             # everyone misses
    assert g.el("F1").sp == 5 and g.el("I1").sp == 5


def test_R124_no_vehicle_against_vehicle_contact(build):
    g = build([F("hmmwv_m2", 20, 20), I("technical_hmg", 40, 20, 180)], terrain=[BLOCK])
    g.apply("activate F1")
    with pytest.raises(IllegalAction) as exc:
        g.apply("move F1 36 20")
    assert exc.value.rule == "R124"


def test_R33_charge_reaction_before_close_combat(build):
    g = build([F("french_rifle", 35, 20), I("ins_rifle", 45, 20, 180), FAR], terrain=[BLOCK],
              dice=(1,) * 5 + (1,) * 10)
    g.apply("activate F1")
    g.apply("move F1 43 20")
    # the contacted, unpinned insurgent may fire at the charger before the round
    assert g.frames[-1]["k"] == "charge"
    acts = [str(a) for a in g.legal_actions()]
    assert "shoot I1 F1" in acts and "pass" in acts
    g.apply("shoot I1 F1")                       # 5 misses, then the round: all miss
    assert g.el("I1").reacted and g.in_fight(g.el("F1").id)
    assert g.dice.pos == 15


def test_R42_overwatch_interrupts_a_move(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20, 180, overwatch=True)],
              terrain=[BLOCK], dice=(1, 1, 1, 1, 1))
    g.apply("activate F1")
    g.apply("move F1 30 20")
    assert g.frames[-1]["k"] == "ow" and g.active_side == "insurgents"
    assert g.el("F1").x == 20.0                  # paused at the first observed instant
    g.apply("owfire I1")
    assert not g.el("I1").overwatch and g.el("I1").reacted      # R44
    assert g.el("F1").x == 30.0                  # not pinned: the move goes on


def test_R30_reaction_fire_only_at_the_trigger(build):
    g = build([F("french_rifle", 20, 20), F("french_rifle", 20, 40), I("ins_rifle", 60, 30)],
              terrain=[BLOCK], dice=(1,) * 5)
    g.apply("activate F1")
    g.apply("shoot F1 I1")
    assert g.frames[-1]["k"] == "react"
    with pytest.raises(IllegalAction) as exc:
        g.apply("shoot I1 F2")
    assert exc.value.rule == "R30"
    g.apply("pass")


def test_R34_pinned_elements_cannot_react(build):
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 60, 20)], terrain=[BLOCK],
              dice=(1,) * 5)
    g.el("I1").pinned = True
    g.apply("activate F1")
    g.apply("shoot F1 I1")
    assert g.frames[-1]["k"] == "act"            # nobody can react


# ------------------------------------------------------------ D62 stops and crossings
def _gap(g, label: str, fid: str) -> tuple[float, float]:
    """(distance, overlap area) between an element's base and a terrain feature."""
    from djebel.skirmish.geometry import base_poly

    e = g.el(label)
    poly = next(p for f, p in g.terrain.difficult(e.t.mobility if not e.t.is_infantry
                                                  else "foot") if f.id == fid)
    b = base_poly(e.body)
    return b.distance(poly), b.intersection(poly).area


def test_D62_stop_at_a_ford_ends_touching_in_the_ordered_facing_then_crosses(build):
    river = {"id": "r1", "kind": "river", "rect": [40, 46, 0, 122]}
    ford = {"id": "f1", "kind": "ford", "rect": [40, 46, 15, 25]}
    g = build([F("hmmwv_m2", 25, 20), FAR], terrain=[river, ford, BLOCK], dice=(6, 6))
    g.apply("activate F1")
    g.apply("move F1 45 20 face 90")             # D62.1: stops touching the ford
    v = g.el("F1")
    gap, overlap = _gap(g, "F1", "f1")
    assert v.facing == 90.0 and gap <= 0.1 and overlap == 0.0
    assert v.x == pytest.approx(40 - 1.75 - 0.05, abs=1e-3)   # half the 3.5 cm width
    g.apply("hold F1")
    g.apply("roll F1")
    g.apply("move F1 55 20 face 90")             # D62.2: the next move crosses and goes on
    assert (g.el("F1").x, g.el("F1").y, g.el("F1").facing) == (55.0, 20.0, 90.0)


def test_D62_canal_crossing_ends_touching_the_far_bank(build):
    canal = {"id": "c1", "kind": "canal", "rect": [30, 33, 0, 122]}
    g = build([F("french_rifle", 26, 20), FAR], terrain=[canal, BLOCK], dice=(6, 6))
    g.apply("activate F1")
    g.apply("move F1 29 20")                     # reaches the bank
    assert _gap(g, "F1", "c1")[0] <= 0.1
    g.apply("hold F1")
    g.apply("roll F1")
    g.apply("move F1 38 20")                     # D62.2: ends on the far bank, touching
    f1 = g.el("F1")
    assert f1.x == pytest.approx(33 + 1.5, abs=1e-6) and f1.y == 20.0
    gap, overlap = _gap(g, "F1", "c1")
    assert gap <= 1e-6 and overlap <= 1e-9
