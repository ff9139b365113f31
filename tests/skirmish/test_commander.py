"""CommanderBot (the French heuristic) and SearchCommander (either side), by rule."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from skirmish_helpers import F, I, builder

from djebel.agents import agent_names, make_agent
from djebel.core.actions import Action
from djebel.skirmish import new_game
from djebel.skirmish.bots import CommanderBot, FrenchBot, MatrixBot
from djebel.skirmish.bots.commander import (
    _dest,
    _has_troops,
    lone_leader_exposed,
    open_and_seen,
)
from djebel.skirmish.bots.search import SearchCommander, evaluate, searched
from djebel.skirmish.state import Marker

OBJ = {"id": "obj", "kind": "building", "rect": [70, 80, 15, 25]}
HOLD = [{"side": "french", "hook": "objective_held", "feature": "obj", "points": 4}]
WALL = {"id": "b1", "kind": "building", "rect": [70, 80, 0, 122]}


def _first_order(g, bot) -> Action:
    """The bot's first order once the element it activates has its free action."""
    a = bot.choose(g)
    g.apply(a)
    return bot.choose(g)


# ---------------------------------------------------------------- registration

@pytest.mark.parametrize("side", ("french", "insurgents"))
@pytest.mark.parametrize("name", agent_names("skirmish"))
def test_every_bot_by_name_in_every_seat(name, side):
    """play, simulate, tournament and the web lobby take their names from agent_names."""
    g = new_game("hotlz" if side == "french" else "ambush", 3, {"log": False})
    bot = make_agent(name, "skirmish", side, 5, iterations=2)
    assert g.active_side == side
    before = g.state_hash()
    a = bot.choose(g)
    assert g.state_hash() == before                        # choosing changes nothing
    g.validate(a)


def test_names_and_classes():
    assert agent_names("skirmish") == ["random", "matrix", "heuristic", "search"]
    assert isinstance(make_agent("heuristic", "skirmish", "french", 1), CommanderBot)
    for side in ("french", "insurgents"):
        bot = make_agent("search", "skirmish", side, 1, iterations=3, width=2, rollouts=9)
        assert isinstance(bot, SearchCommander) and bot.side == side
        assert bot.mcts.iterations == 3 and bot.width == 2


# ---------------------------------------------------------------- R23: the leader

def _leader_game(tmp: str, lx: float, ly: float, ex: float, ey: float, pinned: bool,
                 friend: bool):
    forces = [F("leader", lx, ly)]
    if friend:
        forces.append(F("french_rifle", lx, ly + 20))
    forces.append(I("ins_rifle", ex, ey, 180.0))
    g = builder(Path(tmp))(forces, terrain=[OBJ], victory=HOLD, turn_limit=4)
    foe = g.elements[-1]
    foe.pinned = pinned
    g.dirty()
    return g


def test_R23_commander_keeps_a_lone_leader_out_of_open_ground_in_enemy_sight():
    """FrenchBot sprints its leader across the open at the objective in the sight of an
    unpinned rifle; the commander does not."""
    with tempfile.TemporaryDirectory() as tmp:
        g = _leader_game(tmp, 20, 20, 60, 40, pinned=False, friend=False)
        g.apply("activate F1")
        greedy = FrenchBot(1).choose(g)
        d = _dest(greedy)
        assert d is not None and lone_leader_exposed(g, g.el("F1"), *d)
        a = CommanderBot(1).choose(g)
        d = _dest(a)
        assert d is None or not lone_leader_exposed(g, g.el("F1"), *d)


def test_R23_pinned_enemies_do_not_count_and_an_escort_lifts_the_ban():
    with tempfile.TemporaryDirectory() as tmp:
        g = _leader_game(tmp, 20, 20, 60, 40, pinned=True, friend=False)
        assert open_and_seen(g, g.el("F1"), 40, 20) == []
        g = _leader_game(tmp, 20, 20, 60, 40, pinned=False, friend=True)
        leader = g.el("F1")
        assert [o.label for o in open_and_seen(g, leader, 40, 20)] == ["I1"]
        assert not lone_leader_exposed(g, leader, 20, 35)     # beside the rifle at (20, 40)
        assert lone_leader_exposed(g, leader, 40, 20)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(lx=st.floats(5, 40), ly=st.floats(5, 115), ex=st.floats(60, 115),
       ey=st.floats(5, 115), pinned=st.booleans())
def test_R23_never_a_lone_leader_into_seen_open_ground(lx, ly, ex, ey, pinned):
    """Property: whatever the positions, no order of the commander's leader ends alone in
    open ground seen by an unpinned enemy (D33/D34 as the fire rules read them)."""
    with tempfile.TemporaryDirectory() as tmp:
        g = _leader_game(tmp, round(lx, 1), round(ly, 1), round(ex, 1), round(ey, 1),
                         pinned, friend=False)
        bot = CommanderBot(2)
        for _ in range(6):
            if g.is_over() or g.active_side != "french" or g.frames[-1]["k"] != "act":
                if g.is_over() or g.active_side != "french":
                    break
                g.apply(bot.choose(g))
                continue
            a = bot.choose(g)
            d = _dest(a)
            assert d is None or not lone_leader_exposed(g, g.el("F1"), *d), a
            g.apply(a)


# ---------------------------------------------------------------- R24: groups

def test_R24_the_commander_activates_a_group_and_its_fire_base_shoots_first():
    with tempfile.TemporaryDirectory() as tmp:
        g = builder(Path(tmp))([F("leader", 20, 20), F("french_rifle", 20, 23.5),
                                F("mmg", 24, 20), I("ins_rifle", 50, 22, 180.0)],
                               turn_limit=3)
        bot = CommanderBot(3)
        a = bot.choose(g)
        assert a.verb == "group" and a.args[0] == "F1" and set(a.args[1:]) == {"F2", "F3"}
        g.apply(a)
        first = bot.choose(g)
        assert first.verb in ("shoot", "fire") and first.args[0] in ("F2", "F3")


# ---------------------------------------------------------------- air support

@pytest.mark.parametrize("plane", ("attack_helo", "a10_style"))
def test_R129_strike_on_pinned_enemies_in_the_open(plane):
    """Pinned enemies cannot react (R29): the gunship or jet comes on for them, first of
    all the phase's activations, and fires after its move (R46 Move and Shoot)."""
    with tempfile.TemporaryDirectory() as tmp:
        g = builder(Path(tmp))([F(plane, 0, 0, off_table=True), F("french_rifle", 10, 100),
                                I("ins_rifle", 60, 40), I("ins_rifle", 70, 45),
                                I("technical_hmg", 80, 40)], turn_limit=3)
        for e in g.elements:
            if e.side == "insurgents":
                e.pinned = True
        g.dirty()
        bot = CommanderBot(4)
        a = bot.choose(g)
        assert a == Action("activate", ("F1",))
        g.apply(a)
        move = bot.choose(g)
        assert move.verb == "move" and move.args[0] == "F1"
        g.apply(move)
        assert g.el("F1").on_table and g.frames[-1]["sub"] == "fire"
        assert bot.choose(g).verb == "fire"


def test_R129_no_strike_into_a_sky_full_of_unpinned_rockets():
    """Nine unpinned RPG teams see every spot: the gunship stays off the table."""
    foes = [I("ins_rifle", 50 + 6 * (k % 3), 40 + 6 * (k // 3)) for k in range(9)]
    with tempfile.TemporaryDirectory() as tmp:
        g = builder(Path(tmp))([F("attack_helo", 0, 0, off_table=True),
                                F("french_rifle", 10, 100, 90)] + foes, turn_limit=3)
        bot = CommanderBot(4)
        assert bot._air_score(g, g.el("F1")) is None
        assert bot.choose(g) != Action("activate", ("F1",))


def test_hotlz_pumas_land_only_on_a_suppressed_lz():
    """The LZ is suppressed before the Pumas land: in whole battles against the matrix,
    a loaded Puma comes on only when no unpinned enemy that could still fire at it this
    phase threatens its LZ, or once the battle can wait no longer."""
    entries = 0
    for seed in (1, 2):
        g = new_game("hotlz", seed, {"log": False})
        fr, ins = CommanderBot(seed), MatrixBot(seed + 50, log=False)
        while not g.is_over():
            if g.active_side == "french":
                a = fr.choose(g)
                if a.verb == "activate" and g.el(a.args[0]).type == "utility_helo" and \
                        g.el(a.args[0]).off_table and _has_troops(g, g.el(a.args[0])):
                    e = g.el(a.args[0])
                    lz = fr._best_lz(g, e)
                    early = g.turn < fr._deadline(g)
                    assert not early or fr._lz_danger(g, e, *lz) < fr.LZ_SAFE
                    entries += 1
            else:
                a = ins.choose(g)
            g.apply(a)
    assert entries >= 2


def test_turn_1_hotlz_lz_is_hot_and_pinning_its_watchers_opens_it():
    g = new_game("hotlz", 1, {"log": False})
    bot = CommanderBot(1)
    puma = g.el("Puma1")
    assert not bot._lz_ready(g, puma)
    for e in g.elements:
        if e.side == "insurgents":
            e.pinned = True
    g.dirty()
    bot._cache = {}
    assert bot._lz_ready(g, puma)


def test_D73_casevac_flown_to_a_reachable_casualty():
    """An empty helicopter flies to the casualty, lands on it, picks it up, takes off and
    leaves with it (D73, D64.2): the marker counts as evacuated."""
    with tempfile.TemporaryDirectory() as tmp:
        g = builder(Path(tmp))([F("utility_helo", 0, 0, off_table=True),
                                F("french_rifle", 10, 110, 90), I("ins_rifle", 115, 60)],
                               terrain=[WALL], turn_limit=8)
        g.markers = [Marker(0, 40.0, 60.0)]
        bot = CommanderBot(6)
        assert bot._casevac_marker(g, g.el("F1")) is g.markers[0]
        seen = []
        while not g.is_over() and not g.markers[0].evacuated:
            if g.active_side == "french":
                a = bot.choose(g)
                if a.args and a.args[0] == "F1":
                    seen.append(a.verb)
                g.apply(a)
            else:
                g.apply("endphase" if g.frames[-1]["k"] == "main" else
                        ("wait" if g.frames[-1]["k"] == "ow" else "pass"))
        assert g.markers[0].evacuated
        order = [v for v in seen if v in ("move", "land", "pickup", "takeoff", "leave")]
        assert order == ["move", "land", "pickup", "takeoff", "leave"]


def test_D73_no_casevac_where_the_casualty_cannot_be_reached():
    foes = [I("ins_rifle", 40 + 6 * (k % 3), 66 + 6 * (k // 3)) for k in range(6)]
    with tempfile.TemporaryDirectory() as tmp:
        g = builder(Path(tmp))([F("utility_helo", 0, 0, off_table=True),
                                F("french_rifle", 10, 110, 90)] + foes, turn_limit=8)
        g.markers = [Marker(0, 40.0, 60.0)]
        bot = CommanderBot(6)
        assert bot._casevac_marker(g, g.el("F1")) is None
        assert bot._air_score(g, g.el("F1")) is None


# ---------------------------------------------------------------- the search

def test_search_decides_only_what_opens_an_activation():
    g = new_game("hotlz", 2, {"log": False})
    assert searched(g, "french") and not searched(g, "insurgents")
    gunship = next(e for e in g.elements if e.type == "attack_helo")
    g.apply(f"activate {gunship.label}")         # its first order is searched
    assert searched(g, "french")
    g.apply(f"end {gunship.label}")
    assert searched(g, "french")                 # back at the choice of what activates


@pytest.mark.parametrize("side", ("french", "insurgents"))
def test_search_is_deterministic_for_its_seed_and_legal(side):
    def battle():
        g = new_game("ambush", 4, {"turn_limit": 1, "log": False})
        me = SearchCommander(side, 9, iterations=3)
        other = MatrixBot(3, log=False)
        while not g.is_over():
            bot = me if g.active_side == side else other
            a = bot.choose(g)
            g.validate(a)
            g.apply(a)
        return g.history()
    assert battle() == battle()


def test_search_candidates_start_with_the_heuristic_choice():
    g = new_game("hotlz", 2, {"log": False})
    s = SearchCommander("french", 1, iterations=2, width=3)
    cands = s.candidates(g)
    assert cands[0] == CommanderBot(1).choose(g)
    assert 1 <= len(cands) <= 3 and len(set(cands)) == len(cands)
    assert all(a.verb != "endphase" for a in cands[1:])


def test_D79_evaluation_is_exact_at_the_end():
    g = new_game("ambush", 1, {"turn_limit": 1, "log": False})
    while not g.is_over():
        g.apply(g.legal_actions()[-1])
    r = g.result()
    v = evaluate(g)
    if r.winner is None:
        assert v == {"french": 0.5, "insurgents": 0.5}
    else:
        assert v[r.winner] == 1.0 and v[g.other(r.winner)] == 0.0


@pytest.mark.parametrize("scenario", ("ambush", "search", "hotlz"))
def test_commander_orders_are_legal_and_change_nothing(scenario):
    """Every order the commander gives applies (R4), and choosing leaves the game as it
    was (the bot never rolls the game's dice, never moves a base to look)."""
    g = new_game(scenario, 8, {"turn_limit": 2, "log": False})
    fr, ins = CommanderBot(8), MatrixBot(9, log=False)
    while not g.is_over():
        if g.active_side == "french":
            before = g.state_hash()
            a = fr.choose(g)
            assert g.state_hash() == before
            g.validate(a)
        else:
            a = ins.choose(g)
        g.apply(a)
    assert g.result() is not None
