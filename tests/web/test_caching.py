"""What the server keeps between requests gives the same answers as working afresh:
legal-action lists per state, the skirmish memos, the frozen start-up heap."""

from __future__ import annotations

import asyncio
import gc
import random

import pytest

from djebel.core.errors import IllegalAction
from djebel.core.records import game_from_record
from djebel.skirmish import geometry
from djebel.skirmish.rules import movement
from djebel.web import heap, views
from djebel.web.service import Service, new_game
from djebel.web.storage import Store


def _fresh(service: Service, gid: str):
    """The game rebuilt from its stored record, sharing nothing with the cached one."""
    st = service.store.load(gid)
    return game_from_record(dict(st.header, actions=st.actions), "test")


@pytest.mark.parametrize("game,scenario,sides", [
    ("skirmish", "ambush", ("french", "insurgents")),
    ("algeria", "1958", ("fln", "gov")),
])
def test_action_lists_are_listed_once_per_state_and_match_a_fresh_game(
        tmp_path, monkeypatch, game, scenario, sides):
    service = Service(Store(f"sqlite:///{tmp_path / 'c.db'}"))
    out = service.create(game, scenario, 5, {}, {s: "human" for s in sides})
    gid, tokens = out["id"], out["seats"]
    calls = []
    listing = views.described_actions
    monkeypatch.setattr(views, "described_actions",
                        lambda g: calls.append(1) or listing(g))
    rng = random.Random(2)

    states = set()

    async def go():
        for _ in range(40):
            ent = service.entry(gid)
            if ent.game.is_over():
                return
            side = ent.game.active_side
            states.add(ent.stored.ply)
            first = service.actions(ent)
            again = service.actions(ent)
            assert len(calls) == len(states)           # one listing per state, no more
            assert again == first == listing(_fresh(service, gid))
            await service.act(gid, side, tokens[side], rng.choice(first)["text"],
                              ent.stored.ply)
            # the state moved on: the next list is made anew, for the new state
            states.add(service.entry(gid).stored.ply)
            assert service.actions(service.entry(gid)) == listing(_fresh(service, gid))
            assert len(calls) == len(states)
    asyncio.run(go())
    assert len(states) > 20


def test_a_view_shows_the_listed_actions_only_to_the_side_to_act():
    g = new_game("skirmish", "ambush", 1, {}, True)
    side = g.active_side
    other = next(s for s in ("french", "insurgents") if s != side)
    acts = views.described_actions(g)
    assert acts and views.view(g, side, {}, 0)["actions"] == acts
    assert views.view(g, side, {}, 0, actions=acts)["actions"] == acts
    assert views.view(g, other, {}, 0, actions=acts)["actions"] == []
    assert views.view(g, side, {}, 0, live=False, actions=acts)["actions"] == []


def test_move_plan_memo_refuses_alike_and_keeps_no_exceptions():
    g = new_game("skirmish", "ambush", 3, {}, False)
    e = next(e for e in g.elements if e.on_table and e.ground and not e.immobilized)
    far = [(e.x + 500.0, e.y)]                      # beyond any move allowance
    refusals = []
    for _ in range(2):                              # computed, then from the memo
        with pytest.raises(IllegalAction) as exc:
            movement.plan_ground(g, e, far, None, 1)
        refusals.append((exc.value.rule, exc.value.reason))
    assert refusals[0] == refusals[1] and refusals[0][0] == "R126"
    near = [(e.x + 0.5, e.y)]
    plans = [movement.plan_ground(g, e, near, None, 1) for _ in range(2)]
    assert plans[0] == plans[1] and plans[0] is not plans[1]
    assert all(type(v) is tuple for v in movement._PLAN_CACHE.values())


def test_los_memo_keys_are_plain_tuples_the_collector_drops():
    g = new_game("skirmish", "ambush", 3, {}, False)
    a, b = [e for e in g.elements if e.on_table][:2]
    geometry.terrain_los(g.terrain, a.body, b.body)
    key = next(k for k in geometry._LOS_CACHE if k[0] == g.terrain.version)
    assert type(key[1]) is tuple and type(key[2]) is tuple
    gc.collect()
    gc.collect()                 # the outer tuple goes once its parts have gone
    assert not gc.is_tracked(key)


def test_settle_freezes_the_start_up_heap_once():
    heap.settle()
    frozen = gc.get_freeze_count()
    assert frozen > 10_000
    heap.settle()
    assert gc.get_freeze_count() == frozen
