"""The heuristic's hunt by helicopter, the FLN's share rule and its care in bringing
units up from underground (docs/gauntlet.md, "What changed in the hunting round")."""

from __future__ import annotations

import pytest

from djebel.agents import make_agent
from djebel.algeria.board import (
    ACTIVE,
    ALGERIA,
    AREA_IDS,
    BAND,
    CADRE,
    EL_X,
    NEUT,
    OPS,
    POLICE,
    PTL,
    TYPE_UNITS,
    UG,
    UNIT_INDEX,
    UNIT_NAMES,
    UTYPE,
)
from djebel.algeria.bots import HeuristicAgent, view
from djebel.algeria.bots.fln_policy import HUNT_RISK
from djebel.algeria.bots.gauntlet import GAUNTLET, Yardstick, simple_share
from djebel.algeria.bots.gov_control import control_site
from djebel.algeria.bots.heuristic_base import GOV_RESERVE
from djebel.algeria.bots.view import FLN_VALUE, view_of
from djebel.algeria.game import new_game
from djebel.core.actions import Action

ELITES = TYPE_UNITS[EL_X]


def _to(decision, scenario, seed, gov=None, fln=None):
    game = new_game(scenario, seed, log=False)
    agents = {"fln": fln or HeuristicAgent("fln", 1), "gov": gov or HeuristicAgent("gov", 2)}
    while game.decision() != decision:
        game.apply(agents[game.active_side].choose(game))
    return game


# ------------------------------------------------------------------ the hunt (11.12)

def test_hunt_needs_two_elites_on_the_map_and_two_helo_points_11_12():
    """The Government hunts with ``hunt`` elites only while that many are on the map
    (11.12-4) and as many Helo points exist to fly them (11.12-1); never with
    ``spend=0`` (Police only)."""
    s = _to("gov_reinf", "1958", 3).state
    gov = HeuristicAgent("gov", 2)
    assert gov.hunt == 2 and s.helo_max >= 2
    assert sum(1 for u in ELITES if s.loc[u] in ALGERIA) >= 2
    assert gov._hunting(s) == 2
    assert HeuristicAgent("gov", 2, spend=0.0)._hunting(s) == 0
    assert HeuristicAgent("gov", 2, hunt=0)._hunting(s) == 0
    helo = s.helo_max
    s.helo_max = 1
    assert gov._hunting(s) == 0
    s.helo_max = helo
    on_map = [u for u in ELITES if s.loc[u] in ALGERIA]
    for u in on_map[1:]:
        s.loc[u] = -1
    assert gov._hunting(s) == 0
    s1954 = _to("gov_reinf", "1954", 3).state      # one elite, no Helo point
    assert gov._hunting(s1954) == 0


def test_gauntlet_strategies_never_hunt_nor_fear_the_hunt():
    for side, strategies in GAUNTLET.items():
        for cls in strategies.values():
            agent = cls(side, 1)
            assert agent.hunt == 0 and agent.wary is False


# ------------------------------------------------------------------ shares (9-4)

def _share_state(fln_psl, gov_psl, side="fln", n=3):
    game = _to("gov_reinf", "1958", 3)
    s = game.state
    s.fln_psl, s.gov_psl = fln_psl, gov_psl
    s.stack.append(("share", side, n, None, None))
    legal = [Action("psp", (k,)) for k in range(n, -1, -1)]
    return s, legal


@pytest.mark.parametrize(("fln_psl", "gov_psl", "raised"), [
    (40, 41, 3),      # the Government above: the FLN raises its own PSL
    (40, 40, 0),      # not above: the FLN lowers the Government's
    (40, 25, 0),
    (10, 12, 0),      # FLN_FINISH: a Government at 12 or less is pushed
    (60, 3, 0),       # the points reach the Government's PSL: it wins now
])
def test_fln_pushes_the_side_nearer_0_9_4(fln_psl, gov_psl, raised):
    """9-4: the FLN raises its own PSL while the Government's is above it and lowers
    the Government's once it is not (or is at FLN_FINISH or less, or the points win)."""
    s, legal = _share_state(fln_psl, gov_psl)
    assert HeuristicAgent("fln", 1)._share(s, legal).args == (raised,)


def test_gauntlet_strategies_share_by_the_simple_rule_9_4():
    """The strategies keep the rule they were measured with: their own PSL first."""
    s, legal = _share_state(40, 25)
    agent = GAUNTLET["fln"]["propaganda"]("fln", 1)
    assert agent._share(s, legal).args == (3,)
    assert simple_share(agent, s, legal).args == (3,)
    s, legal = _share_state(40, 12)
    assert agent._share(s, legal).args == (0,)            # FLN_FINISH
    s, legal = _share_state(30, 40, side="gov")
    assert GAUNTLET["gov"]["civil-affairs"]("gov", 1)._share(s, legal).args == (3,)


# ------------------------------------------------------------------ surfacing (7-4)

def _fln_deploy(seed, gov_hunts):
    """The 1958 FLN's first Deployment decision, reached by an FLN without the city
    Strike plan (``strike_plan``), whose Cadres are spread out to propagandize."""
    gov = HeuristicAgent("gov", 2, hunt=2 if gov_hunts else 0)
    fln = HeuristicAgent("fln", 1)
    fln.strike_plan = False
    return _to("fln_deploy", "1958", seed, gov=gov, fln=fln)


def test_hunted_reads_active_elites_and_helo_points_11_12():
    """_hunted: two active, non-neutralized elites in OPS or PTL and two Helo points to
    fly them; one elite short, or one Helo point short, is no hunting group."""
    s = _fln_deploy(3, gov_hunts=True).state
    fln = HeuristicAgent("fln", 1)
    ready = [u for u in ELITES if s.loc[u] in ALGERIA and s.box[u] in (OPS, PTL)
             and s.flags[u] & (ACTIVE | NEUT) == ACTIVE]
    assert len(ready) >= 2 and s.helo_avail >= 2 and fln._hunted(s)
    helo = s.helo_avail
    s.helo_avail = 1
    assert not fln._hunted(s)
    s.helo_avail = helo
    for u in ready[1:]:
        s.flags[u] |= NEUT
    assert not fln._hunted(s)


def test_fln_brings_up_only_what_pays_for_its_time_in_the_open_7_4():
    """7-4 / 9.22-1: with a hunting group in the air the wary FLN brings up fewer units
    (each must pay HUNT_RISK of its worth), the FLN without that fear (``wary=False``)
    as many as when no group flies; every unit brought up is one the plan names."""
    game = _fln_deploy(3, gov_hunts=True)
    s = game.state
    v = view_of(s)
    up = [UNIT_INDEX[a.args[0]] for a in game.legal_actions()
          if a.verb == "surface" and a.args[0] != "all"]
    wary, bold = HeuristicAgent("fln", 1), HeuristicAgent("fln", 1, wary=False)
    assert wary._hunted(s)
    plan_wary, plan_bold = wary._surface_plan(s, v, up), bold._surface_plan(s, v, up)
    assert set(plan_wary) <= set(up) and set(plan_bold) <= set(up)
    assert len(plan_wary) < len(plan_bold)
    # A Cadre brought up by the wary FLN has a Propaganda worth more than its risk.
    for u in plan_wary:
        if UTYPE[u] == CADRE and s.box[u] == UG:
            a = s.loc[u]
            worth = wary._propaganda_value(s, v, a, CADRE) + wary.propaganda
            assert worth > HUNT_RISK * FLN_VALUE[CADRE]


def test_a_raid_that_does_not_pay_brings_no_band_up_9_14():
    """9.14 / 9.21-2: Bands come up to Raid only when the Raid's worth (N AP at 0.6 PSP,
    a Band lost on '+', a React) is positive: three Bands in an area where nothing
    patrols come up; with three Government units on Patrol there (-3) they stay down."""
    from djebel.algeria.board import GOV_MOBILE_TYPES
    game = _fln_deploy(3, gov_hunts=False)
    s = game.state
    agent = HeuristicAgent("fln", 1, wary=False)
    v = view_of(s)
    site = min((a for a in ALGERIA if not v.remote[a] and not v.urban[a]),
               key=lambda a: (len(v.gov[a]), a))
    assert v.patrol[site] == 0
    bands = [u for u in range(len(UTYPE)) if UTYPE[u] == BAND and s.loc[u] < 0][:3]
    for u in bands:
        s.loc[u], s.box[u], s.flags[u] = site, UG, 0
    try:
        view._CACHE[:] = [None, None]
        v = view_of(s)
        assert agent._raid_value(s, v, site, 3) > 0
        assert set(bands) <= set(agent._surface_plan(s, v, bands))
        patrols = [u for u in range(len(UTYPE)) if UTYPE[u] in GOV_MOBILE_TYPES
                   and s.loc[u] < 0][:3]
        for u in patrols:
            s.loc[u], s.box[u], s.flags[u] = site, PTL, ACTIVE
        view._CACHE[:] = [None, None]
        v = view_of(s)
        assert v.patrol[site] == 3
        assert agent._raid_value(s, v, site, 3) < 0
        assert not set(bands) & set(agent._surface_plan(s, v, bands))
    finally:
        view._CACHE[:] = [None, None]


def test_make_agent_takes_the_wary_style():
    agent = make_agent("heuristic", "algeria", "fln", 1, wary=False)
    assert agent.wary is False and HeuristicAgent("fln", 1).wary is True


# ------------------------------------------------------------------ Civil Affairs first

def test_civil_sites_count_areas_not_police_9_25_9_2():
    """One Civil Affairs per area per turn (9-2): a second Police unit in an area opens
    no second one, and none runs in a Remote area (9.25)."""
    s = _to("gov_reinf", "1954", 3).state
    v = view_of(s)
    areas = [a for a in ALGERIA if v.police[a] and not v.remote[a]]
    assert v.civil_sites() == len(areas) > 0
    police = [u for u in TYPE_UNITS[POLICE] if s.loc[u] in ALGERIA]
    spare = next(u for u in TYPE_UNITS[POLICE] if s.loc[u] not in ALGERIA)
    s.loc[spare], s.box[spare], s.flags[spare] = s.loc[police[0]], PTL, ACTIVE
    v = view.View(s)
    assert v.police[s.loc[police[0]]] == 2
    assert v.civil_sites() == len(areas)


def test_control_brigade_waits_for_this_turns_civil_affairs_10_1_9_25():
    """A brigade bought for control (2 PSP, 10.1) only from the PSL left above the
    reserve once this turn's Civil Affairs (one PSP in each Police area) are paid.
    (With the control plan on, ``control_move``, it is bought only against a
    Propaganda FLN; off here, so the rule is seen alone.)"""
    s = _to("gov_reinf", "1954", 3).state
    gov = HeuristicAgent("gov", 2, control_move=0.0)
    v = view_of(s)
    assert control_site(v, 1) is not None
    mob = {"al_x": Action("mobilize", ("al_x",))}
    s.fln_psl = 10
    s.gov_psl = GOV_RESERVE + 2 + v.civil_sites() + 1
    assert gov._control_brigade(s, v, mob) == mob["al_x"]
    s.gov_psl -= 1
    assert gov._control_brigade(s, v, mob) is None
    s.gov_psl, s.fln_psl = 60, 61          # never while it trails the FLN
    assert gov._control_brigade(s, v, mob) is None


# ------------------------------------------------------------------ FLN setup (3-4)

def test_fln_setup_keeps_cadres_out_of_remote_areas_9_11():
    """A Cadre placed at the start (3-4) goes where it can run Propaganda (not in a
    Remote area, 9.11-1): it scores SETUP[2] below the same area not Remote, and with
    the heuristic's weights no Cadre of the 1960 setup starts in a Remote area; the
    gauntlet's strategies keep the setup they were first measured with."""
    from djebel.algeria.bots.gauntlet import OLD_SETUP

    game = _to("fln_reinf", "1960", 5)
    s, v = game.state, view_of(game.state)
    cadres = [s.loc[u] for u in TYPE_UNITS[CADRE] if s.loc[u] in ALGERIA]
    assert cadres and not any(v.remote[a] for a in cadres)
    fln = HeuristicAgent("fln", 1)
    w = view.View(s)                    # a View of its own, changed below
    remote = next(a for a in ALGERIA if w.remote[a])
    base = fln._fln_setup_score(w, CADRE, remote)
    w.remote = [r and a != remote for a, r in enumerate(w.remote)]     # not the shared list
    assert fln._fln_setup_score(w, CADRE, remote) - base == fln.SETUP[2] == 6.0
    assert all(cls.SETUP == OLD_SETUP for cls in GAUNTLET["fln"].values())
    old = _to("fln_reinf", "1960", 5, fln=GAUNTLET["fln"]["pass"]("fln", 1))
    old_cadres = [old.state.loc[u] for u in TYPE_UNITS[CADRE] if old.state.loc[u] in ALGERIA]
    assert any(view_of(old.state).remote[a] for a in old_cadres)


def test_no_hunt_against_an_fln_that_stays_underground_11_12():
    """The hunting group (11.12) is kept only while the FLN has had units out of UG in
    Algeria this turn or the last (HUNT_MEMORY): against an FLN that never surfaces its
    activations (B.1) buy nothing. A new agent takes the FLN to surface."""
    from djebel.algeria.bots.gov_hunt import HUNT_MEMORY

    s = _to("gov_reinf", "1958", 3).state
    gov = HeuristicAgent("gov", 2)
    assert gov._hunting(s) == 2 and gov._out_turn == s.turn
    s.turn += HUNT_MEMORY
    assert gov._hunting(s) == 2
    s.turn += 1
    assert gov._hunting(s) == 0
    gov._out_turn = s.turn - 1                 # seen out last turn
    assert gov._hunting(s) == 2


def test_government_notes_the_fln_out_of_ug_in_its_operations_2_2():
    """The Government's Operations Phase notes the turn it sees FLN units out of UG."""
    game = _to("ops_gov", "1958", 3)
    s = game.state
    v = view_of(s)
    gov = HeuristicAgent("gov", 2)
    gov._out_turn = -5
    assert sum(len(v.fln[a]) - len(v.fln_ug[a]) for a in ALGERIA) == 5     # seed 3, turn 1
    gov.choose(game)
    assert gov._out_turn == s.turn == 1


def test_a_unit_neutralized_underground_has_not_surfaced_2_3():
    """A unit neutralized in UG (2.3-3) has not come out: the Government does not note
    the FLN out of UG (``_note_out``), so the hunt (11.12) is not kept going for it; a
    unit neutralized in OC is out. The searching bots keep the count of before
    (``neutral_out``), where any neutralized unit counted as out."""
    from djebel.algeria.board import FLN_SLICE, NUM_UNITS, OC
    from djebel.algeria.bots.styles import StylePolicy

    s = _to("ops_gov", "1958", 3).state
    fln = [u for u in range(NUM_UNITS)[FLN_SLICE] if s.loc[u] in ALGERIA]
    for u in fln:
        s.box[u], s.flags[u] = UG, 0
    hit = fln[0]
    s.flags[hit] = NEUT
    v = view.View(s)
    assert v.fln_out(s.loc[hit]) == 0 and sum(v.fln_out(a) for a in ALGERIA) == 0
    gov, old = HeuristicAgent("gov", 2), StylePolicy("gov", 2)
    gov._out_turn = old._out_turn = -5
    gov._note_out(s, v)
    old._note_out(s, v)
    assert gov._out_turn == -5 and not any(gov._out_seen.values())
    assert old._out_turn == s.turn and old._out_seen == {s.loc[hit]: 1}
    s.box[hit] = OC                                     # neutralized out in OC
    v = view.View(s)
    assert v.fln_out(s.loc[hit]) == 1
    gov._note_out(s, v)
    assert gov._out_turn == s.turn and gov._out_seen == {s.loc[hit]: 1}


# ------------------------------------------------------------ the unopposed Strike (9.12)

def _strike_site():
    """A 1960 FLN Deployment Phase against the ``civil-affairs`` Government, with one
    Front underground in Constantine (Urban) and one Police unit on Patrol there."""
    from djebel.algeria.board import AREA_INDEX, FRONT
    game = _to("fln_deploy", "1960", 1, gov=GAUNTLET["gov"]["civil-affairs"]("gov", 2))
    s = game.state
    site = AREA_INDEX["CONSTANTINE"]
    front = next(u for u in TYPE_UNITS[FRONT] if s.loc[u] < 0)
    police = next(u for u in TYPE_UNITS[POLICE] if s.loc[u] != site)
    s.loc[front], s.box[front], s.flags[front] = site, UG, 0
    s.loc[police], s.box[police], s.flags[police] = site, PTL, 0
    view._CACHE[:] = [None, None]
    return game, site, front


def test_a_strike_no_unit_can_react_to_is_worth_its_1d6_9_12_7():
    """9.12-7: a Government that cannot React to a Strike loses 1d6 PSL. With the Police
    alone in Constantine (-1, 9.12-3) the Front comes up to Strike only because no unit
    could React there (``_unopposed``), and the Strike scores NO_REACT more; the FLN
    without that valuation (``strike_free`` off, as the gauntlet's Yardstick) leaves it
    underground, and so does the FLN once a Government brigade is ready to React."""
    from djebel.algeria.board import GOV_MOBILE_TYPES
    from djebel.algeria.bots.fln_policy import NO_REACT
    game, site, front = _strike_site()
    s = game.state
    try:
        v = view_of(s)
        assert v.patrol[site] == 1 and v.gov_fp[site] > 0 and s.ap >= 3
        fln, old = HeuristicAgent("fln", 1), HeuristicAgent("fln", 1)
        old.strike_free = False
        assert fln._unopposed(s, v, site) and not old._unopposed(s, v, site)
        assert front in fln._surface_plan(s, v, [front])
        assert front not in old._surface_plan(s, v, [front])
        s.box[front] = OPS
        view._CACHE[:] = [None, None]
        v = view_of(s)
        gain = (fln._fln_mission_score(s, v, "strike", front, site, UTYPE[front])
                - old._fln_mission_score(s, v, "strike", front, site, UTYPE[front]))
        assert gain == NO_REACT
        s.box[front] = UG
        brigade = next(u for u in range(len(UTYPE)) if UTYPE[u] in GOV_MOBILE_TYPES
                       and s.loc[u] < 0 and UTYPE[u] != EL_X)
        s.loc[brigade], s.box[brigade], s.flags[brigade] = site, OPS, ACTIVE
        view._CACHE[:] = [None, None]
        v = view_of(s)
        assert not fln._unopposed(s, v, site)
        assert front not in fln._surface_plan(s, v, [front])
    finally:
        view._CACHE[:] = [None, None]


# ------------------------------------------------------ the city Strike plan (9.12)

def _city_cadres(s, area, n):
    """Put ``n`` Cadres from the pool underground in ``area``."""
    from djebel.algeria.board import AREA_INDEX
    pool = [u for u in TYPE_UNITS[CADRE] if s.loc[u] < 0][:n]
    assert len(pool) == n
    for u in pool:
        s.loc[u], s.box[u], s.flags[u] = AREA_INDEX[area], UG, 0
    view._CACHE[:] = [None, None]
    return pool


def test_the_fln_masses_cadres_where_a_front_can_strike_9_12():
    """9.12-1 / 9.12-3: a Strike rolls on the MST at +1 a helping Cadre, -1 a unit on
    Patrol and for Terror; at +7 every roll reads 5@ (A.3). The FLN builds Cadres (3 AP,
    6.2) in the city where a Front stands with the most Cadres below STRIKE_TOP +
    STRIKE_SPARE + its Patrol, converts a Cadre into a Front (6.2-2) in a city that has
    none first, and keeps a Strike's 3 AP. The gauntlet's Yardstick and the searching
    bots' StylePolicy do not (``strike_plan``)."""
    from djebel.algeria.bots.fln_policy import STRIKE_SPARE, STRIKE_TOP
    from djebel.algeria.bots.styles import StylePolicy
    game = _to("fln_reinf", "1954", 3)
    s = game.state
    fln = HeuristicAgent("fln", 1)
    try:
        v = view_of(s)
        names = {a: AREA_IDS[a] for a in ALGERIA if v.urban[a]}
        assert sorted(n for a, n in names.items() if v.fronts[a] is not None) == \
            ["CONSTANTINE", "ORAN"]
        assert str(fln._strike_build(s, v, game.legal_actions())) == "build cadre CONSTANTINE"
        _city_cadres(s, "ORAN", 3)
        v = view_of(s)
        assert str(fln._strike_build(s, v, game.legal_actions())) == "build cadre ORAN"
        assert str(fln._fln_reinf(s, game.legal_actions())) == "build cadre ORAN"
        plain = HeuristicAgent("fln", 1)
        plain.strike_plan = False           # spreads its Cadres: the city without one
        assert str(plain._fln_reinf(s, game.legal_actions())) == "build cadre CONSTANTINE"
        oran = next(a for a, n in names.items() if n == "ORAN")
        need = STRIKE_TOP + STRIKE_SPARE + v.patrol[oran]
        assert need == 10
        _city_cadres(s, "ORAN", need - 3)
        v = view_of(s)
        assert str(fln._strike_build(s, v, game.legal_actions())) == "build cadre CONSTANTINE"
        [cadre] = _city_cadres(s, "ALGIERS", 1)
        v = view_of(s)
        assert str(fln._strike_build(s, v, game.legal_actions())) == \
            f"convert {UNIT_NAMES[cadre]} front"
        s.ap = 5                                    # a Strike's 3 AP are kept
        assert fln._strike_build(s, v, game.legal_actions()) is None
        assert not StylePolicy("fln", 1).strike_plan and not Yardstick("fln", 1).strike_plan
    finally:
        view._CACHE[:] = [None, None]


def test_the_cadres_come_up_for_a_strike_once_the_front_is_up_9_12():
    """9.12-1: the helping Cadres must be in OPS with the Front. The surface plan is made
    again after each unit surfaces; with the Strike plan it still brings a city's Cadres
    up once its Front is in OPS, and not while the Front is neutralized (2.3-3)."""
    from djebel.algeria.board import AREA_INDEX
    game = _to("fln_deploy", "1954", 3)
    s = game.state
    site = AREA_INDEX["CONSTANTINE"]
    fln, old = HeuristicAgent("fln", 1), HeuristicAgent("fln", 1)
    old.strike_plan = False
    try:
        cadres = _city_cadres(s, "CONSTANTINE", 8)
        front = view_of(s).fronts[site]
        assert front is not None and s.ap >= 3
        s.box[front] = OPS
        view._CACHE[:] = [None, None]
        v = view_of(s)
        assert set(cadres) <= set(fln._surface_plan(s, v, cadres))
        assert len(set(cadres) & set(old._surface_plan(s, v, cadres))) <= 1
        s.flags[front] |= NEUT
        view._CACHE[:] = [None, None]
        v = view_of(s)
        assert len(set(cadres) & set(fln._surface_plan(s, v, cadres))) <= 1
    finally:
        view._CACHE[:] = [None, None]


# ------------------------------------------------- the Government's React record (9.23)

def _history(*texts):
    from types import SimpleNamespace

    from djebel.core.chain import Chain
    return SimpleNamespace(actions=Chain(Action.parse(t) for t in texts))


def _append(s, *texts):
    for text in texts:
        s.actions.append(Action.parse(text))


def test_the_fln_reads_the_governments_react_record_9_23():
    """The FLN counts the React chances the Government declined (``no-react``) and took
    (a unit added right after an FLN mission, 9.23); after REACT_DECLINES declines and
    no React it fears none. A unit added to a Flush or to the FLN's own Raid is no
    React; the history is read in parts as it grows, each action once."""
    from djebel.algeria.bots.fln_policy import REACT_DECLINES
    assert REACT_DECLINES == 2
    fln = HeuristicAgent("fln", 1)
    s = _history("propaganda cadre1", "no-react", "flush I-1", "add el_x1", "go",
                 "raid band1", "add band2", "go")
    fln._watch_reacts(s)
    assert (fln._declined, fln._reacted, fln._never_reacts()) == (1, False, False)
    _append(s, "propaganda cadre2", "no-react")
    fln._watch_reacts(s)
    assert (fln._declined, fln._reacted, fln._never_reacts()) == (2, False, True)
    fln._watch_reacts(s)                                # nothing new, nothing counted
    assert fln._declined == 2
    _append(s, "propaganda cadre3")
    fln._watch_reacts(s)
    _append(s, "add el_x1")                             # a React, read in the next part
    fln._watch_reacts(s)
    assert fln._reacted and not fln._never_reacts()
    fln._watch_reacts(_history("no-react", "no-react"))     # another, shorter history
    assert (fln._declined, fln._reacted) == (2, False) and fln._never_reacts()
    other = _history(*["propaganda cadre1", "add el_x1"] * 7)   # longer, not this one
    fln._watch_reacts(other)
    assert (fln._declined, fln._reacted) == (0, True)


def test_an_fln_facing_a_government_that_never_reacts_fears_no_react_9_23():
    """Against the gauntlet's ``civil-affairs``, which declines every React, the
    heuristic FLN learns within its first game that no React comes (_never_reacts), and
    the React threat of an area with a brigade ready to React is then 0. The gauntlet's
    Yardstick and the searching bots' StylePolicy keep fearing it (``read_reacts``)."""
    from djebel.algeria.board import GOV_MOBILE_TYPES
    from djebel.algeria.bots.styles import StylePolicy

    game, site, _ = _strike_site()
    s = game.state
    brigade = next(u for u in range(len(UTYPE)) if UTYPE[u] in GOV_MOBILE_TYPES
                   and s.loc[u] < 0 and UTYPE[u] != EL_X)
    s.loc[brigade], s.box[brigade], s.flags[brigade] = site, OPS, ACTIVE
    view._CACHE[:] = [None, None]
    try:
        v = view_of(s)
        agents = [HeuristicAgent("fln", 1), StylePolicy("fln", 1), Yardstick("fln", 1)]
        assert all(a._react_threat(s, v, site) > 0 for a in agents)
        for a in agents:
            a._watch_reacts(_history("propaganda cadre1", "no-react", "propaganda cadre2",
                                     "no-react"))
        assert [a._react_threat(s, v, site) > 0 for a in agents] == [False, True, True]
    finally:
        view._CACHE[:] = [None, None]
    game = new_game("1960", 4, log=False)
    fln = HeuristicAgent("fln", 1)
    players = {"fln": fln, "gov": GAUNTLET["gov"]["civil-affairs"]("gov", 2)}
    while not game.is_over():
        game.apply(players[game.active_side].choose(game))
    assert fln._declined >= 2 and not fln._reacted and fln._never_reacts()


def test_a_city_where_a_front_could_strike_gets_a_guard_9_12_7():
    """9.12-7 / 9.12-3: where a Front could Strike in a city and no Government unit
    could React there, the Government activates its cheapest French unit there (B.1),
    once its Police are paid: in the first turn always, later only once the FLN has
    Struck; not at a PSL of CITY_FLOOR or less, nor with ``spend=0``, nor once a unit
    stands ready, nor by the gauntlet's fixed yardstick. In the first turn a city's only
    guard stays there to React if a Cadre could help the Front; once a Strike has been
    seen, the city's first ready unit patrols (one a city)."""
    from djebel.algeria.board import AREA_INDEX, FRONT
    from djebel.algeria.bots.gov_policy import CITY_FLOOR
    from djebel.algeria.state import DONE_STRIKE
    game = _to("gov_reinf", "1954", 4)
    s = game.state
    gov = HeuristicAgent("gov", 2)
    view._CACHE[:] = [None, None]
    v = view_of(s)
    assert [AREA_IDS[a] for a in gov._strike_cities(s, v)] == ["CONSTANTINE", "ORAN"]
    oran = AREA_INDEX["ORAN"]
    assert UTYPE[v.fronts[oran]] == FRONT and not gov._guards(s, v, oran)
    guard = [UNIT_NAMES[u] for u in gov._guards(s, v, AREA_INDEX["CONSTANTINE"])]
    assert guard == ["al_x1"]                   # an Algerian brigade, active for free
    legal = game.legal_actions()
    assert s.turn == 1 and not gov._strike_seen
    assert str(gov._city_to_guard(s, legal)) == "activate fr_x3"
    assert HeuristicAgent("gov", 2, spend=0.0)._city_to_guard(s, legal) is None
    assert Yardstick("gov", 2)._city_to_guard(s, legal) is None     # the gauntlet's
    psl = s.gov_psl
    s.gov_psl = CITY_FLOOR
    assert gov._city_to_guard(s, legal) is None
    s.gov_psl, s.turn = psl, 2
    assert gov._city_to_guard(s, legal) is None     # no Strike seen after the first turn
    s.done[oran] |= DONE_STRIKE
    gov._ops_gov(s, [Action("pass")])               # the FLN Struck this turn
    assert gov._strike_seen
    assert str(gov._city_to_guard(s, legal)) == "activate fr_x3"
    s.done[oran], s.turn, gov._strike_seen = 0, 1, False
    while game.decision() in ("gov_reinf", "mobilize_where"):
        game.apply(gov.choose(game))
    fr_x3 = UNIT_INDEX["fr_x3"]
    assert s.flags[fr_x3] & ACTIVE and s.loc[fr_x3] == oran
    view._CACHE[:] = [None, None]
    v = view_of(s)
    assert gov._guards(s, v, oran) == [fr_x3]
    assert gov._deploy_target(s, v, fr_x3) == "I-1"     # no Cadre to help: the control plan's
    cadre = next(u for u in TYPE_UNITS[CADRE] if s.loc[u] < 0)
    s.loc[cadre], s.box[cadre], s.flags[cadre] = oran, UG, 0
    view._CACHE[:] = [None, None]
    assert gov._deploy_target(s, view_of(s), fr_x3) == "stay"   # to React to the Strike
    s.loc[cadre] = -1
    view._CACHE[:] = [None, None]
    v = view_of(s)
    s.turn = 2
    assert gov._deploy_target(s, v, fr_x3) == "I-1"     # after the first turn, no Strike seen
    gov._strike_seen = True
    assert gov._deploy_target(s, v, fr_x3) == "PTL"     # once the FLN has Struck
    s.turn = 1
    s.box[fr_x3] = PTL                              # a guard on Patrol already
    brigade = UNIT_INDEX["al_x1"]
    s.loc[brigade] = oran
    view._CACHE[:] = [None, None]
    v = view_of(s)
    assert brigade in gov._guards(s, v, oran)
    gov._strike_seen = False
    patrols_anyway = gov._deploy_target(s, v, brigade)
    gov._strike_seen = True
    assert gov._deploy_target(s, v, brigade) == patrols_anyway    # one guard a city
    view._CACHE[:] = [None, None]


def test_in_a_race_a_propagandist_lost_costs_half_its_worth_9_5():
    """9-5 / 9.11-5: in a short war (the FLN's PSL would reach 0 within SHORT_WAR turns,
    12.2) against a Government with no unit to React or hunt, a Cadre lost on '+' costs
    ``race_loss`` of its worth (the PSP the Government shares out for it), so the same
    Propaganda scores plus * worth * (1 - race_loss) more; with a React-ready unit in
    the area, or before this turn's Reinforcement Phase was seen, the whole worth."""
    from djebel.algeria.board import GOV_MOBILE_TYPES
    from djebel.algeria.bots.view import mst_odds
    fln = HeuristicAgent("fln", 1)
    game = _to("fln_deploy", "1960", 1, gov=GAUNTLET["gov"]["civil-affairs"]("gov", 2),
               fln=fln)
    s = game.state
    view._CACHE[:] = [None, None]
    v = view_of(s)
    assert fln._short == (s.turn, True)
    site = next(a for a in ALGERIA if not v.remote[a] and not v.urban[a]
                and v.patrol[a] == 1 and not fln._react_threat(s, v, a))
    whole = HeuristicAgent("fln", 1)
    whole._short, whole.race_loss = fln._short, 1.0
    assert fln._racing(s, v, site) and not whole._racing(s, v, site)
    plus = mst_odds(-1)[1]
    gain = fln._propaganda_value(s, v, site, CADRE) - whole._propaganda_value(s, v, site, CADRE)
    assert gain == pytest.approx(plus * FLN_VALUE[CADRE] * (1 - fln.race_loss))
    assert not HeuristicAgent("fln", 1)._racing(s, v, site)      # no Reinforcement seen
    brigade = next(u for u in range(len(UTYPE)) if UTYPE[u] in GOV_MOBILE_TYPES
                   and s.loc[u] < 0 and UTYPE[u] != EL_X)
    s.loc[brigade], s.box[brigade], s.flags[brigade] = site, OPS, ACTIVE
    try:
        view._CACHE[:] = [None, None]
        assert not fln._racing(s, view_of(s), site)
    finally:
        view._CACHE[:] = [None, None]
