"""The PettingZoo AEC environments algeria_v0 and skirmish_v0."""

import pytest

RL_MISSING = "the rl extra is not installed (pip install 'djebel[rl]')"
np = pytest.importorskip("numpy", reason=RL_MISSING)
pytest.importorskip("pettingzoo", reason=RL_MISSING)

from pettingzoo.test import api_test, seed_test  # noqa: E402

from djebel.core.errors import IllegalAction  # noqa: E402
from djebel.rl import algeria_v0, skirmish_v0  # noqa: E402

SHORT = {"turn_limit": 1}        # one-turn battles keep the skirmish tests quick
# api_test's advice that does not fit these games: the observation is a dict of vector and
# action mask (the layout of PettingZoo's own board games), the agents are the sides.
ADVICE = ("Observation space for each agent", "We recommend agents to be named",
          "Observation is not a NumPy array")


def api_advice_ignored(test):
    for text in ADVICE:
        test = pytest.mark.filterwarnings(f"ignore:{text}")(test)
    return test


def play_out(env, seed: int):
    """Random legal play to the end; the rewards each agent received, summed."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            assert term and info["to_move"] is None and info["decision"].startswith("game over")
            env.step(None)
            continue
        assert info["to_move"] == agent and info["decision"]
        env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
    return total


@api_advice_ignored
def test_algeria_passes_the_pettingzoo_api_and_seed_tests():
    api_test(algeria_v0.env(), num_cycles=200)
    seed_test(lambda: algeria_v0.env(shaped=True), num_cycles=200)


@api_advice_ignored
def test_skirmish_passes_the_pettingzoo_api_and_seed_tests():
    api_test(skirmish_v0.env(options=SHORT), num_cycles=25)
    seed_test(lambda: skirmish_v0.env(options=SHORT), num_cycles=20)


def test_algeria_rewards_are_plus_and_minus_one_at_the_end_to_the_winner_and_loser():
    env = algeria_v0.raw_env(scenario="1954")
    total = play_out(env, seed=3)
    winner = env.game.result().winner
    assert total == {winner: 1.0, ({"fln", "gov"} - {winner}).pop(): -1.0}


def test_shaped_rewards_add_the_change_of_psl_difference_to_the_result():
    env = algeria_v0.raw_env(scenario="1954", shaped=True, shaping=0.5)
    env.reset(seed=3)
    start = {a: env.spec_.potential(env.game, a) for a in env.possible_agents}
    assert start["fln"] == pytest.approx((env.game.state.fln_psl - env.game.state.gov_psl) / 100)
    total = play_out(env, seed=3)
    end = {a: env.spec_.potential(env.game, a) for a in env.possible_agents}
    winner = env.game.result().winner
    for agent in env.possible_agents:
        outcome = 1.0 if agent == winner else -1.0
        assert total[agent] == pytest.approx(outcome + 0.5 * (end[agent] - start[agent]))


def test_the_same_seed_plays_the_same_game_and_render_shows_the_board():
    a, b = algeria_v0.raw_env(render_mode="ansi"), algeria_v0.raw_env()
    play_out(a, seed=11)
    play_out(b, seed=11)
    assert a.game.history() == b.game.history()
    assert a.game.state_hash() == b.game.state_hash()
    text = a.render()
    assert "FLN PSL" in text and "game over" in text
    b.reset(seed=11)
    assert b.infos["fln"]["decision"].startswith("GOV set-up")


def test_an_action_the_mask_rules_out_is_refused_and_changes_nothing():
    env = algeria_v0.raw_env()
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.state_hash()
    with pytest.raises(IllegalAction, match=f"action {illegal} is not legal now"):
        env.step(illegal)
    assert env.game.state_hash() == before
    with pytest.raises(IllegalAction, match="None is only for a finished agent"):
        env.step(None)
    assert env.game.state_hash() == before


def test_only_the_agent_to_move_has_a_nonzero_mask_and_action_text_is_djebel_notation():
    env = algeria_v0.raw_env()
    env.reset(seed=1)
    mover = env.agent_selection
    other = ({"fln", "gov"} - {mover}).pop()
    assert env.observe(mover)["action_mask"].sum() > 0
    assert env.observe(other)["action_mask"].sum() == 0
    first = int(np.flatnonzero(env.observe(mover)["action_mask"])[0])
    assert env.action_text(first) == str(env.game.legal_actions()[0])


def test_skirmish_numbered_orders_and_result():
    env = skirmish_v0.raw_env(options=SHORT)
    total = play_out(env, seed=2)
    result = env.game.result()
    assert result is not None and result.reason
    expected = {a: (0.0 if result.winner is None else 1.0 if a == result.winner else -1.0)
                for a in env.possible_agents}
    assert total == expected
