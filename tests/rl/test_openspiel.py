"""Both games as OpenSpiel Python games: the random-simulation test and MCTS games."""

import pytest

RL_MISSING = "the rl extra is not installed (pip install 'djebel[rl]')"
np = pytest.importorskip("numpy", reason=RL_MISSING)
pyspiel = pytest.importorskip("pyspiel", reason=RL_MISSING)

from open_spiel.python.algorithms import mcts  # noqa: E402

import djebel.rl.spiel  # noqa: E402, F401  (registers the games)
from djebel.rl import algeria_codec  # noqa: E402

GAMES = [("python_djebel_algeria", {"scenario": "1954"}),
         ("python_djebel_skirmish", {"turn_limit": 1})]


def test_game_types_are_sequential_sampled_stochastic_perfect_information_zero_sum():
    for name, params in GAMES:
        t = pyspiel.load_game(name, params).get_type()
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        assert t.utility == pyspiel.GameType.Utility.ZERO_SUM


@pytest.mark.parametrize("name,params", GAMES)
def test_openspiel_random_simulation_test_passes(name, params):
    # OpenSpiel's checks include "a clone prints as its original and plays on the
    # same": exact clones, so resampling the dice of clones is switched off here.
    game = pyspiel.load_game(name, {**params, "resample_on_clone": False})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name,params", GAMES)
def test_mcts_plays_complete_games(name, params):
    game = pyspiel.load_game(name, params)
    rs = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, 1.4, 2, mcts.RandomRolloutEvaluator(1, rs, max_length=4),
                         random_state=rs) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert state.g.is_over()


def test_actions_and_observations_are_djebels():
    game = pyspiel.load_game("python_djebel_algeria", {"scenario": "1958", "seed": 7})
    state = game.new_initial_state()
    place = algeria_codec.action_index("place auto")
    assert state.action_to_string(state.current_player(), place) == "place auto"
    state.apply_action(place)
    state.apply_action(place)
    assert state.action_to_string(1, 281) == "mobilize fr_xx"
    assert state.observation_tensor(0) == pytest.approx(
        algeria_codec.observe(state.g, "fln").tolist())
    assert "GOV reinforcement" in str(state)


def test_a_clone_gets_fresh_dice_unless_resampling_is_off():
    for resample, same in ((True, False), (False, True)):
        game = pyspiel.load_game("python_djebel_algeria",
                                 {"scenario": "1954", "resample_on_clone": resample})
        state = game.new_initial_state()
        copy = state.clone()
        assert (copy.g.state.dice.state == state.g.state.dice.state) is same
        assert str(copy) == str(state)
