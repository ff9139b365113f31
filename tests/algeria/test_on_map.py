"""``common.on_map``: the counters on the map, kept with the locations they come from, so
the cache must follow every change of a location, in a game and in its clones."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from djebel.algeria.board import FLN_UNITS, GOV_UNITS, POOL
from djebel.algeria.game import new_game
from djebel.algeria.rules.common import on_map


def _by_scan(s) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (tuple(u for u in FLN_UNITS if s.loc[u] >= 0),
            tuple(u for u in GOV_UNITS if s.loc[u] >= 0))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(("1954", "1958", "1960")), st.integers(0, 10_000),
       st.integers(1, 400))
def test_on_map_agrees_with_a_scan_along_random_play(scenario, seed, steps):
    game = new_game(scenario, seed=seed, log=False)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over():
            break
        assert on_map(game.state) == _by_scan(game.state)
        game.apply(rng.choice(game.legal_actions()))
    assert on_map(game.state) == _by_scan(game.state)


def test_a_clone_and_its_original_keep_their_own_counters_on_the_map():
    game = new_game("1958", seed=4, log=False)
    s = game.state
    on_map(s)                                   # the cache is filled, then shared by the clone
    clone = game.clone().state
    fln, _ = on_map(s)
    u = fln[0]
    clone.loc[u] = POOL                         # taken off in the clone only
    assert u not in on_map(clone)[0]
    assert on_map(s) == _by_scan(s) and u in on_map(s)[0]
    s.loc[FLN_UNITS[-1]] = s.loc[u]             # a counter put on the map in the original
    assert on_map(s) == _by_scan(s) and FLN_UNITS[-1] in on_map(s)[0]
    assert FLN_UNITS[-1] not in on_map(clone)[0]


def test_a_state_read_back_from_json_works_its_counters_out_again():
    game = new_game("1960", seed=2, log=False)
    on_map(game.state)
    back = type(game).from_json(game.to_json()).state
    assert back.placed[0] is None               # not saved: worked out on first use
    assert on_map(back) == on_map(game.state)
