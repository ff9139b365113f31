"""Properties of random legal play (hypothesis draws the seed, scenario, options and
every choice): the counter mix, the tracks' ranges, where units may stand, no dead
ends, every game ends, and clones and the JSON round trip keep the state exactly."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from djebel import algeria
from djebel.algeria import AlgeriaGame, board
from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AL_X,
    BOX_NAMES,
    BRIGADE_TYPES,
    CADRE,
    COUNTRIES,
    DISPERSED,
    EL_X,
    FLN_UNITS,
    FR_X,
    FR_XX,
    FRANCE,
    FRONT,
    GOV_UNITS,
    NATO,
    NEUT,
    NUM_AREAS,
    OC,
    POLICE,
    POOL,
    PTL,
    REMOTE,
    REMOVED,
    RURAL,
    SUEZ,
    TYPE_KEYS,
    TYPE_UNITS,
    UG,
    UNIT_NAMES,
    UNIT_TYPES,
    UTYPE,
    is_algerian,
)
from djebel.algeria.rules.common import rating
from djebel.algeria.state import OAS_INACTIVE, OAS_UNPLACED

MAX_STEPS = 60_000
OAS_SITES = {board.AREA_INDEX[a] for a in ("CONSTANTINE", "ALGIERS", "ORAN", "FRANCE")}
OFF_MAP = {POOL: None, NATO: (FR_XX, FR_X), SUEZ: (EL_X,), REMOVED: (EL_X,)}


def option_sets(scenario: str) -> list[dict[str, bool]]:
    """Every valid combination of the game options for a scenario."""
    keys = [k for k, (_, _, only) in algeria.OPTIONS.items() if only is None or scenario in only]
    return [{k: bool(mask >> i & 1) for i, k in enumerate(keys)} for mask in range(2 ** len(keys))]


def check_invariants(game: AlgeriaGame) -> None:
    s = game.state
    where = f"turn {s.turn}, {s.phase}, '{game.prompt()}'"
    # Tracks (2.3, 12.1, INT-17, 11.11).
    assert 0 <= s.fln_psl <= 99 and 0 <= s.gov_psl <= 99, where
    assert 0 <= s.ap <= 99, where
    assert 0 <= s.air_avail <= s.air_max <= 99, where
    assert 0 <= s.helo_avail <= s.helo_max <= 99, where
    assert 0 <= s.naval <= 99, where
    assert s.bz is None or -3 <= s.bz <= 0, where
    assert not s.bz_active or (s.bz is not None and s.independent), where
    assert s.oas in (OAS_INACTIVE, OAS_UNPLACED) or s.oas in OAS_SITES, where

    # The counter mix: every counter is one of the printed types, somewhere legal.
    assert len(s.loc) == len(UTYPE) == sum(t["count"] for t in UNIT_TYPES)
    on_map = [0] * len(TYPE_KEYS)
    fronts: dict[int, int] = {}
    in_france = []
    fln_reinforcing = game.decision() == "fln_reinf"
    for u, t in enumerate(UTYPE):
        a, box, flags = s.loc[u], s.box[u], s.flags[u]
        name = UNIT_NAMES[u]
        if a < 0:
            assert a in OFF_MAP, (name, a, where)
            allowed = OFF_MAP[a]
            assert allowed is None or t in allowed, (name, a, where)
            continue
        assert a < NUM_AREAS, (name, a, where)
        assert box in range(len(BOX_NAMES)), (name, box, where)
        on_map[t] += 1
        gov = u in GOV_UNITS
        if t == POLICE:
            assert box == PTL and is_algerian(a), (name, where)
        if gov:
            assert is_algerian(a), f"{name} outside Algeria: {where}"
            assert box != UG, f"{name} in a UG box: {where}"
        else:
            assert box != PTL, f"{name} in a PTL box: {where}"
        if a == FRANCE:
            in_france.append(u)
            assert t == CADRE, f"{name} in France: {where}"
        if a in COUNTRIES:
            assert not flags & NEUT, f"{name} neutralized in {board.AREA_IDS[a]}: {where}"
        if t == FRONT:
            assert is_algerian(a), f"{name} outside Algeria: {where}"
            assert rating(s, a) != REMOTE, f"{name} in Remote {board.AREA_IDS[a]}: {where}"
            fronts[a] = fronts.get(a, 0) + 1
        if flags & AIRMOBILE:
            assert t in BRIGADE_TYPES, (name, where)
        if flags & DISPERSED:
            assert t == FR_XX, (name, where)
        if gov and t != POLICE:
            # 6.32 / 7-1: only active, non-neutralized units stand ready in OPS or PTL;
            # airmobility lasts until Redeployment (11.12-5).
            if s.phase in ("deployment", "operations") and box != OC:
                assert flags & ACTIVE and not flags & NEUT, f"{name} ready but not active: {where}"
            if s.phase in ("random events", "reinforcement"):
                assert not flags & AIRMOBILE, f"{name} still airmobile: {where}"
        elif not gov and fln_reinforcing and is_algerian(a):
            assert box == UG, f"{name} not in UG during FLN reinforcement (10.3): {where}"
    for t, n in enumerate(on_map):
        assert n <= len(TYPE_UNITS[t]), (TYPE_KEYS[t], n)
    assert all(n == 1 for n in fronts.values()), f"two Fronts in one area: {where}"
    assert len(in_france) <= 1, f"{len(in_france)} FLN units in France: {where}"
    # Areas: Terror and resettlement only in Algeria; only Rural areas are resettled.
    for a in range(NUM_AREAS):
        if not is_algerian(a):
            assert not s.terror[a] and not s.resettled[a], where
        elif s.resettled[a]:
            assert board.AREA_RATING[a] == RURAL, where
    assert all(UTYPE[u] != AL_X or s.loc[u] not in (NATO, SUEZ) for u in GOV_UNITS)
    assert all(s.loc[u] not in (NATO, SUEZ, REMOVED) for u in FLN_UNITS)
    if game.is_over():
        assert s.fln_psl == 0 or s.gov_psl == 0 or s.end_reason.startswith("13.3"), where
        assert game.result() is not None and not game.legal_actions()


def round_trips(game: AlgeriaGame) -> None:
    """Clone and JSON keep the state hash, the choices and the dice."""
    h = game.state_hash()
    twin = game.clone()
    again = AlgeriaGame.from_json(json.loads(json.dumps(game.to_json())))
    assert twin.state_hash() == h and again.state_hash() == h
    legal = game.legal_actions()
    assert twin.legal_actions() == legal and again.legal_actions() == legal
    if legal:
        a = legal[len(legal) // 2]
        twin.apply(a)
        again.apply(a)
        assert twin.state_hash() == again.state_hash()
        assert game.state_hash() == h, "playing a clone changed the original"


def every_action_applies(game: AlgeriaGame) -> None:
    """Each offered action applies to a clone without error and leaves a decision or an end."""
    for a in game.legal_actions():
        c = game.clone()
        c.apply(a)
        assert c.is_over() or c.legal_actions(), f"dead end after '{a}'"


def play(game: AlgeriaGame, rng: random.Random, probe: float) -> int:
    steps = 0
    check_invariants(game)
    while not game.is_over():
        legal = game.legal_actions()
        assert legal, f"dead end: {game.prompt()}"
        if rng.random() < probe:
            round_trips(game)
            every_action_applies(game)
        game.apply(rng.choice(legal))
        check_invariants(game)
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
    round_trips(game)
    return steps


GAMES = st.sampled_from(algeria.SCENARIOS).flatmap(
    lambda sc: st.tuples(st.just(sc), st.sampled_from(option_sets(sc))))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAMES, seed=st.integers(0, 2**31 - 1), choices=st.randoms(use_true_random=False))
def test_random_legal_play_keeps_every_invariant(game, seed, choices):
    scenario, options = game
    play(algeria.new_game(scenario, seed=seed, options=options, log=False), choices, 0.01)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=st.sampled_from(algeria.SCENARIOS), seed=st.integers(0, 2**31 - 1),
       choices=st.randoms(use_true_random=False))
def test_logged_games_round_trip_at_every_phase(scenario, seed, choices):
    """With the log on, the JSON round trip holds at many points of a game."""
    play(algeria.new_game(scenario, seed=seed, log=True), choices, 0.05)


def test_option_sets_cover_the_options():
    assert len(option_sets("1954")) == 2 ** len(algeria.OPTIONS)
    for sc in ("1958", "1960"):
        assert all(not o.get("slow_french_reaction") and not o.get("deterministic_independence")
                   for o in option_sets(sc))
        assert len(option_sets(sc)) == 2 ** (len(algeria.OPTIONS) - 2)
