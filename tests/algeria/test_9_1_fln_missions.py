"""9.1 FLN missions (A.2, A.3): Propaganda, Strike, Move, Raid, Harass, with scripted dice."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.core.errors import IllegalAction  # noqa: E402

# ---------------------------------------------------------------- 9.11 Propaganda


def test_9_11_propaganda_urban_doubled_with_patrol_and_terror_drm():
    g = h.empty("1958")
    h.put(g, "cadre1", "ALGIERS", "OPS")
    h.put(g, "police1", "ALGIERS", "PTL")
    g.state.terror[h.A("ALGIERS")] = True
    g.state.ap = 5
    h.set_psl(g, 40, 50)
    h.script(g, 6)                       # 6 - 1 patrol - 1 terror = 4 -> "2", x2 urban
    h.ops(g)
    g.apply("propaganda cadre1")
    assert g.state.ap == 4
    assert h.where(g, "cadre1") == ("ALGIERS", "OC")
    assert g.decision() == "share" and g.state.stack[-1][2] == 4
    g.apply("psp 3")                     # +3 FLN, -1 GOV
    assert h.psl(g) == (43, 49)
    assert g.decision() == "ops_fln"
    assert h.used_all(g)


def test_9_11_propaganda_rural_not_doubled():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "OPS")
    g.state.ap = 1
    h.set_psl(g, 40, 50)
    h.script(g, 5)                       # "2"
    h.ops(g)
    g.apply("propaganda front1")
    assert g.state.stack[-1][:3] == ("share", "fln", 2)
    g.apply("psp 0")
    assert h.psl(g) == (40, 48)
    assert g.state.ap == 0


def test_9_11_propaganda_plus_reduces_front_then_react_against_the_cadre():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "OPS")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "police2", "II-1", "PTL")
    h.put(g, "el_x1", "II-1", "OPS")
    g.state.ap = 1
    h.set_psl(g, 40, 50)
    h.script(g, 3)                       # 3 - 2 = 1 -> "1+"
    h.ops(g)
    g.apply("propaganda front1")
    # Front reduced to a Cadre: GOV +2 and FLN -1 (C.6); the Cadre takes its place in OC.
    assert h.where(g, "front1") == ("off", "-1")
    assert h.where(g, "cadre1") == ("II-1", "OC")
    assert h.psl(g) == (39, 52)
    g.apply("psp 1")                     # the FLN's N = 1
    assert h.psl(g) == (40, 52)
    # 9.11-6: the Government may React against the unit left.
    assert g.decision() == "select"
    assert g.state.combat["targets"] == [h.U("cadre1")]
    g.apply("no-react")
    assert g.decision() == "ops_fln"


def test_9_11_propaganda_plus_eliminates_cadre_and_gov_shares_one_psp():
    g = h.empty("1958")
    h.put(g, "cadre1", "II-1", "OPS")
    g.state.ap = 1
    h.set_psl(g, 40, 50)
    h.script(g, 1)                       # "1+"
    h.ops(g)
    g.apply("propaganda cadre1")
    assert h.where(g, "cadre1")[0] == "off"
    g.apply("psp 1")                     # FLN's point
    assert g.state.stack[-1][:3] == ("share", "gov", 1)
    g.apply("psp 0")                     # GOV lowers the FLN
    assert h.psl(g) == (40, 50)


def test_9_11_propaganda_limits_remote_once_per_area_and_ap():
    g = h.empty("1958")
    h.put(g, "cadre1", "V-5", "OPS")     # Remote
    h.put(g, "cadre2", "II-1", "OPS")
    h.put(g, "cadre3", "II-1", "OPS")
    g.state.ap = 0
    h.ops(g)
    assert "propaganda cadre2" not in h.legal(g)     # 8-7 no AP
    g.state.ap = 2
    assert "propaganda cadre1" not in h.legal(g)     # 9.11 Remote
    with pytest.raises(IllegalAction) as err:
        g.apply("propaganda cadre1")
    assert err.value.rule == "9.11"
    h.script(g, 3)
    g.apply("propaganda cadre2")
    g.apply("psp 1")
    assert "propaganda cadre3" not in h.legal(g)     # 9-2 once per area per turn
    g.state.resettled[h.A("II-1")] = True
    g.state.done[h.A("II-1")] = 0
    assert "propaganda cadre3" not in h.legal(g)     # resettled = Remote (2.2-6)


def test_11_22_france_propaganda_not_doubled_no_drm_no_react():
    g = h.empty("1958")
    h.put(g, "cadre1", "FRANCE", "UG")
    h.put(g, "police1", "ALGIERS", "PTL")
    g.state.ap = 1
    h.set_psl(g, 40, 50)
    h.script(g, 6)                       # "3@", no DRM, never doubled
    h.ops(g)
    g.apply("propaganda cadre1")
    assert g.state.stack[-1][:3] == ("share", "fln", 3)
    g.apply("psp 3")
    assert h.psl(g) == (43, 50)
    assert g.decision() == "ops_fln"
    assert "propaganda cadre1" not in h.legal(g)     # one per turn


def test_11_22_france_propaganda_plus_eliminates_the_cadre():
    g = h.empty("1958")
    h.put(g, "cadre1", "FRANCE", "UG")
    g.state.ap = 1
    h.script(g, 1)
    h.ops(g)
    g.apply("propaganda cadre1")
    assert h.where(g, "cadre1")[0] == "off"


# ---------------------------------------------------------------- 9.12 Strike


def test_9_12_strike_assist_drm_nd6_at_and_penalty_without_react():
    g = h.empty("1958")
    h.put(g, "front1", "ALGIERS", "OPS")
    h.put(g, "cadre1", "ALGIERS", "OPS")
    h.put(g, "cadre2", "ALGIERS", "OPS")
    h.put(g, "police1", "ALGIERS", "PTL")
    g.state.ap = 4
    h.set_psl(g, 40, 50)
    # 5 + 2 assist - 1 patrol = 6 -> "3@": 3d6 = 2+3+4; @ neutralizes the Police.
    # No Government unit can React: GOV -1d6 (4).
    h.script(g, 5, 2, 3, 4, 4)
    h.ops(g)
    g.apply("strike front1")
    assert g.decision() == "strike_assist"
    g.apply("assist cadre1")
    g.apply("assist cadre2")
    g.apply("go")
    assert g.state.ap == 1
    assert h.neut(g, "police1") and h.where(g, "police1") == ("ALGIERS", "PTL")
    # 9 PSP from the dice + 1 for the Police unit neutralized (DIS-13).
    assert g.state.stack[-1][:3] == ("share", "fln", 10)
    g.apply("psp 10")
    assert h.psl(g) == (50, 46)
    assert g.decision() == "ops_fln"
    assert h.used_all(g)
    for u in ("front1", "cadre1", "cadre2"):
        assert h.where(g, u) == ("ALGIERS", "OC")


def test_9_12_strike_plus_hits_every_participant():
    g = h.empty("1958")
    h.put(g, "front1", "ALGIERS", "OPS")
    h.put(g, "cadre1", "ALGIERS", "OPS")
    h.put(g, "police1", "ALGIERS", "PTL")
    h.put(g, "police2", "ALGIERS", "PTL")
    h.put(g, "el_x1", "ALGIERS", "OPS")
    g.state.ap = 3
    h.set_psl(g, 40, 50)
    h.script(g, 1, 4)                    # 1 + 1 - 2 = 0 -> "0+"; then penalty 4
    h.ops(g)
    g.apply("strike front1")
    g.apply("assist cadre1")
    g.apply("go")
    # Front -> Cadre (GOV +2, FLN -1); Cadre eliminated: GOV shares 1.
    assert h.where(g, "front1")[0] == "off"
    assert h.where(g, "cadre1")[0] == "off"
    assert h.psl(g) == (39, 52)
    assert g.state.stack[-1][:3] == ("share", "gov", 1)
    g.apply("psp 1")
    assert h.psl(g) == (39, 53)
    # 9.12-7: the React is mandatory; declining costs 1d6.
    assert g.decision() == "select"
    new_cadre = g.state.combat["targets"]
    assert len(new_cadre) == 1
    g.apply("no-react")
    assert h.psl(g) == (39, 49)


def test_9_12_7_react_with_a_unit_avoids_the_penalty_even_if_all_evade():
    g = h.empty("1958")
    h.put(g, "front1", "ALGIERS", "OPS")
    h.put(g, "el_x1", "ALGIERS", "OPS")
    g.state.ap = 3
    h.set_psl(g, 40, 50)
    h.script(g, 3, 1, 3)                 # "1": 1d6 = 1; React: Front evades on 3 (<= 3)
    h.ops(g)
    g.apply("strike front1")
    g.apply("go")
    g.apply("psp 0")
    assert h.psl(g) == (40, 49)
    g.apply("add el_x1")
    g.apply("go")
    assert g.decision() != "air_commit"  # 11.11-3: no Air Points to commit, no prompt
    assert h.where(g, "front1") == ("ALGIERS", "UG")
    assert h.where(g, "el_x1") == ("ALGIERS", "OC")
    assert h.psl(g) == (40, 49)
    assert g.decision() == "ops_fln"
    assert h.used_all(g)


def test_9_12_strike_only_by_a_front_in_an_urban_area():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "OPS")
    h.put(g, "cadre1", "ALGIERS", "OPS")
    g.state.ap = 9
    h.ops(g)
    assert "strike front1" not in h.legal(g)
    assert "strike cadre1" not in h.legal(g)


# ---------------------------------------------------------------- 9.13 Move


def _dests(g):
    return {str(a).split()[1] for a in g.legal_actions()}


def test_9_13_move_destinations_wilaya_and_bordering_areas():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.ops(g)
    g.apply("move band1")
    assert _dests(g) == {"CONSTANTINE", "II-2", "II-3", "I-1", "I-4", "III-2", "III-3",
                         "TUNISIA"}
    g2 = h.empty("1954")
    h.put(g2, "band1", "II-1", "OPS")
    h.ops(g2)
    g2.apply("move band1")
    assert "TUNISIA" not in _dests(g2)   # 9.13-3: borders need independence


def test_9_13_move_patrol_drm_counts_the_destination_only():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "police2", "II-2", "PTL")
    h.put(g, "police3", "II-2", "PTL")
    h.put(g, "police4", "II-2", "PTL", neut=True)      # neutralized: no DRM (9-3)
    h.set_psl(g, 40, 50)
    h.script(g, 3)                       # 3 - 2 = 1 -> "+": eliminated
    h.ops(g)
    g.apply("move band1")
    g.apply("to II-2")
    assert h.where(g, "band1")[0] == "off"
    assert g.state.stack[-1][:3] == ("share", "gov", 1)
    g.apply("psp 0")
    assert h.psl(g) == (39, 50)
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "police2", "II-2", "PTL")
    h.put(g, "police3", "II-2", "PTL")
    h.script(g, 4)                       # 4 - 2 = 2: arrives in OC
    h.ops(g)
    g.apply("move band1")
    g.apply("to II-2")
    assert h.where(g, "band1") == ("II-2", "OC")
    assert g.decision() == "ops_fln"


@pytest.mark.parametrize("active, survives", [(True, False), (False, True)])
def test_9_13_move_border_zone_drm_when_active(active, survives):
    g = h.empty("1958")
    h.put(g, "band1", "TUNISIA", "OPS")
    g.state.bz, g.state.bz_active = -2, active
    h.script(g, 3)                       # 3 - 2 = 1 -> "+" only if the zone is active
    h.ops(g)
    g.apply("move band1")
    g.apply("to I-2")
    assert (h.where(g, "band1") == ("I-2", "OC")) is survives


def test_9_13_move_out_of_algeria_also_crosses_the_border_zone():
    g = h.empty("1958")
    h.put(g, "band1", "I-2", "OPS")
    g.state.bz, g.state.bz_active = -3, True
    h.script(g, 4)                       # 4 - 3 = 1 -> "+"
    h.ops(g)
    g.apply("move band1")
    g.apply("to TUNISIA")
    assert h.where(g, "band1")[0] == "off"


def test_9_13_jealousy_and_paranoia_blocks_only_wilaya_crossings():
    g = h.empty("1958")
    g.state.jealousy = True
    h.put(g, "band1", "II-1", "OPS")
    h.ops(g)
    g.apply("move band1")
    # DIS-08: moves inside the wilaya and across the international border stay legal.
    assert _dests(g) == {"CONSTANTINE", "II-2", "II-3", "TUNISIA"}


def test_9_13_fronts_and_france_cadre_never_move():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "OPS")
    h.put(g, "cadre1", "FRANCE", "UG")
    h.ops(g)
    assert not [a for a in h.legal(g) if a.startswith("move")]


def test_9_13_react_after_move_in_the_destination_area():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "el_x1", "II-2", "OPS")
    h.put(g, "el_x2", "II-1", "OPS")
    h.script(g, 6)
    h.ops(g)
    g.apply("move band1")
    g.apply("to II-2")
    # DIS-11: React in the destination, against the unit that moved.
    assert g.decision() == "select"
    assert g.state.stack[-1][3] == h.A("II-2")
    assert "add el_x1" in h.legal(g) and "add el_x2" not in h.legal(g)
    assert g.state.combat["targets"] == [h.U("band1")]


# ---------------------------------------------------------------- 9.14 Raid


def test_9_14_raid_extra_unit_drm_and_urban_doubling():
    g = h.empty("1958")
    h.put(g, "band1", "ALGIERS", "OPS")
    h.put(g, "band2", "ALGIERS", "OPS")
    h.put(g, "police1", "ALGIERS", "PTL")
    g.state.ap = 1
    h.script(g, 4)                       # 4 + 1 extra - 1 patrol = 4 -> "2", x2 urban
    h.ops(g)
    g.apply("raid band1")
    g.apply("add band2")
    g.apply("go")
    assert g.state.ap == 4
    assert h.where(g, "band1") == ("ALGIERS", "OC")
    assert h.where(g, "band2") == ("ALGIERS", "OC")
    assert not g.state.terror[h.A("ALGIERS")]
    assert g.decision() == "ops_fln"
    assert "raid band3" not in h.legal(g)


def test_9_14_raid_at_neutralizes_a_police_unit_fln_choice_with_psp():
    g = h.empty("1958")
    for b in ("band1", "band2", "band3"):
        h.put(g, b, "II-1", "OPS")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "police2", "II-1", "PTL")
    g.state.ap = 1
    h.set_psl(g, 40, 50)
    h.script(g, 6)                       # 6 + 2 - 2 = 6 -> "3@"
    h.ops(g)
    g.apply("raid band1")
    g.apply("add band2")
    g.apply("add band3")
    g.apply("go")
    assert g.state.ap == 3
    assert g.state.terror[h.A("II-1")]
    assert g.decision() == "pick"        # DIS-14: the FLN picks the Police unit
    g.apply("pick police2")
    assert h.neut(g, "police2") and not h.neut(g, "police1")
    assert g.state.stack[-1][:3] == ("share", "fln", 1)      # DIS-13
    g.apply("psp 0")
    assert h.psl(g) == (40, 49)


def test_9_14_raid_plus_neutralizes_one_raider_fln_choice_and_terror():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "failek1", "II-1", "OPS")
    for p in ("police1", "police2", "police3"):
        h.put(g, p, "II-1", "PTL")
    g.state.ap = 2
    h.script(g, 2)                       # 2 + 1 - 3 = 0 -> "0+"
    h.ops(g)
    g.apply("raid band1")
    g.apply("add failek1")
    g.apply("go")
    assert g.state.ap == 1
    assert g.state.terror[h.A("II-1")]
    assert g.decision() == "pick"
    g.apply("pick band1")
    assert h.neut(g, "band1") and not h.neut(g, "failek1")
    assert h.where(g, "band1") == ("II-1", "OC")


def test_9_14_raid_not_in_remote_nor_by_cadres():
    g = h.empty("1958")
    h.put(g, "band1", "V-5", "OPS")
    h.put(g, "cadre1", "II-1", "OPS")
    g.state.ap = 5
    h.ops(g)
    assert "raid band1" not in h.legal(g) and "raid cadre1" not in h.legal(g)


# ---------------------------------------------------------------- 9.15 Harass


def test_9_15_harass_return_fire_half_rounded_up():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "PTL")
    g.state.air_avail = 0
    h.set_psl(g, 40, 50)
    # FLN FP 2 -> column 2-4, roll 6: 2 hits. Elite FP 9 -> ceil(4.5) = 5 -> column 5-8,
    # roll 4: 2 hits (rounded down, 4 would read column 2-4: 1 hit).
    h.script(g, 6, 4)
    h.ops(g)
    g.apply("harass band1")
    g.apply("go")
    assert h.legal(g) == ["target el_x1"]
    g.apply("target el_x1")
    assert g.state.combat["on_gov"] == 2 and g.state.combat["on_fln"] == 2
    g.apply("psp 2")                     # FLN shares its 2 hits
    g.apply("hit band1")
    g.apply("psp 1")                     # GOV shares the Band's elimination
    assert h.psl(g) == (42, 51)
    assert not h.neut(g, "el_x1")        # equal results: nobody neutralized
    assert h.where(g, "el_x1") == ("II-1", "OC")    # INT-37
    assert g.decision() == "ops_fln"


def test_9_15_failek_lets_bands_join_but_not_cadres():
    g = h.empty("1958")
    h.put(g, "failek1", "II-1", "OPS")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "band2", "II-1", "OPS")
    h.put(g, "cadre1", "II-1", "OPS")
    h.put(g, "police1", "II-1", "PTL")
    h.ops(g)
    g.apply("harass failek1")
    assert set(h.legal(g)) == {"add band1", "add band2", "go"}       # DIS-19
    g2 = h.empty("1958")
    h.put(g2, "failek1", "II-1", "OPS")
    h.put(g2, "band1", "II-1", "OPS")
    h.put(g2, "band2", "II-1", "OPS")
    h.put(g2, "police1", "II-1", "PTL")
    h.ops(g2)
    g2.apply("harass band1")
    assert set(h.legal(g2)) == {"add failek1", "go"}  # Bands alone attack singly


def test_9_15_harass_failek_group_adds_firepower():
    g = h.empty("1958")
    h.put(g, "failek1", "II-1", "OPS")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "police1", "II-1", "PTL")
    h.set_psl(g, 40, 50)
    # FLN 4 + 2 = 6 -> column 5-8, roll 3: 2 hits. Police FP 2 -> 1, roll 6: 1 hit.
    g.state.air_avail = 0
    h.script(g, 3, 6)
    h.ops(g)
    g.apply("harass failek1")
    g.apply("add band1")
    g.apply("go")
    g.apply("target police1")
    assert g.state.combat["on_gov"] == 2 and g.state.combat["on_fln"] == 1
    g.apply("psp 1")
    g.apply("hit failek1")               # Failek -> Band: GOV +2, FLN -1
    # The GOV side took more hits: the Police unit is neutralized and stays in PTL.
    assert h.neut(g, "police1") and h.where(g, "police1") == ("II-1", "PTL")
    assert h.psl(g) == (40, 51)
    assert h.where(g, "failek1")[0] == "off"
    assert h.where(g, "band1") == ("II-1", "OC")
    assert not h.neut(g, "band1")


def test_9_15_air_points_in_harass_return_fire_outside_urban_areas():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "fr_x1", "II-1", "OPS")
    g.state.air_avail = 2
    # Air 1 point: 1d6 = 5; GOV FP ceil(6/2) + 5 = 8 -> column 5-8. FLN roll 1 (0 hits),
    # GOV roll 3: 2 hits.
    h.script(g, 5, 1, 3)
    h.ops(g)
    g.apply("harass band1")
    g.apply("go")
    g.apply("target fr_x1")
    assert g.decision() == "air_commit"  # DIS-12
    assert h.legal(g) == ["air 0", "air 1", "air 2"]
    g.apply("air 1")
    assert g.state.air_avail == 1
    assert g.state.combat["on_fln"] == 2 and g.state.combat["on_gov"] == 0
    g.apply("hit band1")
    assert g.state.stack[-1][:3] == ("share", "gov", 1)


def test_9_15_harass_needs_a_government_unit_in_the_area():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.ops(g)
    assert "harass band1" not in h.legal(g)
    h.put(g, "fr_x1", "II-1", "OC", active=False)   # any box, active or not
    assert "harass band1" in h.legal(g)


def test_9_2_once_per_area_limit_is_per_mission_type_int_33():
    g = h.empty("1958")
    h.put(g, "front1", "ALGIERS", "OPS")
    h.put(g, "cadre1", "ALGIERS", "OPS")
    h.put(g, "band1", "ALGIERS", "OPS")
    g.state.ap = 9
    h.script(g, 4, 4, 1, 1, 4, 4)       # ...; Strike penalty 4; Raid "2" x2
    h.ops(g)
    g.apply("propaganda cadre1")         # "2" x2
    g.apply("psp 4")
    g.apply("strike front1")             # "2": 2d6
    g.apply("go")
    g.apply("psp 2")
    assert g.decision() == "ops_fln"     # no Government unit: penalty 1d6 applied
    assert "raid band1" in h.legal(g)
    g.apply("raid band1")
    g.apply("go")
    assert g.state.ap == 9 - 1 - 3 - 1 + 4


def test_9_12_strike_terror_drm():
    g = h.empty("1958")
    h.put(g, "front1", "ORAN", "OPS")
    g.state.terror[h.A("ORAN")] = True
    g.state.ap = 3
    h.script(g, 2, 3)                    # 2 - 1 = 1 -> "1+": Front reduced, 1d6 = 3
    h.ops(g)
    g.apply("strike front1")
    g.apply("go")
    assert h.where(g, "front1")[0] == "off"
    assert g.state.stack[-1][:3] == ("share", "fln", 3)


def test_9_14_raid_ap_capped_at_99_int_17():
    g = h.empty("1958")
    h.put(g, "band1", "ALGIERS", "OPS")
    g.state.ap = 98
    h.script(g, 6)                       # "3@" x2 = 6
    h.ops(g)
    g.apply("raid band1")
    g.apply("go")
    assert g.state.ap == 99


def test_move_refusals_name_their_rule():
    """9.13-3: a destination outside the wilaya and its neighbours, a border crossing
    before independence; DIS-08: no wilaya crossing under Jealousy & Paranoia."""
    import pytest

    from djebel.algeria.position import from_position
    from djebel.core.errors import IllegalAction

    def mover(**more):
        g = from_position({"scenario": "1954", "turn": 2, "phase": "operations", "ap": 5,
                           "areas": {"II-1": {"OPS": ["cadre"]}}, **more}, seed=1)
        g.apply("move cadre1")
        return g
    cases = ((mover(), "to VI-2", "9.13-3", "VI-2 is neither in cadre1's wilaya"),
             (mover(), "to TUNISIA", "9.13-3", "crossing the border needs Morocco and "
                                               "Tunisia independent"),
             (mover(jealousy=True), "to I-1", "DIS-08", "no wilaya crossings"))
    for g, bad, rule, reason in cases:
        with pytest.raises(IllegalAction) as exc:
            g.validate(bad)
        assert exc.value.rule == rule and reason in exc.value.reason
    mover(jealousy=True).validate("to II-2")            # within the wilaya: legal
