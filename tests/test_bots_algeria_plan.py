"""The heuristic Government's long-war plan: control won with the units on the map
(10.1, 6.32-4), Civil Affairs paid for only while the PSL affords it (9.25, 12.2), and
the FLN that keeps its units abroad (9.13). Fixed seeds: exact decisions."""

from __future__ import annotations

from djebel.agents import make_agent
from djebel.algeria.board import AREA_IDS, AREA_INDEX, COUNTRIES, UNIT_INDEX, UNIT_NAMES
from djebel.algeria.bots import HeuristicAgent
from djebel.algeria.bots.gov_policy import control_value
from djebel.algeria.bots.view import view_of
from djebel.algeria.game import new_game
from djebel.core.actions import Action


def _first_gov_reinf(seed: int = 7):
    game = new_game("1958", seed, log=False)
    fln, gov = make_agent("pass", "algeria", "fln", 1), HeuristicAgent("gov", 2)
    while game.decision() != "gov_reinf":
        game.apply((fln if game.active_side == "fln" else gov).choose(game))
    return game, gov


def test_control_plan_wins_areas_with_surplus_units_10_1():
    """10.1 / 6.32-4 / B.1: units the Government does not need where they stand go to
    the areas they win (a Dispersed division's 3 points, 11.7, take an FLN area of one
    Cadre alone), are activated for 0.5 or 1 PSP each and deployed there; every area
    they leave stays Government-controlled."""
    game, gov = _first_gov_reinf()
    s = game.state
    v = view_of(s)
    plan = {UNIT_NAMES[u]: (AREA_IDS[s.loc[u]], AREA_IDS[b])
            for u, b in gov._control_plan(s, v).items()}
    assert plan == {"al_x5": ("ORAN", "III-2"), "fr_x1": ("I-1", "V-1"),
                    "fr_x3": ("V-3", "V-5"), "el_x3": ("CONSTANTINE", "V-7"),
                    "fr_xx3": ("CONSTANTINE", "V-6")}
    # With the planned units moved (the division Dispersed: 3 points), each target is
    # won and each area left stays the Government's, on the board the plan saw.
    fln_cp, gov_cp = v.fln_cp[:], v.gov_cp[:]
    for n, (frm, to) in plan.items():
        cp = 3 if n.startswith("fr_xx") else 1
        gov_cp[AREA_INDEX[frm]] -= cp
        gov_cp[AREA_INDEX[to]] += cp
    for frm, to in plan.values():
        b, a = AREA_INDEX[to], AREA_INDEX[frm]
        assert control_value(v.fln_cp[b], v.gov_cp[b]) < 1, to
        assert control_value(fln_cp[b], gov_cp[b]) == 1, to
        assert control_value(fln_cp[a], gov_cp[a]) == 1, frm
    assert s.gov_psl == 50
    while game.decision() != "fln_deploy":
        game.apply(gov.choose(game))
    # Two Police (1 PSP each) and 2.5 PSP of activations, rounded up (6.3-1).
    assert s.gov_psl == 45
    assert {n: AREA_IDS[s.loc[UNIT_INDEX[n]]] for n in plan} == {
        n: to for n, (_, to) in plan.items()}


def test_control_plan_with_spend_zero_activates_nothing_6_32():
    """6.32-2: with ``spend=0`` (Police only) the plan moves only the Algerian
    brigades, which are active for free; no French unit is activated."""
    game, _ = _first_gov_reinf()
    gov = HeuristicAgent("gov", 2, spend=0.0)
    s = game.state
    plan = gov._control_plan(s, view_of(s))
    assert [UNIT_NAMES[u] for u in plan] == ["al_x5"]
    chosen = []
    while game.decision() in ("gov_reinf", "mobilize_where"):
        act = gov.choose(game)
        chosen.append(act.verb)
        game.apply(act)
    assert "activate" not in chosen


def test_civil_affairs_below_the_floor_only_to_finish_9_25():
    """9.25 / 12.2: at or below ``ca_floor`` Civil Affairs (1 PSP) is paid only when the
    ones still open this turn are expected (1.67 FLN PSL each, times ``ca_finish``) to
    bring the FLN to 0."""
    gov = HeuristicAgent("gov", 2, ca_floor=20, ca_finish=1.0)
    game, _ = _first_gov_reinf()
    s = game.state
    legal = [Action("civil-affairs", (a,)) for a in ("I-1", "I-4", "II-1", "II-3", "III-1",
                                                      "III-3")] + [Action("pass")]
    s.gov_psl, s.fln_psl = 21, 40
    assert gov._civil_affordable(s, legal)          # above the floor
    s.gov_psl = 20
    assert not gov._civil_affordable(s, legal)      # 6 x 1.67 = 10 < 40
    s.fln_psl = 10
    assert gov._civil_affordable(s, legal)          # 10 <= 10.02: the last blow
    s.gov_psl = 3                                   # only 2 can be paid (6.3-2)
    assert not gov._civil_affordable(s, legal)


def test_plain_fln_keeps_its_units_abroad_9_13():
    """9.13 / 10.4-5: the plain FLN makes no border-crossing Move (a '+' on the way
    eliminates the unit, and each unit abroad adds to the FLN's PSL income)."""
    game = new_game("1960", 4, log=False)
    agents = {"fln": HeuristicAgent("fln", 1), "gov": HeuristicAgent("gov", 2)}
    moves = 0
    while not game.is_over():
        action = agents[game.active_side].choose(game)
        if game.decision() == "ops_fln" and action.verb == "move":
            moves += 1
            assert game.state.loc[UNIT_INDEX[action.args[0]]] not in COUNTRIES, action
        game.apply(action)
    assert moves > 0


def test_civil_affairs_holds_above_the_coup_zone_while_winning_11_4():
    """11.4 / 11.3: a Civil Affairs at a PSL of 31 would bring the Government to 30,
    where the coup check (end of turn) and the OAS (for good, from the next
    Reinforcement Phase) begin: it holds there while over the last turn its PSL, apart
    from spending, rose by HOLD_DRIFT or more and the FLN's fell; not otherwise."""
    from djebel.algeria.bots.gov_policy import HOLD_DRIFT
    gov = HeuristicAgent("gov", 2)
    game, _ = _first_gov_reinf()
    s = game.state
    legal = [Action("civil-affairs", ("I-1",)), Action("pass")]
    s.gov_psl, s.fln_psl = 31, 40
    assert gov._drift is None and gov._civil_affordable(s, legal)     # no turn seen yet
    gov._drift, gov._fln_trend = HOLD_DRIFT, -3
    assert not gov._civil_affordable(s, legal)                          # holding
    s.gov_psl = 32
    assert gov._civil_affordable(s, legal)                              # 32 -> 31 is safe
    s.gov_psl = 31
    gov._drift = HOLD_DRIFT - 1
    assert gov._civil_affordable(s, legal)                              # worn down: race
    gov._drift, gov._fln_trend = HOLD_DRIFT, 0
    assert gov._civil_affordable(s, legal)                              # FLN not falling
    gov._fln_trend = -3
    s.fln_psl = 1
    assert gov._civil_affordable(s, legal)                              # the last blow


def test_drift_is_the_psl_change_apart_from_spending_6_3():
    """B.1 / B.3: the Government counts what it pays (Police 1, activations 0.5 or 1,
    Civil Affairs 1) and, at its next Reinforcement Phase, reads how its PSL moved
    over the turn apart from that: here the control bonus and events of turn 1."""
    game, gov = _first_gov_reinf()
    fln = make_agent("pass", "algeria", "fln", 1)
    s = game.state
    start, fln_start = s.gov_psl, s.fln_psl
    while s.turn == 1:
        game.apply((fln if game.active_side == "fln" else gov).choose(game))
    while game.decision() != "gov_reinf":
        game.apply((fln if game.active_side == "fln" else gov).choose(game))
    spent = gov._spent
    assert spent > 10                       # 2 Police, 2.5 of activations, Civil Affairs
    gov.choose(game)
    assert gov._drift == s.gov_psl - start + spent
    assert gov._fln_trend == s.fln_psl - fln_start


def _police_beside_bands(bands: int, urban: bool = False):
    """The 1958 Government's first Reinforcement Phase with ``bands`` Bands moved
    underground into the area of its first Police unit in a non-Urban (or Urban) area
    with no Band."""
    from djebel.algeria.board import ALGERIA, BAND, POLICE, TYPE_UNITS, UG
    from djebel.algeria.bots import view
    game, gov = _first_gov_reinf()
    s = game.state
    v = view_of(s)
    police = next(u for u in TYPE_UNITS[POLICE] if s.loc[u] in ALGERIA
                  and bool(v.urban[s.loc[u]]) == urban and not gov._bands(v, s.loc[u]))
    a = s.loc[police]
    free = [u for u in TYPE_UNITS[BAND] if s.loc[u] == -1 or s.loc[u] in COUNTRIES]
    for u in free[:bands]:
        s.loc[u], s.box[u], s.flags[u] = a, UG, 0
    view._CACHE[0] = None                   # a new View of the changed board
    return game, gov, UNIT_NAMES[police]


def test_police_withdrawn_from_a_band_stack_9_15():
    """9.15 / 6.31-4: a Police unit in a non-Urban area with more than ``harass_free``
    (3) Bands is taken off the map, for free: each Band there may Harass it before its
    Civil Affairs. With three Bands, in an Urban area, or with ``harass_free=0`` it
    stays."""
    game, gov, police = _police_beside_bands(4)
    assert gov.choose(game) == Action("remove", (police,))
    game.apply(Action("remove", (police,)))
    assert game.state.loc[UNIT_INDEX[police]] == -1
    for bands, urban, agent in ((3, False, gov), (4, True, gov),
                                (4, False, HeuristicAgent("gov", 2, harass_free=0))):
        game, gov, _ = _police_beside_bands(bands, urban)
        assert agent._police_to_withdraw(game.state, game.legal_actions()) is None
