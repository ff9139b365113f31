"""The Algeria agents: legal play on every scenario and option, determinism, strength,
and the search agent's budget."""

from __future__ import annotations

import time

import pytest

from djebel.agents import make_agent
from djebel.algeria.board import AREA_IDS, CADRE, COUNTRIES, UNIT_INDEX, UTYPE
from djebel.algeria.bots import HeuristicAgent, SearchAgent
from djebel.algeria.bots.search import STYLES
from djebel.algeria.game import new_game
from djebel.core.search import MCTS

SETUPS = [
    ("1954", {}),
    ("1958", {}),
    ("1960", {}),
    ("1954", {"slow_french_reaction": True, "deterministic_independence": True}),
    ("1958", {"shorter_game": True, "border_zone_cuts_ap": True}),
    ("1960", {"shorter_game": True}),
]


def play(scenario, seed, fln, gov, options=None, check=True, **kw):
    game = new_game(scenario, seed, options or None, log=False)
    agents = {"fln": make_agent(fln, "algeria", "fln", seed, **kw.get("fln_kw", {})),
              "gov": make_agent(gov, "algeria", "gov", seed + 1, **kw.get("gov_kw", {}))}
    history = []
    while not game.is_over():
        action = agents[game.active_side].choose(game)
        if check:
            assert action in game.legal_actions(), (game.decision(), action)
        game.apply(action)
        history.append(str(action))
    return game, history


@pytest.mark.parametrize(("scenario", "options"), SETUPS)
def test_heuristic_plays_legal_moves_to_the_end(scenario, options):
    for seed in range(3):
        for fln, gov in (("heuristic", "heuristic"), ("heuristic", "random"),
                         ("random", "heuristic")):
            game, _ = play(scenario, seed, fln, gov, options)
            assert game.is_over() and game.result().winner in ("fln", "gov")


def test_heuristic_is_deterministic_for_a_seed():
    _, a = play("1958", 7, "heuristic", "heuristic", check=False)
    _, b = play("1958", 7, "heuristic", "heuristic", check=False)
    assert a == b


@pytest.mark.parametrize("scenario", ["1954", "1958"])
def test_heuristic_answers_a_copy_of_the_game_as_the_game_itself(scenario):
    """Its memory of the turn (the Government's unit budget, its control plan) is keyed
    by the game's turn and history, not by the state object: an agent handed a fresh
    copy at every decision (a clone, another dice stream) plays the same game."""
    game = new_game(scenario, 3, log=False)
    same = {"fln": HeuristicAgent("fln", 7), "gov": HeuristicAgent("gov", 8)}
    copied = {"fln": HeuristicAgent("fln", 7), "gov": HeuristicAgent("gov", 8)}
    while not game.is_over():
        other = game.clone()
        other.state.dice.reseed(987654321)
        action = same[game.active_side].choose(game)
        assert copied[game.active_side].choose(other) == action, (game.state.turn, action)
        game.apply(action)


def test_turn_memory_holds_on_a_history_that_continues_its_own():
    """The Government's turn memory (``same_turn``) holds on a copy and as the history
    grows within the turn; not on a shorter history, another turn, or a history of the
    same length that went another way (a take-back)."""
    from djebel.algeria.bots.heuristic_base import same_turn, turn_key
    game = new_game("1958", 3, log=False)
    h = {"fln": HeuristicAgent("fln", 0), "gov": HeuristicAgent("gov", 0)}
    while game.state.turn < 1 or len(game.legal_actions()) < 2:
        game.apply(h[game.active_side].choose(game))
    before = game.clone()
    first, second = game.legal_actions()[:2]
    game.apply(first)
    key = turn_key(game.state)
    assert same_turn(key, game.state) and same_turn(key, game.clone().state)
    longer = game.clone()
    longer.apply(h[longer.active_side].choose(longer))
    assert same_turn(key, longer.state) == (longer.state.turn == key[0])
    other = before.clone()
    other.apply(second)
    assert not same_turn(key, other.state)          # same turn and length, another line
    assert not same_turn(key, before.state)         # shorter
    assert not same_turn((), game.state) and not same_turn((key[0] + 1, *key[1:]), game.state)


def test_heuristic_never_rolls_the_game_dice():
    game = new_game("1954", 3, log=False)
    agent = HeuristicAgent(game.active_side, 0)
    while game.active_side is not None and not game.is_over():
        before = game.state.dice.count
        action = HeuristicAgent(game.active_side, 0).choose(game)
        assert game.state.dice.count == before
        game.apply(action)
    assert agent.side in ("fln", "gov")


@pytest.mark.parametrize("scenario", ["1954", "1958", "1960"])
def test_heuristic_beats_random_on_both_sides(scenario):
    n = 20
    fln_wins = sum(play(scenario, 100 + i, "heuristic", "random", check=False)[0]
                   .result().winner == "fln" for i in range(n))
    gov_wins = sum(play(scenario, 200 + i, "random", "heuristic", check=False)[0]
                   .result().winner == "gov" for i in range(n))
    assert fln_wins >= 0.9 * n and gov_wins >= 0.9 * n, (fln_wins, gov_wins)


@pytest.mark.parametrize("scenario", ["1954", "1960"])
def test_search_agent_plays_legal_moves_to_the_end(scenario):
    kw = {"iterations": 4, "rollouts": 2}
    game, _ = play(scenario, 5, "search", "heuristic", fln_kw=kw)
    assert game.is_over()
    game, _ = play(scenario, 6, "heuristic", "search", gov_kw=kw)
    assert game.is_over()
    both = {"iterations": 4, "rollouts": 2, "tree": True}
    game, _ = play(scenario, 7, "heuristic", "search", gov_kw=both)
    assert game.is_over()
    game, _ = play(scenario, 8, "search", "heuristic", fln_kw=both)
    assert game.is_over()


def test_search_agent_is_deterministic_with_an_iteration_budget():
    kw = {"iterations": 6, "tree": True, "rollouts": 0}
    _, a = play("1958", 11, "search", "heuristic", check=False, fln_kw=kw)
    _, b = play("1958", 11, "search", "heuristic", check=False, fln_kw=kw)
    assert a == b
    kw = {"rollouts": 3}
    _, a = play("1960", 13, "search", "heuristic", check=False, fln_kw=kw)
    _, b = play("1960", 13, "search", "heuristic", check=False, fln_kw=kw)
    assert a == b
    _, a = play("1958", 12, "heuristic", "search", check=False, gov_kw=kw)
    _, b = play("1958", 12, "heuristic", "search", check=False, gov_kw=kw)
    assert a == b


def test_spend_zero_style_buys_only_police():
    """The style that spends nothing on units (and buys no brigade for control) still
    mobilizes Police for Civil Affairs."""
    game = new_game("1954", 3, log=False)
    agents = {"fln": HeuristicAgent("fln", 1),
              "gov": HeuristicAgent("gov", 2, spend=0.0, control_buy=False)}
    bought = []
    while not game.is_over():
        action = agents[game.active_side].choose(game)
        if game.active_side == "gov" and action.verb in ("activate", "buy", "mobilize"):
            bought.append(str(action))
        game.apply(action)
    assert bought and all(b == "mobilize police" for b in bought), bought


@pytest.mark.parametrize("side", ["fln", "gov"])
def test_style_switching_plays_out_every_style_on_the_same_dice(side):
    game = _to_search_decision(side)
    agent = SearchAgent(side, 4, rollouts=3)
    calls = []
    rollout = agent._rollout

    def spy(g, style, seed):
        calls.append((tuple(style.items()), seed))
        return rollout(g, style, seed)

    agent._rollout = spy
    action = agent.choose(game)
    assert action in game.legal_actions()
    styles = {s for s, _ in calls}
    k = len(STYLES[side])
    assert len(calls) == 3 * len(styles) == 3 * k
    for style in styles:
        assert [seed for s, seed in calls if s == style] == [seed for _, seed in calls[::k]]
    assert agent.picks and 0 <= agent.picks[0] < k
    assert game.state.dice.count == _to_search_decision(side).state.dice.count


def _fln_missions(scenario, seed, **style):
    """Every Operations mission the FLN chose in one game with these style settings
    (against a Government that does not hunt, so that units come up)."""
    game = new_game(scenario, seed, log=False)
    agents = {"fln": HeuristicAgent("fln", 1, **style), "gov": HeuristicAgent("gov", 2, hunt=0)}
    chosen = []
    while not game.is_over():
        action = agents[game.active_side].choose(game)
        if game.decision() == "ops_fln" and action.verb != "pass":
            unit = UNIT_INDEX[action.args[0]]
            chosen.append((action.verb, UTYPE[unit], game.state.loc[unit]))
        game.apply(action)
    return chosen


def test_fln_styles_that_hold_units_back():
    """cross=False: no Move out of Morocco or Tunisia (9.13); cadres_move=False: no
    Cadre Moves. The plain style does both in the same scenario."""
    plain = _fln_missions("1960", 4, cross=True)
    assert any(v == "move" and a in COUNTRIES for v, _, a in plain)
    assert any(v == "move" and t == CADRE for v, t, _ in plain)
    held = _fln_missions("1960", 4, cross=False, cadres_move=False)
    assert not any(v == "move" and (a in COUNTRIES or t == CADRE) for v, t, a in held)
    assert any(v == "propaganda" for v, _, _ in held)


def _fln_conversions(seed, **style):
    game = new_game("1954", seed, log=False)
    agents = {"fln": HeuristicAgent("fln", 1, **style), "gov": HeuristicAgent("gov", 2)}
    out = []
    while not game.is_over():
        action = agents[game.active_side].choose(game)
        if game.decision() == "fln_reinf" and action.verb == "convert":
            out.append(action.args[1])
        game.apply(action)
    return out


def test_fln_style_without_fronts_converts_no_cadre_into_a_front():
    assert "front" in _fln_conversions(5)
    assert "front" not in _fln_conversions(5, fronts=False)


def test_patrol_stay_style_sends_units_where_the_fln_gathers():
    """patrol_stay=3: a unit in an area where the FLN is worth less than 3 looks for a
    better area to patrol; the plain style (1) has it patrol where it stands."""
    from djebel.algeria.bots.view import view_of
    plain = HeuristicAgent("gov", 0, control_move=0.0)
    style = HeuristicAgent("gov", 0, patrol_stay=3.0, control_move=0.0)
    seen = 0
    for seed in range(6):
        game = new_game("1958", seed, log=False)
        agents = {"fln": HeuristicAgent("fln", 1), "gov": HeuristicAgent("gov", 2)}
        while not game.is_over() and game.state.turn <= 3:
            if game.decision() == "gov_deploy":
                s = game.state
                v = view_of(s)
                for act in game.legal_actions():
                    if act.verb != "deploy":
                        continue
                    u = UNIT_INDEX[act.args[0]]
                    need = plain._patrol_need(s, v, s.loc[u])
                    if 1.0 <= need < 3.0:
                        assert plain._deploy_target(s, v, u) == "PTL"
                        moved = style._deploy_target(s, v, u)
                        seen += moved not in ("PTL", "stay")
            game.apply(agents[game.active_side].choose(game))
    assert seen > 0


def test_fln_propaganda_style_adds_to_propaganda_scores_only():
    game = _to_search_decision("fln")
    plain = dict((a, sc) for sc, a in HeuristicAgent("fln", 0, propaganda=0.0).ranked(game))
    eager = dict((a, sc) for sc, a in HeuristicAgent("fln", 0, propaganda=1.5).ranked(game))
    assert plain.keys() == eager.keys()
    assert any(a.verb == "propaganda" for a in plain)
    for a, sc in plain.items():
        assert eager[a] == pytest.approx(sc + (1.5 if a.verb == "propaganda" else 0.0))


def _to_search_decision(side):
    for seed in range(20):
        game = new_game("1958", seed, log=False)
        h = {"fln": HeuristicAgent("fln", 0), "gov": HeuristicAgent("gov", 0)}
        while not game.is_over():
            if game.decision() == f"ops_{side}" and len(game.legal_actions()) > 3:
                return game
            game.apply(h[game.active_side].choose(game))
    raise AssertionError("no operations decision reached")


@pytest.mark.parametrize("side", ["fln", "gov"])
def test_search_agent_respects_its_budget(side):
    game = _to_search_decision(side)
    agent = SearchAgent(side, 1, iterations=10, tree=True, rollouts=0)
    action = agent.choose(game)
    assert action in game.legal_actions()
    assert agent.mcts.last_iterations == 10
    timed = SearchAgent(side, 1, seconds=0.2, tree=True)
    t0 = time.perf_counter()
    action = timed.choose(game)
    # One iteration may overrun the deadline: a mission rollout is at most one turn,
    # a style rollout one game per style (the Government switches styles too).
    assert time.perf_counter() - t0 < 3.0
    assert action in game.legal_actions()


class Nim:
    """Take 1 or 2 from a pile; who takes the last one wins (a toy for the search core)."""

    def __init__(self, pile=7, side="a"):
        self.pile, self.side = pile, side

    @property
    def active_side(self):
        return None if self.pile == 0 else self.side

    def legal_actions(self):
        return [k for k in (1, 2) if k <= self.pile]

    def apply(self, k):
        self.pile -= k
        self.last = self.side
        self.side = "b" if self.side == "a" else "a"

    def clone(self):
        g = Nim(self.pile, self.side)
        g.__dict__.update(self.__dict__)
        return g

    def is_over(self):
        return self.pile == 0


def test_generic_search_solves_a_toy_game():
    import random
    rng = random.Random(0)
    mcts = MCTS(policy=lambda g: rng.choice(g.legal_actions()),
                evaluate=lambda g: {g.last: 1.0, ("b" if g.last == "a" else "a"): 0.0},
                branch=lambda g: True, candidates=lambda g: g.legal_actions(),
                iterations=400, rng=random.Random(1))
    assert mcts.choose(Nim(7)) == 1      # leave a multiple of 3
    assert mcts.choose(Nim(8)) == 2


def test_make_agent_passes_style_settings_to_the_heuristic_agent():
    agent = make_agent("heuristic", "algeria", "fln", 0, fronts=False, propaganda=1.5)
    assert agent.fronts is False and agent.propaganda == 1.5
    assert make_agent("heuristic", "algeria", "gov", 0, patrol_stay=3.0).patrol_stay == 3.0


@pytest.mark.parametrize("memory,second_pick", [(0.0, 0), (1.0, 1)])
def test_style_memory_carries_earlier_turns_evidence(memory, second_pick):
    """Turn one: style 1 wins both rollouts. Turn two: style 0 wins one, style 1 none.
    Judged on its own the second turn picks style 0; with memory 1 the earlier
    evidence keeps style 1 (2 wins against 1). No margin (``z=0, switch_lead=0``):
    the style that won most."""
    game = _to_search_decision("fln")
    agent = SearchAgent("fln", 0, rollouts=2, memory=memory, z=0.0, switch_lead=0.0)
    results = iter([0, 1, 0, 0, 0, 0] + [0, 1, 0, 0, 0, 0]          # turn one
                   + [1, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0])       # turn two
    agent._rollout = lambda g, style, seed: next(results)
    assert len(STYLES["fln"]) == 6
    assert agent._pick_style(game) == 1
    assert agent._pick_style(game) == second_pick


def _scripted(table):
    """A rollout function whose result for (style, k-th seed) is ``table[style][k]``,
    and the list of the (style, k) it was asked."""
    asked = []
    seeds = iter(range(100))

    def play(style, seed):
        asked.append((style, seed))
        return table[style][seed]
    return play, (lambda: next(seeds)), asked


def test_pick_style_keeps_the_heuristic_unless_a_style_is_clearly_better():
    """Style 1 wins the 2 seeds style 0 loses: a lead of 2 over 2 discordant seeds
    (2 < 2 standard errors, 2.83) keeps style 0; 6 of 6 (6 > 4.90) switches to it."""
    from djebel.algeria.bots.search import StyleRecord, pick_style
    few = [[0, 0, 1], [1, 1, 1], [0, 0, 1]]
    play, seeds, _ = _scripted(few)
    assert pick_style(StyleRecord(3), play, seeds, 3, 6, 2, 1.0, 2.0, 2.0) == 0
    many = [[0] * 6 + [1] * 4, [1] * 10, [0] * 6 + [1] * 4]
    play, seeds, _ = _scripted(many)
    assert pick_style(StyleRecord(3), play, seeds, 10, 12, 2, 1.0, 2.0, 2.0) == 1
    # Without a margin the first lead of 1 is enough.
    play, seeds, _ = _scripted([[0], [0], [1]])
    assert pick_style(StyleRecord(3), play, seeds, 1, 6, 2, 1.0, 0.0, 0.0) == 2


def test_pick_style_screens_out_the_styles_behind_the_heuristic():
    """After the 2 screening seeds only the challengers ahead of style 0 play on
    (style 2 behind, style 3 level: dropped); a turn where none is ahead stops there."""
    from djebel.algeria.bots.search import StyleRecord, pick_style
    table = [[0, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]]
    play, seeds, asked = _scripted(table)
    record = StyleRecord(4)
    assert pick_style(record, play, seeds, 6, 2, 2, 1.0, 2.0, 2.0) == 1
    assert sorted({s for s, k in asked if k >= 2}) == [0, 1] and len(asked) == 8 + 8
    assert record.lead == [0.0, 5.0, -1.0, 0.0]
    level = [[1, 1, 1], [1, 1, 1], [1, 0, 1]]
    play, seeds, asked = _scripted(level)
    assert pick_style(StyleRecord(3), play, seeds, 3, 2, 2, 1.0, 2.0, 2.0) == 0
    assert len(asked) == 6                      # no seed after the screen


@pytest.mark.parametrize(("fln", "gov", "value"), [
    (0, 0, 0), (1, 2, 1), (2, 3, 0), (3, 1, -1), (2, 1, -1), (0, 1, 1), (1, 0, -1),
    (4, 6, 0), (3, 6, 1),
])
def test_control_value_reads_rule_10_1(fln, gov, value):
    """# 10.1-2 twice the other side's points (and > 0) controls; 10.1-3/-4 otherwise
    contested on average, since both sides roll against the same difference."""
    from djebel.algeria.bots.gov_control import control_value
    assert control_value(fln, gov) == value


def _play_to(decision, scenario, seed, **fln_kw):
    """Heuristic play up to the first ``decision`` of the game."""
    game = new_game(scenario, seed, log=False)
    agents = {"fln": HeuristicAgent("fln", 1, **fln_kw), "gov": HeuristicAgent("gov", 2)}
    while game.decision() != decision:
        game.apply(agents[game.active_side].choose(game))
    return game


def _gov_reinforcement(scenario, seed):
    return _play_to("gov_reinf", scenario, seed)


def test_control_site_is_where_one_point_changes_control():
    from djebel.algeria.bots.gov_control import control_site, control_value
    from djebel.algeria.bots.view import view_of
    game = _gov_reinforcement("1954", 4)
    v = view_of(game.state)
    a = control_site(v, 1)
    assert a is not None
    assert control_value(v.fln_cp[a], v.gov_cp[a] + 1) > control_value(v.fln_cp[a], v.gov_cp[a])


def test_government_buys_a_brigade_for_control_only_when_not_behind():
    """6.32-4: a unit never activated still counts for control, so the Government buys
    Algerian brigades where one more point changes control, while its PSL is at least
    the FLN's; it places the brigade there."""
    from djebel.algeria.bots.gov_control import control_site
    from djebel.algeria.bots.view import view_of
    game = _gov_reinforcement("1954", 4)
    s = game.state
    s.gov_psl, s.fln_psl = 60, 50
    agent = HeuristicAgent("gov", 0, air_guard=0, control_move=0.0)
    guards = []
    while (act := agent.choose(game)).verb == "activate" or act.args == ("police",):
        game.apply(act)
        if act.verb == "activate":      # a city's guard against a Strike (9.12-7)
            guards.append(str(act))
        else:
            game.apply(agent.choose(game))
    assert guards == ["activate fr_x3"]
    assert str(act) in ("mobilize al_x", "mobilize fr_x"), act
    nobuy = HeuristicAgent("gov", 0, control_buy=False, air_guard=0,
                           control_move=0.0).choose(game)
    assert str(nobuy) not in ("mobilize al_x", "mobilize fr_x"), nobuy
    site = control_site(view_of(game.state), 1)
    game.apply(act)
    placed = agent.choose(game)
    assert placed.verb == "at" and placed.args[0] == AREA_IDS[site]
    behind = _gov_reinforcement("1954", 4)
    behind.state.gov_psl, behind.state.fln_psl = 50, 55
    acts = []
    while behind.decision() in ("gov_reinf", "mobilize_where"):
        act = agent.choose(behind)
        acts.append(str(act))
        behind.apply(act)
    assert not any(a in ("mobilize al_x", "mobilize fr_x") for a in acts), acts


def _gov_deployment(scenario, seed):
    return _play_to("gov_deploy", scenario, seed)


def test_patrol_denial_is_the_mission_success_table_difference():
    """# 9.11-3 / 9.14-3: one more patrol is -1 to Propaganda and Raids. For Cadres alone
    in a rural area with no patrol: N falls from 10/6 to 7/6 and '+' (a Cadre lost, 1
    PSP to the Government) rises from 1/6 to 2/6, so 0.5 + 2 * 1/6."""
    from djebel.algeria.board import ALGERIA, BAND, FAILEK, FRONT, NEUT
    from djebel.algeria.bots.gov_control import patrol_denial
    from djebel.algeria.bots.view import view_of
    game = _gov_deployment("1954", 0)
    s = game.state
    v = view_of(s)
    checked = set()
    for a in ALGERIA:
        types = {UTYPE[u] for u in v.fln[a] if not s.flags[u] & NEUT}
        if v.remote[a]:
            assert patrol_denial(s, v, a, 0) == 0.0
        elif types and types <= {CADRE, FRONT} and not s.terror[a]:
            double = 2 if v.urban[a] else 1
            assert patrol_denial(s, v, a, 0) == pytest.approx(0.5 * double + 2 / 6)
            checked.add(double)
        elif not types:
            assert patrol_denial(s, v, a, 0) == 0.0
        assert not types & {BAND, FAILEK} or patrol_denial(s, v, a, 0) > 0
    assert 1 in checked


def test_deny_style_sends_units_where_cadres_would_propagandize_unhindered():
    """deny=1: a deploying unit goes where a patrol takes most from FLN Propaganda and
    Raids (plus the usual patrol need); the plain style keeps it with the Fronts."""
    from djebel.algeria.board import AREA_INDEX
    from djebel.algeria.bots.gov_control import patrol_denial
    from djebel.algeria.bots.view import view_of
    plain = HeuristicAgent("gov", 0, control_move=0.0)      # no unit sent for control
    deny = HeuristicAgent("gov", 0, deny=1.0, control_move=0.0)
    differ = 0
    for seed in range(4):
        game = _gov_deployment("1958", seed)
        s = game.state
        v = view_of(s)
        for act in game.legal_actions():
            if act.verb != "deploy":
                continue
            u = UNIT_INDEX[act.args[0]]
            target = deny._deploy_target(s, v, u)
            if target in ("PTL", "stay"):
                continue
            b = AREA_INDEX[target]
            assert patrol_denial(s, v, b, v.patrol[b]) > 0 or deny._patrol_need(s, v, b) > 0
            if target != plain._deploy_target(s, v, u):
                differ += patrol_denial(s, v, b, v.patrol[b]) > 0
    assert differ > 0


def _watching_gov(fln_kw, turns, seed=5, strike_plan=True):
    """Play 1954 up to ``turns`` with a heuristic Government that keeps watching."""
    game = new_game("1954", seed, log=False)
    agents = {"fln": HeuristicAgent("fln", 1, **fln_kw), "gov": HeuristicAgent("gov", 2)}
    agents["fln"].strike_plan = strike_plan
    while not game.is_over() and game.state.turn <= turns:
        game.apply(agents[game.active_side].choose(game))
    return game, agents["gov"]


def test_government_adapts_only_to_an_fln_that_builds_no_front():
    """Against an FLN that converts Cadres into Fronts (6.2-2; the plain FLN without
    its city Strike plan, which builds Cadres in a city instead) the Government keeps
    its plain play; against an FLN that builds none it switches, from turn 2, to
    patrols and Police that cut Propaganda (9.11-3)."""
    game, gov = _watching_gov({}, 2, seed=2, strike_plan=False)
    assert gov._fronts_base is not None and gov._fronts_grew
    assert not gov._denying(game.state)
    game, gov = _watching_gov({"fronts": False}, 2)
    assert not game.is_over() and game.state.turn >= 2
    assert not gov._fronts_grew and gov._denying(game.state)
    assert not HeuristicAgent("gov", 2, adapt=False)._denying(game.state)


def test_a_government_that_can_fly_a_hunting_group_does_not_deny_propaganda_11_12():
    """11.12: with the Helo points to fly its hunting group (``hunt`` elites, one point
    each) the Government hunts the propagandists rather than moving Police and patrols
    after their Propaganda; without them, as in 1954, it denies. The searching bots'
    StylePolicy keeps denying (``deny_hunting``), and so does a Government that does not
    hunt (``hunt=0``)."""
    from djebel.algeria.bots.styles import StylePolicy
    game, gov = _watching_gov({"fronts": False}, 2)
    s = game.state
    assert s.helo_max == 0 and gov._denying(s)
    s.helo_max = gov.hunt
    assert not gov._denying(s)
    style = StylePolicy("gov", 2)
    style._fronts_base, style._propaganda_seen = gov._fronts_base, True
    no_hunt = HeuristicAgent("gov", 2, hunt=0)
    no_hunt._fronts_base, no_hunt._propaganda_seen = gov._fronts_base, True
    assert style._denying(s) and no_hunt._denying(s)
    s.helo_max = gov.hunt - 1
    assert gov._denying(s)


def test_adapted_government_relocates_idle_police_to_where_cadres_propagandize():
    """6.31-4: a Police unit may be removed and mobilized again (1 PSP). The adapted
    Government removes one whose area gives no denial when an area without Police
    would cut Propaganda by more than 0.5, at most RELOCATE a turn."""
    from djebel.algeria.bots.gov_control import patrol_denial
    from djebel.algeria.bots.gov_policy import RELOCATE
    from djebel.algeria.bots.view import view_of
    found = 0
    for seed in range(8):
        game, gov = _watching_gov({"fronts": False}, 1, seed)
        while not game.is_over() and game.decision() != "gov_reinf":
            game.apply(HeuristicAgent(game.active_side, 3).choose(game))
        if game.is_over():
            continue
        s = game.state
        s.gov_psl = max(s.gov_psl, 40)
        v = view_of(s)
        gov._watch_fronts(s)
        act = gov._police_to_relocate(s, v, game.legal_actions())
        site = gov._civil_site(v)
        if act is None:
            continue
        found += 1
        a = s.loc[UNIT_INDEX[act.args[0]]]
        assert act.verb == "remove"
        assert patrol_denial(s, v, a, v.patrol[a] - 1) < 0.05
        assert patrol_denial(s, v, site, v.patrol[site]) > 0.5
        gov._relocated = (s.turn, RELOCATE)
        assert gov._police_to_relocate(s, v, game.legal_actions()) is None
    assert found > 0


def test_outfire_is_the_chance_of_more_hits_on_the_crt():
    """9-6.4: the side that takes more hits is neutralized. A Band (firepower 2, C.3
    column 2-4: 0,0,0,1,1,2) against a Police unit firing back 1 (column 1: 1 on a 6);
    a Failek group of 8 (column 5-8: 1,1,2,2,2,3) against the same."""
    from fractions import Fraction

    from djebel.algeria.bots.heuristic_base import outfire
    band, police, group = [0, 0, 0, 1, 1, 2], [0, 0, 0, 0, 0, 1], [1, 1, 2, 2, 2, 3]

    def more(a, b):
        return Fraction(sum(x > y for x in a for y in b), 36)
    assert outfire(2, 1) == pytest.approx(float(more(band, police))) == pytest.approx(16 / 36)
    assert outfire(8, 1) == pytest.approx(float(more(group, police))) == pytest.approx(34 / 36)
    assert outfire(1, 2) == pytest.approx(float(more(police, band)))


def _harass_site(seed):
    """The first FLN Operations decision of a 1958 game at which a Band in an OPS box
    shares its area with a Police unit that can still run Civil Affairs."""
    from djebel.algeria.board import BAND, NEUT, OPS, POLICE
    from djebel.algeria.bots.view import view_of
    game = new_game("1958", seed, log=False)
    gov = HeuristicAgent("gov", 2)
    gov.city_guard = False      # the first turn played as before its city guards
    agents = {"fln": HeuristicAgent("fln", 1, wary=False), "gov": gov}
    while game.decision() != "ops_fln":
        game.apply(agents[game.active_side].choose(game))
    s = game.state
    v = view_of(s)
    for act in game.legal_actions():
        if act.verb != "harass":
            continue
        u = UNIT_INDEX[act.args[0]]
        a = s.loc[u]
        if UTYPE[u] == BAND and s.box[u] == OPS and any(
                UTYPE[g] == POLICE and not s.flags[g] & NEUT for g in v.gov[a]):
            return game, u, a
    return game, None, None


def test_fln_harass_values_the_police_it_may_neutralize():
    """9.15 / 9-6.4 / 9.25: a Band that outfires a Police unit neutralizes it, and a
    neutralized Police unit runs no Civil Affairs. ``harass_police`` adds that many
    times the chance of outfiring it, only while its Civil Affairs is still to come."""
    from djebel.algeria.bots.heuristic_base import outfire
    from djebel.algeria.bots.view import view_of
    from djebel.algeria.rules.common import firepower
    from djebel.algeria.state import DONE_CIVIL
    game, u, a = next((g, u, a) for g, u, a in map(_harass_site, range(10)) if u is not None)
    s = game.state
    v = view_of(s)
    police = min(v.gov[a], key=lambda g: firepower(s, g))
    # The Police unit fires back half its firepower, rounded up (9.15-4), plus an Air
    # Point's 1d6 (3 on average) outside Urban areas when one is available.
    back = -(-firepower(s, police) // 2) + (3 if s.air_avail and not v.urban[a] else 0)
    keen, plain = HeuristicAgent("fln", 1, harass_police=2.0), HeuristicAgent("fln", 1,
                                                                            harass_police=0.0)
    bonus = keen._harass_value(s, v, u, a) - plain._harass_value(s, v, u, a)
    assert bonus == pytest.approx(2.0 * outfire(firepower(s, u), back))
    s.done[a] |= DONE_CIVIL
    assert keen._harass_value(s, v, u, a) == pytest.approx(plain._harass_value(s, v, u, a))


def test_fln_pulls_bands_to_police_they_do_not_yet_face():
    """Bands gather where Police can be harassed: each Police unit in a non-Remote area
    not yet faced by a Band is worth ``harass_police`` to a Band moving or built there."""
    from djebel.algeria.bots.view import view_of
    game = _play_to("ops_fln", "1958", 0)
    v = view_of(game.state)
    agent = HeuristicAgent("fln", 1, harass_police=2.0)
    for a in range(len(v.police)):
        want = 0.0 if v.remote[a] else 2.0 * max(0, v.police[a] - 1)
        assert agent._police_target(v, a, 1) == want
    assert HeuristicAgent("fln", 1, harass_police=0.0)._police_target(v, 0, 0) == 0.0


def test_government_renews_neutralized_police():
    """6.31-4: a Police unit may be taken off the map and mobilized again (1 PSP). The
    Government renews a neutralized one (it would run no Civil Affairs until it
    recovers, 10.2), but not at or below POLICE_FLOOR."""
    from djebel.algeria.board import GOV_UNITS, NEUT, POLICE
    from djebel.algeria.bots.heuristic_base import POLICE_FLOOR
    game = _gov_reinforcement("1958", 3)
    s = game.state
    gov = HeuristicAgent("gov", 2)
    police = [u for u in GOV_UNITS if UTYPE[u] == POLICE and s.loc[u] >= 0]
    assert gov._police_to_renew(s, game.legal_actions()) is None     # none neutralized
    s.flags[police[0]] |= NEUT
    act = gov.choose(game)
    assert act.verb == "remove" and UNIT_INDEX[act.args[0]] == police[0]
    s.gov_psl = POLICE_FLOOR
    assert gov._police_to_renew(s, game.legal_actions()) is None


def test_air_guard_buys_air_points_and_keeps_them_for_harassed_units():
    """6.31-5 / 11.11 / DIS-12: with ``air_guard`` the Government buys Air Points up to
    that many (2 PSP each), and commits them only to the return fire of a harassed
    unit, never to a Flush or React, so the 1d6 each always waits for a Harass."""
    from djebel.algeria.board import ALGERIA, AREA_RATING, BAND, UG, URBAN
    from djebel.algeria.bots import view
    from djebel.algeria.bots.heuristic_base import POLICE_FLOOR
    from djebel.algeria.bots.view import view_of
    from djebel.core.actions import Action
    game = _gov_reinforcement("1954", 3)
    s = game.state
    assert s.air_max == 0
    guard = HeuristicAgent("gov", 2)         # the plain bot keeps one Air Point
    # No Band or Failek shares a non-Urban area with Police (1954 starts with Cadres
    # and Fronts): no Air Point is bought; one Band beside Police, and one is.
    assert guard._air_to_guard(s, game.legal_actions()) is None
    v = view_of(s)
    site = next(a for a in ALGERIA if v.police[a] and AREA_RATING[a] != URBAN)
    spare = next(u for u in range(len(UTYPE)) if UTYPE[u] == BAND and s.loc[u] < 0)
    s.loc[spare], s.box[spare], s.flags[spare] = site, UG, 0
    view._CACHE[:] = [None, None]           # the bots' View of the state before the change
    act = guard.choose(game)
    assert (act.verb, act.args) == ("buy", ("air",))
    assert HeuristicAgent("gov", 2, air_guard=0)._air_to_guard(s, game.legal_actions()) is None
    game.apply(act)
    assert s.air_max == 1 and guard._air_to_guard(s, game.legal_actions()) is None
    s.air_max = 0
    s.gov_psl = POLICE_FLOOR
    assert guard._air_to_guard(s, game.legal_actions()) is None

    band = next(u for u in range(len(UTYPE)) if UTYPE[u] == BAND)
    s.air_avail = 1
    legal = [Action("air", (k,)) for k in range(2)]
    plain = HeuristicAgent("gov", 2, air_guard=0)
    for mission, guarded, unguarded in (("flush", 0, 1), ("react", 0, 1), ("harass", 1, 1)):
        s.combat = {"mission": mission, "fln": [band]}
        assert guard._air_commit(s, legal).args == (guarded,), mission
        assert plain._air_commit(s, legal).args == (unguarded,), mission
    s.air_avail = 3
    legal = [Action("air", (k,)) for k in range(4)]
    s.combat = {"mission": "flush", "fln": [band]}      # wants 2, may spend 3 - 1
    assert guard._air_commit(s, legal).args == (2,)
    s.air_avail = 2
    legal = legal[:3]
    assert guard._air_commit(s, legal).args == (1,)


def _long_war(agent: HeuristicAgent, s) -> HeuristicAgent:
    """``agent`` as if its PSL had not fallen over the last turn (no short war)."""
    agent._fln_mark, agent._fln_fall = (s.turn, s.fln_psl), 0
    return agent


def test_cadre_build_prefers_cadres_to_bands():
    """``cadre_build`` is added to the score of building a Cadre in Algeria (6.2): the
    plain 1960 FLN in a long war builds a Band first, with ``cadre_build=4`` a Cadre."""
    game = _play_to("fln_reinf", "1960", 0)
    s = game.state
    plain = _long_war(HeuristicAgent("fln", 1), s).choose(game)
    styled = _long_war(HeuristicAgent("fln", 1, cadre_build=4.0), s).choose(game)
    assert (plain.verb, plain.args[0]) == ("build", "band")
    assert (styled.verb, styled.args[0]) == ("build", "cadre")
    assert styled.args[1] not in ("MOROCCO", "TUNISIA")


def test_fln_in_a_short_war_builds_cadres_not_fronts_12_2():
    """12.2 / 9.25 / 6.2: in 1960 (FLN PSL 45) the Government's Police can take 10/6 FLN
    PSL each a turn by Civil Affairs, 16.7 with ten: the FLN's PSL would be gone in under
    SHORT_WAR turns, so its first Reinforcement Phase spends its AP on Cadres (SHORT_WAR_
    CADRE added to their score), for Propaganda this turn, and converts no Cadre into a
    Front (whose 3 control points and AP pay over many turns); in a long war it builds a
    Band first. Its next turn measures the fall itself (45 to 30: 15 a turn)."""
    from djebel.algeria.bots.fln_policy import SHORT_WAR

    def reinforce(short: bool) -> tuple[list[str], HeuristicAgent, object]:
        game = _play_to("fln_reinf", "1960", 0)
        agent = HeuristicAgent("fln", 1)
        if not short:
            _long_war(agent, game.state)
        acts = []
        while game.decision() == "fln_reinf":
            act = agent.choose(game)
            acts.append(str(act))
            game.apply(act)
        return acts, agent, game.state

    acts, agent, s = reinforce(short=True)
    assert s.fln_psl == 45 < SHORT_WAR * 10 / 6 * 10       # ten Police: 16.7 a turn
    assert acts == ["build cadre II-1", "build cadre III-3", "build cadre IV-1",
                    "convert band1 failek", "done"]
    assert reinforce(short=False)[0] == ["build band III-2", "convert cadre1 front",
                                         "convert cadre2 front", "convert band1 failek",
                                         "convert cadre3 front", "done"]
    s.turn += 1
    s.fln_psl = 30
    assert agent._fln_short_war(s) and agent._fln_fall == 15
    s.turn += 1
    assert not agent._fln_short_war(s) and agent._fln_fall == 0     # held at 30


def test_move_style_shifts_every_move_score():
    """``move`` is added to the score of every Move (9.13) and of no other mission."""
    from djebel.algeria.bots.view import view_of
    for seed in range(6):
        game = _play_to("ops_fln", "1954", seed)
        if any(a.verb == "move" for a in game.legal_actions()):
            break
    s = game.state
    plain, styled = HeuristicAgent("fln", 1), HeuristicAgent("fln", 1, move=-1.5)
    p = plain._fln_mission_scores(s, view_of(s), game.legal_actions())
    q = styled._fln_mission_scores(s, view_of(s), game.legal_actions())
    assert [a for _, a in p] == [a for _, a in q]
    assert any(a.verb == "move" for _, a in p)
    for (x, a), (y, _) in zip(p, q, strict=True):
        assert y == pytest.approx(x - 1.5 if a.verb == "move" else x), a


def test_style_settings_name_the_agent_settings_with_their_types():
    """STYLE_SETTINGS (what --fln-style / --gov-style accept) lists HeuristicAgent keyword
    arguments only, with the type of each default where it has one."""
    import inspect

    from djebel.algeria.bots.heuristic import STYLE_SETTINGS
    params = inspect.signature(HeuristicAgent.__init__).parameters
    for side, settings in STYLE_SETTINGS.items():
        for key, kind in settings.items():
            assert key in params, (side, key)
            default = params[key].default
            assert default is None or type(default) is kind, (side, key)
        agent = HeuristicAgent(side, 0, **{k: kind(1) for k, kind in settings.items()})
        assert agent.side == side


def _hunting(decision, seed=3):
    """1958 played by a ``hunt=2`` Government (no control plan) and an FLN that
    crosses borders, set up as the gauntlet's (``OLD_SETUP``), up to ``decision``."""
    from djebel.algeria.bots.gauntlet import OLD_SETUP
    gov = HeuristicAgent("gov", 2, hunt=2, control_move=0.0)
    game = new_game("1958", seed, log=True)
    fln = HeuristicAgent("fln", 1, cross=True, propaganda=0.0, wary=False)
    fln.SETUP = OLD_SETUP
    agents = {"fln": fln, "gov": gov}
    while game.decision() != decision:
        game.apply(agents[game.active_side].choose(game))
    return game, gov, agents


def test_hunt_style_keeps_two_elite_brigades_active():
    """6.32 / B.1: with ``hunt=2`` the Government activates two elite brigades a turn
    (0.5 PSP each) after its Police, and none at a PSL of ``hunt_floor`` or less."""
    game, gov, _ = _hunting("gov_reinf")
    s = game.state
    start = s.gov_psl
    plain = HeuristicAgent("gov", 2, hunt=0, control_move=0.0)
    assert not any(a.verb == "activate" for a in _choices_until_done(plain, game.clone()))
    chosen = _choices_until_done(gov, game)
    activated = [str(a) for a in chosen if a.verb == "activate"]
    assert activated == ["activate el_x1", "activate el_x2"]
    assert [a.verb for a in chosen[:4]] == ["mobilize", "at", "mobilize", "at"]   # Police first
    assert s.gov_psl == start - 2 - 1             # two Police (1 PSP each), 2 x 0.5 PSP
    fresh, gov, _ = _hunting("gov_reinf")
    fresh.state.gov_psl = gov.hunt_floor
    assert gov._hunt_activation(fresh.state, {"activate": fresh.legal_actions()}) is None


def _choices_until_done(agent, game):
    out = []
    while game.decision() in ("gov_reinf", "mobilize_where"):
        act = agent.choose(game)
        out.append(act)
        game.apply(act)
        if act.verb == "done":
            break
    return out


def test_hunt_style_flies_its_elites_to_where_the_fln_surfaced():
    """11.12 / 9.22-3: the ``hunt`` pair of elites, each flown in for 1 Helo point (+1
    contact), Flushes where the FLN has surfaced: a contact of 6 and firepower 18 where
    no local unit could Flush; short of Helo points for both, no hunt."""
    from djebel.algeria.board import AREA_INDEX
    from djebel.algeria.bots.view import view_of
    game, gov, agents = _hunting("ops_gov")
    while not any(a.verb == "flush" for a in game.legal_actions()):
        game.apply(agents[game.active_side].choose(game))
    s = game.state
    v = view_of(s)
    site = AREA_INDEX["I-2"]
    assert gov._hunt_group(s, v, site) == (6, 18, 2)
    assert gov._flush_value(s, v, site) < 0.1       # no local unit to Flush
    assert gov._hunt_value(s, v, site) > 5
    assert str(gov.choose(game)) == "flush I-2"
    game.apply(gov.choose(game))
    steps = []
    while game.decision() == "select":
        act = gov.choose(game)
        steps.append(str(act))
        game.apply(act)
    assert steps == ["airmobilize el_x1", "add el_x1", "airmobilize el_x2", "add el_x2", "go"]
    assert game.decision() == "air_commit"
    game.apply(gov.choose(game))
    assert "GOV Flush in I-2 with el_x1, el_x2 (contact 6)" in [e.text for e in game.log.tail(30)]

    game, gov, agents = _hunting("ops_gov")
    while not any(a.verb == "flush" for a in game.legal_actions()):
        game.apply(agents[game.active_side].choose(game))
    s = game.state
    s.helo_avail = 1
    v = view_of(s)
    assert gov._hunt_group(s, v, site) == (3, 9, 1)
    assert gov._hunt_value(s, v, site) == 0.0

