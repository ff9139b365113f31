"""End to end: bot battles on each shipped scenario exercise the rules it was built for."""

from __future__ import annotations

import pytest

from djebel.skirmish import new_game
from djebel.skirmish.bots import MatrixBot, RandomBot, play_out

EXERCISES = {
    # overwatch, helicopters arriving, carrier unloads, damage and bail, casualty
    # markers, collateral rolls
    "ambush": {"R42", "R129", "R138", "R91", "R106", "R149", "R155", "R21"},
    # aircraft entering and forced down, passengers hit, casualties
    "hotlz": {"R42", "R129", "R138", "R101", "R102", "R149", "R106"},
    # civilians and collateral rolls, CASEVAC point, group activation
    "search": {"R155", "R150", "R24", "R42", "R149"},
    # wounded picked up and evacuated, the Puma arriving and unloading, overwatch
    "casevac": {"D73", "R150", "R129", "R138", "R42", "R149"},
    # civilians and collateral rolls, searches, CASEVAC point, group activation
    "douar": {"R155", "4.2", "R150", "D73", "R24"},
}


@pytest.mark.parametrize("scenario", sorted(EXERCISES))
def test_scenario_battles_exercise_their_rules(scenario: str) -> None:
    seen: set[str] = set()
    for seed in range(10):
        g = new_game(scenario, seed)
        french = RandomBot(seed) if seed % 2 else MatrixBot(seed)
        insurgents = MatrixBot(seed + 1) if seed % 3 else RandomBot(seed + 1)
        play_out(g, french, insurgents)
        assert g.is_over() and g.result().reason
        seen |= {e.rule for e in g.log}
    missing = EXERCISES[scenario] - seen
    assert not missing, f"{scenario}: never exercised {sorted(missing)}"
