"""The heuristic Government's long-war plan: control won with the units on the map
(10.1, 6.32-4), Civil Affairs paid for only while the PSL affords it (9.25, 12.2), and
the FLN that keeps its units abroad (9.13). Fixed seeds: exact decisions."""

from __future__ import annotations

from djebel.agents import make_agent
from djebel.algeria.board import ALGERIA, AREA_IDS, AREA_INDEX, COUNTRIES, UNIT_INDEX, UNIT_NAMES
from djebel.algeria.bots import HeuristicAgent
from djebel.algeria.bots.gov_control import control_value
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
                    "fr_xx3": ("CONSTANTINE", "V-6"), "fr_xx6": ("III-1", "V-8"),
                    "fr_xx7": ("ALGIERS", "II-3"), "el_x6": ("ALGIERS", "I-2"),
                    "fr_xx8": ("ALGIERS", "I-2"), "el_x1": ("II-3", "I-3"),
                    "fr_xx9": ("ORAN", "I-3"), "fr_xx11": ("V-4", "I-4")}
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
    # Two Police (1 PSP each) and 8.5 PSP of activations (six divisions at 1, two
    # brigades and three elites at 0.5: 17 halves, within CONTROL_BUDGET's 18),
    # rounded up (6.3-1).
    assert s.gov_psl == 39
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
    """9.25 / 12.2: at or below ``ca_floor`` Civil Affairs (1 PSP) is paid only when a
    race by Civil Affairs (1.67 FLN PSL each, times ``ca_finish``) is expected to bring
    the FLN to 0 first (no hold line here: ``ca_hold=0``)."""
    gov = HeuristicAgent("gov", 2, ca_floor=20, ca_finish=1.0, ca_hold=0)
    game, _ = _first_gov_reinf()
    s = game.state
    legal = [Action("civil-affairs", (a,)) for a in ("I-1", "I-4", "II-1", "II-3", "III-1",
                                                      "III-3")] + [Action("pass")]
    s.gov_psl, s.fln_psl = 21, 40
    assert gov._civil_affordable(s, legal)          # above the floor
    s.gov_psl = 20
    assert not gov._civil_affordable(s, legal)      # 6 x 1.67 = 10, then 10 more: < 40
    s.fln_psl = 10
    assert gov._civil_affordable(s, legal)          # 10 <= 10.02: the last blow
    s.gov_psl = 3                                   # only 2 can be paid (6.3-2)
    assert not gov._civil_affordable(s, legal)


def test_below_the_floor_a_likely_race_beats_a_hold_that_loses_12_2():
    """9.25 / 12.2 / 11.3 / INT-18: at 4 against 5 the Government may pay three Civil
    Affairs (never its last PSP); their sum reaches 5 in 62.5% of the rolls (A.3: 1, 1,
    1, 2, 2, 3). When holding loses the long war (its PSL falls a turn), it races on
    (``_last_race``, odds of LAST_RACE_ODDS or more) rather than wait for the OAS
    upkeep; it still holds when holding wins or when the race is hopeless. The
    searching bots' policy and the gauntlet's yardstick keep the old hold."""
    from djebel.algeria.bots.gauntlet import Yardstick
    from djebel.algeria.bots.gov_race import LAST_RACE_ODDS, race_chance
    from djebel.algeria.bots.styles import StylePolicy
    gov = HeuristicAgent("gov", 2)
    game, _ = _first_gov_reinf()
    s = game.state
    legal = [Action("civil-affairs", (a,)) for a in ("I-1", "I-4", "II-1")] + [Action("pass")]
    s.gov_psl, s.fln_psl = 4, 5
    gov._ops_drift = (-0.5, 0.0)                    # the Government's PSL falls a turn
    v = view_of(s)
    assert gov._holding_loses(s)
    assert not gov._race_wins(s, v, 3) and not gov._race_likely(s, v, 3)
    chance = race_chance(4.0, 5, 3, v.civil_sites(), gov._gains(s), False)
    assert abs(chance - 0.625) < 1e-9 and chance >= LAST_RACE_ODDS
    assert gov._civil_affordable(s, legal)          # the last race
    gov.last_race = False
    assert not gov._civil_affordable(s, legal)      # the old hold at the floor
    gov.last_race = True
    for old in (StylePolicy("gov", 2), Yardstick("gov", 2)):
        old._ops_drift = (-0.5, 0.0)
        assert old._holding_loses(s) and not old._civil_affordable(s, legal)
    s.fln_psl = 9                                   # three 3s only: 0.5%
    assert not gov._civil_affordable(s, legal)
    s.fln_psl = 5
    gov._ops_drift = (3.0, 0.0)                     # holding wins the long war
    assert not gov._holding_loses(s) and not gov._civil_affordable(s, legal)



def test_against_an_fln_that_lies_still_the_hold_line_is_36_11_4_c_2():
    """11.3 / 11.4 / C.2: against an FLN whose missions cost nothing last turn, whose AP
    grew since then and that has never been seen out of UG, the Government keeps its
    PSL from QUIET_HOLD (36) down to the hold line (31) as a margin against the random
    events: it pays Civil Affairs there only for the last blow, a race by the odds
    (80%) or when holding loses. Any sign of an FLN that acts gives back the line of 31.
    The searching bots and the gauntlet's yardstick keep the line of 31."""
    from djebel.algeria.bots.gauntlet import Yardstick
    from djebel.algeria.bots.gov_race import QUIET_HOLD
    from djebel.algeria.bots.styles import StylePolicy
    game, _ = _first_gov_reinf()
    s = game.state
    legal = [Action("civil-affairs", (a,)) for a in ("I-1", "I-4", "II-1", "II-3", "III-1",
                                                      "III-3")] + [Action("pass")]
    s.turn, s.gov_psl, s.fln_psl = 2, 34, 40

    def agent(cls=HeuristicAgent, ap_before=s.ap - 2, drift=(2.0, 0.0), out=None):
        gov = cls("gov", 2)
        gov._ops_drift, gov._ap_seen = drift, {1: ap_before}
        if out:
            gov._out_seen = out
        return gov

    gov = agent()
    assert gov._quiet(s) and not gov._holding_loses(s)
    assert not gov._race_likely(s, view_of(s), 6)
    assert not gov._civil_affordable(s, legal)                  # 34: kept
    s.fln_psl = 25                                              # a race at 99%
    assert gov._race_likely(s, view_of(s), 6) and gov._civil_affordable(s, legal)
    s.fln_psl = 40
    s.gov_psl = QUIET_HOLD
    assert gov._civil_affordable(s, legal)                      # 36: paid
    s.gov_psl = 34
    assert agent(ap_before=s.ap)._civil_affordable(s, legal)    # its AP did not grow
    assert agent(drift=(-1.0, 0.0))._civil_affordable(s, legal)     # its missions cost
    assert agent(out={AREA_INDEX["I-1"]: 1})._civil_affordable(s, legal)   # seen out
    s.fln_psl = 3
    assert gov._civil_affordable(s, legal)                      # the last blow
    s.fln_psl = 40
    for cls in (StylePolicy, Yardstick):
        assert agent(cls)._civil_affordable(s, legal)

def test_plain_fln_keeps_its_units_abroad_9_13():
    """9.13 / 10.4-5: the plain FLN makes no border-crossing Move (a '+' on the way
    eliminates the unit, and each unit abroad adds to the FLN's PSL income)."""
    game = new_game("1960", 4, log=False)
    agents = {"fln": HeuristicAgent("fln", 1), "gov": HeuristicAgent("gov", 2, hunt=0)}
    moves = 0
    while not game.is_over():
        action = agents[game.active_side].choose(game)
        if game.decision() == "ops_fln" and action.verb == "move":
            moves += 1
            assert game.state.loc[UNIT_INDEX[action.args[0]]] not in COUNTRIES, action
        game.apply(action)
    assert moves > 0


def test_civil_affairs_holds_at_31_unless_the_race_wins_or_holding_loses_11_4():
    """11.4 / 11.3 / 10.4: a Civil Affairs at a PSL of 31 would bring the Government to
    30, where the coup check (end of turn) and the OAS (for good, from the next
    Reinforcement Phase) begin. It pays it when racing on is expected to bring the
    FLN's PSL to 0 first (_race_wins), or when holding does not win the long war
    (_holding_loses: its PSL would fall, or the FLN's would not fall by HOLD_MARGIN a
    turn); otherwise it holds. 1958, turn 1: no area is controlled yet (3-6), so the
    control bonus is the one the control points would give (10.4-6)."""
    from djebel.algeria.bots.gov_race import CA_MEAN, HOLD_MARGIN
    gov = HeuristicAgent("gov", 2)
    game, _ = _first_gov_reinf()
    s = game.state
    v = view_of(s)
    legal = [Action("civil-affairs", ("I-1",)), Action("pass")]
    s.gov_psl, s.fln_psl = 31, 40
    diff = sum(control_value(v.fln_cp[a], v.gov_cp[a]) for a in range(25))
    # The FLN would control 1 area more: its bonus 0 (10.4-6), and 2 from Morocco and
    # Tunisia (10.4-5); turn 1 measured no Operations Phase, so nothing from missions.
    assert diff == -1 and gov._ops_drift is None and gov._gains(s) == (0, 2.0)
    assert gov._holding_loses(s) and gov._civil_affordable(s, legal)    # no income
    gov._ops_drift = (3.0, 0.0)             # 3 a turn from eliminations (9-5)
    assert gov._gains(s) == (3.0, 2.0) and not gov._holding_loses(s)
    assert not gov._race_wins(s, v, 1)
    assert not gov._civil_affordable(s, legal)                      # holding
    s.gov_psl = 32
    assert gov._civil_affordable(s, legal)                          # 32 -> 31 is safe
    s.gov_psl, s.fln_psl = 31, 12
    assert gov._race_wins(s, v, 1) and gov._civil_affordable(s, legal)  # ten Police
    s.fln_psl = 40
    gov._ops_drift = (-0.5, 0.0)                                    # PSL falling
    assert gov._gains(s)[0] < 0 and gov._holding_loses(s)
    assert gov._civil_affordable(s, legal)                          # worn down: race
    gov._ops_drift = (3.0, CA_MEAN * 3 - 2.0 - HOLD_MARGIN + 0.1)  # FLN not falling
    assert gov._holding_loses(s) and gov._civil_affordable(s, legal)
    s.fln_psl = 1
    assert gov._civil_affordable(s, legal)                          # the last blow


def test_the_race_expects_full_civil_affairs_against_a_spent_fln_9_25_a_2():
    """9.25 / A.2: every FLN mission costs AP, so an FLN with no AP left in the
    Operations Phase, whose missions cost the Government nothing last turn, cannot
    answer this turn's Civil Affairs: the race then counts each at its full mean
    (CA_MEAN) rather than ``ca_finish`` (0.8) of it. 1958, seed 7: at 31 against 30,
    seven sites this turn and eight a turn after, the race wins only against the spent
    FLN; at 36 against neither; the gauntlet's yardstick and the searching bots' policy
    keep the old race."""
    from djebel.algeria.bots.gauntlet import Yardstick
    from djebel.algeria.bots.styles import StylePolicy
    game, gov = _first_gov_reinf()
    s = game.state
    v = view_of(s)
    s.phase, s.gov_psl, s.fln_psl = "operations", 31, 30
    gov._ops_drift = (3.0, 0.0)
    assert v.civil_sites() == 8
    s.ap = 1
    assert not gov._fln_spent(s) and not gov._race_wins(s, v, 7)      # it could answer
    s.ap = 0
    assert gov._fln_spent(s) and gov._race_wins(s, v, 7)              # spent: race
    s.fln_psl = 36
    assert not gov._race_wins(s, v, 7)                                # too far to race
    s.fln_psl = 30
    gov._ops_drift = (-1.0, 0.0)                # its missions cost 1 a turn: not spent
    assert not gov._fln_spent(s) and not gov._race_wins(s, v, 7)
    gov._ops_drift = None                       # no turn seen yet
    assert not gov._fln_spent(s)
    for other in (StylePolicy("gov", 2), Yardstick("gov", 2)):
        other._ops_drift = (3.0, 0.0)
        assert not other._fln_spent(s) and not other._race_wins(s, v, 7)
    s.phase = "reinforcement"
    gov._ops_drift = (3.0, 0.0)
    assert not gov._fln_spent(s)


def test_race_chance_reads_each_civil_affairs_die_9_25_a_3():
    """9.25 / A.3: a Civil Affairs takes 1, 1, 1, 2, 2 or 3 FLN PSL (the Mission Success
    Table with no DRM), so the race's odds are exact sums over those faces; the
    Government never pays its last PSP (INT-18) and a race it loses first wins nothing."""
    from djebel.algeria.bots.gov_race import ca_faces, ca_sum, race_chance
    assert ca_faces() == ((1, 0.5), (2, 1 / 3), (3, 1 / 6))
    two = dict(ca_sum(2))
    assert sorted(two) == [2, 3, 4, 5, 6] and abs(two[2] - 1 / 4) < 1e-12
    assert abs(two[6] - 1 / 36) < 1e-12 and abs(sum(two.values()) - 1) < 1e-12
    assert abs(race_chance(50.0, 1, 1, 0, (0.0, 0.0), False) - 1.0) < 1e-12
    assert abs(race_chance(50.0, 3, 1, 0, (0.0, 0.0), False) - 1 / 6) < 1e-12
    # two dice: a 3 first, or 1 then 2 or more, or 2 then anything
    assert abs(race_chance(50.0, 3, 2, 0, (0.0, 0.0), False) - 3 / 4) < 1e-12
    # INT-18: at 2 PSL only one of the five Civil Affairs is paid
    assert abs(race_chance(2.0, 3, 5, 5, (-1.0, 0.0), False) - 1 / 6) < 1e-12
    # 3 turns of one Civil Affairs at 32: the coup zone (11.3, 11.4) costs, but 29 is left
    assert abs(race_chance(32.0, 4, 1, 1, (0.0, 0.0), False) - 7 / 8) < 1e-12
    # the Government's PSL falls below 1 after the first turn: one die only
    assert race_chance(3.0, 4, 1, 1, (-1.0, 0.0), False) == 0.0


def test_the_race_is_run_on_at_good_odds_9_25():
    """9.25: at 31 against 30 (1958, seed 7; seven sites this turn, eight a turn after)
    the mean race with ``ca_finish`` does not win in time, but the dice bring the FLN's
    PSL to 0 first in 91.5% of races: the heuristic races on (``race_odds`` 0.8); at 32
    against 31 (78%) it holds. The gauntlet's yardstick and the searching bots' policy
    keep the mean race alone."""
    from djebel.algeria.bots.gauntlet import Yardstick
    from djebel.algeria.bots.styles import StylePolicy
    game, gov = _first_gov_reinf()
    s = game.state
    v = view_of(s)
    s.phase, s.gov_psl, s.fln_psl, s.ap = "operations", 31, 30, 1
    gov._ops_drift = (3.0, 0.0)
    assert not gov._race_wins(s, v, 7) and gov._race_likely(s, v, 7)
    legal = [Action("civil-affairs", (AREA_IDS[a],)) for a in ALGERIA
             if v.police[a] and not v.remote[a]][:7]
    assert len(legal) == 7 and gov._civil_affordable(s, legal)
    s.fln_psl = 32
    assert not gov._race_likely(s, v, 7)
    s.fln_psl = 30
    for other in (StylePolicy("gov", 2), Yardstick("gov", 2)):
        other._ops_drift = (3.0, 0.0)
        assert not other._race_likely(s, v, 7) and not other._civil_affordable(s, legal)


def test_operations_drift_counts_civil_affairs_at_their_result_9_25():
    """9.25 / 8-2: the Government reads the PSLs at its mission decisions apart from its
    spending and blows. A Civil Affairs counts at CA_MEAN until its result is seen: when
    the FLN did nothing before the next decision (its AP and unit boxes unchanged), the
    FLN PSL's fall is that result. Against an FLN that passes, the drift of the
    Operations Phase is then exactly 0 for both sides (1958, seed 7)."""
    from djebel.algeria.bots.gov_race import CA_MEAN
    game, gov = _first_gov_reinf()
    fln = make_agent("pass", "algeria", "fln", 1)
    s = game.state
    start = s.fln_psl
    civil = 0
    while s.turn == 1:
        side = game.active_side
        act = (fln if side == "fln" else gov).choose(game)
        civil += act.verb == "civil-affairs"
        game.apply(act)
    assert civil == 7
    taken = start - s.fln_psl + 1           # the Final PSL Adjustment gave the FLN 1 (10.4-5)
    assert abs(gov._blows - taken) < 1e-9 and gov._blows != civil * CA_MEAN
    while game.decision() != "ops_gov":
        game.apply((fln if game.active_side == "fln" else gov).choose(game))
    gov.choose(game)
    assert gov._ops_drift == (0.0, 0.0)


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


def test_intelligence_is_worth_the_flush_it_opens_9_24():
    """9.24 / 9.22: Intelligence finds each FLN unit in UG on a roll at or under the
    Police's contact (2 each, 9.24-2) with the Flush DRMs (9.24-3), +1 when the unit's
    evasion is higher: in Rural II-3 one Police unit finds the Band (evasion 3) and the
    Cadre (4) on a 1 each; the mission is worth the Flush the found units open to el_x1
    (the unit that could Flush there), less that Flush without them. A
    second Police unit (contact 4) finds both on a 4 or less, and no unit able to
    Flush there makes it worth nothing."""
    from djebel.algeria.board import NEUT, POLICE, PTL, TYPE_UNITS
    from djebel.algeria.bots import view
    from djebel.algeria.rules.common import contact, firepower
    game, gov = _first_gov_reinf()
    s = game.state
    a = AREA_INDEX["II-3"]
    v = view_of(s)
    band, cadre = UNIT_INDEX["band9"], UNIT_INDEX["cadre4"]
    assert v.police[a] == 1 and v.fln_ug[a] == [band, cadre]
    assert gov._flush_group(s, v, a) == [UNIT_INDEX["el_x1"]]
    el = UNIT_INDEX["el_x1"]
    c, fp = contact(s, el), firepower(s, el)

    def worth(p):
        return (gov._flush_estimate(s, v, a, c, fp, {band: p, cadre: p})
                - gov._flush_estimate(s, v, a, c, fp))

    one = gov._intelligence_value(s, v, a)
    assert one == worth(1 / 6) and one > 0
    spare = next(u for u in TYPE_UNITS[POLICE] if s.loc[u] < 0)
    s.loc[spare], s.box[spare], s.flags[spare] = a, PTL, 0      # 6.31-3
    view._CACHE[:] = [None, None]
    v = view_of(s)
    assert v.police[a] == 2
    two = gov._intelligence_value(s, v, a)
    assert two == worth(4 / 6) and two > one
    s.flags[el] |= NEUT                                          # 2.3-3
    view._CACHE[:] = [None, None]
    assert gov._intelligence_value(s, view_of(s), a) == 0.0
