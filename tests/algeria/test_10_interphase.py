"""10 Turn Interphase: control (10.1), depreciation (10.11), recovery (10.2),
redeployment (10.3) and the final PSL adjustment (10.4)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.algeria.board import AIRMOBILE  # noqa: E402
from djebel.algeria.rules import interphase  # noqa: E402
from djebel.algeria.state import CONTESTED, FLN_CONTROL, GOV_CONTROL  # noqa: E402

# ---------------------------------------------------------------- 10.1 control


def worked_case():
    g = h.empty("1958")
    for u in ("front1", "cadre1", "cadre2"):
        h.put(g, u, "II-1", "UG")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "fr_x1", "II-1", "OPS")
    h.put(g, "al_x1", "II-1", "OC")
    return g


@pytest.mark.parametrize("fln_roll, gov_roll, result", [
    (2, 3, FLN_CONTROL), (3, 1, GOV_CONTROL), (1, 2, CONTESTED), (3, 4, CONTESTED)])
def test_10_1_worked_case_front_two_cadres_v_police_two_brigades(fln_roll, gov_roll, result):
    g = worked_case()
    assert interphase.points(g.state, h.A("II-1")) == (5, 3)
    h.script(g, fln_roll, gov_roll)
    interphase.control(g.state)
    assert g.state.control[h.A("II-1")] == result
    assert "(5 v 3, need <= 2)" in h.log_text(g)
    assert h.used_all(g)


def test_10_1_double_points_control_equal_contested_neutralized_zero():
    g = h.empty("1958")
    s = g.state
    h.put(g, "cadre1", "II-1", "UG")                 # 1 v 0: FLN
    h.put(g, "front1", "II-2", "UG")
    h.put(g, "fr_xx1", "II-2", "OC", dispersed=True)  # 3 v 3: Contested
    h.put(g, "front2", "II-3", "UG")                  # 3 v 1 (+1 neutralized): FLN
    h.put(g, "police1", "II-3", "PTL")
    h.put(g, "police2", "II-3", "PTL", neut=True)
    h.put(g, "band1", "III-1", "UG")                  # 1 v 2: GOV
    h.put(g, "fr_xx2", "III-1", "OPS")
    h.put(g, "al_x1", "III-1", "OC", active=False)
    h.put(g, "cadre2", "III-2", "UG", neut=True)      # 0 v 0: Contested
    h.script(g)
    interphase.control(s)
    assert g.state.dice.count == 0
    got = [s.control[h.A(a)] for a in ("II-1", "II-2", "II-3", "III-1", "III-2", "ORAN")]
    assert got == [FLN_CONTROL, CONTESTED, FLN_CONTROL, GOV_CONTROL, CONTESTED, CONTESTED]
    assert s.control_decided


def test_10_1_countries_and_france_are_never_scored():
    g = h.empty("1958")
    h.put(g, "band1", "TUNISIA", "OPS")
    h.put(g, "cadre1", "FRANCE", "UG")
    interphase.control(g.state)
    for a in ("TUNISIA", "FRANCE"):
        assert g.state.control[h.A(a)] == CONTESTED


# ---------------------------------------------------------------- 10.11 depreciation


def test_10_11_worked_case_17_ap_loss_4():
    g = h.empty("1958")
    s = g.state
    s.air_max = s.helo_max = 0
    s.ap = 17
    h.set_psl(g, 50, 50)
    h.script(g, 4)
    interphase.depreciation(s)
    assert s.ap == 13
    s.ap = 17
    h.script(g, 5)
    interphase.depreciation(s)
    assert s.ap == 17


@pytest.mark.parametrize("psl, roll, lost", [(70, 3, True), (70, 4, False), (30, 5, True),
                                             (31, 5, False), (69, 4, True)])
def test_10_11_depreciation_drm_by_psl(psl, roll, lost):
    g = h.empty("1958")
    s = g.state
    s.air_max = s.helo_max = 0
    s.ap = 17
    h.set_psl(g, psl, 50)
    h.script(g, roll)
    interphase.depreciation(s)
    assert s.ap == (13 if lost else 17)


def test_10_11_air_then_helo_on_maximum_with_gov_psl_naval_never():
    g = h.empty("1958")
    s = g.state
    s.air_max, s.air_avail = 6, 1        # 6-10: loss 2
    s.helo_max, s.helo_avail = 4, 0      # 1-5: loss 1
    s.naval = 3
    s.ap = 0                             # no AP: no roll
    h.set_psl(g, 50, 25)                 # GOV PSL <= 30: -1
    h.script(g, 3, 3)                    # air 3 - 1 = 2 <= 2: -2; helo 3 - 1 = 2 > 1
    interphase.depreciation(s)
    assert (s.air_max, s.helo_max, s.naval) == (4, 4, 3)
    assert h.used_all(g) and s.dice.count == 2


# ---------------------------------------------------------------- 10.2 recovery


def test_10_2_recovery_drms_dis_03_and_dis_20():
    g = h.empty("1958")
    s = g.state
    h.put(g, "el_x1", "II-1", "OC", neut=True)     # elite +1, GOV PSL >= 70: still +1
    h.put(g, "fr_x1", "II-1", "OC", neut=True)     # PSL >= 70 +1
    h.put(g, "police1", "II-1", "PTL", neut=True)
    h.put(g, "band1", "II-1", "OC", neut=True)     # FLN PSL <= 30: -1
    h.put(g, "band2", "II-2", "OC", neut=True)
    h.set_psl(g, 30, 75)
    # Units roll in counter order: fr_x1 4+1 = 5 recovers; el_x1 3+1 = 4 stays (no +2);
    # police1 4+1 = 5 recovers; band1 5-1 = 4 stays; band2 6-1 = 5 recovers.
    h.script(g, 4, 3, 4, 5, 6)
    interphase.recovery(s)
    assert not h.neut(g, "fr_x1") and h.neut(g, "el_x1")
    assert not h.neut(g, "police1")
    assert h.neut(g, "band1") and not h.neut(g, "band2")
    assert h.used_all(g)


def test_10_2_recovery_low_gov_psl_and_elite_cancel():
    g = h.empty("1958")
    h.put(g, "el_x1", "II-1", "OC", neut=True)     # +1 elite -1 PSL <= 30 = 0
    h.set_psl(g, 50, 30)
    h.script(g, 4)
    interphase.recovery(g.state)
    assert h.neut(g, "el_x1")


def test_10_2_terror_recovery_plus_one_without_fln_units():
    g = h.empty("1958")
    s = g.state
    s.terror[h.A("II-1")] = True
    s.terror[h.A("II-2")] = True
    h.put(g, "cadre1", "II-2", "UG")
    h.put(g, "cadre2", "II-1", "UG", neut=True)    # neutralized: does not count
    h.script(g, 4, 4)
    interphase.recovery(s)
    assert not s.terror[h.A("II-1")] and s.terror[h.A("II-2")]


# ---------------------------------------------------------------- 10.3 redeployment


def test_10_3_redeployment_printed_rule_int_44():
    g = h.empty("1958")
    s = g.state
    h.put(g, "cadre1", "II-1", "OC", neut=True)
    h.put(g, "front1", "II-1", "OPS")
    h.put(g, "band1", "TUNISIA", "OPS")
    h.put(g, "cadre2", "FRANCE", "OC")
    h.put(g, "el_x1", "II-1", "OC", neut=True, airmobile=True)
    h.put(g, "fr_x1", "II-1", "PTL", airmobile=True)
    h.put(g, "police1", "II-1", "PTL")
    s.air_max, s.air_avail, s.helo_max, s.helo_avail = 5, 1, 3, 0
    s.bz, s.bz_active = -2, True
    interphase.redeployment(s)
    assert h.where(g, "cadre1") == ("II-1", "UG") and h.where(g, "front1") == ("II-1", "UG")
    assert h.where(g, "band1") == ("TUNISIA", "OPS")
    assert h.where(g, "cadre2") == ("FRANCE", "OC")
    assert h.where(g, "el_x1") == ("II-1", "OPS") and h.where(g, "fr_x1") == ("II-1", "OPS")
    assert h.neut(g, "el_x1") and h.neut(g, "cadre1")
    assert not h.flag(g, "el_x1", AIRMOBILE) and not h.flag(g, "fr_x1", AIRMOBILE)
    assert h.where(g, "police1") == ("II-1", "PTL")
    assert (s.air_avail, s.helo_avail) == (5, 3)
    assert not s.bz_active and s.bz == -2


# ---------------------------------------------------------------- 10.4 final adjustment


def test_10_4_final_psl_adjustment_steps_in_order():
    g = h.empty("1958")
    s = g.state
    s.oas = h.A("ALGIERS")
    s.terror[h.A("II-1")] = True
    s.resettled[h.A("II-2")] = True
    s.terror[h.A("II-2")] = True                   # both: 1 PSP (DIS-17)
    s.resettled[h.A("II-3")] = True
    h.put(g, "cadre1", "II-1", "UG", neut=True)    # no non-neutralized mobile unit
    h.put(g, "front1", "III-1", "UG")              # Fronts are not mobile units
    h.put(g, "cadre2", "FRANCE", "UG")             # France is not Algeria
    for u in ("failek1", "failek2", "failek3"):
        h.put(g, u, "TUNISIA", "OPS")              # 12
    h.put(g, "band1", "MOROCCO", "OPS")            # 2
    h.put(g, "cadre3", "MOROCCO", "UG")            # 1 -> 15 -> +1
    for a in ("I-1", "I-2", "I-3", "I-4", "IV-1"):
        h.control(g, a, "fln")
    for a in ("V-1", "V-2"):
        h.control(g, a, "gov")                     # 5 v 2 -> FLN +1
    h.set_psl(g, 40, 50)
    h.script(g, 1, 2, 3)
    h.at(g, ("final_psl",))
    assert h.psl(g) == (40 - 6 + 1 + 1, 50 - 1 - 3)
    rules = [e.rule for e in g.log.entries() if "PSL" in e.text]
    assert rules == ["11.3", "10.4", "10.4", "10.4", "10.4"]
    texts = [e.text for e in g.log.entries() if "PSL" in e.text]
    assert "OAS" in texts[0] and "Terrorized" in texts[1] and "no FLN mobile" in texts[2]
    assert "Morocco/Tunisia" in texts[3] and "control 5 v 2" in texts[4]


def test_10_4_oas_in_france_costs_two_and_gov_control_bonus():
    g = h.empty("1958")
    s = g.state
    s.oas = h.A("FRANCE")
    h.put(g, "band1", "II-1", "UG")
    for a in ("V-1", "V-2", "V-3"):
        h.control(g, a, "gov")                     # 0 v 3 -> GOV +1
    h.set_psl(g, 40, 50)
    h.at(g, ("final_psl",))
    assert h.psl(g) == (40, 49)


def test_10_4_game_ends_at_the_step_that_reaches_zero():
    g = h.empty("1958")
    s = g.state
    s.oas = h.A("FRANCE")
    h.put(g, "band1", "II-1", "UG")
    for a in ("V-1", "V-2", "V-3", "V-4"):
        h.control(g, a, "gov")                     # would give GOV +2 afterwards
    h.set_psl(g, 40, 2)
    h.at(g, ("final_psl",))
    assert g.is_over() and g.result().winner == "fln"
    assert s.gov_psl == 0


def test_10_interphase_runs_control_depreciation_recovery_redeployment_then_final():
    g = h.empty("1958")
    s = g.state
    s.air_max = s.helo_max = 0
    s.ap = 3
    h.put(g, "cadre1", "II-1", "OC", neut=True)
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "fr_x1", "II-1", "OC")
    h.set_psl(g, 40, 50)
    # Control II-1: 1 v 1 -> Contested, no roll. AP 3: loss 1, roll 1 -> lost.
    # Recovery: cadre1 roll 5 -> recovers.
    h.script(g, 1, 5)
    h.at(g, ("interphase",))
    assert s.ap == 2
    assert not h.neut(g, "cadre1")
    assert h.where(g, "cadre1") == ("II-1", "UG") and h.where(g, "band1") == ("II-1", "UG")
    assert h.where(g, "fr_x1") == ("II-1", "OPS")
    order = [e.rule for e in g.log.entries()]
    assert order.index("10.1") < order.index("10.11") < order.index("10.2")


@pytest.mark.parametrize("points, loss", [(1, 1), (5, 1), (6, 2), (10, 2), (11, 3), (15, 3),
                                          (16, 4), (20, 4), (21, 5), (24, 5), (25, 6),
                                          (99, 6)])
def test_10_11_loss_numbers_c4(points, loss):
    g = h.empty("1958")
    s = g.state
    s.air_max = s.helo_max = 0
    s.ap = points
    h.set_psl(g, 50, 50)
    h.script(g, 1)
    interphase.depreciation(s)
    assert s.ap == max(0, points - loss)
