"""The Algeria action enumeration and observation vector (djebel.rl.algeria_codec)."""

import random

import pytest

RL_MISSING = "the rl extra is not installed (pip install 'djebel[rl]')"
np = pytest.importorskip("numpy", reason=RL_MISSING)
pytest.importorskip("pettingzoo", reason=RL_MISSING)

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from djebel import algeria  # noqa: E402
from djebel.core.actions import Action  # noqa: E402
from djebel.core.errors import IllegalAction  # noqa: E402
from djebel.rl import algeria_codec as codec  # noqa: E402


def random_positions(count: int, seed: int = 0):
    """``count`` decision points of random games of every scenario."""
    rng = random.Random(seed)
    out, n = [], 0
    while len(out) < count:
        game = algeria.new_game(("1954", "1958", "1960")[n % 3], seed=n, log=False)
        n += 1
        while not game.is_over() and len(out) < count:
            if rng.random() < 0.15:
                out.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
    return out


def test_every_legal_action_of_a_thousand_positions_round_trips_through_its_index():
    seen_verbs = set()
    for game in random_positions(1000):
        legal = game.legal_actions()
        idx = codec.legal_indices(game)
        assert len(set(idx)) == len(legal)              # no two actions share an index
        for action, i in zip(legal, idx, strict=True):
            assert codec.index_action(i) == action       # index -> action
            assert codec.action_index(action) == i       # action -> index
            assert codec.action_index(str(action)) == i  # via the notation too
            seen_verbs.add(action.verb)
        mask = codec.action_mask(game)
        assert mask.sum() == len(legal) and set(np.flatnonzero(mask)) == set(idx)
    assert {"flush", "move", "deploy", "psp", "place", "build"} <= seen_verbs


def test_the_enumeration_is_fixed_and_names_actions_in_djebel_notation():
    assert codec.NUM_ACTIONS == len(codec.ACTIONS) == 3657
    assert str(codec.ACTIONS[0]) == "place fr_xx FRANCE"
    assert codec.action_index("flush II-1") == codec.INDEX[Action("flush", ("II-1",))]
    assert codec.action_index("psp 3") == codec.action_index(Action("psp", (3,)))


def test_indices_and_notations_outside_the_space_are_refused():
    with pytest.raises(IllegalAction, match="outside 0..3656"):
        codec.index_action(codec.NUM_ACTIONS)
    with pytest.raises(IllegalAction, match="not an action of the Algeria action space"):
        codec.action_index("teleport band1 ALGIERS")


def test_observation_of_the_1958_start_worked_example():
    # The example of docs/rl.md: 1958, seed 7, both set-ups placed at random.
    game = algeria.new_game("1958", seed=7)
    game.apply("place auto")
    game.apply("place auto")
    obs = codec.observe(game, "fln")
    assert obs.shape == (codec.OBS_SIZE,) == (7871,)
    assert obs[codec.unit_index("CONSTANTINE", "OPS", "el_x")] == 2       # el_x1, el_x3
    assert obs[codec.unit_index("CONSTANTINE", "OPS", "fr_xx")] == 1
    assert obs[codec.unit_index("ALGIERS", "UG", "front")] == 1
    assert obs[codec.unit_index("II-3", "PTL", "police")] == 2
    assert obs[codec.unit_index("ALGIERS", "UG", "band", "neutralized")] == 0
    tracks = dict(zip(codec.TRACKS, codec.field(obs, "tracks"), strict=True))
    assert (tracks["turn"], tracks["fln_psl"], tracks["gov_psl"], tracks["ap"]) == (1, 60, 50, 10)
    assert list(codec.field(obs, "border_zone")) == [1, -2]               # mobilized, DRM -2
    assert codec.PHASES[int(np.argmax(codec.field(obs, "phase")))] == "reinforcement"
    assert codec.DECISIONS[int(np.argmax(codec.field(obs, "decision")))] == "gov_reinf"
    assert list(codec.field(obs, "to_move")) == [0, 1]                    # the Government
    assert list(codec.field(obs, "observer")) == [1, 0]
    assert list(codec.field(obs, "control")[:3]) == [1, 0, 0]             # France contested
    assert codec.field(obs, "off_map")[codec.TYPES.index("cadre")] == 20  # cadres in the pool
    assert codec.action_index("mobilize fr_xx") == 281


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), scenario=st.sampled_from(["1954", "1958", "1960"]))
def test_observations_stay_in_bounds_and_the_updated_unit_block_equals_a_fresh_one(
        seed, scenario):
    rng = random.Random(seed)
    game = algeria.new_game(scenario, seed=seed, log=False)
    steps = 0
    while not game.is_over() and steps < 400:
        for side in ("fln", "gov"):
            obs = codec.observe(game, side)
            assert np.abs(obs).max() <= codec.OBS_BOUND
            assert (obs[:codec.OFFSETS["control"]] == codec.unit_block_fresh(game.s)).all()
        game.apply(rng.choice(game.legal_actions()))
        steps += 1


def test_the_decision_context_names_the_unit_being_deployed():
    game = algeria.new_game("1958", seed=7)
    game.apply("place auto")
    game.apply("place auto")
    while game.decision() != "gov_deploy":
        game.apply("done" if "done" in map(str, game.legal_actions())
                   else game.legal_actions()[0])
    game.apply("deploy al_x1")
    obs = codec.observe(game, "gov")
    from djebel.algeria.board import UNIT_INDEX
    assert np.flatnonzero(codec.field(obs, "subject_units")).tolist() == [UNIT_INDEX["al_x1"]]
    assert codec.DECISIONS[int(np.argmax(codec.field(obs, "decision")))] == "deploy_to"
