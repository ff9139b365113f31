"""Bot games for the resume and worker tests: the record of a game played without
interruption, and waiting on a server's games without visiting them."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

import httpx

from djebel.web.service import Service
from djebel.web.storage import Store

# (game, scenario, seed, seats): the bots keep memory across decisions (the Government's
# turn budget; a skirmish activation's course, drawn with the matrix bot's own d10)
GAMES = {
    "algeria": ("algeria", "1954", 11, {"fln": "heuristic", "gov": "heuristic"}),
    "skirmish": ("skirmish", "hotlz", 1, {"french": "matrix", "insurgents": "matrix"}),
}


def uninterrupted(game: str, scenario: str, seed: int, seats: dict) -> list[str]:
    """The actions of the game played to its end by one service that never stops."""
    async def play() -> list[str]:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(f"sqlite:///{Path(tmp) / 'ref.db'}")
            service = Service(store)
            gid = service.create(game, scenario, seed, {}, seats)["id"]
            while (task := service.bot_tasks.get(gid)) is not None:
                await task
            actions = store.load(gid).actions
            store.close()
            return actions
    return asyncio.run(play())


def create(c: httpx.Client, game: str, scenario: str, seed: int, seats: dict) -> str:
    r = c.post("/api/games", json={"game": game, "scenario": scenario, "seed": seed,
                                   "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def listed_ply(c: httpx.Client, gid: str) -> int:
    """The game's ply as the lobby lists it (reading it does not visit the game)."""
    return next(g["ply"] for g in c.get("/api/games", params={"limit": 200}).json()
                if g["id"] == gid)


def wait_ply(c: httpx.Client, gid: str, ply: int, seconds: float = 120) -> int:
    deadline = time.time() + seconds
    while (now := listed_ply(c, gid)) < ply:
        assert time.time() < deadline, f"game {gid} stuck at ply {now}, waiting for {ply}"
        time.sleep(0.05)
    return now


def actions_of(c: httpx.Client, gid: str) -> list[str]:
    return c.get(f"/api/games/{gid}/record").json()["actions"]
