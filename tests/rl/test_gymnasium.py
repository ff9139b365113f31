"""One side against a djebel bot as a Gymnasium environment."""

import pytest

RL_MISSING = "the rl extra is not installed (pip install 'djebel[rl]')"
np = pytest.importorskip("numpy", reason=RL_MISSING)
pytest.importorskip("gymnasium", reason=RL_MISSING)

from gymnasium.utils.env_checker import check_env  # noqa: E402

from djebel.core.errors import ScenarioError  # noqa: E402
from djebel.rl.gym_env import SingleAgentEnv  # noqa: E402


def episode(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = []
    while True:
        assert info["to_move"] == env.side
        obs, reward, term, trunc, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        rewards.append(reward)
        if term or trunc:
            return rewards


@pytest.mark.parametrize("side,opponent", [("fln", "heuristic"), ("gov", "random")])
def test_algeria_against_a_bot_passes_the_gymnasium_checker(side, opponent):
    env = SingleAgentEnv("algeria", side=side, opponent=opponent, scenario="1954")
    check_env(env, skip_render_check=True)
    rewards = episode(env, seed=5)
    winner = env.aec.game.result().winner
    assert rewards[-1] == (1.0 if winner == side else -1.0) and not any(rewards[:-1])


def test_skirmish_against_the_matrix_bot_passes_the_gymnasium_checker():
    env = SingleAgentEnv("skirmish", side="insurgents", opponent="matrix",
                         options={"turn_limit": 1})
    check_env(env, skip_render_check=True)
    episode(env, seed=1)
    assert env.aec.game.is_over()


def test_the_same_seed_gives_the_same_episode():
    a = SingleAgentEnv("algeria", side="gov", opponent="heuristic", scenario="1960")
    b = SingleAgentEnv("algeria", side="gov", opponent="heuristic", scenario="1960")
    assert episode(a, seed=9) == episode(b, seed=9)
    assert a.aec.game.history() == b.aec.game.history()


def test_an_index_the_mask_rules_out_ends_the_episode_as_a_loss_and_changes_nothing():
    env = SingleAgentEnv("algeria", side="fln", opponent="random")
    obs, _ = env.reset(seed=0)
    before = env.aec.game.state_hash()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info["illegal"]) == (-1.0, True, False, True)
    assert env.aec.game.state_hash() == before
    assert env.action_masks().sum() == obs["action_mask"].sum()


def test_unknown_side_or_opponent_is_a_clear_error():
    with pytest.raises(ScenarioError, match="unknown agent 'alphazero' for algeria"):
        SingleAgentEnv("algeria", opponent="alphazero")
    with pytest.raises(ScenarioError, match="unknown side 'french' for algeria"):
        SingleAgentEnv("algeria", side="french")
    with pytest.raises(ScenarioError, match="unknown game 'chess'"):
        SingleAgentEnv("chess")
    with pytest.raises(ScenarioError, match="unknown scenario '1999'"):
        SingleAgentEnv("algeria", scenario="1999")
    with pytest.raises(ScenarioError, match="only for the 1954 scenario"):
        SingleAgentEnv("algeria", scenario="1958", options={"slow_french_reaction": True})
    with pytest.raises(ScenarioError, match="unknown option 'fog'"):
        SingleAgentEnv("skirmish", options={"fog": True})


def test_set_opponent_changes_the_bot_from_the_next_episode_and_refuses_unknown_names():
    env = SingleAgentEnv("algeria", side="fln", opponent="random", scenario="1954")
    env.reset(seed=3)
    assert type(env.opponent).__name__ == "RandomAgent"
    env.set_opponent("heuristic")
    assert type(env.opponent).__name__ == "RandomAgent"      # this episode's bot stays
    env.reset(seed=3)
    assert type(env.opponent).__name__ == "HeuristicAgent"
    with pytest.raises(ScenarioError, match="unknown agent 'alphazero' for algeria"):
        env.set_opponent("alphazero")
    assert env.opponent_name == "heuristic"
