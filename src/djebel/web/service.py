"""The game service: games rebuilt from their records, actions checked and stored,
bots played in the background, every change pushed to the watchers.

Everything runs on the server's event loop, so reading a game, applying an action
and storing it happen without interleaving; only the bots' thinking runs in a
worker thread, on the bot seat's own copy of the game (``djebel.web.bots``).

Several server processes may share a PostgreSQL database (``djebel.web.cluster``):
the database's compare-and-set on the ply decides between two actions on one game,
announcements keep each process's cached games and watchers up to date, and a
game's bots run in the one process holding its lock.
The checking and replaying of an uploaded record (a game no one else sees yet) runs in
worker threads too.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from djebel import __version__
from djebel.agents import agent_names
from djebel.core.actions import Action
from djebel.core.dice import secret_seed
from djebel.core.errors import DjebelError, IllegalAction
from djebel.core.records import (
    ReplayTooLong,
    announce,
    check_final_hash,
    check_record,
    game_from_record,
    make_record,
)
from djebel.core.undo import ANALYSIS_HINT, refusal
from djebel.games import game_module
from djebel.web import cluster, resign, views
from djebel.web.bots import SIDES, BotSeat
from djebel.web.live import Hub
from djebel.web.pacing import watched
from djebel.web.storage import SNAPSHOT_EVERY, Seat, Stale, Store, StoredGame, hash_token, new_token

log = logging.getLogger("djebel.web")

CACHE_SIZE = 256
TRAIL = 8                  # games kept from before the last actions, for undo
UPLOAD_SECONDS = 10.0      # to check and replay an uploaded record, waiting included
UPLOAD_SLOTS = 2           # records replayed at once (in worker threads)
MAX_MESSAGE = 400          # characters of an error message (they quote user input)


class ApiError(Exception):
    """An answer other than success: HTTP status, a message and, for illegal actions,
    the rule broken."""

    def __init__(self, status: int, message: str, rule: str | None = None):
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE] + "...(cut)"
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule

    def to_json(self) -> dict:
        out = {"error": self.message}
        if self.rule is not None:
            out["rule"] = self.rule
        return out


@dataclass
class Entry:
    stored: StoredGame
    game: object
    replays: OrderedDict = field(default_factory=OrderedDict)   # ply -> game, for ?at=
    actions: list[dict] | None = None     # views.described_actions of the game ...
    actions_ply: int = -1                 # ... after this many actions
    trail: list = field(default_factory=list)   # (ply, game) before the last actions


def new_game(game: str, scenario: str, seed: int, options: dict, human: bool):
    module = game_module(game)
    if game == "skirmish":
        opts = dict(options)
        if human:
            opts.setdefault("deploy", True)
        return module.new_game(scenario, seed, opts)
    return module.new_game(scenario, seed=seed, options=options)


class Service:
    def __init__(self, store: Store, bot_delay: float = 0.0,
                 upload_seconds: float = UPLOAD_SECONDS):
        self.store = store
        self.upload_seconds = upload_seconds
        self.upload_slots = asyncio.Semaphore(UPLOAD_SLOTS)
        self.hub = Hub()
        self.bot_delay = bot_delay
        self.cache: OrderedDict[str, Entry] = OrderedDict()
        self.cluster = cluster.for_store(store)
        self.bot_seats: OrderedDict[tuple[str, str], BotSeat] = OrderedDict()
        self.bot_tasks: dict[str, asyncio.Task] = {}
        self.broken: dict[str, int] = {}     # game -> ply at which its bot loop failed
        self.heard_at: dict[str, float] = {}  # game -> when a process last stored in it
        # game -> (ply, hash, over) told its watchers (a resignation ends a game at the
        # same ply and hash)
        self.told: dict[str, tuple[int, str, bool]] = {}
        self.sweeper: asyncio.Task | None = None
        # live notices other than moves, by kind: handler(game, number) pushes one that
        # another process took to this process's watchers (the chat registers here)
        self.live: dict[str, Callable[[str, int], Awaitable[None]]] = {
            "resign": self._heard_resign}
        self.timings: list[float] = []       # seconds spent on each human action
        self.locks: dict[str, asyncio.Lock] = {}
        # called as on_turn(entry, side that acted) once an action that passed the turn
        # to another side, or ended the game, is stored: the notices listen here
        self.on_turn = None

    def lock(self, gid: str) -> asyncio.Lock:
        """The lock that keeps one game's reads and writes apart (views are built on the
        event loop today, so it is rarely contended; it matters once any step awaits)."""
        lk = self.locks.get(gid)
        if lk is None:
            if len(self.locks) > 4 * CACHE_SIZE:
                for key in [k for k, v in self.locks.items() if not v.locked()]:
                    del self.locks[key]
            lk = self.locks[gid] = asyncio.Lock()
        return lk

    # ------------------------------------------------------------ loading
    def entry(self, gid: str) -> Entry:
        hit = self.cache.get(gid)
        if hit is not None:
            self.cache.move_to_end(gid)
            return hit
        stored = self.store.load(gid)
        if stored is None:
            raise ApiError(404, f"no game {gid!r}")
        game = self._rebuild(stored)
        gave_up = stored.header.get("resigned")
        if gave_up:
            resign.apply(game, SIDES[stored.game], gave_up["side"])
        ent = Entry(stored, game)
        self.cache[gid] = ent
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)
        return ent

    def _rebuild(self, stored: StoredGame):
        rec = dict(stored.header, actions=stored.actions)
        snap = stored.snapshot
        if snap is not None and 0 <= stored.snapshot_ply <= stored.ply:
            try:
                module = game_module(stored.game)
                cls = module.AlgeriaGame if stored.game == "algeria" else module.SkirmishGame
                game = cls.from_json(snap)
                for text in stored.actions[stored.snapshot_ply:]:
                    game.apply(text)
                if game.state_hash() == stored.state_hash:
                    return game
            except Exception:                     # a bad snapshot: the record decides
                log.warning("snapshot of %s unusable, replaying the record", stored.id)
        return game_from_record(rec, f"game {stored.id}")

    def actions(self, ent: Entry) -> list[dict]:
        """The live game's described legal actions, listed once per state: every page
        watching a game asks for its view again after each action."""
        ply = ent.stored.ply
        if ent.actions is None or ent.actions_ply != ply:
            ent.actions, ent.actions_ply = views.described_actions(ent.game), ply
        return ent.actions

    def forget(self, gid: str) -> None:
        self.cache.pop(gid, None)

    def refresh(self, gid: str) -> Entry:
        """The cached game brought up to the stored one (another process stored actions):
        the new actions applied to it, or, if the record differs, rebuilt."""
        ent = self.cache.get(gid)
        if ent is None:
            return self.entry(gid)
        stored = self.store.load(gid)
        if stored is None:
            self.forget(gid)
            raise ApiError(404, f"no game {gid!r}")
        old = ent.stored.ply
        if stored.ply == old and stored.state_hash == ent.stored.state_hash:
            return ent
        if stored.ply > old and stored.actions[:old] == ent.stored.actions:
            try:
                for text in stored.actions[old:]:
                    ent.game.apply(text)
                if ent.game.state_hash() == stored.state_hash:
                    ent.stored = stored
                    ent.replays.clear()
                    ent.actions, ent.actions_ply = None, -1
                    return ent
            except Exception:
                log.warning("game %s: stored actions do not apply, rebuilding", gid)
        self.forget(gid)
        return self.entry(gid)

    # ------------------------------------------------------------ seats
    def seat_of(self, ent: Entry, token: str | None) -> str | None:
        """The side a seat token plays, None for no token; 403 for a token of no seat."""
        if not token:
            return None
        digest = hash_token(token)
        for seat in ent.stored.seats.values():
            if seat.kind == "human" and hmac.compare_digest(seat.token_hash, digest):
                return seat.side
        raise ApiError(403, "this seat link belongs to no seat of this game")

    @staticmethod
    def _check_seat(st: StoredGame, side: str, token: str | None) -> None:
        """400 for a side the game lacks, 403 unless ``token`` is that human seat's."""
        seat = st.seats.get(side)
        if seat is None:
            raise ApiError(400, f"{st.game} has no side {side!r}")
        if seat.kind != "human" or not token or not hmac.compare_digest(
                seat.token_hash, hash_token(token)):
            raise ApiError(403, f"this seat link does not play {side}")

    # ------------------------------------------------------------ creating
    def create(self, game: str, scenario: str, seed: int | None, options: dict,
               seats: dict[str, str], title: str = "", analysis: bool = False) -> dict:
        """A new game. Without a ``seed`` its dice follow a secret one; a chosen seed is
        marked in the header and the log (whoever chose it can foresee the dice)."""
        sides = SIDES[game]
        for side in seats:
            if side not in sides:
                raise ApiError(400, f"{game} has no side {side!r} (sides: {', '.join(sides)})")
        players = {side: seats.get(side, "human") for side in sides}
        for who in players.values():
            if who != "human" and who not in agent_names(game):
                raise ApiError(400, f"no bot {who!r} for {game} (bots: "
                                    f"{', '.join(agent_names(game))})")
        notes = {"chosen_seed": seed is not None, "analysis": analysis}
        if seed is None:
            seed = secret_seed()
        try:
            g = new_game(game, scenario, seed, options,
                         any(w == "human" for w in players.values()))
        except DjebelError as exc:
            raise ApiError(400, str(exc)) from None
        notes = {k: True for k, v in notes.items() if v}
        announce(g, notes, 0)
        return self._store_new(g, players, title or f"{game} {scenario}", "play", notes)

    def _store_new(self, g, players: dict[str, str], title: str, mode: str,
                   extra: dict | None = None) -> dict:
        tokens: dict[str, str] = {}
        seat_rows = []
        for side, who in players.items():
            if who == "human":
                tok = new_token()
                tokens[side] = tok
                seat_rows.append(Seat(side, "human", "", hash_token(tok)))
            else:
                seat_rows.append(Seat(side, "bot", who, ""))
        header = {"format": 1, "engine": __version__, **g.record_header(), **(extra or {})}
        seats = {seat.side: seat for seat in seat_rows}
        gid = self.store.create(g.name, header, g.history(), g.state_hash(), seat_rows,
                               title, mode, bot_to_act=_bot_to_act(g, seats, mode))
        stored = self.store.load(gid)
        if stored is not None:             # the game at hand, not replayed once more
            self.cache[gid] = Entry(stored, g)
        self.entry(gid)
        self.kick_bots(gid)
        return {"id": gid, "seats": tokens}

    async def upload(self, read: Callable[[], tuple[dict, str, dict, str]]) -> dict:
        """Store the game of an uploaded record. ``read`` parses the request into
        (record, mode, seats, title); it and the replay run in a worker thread, within
        ``upload_seconds``, so that other requests are answered meanwhile. Nothing is
        stored unless all of it succeeds in time."""
        deadline = time.monotonic() + self.upload_seconds
        try:
            async with asyncio.timeout(self.upload_seconds + 1.0):
                async with self.upload_slots:
                    done = await asyncio.to_thread(self._replay_upload, read, deadline)
        except TimeoutError:
            raise ApiError(503, f"uploaded record: not replayed within "
                                f"{self.upload_seconds:g} s (the server is busy or the "
                                f"record too long); nothing was stored") from None
        g, players, title, mode, extra = done
        out = self._store_new(g, players, title, mode, extra)
        if mode == "replay":
            out["seats"] = {}
        return out

    def _replay_upload(self, read, deadline: float):
        record, mode, seats, title = read()
        try:
            rec = check_record(record, "uploaded record")
            g = game_from_record(rec, "uploaded record", deadline=deadline)
            check_final_hash(rec, g, "uploaded record")
            extra = {}
            if mode == "continue" and not g.is_over():
                # whoever uploads may know the record's seed: the game goes on with the
                # faces rolled so far and fresh dice from a new secret seed
                if "seed" in rec:
                    g = game_from_record(make_record(g, full=False), "uploaded record",
                                         deadline=deadline)
                extra["fresh_dice_at"] = len(rec["actions"])
            elif "fresh_dice_at" in rec:
                extra["fresh_dice_at"] = rec["fresh_dice_at"]
        except ReplayTooLong as exc:
            raise ApiError(503, f"{exc}; nothing was stored") from None
        except DjebelError as exc:
            raise ApiError(400, str(exc)) from None
        except Exception as exc:          # a record the engine chokes on is still bad input
            log.warning("record rejected: %s", type(exc).__name__)
            raise ApiError(400, f"uploaded record: cannot be replayed ({type(exc).__name__})") \
                from None
        sides = SIDES[g.name]
        if mode == "replay":
            players = {side: "human" for side in sides}
        else:
            for side in seats:
                if side not in sides:
                    raise ApiError(400, f"{g.name} has no side {side!r}")
            players = {side: seats.get(side, "human") for side in sides}
            for who in players.values():
                if who != "human" and who not in agent_names(g.name):
                    raise ApiError(400, f"no bot {who!r} for {g.name}")
        scenario = rec["scenario"] if isinstance(rec["scenario"], str) else g.scn.name[:60]
        return g, players, title or f"{g.name} {scenario} ({mode} of a record)", mode, extra

    # ------------------------------------------------------------ acting
    async def act(self, gid: str, side: str, token: str | None, text: str, ply: int) -> Entry:
        async with self.lock(gid):
            ent = self._act(gid, side, token, text, ply)
        await self.changed(gid)
        return ent

    def _seen(self, ent: Entry, gid: str, ply: int) -> Entry:
        """The game as the client saw it after ``ply`` actions, else 409 (stale). With
        several processes the action may have been stored meanwhile by another one."""
        if ply != ent.stored.ply and self.cluster.shared:
            ent = self.refresh(gid)
        if ply != ent.stored.ply:
            raise ApiError(409, f"the game has moved on: {ent.stored.ply} actions played, "
                                f"you have seen {ply}")
        return ent

    def _act(self, gid: str, side: str, token: str | None, text: str, ply: int) -> Entry:
        t0 = time.perf_counter()
        ent = self.entry(gid)
        st = ent.stored
        self._check_seat(st, side, token)
        if st.mode == "replay":
            raise ApiError(409, "this game is a replay of a record: nothing can be played")
        ent = self._seen(ent, gid, ply)
        st = ent.stored
        game = ent.game
        if game.is_over():
            raise ApiError(409, "the game is over")
        if game.active_side != side:
            raise ApiError(409, f"it is {game.active_side}'s turn to act, not {side}'s")
        before = game.clone()
        self._apply(ent, text)
        ent.trail = (ent.trail + [(st.ply - 1, before)])[-TRAIL:]
        self.timings.append(time.perf_counter() - t0)
        if len(self.timings) > 100_000:
            del self.timings[:50_000]
        return ent

    def _apply(self, ent: Entry, text: str) -> None:
        """Apply and store one action (already checked to be this side's turn)."""
        st = ent.stored
        game = ent.game
        acted = game.active_side
        try:
            action = Action.parse(text)
            game.apply(action)
        except IllegalAction as exc:
            raise ApiError(400, str(exc), exc.rule) from None
        except DjebelError as exc:
            raise ApiError(400, str(exc), "notation") from None
        except Exception as exc:
            # The engine refused this input in a way it did not foresee: rebuild the game
            # from its record (in case anything changed) and answer a client error.
            log.exception("action %r on game %s", text, st.id)
            self.forget(st.id)
            raise ApiError(400, f"action {text!r} cannot be applied here "
                                f"({type(exc).__name__})", "notation") from None
        self._store(ent, game.history())
        if self.on_turn is not None and (game.active_side != acted or game.is_over()):
            self.on_turn(ent, acted)

    def _store(self, ent: Entry, history: list[str]) -> None:
        """Store the live game, which has the actions ``history`` (one more than before,
        or fewer after an undo)."""
        st = ent.stored
        game = ent.game
        snapshot = game.to_json() if len(history) % SNAPSHOT_EVERY == 0 else None
        digest = game.state_hash()
        try:
            self.store.append(st.id, st.ply, history, digest, snapshot,
                              bot_to_act=_bot_to_act(game, st.seats, st.mode),
                              expected_hash=st.state_hash)
        except Stale:
            self.forget(st.id)
            raise ApiError(409, "the game has moved on (stored elsewhere)") from None
        except Exception:
            self.forget(st.id)
            raise
        st.actions = history
        st.ply = len(history)
        st.state_hash = digest
        st.updated = time.time()
        if snapshot is not None:
            st.snapshot, st.snapshot_ply = snapshot, st.ply
        ent.replays.clear()
        ent.actions, ent.actions_ply = None, -1

    async def changed(self, gid: str) -> None:
        ent = self.cache.get(gid)
        if ent is None:
            return
        await self.publish(ent)
        self.kick_bots(gid)

    # ------------------------------------------------------------ bots
    async def start(self) -> None:
        """Listen to the other processes (PostgreSQL) and resume every game in which a
        bot is to act, without waiting for a visitor."""
        await self.cluster.start(self.heard, self.cache.clear, self.heard_live)
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def heard_live(self, kind: str, gid: str, ident: int) -> None:
        """Some process (this one too) took live notice ``ident`` of ``kind`` in ``gid``."""
        handler = self.live.get(kind)
        if handler is not None:
            await handler(gid, ident)

    async def _heard_resign(self, gid: str, ply: int) -> None:
        """A seat resigned ``gid`` at ``ply`` on some process: a copy cached here still
        running is dropped (rebuilt from the stored header when next asked for), and the
        watchers here are told the game is over."""
        ent = self.cache.get(gid)
        if ent is not None and not ent.game.is_over():
            self.forget(gid)
        if gid in self.hub.watchers:
            await self.publish(self.entry(gid))

    async def heard(self, gid: str, ply: int, digest: str) -> None:
        """Some process (this one too) stored ``gid`` with ``ply`` actions and the state
        hash ``digest`` (one action more, or fewer after an undo)."""
        self.heard_at[gid] = time.monotonic()
        if gid not in self.hub.watchers:
            ent = self.cache.get(gid)
            if ent is not None and ent.stored.state_hash != digest:
                self.forget(gid)                   # loaded again when next asked for
            return
        if self.told.get(gid, ())[:2] == (ply, digest):
            return                                 # its watchers know (told by this process)
        async with self.lock(gid):
            ent = self.refresh(gid)
        await self.publish(ent)

    async def _sweep(self) -> None:
        """Resume the games whose bots no process drives: once at start on SQLite, every
        few seconds on PostgreSQL (a process may have stopped in the middle)."""
        while True:
            try:
                await self.cluster.check()
                # a game stored in since the last sweep has a process driving it
                recent = time.monotonic() - 2 * (self.cluster.sweep_every or 0)
                self.heard_at = {g: t for g, t in self.heard_at.items() if t > recent}
                for gid in await asyncio.to_thread(self.store.bot_games):
                    if gid not in self.heard_at:
                        self.kick_bots(gid)
            except Exception:
                log.exception("looking for games with a bot to act")
            if self.cluster.sweep_every is None:
                return
            await asyncio.sleep(self.cluster.sweep_every)

    def kick_bots(self, gid: str) -> None:
        """Start the bot loop of a game if a bot is to act and none is running here (for
        a game not cached, the loop looks: the sweep names stored games)."""
        ent = self.cache.get(gid)
        if ent is not None and not _bot_to_act(ent.game, ent.stored.seats, ent.stored.mode):
            return
        if ent is not None and self.broken.get(gid) == ent.stored.ply:
            return
        task = self.bot_tasks.get(gid)
        if task is not None and not task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.bot_tasks[gid] = loop.create_task(self._bots(gid))

    def bot_seat(self, ent: Entry, side: str) -> BotSeat:
        key = (ent.stored.id, side)
        seat = self.bot_seats.get(key)
        if seat is None:
            st = ent.stored
            seat = BotSeat(st.header, st.game, side, st.seats[side].bot, st.id)
            self.bot_seats[key] = seat
            while len(self.bot_seats) > CACHE_SIZE:
                self.bot_seats.popitem(last=False)
        self.bot_seats.move_to_end(key)
        return seat

    async def _bots(self, gid: str) -> None:
        if not await self.cluster.acquire(gid):
            return                                 # another process drives this game
        try:
            ent = self.refresh(gid) if self.cluster.shared else self.entry(gid)
            if not _bot_to_act(ent.game, ent.stored.seats, ent.stored.mode):
                # nothing to do (a game stored by an older djebel, or already moved on)
                self.store.set_bot_to_act(gid, ent.stored.ply, False)
                return
            while True:
                ent = self.entry(gid)
                game = ent.game
                if not _bot_to_act(game, ent.stored.seats, ent.stored.mode):
                    return
                side = game.active_side
                ply, digest = ent.stored.ply, ent.stored.state_hash
                seat = self.bot_seat(ent, side)
                action = await asyncio.to_thread(seat.choose, list(ent.stored.actions))
                if not self.cluster.holds(gid):
                    return                         # lock lost with its connection
                async with self.lock(gid):
                    ent = self.entry(gid)
                    if (ent.stored.ply != ply or ent.stored.state_hash != digest
                            or ent.game.active_side != side):    # moved on, or undone
                        continue
                    before = ent.game.clone()
                    try:
                        self._apply(ent, str(action))
                    except ApiError as exc:
                        if exc.status != 409:
                            raise
                        continue                   # stored elsewhere: reloaded, go on
                    ent.trail = (ent.trail + [(ply, before)])[-TRAIL:]
                await self.publish(ent)
                if self.bot_delay and watched(before, action):
                    await asyncio.sleep(self.bot_delay)
                else:
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of game %s stopped", gid)
            ent = self.cache.get(gid)
            self.broken[gid] = ent.stored.ply if ent is not None else -1
        finally:
            self.bot_tasks.pop(gid, None)
            await self.cluster.release(gid)

    async def publish(self, ent: Entry) -> None:
        """Tell the game's watchers of its new state (once per ply: a process hears of
        the actions it stored itself too)."""
        gid, ply = ent.stored.id, ent.stored.ply
        told = (ply, ent.stored.state_hash, ent.game.is_over())
        if gid not in self.hub.watchers or self.told.get(gid) == told:
            return
        if len(self.told) > 4 * CACHE_SIZE:
            self.told = {g: t for g, t in self.told.items() if g in self.hub.watchers}
        self.told[gid] = told
        await self.hub.publish(gid, {"type": "update", "ply": ply,
                                     "active": ent.game.active_side,
                                     "over": ent.game.is_over()})

    async def shutdown(self) -> None:
        tasks = [t for t in (self.sweeper, *self.bot_tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.cluster.stop()

    # ------------------------------------------------------------ resign, rematch
    async def resign(self, gid: str, side: str, token: str | None) -> Entry:
        async with self.lock(gid):
            ent = self._resign(gid, side, token)
            task = self.bot_tasks.get(gid)
            if task is not None:
                task.cancel()
            if self.on_turn is not None:        # the game is over: the other seat is told
                self.on_turn(ent, side)
        await self.changed(gid)
        return ent

    def _resign(self, gid: str, side: str, token: str | None) -> Entry:
        """``side`` gives the game up: the other side wins, and the log says so."""
        ent = self.entry(gid)
        st = ent.stored
        self._check_seat(st, side, token)
        if st.mode == "replay":
            raise ApiError(409, "this game is a replay of a record: nobody can resign")
        if ent.game.is_over():
            raise ApiError(409, "the game is over")
        header = dict(st.header, resigned={"side": side, "ply": st.ply})
        self.store.set_header(gid, header, notice=("resign", st.ply))
        st.header = header
        resign.apply(ent.game, SIDES[st.game], side)
        self.store.set_bot_to_act(gid, st.ply, False)
        ent.replays.clear()
        ent.actions, ent.actions_ply, ent.trail = None, -1, []
        return ent

    def rematch(self, gid: str, side: str, token: str | None) -> dict:
        """A new game of the same scenario and options with the sides swapped: each
        seat's player (its link's token) or bot plays the other side, with new secret
        dice. Asked twice, the same rematch is given."""
        ent = self.entry(gid)
        st = ent.stored
        self._check_seat(st, side, token)
        if st.mode == "replay":
            raise ApiError(409, "this game is a replay of a record: no rematch")
        if not ent.game.is_over():
            raise ApiError(409, "the game is not over: finish it or resign first")
        if self.cluster.shared:
            # another process may have made the rematch: its header is in the database
            fresh = self.store.load(gid)
            if fresh is not None and fresh.header.get("rematch"):
                st.header = fresh.header
        done = st.header.get("rematch")
        if done:
            return {"id": done, "seats": {}}
        first, second = SIDES[st.game]
        swap = {first: second, second: first}
        old = st.header
        try:
            g = new_game(st.game, str(old.get("scenario")), secret_seed(),
                         dict(old.get("options") or {}),
                         any(s.kind == "human" for s in st.seats.values()))
        except DjebelError as exc:
            raise ApiError(400, f"no rematch: {exc}") from None
        notes = {"analysis": True} if old.get("analysis") else {}
        announce(g, notes, 0)
        rows = [Seat(swap[s.side], s.kind, s.bot, s.token_hash) for s in st.seats.values()]
        header = {"format": 1, "engine": __version__, **g.record_header(), **notes,
                  "rematch_of": gid}
        new = self.store.create(g.name, header, g.history(), g.state_hash(), rows,
                                f"{st.title} (rematch)"[:200], "play",
                                bot_to_act=_bot_to_act(g, {r.side: r for r in rows}, "play"))
        header_old = dict(old, rematch=new)
        self.store.set_header(gid, header_old)
        st.header = header_old
        self.entry(new)
        self.kick_bots(new)
        return {"id": new, "seats": {}}

    # ------------------------------------------------------------ undo
    def before(self, ent: Entry, ply: int):
        """The game before action number ``ply`` (1-based): after its first ply - 1."""
        for at, game in ent.trail:
            if at == ply - 1:
                return game
        return self.at(ent, ply - 1)

    def undo_refusal(self, ent: Entry, side: str) -> str | None:
        """Why ``side`` may not take back the game's last action now; None if it may."""
        st = ent.stored
        if st.mode == "replay":
            return "this game is a replay of a record: nothing can be undone"
        if ent.game.is_over():
            return "the game is over"
        if st.ply == 0 or st.ply <= int(st.header.get("fresh_dice_at", 0)):
            return "there is no action of this game to undo"
        if st.header.get("analysis"):
            return None
        why = refusal(self.before(ent, st.ply), ent.game, side)
        return None if why is None else f"{why} ({ANALYSIS_HINT})"

    async def undo(self, gid: str, side: str, token: str | None, ply: int) -> Entry:
        async with self.lock(gid):
            ent = self._undo(gid, side, token, ply)
        await self.changed(gid)
        return ent

    def _undo(self, gid: str, side: str, token: str | None, ply: int) -> Entry:
        """Take back ``side``'s last action; in an analysis game, also every action after
        it (the other side's replies, a bot's)."""
        ent = self.entry(gid)
        st = ent.stored
        self._check_seat(st, side, token)
        ent = self._seen(ent, gid, ply)
        st = ent.stored
        why = self.undo_refusal(ent, side)
        if why is not None:
            raise ApiError(409, f"cannot undo: {why}")
        target = st.ply - 1
        if st.header.get("analysis"):
            target = self._last_own(ent, side)
            if target is None:
                raise ApiError(409, f"cannot undo: {side} has no action to take back")
        game = self.before(ent, target + 1).clone()
        history = st.actions[:target]
        ent.game = game
        self._store(ent, history)
        ent.trail = [(at, g) for at, g in ent.trail if at < target]
        return ent

    def _last_own(self, ent: Entry, side: str) -> int | None:
        """The number of actions before ``side``'s last one (None: it has none)."""
        floor = int(ent.stored.header.get("fresh_dice_at", 0))
        for ply in range(ent.stored.ply, floor, -1):
            if self.before(ent, ply).active_side == side:
                return ply - 1
        return None

    # ------------------------------------------------------------ replays
    def at(self, ent: Entry, ply: int):
        """The game after its first ``ply`` actions (for watching a record step by step)."""
        if ply >= ent.stored.ply:
            return ent.game
        if ply < 0:
            raise ApiError(400, "ply must be 0 or more")
        hit = ent.replays.get(ply)
        if hit is None:
            rec = dict(ent.stored.header, actions=ent.stored.actions)
            hit = game_from_record(rec, f"game {ent.stored.id}", upto=ply)
            ent.replays[ply] = hit
            while len(ent.replays) > 16:
                ent.replays.popitem(last=False)
        return hit


def _bot_to_act(game, seats: dict[str, Seat], mode: str) -> bool:
    """A bot seat is to act in a game being played."""
    if mode != "play" or game.is_over():
        return False
    seat = seats.get(game.active_side or "")
    return seat is not None and seat.kind == "bot"
