"""5 Random Events Phase: every row of chart C.2, with scripted dice."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.algeria.board import ACTIVE, NATO, POOL, SUEZ  # noqa: E402


def event(g, *rolls):
    """Run the Random Events Phase with the given dice."""
    h.script(g, *rolls)
    h.at(g, ("random_events",))


def test_C2_11_26_no_event():
    g = h.empty("1958")
    h.set_psl(g, 40, 50)
    event(g, 2, 6)
    assert "Event 26: No event" in h.log_text(g)
    assert h.psl(g) == (40, 50) and g.state.ap == 0
    assert g.state.stack == [] and h.used_all(g)


def test_C2_31_33_foreign_arms_2d6_minus_naval():
    g = h.empty("1958")                  # Naval 2
    event(g, 3, 1, 5, 6)
    assert g.state.ap == 9
    g = h.empty("1958")
    g.state.naval = 5
    event(g, 3, 3, 1, 2)
    assert g.state.ap == 0               # never below 0


def test_C2_34_36_jealousy_and_paranoia_this_turn_only():
    g = h.empty("1958")
    event(g, 3, 5)
    assert g.state.jealousy
    h.script(g, 1, 1)
    h.at(g, ("turn_start",))
    assert not g.state.jealousy


def test_C2_41_42_elections_coup_table_psp_only_no_units():
    g = h.empty("1958")
    h.put(g, "el_x1", "II-1")
    h.set_psl(g, 40, 25)                 # even with GOV <= 30 and OAS in France: no DRM
    g.state.oas = h.A("FRANCE")
    event(g, 4, 1, 1, 1, 2, 3, 4)        # 2d6 = 2: wild success, +3d6 = 9; no units
    assert h.psl(g) == (40, 34)
    assert g.state.stack == [] and h.used_all(g)
    g = h.empty("1958")
    h.put(g, "el_x1", "II-1")
    h.set_psl(g, 40, 50)
    event(g, 4, 2, 4, 4, 3, 3)           # 8: failure, -2d6 = 6; no elite removed
    assert h.psl(g) == (40, 44)
    assert h.where(g, "el_x1") == ("II-1", "OPS")


def test_C2_43_44_un_debate_higher_psl_picks_tie_goes_to_fln_int_05():
    g = h.empty("1958")
    h.set_psl(g, 50, 50)
    event(g, 4, 3)
    assert g.decision() == "un_debate" and g.active_side == "fln"
    h.script(g, 4)
    g.apply("un lower-gov")
    assert h.psl(g) == (50, 46)
    g = h.empty("1958")
    h.set_psl(g, 40, 50)
    event(g, 4, 4)
    assert g.active_side == "gov"
    h.script(g, 3)
    g.apply("un raise-fln")
    assert h.psl(g) == (43, 50)


def test_C2_45_46_factional_purge_gov_picks_wilaya_fln_picks_units():
    g = h.empty("1958")
    h.put(g, "front1", "CONSTANTINE", "UG")         # urban area is part of wilaya II
    h.put(g, "cadre1", "II-1", "UG")
    h.put(g, "band1", "II-3", "OPS")
    h.put(g, "band2", "II-2", "UG", neut=True)       # already neutralized: not counted
    h.put(g, "band3", "I-1", "UG")                   # other wilaya
    event(g, 4, 5)
    assert g.decision() == "purge_wilaya" and g.active_side == "gov"
    h.script(g, 2)
    g.apply("purge II")
    assert g.decision() == "pick" and g.active_side == "fln"
    assert set(h.legal(g)) == {"pick front1", "pick cadre1", "pick band1"}
    g.apply("pick front1")
    g.apply("pick band1")
    assert h.neut(g, "front1") and h.neut(g, "band1") and not h.neut(g, "cadre1")
    assert not h.neut(g, "band3")


def test_C2_45_46_factional_purge_capped_by_units_present():
    g = h.empty("1958")
    h.put(g, "cadre1", "II-1", "UG")
    event(g, 4, 6)
    h.script(g, 6)
    g.apply("purge II")
    assert h.neut(g, "cadre1")
    assert g.state.stack == []


def test_C2_51_54_independence_first_time_in_1954():
    g = h.empty("1954")
    h.set_psl(g, 50, 65)
    event(g, 5, 1, 1, 2, 3, 4)
    assert g.state.independent
    assert h.psl(g) == (53, 72)
    # Rolled again: MST (no DRM) in AP.
    event(g, 5, 4, 6)
    assert g.state.ap == 3 and h.psl(g) == (53, 72)


def test_C2_51_54_independence_in_1958_gives_mst_ap():
    g = h.empty("1958")
    h.set_psl(g, 50, 50)
    event(g, 5, 2, 1)                    # "1+": 1 AP, the symbol ignored
    assert g.state.ap == 1 and h.psl(g) == (50, 50)


def test_C2_55_56_nato_division_counts_three_elites_exempt_int_07():
    g = h.empty("1958")
    h.put(g, "fr_xx1", "II-1")
    h.put(g, "fr_x1", "II-1")
    h.put(g, "fr_x2", "III-1", "OC", neut=True)     # any box or state
    h.put(g, "el_x1", "II-1")
    h.put(g, "al_x1", "II-1")
    event(g, 5, 5, 5)                    # 1d6 = 5 brigade-equivalents
    assert g.decision() == "nato_remove" and g.state.stack[-1][2] == 5
    assert set(h.legal(g)) == {"remove fr_xx1", "remove fr_x1", "remove fr_x2"}
    g.apply("remove fr_xx1")
    assert g.state.stack[-1][2] == 2
    g.apply("remove fr_x1")
    g.apply("remove fr_x2")
    assert g.state.stack == []
    s = g.state
    assert s.loc[h.U("fr_xx1")] == NATO and s.loc[h.U("fr_x2")] == NATO
    assert s.loc[h.U("el_x1")] == h.A("II-1")
    # Mobilizable again only from the next turn.
    h.script(g, 1, 1)
    h.at(g, ("turn_start",))
    assert s.loc[h.U("fr_xx1")] == POOL and s.loc[h.U("fr_x1")] == POOL


def test_C2_55_56_nato_capped_by_what_is_on_the_map():
    g = h.empty("1958")
    h.put(g, "fr_x1", "II-1")
    event(g, 5, 6, 6)
    assert g.state.stack[-1][2] == 1
    g.apply("remove fr_x1")
    assert g.state.stack == []


def test_C2_61_62_suez_1954_once_elites_return_next_reinforcement_dis_18():
    g = h.empty("1954")
    h.put(g, "el_x1", "V-3", "PTL")
    h.put(g, "el_x2", "ORAN", "OPS")
    h.put(g, "el_x3", "II-1", "OPS")
    event(g, 6, 1, 2)                    # 1d6 = 2 of the 3 elites, GOV choosing
    assert g.decision() == "pick" and g.active_side == "gov"
    g.apply("pick el_x1")
    g.apply("pick el_x2")
    s = g.state
    assert s.loc[h.U("el_x1")] == SUEZ and s.loc[h.U("el_x2")] == SUEZ
    assert s.suez_used
    # Rolled again: no event.
    event(g, 6, 2)
    assert "Treated as No Event" in h.log_text(g)
    assert s.loc[h.U("el_x3")] == h.A("II-1")
    # Not in this turn's Reinforcement Phase (DIS-18)...
    h.set_psl(g, 50, 60)
    h.at(g, ("gov_reinforcement",))
    assert s.loc[h.U("el_x1")] == SUEZ
    # ...but in the next turn's: back in the area left, and must be activated.
    s.turn += 1
    h.at(g, ("gov_reinforcement",))
    assert h.where(g, "el_x1") == ("V-3", "OPS") and h.where(g, "el_x2") == ("ORAN", "OPS")
    assert not h.flag(g, "el_x1", ACTIVE)
    g.apply("activate el_x1")
    g.apply("done")
    assert h.where(g, "el_x1") == ("V-3", "OPS") and h.flag(g, "el_x1", ACTIVE)
    assert h.where(g, "el_x2") == ("ORAN", "OC")
    assert g.state.gov_psl == 59        # 1/2 rounded up


def test_C2_61_62_suez_is_no_event_in_1958():
    g = h.empty("1958")
    h.put(g, "el_x1", "II-1")
    event(g, 6, 2)
    assert h.where(g, "el_x1") == ("II-1", "OPS")
    assert g.state.stack == []


def test_C2_63_64_amnesty_flag_for_this_turn():
    g = h.empty("1958")
    event(g, 6, 3)
    assert g.state.amnesty
    h.script(g, 1, 1)
    h.at(g, ("turn_start",))
    assert not g.state.amnesty


def test_C2_65_66_sartre():
    g = h.empty("1958")
    h.set_psl(g, 40, 50)
    event(g, 6, 6)
    assert h.psl(g) == (40, 49)


def test_5_3_oas_controller_rolled_after_the_event():
    g = h.empty("1958")
    g.state.oas = h.A("ALGIERS")
    g.state.oas_controller = "gov"
    event(g, 2, 2, 3)                    # no event, then OAS control 3 -> FLN
    assert g.state.oas_controller == "fln"
    event(g, 2, 2, 4)
    assert g.state.oas_controller == "gov"
