"""The scenarios added for issue 14: CASEVAC in the Oued Rhoumel (wounded down at the
start, D73) and the search of Douar Ouled Brahim (civilians, sudden death at three
civilian casualties, R155/D78/D79); and the scenario field that puts wounded down."""

from __future__ import annotations

import pytest
from skirmish_helpers import F, I, go, scenario_text

from djebel.core.errors import IllegalAction, ScenarioError
from djebel.skirmish import new_game
from djebel.skirmish.bots import MatrixBot, play_out


def test_D73_casevac_starts_with_its_two_wounded_to_recover():
    g = new_game("casevac", 3)
    assert [(m.label, m.x, m.y, m.on_table) for m in g.markers] == [
        ("C1", 58.0, 56.0, True), ("C2", 63.0, 55.0, True)]
    assert g.phasing == "insurgents" and g.scn.casevac_zones
    assert g.el("Puma").off_table and g.el("Puma").available_turn == 2
    # D78: both markers count for the Insurgents until they are evacuated (1 VP each
    # since the rebalance, docs/balance.md)
    from djebel.skirmish.rules import garnish
    assert garnish.score(g, final=True) == {"french": 0, "insurgents": 2}


def test_D73_a_wounded_man_is_picked_up_by_the_patrol_beside_him():
    g = new_game("casevac", 3)
    go(g, "endphase")                               # the Insurgents hold their fire
    assert g.phasing == "french"
    g.place(g.el("F2"), 56, 56, 90)                 # the rifle team beside C1 (58, 56)
    go(g, "activate F2")
    with pytest.raises(IllegalAction, match="not in base contact"):
        g.validate("pickup F2 C2")                  # C2 lies at (63, 55), out of reach
    go(g, "pickup F2 C1")
    assert g.markers[0].carried_by == g.el("F2").id


def test_D73_wounded_follow_the_casualty_rules_option():
    assert new_game("casevac", 0, {"casualty_rules": False}).markers == []


def test_scenario_casualties_field_is_checked(tmp_path):
    text = scenario_text([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)])
    path = tmp_path / "wounded.toml"
    path.write_text("casualties = [[30, 30], [200, 5]]\n" + text)
    with pytest.raises(ScenarioError) as exc:
        new_game(str(path))
    assert "casualties[1]" in str(exc.value) and str(path) in str(exc.value)
    path.write_text("casualties = [[30, 30]]\n" + text)
    assert [(m.x, m.y) for m in new_game(str(path)).markers] == [(30.0, 30.0)]


def test_R155_D79_douar_is_lost_at_the_third_civilian_casualty():
    g = new_game("douar", 1)
    assert g.scn.searchable == ("d1", "d2") and len(g.scn.civilians) == 8
    g.civ_hits = [1, 1, 0, 0, 0, 0, 0, 0]
    go(g, "endphase")
    assert not g.is_over()                          # two casualties: the search goes on
    g.civ_hits = [1, 1, 1, 0, 0, 0, 0, 0]
    go(g, "endphase")
    r = g.result()
    assert (r.winner, r.level, r.reason) == ("insurgents", "sudden death",
                                             "sudden death: civilian casualties")


def test_D78_douar_scores_a_search_of_an_empty_house():
    """d1 starts empty (balance): a rifle team inside it at the end of a French phase
    searches it for good, 8 VP."""
    g = new_game("douar", 1)
    g.place(g.el("F2"), 45, 54, 0)
    go(g, "endphase")
    assert g.searched == ("d1",)
    from djebel.skirmish.rules import garnish
    assert garnish.score(g, final=True)["french"] == 8


@pytest.mark.parametrize("scenario", ["casevac", "douar"])
def test_new_scenarios_play_to_the_end_with_bots(scenario):
    g = new_game(scenario, 5, {"log": False})
    play_out(g, MatrixBot(5, log=False), MatrixBot(6, log=False))
    assert g.is_over() and g.result().reason


def test_D75_a_scenario_may_not_set_an_element_on_civilians(tmp_path):
    text = scenario_text([F("french_rifle", 20, 20), I("ins_rifle", 80, 20)],
                         civilians=[(80.5, 20.5)])
    path = tmp_path / "shield.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as exc:
        new_game(str(path))
    assert "force[1].at" in str(exc.value) and "civilians (D75)" in str(exc.value)
