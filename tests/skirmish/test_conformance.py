"""The shared protocol conformance check, on every shipped scenario."""

import pytest

from djebel.core.conformance import check_game
from djebel.skirmish import SkirmishGame, list_scenarios, new_game


@pytest.mark.parametrize("scenario", list_scenarios())
def test_conformance(scenario: str) -> None:
    check_game(lambda seed: new_game(scenario, seed), seeds=range(2), game_class=SkirmishGame)


def test_scenarios_listed() -> None:
    assert list_scenarios() == ["ambush", "casevac", "douar", "hotlz", "search"]
