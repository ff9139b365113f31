"""8 Operations Phase: the FLN's initiative, hand-over, passes (8-2..8-4, INT-28) and the
OAS Suppression that opens the phase (8-1)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.core.errors import IllegalAction  # noqa: E402


def setup():
    g = h.empty("1958")
    h.put(g, "cadre1", "II-1", "OPS")
    h.put(g, "cadre2", "II-2", "OPS")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "band1", "III-1", "UG")
    h.put(g, "police2", "III-1", "PTL")
    g.state.ap = 5
    h.at(g, ("operations",))
    return g


def test_8_4_fln_pass_then_gov_pass_ends_the_phase():
    g = setup()
    assert g.decision() == "ops_fln"
    g.apply("pass")
    assert g.decision() == "ops_gov"
    g.apply("pass")
    assert g.state.stack == []
    assert "Two consecutive passes" in h.log_text(g)


def test_8_4_a_mission_between_passes_resets_the_count():
    g = setup()
    g.apply("pass")
    h.script(g, 6)
    g.apply("intelligence III-1")        # 6 > contact 2: the Band stays in UG
    assert g.decision() == "ops_fln"
    g.apply("pass")                      # not sticky: the FLN chooses again
    assert g.decision() == "ops_gov"
    g.apply("pass")
    assert g.state.stack == []


def test_8_2_handover_then_gov_pass_then_fln_pass_ends():
    g = setup()
    g.apply("handover")
    assert g.decision() == "ops_gov"
    g.apply("pass")
    assert g.decision() == "ops_fln"
    assert "handover" not in h.legal(g)  # INT-28 (c)
    with pytest.raises(IllegalAction) as err:
        g.apply("handover")
    assert err.value.rule == "8"
    g.apply("pass")
    assert g.state.stack == []


def test_8_2_fln_mission_after_a_gov_pass_keeps_the_phase_going():
    g = setup()
    g.apply("handover")
    g.apply("pass")
    h.script(g, 4)
    g.apply("propaganda cadre2")
    g.apply("psp 2")
    assert g.decision() == "ops_fln"
    assert "handover" in h.legal(g)
    g.apply("pass")
    assert g.decision() == "ops_gov"


def test_8_3_after_a_gov_mission_the_initiative_returns_to_the_fln():
    g = setup()
    g.apply("handover")
    h.script(g, 6)
    g.apply("intelligence III-1")
    assert g.decision() == "ops_fln"


def test_8_7_mission_cost_must_be_paid_when_declared():
    g = setup()
    g.state.ap = 0
    assert "propaganda cadre1" not in h.legal(g)


def test_8_1_oas_suppression_opens_the_phase_terror_no_police_needed():
    g = h.empty("1958")
    g.state.oas = h.A("ALGIERS")
    h.put(g, "band1", "ALGIERS", "UG")
    h.put(g, "el_x1", "ALGIERS", "OPS")              # no elite DRM for the OAS
    h.set_psl(g, 40, 50)
    h.script(g, 3)                       # "1": one Band neutralized (the only one)
    h.at(g, ("operations",))
    assert h.neut(g, "band1")
    assert g.state.terror[h.A("ALGIERS")]
    assert h.psl(g) == (40, 50)          # free
    assert "DRM +0" in h.log_text(g)
    assert g.decision() == "ops_fln"
    g.apply("handover")
    h.put(g, "police1", "ALGIERS", "PTL")
    assert "suppression ALGIERS" not in h.legal(g)    # it used the area's Suppression


def test_11_3_oas_suppression_plus_costs_gov_and_amnesty_applies():
    g = h.empty("1958")
    g.state.oas = h.A("ORAN")
    g.state.amnesty = True
    h.set_psl(g, 40, 50)
    h.script(g, 1)                       # 1 + 1 (Amnesty) = 2 -> "1"
    h.at(g, ("operations",))
    assert "DRM +1" in h.log_text(g)
    assert h.psl(g) == (40, 50)
    assert g.state.terror[h.A("ORAN")]


def test_8_1_oas_in_france_makes_no_suppression():
    g = h.empty("1958")
    g.state.oas = h.A("FRANCE")
    h.script(g)
    h.at(g, ("operations",))
    assert g.state.dice.count == 0
    assert g.decision() == "ops_fln"
