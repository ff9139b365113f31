"""4 Sequence of play: phase order within a turn and one-turn effects ending (4-1)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402


def _play_turns(g, turns):
    seen = []
    for _ in range(2000):
        if g.is_over() or g.state.turn > turns:
            break
        d = (g.state.turn, g.decision())
        if not seen or seen[-1] != d:
            seen.append(d)
        acts = h.legal(g)
        pref = [a for a in acts if a in ("done", "pass", "no-react", "place auto")]
        g.apply(pref[0] if pref else acts[-1])
    return seen


def test_4_phase_order_gov_first_in_reinforcement_and_deployment():
    g = h.new("1954", seed=4)
    seen = [d for t, d in _play_turns(g, 1) if t == 1]
    order = [d for d in seen if d in ("gov_reinf", "fln_reinf", "gov_deploy", "fln_deploy",
                                      "ops_fln")]
    assert order == ["gov_reinf", "fln_reinf", "gov_deploy", "fln_deploy", "ops_fln"]


def test_4_1_one_turn_effects_end_when_the_next_turn_starts():
    g = h.empty("1958")
    s = g.state
    s.amnesty = s.jealousy = s.bz_new = s.france_moved = True
    s.done[h.A("ALGIERS")] = 31
    s.ops_last = "gov"
    h.script(g, 1, 1)                    # the next random event: none
    h.at(g, ("turn_start",))
    assert not (s.amnesty or s.jealousy or s.bz_new or s.france_moved)
    assert s.done[h.A("ALGIERS")] == 0 and s.ops_last == ""
    assert g.decision() == "gov_reinf"


def test_4_random_event_comes_before_reinforcement():
    g = h.empty("1958")
    h.set_psl(g, 40, 50)
    h.script(g, 6, 6)                    # Sartre
    h.at(g, ("turn_start",))
    assert g.state.gov_psl == 49
    assert "Event 66" in h.log_text(g)
    assert g.decision() == "gov_reinf"
