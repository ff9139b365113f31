"""11 Special rules: airpower and airmobility (11.1), Morocco/Tunisia and France (11.2),
the OAS (11.3), the coup d'etat (11.4), the Navy (11.6) and division modes (11.7)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.algeria.board import ACTIVE, EL_X, REMOVED  # noqa: E402
from djebel.algeria.rules import common, interphase, special  # noqa: E402
from djebel.algeria.state import OAS_INACTIVE, OAS_UNPLACED  # noqa: E402

# ---------------------------------------------------------------- 11.1


def test_11_11_air_points_never_in_urban_areas():
    g = h.empty("1958")
    h.put(g, "band1", "ORAN", "OPS")
    h.put(g, "fr_x1", "ORAN", "OPS")
    g.state.air_avail = 4
    h.script(g, 1, 1, 1)
    h.ops(g)
    g.apply("harass band1")
    g.apply("go")
    g.apply("target fr_x1")
    assert g.decision() != "air_commit"  # not even offered
    assert g.state.air_avail == 4


def test_11_12_airmobile_elite_reacts_in_another_area_and_ends_there():
    g = h.empty("1958")
    h.put(g, "cadre1", "II-1", "OPS")
    h.put(g, "el_x1", "V-3", "PTL", airmobile=True)
    g.state.ap = 1
    g.state.air_avail = 0
    h.script(g, 4, 6, 1, 1)              # Propaganda "2"; evasion 6 > 4; CRT 1, 1
    h.ops(g)
    g.apply("propaganda cadre1")
    g.apply("psp 2")
    assert g.decision() == "select"
    g.apply("add el_x1")
    g.apply("go")
    g.apply("hit cadre1")
    g.apply("psp 1")
    assert h.where(g, "el_x1") == ("II-1", "OC")
    assert g.decision() == "ops_fln"


def test_11_12_airmobile_contact_bonus_only_on_brigades():
    g = h.empty("1958")
    s = g.state
    for u, c in (("el_x1", 3), ("fr_x1", 2), ("al_x1", 2)):
        h.put(g, u, "II-1", "OPS", airmobile=True)
        assert common.contact(s, h.U(u)) == c
        assert common.firepower(s, h.U(u)) == {"el_x1": 9, "fr_x1": 6, "al_x1": 5}[u]


# ---------------------------------------------------------------- 11.21


def test_11_21_units_abroad_may_only_move():
    g = h.empty("1958")
    h.put(g, "band1", "TUNISIA", "OPS")
    h.put(g, "failek1", "MOROCCO", "OPS")
    h.put(g, "cadre1", "MOROCCO", "OPS")
    g.state.ap = 9
    h.ops(g)
    verbs = {a.split()[0] for a in h.legal(g) if a not in ("handover", "pass")}
    assert verbs == {"move"}


def test_11_21_independence_raises_both_psls_with_overflow():
    g = h.empty("1954")
    h.set_psl(g, 95, 60)
    h.script(g, 3, 4, 1, 1)              # FLN +7 -> 99, excess 3 off GOV; GOV +2
    special.grant_independence(g.state, "C.2")
    assert h.psl(g) == (99, 59)
    assert g.state.independent


# ---------------------------------------------------------------- 11.3 OAS


def test_11_3_oas_activates_at_gov_psl_30_and_fln_controller_places_it():
    g = h.empty("1958")
    s = g.state
    s.ap = 0
    h.set_psl(g, 40, 30)
    h.script(g, 3)                       # controller: 1-3 FLN
    h.at(g, ("gov_reinforcement",))
    assert s.oas == OAS_UNPLACED and s.oas_controller == "fln"
    assert g.decision() == "gov_reinf"
    g.apply("done")
    h.at(g, ("fln_reinforcement",))
    assert g.decision() == "oas_place" and g.active_side == "fln"
    assert set(h.legal(g)) == {"oas CONSTANTINE", "oas ALGIERS", "oas ORAN", "oas FRANCE"}
    g.apply("oas FRANCE")
    assert s.oas == h.A("FRANCE")


def test_11_3_oas_gov_controller_places_first_and_not_active_at_31():
    g = h.empty("1958")
    s = g.state
    h.set_psl(g, 40, 31)
    h.script(g)
    h.at(g, ("gov_reinforcement",))
    assert s.oas == OAS_INACTIVE and g.decision() == "gov_reinf"
    g = h.empty("1958")
    s = g.state
    h.set_psl(g, 40, 25)
    h.script(g, 4)
    h.at(g, ("gov_reinforcement",))
    assert s.oas_controller == "gov"
    assert g.decision() == "oas_place" and g.active_side == "gov"
    g.apply("oas ALGIERS")
    assert g.decision() == "gov_reinf"


@pytest.mark.parametrize("gov, offered", [(70, False), (71, True)])
def test_11_3_oas_removal_is_a_gov_choice_above_70_dis_02(gov, offered):
    g = h.empty("1958")
    s = g.state
    s.oas, s.oas_controller = h.A("ORAN"), "gov"
    h.set_psl(g, 40, gov)
    h.script(g)
    h.at(g, ("gov_reinforcement",))
    if g.decision() == "oas_place":
        g.apply("oas ORAN")
    assert ("remove-oas" in h.legal(g)) is offered
    assert s.oas == h.A("ORAN")          # never automatic
    if offered:
        g.apply("remove-oas")
        assert s.oas == OAS_INACTIVE


# ---------------------------------------------------------------- 11.4 coup


def coup(g, gov, *rolls, oas=None):
    h.set_psl(g, 40, gov)
    if oas:
        g.state.oas = h.A(oas)
    h.script(g, *rolls)
    special.coup_check(g.state)
    from djebel.algeria import flow
    flow.advance(g.state)


def test_11_4_no_coup_check_above_30_and_attempt_only_on_6():
    g = h.empty("1958")
    coup(g, 31)
    assert g.state.dice.count == 0
    g = h.empty("1958")
    coup(g, 30, 5)
    assert g.state.dice.count == 1 and h.psl(g) == (40, 30)


def test_11_4_oas_in_france_adds_one_to_both_rolls():
    g = h.empty("1958")
    # Check 5 + 1 = 6: attempt; 2d6 = 3 + 3 + 1 = 7: fizzle, -1d6 = 4.
    coup(g, 30, 5, 3, 3, 4, oas="FRANCE")
    assert h.psl(g) == (40, 26)


def test_11_4_wild_success_free_mobilization_budget():
    g = h.empty("1958")
    s = g.state
    # 2d6 = 2: +3d6 (1, 2, 3) PSP and 2d6 (2, 3) = 5 PSP of units for free.
    coup(g, 30, 6, 1, 1, 1, 2, 3, 2, 3)
    assert h.psl(g) == (40, 36)
    assert g.decision() == "coup_mobilize" and g.state.stack[-1][2] == 5
    assert set(h.legal(g)) == {"mobilize fr_xx", "mobilize fr_x", "mobilize el_x",
                               "mobilize al_x", "mobilize police", "done"}
    g.apply("mobilize el_x")
    g.apply("at II-1")
    assert g.state.stack[-1][:3] == ("coup_mobilize", "gov", 2)
    g.apply("mobilize police")
    g.apply("at II-1")
    g.apply("mobilize police")
    g.apply("at II-2")
    assert g.state.stack == []
    assert h.psl(g) == (40, 36)          # free
    assert h.where(g, "el_x1") == ("II-1", "OPS") and not h.flag(g, "el_x1", ACTIVE)
    assert h.where(g, "police2") == ("II-2", "PTL")
    assert s.gov_psl == 36


def test_11_4_failure_removes_one_elite_for_good():
    g = h.empty("1958")
    s = g.state
    h.put(g, "el_x1", "II-1", "OC", neut=True)
    h.put(g, "el_x2", "II-2", "OPS")
    coup(g, 30, 6, 4, 4, 1, 2)           # 8: failure, -2d6 = 3; GOV picks an elite
    assert h.psl(g) == (40, 27)
    assert g.decision() == "pick" and g.active_side == "gov"
    g.apply("pick el_x1")
    assert s.loc[h.U("el_x1")] == REMOVED and s.loc[h.U("el_x2")] == h.A("II-2")
    s.loc[h.U("el_x3")] = s.loc[h.U("el_x4")] = s.loc[h.U("el_x5")] = h.A("V-1")
    s.loc[h.U("el_x6")] = s.loc[h.U("el_x7")] = h.A("V-1")
    assert common.free_counter(s, EL_X) is None     # the removed elite is never mobilized


def test_11_4_abject_failure_removes_1d6_elites_capped():
    g = h.empty("1958")
    s = g.state
    h.put(g, "el_x1", "II-1")
    h.put(g, "el_x2", "II-2")
    coup(g, 30, 6, 6, 6, 1, 1, 1, 5)     # 12: -3d6 = 3; 1d6 = 5 elites, only 2
    assert s.loc[h.U("el_x1")] == REMOVED and s.loc[h.U("el_x2")] == REMOVED
    assert h.psl(g) == (40, 27)


def test_11_4_coup_comes_first_in_the_final_adjustment():
    g = h.empty("1958")
    s = g.state
    s.oas = h.A("ALGIERS")
    h.put(g, "band1", "II-1", "UG")
    h.set_psl(g, 40, 30)
    h.script(g, 6, 3, 3, 2)              # attempt; 6: success +1d6 = 2
    s.stack = []
    from djebel.algeria import flow
    flow.push(s, ("final_psl",))
    special.coup_check(s)
    flow.advance(s)
    texts = [e.text for e in g.log.entries() if "PSL" in e.text]
    assert "coup" in texts[0] and "OAS" in texts[1]
    assert s.gov_psl == 31


# ---------------------------------------------------------------- 11.6, 11.7


def test_11_6_naval_points_cut_foreign_arms_and_psl_income_only():
    g = h.empty("1958")
    s = g.state
    s.naval = 4
    h.set_psl(g, 60, 50)
    from djebel.algeria.rules import reinforcement
    assert reinforcement.psl_income(s) == 2


def test_11_7_division_modes_firepower_contact_control():
    g = h.empty("1958")
    s = g.state
    h.put(g, "fr_xx1", "II-1")
    h.put(g, "fr_xx2", "II-2", dispersed=True)
    c, d = h.U("fr_xx1"), h.U("fr_xx2")
    assert (common.firepower(s, c), common.contact(s, c), common.control_points(s, c)) == (
        25, 1, 1)
    assert (common.firepower(s, d), common.contact(s, d), common.control_points(s, d)) == (
        12, 2, 3)
    assert interphase.points(s, h.A("II-2")) == (0, 3)


def test_11_7_divisions_are_never_airmobilized():
    g = h.empty("1958")
    h.put(g, "fr_xx1", "II-1")
    g.state.helo_avail = 9
    h.at(g, ("gov_deploy", "gov"))
    assert "airmobilize fr_xx1" not in h.legal(g)
