"""The game protocol on Algeria: conformance, determinism, records, bad input."""

import json
import random

import pytest

from djebel import algeria
from djebel.algeria import AlgeriaGame
from djebel.core.conformance import check_game, random_playout
from djebel.core.errors import IllegalAction, RecordError, ScenarioError
from djebel.core.records import check_record, make_record, verify_record


@pytest.mark.parametrize("scenario", algeria.SCENARIOS)
def test_conformance(scenario):
    check_game(lambda seed: algeria.new_game(scenario, seed=seed), seeds=range(4),
               game_class=AlgeriaGame)


def play_random(game, seed):
    random_playout(game, random.Random(seed))
    return game


def test_same_seed_same_actions_same_game():
    a = play_random(algeria.new_game("1958", seed=11), 5)
    b = algeria.new_game("1958", seed=11)
    for text in a.history():
        b.apply(text)
    assert a.state_hash() == b.state_hash()
    assert [str(e) for e in a.log] == [str(e) for e in b.log]


def test_different_seed_different_game():
    a = play_random(algeria.new_game("1958", seed=1), 5)
    b = play_random(algeria.new_game("1958", seed=2), 5)
    assert a.state_hash() != b.state_hash()


def test_clone_is_independent():
    g = algeria.new_game("1960", seed=3)
    for _ in range(60):
        g.apply(g.legal_actions()[-1])
    c = g.clone()
    before = c.state_hash()
    play_random(g, 1)
    assert c.state_hash() == before
    play_random(c, 2)


def test_illegal_action_names_rule_and_changes_nothing():
    g = algeria.new_game("1958", seed=3)
    before = g.state_hash()
    with pytest.raises(IllegalAction) as err:
        g.apply("place fr_xx ORAN")          # 3-4: wilaya I units go in wilaya I
    assert err.value.rule == "3-4"
    assert g.state_hash() == before
    with pytest.raises(IllegalAction):
        g.apply("")
    assert g.state_hash() == before


def test_scenario_and_option_errors():
    with pytest.raises(ScenarioError, match="unknown scenario"):
        algeria.new_game("1962")
    with pytest.raises(ScenarioError, match="unknown option"):
        algeria.new_game("1954", options={"fast": True})
    with pytest.raises(ScenarioError, match="only for the 1954"):
        algeria.new_game("1958", options={"slow_french_reaction": True})


def test_record_round_trip_and_tampering(tmp_path):
    g = play_random(algeria.new_game("1954", seed=8, options={"shorter_game": True}), 3)
    rec = json.loads(json.dumps(make_record(g)))
    assert verify_record(rec).state_hash() == g.state_hash()
    bad = dict(rec, actions=rec["actions"][:-1])
    with pytest.raises(RecordError, match="replay ends in state"):
        verify_record(bad)
    with pytest.raises(RecordError, match="field 'engine'"):
        check_record(dict(rec, engine="0.0.1"))
    with pytest.raises(RecordError, match="field 'actions\\[0\\]'"):
        verify_record(dict(rec, actions=["fly to the moon"] + rec["actions"]))


def test_json_round_trip_mid_game():
    g = algeria.new_game("1958", seed=4)
    rng = random.Random(4)
    for _ in range(300):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_actions()))
    again = AlgeriaGame.from_json(json.loads(json.dumps(g.to_json())))
    assert again.state_hash() == g.state_hash()
    assert again.legal_actions() == g.legal_actions()
