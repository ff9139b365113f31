"""6 Reinforcement Phase: FLN AP income (6.1, A.4), FLN builds and conversions (6.2, A.1),
Government mobilization and activation (6.3, B.1)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.algeria.board import ACTIVE, AL_X, FRONT, POOL, TYPE_UNITS  # noqa: E402
from djebel.algeria.rules import reinforcement  # noqa: E402

# ---------------------------------------------------------------- 6.1 AP income


def test_6_1_area_income_rates_terror_and_gov_control():
    g = h.empty("1958")
    s = g.state
    h.control(g, "ALGIERS", "fln")
    s.terror[h.A("ALGIERS")] = True                  # 5 - 1
    h.control(g, "ORAN", "fln")                      # 5, units or not
    h.control(g, "III-1", "fln")                     # 2
    h.put(g, "cadre1", "CONSTANTINE", "UG")          # contested urban with a unit: 2
    h.put(g, "cadre2", "II-1", "UG")                 # contested rural with a unit: 1
    h.put(g, "cadre3", "II-2", "UG", neut=True)      # only a neutralized unit: 0
    h.put(g, "cadre4", "II-3", "UG")
    h.control(g, "II-3", "gov")                      # GOV-controlled: 0 (DIS-04)
    h.put(g, "cadre5", "III-2", "UG")
    s.terror[h.A("III-2")] = True                    # 1 - 1 = 0
    h.control(g, "V-5", "fln")                       # Remote: 0
    h.put(g, "cadre6", "IV-1", "UG")
    s.resettled[h.A("IV-1")] = True                  # resettled = Remote: 0
    assert [reinforcement.area_income(s, h.A(a)) for a in (
        "ALGIERS", "ORAN", "III-1", "CONSTANTINE", "II-1", "II-2", "II-3", "III-2", "V-5",
        "IV-1")] == [4, 5, 2, 2, 1, 0, 0, 0, 0, 0]
    h.set_psl(g, 45, 50)                             # ceil(4.5) = 5, minus Naval 2 = 3
    s.ap = 1
    h.at(g, ("fln_reinforcement",))
    assert s.ap == 1 + 14 + 3
    assert g.decision() == "fln_reinf"


def test_6_1_psl_income_rounds_up_and_never_below_zero():
    g = h.empty("1958")
    s = g.state
    h.set_psl(g, 41, 50)
    s.naval = 0
    assert reinforcement.psl_income(s) == 5
    s.naval = 9
    assert reinforcement.psl_income(s) == 0


def test_6_1_border_zone_cuts_ap_only_with_the_option_dis_05():
    g = h.empty("1958")
    s = g.state
    h.set_psl(g, 45, 50)
    s.bz, s.bz_active = -2, True
    assert reinforcement.psl_income(s) == 3
    g = h.empty("1958", border_zone_cuts_ap=True)
    s = g.state
    h.set_psl(g, 45, 50)
    s.bz, s.bz_active = -2, True
    assert reinforcement.psl_income(s) == 1
    s.bz_active = False
    assert reinforcement.psl_income(s) == 3


def test_6_1_turn_one_all_areas_contested():
    g = h.new("1954", seed=3)
    s = g.state
    assert all(c == 0 for c in s.control)
    assert not s.control_decided


# ---------------------------------------------------------------- 6.2 builds


def test_6_2_build_needs_a_non_neutralized_front_3_ap_abroad_2():
    g = h.empty("1958")
    s = g.state
    h.put(g, "front1", "II-1", "UG")
    h.put(g, "front2", "III-1", "OC", neut=True)
    s.ap = 5
    h.at(g, ("fln_reinf", "fln"))
    acts = h.legal(g)
    assert "build cadre II-1" in acts and "build band II-1" in acts
    assert "build cadre III-1" not in acts
    assert "build band TUNISIA" in acts and "build cadre MOROCCO" in acts
    g.apply("build band TUNISIA")
    assert s.ap == 3
    g.apply("build cadre II-1")
    assert s.ap == 0
    built = [u for u in range(len(s.loc)) if s.loc[u] == h.A("II-1") and u != h.U("front1")]
    assert len(built) == 1 and s.box[built[0]] == 0      # UG
    assert [a for a in h.legal(g) if a.startswith("build")] == []


def test_6_2_no_builds_abroad_before_independence():
    g = h.empty("1954")
    h.put(g, "front1", "II-1", "UG")
    g.state.ap = 9
    h.at(g, ("fln_reinf", "fln"))
    assert not [a for a in h.legal(g) if "TUNISIA" in a or "MOROCCO" in a]


def test_6_2_conversions_costs_and_limits():
    g = h.empty("1958")
    s = g.state
    h.put(g, "cadre1", "II-1", "UG")                 # no Front: may become a Front
    h.put(g, "cadre2", "III-1", "UG")
    h.put(g, "front1", "III-1", "UG")                # a Front already there
    h.put(g, "cadre3", "V-5", "UG")                  # Remote
    h.put(g, "cadre4", "II-2", "UG", neut=True)
    h.put(g, "cadre5", "TUNISIA", "OPS")
    h.put(g, "band1", "TUNISIA", "OPS")
    h.put(g, "band2", "II-1", "UG")
    s.ap = 10
    h.at(g, ("fln_reinf", "fln"))
    acts = h.legal(g)
    assert "convert cadre1 front" in acts
    assert "convert cadre2 front" not in acts
    assert "convert cadre3 front" not in acts and "convert cadre3 band" in acts
    assert "convert cadre4 band" not in acts
    assert "convert cadre5 front" not in acts and "convert cadre5 band" in acts
    assert "convert band1 failek" in acts and "convert band2 failek" not in acts
    assert "reduce front1" in acts
    g.apply("convert cadre1 front")
    assert s.ap == 7
    g.apply("convert cadre3 band")
    assert s.ap == 6
    g.apply("convert band1 failek")
    assert s.ap == 4
    assert h.where(g, "cadre1")[0] == "off" and h.where(g, "band1")[0] == "off"
    g.apply("reduce front1")                         # free, no refund
    assert s.ap == 4
    assert h.where(g, "front1")[0] == "off"


def test_6_2_a_new_front_may_build_at_once():
    g = h.empty("1958")
    s = g.state
    h.put(g, "cadre1", "II-1", "UG")
    s.ap = 6
    h.at(g, ("fln_reinf", "fln"))
    g.apply("convert cadre1 front")
    assert "build cadre II-1" in h.legal(g)


def test_6_2_counter_mix_limits_fronts():
    g = h.empty("1958")
    s = g.state
    for u in TYPE_UNITS[FRONT]:
        s.loc[u] = h.A("TUNISIA")        # every Front counter in use
    h.put(g, "cadre1", "II-1", "UG")
    s.ap = 9
    h.at(g, ("fln_reinf", "fln"))
    assert "convert cadre1 front" not in h.legal(g)


# ---------------------------------------------------------------- 6.3 Government


def gov_reinf(g, fln=40, gov=50):
    h.set_psl(g, fln, gov)
    h.at(g, ("gov_reinforcement",))


def test_6_31_mobilization_costs_and_placement():
    g = h.empty("1958")
    s = g.state
    s.air_max = s.air_avail = s.helo_max = s.helo_avail = s.naval = 0
    gov_reinf(g, 40, 60)
    g.apply("mobilize fr_xx")
    g.apply("at II-1")
    assert s.gov_psl == 55
    assert h.where(g, "fr_xx1") == ("II-1", "OPS") and h.flag(g, "fr_xx1", ACTIVE)
    for t, cost in (("fr_x", 2), ("el_x", 3), ("al_x", 2)):
        before = s.gov_psl
        g.apply(f"mobilize {t}")
        g.apply("at III-1")
        assert before - s.gov_psl == cost
    g.apply("mobilize police")
    g.apply("at ALGIERS")
    assert s.gov_psl == 47 and h.where(g, "police1") == ("ALGIERS", "PTL")
    g.apply("buy air")
    assert s.gov_psl == 45 and (s.air_max, s.air_avail) == (1, 1)
    g.apply("buy helo")
    assert s.gov_psl == 42 and (s.helo_max, s.helo_avail) == (1, 1)
    g.apply("buy naval")
    assert s.gov_psl == 39 and s.naval == 1
    g.apply("done")
    # New units need no activation: they stay in OPS.
    assert h.where(g, "fr_xx1") == ("II-1", "OPS")


def test_6_32_activation_costs_half_points_round_up_and_unactivated_to_oc():
    g = h.empty("1958")
    h.put(g, "fr_xx1", "II-1", "OPS", active=False)
    h.put(g, "fr_x1", "II-1", "OPS", active=False)
    h.put(g, "el_x1", "II-1", "OPS", active=False)
    h.put(g, "el_x2", "II-1", "OPS", active=False)
    h.put(g, "al_x1", "II-1", "OPS", active=False)
    h.put(g, "al_x2", "II-2", "OPS", active=False, neut=True)
    h.put(g, "fr_x2", "II-2", "OPS", active=False, neut=True)
    gov_reinf(g, 40, 50)
    acts = h.legal(g)
    assert "activate fr_x2" not in acts and "activate al_x1" not in acts
    g.apply("activate fr_xx1")
    assert g.state.gov_psl == 49
    g.apply("activate fr_x1")
    assert g.state.gov_psl == 49 and g.state.gov_half == 1
    g.apply("activate el_x1")
    assert g.state.gov_psl == 48 and g.state.gov_half == 0
    g.apply("activate el_x2")
    g.apply("done")
    assert g.state.gov_psl == 47                     # 1 + 1/2 * 3 = 2.5 -> 3
    for u in ("fr_xx1", "fr_x1", "el_x1", "el_x2", "al_x1"):
        assert h.where(g, u)[1] == "OPS" and h.flag(g, u, ACTIVE)
    assert h.where(g, "al_x2")[1] == "OC" and h.where(g, "fr_x2")[1] == "OC"


def test_6_32_unactivated_french_units_go_to_oc():
    g = h.empty("1958")
    h.put(g, "fr_xx1", "II-1", "OPS", active=False)
    gov_reinf(g)
    g.apply("done")
    assert h.where(g, "fr_xx1") == ("II-1", "OC")
    assert g.state.gov_psl == 50


def test_6_3_never_spend_below_psl_1():
    g = h.empty("1958")
    s = g.state
    gov_reinf(g, 40, 50)
    s.gov_psl = 3
    acts = h.legal(g)
    assert "mobilize el_x" not in acts and "buy naval" not in acts
    assert "mobilize fr_x" in acts and "buy air" in acts
    s.gov_psl = 4
    assert "mobilize el_x" in h.legal(g)


def test_6_31_police_removal_and_remobilization():
    g = h.empty("1958")
    h.put(g, "police1", "II-1", "PTL", neut=True)
    gov_reinf(g)
    g.apply("remove police1")
    assert g.state.loc[h.U("police1")] == POOL and g.state.gov_psl == 50
    g.apply("mobilize police")
    g.apply("at II-2")
    assert h.where(g, "police1") == ("II-2", "PTL") and not h.neut(g, "police1")
    assert g.state.gov_psl == 49


def test_6_33_border_zone_steps_activation_and_cap():
    g = h.empty("1958")                  # Border Zone at -2
    s = g.state
    gov_reinf(g, 40, 60)
    g.apply("border-zone")
    assert s.bz == -3 and s.gov_psl == 54
    assert "border-zone" not in h.legal(g)          # -3 is the end of the track
    g.apply("activate border-zone")
    assert s.bz_active and s.gov_psl == 53
    assert "activate border-zone" not in h.legal(g)


def test_6_33_border_zone_first_mobilization_then_no_improvement_that_turn():
    g = h.empty("1954")
    s = g.state
    gov_reinf(g, 40, 60)
    assert "border-zone" not in h.legal(g)          # not before independence
    s.independent = True
    g.apply("done")
    gov_reinf(g, 40, 60)
    g.apply("border-zone")
    assert s.bz == 0 and s.gov_psl == 54
    assert "border-zone" not in h.legal(g)
    s.bz_new = False                     # next turn
    gov_reinf(g, 40, 60)
    g.apply("border-zone")
    assert s.bz == -1


def test_6_counter_mix_limits_mobilization():
    g = h.empty("1958")
    s = g.state
    for u in TYPE_UNITS[AL_X]:           # every Algerian brigade on the map
        s.loc[u] = h.A("II-1")
    gov_reinf(g)
    assert "mobilize al_x" not in h.legal(g)
