"""The game service: games rebuilt from their records, actions checked and stored,
bots played in the background, every change pushed to the watchers.

Everything runs on the server's event loop, so reading a game, applying an action
and storing it happen without interleaving; only the bots' thinking runs in a
worker thread, on a clone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from djebel import __version__
from djebel.agents import agent_names, make_agent
from djebel.core.actions import Action
from djebel.core.dice import secret_seed
from djebel.core.errors import DjebelError, IllegalAction
from djebel.core.records import announce, check_record, game_from_record, make_record
from djebel.core.undo import ANALYSIS_HINT, refusal
from djebel.games import game_module
from djebel.web import resign, views
from djebel.web.live import Hub
from djebel.web.pacing import watched
from djebel.web.storage import SNAPSHOT_EVERY, Seat, Stale, Store, StoredGame, hash_token, new_token

log = logging.getLogger("djebel.web")

SIDES = {"algeria": ("fln", "gov"), "skirmish": ("french", "insurgents")}
CACHE_SIZE = 256
TRAIL = 8                  # games kept from before the last actions, for undo


class ApiError(Exception):
    """An answer other than success: HTTP status, a message and, for illegal actions,
    the rule broken."""

    def __init__(self, status: int, message: str, rule: str | None = None):
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


def bot_options(game: str, bot: str) -> dict:
    if game == "algeria" and bot == "search":
        return {"seconds": 1.0}
    return {}


def new_game(game: str, scenario: str, seed: int, options: dict, human: bool):
    module = game_module(game)
    if game == "skirmish":
        opts = dict(options)
        if human:
            opts.setdefault("deploy", True)
        return module.new_game(scenario, seed, opts)
    return module.new_game(scenario, seed=seed, options=options)


class Service:
    def __init__(self, store: Store, bot_delay: float = 0.0):
        self.store = store
        self.hub = Hub()
        self.bot_delay = bot_delay
        self.cache: OrderedDict[str, Entry] = OrderedDict()
        self.agents: dict[tuple[str, str], object] = {}
        self.bot_tasks: dict[str, asyncio.Task] = {}
        self.timings: list[float] = []       # seconds spent on each human action
        self.locks: dict[str, asyncio.Lock] = {}

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
        gid = self.store.create(g.name, header, g.history(), g.state_hash(), seat_rows,
                                title, mode)
        self.entry(gid)
        self.kick_bots(gid)
        return {"id": gid, "seats": tokens}

    def upload(self, record: dict, mode: str, seats: dict[str, str], title: str = "") -> dict:
        extra = {}
        try:
            rec = check_record(record, "uploaded record")
            g = game_from_record(rec, "uploaded record")
            if mode == "continue" and not g.is_over():
                # whoever uploads may know the record's seed: the game goes on with the
                # faces rolled so far and fresh dice from a new secret seed
                if "seed" in rec:
                    g = game_from_record(make_record(g, full=False), "uploaded record")
                extra["fresh_dice_at"] = len(rec["actions"])
            elif "fresh_dice_at" in rec:
                extra["fresh_dice_at"] = rec["fresh_dice_at"]
        except DjebelError as exc:
            raise ApiError(400, str(exc)) from None
        except Exception as exc:          # a record the engine chokes on is still bad input
            log.warning("record rejected: %r", exc)
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
        out = self._store_new(g, players, title or f"{g.name} {rec.get('scenario', '')} "
                              f"({mode} of a record)", mode, extra)
        if mode == "replay":
            out["seats"] = {}
        return out

    # ------------------------------------------------------------ acting
    async def act(self, gid: str, side: str, token: str | None, text: str, ply: int) -> Entry:
        async with self.lock(gid):
            ent = self._act(gid, side, token, text, ply)
        await self.changed(gid)
        return ent

    def _act(self, gid: str, side: str, token: str | None, text: str, ply: int) -> Entry:
        t0 = time.perf_counter()
        ent = self.entry(gid)
        st = ent.stored
        self._check_seat(st, side, token)
        if st.mode == "replay":
            raise ApiError(409, "this game is a replay of a record: nothing can be played")
        if ply != st.ply:
            raise ApiError(409, f"the game has moved on: {st.ply} actions played, "
                                f"you have seen {ply}")
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

    def _store(self, ent: Entry, history: list[str]) -> None:
        """Store the live game, which has the actions ``history`` (one more than before,
        or fewer after an undo)."""
        st = ent.stored
        game = ent.game
        snapshot = game.to_json() if len(history) % SNAPSHOT_EVERY == 0 else None
        digest = game.state_hash()
        try:
            self.store.append(st.id, st.ply, history, digest, snapshot)
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
        await self.hub.publish(gid, {"type": "update", "ply": ent.stored.ply,
                                     "active": ent.game.active_side,
                                     "over": ent.game.is_over()})
        self.kick_bots(gid)

    # ------------------------------------------------------------ bots
    def kick_bots(self, gid: str) -> None:
        """Start the bot loop of a game if a bot is to act and none is running."""
        ent = self.cache.get(gid)
        if ent is None or ent.stored.mode != "play" or ent.game.is_over():
            return
        seat = ent.stored.seats.get(ent.game.active_side or "")
        if seat is None or seat.kind != "bot":
            return
        task = self.bot_tasks.get(gid)
        if task is not None and not task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.bot_tasks[gid] = loop.create_task(self._bots(gid))

    async def _bots(self, gid: str) -> None:
        try:
            while True:
                ent = self.entry(gid)
                game = ent.game
                if game.is_over():
                    return
                side = game.active_side
                seat = ent.stored.seats.get(side or "")
                if seat is None or seat.kind != "bot":
                    return
                key = (gid, side)
                agent = self.agents.get(key)
                if agent is None:
                    salt = SIDES[ent.stored.game].index(side) + 1
                    agent = make_agent(seat.bot, ent.stored.game, side,
                                       int(ent.stored.header.get("seed", 0)) * 7 + salt,
                                       **bot_options(ent.stored.game, seat.bot))
                    self.agents[key] = agent
                ply, digest = ent.stored.ply, ent.stored.state_hash
                action = await asyncio.to_thread(agent.choose, game.clone())
                async with self.lock(gid):
                    ent = self.entry(gid)
                    if (ent.stored.ply != ply or ent.stored.state_hash != digest
                            or ent.game.active_side != side):    # moved on, or undone
                        continue
                    before = ent.game.clone()
                    self._apply(ent, str(action))
                    ent.trail = (ent.trail + [(ply, before)])[-TRAIL:]
                await self.hub.publish(gid, {"type": "update", "ply": ent.stored.ply,
                                             "active": ent.game.active_side,
                                             "over": ent.game.is_over()})
                if self.bot_delay and watched(before, action):
                    await asyncio.sleep(self.bot_delay)
                else:
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of game %s stopped", gid)
        finally:
            self.bot_tasks.pop(gid, None)

    async def shutdown(self) -> None:
        for task in list(self.bot_tasks.values()):
            task.cancel()
        for task in list(self.bot_tasks.values()):
            with contextlib.suppress(BaseException):
                await task

    # ------------------------------------------------------------ resign, rematch
    async def resign(self, gid: str, side: str, token: str | None) -> Entry:
        async with self.lock(gid):
            ent = self._resign(gid, side, token)
            task = self.bot_tasks.get(gid)
            if task is not None:
                task.cancel()
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
        self.store.set_header(gid, header)
        st.header = header
        resign.apply(ent.game, SIDES[st.game], side)
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
                                f"{st.title} (rematch)"[:200], "play")
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
        if ply != st.ply:
            raise ApiError(409, f"the game has moved on: {st.ply} actions played, "
                                f"you have seen {ply}")
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
