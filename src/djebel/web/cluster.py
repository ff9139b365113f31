"""What server processes sharing one database tell each other, through PostgreSQL.

Each process listens on the ``djebel`` channel (``LISTEN``), on which every stored
action is announced (``djebel.web.storage``), so that its watchers hear of moves
made by any process, and on ``djebel_live``, on which the other live notices are (a
chat message, a resignation), so that they reach the watchers of every process; and it
drives a game's bots only while it holds that game's session-level advisory lock, so
that exactly one process drives them at a time. A process that dies loses its
connections and with them its locks: another one picks the game up at its next sweep.
SQLite has one process (``Local``): nothing to tell.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

from djebel.web.storage import CHANNEL, LIVE

log = logging.getLogger("djebel.web")

BOT_LOCKS = 0x626F74          # first key of the bots' advisory locks (second: the game)
SWEEP_SECONDS = 2.0           # how often a process looks for games no process drives

Heard = Callable[[str, int, str], Awaitable[None]]     # game, ply, state hash
Live = Callable[[str, str, int], Awaitable[None]]      # kind, game, number


class Local:
    """One server process on its own database: every game's bots are its own."""

    shared = False
    sweep_every: float | None = None          # resumes once, at start

    async def start(self, heard: Heard, reset: Callable[[], None],
                    live: Live | None = None) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def acquire(self, gid: str) -> bool:
        return True

    async def release(self, gid: str) -> None:
        return None

    def holds(self, gid: str) -> bool:
        return True

    async def check(self) -> None:
        return None


class Postgres:
    """Server processes sharing a PostgreSQL database."""

    shared = True
    sweep_every: float | None = SWEEP_SECONDS

    def __init__(self, url: str):
        u = make_url(url).set(drivername="postgresql")
        self.dsn = u.render_as_string(hide_password=False)
        self.locks = None                 # the connection holding this process's locks
        self.held: set[str] = set()       # the games whose lock it holds
        self.listener: asyncio.Task | None = None

    async def start(self, heard: Heard, reset: Callable[[], None],
                    live: Live | None = None) -> None:
        self.listener = asyncio.get_running_loop().create_task(
            self._listen(heard, reset, live))

    async def stop(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(BaseException):
                await self.listener
        if self.locks is not None:
            with contextlib.suppress(Exception):
                await self.locks.close()
            self.locks = None

    async def _connect(self):
        """A connection named for this process (``pg_stat_activity`` then tells which
        process holds which game's lock)."""
        import psycopg
        return await psycopg.AsyncConnection.connect(
            self.dsn, autocommit=True, application_name=f"djebel {os.getpid()}")

    async def _listen(self, heard: Heard, reset: Callable[[], None],
                      live: Live | None) -> None:
        """Hear every stored action and live notice; after a lost connection, forget
        what was cached (announcements may have been missed) and listen again."""
        while True:
            try:
                conn = await self._connect()
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if live is not None:
                        await conn.execute(f"LISTEN {LIVE}")
                    reset()
                    async for note in conn.notifies():
                        try:
                            if note.channel == LIVE:
                                kind, gid, ident = note.payload.split(" ")
                                await live(kind, gid, int(ident))
                                continue
                            gid, ply, digest = note.payload.split(" ")
                            await heard(gid, int(ply), digest)
                        except Exception:
                            log.exception("announcement %r", note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening to PostgreSQL: %s; again in 1 s", exc)
                await asyncio.sleep(1.0)

    async def acquire(self, gid: str) -> bool:
        """Take the lock of ``gid``'s bots if no process holds it (never waits)."""
        try:
            if self.locks is None or self.locks.closed:
                self.held.clear()
                self.locks = await self._connect()
            cur = await self.locks.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                                           (BOT_LOCKS, gid))
            row = await cur.fetchone()
            if row and row[0]:
                self.held.add(gid)
                return True
            return False
        except Exception as exc:
            # without its connection this process holds no lock any more: its bot loops
            # stop at their next move (``holds``) and the sweep takes the games again
            log.warning("bot lock of %s: %s", gid, exc)
            self.held.clear()
            with contextlib.suppress(Exception):
                if self.locks is not None:
                    await self.locks.close()
            self.locks = None
            return False

    def holds(self, gid: str) -> bool:
        """This process still holds the lock of ``gid``'s bots."""
        return gid in self.held

    async def check(self) -> None:
        """Find out whether the connection holding the locks is still alive (a lost one
        fails only when used): if not, the locks are gone."""
        if self.locks is None or not self.held:
            return
        try:
            await self.locks.execute("SELECT 1")
        except Exception as exc:
            log.warning("bot locks lost: %s", exc)
            self.held.clear()
            with contextlib.suppress(Exception):
                await self.locks.close()
            self.locks = None

    async def release(self, gid: str) -> None:
        if gid not in self.held:
            return
        self.held.discard(gid)
        if self.locks is None or self.locks.closed:
            return
        try:
            await self.locks.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))",
                                     (BOT_LOCKS, gid))
        except Exception as exc:
            log.warning("bot unlock of %s: %s", gid, exc)


def for_store(store) -> Local | Postgres:
    return Postgres(store.url) if store.postgres else Local()
