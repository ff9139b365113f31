"""The opponent model of the searching bots: it recognises the way the other side plays
from what a player sees, and the search agent's rollouts play that model."""

from __future__ import annotations

import random

from djebel.algeria.bots.gauntlet import HideRaidAgent, PassAgent
from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.bots.opponent import OpponentModel, opponent_models
from djebel.algeria.bots.search import SearchAgent
from djebel.algeria.bots.styles import STYLES
from djebel.algeria.game import new_game


def _play(scenario, seed, agents, stop_turn):
    game = new_game(scenario, seed, log=False)
    while not game.is_over() and game.state.turn < stop_turn:
        game.apply(agents[game.active_side].choose(game))
    return game


def test_models_are_the_styles_then_the_gauntlet():
    names = [name for name, _ in opponent_models("fln")]
    assert names[:len(STYLES["fln"])] == [f"style{i}" for i in range(len(STYLES["fln"]))]
    assert names[len(STYLES["fln"]):] == ["pass", "propaganda", "all-in", "bands", "hide-raid"]
    model = OpponentModel("fln", random.Random(0))
    assert model.best() == 0 and model.name() == "style0"      # the prior favours it


def test_search_agent_recognises_a_hiding_fln_and_plays_it_out():
    """Rollouts of the Government against an FLN that hides and Raids are played
    against the ``hide-raid`` model once it fits, not against the plain heuristic."""
    gov = SearchAgent("gov", 3, rollouts=2, screen=2)
    made = []
    make = gov.opponent.agent

    def spy(model, seed):
        agent = make(model, seed)
        made.append(type(agent))
        return agent

    gov.opponent.agent = spy
    _play("1958", 4, {"fln": HideRaidAgent("fln", 5), "gov": gov}, stop_turn=4)
    assert gov.opponent.name() == "hide-raid"
    assert made and made[-1] is HideRaidAgent


def test_search_agent_recognises_a_government_that_does_nothing():
    fln = SearchAgent("fln", 1, rollouts=0)
    _play("1958", 2, {"fln": fln, "gov": PassAgent("gov", 3)}, stop_turn=3)
    assert fln.opponent.name() == "pass"
    plain = SearchAgent("fln", 1, rollouts=0)
    _play("1958", 2, {"fln": plain, "gov": HeuristicAgent("gov", 3)}, stop_turn=3)
    assert plain.opponent.name().startswith("style")


def test_search_agent_without_the_model_plays_out_the_plain_heuristic():
    gov = SearchAgent("gov", 3, rollouts=2, screen=2, model=False)
    assert gov.opponent is None
    seen = []
    rollout_apply = []

    import djebel.algeria.bots.search as search
    real = search.StylePolicy

    class Spy(real):
        def choose(self, game):
            rollout_apply.append(self.side)
            return super().choose(game)

    def spy(side, seed, **kw):
        seen.append((side, kw))
        return Spy(side, seed, **kw)

    search.StylePolicy = spy
    try:
        _play("1958", 4, {"fln": HideRaidAgent("fln", 5), "gov": gov}, stop_turn=2)
    finally:
        search.StylePolicy = real
    assert ("fln", {}) in seen and "fln" in rollout_apply


def test_search_choice_does_not_depend_on_the_dice_to_come():
    """Two agents of one seed consulted along the same game: at the same position with
    another stream of future dice their rollouts give the same results (they reseed
    their clones), they choose alike, and the game's own dice are never drawn."""
    gov = HeuristicAgent("gov", 0)
    a, b = SearchAgent("fln", 7, rollouts=4, screen=4), SearchAgent("fln", 7, rollouts=4, screen=4)
    game = new_game("1960", 3, log=False)
    while game.state.turn < 2 or game.active_side != "fln":
        if game.active_side == "fln":
            act = a.choose(game)
            assert b.choose(game) == act
        else:
            act = gov.choose(game)
        game.apply(act)
    other = game.clone()
    other.state.dice.reseed(987654321)
    results = {}
    for agent in (a, b):
        rollout = agent._rollout
        results[agent] = []

        def spy(g, style, seed, agent=agent, rollout=rollout):
            results[agent].append(rollout(g, style, seed))
            return results[agent][-1]

        agent._rollout = spy
    before = game.state.dice.count, game.state.dice.state
    assert a.choose(game) == b.choose(other)
    assert (game.state.dice.count, game.state.dice.state) == before
    assert results[a] == results[b] and {0.0, 1.0} <= set(results[a])
    assert a.opponent.fit == b.opponent.fit and a.picks == b.picks
