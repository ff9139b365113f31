"""7 Deployment Phase: Government deployment, division modes and airmobility, then the
FLN surfacing its units and the France Cadre (11.22)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.algeria.board import AIRMOBILE, DISPERSED  # noqa: E402


def test_7_1_deploy_stay_patrol_or_another_area_once_each():
    g = h.empty("1958")
    h.put(g, "fr_x1", "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "OPS")
    h.put(g, "al_x1", "II-1", "OPS")
    h.put(g, "fr_x2", "II-1", "OC", active=False)          # not activated
    h.put(g, "el_x2", "II-1", "OPS", neut=True)
    g.state.helo_avail = 0
    h.at(g, ("gov_deploy", "gov"))
    deploys = {a for a in h.legal(g) if a.startswith("deploy")}
    assert deploys == {"deploy fr_x1", "deploy el_x1", "deploy al_x1"}
    g.apply("deploy fr_x1")
    assert "to PTL" in h.legal(g) and "stay" in h.legal(g) and "to V-5" in h.legal(g)
    assert "to TUNISIA" not in h.legal(g) and "to FRANCE" not in h.legal(g)
    g.apply("to PTL")
    g.apply("deploy el_x1")
    g.apply("to ORAN")
    g.apply("deploy al_x1")
    g.apply("stay")
    assert h.where(g, "fr_x1") == ("II-1", "PTL")
    assert h.where(g, "el_x1") == ("ORAN", "OPS")
    assert h.where(g, "al_x1") == ("II-1", "OPS")
    assert not [a for a in h.legal(g) if a.startswith("deploy")]    # once each
    g.apply("done")
    assert g.state.stack == []


def test_7_2_division_modes_even_neutralized_once_per_phase():
    g = h.empty("1958")
    h.put(g, "fr_xx1", "II-1", "OC", neut=True, active=False)
    h.put(g, "fr_xx2", "II-1", "OPS", dispersed=True)
    h.at(g, ("gov_deploy", "gov"))
    assert "mode fr_xx1 dispersed" in h.legal(g)
    assert "mode fr_xx2 concentrated" in h.legal(g)
    g.apply("mode fr_xx1 dispersed")
    assert h.flag(g, "fr_xx1", DISPERSED)
    assert not [a for a in h.legal(g) if a.startswith("mode fr_xx1")]


def test_7_3_airmobilize_in_deployment_costs():
    g = h.empty("1958")
    s = g.state
    h.put(g, "el_x1", "II-1", "OPS")
    h.put(g, "fr_x1", "II-1", "PTL")
    h.put(g, "al_x1", "II-1", "OPS")
    h.put(g, "fr_xx1", "II-1", "OPS")
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "fr_x2", "II-2", "OC", active=False)
    s.helo_avail = 3
    h.at(g, ("gov_deploy", "gov"))
    air = {a for a in h.legal(g) if a.startswith("airmobilize")}
    assert air == {"airmobilize el_x1", "airmobilize fr_x1", "airmobilize al_x1"}
    g.apply("airmobilize el_x1")
    assert s.helo_avail == 2 and h.flag(g, "el_x1", AIRMOBILE)
    g.apply("airmobilize fr_x1")
    assert s.helo_avail == 0
    assert not [a for a in h.legal(g) if a.startswith("airmobilize")]


def test_7_4_fln_surfaces_non_neutralized_units_fronts_included():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "UG")
    h.put(g, "cadre1", "II-1", "UG")
    h.put(g, "band1", "II-1", "UG", neut=True)
    h.put(g, "band2", "TUNISIA", "UG")
    h.at(g, ("fln_deployment_start",))
    assert {a for a in h.legal(g) if a.startswith("surface")} == {
        "surface front1", "surface cadre1", "surface all"}
    g.apply("surface all")
    g.apply("done")
    assert h.where(g, "front1") == ("II-1", "OPS") and h.where(g, "cadre1") == ("II-1", "OPS")
    assert h.where(g, "band1") == ("II-1", "UG")
    assert h.where(g, "band2") == ("TUNISIA", "OPS")     # INT-27


def test_11_22_cadre_to_france_from_an_area_with_a_front_and_back():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "UG")
    h.put(g, "cadre1", "II-1", "UG")
    h.put(g, "cadre2", "III-1", "UG")                     # no Front there
    h.put(g, "front2", "IV-1", "UG")
    h.at(g, ("fln_deployment_start",))
    fr = {a for a in h.legal(g) if a.startswith("france")}
    assert fr == {"france cadre1"}
    g.apply("france cadre1")
    assert h.where(g, "cadre1") == ("FRANCE", "UG")
    assert not [a for a in h.legal(g) if a.startswith(("france", "recall"))]   # one a phase
    g.apply("done")
    g.state.france_moved = False
    h.at(g, ("fln_deployment_start",))
    assert {a for a in h.legal(g) if a.startswith(("france", "recall"))} == {
        "recall II-1", "recall IV-1"}
    g.apply("recall IV-1")
    assert h.where(g, "cadre1") == ("IV-1", "UG")


def test_fln_deployment_refusals_name_their_rule():
    """7-4: only non-neutralized units in an Algerian UG box surface; 11.22-2: a Cadre
    goes to France only from an area holding a Front, one at most there."""
    import pytest

    from djebel.algeria.position import from_position
    from djebel.core.errors import IllegalAction

    g = from_position({"scenario": "1958", "turn": 2, "phase": "fln_deployment",
                       "areas": {"II-1": {"UG": ["band*", "cadre"], "OC": ["band"]},
                                 "II-2": {"UG": ["front", "cadre"]}}}, seed=1)
    for bad, rule, reason in (("surface band1", "7-4", "band1 is neutralized"),
                              ("surface band2", "7-4", "band2 is not in an UG box"),
                              ("france cadre1", "11.22-2", "only from or to an area "
                                                           "holding a Front")):
        with pytest.raises(IllegalAction) as exc:
            g.validate(bad)
        assert exc.value.rule == rule and reason in exc.value.reason, exc.value
    g.apply("france cadre2")
    with pytest.raises(IllegalAction) as exc:
        g.validate("recall II-2")
    assert exc.value.rule == "7-5"
