"""The Algeria planner: legal and deterministic play, no peeking at the dice to come,
its opponent model, the fitted evaluation and the PSP-share search (9-4)."""

from __future__ import annotations

import pytest

from djebel.agents import make_agent
from djebel.algeria.bots import evaluation
from djebel.algeria.bots.gauntlet import PassAgent
from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.bots.planner import PlannerAgent
from djebel.algeria.bots.search import STYLES
from djebel.algeria.game import new_game
from djebel.core.errors import ScenarioError

SMALL = {"rollouts": 2, "share_rollouts": 2, "horizon": 0}


def play(scenario, seed, fln, gov, stop_turn=None):
    """Play to the end (or to ``stop_turn``), checking every action is legal."""
    game = new_game(scenario, seed, log=False)
    history = []
    agents = {"fln": fln, "gov": gov}
    while not game.is_over() and (stop_turn is None or game.state.turn < stop_turn):
        action = agents[game.active_side].choose(game)
        assert action in game.legal_actions(), (game.decision(), action)
        game.apply(action)
        history.append(str(action))
    return game, history


@pytest.mark.parametrize(("scenario", "side"), [("1960", "fln"), ("1960", "gov"),
                                                ("1954", "gov")])
def test_planner_plays_legal_moves_to_the_end(scenario, side):
    other = "gov" if side == "fln" else "fln"
    agents = {side: PlannerAgent(side, 3, **SMALL), other: HeuristicAgent(other, 4)}
    game, _ = play(scenario, 5, agents["fln"], agents["gov"])
    assert game.result().winner in ("fln", "gov")
    assert agents[side].picks and len(agents[side].times) > 10


def test_planner_is_deterministic_for_a_seed():
    runs = [play("1960", 9, PlannerAgent("fln", 2, **SMALL), HeuristicAgent("gov", 1))[1]
            for _ in range(2)]
    assert runs[0] == runs[1]


def _at_turn(scenario, seed, turn):
    game = new_game(scenario, seed, log=False)
    h = {"fln": HeuristicAgent("fln", 0), "gov": HeuristicAgent("gov", 0)}
    while game.state.turn < turn or game.active_side != "fln":
        game.apply(h[game.active_side].choose(game))
    return game


def test_planner_choice_does_not_depend_on_the_dice_to_come():
    """The same position with another stream of future dice: the same choices, and the
    game's own dice are never drawn (rollouts reseed their clones)."""
    game = _at_turn("1958", 3, 2)
    other = game.clone()
    other.state.dice.reseed(987654321)
    before = game.state.dice.count, game.state.dice.state
    a = PlannerAgent("fln", 7, rollouts=3, share_rollouts=2, horizon=1)
    b = PlannerAgent("fln", 7, rollouts=3, share_rollouts=2, horizon=1)
    assert a.choose(game) == b.choose(other)
    assert a.picks == b.picks
    assert (game.state.dice.count, game.state.dice.state) == before


def test_planner_copy_of_the_game_holds_no_dice_stream():
    game = _at_turn("1958", 3, 1)
    agent = PlannerAgent("fln", 1, **SMALL)
    agent.choose(game)
    shadow = agent.opponent._shadow.state.dice
    assert shadow.key != game.state.dice.key or shadow.state != game.state.dice.state
    assert shadow.state == 0 and not shadow.script


def test_planner_replays_what_happened_between_its_decisions():
    """Its copy, rebuilt from the history and the faces rolled, reaches the real
    position at its next decision."""
    game = _at_turn("1954", 4, 1)
    agent = PlannerAgent("fln", 1, rollouts=0, share_rollouts=0)
    gov = HeuristicAgent("gov", 2)
    checked = 0
    while not game.is_over() and game.state.turn <= 2:
        if game.active_side == "fln":
            model = agent.opponent
            if model._shadow is not None:
                seen = model._seen
                model.observe(game)
                shadow = model._shadow.state
                assert len(shadow.actions) == len(game.state.actions) > seen
                assert (shadow.loc, shadow.box, shadow.flags, shadow.fln_psl, shadow.gov_psl) \
                    == (game.state.loc, game.state.box, game.state.flags, game.state.fln_psl,
                        game.state.gov_psl)
                model._shadow, model._seen = None, 0
                checked += 1
            game.apply(agent.choose(game))
        else:
            game.apply(gov.choose(game))
    assert checked > 5


def test_opponent_model_recognises_a_government_that_does_nothing():
    fln = PlannerAgent("fln", 1, rollouts=0, share_rollouts=0)
    play("1958", 2, fln, PassAgent("gov", 3), stop_turn=3)
    assert fln.opponent.name() == "pass"
    plain = PlannerAgent("fln", 1, rollouts=0, share_rollouts=0)
    play("1958", 2, plain, HeuristicAgent("gov", 3), stop_turn=3)
    assert plain.opponent.name().startswith("style")


def test_share_search_keeps_or_replaces_the_heuristic_split():
    """9-4: every share decision of the planner is recorded with the heuristic's split
    and the one played; the one played is legal (0..N)."""
    fln = PlannerAgent("fln", 5, rollouts=2, share_rollouts=3, horizon=0)
    game, _ = play("1954", 6, fln, HeuristicAgent("gov", 1))
    assert fln.shares
    assert all(k >= 0 and h >= 0 for _, h, k in fln.shares)


def test_evaluation_is_exact_at_the_end_and_rises_with_the_fln_psl():
    game = _at_turn("1954", 1, 2)
    s = game.state
    p = evaluation.fln_chance(s)
    assert 0.0 < p < 1.0
    richer = game.clone()
    richer.state.fln_psl += 10
    assert evaluation.fln_chance(richer.state) > p
    poorer = game.clone()
    poorer.state.gov_psl += 10
    assert evaluation.fln_chance(poorer.state) < p
    over = game.clone()
    over.state.winner = "gov"
    assert evaluation.fln_chance(over.state) == 0.0
    assert evaluation.win_chance(over, "gov") == 1.0


def test_evaluation_file_with_other_features_is_refused(tmp_path, monkeypatch):
    bad = tmp_path / "evaluation.toml"
    bad.write_text('features = ["fln_psl"]\n[scenario."1954"]\nweights = [0, 1]\n')
    monkeypatch.setattr(evaluation, "DATA", bad)
    evaluation.coefficients.cache_clear()
    try:
        with pytest.raises(ScenarioError, match="evaluation.toml: field 'features'"):
            evaluation.coefficients()
    finally:
        evaluation.coefficients.cache_clear()


def test_planner_is_offered_by_name():
    agent = make_agent("planner", "algeria", "gov", 3, rollouts=4)
    assert isinstance(agent, PlannerAgent) and agent.rollouts == 4


def test_bench_bot_reports_seconds_per_decision():
    from typer.testing import CliRunner

    from djebel.algeria.bots import timing
    from djebel.cli import app
    res = timing.run("heuristic", 1, 2, ("1960",))
    assert [(r["scenario"], r["side"]) for r in res["rows"]] == [("1960", "fln"), ("1960", "gov")]
    assert all(r["decisions"] > 0 and 0 <= r["mean_s"] <= r["max_s"] for r in res["rows"])
    bad = CliRunner().invoke(app, ["bench", "bot", "--bot", "nobody"])
    assert bad.exit_code == 2 and "--bot 'nobody'" in bad.output


def test_chain_extends_only_the_history_it_continues():
    from djebel.core.chain import Chain
    a = Chain([1, 2])
    b = a.copy()
    b.append(3)
    assert b.extends(a) and a.extends(a) and not a.extends(b)
    assert not Chain([1, 2, 3]).extends(a)          # equal items, other nodes
    assert [b.back(k) for k in range(3)] == [3, 2, 1]
    assert b.since(a) == [3] and a.since(a) == [] and Chain().since(Chain()) == []
    assert a.since(b) is None and Chain([1, 2, 3]).since(a) is None
    c = b.copy()
    c.append(4)
    c.append(5)
    assert c.since(a) == [3, 4, 5] and c.since(b) == [4, 5]


def test_planner_after_a_take_back_keeps_its_model_and_plays_on():
    """A history rebuilt with fewer actions (an undo) is not replayed on the planner's
    copy: its opponent scores stay, and it still answers legally."""
    game = _at_turn("1958", 2, 2)
    agent = PlannerAgent("fln", 1, rollouts=0, share_rollouts=0)
    agent.choose(game)
    fit = list(agent.opponent.fit)
    actions = game.history()
    replay = new_game("1958", 2, log=False)
    for text in actions[:-3]:
        replay.apply(text)
    gov = HeuristicAgent("gov", 0)
    while replay.active_side != "fln":
        replay.apply(gov.choose(replay))
    assert agent.choose(replay) in replay.legal_actions()
    assert agent.opponent.fit == fit


def test_planner_plays_a_clearly_better_style_and_keeps_the_heuristic_otherwise():
    """Rollouts scripted per style: a style that wins every seed the plain heuristic
    loses (lead 16, 16 > 2 standard errors of 4) is played; one that wins 2 seeds
    more than it over the screen (2 < 2.83) is not, and after the 6 screening seeds
    only it and style 0 play on. The rollouts play the model that fits the opponent."""
    game = _at_turn("1958", 3, 2)
    for table, pick, calls in (({2: 1.0}, 2, 6 * 6 + 10 * 2),
                               ({4: "first two"}, 0, 6 * 6 + 10 * 2)):
        agent = PlannerAgent("fln", 1, rollouts=16, share_rollouts=0)
        asked = []

        def fake(g, style, model, seed, horizon, first=None, table=table, agent=agent,
                 asked=asked):
            i = STYLES["fln"].index(style)
            asked.append((i, model, seed))
            k = sum(1 for j, _, _ in asked if j == i) - 1
            win = table.get(i)
            if win == "first two":
                return 1.0 if k < 2 else 0.0
            return win if win is not None else 0.0

        agent._rollout = fake
        agent.choose(game)
        assert agent.picks == [(2, pick, agent.opponent.best())]
        assert len(asked) == calls
        assert {m for _, m, _ in asked} == {agent.opponent.best()}
        by_seed = {}
        for i, _, seed in asked:
            by_seed.setdefault(seed, []).append(i)
        assert all(v == list(range(6)) for v in list(by_seed.values())[:6])


def test_searching_bots_play_and_model_the_heuristic_without_its_city_guard():
    """The planner and the search bot play (and roll out, and model) the heuristic
    without the Government's city guard (GovPolicies._city_to_guard, 9.12-7), which
    measured worse inside their search: their games are those they were measured on."""
    from djebel.algeria.bots.opponent import opponent_models
    from djebel.algeria.bots.search import SearchAgent
    from djebel.algeria.bots.styles import StylePolicy
    planner, search = PlannerAgent("gov", 1), SearchAgent("gov", 1)
    agents = [*planner.styles, *search.styles, search.heuristic, *search.players.values(),
              *(make(7) for _, make in opponent_models("gov"))]
    assert all(isinstance(a, HeuristicAgent) for a in agents)
    assert not any(a.city_guard for a in agents if isinstance(a, StylePolicy))
    assert all(isinstance(a, StylePolicy) for a in (*planner.styles, search.heuristic))
    assert HeuristicAgent("gov", 1).city_guard          # the heuristic bot guards


def test_the_planner_plays_its_own_settings_its_model_does_not_assume_them_9_12(
        monkeypatch):
    """``OWN``: the FLN planner plays its own side with the city Strike plan (9.12;
    ``FlnPolicies._strike_build``), the Government planner without the denial of
    Propaganda while it can hunt (11.12, ``GovPolicies._denying``), in every style and
    in its rollouts; the opponent models of both planners keep the styles they were
    fitted with."""
    from djebel.algeria.bots import planner as planner_module
    from djebel.algeria.bots.styles import StylePolicy
    fln, gov = PlannerAgent("fln", 1, **SMALL), PlannerAgent("gov", 1, **SMALL)
    assert all(style.strike_plan for style in fln.styles)
    assert not any(style.strike_plan for style in gov.styles)
    assert not any(style.deny_hunting for style in gov.styles)
    models = gov.opponent.models
    assert len(models) > 1
    assert not any(gov.opponent.agent(m, 0).strike_plan for m in range(len(models)))
    modelled = [fln.opponent.agent(m, 0) for m in range(len(fln.opponent.models))]
    assert any(isinstance(a, StylePolicy) for a in modelled)
    assert all(a.deny_hunting for a in modelled if isinstance(a, StylePolicy))
    seen = []
    monkeypatch.setattr(planner_module, "play_out",
                        lambda game, agents, turns: seen.append(agents))
    game = _at_turn("1954", 3, 1)
    fln._rollout(game, STYLES["fln"][1], 0, 5, 0)
    gov._rollout(game, STYLES["gov"][0], 0, 5, 0)
    assert seen[0]["fln"].strike_plan and not seen[1]["fln"].strike_plan
    assert seen[0]["gov"].deny_hunting and not seen[1]["gov"].deny_hunting
