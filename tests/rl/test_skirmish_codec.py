"""The skirmish's numbered candidate orders and observation (djebel.rl.skirmish_codec)."""

import random

import pytest

RL_MISSING = "the rl extra is not installed (pip install 'djebel[rl]')"
np = pytest.importorskip("numpy", reason=RL_MISSING)
pytest.importorskip("pettingzoo", reason=RL_MISSING)

from djebel import skirmish  # noqa: E402
from djebel.core.errors import IllegalAction  # noqa: E402
from djebel.rl import skirmish_codec as codec  # noqa: E402


def order_slot(obs, k):
    n = len(codec.ORDER_FIELDS)
    v = obs[codec.OFFSETS["orders"] + k * n:][:n]
    return {codec.ORDER_FIELDS[i]: round(float(v[i]), 3) for i in np.flatnonzero(v)}


def test_ambush_worked_example_of_docs():
    game = skirmish.new_game("ambush", seed=0, options={"log": False})
    assert str(codec.index_action(game, 0)) == "activate I1"
    game.apply(codec.index_action(game, 0))
    obs = codec.observe(game, "insurgents")
    assert [str(a) for a in codec.orders(game)[:3]] == ["shoot I1 F3", "shoot I1 F5",
                                                         "shoot I1 HB"]
    assert order_slot(obs, 0) == {"valid": 1, "verb_shoot": 1, "actor_11": 1, "target_3": 1}
    assert order_slot(obs, 1) == {"valid": 1, "verb_shoot": 1, "actor_11": 1, "target_5": 1}
    n = len(codec.ELEMENT_FIELDS)
    f1 = {codec.ELEMENT_FIELDS[i]: round(float(obs[i]), 3) for i in np.flatnonzero(obs[:n])}
    assert f1 == {"present": 1, "french": 1, "on_table": 1, "x": 0.426, "y": 0.5,
                  "facing_cos": 1, "type_panhard": 1}
    move = next(k for k, a in enumerate(codec.orders(game)) if a.verb == "move")
    slot = order_slot(obs, move)
    assert slot["has_point"] == slot["has_facing"] == 1 and 0 < slot["x"] < 1


def test_orders_round_trip_and_the_mask_covers_exactly_the_numbered_orders():
    rng = random.Random(4)
    game = skirmish.new_game("search", seed=4, options={"log": False, "turn_limit": 1})
    while not game.is_over():
        listed = codec.orders(game)
        for k, action in enumerate(listed):
            assert codec.action_index(game, action) == k
            assert codec.index_action(game, k) == action
        assert codec.action_mask(game).sum() == len(listed) <= codec.MAX_ORDERS
        obs = codec.observe(game, "french")
        assert np.abs(obs).max() <= codec.OBS_BOUND
        assert order_slot(obs, len(listed)) == {}            # the slots past the list: empty
        game.apply(rng.choice(listed))
    with pytest.raises(IllegalAction):
        codec.index_action(game, 0)                           # over: nothing is offered


def test_an_order_that_is_not_numbered_is_refused():
    game = skirmish.new_game("ambush", seed=0, options={"log": False})
    with pytest.raises(IllegalAction, match="order 127 not offered"):
        codec.index_action(game, 127)
    with pytest.raises(IllegalAction, match="not one of the numbered candidate orders"):
        codec.action_index(game, "move I1 1 1 face 0")
