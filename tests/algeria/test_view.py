"""The bots' board view worked out from the previous one equals a view built afresh."""

import random

import pytest

from djebel import algeria
from djebel.algeria.bots.view import View, view_of

FIELDS = [f for f in View.__slots__ if f not in ("s", "memo", "area_memo")]


def _same(v: View, w: View) -> None:
    for f in FIELDS:
        assert getattr(v, f) == getattr(w, f), f


@pytest.mark.parametrize("scenario", algeria.SCENARIOS)
def test_successive_views_match_fresh_ones(scenario):
    """Also the values the FLN bot keeps in a View's memos (shared while the tallies
    stay the same, per area for the areas no decision changed) equal fresh ones."""
    from djebel.agents import make_agent
    from djebel.algeria.board import ALGERIA, BAND, CADRE

    checked = 0
    for seed in range(3):
        g = algeria.new_game(scenario, seed=seed, log=False)
        agents = {side: make_agent("heuristic", "algeria", side, seed) for side in g.sides}
        rng = random.Random(seed)
        while not g.is_over():
            v, fresh = view_of(g.state), View(g.state)
            _same(v, fresh)
            fln, gov = agents["fln"], agents["gov"]
            for a in ALGERIA[::3]:
                assert fln._react_threat(g.state, v, a) == fln._react_threat(g.state, fresh, a)
                assert gov._patrol_need(g.state, v, a) == gov._patrol_need(g.state, fresh, a)
                for t in (CADRE, BAND):
                    assert fln._stay_value(v, a, t) == fln._stay_value(fresh, a, t)
                    assert fln._move_dest(g.state, v, a, t) == fln._move_dest(g.state, fresh, a, t)
            assert v.s is g.state and view_of(g.state) is v
            checked += 1
            # Mostly the bots' moves, sometimes a random one (bigger jumps, clones).
            if rng.random() < 0.2:
                g.apply(rng.choice(g.legal_actions()))
            else:
                g.apply(agents[g.active_side].choose(g))
            if rng.random() < 0.05:
                g = g.clone()
    assert checked > 100


def test_a_view_is_not_changed_by_later_views():
    g = algeria.new_game("1958", seed=1, log=False)
    rng = random.Random(1)
    for _ in range(200):
        g.apply(rng.choice(g.legal_actions()))
    v = view_of(g.state)
    snapshot = {f: repr(getattr(v, f)) for f in FIELDS}
    for _ in range(100):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_actions()))
        view_of(g.state)
    assert {f: repr(getattr(v, f)) for f in FIELDS} == snapshot
