"""Bots wait ``--bot-delay`` only after the moves a player wants to watch: set-up
placements, forced single choices and closing steps are played at once."""

from __future__ import annotations

import asyncio

from djebel.core.actions import Action
from djebel.games import game_module
from djebel.web import service as service_mod
from djebel.web.pacing import in_setup, watched
from djebel.web.service import Service
from djebel.web.storage import Store


def test_setup_placements_are_not_watched():
    # 3-4: the GOV places its 1958 set-up before turn 1
    g = game_module("algeria").new_game("1958", seed=5, options={})
    assert in_setup(g)
    assert g.decision() == "setup_place"
    assert not watched(g, g.legal_actions()[0])


def test_closing_steps_and_single_choices_are_not_watched():
    g = game_module("algeria").new_game("1958", seed=5, options={})
    while in_setup(g):
        g.apply(g.legal_actions()[0])
    assert g.state.turn == 1
    acts = g.legal_actions()
    assert len(acts) > 1
    assert not watched(g, Action("done"))
    real = next(a for a in acts if a.verb not in ("done", "pass"))
    assert watched(g, real)


def test_bot_loop_sleeps_only_after_watched_moves(tmp_path, monkeypatch):
    """A human FLN against the GOV bot in 1958: the bot's set-up placements (3-4) cost
    no delay, and every delay it takes follows one of its watched moves."""
    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def fake_sleep(seconds, *a, **k):
        if seconds:
            slept.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(service_mod.asyncio, "sleep", fake_sleep)

    async def settle(svc, gid):
        task = svc.bot_tasks.get(gid)
        if task is not None:
            await task

    async def run() -> tuple[int, list[str], list[int], int]:
        svc = Service(Store(f"sqlite:///{tmp_path / 'p.db'}"), bot_delay=0.4)
        out = svc.create("algeria", "1958", 11, {}, {"gov": "random"})
        gid, tok = out["id"], out["seats"]["fln"]
        await settle(svc, gid)
        first_fln = svc.entry(gid).stored.ply
        slept_at_first = len(slept)
        while svc.entry(gid).stored.ply < 150 and not svc.entry(gid).game.is_over():
            ent = svc.entry(gid)
            assert ent.game.active_side == "fln"
            await svc.act(gid, "fln", tok, str(ent.game.legal_actions()[-1]), ent.stored.ply)
            await settle(svc, gid)
        await svc.shutdown()
        ent = svc.entry(gid)
        return first_fln, list(ent.stored.actions), slept_at_first, ent.stored.ply

    first_fln, actions, slept_at_first, ply = asyncio.run(run())
    g = game_module("algeria").new_game("1958", seed=11, options={})
    bot_moves = setup = watch = 0
    for text in actions:
        if g.active_side == "gov":
            bot_moves += 1
            setup += in_setup(g)
            watch += watched(g, text)
        g.apply(text)
    # 3-4: the GOV's set-up placements (the random bot closes its set-up early) came
    # first and kept the FLN waiting for no delay
    assert setup == first_fln == 15 and slept_at_first == 0
    assert len(slept) == watch > 0                # one delay per watched bot move
    assert watch < bot_moves - setup
    print(f"GOV bot: {bot_moves} actions, {setup} in set-up, {len(slept)} delayed")
