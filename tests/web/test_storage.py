"""Storage and rebuilding, on an SQLite file and again on a real PostgreSQL server."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest
from server import Server

from djebel.web.service import ApiError, Service
from djebel.web.storage import SNAPSHOT_EVERY, Seat, Stale, Store, hash_token


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return request.getfixturevalue("pg").new_database()     # a fresh database per test


def test_store_round_trip_and_stale_writes(db_url):
    store = Store(db_url)
    gid = store.create("algeria", {"game": "algeria", "scenario": "1958", "seed": 1},
                       [], "h0", [Seat("fln", "human", "", hash_token("secret")),
                                  Seat("gov", "bot", "heuristic", "")], title="t")
    st = store.load(gid)
    assert st.ply == 0 and st.seats["fln"].token_hash == hash_token("secret")
    assert st.seats["gov"].bot == "heuristic"
    store.append(gid, 0, ["a", "b"], "h2")
    with pytest.raises(Stale):
        store.append(gid, 0, ["a", "c"], "hx")
    with pytest.raises(Stale):                      # the right ply, but another game
        store.append(gid, 2, ["a", "c"], "hx", expected_hash="h-other")
    store.append(gid, 2, ["a", "b", "c"], "h3", snapshot={"x": 1}, expected_hash="h2")
    st = store.load(gid)
    assert st.actions == ["a", "b", "c"] and st.state_hash == "h3"
    assert st.snapshot == {"x": 1} and st.snapshot_ply == 3
    assert store.load("nope") is None
    assert [g["id"] for g in store.listing()] == [gid]
    store.close()


def _play(service: Service, gid: str, tokens: dict, n: int, seed: int = 0) -> None:
    rng = random.Random(seed)

    async def go():
        for _ in range(n):
            ent = service.entry(gid)
            if ent.game.is_over():
                return
            side = ent.game.active_side
            action = str(rng.choice(ent.game.legal_actions()))
            await service.act(gid, side, tokens[side], action, ent.stored.ply)
    asyncio.run(go())


@pytest.mark.parametrize("game,scenario", [("algeria", "1954"), ("skirmish", "search")])
def test_a_game_is_rebuilt_from_its_record_and_snapshots(db_url, game, scenario):
    store = Store(db_url)
    service = Service(store)
    sides = {"algeria": ("fln", "gov"), "skirmish": ("french", "insurgents")}[game]
    out = service.create(game, scenario, 9, {}, {s: "human" for s in sides})
    gid, tokens = out["id"], out["seats"]
    _play(service, gid, tokens, SNAPSHOT_EVERY + 20, seed=2)
    live = service.entry(gid).game
    stored = store.load(gid)
    assert stored.ply == len(live.history())
    if stored.ply >= SNAPSHOT_EVERY:
        assert stored.snapshot is not None and stored.snapshot_ply >= SNAPSHOT_EVERY
    # a new service (a restarted server) rebuilds the same game
    other = Service(Store(db_url))
    again = other.entry(gid).game
    assert again.state_hash() == live.state_hash()
    assert again.history() == live.history()
    # a damaged snapshot is ignored: the record decides
    if stored.snapshot is not None:
        from sqlalchemy import update

        from djebel.web.storage import GameRow
        with store.session() as s, s.begin():
            s.execute(update(GameRow).where(GameRow.id == gid).values(snapshot={"bad": 1}))
        third = Service(Store(db_url))
        assert third.entry(gid).game.state_hash() == live.state_hash()
    # refused requests change nothing
    ent = service.entry(gid)
    if not ent.game.is_over():
        side = ent.game.active_side
        with pytest.raises(ApiError) as err:
            asyncio.run(service.act(gid, side, "wrong", "pass", ent.stored.ply))
        assert err.value.status == 403
        with pytest.raises(ApiError) as err:
            asyncio.run(service.act(gid, side, tokens[side], "pass", ent.stored.ply - 1))
        assert err.value.status == 409
        with pytest.raises(ApiError) as err:
            asyncio.run(service.act(gid, side, tokens[side], "no-such-verb x",
                                    ent.stored.ply))
        assert err.value.status == 400 and err.value.rule
    assert store.load(gid).ply == stored.ply
    store.close()


def test_server_on_postgresql_survives_a_restart(pg):
    url = f"postgresql://postgres@127.0.0.1:{pg.port}/postgres"
    srv = Server(url).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            g = c.post("/api/games", json={"game": "algeria", "scenario": "1958", "seed": 4,
                                           "seats": {"fln": "human", "gov": "random"}}).json()
            gid, tok = g["id"], g["seats"]["fln"]
            for _ in range(12):
                v = _wait_fln(c, gid, tok)
                if v["over"]:
                    break
                a = v["actions"][0]["text"]
                r = c.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tok},
                           json={"side": "fln", "action": a, "ply": v["ply"]})
                assert r.status_code == 200, r.text
            before = _wait_fln(c, gid, tok)
        srv.kill()
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            after = c.get(f"/api/games/{gid}", headers={"X-Seat-Token": tok}).json()
            assert after["board"] == before["board"] and after["ply"] == before["ply"]
    finally:
        srv.stop()


def _wait_fln(c, gid, tok):
    import time
    deadline = time.time() + 30
    while True:
        v = c.get(f"/api/games/{gid}", headers={"X-Seat-Token": tok}).json()
        if v["over"] or v["active"] == "fln":
            return v
        assert time.time() < deadline
        time.sleep(0.05)


def test_a_service_whose_cache_missed_an_undo_and_a_new_action_cannot_write_over_them(db_url):
    """Two services on one database (two processes that have not heard of each other's
    writes): after an undo and another action, the ply is the same again but the game
    is not; the stale one's action is refused, 409, and the stored game kept."""
    first, second = Service(Store(db_url)), Service(Store(db_url))
    out = first.create("algeria", "1958", 3, {}, {})
    gid, tok = out["id"], out["seats"]["gov"]
    texts = [str(a) for a in first.entry(gid).game.legal_actions()]
    x = "place fr_xx I-1"
    y = next(t for t in texts if t.startswith("place fr_xx ") and t != x)
    asyncio.run(first.act(gid, "gov", tok, x, 0))
    second.entry(gid)                                   # cached after x
    asyncio.run(first.undo(gid, "gov", tok, 1))
    asyncio.run(first.act(gid, "gov", tok, y, 0))
    assert second.entry(gid).stored.actions == [x]     # stale, and one action long
    z = next(str(a) for a in second.entry(gid).game.legal_actions())
    with pytest.raises(ApiError) as err:
        asyncio.run(second.act(gid, "gov", tok, z, 1))
    assert err.value.status == 409
    assert Store(db_url).load(gid).actions == [y]
    assert second.entry(gid).stored.actions == [y]     # and it reloaded the game
