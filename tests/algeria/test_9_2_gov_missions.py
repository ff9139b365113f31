"""9.2 Government missions (B.3): Flush, React, Intelligence, Civil Affairs, Suppression,
Population Resettlement, with scripted dice."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.algeria.board import AIRMOBILE  # noqa: E402

# ---------------------------------------------------------------- 9.22 Flush


def _adds(g):
    return {a.split()[1] for a in h.legal(g) if a.startswith("add")}


def test_9_22_grouping_only_elites_without_a_division():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "fr_x1", "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "PTL")
    h.put(g, "el_x2", "II-1", "OPS")
    h.ops(g, "gov")
    g.apply("flush II-1")
    assert _adds(g) == {"fr_x1", "el_x1", "el_x2"}
    g.apply("add el_x1")
    assert _adds(g) == {"el_x2"}         # elites combine only with elites
    g2 = h.empty("1958")
    h.put(g2, "band1", "II-1", "OPS")
    h.put(g2, "fr_x1", "II-1", "OPS")
    h.put(g2, "el_x1", "II-1", "OPS")
    h.ops(g2, "gov")
    g2.apply("flush II-1")
    g2.apply("add fr_x1")
    assert _adds(g2) == set()            # a regular brigade flushes alone
    assert "go" in h.legal(g2)


def test_9_22_any_division_in_the_area_allows_grouping():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "fr_x1", "II-1", "OPS")
    h.put(g, "al_x1", "II-1", "PTL")
    h.put(g, "fr_xx1", "II-1", "OC", neut=True, active=False)   # neutralized, inactive
    h.ops(g, "gov")
    g.apply("flush II-1")
    g.apply("add fr_x1")
    assert _adds(g) == {"al_x1"}


def test_9_22_airmobile_from_elsewhere_needs_elite_or_division_dis_16():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "fr_x1", "II-2", "OPS", airmobile=True)
    h.put(g, "el_x1", "III-1", "PTL", airmobile=True)
    h.put(g, "el_x2", "III-1", "OPS")                 # not airmobile
    g.state.helo_avail = 0
    h.ops(g, "gov")
    g.apply("flush II-1")
    assert _adds(g) == {"el_x1"}         # the regular brigade may not fly in, even alone
    h.put(g, "fr_xx1", "II-1", "OC", active=False)
    assert _adds(g) == {"el_x1", "fr_x1"}


def test_9_22_airmobilize_during_selection_costs_helo_points():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "el_x1", "III-1", "OPS")
    h.put(g, "fr_x1", "III-1", "OPS")
    g.state.helo_avail = 1
    h.ops(g, "gov")
    g.apply("flush II-1")
    assert "airmobilize el_x1" in h.legal(g)
    assert "airmobilize fr_x1" not in h.legal(g)    # 2 Helo, and no division there
    g.apply("airmobilize el_x1")
    assert g.state.helo_avail == 0 and h.flag(g, "el_x1", AIRMOBILE)
    assert "add el_x1" in h.legal(g)


def test_9_22_contact_rolls_remote_terror_and_evasion_drm():
    g = h.empty("1958")
    a = "V-5"                            # Remote
    h.put(g, "band1", a, "OPS")
    h.put(g, "cadre1", a, "OC")
    h.put(g, "band2", a, "UG")           # underground: not rolled for
    h.put(g, "fr_xx1", a, "OPS", dispersed=True)    # contact 2
    h.put(g, "el_x1", a, "OPS")                     # contact 2 -> total 4
    g.state.terror[h.A(a)] = True
    g.state.air_avail = 0
    h.set_psl(g, 40, 50)
    # Band: evasion 3, not > 4: DRM +2 (Remote, Terror): 2 -> 4 <= 4 contacted.
    # Cadre: evasion 4, not > 4: 3 -> 5 > 4, not contacted.
    # Combat: FLN FP 2 (column 2-4) roll 1 -> 0; GOV FP 12 + 9 = 21 (16-24) roll 1 -> 2.
    h.script(g, 2, 3, 1, 1)
    h.ops(g, "gov")
    g.apply("flush V-5")
    g.apply("add fr_xx1")
    g.apply("add el_x1")
    g.apply("go")
    assert g.state.combat["fln"] == [h.U("band1")]
    assert g.state.combat["on_fln"] == 2
    g.apply("hit band1")                 # one hit eliminates it; the second is lost
    assert h.where(g, "band1")[0] == "off"
    g.apply("psp 1")
    assert h.psl(g) == (40, 51)
    assert h.where(g, "cadre1") == ("V-5", "OC")
    assert h.where(g, "band2") == ("V-5", "UG")
    assert h.where(g, "fr_xx1") == ("V-5", "OC") and h.where(g, "el_x1") == ("V-5", "OC")
    assert h.used_all(g)
    assert g.decision() == "ops_fln"


def test_9_22_contact_rolls_urban_drm_and_evasion_above_contact():
    g = h.empty("1958")
    h.put(g, "band1", "ALGIERS", "OPS")
    h.put(g, "el_x1", "ALGIERS", "OPS")   # contact 2 < band evasion 3: +1; Urban -1
    h.script(g, 2, 1, 1)                 # 2 + 0 = 2 <= 2: contacted; then CRT rolls
    h.ops(g, "gov")
    g.apply("flush ALGIERS")
    g.apply("add el_x1")
    g.apply("go")
    assert g.decision() != "air_commit"  # 11.11-3: no Air Points to commit, no prompt
    assert g.state.combat["fln"] == [h.U("band1")]
    assert "(DRM +0, contact 2)" in h.log_text(g)


def test_9_22_airmobile_contact_plus_one_and_flies_to_the_target():
    g = h.empty("1958")
    h.put(g, "cadre1", "II-1", "OPS")
    h.put(g, "el_x1", "III-1", "OPS", airmobile=True)      # contact 2 + 1 = 3
    g.state.air_avail = 0
    h.script(g, 3, 1, 1)                 # cadre evasion 4 > 3: +1 -> 4 > 3: no contact
    h.ops(g, "gov")
    g.apply("flush II-1")
    g.apply("add el_x1")
    g.apply("go")
    assert "contact 3" in h.log_text(g)
    assert "No contact" in h.log_text(g)
    assert h.where(g, "el_x1") == ("II-1", "OC")            # INT-31
    assert h.where(g, "cadre1") == ("II-1", "OPS")
    assert g.decision() == "ops_fln"


def test_9_22_flush_rolls_for_fronts_and_neutralized_units():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "OPS")
    h.put(g, "band1", "II-1", "OC", neut=True)
    h.put(g, "fr_x1", "II-1", "OPS")
    g.state.air_avail = 0
    # contact 1: Front evasion 3 > 1 (+1): 1 -> 2 > 1; Band +1: roll 1 -> 2: none found.
    h.script(g, 1, 1)
    h.ops(g, "gov")
    g.apply("flush II-1")
    g.apply("add fr_x1")
    g.apply("go")
    assert h.log_text(g).count("contact roll") == 2
    assert "No contact" in h.log_text(g)


def test_9_22_flush_needs_fln_units_in_ops_or_oc():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "UG")
    h.put(g, "fr_x1", "II-1", "OPS")
    h.ops(g, "gov")
    assert "flush II-1" not in h.legal(g)
    h.put(g, "band1", "II-1", "OC")
    assert "flush II-1" in h.legal(g)
    h.put(g, "fr_x1", "II-1", "OC")      # the unit already acted
    assert "flush II-1" not in h.legal(g)


# ---------------------------------------------------------------- 9.23 React


def test_9_23_react_evasion_to_ug_and_combat_with_the_rest():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "band2", "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "PTL")
    g.state.ap = 1
    g.state.air_avail = 1
    h.set_psl(g, 40, 50)
    # Raid: 4 + 1 = 5 -> "2" AP. React with 1 Air Point: band1 rolls 3 (<= 3, evades),
    # band2 rolls 4 (stays). Combat: Air 1d6 = 6; FLN FP 2 roll 6 -> 2; GOV 9 + 6 = 15
    # (9-15) roll 2 -> 2.
    h.script(g, 4, 3, 4, 6, 6, 2)
    h.ops(g)
    g.apply("raid band1")
    g.apply("add band2")
    g.apply("go")
    assert g.state.ap == 2
    assert g.decision() == "select"
    g.apply("add el_x1")
    g.apply("go")
    g.apply("air 1")
    assert h.where(g, "band1") == ("II-1", "UG")
    assert g.state.combat["fln"] == [h.U("band2")]
    assert g.state.combat["on_fln"] == 2 and g.state.combat["on_gov"] == 2
    g.apply("psp 2")
    g.apply("hit band2")
    g.apply("psp 1")
    assert h.psl(g) == (42, 51)
    assert h.where(g, "el_x1") == ("II-1", "OC") and not h.neut(g, "el_x1")
    assert g.state.air_avail == 0
    assert h.used_all(g)


def test_9_23_react_only_from_ops_or_ptl_of_the_area():
    g = h.empty("1958")
    h.put(g, "cadre1", "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "OC")      # already acted
    h.put(g, "el_x2", "II-2", "OPS")     # elsewhere, not airmobile
    g.state.ap = 1
    g.state.helo_avail = 0
    h.script(g, 4)
    h.ops(g)
    g.apply("propaganda cadre1")
    g.apply("psp 2")
    assert g.decision() == "ops_fln"     # no eligible unit: no React offered


# ---------------------------------------------------------------- 9.24 Intelligence


def test_9_24_intelligence_police_contact_moves_found_units_to_oc():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "UG")
    h.put(g, "cadre1", "II-1", "UG")
    h.put(g, "band1", "II-1", "OPS")     # not in UG: not rolled for
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "police2", "II-1", "PTL")
    h.put(g, "police3", "II-1", "PTL", neut=True)     # does not add contact
    h.set_psl(g, 40, 50)
    # Contact 4 (units roll in counter order): Cadre (4, not > 4) 5 -> not found;
    # Front (3) 4 -> found.
    h.script(g, 5, 4)
    h.ops(g, "gov")
    g.apply("intelligence II-1")
    assert h.psl(g) == (40, 49)
    assert h.where(g, "front1") == ("II-1", "OC")
    assert h.where(g, "cadre1") == ("II-1", "UG")
    assert "contact 4" in h.log_text(g)
    assert h.where(g, "police1") == ("II-1", "PTL")
    assert h.used_all(g)


def test_9_24_intelligence_needs_non_neutralized_police():
    g = h.empty("1958")
    h.put(g, "cadre1", "II-1", "UG")
    h.put(g, "police1", "II-1", "PTL", neut=True)
    h.put(g, "el_x1", "II-1", "OPS")
    h.ops(g, "gov")
    assert "intelligence II-1" not in h.legal(g)


# ---------------------------------------------------------------- 9.25 Civil Affairs


def test_9_25_civil_affairs_amnesty_and_terror_removal():
    g = h.empty("1958")
    h.put(g, "police1", "II-1", "PTL")
    g.state.terror[h.A("II-1")] = True
    g.state.amnesty = True
    h.set_psl(g, 40, 50)
    h.script(g, 5)                       # 5 + 1 = 6 -> "3@"
    h.ops(g, "gov")
    g.apply("civil-affairs II-1")
    assert h.psl(g) == (37, 49)
    assert not g.state.terror[h.A("II-1")]
    assert "civil-affairs II-1" not in h.legal(g) if g.decision() == "ops_gov" else True


def test_9_25_civil_affairs_plus_also_removes_terror_and_n_applies():
    g = h.empty("1958")
    h.put(g, "police1", "II-1", "PTL")
    g.state.terror[h.A("II-1")] = True
    h.set_psl(g, 40, 50)
    h.script(g, 1)                       # "1+"
    h.ops(g, "gov")
    g.apply("civil-affairs II-1")
    assert h.psl(g) == (39, 49)
    assert not g.state.terror[h.A("II-1")]


def test_9_25_civil_affairs_no_terror_removal_on_plain_result_and_limits():
    g = h.empty("1958")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "police2", "V-5", "PTL")
    g.state.terror[h.A("II-1")] = True
    h.set_psl(g, 40, 50)
    h.script(g, 4)                       # "2"
    h.ops(g, "gov")
    assert "civil-affairs V-5" not in h.legal(g)      # Remote
    g.apply("civil-affairs II-1")
    assert h.psl(g) == (38, 49)
    assert g.state.terror[h.A("II-1")]
    g.apply("handover")
    assert "civil-affairs II-1" not in h.legal(g)     # once per area per turn


# ---------------------------------------------------------------- 9.26 Suppression


def test_9_26_suppression_elite_drm_fln_chooses_victims():
    g = h.empty("1958")
    a = "II-1"
    h.put(g, "police1", a, "PTL")
    h.put(g, "el_x1", a, "OC")           # any box
    h.put(g, "el_x2", a, "OPS", neut=True)            # neutralized: no DRM
    for u, box in (("band1", "UG"), ("band2", "OPS"), ("failek1", "OC"), ("cadre1", "UG")):
        h.put(g, u, a, box)
    h.put(g, "band3", a, "OC", neut=True)
    h.set_psl(g, 40, 50)
    h.script(g, 4)                       # 4 + 1 elite = 5 -> "2"
    h.ops(g, "gov")
    g.apply("suppression II-1")
    assert h.psl(g) == (40, 49)
    assert g.decision() == "pick" and g.state.stack[-1][1] == "fln"      # DIS-09
    assert set(h.legal(g)) == {"pick band1", "pick band2", "pick failek1"}
    g.apply("pick band1")
    g.apply("pick failek1")
    assert h.neut(g, "band1") and h.neut(g, "failek1") and not h.neut(g, "band2")
    assert not h.neut(g, "cadre1")
    assert h.where(g, "band1") == (a, "UG")           # INT-44: stays in its box
    assert h.where(g, "el_x1") == (a, "OC")
    assert not g.state.terror[h.A(a)]


def test_9_26_suppression_at_neutralizes_cadres_fronts_and_terrorizes():
    g = h.empty("1958")
    a = "V-5"                            # Remote is allowed
    h.put(g, "police1", a, "PTL")
    h.put(g, "cadre1", a, "UG")
    h.put(g, "band1", a, "UG")
    g.state.amnesty = True
    h.script(g, 6)                       # 6 + 1 = 7 -> "4@"
    h.ops(g, "gov")
    g.apply("suppression V-5")
    assert h.neut(g, "cadre1") and h.neut(g, "band1")
    assert g.state.terror[h.A(a)]


def test_9_26_suppression_plus_costs_gov_1d6_and_terrorizes():
    g = h.empty("1958")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "band1", "II-1", "UG")
    h.put(g, "band2", "II-1", "UG")
    h.set_psl(g, 40, 50)
    h.script(g, 1, 5)                    # "1+": 1 Band (FLN picks), GOV -1d6 = 5
    h.ops(g, "gov")
    g.apply("suppression II-1")
    assert g.state.terror[h.A("II-1")]
    assert h.psl(g) == (40, 44)
    g.apply("pick band2")
    assert h.neut(g, "band2") and not h.neut(g, "band1")


# ---------------------------------------------------------------- 9.27 Resettlement


def test_9_27_resettlement_remote_terror_fronts_reduced_fln_3d6():
    g = h.empty("1958")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "front1", "II-1", "UG")
    h.put(g, "cadre1", "II-1", "UG")
    h.set_psl(g, 40, 50)
    h.script(g, 2, 3, 4)
    h.ops(g, "gov")
    assert "resettle CONSTANTINE" not in h.legal(g)
    assert "resettle V-5" not in h.legal(g)
    g.apply("resettle II-1")
    # GOV -1 (cost) +2 (Front reduced); FLN -1 (Front reduced) +9 (3d6).
    assert h.psl(g) == (48, 51)
    assert g.state.resettled[h.A("II-1")] and g.state.terror[h.A("II-1")]
    assert h.where(g, "front1")[0] == "off"
    assert h.where(g, "cadre1") == ("II-1", "UG")
    assert sum(1 for u in range(len(g.state.loc))
               if g.state.loc[u] == h.A("II-1")) == 3    # police1, cadre1, the new Cadre
    assert "resettle II-1" not in h.legal(g)            # now Remote


def test_9_2_police_missions_never_spend_the_psl_to_zero():
    g = h.empty("1958")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "band1", "II-1", "UG")
    h.set_psl(g, 40, 1)
    h.ops(g, "gov")
    assert h.legal(g) == ["pass"]
