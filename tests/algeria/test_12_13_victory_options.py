"""12 PSL limits and victory; 13 optional rules (13.1 Slow French Reaction, 13.2 More
deterministic independence, 13.3 Shorter game)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel import algeria  # noqa: E402
from djebel.algeria import flow  # noqa: E402
from djebel.algeria.rules import common, interphase  # noqa: E402
from djebel.core.errors import ScenarioError  # noqa: E402

# ---------------------------------------------------------------- 12.1 / 12.2


def test_12_1_overflow_worked_case_fln_98_plus_10():
    g = h.empty("1958")
    h.set_psl(g, 98, 50)
    common.raise_psl(g.state, "fln", 10, "test")
    assert h.psl(g) == (99, 41)


def test_12_1_loss_stops_at_zero_and_ends_the_game():
    g = h.empty("1958")
    h.set_psl(g, 40, 3)
    with pytest.raises(flow.GameOver):
        common.lower_psl(g.state, "gov", 5, "test")
    assert h.psl(g) == (40, 0)
    assert g.state.winner == "fln"


def test_12_1_overflow_can_end_the_game():
    g = h.empty("1958")
    h.set_psl(g, 95, 3)
    with pytest.raises(flow.GameOver):
        common.raise_psl(g.state, "fln", 10, "test")
    assert h.psl(g) == (99, 0)
    assert g.state.winner == "fln" and g.state.level == "decisive"


@pytest.mark.parametrize("psl, level", [(1, "marginal"), (25, "marginal"),
                                        (26, "substantial"), (50, "substantial"),
                                        (51, "decisive"), (99, "decisive")])
def test_12_2_victory_levels(psl, level):
    g = h.empty("1958")
    h.set_psl(g, 1, psl)
    with pytest.raises(flow.GameOver):
        common.lower_psl(g.state, "fln", 1, "test")
    assert g.result().winner == "gov" and g.result().level == level


def test_12_2_game_ends_the_moment_a_psl_is_zero():
    g = h.empty("1958")
    h.set_psl(g, 40, 1)
    h.script(g, 6, 6)                    # Sartre: GOV -1
    h.at(g, ("random_events",), ("gov_reinforcement",))
    assert g.is_over()
    assert g.state.stack == [] and g.legal_actions() == []
    r = g.result()
    assert (r.winner, r.level) == ("fln", "substantial")


def test_12_2_mid_mission_zero_ends_at_once():
    g = h.empty("1958")
    h.put(g, "cadre1", "II-1", "OPS")
    g.state.ap = 1
    h.set_psl(g, 40, 2)
    h.script(g, 6)                       # "3@"
    h.ops(g)
    g.apply("propaganda cadre1")
    g.apply("psp 0")                     # GOV -3
    assert g.is_over() and g.result().winner == "fln"


# ---------------------------------------------------------------- 13.1


def slow():
    g = h.empty("1954", slow_french_reaction=True)
    h.set_psl(g, 50, 65)
    h.at(g, ("gov_reinforcement",))
    return g


def test_13_1_one_mobile_unit_or_one_point_per_turn_police_exempt():
    g = slow()
    s = g.state
    assert s.slow_french
    g.apply("mobilize fr_x")
    g.apply("at II-1")
    acts = h.legal(g)
    assert not [a for a in acts if a.startswith("buy")]
    assert [a for a in acts if a.startswith("mobilize")] == ["mobilize police"]
    g.apply("mobilize police")
    g.apply("at II-1")
    assert "mobilize police" in h.legal(g)
    g = slow()
    g.apply("mobilize police")           # DIS-15: Police do not use up the allowance
    g.apply("at II-1")
    g.apply("buy air")
    assert not [a for a in h.legal(g) if a.startswith(("buy", "mobilize fr", "mobilize el"))]


def test_13_1_no_dispersed_mode_but_may_concentrate():
    g = h.empty("1954", slow_french_reaction=True)
    h.put(g, "fr_xx1", "II-1")
    h.put(g, "fr_xx2", "II-2", dispersed=True)
    h.at(g, ("gov_deploy", "gov"))
    assert "mode fr_xx1 dispersed" not in h.legal(g)
    assert "mode fr_xx2 concentrated" in h.legal(g)


def test_13_1_no_civil_affairs_suppression_or_resettlement():
    g = h.empty("1954", slow_french_reaction=True)
    h.put(g, "police1", "II-1", "PTL")
    h.put(g, "cadre1", "II-1", "UG")
    h.ops(g, "gov")
    assert set(h.legal(g)) == {"intelligence II-1", "pass"}


def test_13_1_lapses_for_good_when_fln_psl_exceeds_gov():
    g = h.empty("1954", slow_french_reaction=True)
    h.set_psl(g, 60, 60)
    h.at(g, ("gov_reinforcement",))
    assert g.state.slow_french
    h.set_psl(g, 61, 60)
    h.at(g, ("gov_reinforcement",))
    assert not g.state.slow_french
    h.set_psl(g, 40, 60)
    h.at(g, ("gov_reinforcement",))
    assert not g.state.slow_french


def test_13_options_only_in_1954():
    for opt in ("slow_french_reaction", "deterministic_independence"):
        with pytest.raises(ScenarioError):
            algeria.new_game("1958", seed=1, options={opt: True})


# ---------------------------------------------------------------- 13.2


@pytest.mark.parametrize("roll, independent", [(2, True), (3, False)])
def test_13_2_independence_on_roll_at_most_the_turn(roll, independent):
    g = h.empty("1954", deterministic_independence=True)
    g.state.independent = False
    g.state.turn = 2
    h.set_psl(g, 50, 60)
    rolls = (roll, 1, 1, 1, 1, 2, 2) if independent else (roll, 2, 2)
    h.script(g, *rolls)                  # 13.2 roll, (2d6 + 2d6), then the event roll
    h.at(g, ("random_events",))
    assert g.state.independent is independent
    assert h.psl(g) == ((52, 62) if independent else (50, 60))
    assert h.used_all(g)


def test_13_2_then_event_51_54_gives_mst_ap():
    g = h.empty("1954", deterministic_independence=True)
    g.state.independent = False
    g.state.turn = 1
    h.script(g, 1, 1, 1, 1, 1, 5, 1, 6)  # independence; event 51 -> MST 6 = 3 AP
    h.at(g, ("random_events",))
    assert g.state.ap == 3


# ---------------------------------------------------------------- 13.3


def test_13_3_shorter_game_two_checks_in_a_row():
    g = h.empty("1958", shorter_game=True)
    s = g.state
    s.turn = 6
    h.set_psl(g, 80, 50)                 # FLN leads by 30
    interphase.shorter_game(s)
    assert s.shorter_leader == "fln" and not g.is_over()
    s.turn = 7
    interphase.shorter_game(s)           # only turns 6, 12, 18...
    assert not g.is_over()
    s.turn = 12
    h.set_psl(g, 90, 35)
    with pytest.raises(flow.GameOver):
        interphase.shorter_game(s)
    assert (s.winner, s.level) == ("fln", "decisive")


def test_13_3_lead_must_hold_at_consecutive_checks():
    g = h.empty("1958", shorter_game=True)
    s = g.state
    s.turn = 6
    h.set_psl(g, 50, 80)
    interphase.shorter_game(s)
    assert s.shorter_leader == "gov"
    s.turn = 12
    h.set_psl(g, 50, 75)                 # 25: not enough, the leader is cleared
    interphase.shorter_game(s)
    assert s.shorter_leader == "" and not g.is_over()
    s.turn = 18
    h.set_psl(g, 50, 76)
    interphase.shorter_game(s)
    assert s.shorter_leader == "gov" and not g.is_over()
    s.turn = 24
    with pytest.raises(flow.GameOver):
        interphase.shorter_game(s)
    assert (s.winner, s.level) == ("gov", "substantial")


def test_13_3_off_by_default():
    g = h.empty("1958")
    s = g.state
    s.turn = 6
    h.set_psl(g, 90, 20)
    s.shorter_leader = "fln"
    interphase.shorter_game(s)
    assert not g.is_over()
