"""Persistence: a game is stored as its record (header and every action), plus seats.

SQLAlchemy 2.x, so the same code runs on an SQLite file (the default, nothing to
install) and on PostgreSQL (``postgresql+psycopg://...``). A snapshot of the state
may be stored beside the record to speed up loading; the record is the truth.

Each write is a compare-and-set on the stored ply, so two server processes can never
both store an action after the same ply. On PostgreSQL the write also sends
``NOTIFY djebel, 'ID PLY HASH'`` in its transaction (delivered on commit), which every
server process listens to (``djebel.web.cluster``).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass, field

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    bindparam,
    create_engine,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

SNAPSHOT_EVERY = 100       # store a snapshot of the state every this many actions
CHANNEL = "djebel"         # the PostgreSQL NOTIFY channel of stored actions
LIVE = "djebel_live"       # the channel of other live notices: 'KIND GAME ID' (a chat line)
SCHEMA_LOCK = 0x646A6562   # advisory lock key taken while the tables are created


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "djebel_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    header: Mapped[dict] = mapped_column(JSON)
    actions: Mapped[list] = mapped_column(JSON)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    state_hash: Mapped[str] = mapped_column(String(64), default="")
    snapshot: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    snapshot_ply: Mapped[int] = mapped_column(Integer, default=-1)
    title: Mapped[str] = mapped_column(String(200), default="")
    mode: Mapped[str] = mapped_column(String(16), default="play")   # play | replay
    created: Mapped[float] = mapped_column(Float, default=time.time)
    updated: Mapped[float] = mapped_column(Float, default=time.time)
    # a bot is to act: the games a starting server resumes without waiting for a visitor
    bot_to_act: Mapped[bool] = mapped_column(Boolean, default=False, index=True)


class SeatRow(Base):
    __tablename__ = "djebel_seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("djebel_games.id"), index=True)
    side: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16))          # human | bot
    bot: Mapped[str] = mapped_column(String(16), default="")
    token_hash: Mapped[str] = mapped_column(String(64), default="", index=True)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    side: str
    kind: str
    bot: str = ""
    token_hash: str = ""


@dataclass
class StoredGame:
    id: str
    game: str
    header: dict
    actions: list[str]
    ply: int
    state_hash: str
    snapshot: dict | None
    snapshot_ply: int
    title: str
    mode: str
    created: float
    updated: float
    seats: dict[str, Seat] = field(default_factory=dict)


class Stale(Exception):
    """The game moved on since the writer read it."""


def _add_missing_columns(conn) -> None:
    """A database written by an older djebel lacks ``bot_to_act``: add it, true, so the
    next start looks at every old game once."""
    if "bot_to_act" not in {c["name"] for c in inspect(conn).get_columns("djebel_games")}:
        conn.execute(text("ALTER TABLE djebel_games ADD COLUMN bot_to_act BOOLEAN "
                          "NOT NULL DEFAULT TRUE"))


def default_url(path: str = "djebel.db") -> str:
    return f"sqlite:///{path}"


class Store:
    """The games and their seats in one database."""

    def __init__(self, url: str):
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://"):]
        self.url = url
        kw: dict = {}
        if url.startswith("sqlite"):
            kw["connect_args"] = {"check_same_thread": False}
        self.engine = create_engine(url, **kw)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _pragmas(conn, _record):  # pragma: no cover - trivial
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        self.postgres = self.engine.dialect.name == "postgresql"
        with self.engine.begin() as conn:
            if self.postgres:      # server processes starting together: one at a time
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK})
            Base.metadata.create_all(conn)
            _add_missing_columns(conn)
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        # built once with a bound parameter for every value: a statement built per call
        # costs more to compile and cache-key than the write itself
        cols = {c: bindparam("v_" + c)
                for c in ("actions", "ply", "state_hash", "updated", "bot_to_act")}
        snap = {"snapshot": bindparam("v_snapshot"), "snapshot_ply": bindparam("v_snapshot_ply")}
        self._appends = {}
        for with_hash in (False, True):
            where = update(GameRow.__table__).where(GameRow.id == bindparam("gid"),
                                                    GameRow.ply == bindparam("expected"))
            if with_hash:
                where = where.where(GameRow.state_hash == bindparam("expected_hash"))
            self._appends[with_hash, False] = where.values(**cols)
            self._appends[with_hash, True] = where.values(**cols, **snap)
        self._notify = text("SELECT pg_notify(:channel, :payload)")

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------ writes
    def create(self, game: str, header: dict, actions: list[str], state_hash: str,
               seats: list[Seat], title: str = "", mode: str = "play",
               bot_to_act: bool = False) -> str:
        gid = secrets.token_urlsafe(9)
        now = time.time()
        with self.session() as s, s.begin():
            s.add(GameRow(id=gid, game=game, header=header, actions=list(actions),
                          ply=len(actions), state_hash=state_hash, snapshot=None,
                          snapshot_ply=-1, title=title, mode=mode, created=now, updated=now,
                          bot_to_act=bot_to_act))
            s.flush()
            for seat in seats:
                s.add(SeatRow(game_id=gid, side=seat.side, kind=seat.kind, bot=seat.bot,
                              token_hash=seat.token_hash))
        return gid

    def append(self, gid: str, expected_ply: int, actions: list[str], state_hash: str,
               snapshot: dict | None = None, bot_to_act: bool = False,
               expected_hash: str | None = None) -> None:
        """Store ``actions`` as the whole list, if the stored game still has
        ``expected_ply`` actions (and, if given, the state hash ``expected_hash``: after
        an undo and a new action the ply alone does not tell two games apart); raises
        Stale otherwise."""
        params: dict = {"gid": gid, "expected": expected_ply, "v_actions": list(actions),
                        "v_ply": len(actions), "v_state_hash": state_hash,
                        "v_updated": time.time(), "v_bot_to_act": bot_to_act,
                        "expected_hash": expected_hash}
        if snapshot is not None:
            params.update(v_snapshot=snapshot, v_snapshot_ply=len(actions))
        stmt = self._appends[expected_hash is not None, snapshot is not None]
        with self.engine.begin() as conn:
            res = conn.execute(stmt, params)
            if res.rowcount != 1:
                raise Stale(gid)
            if self.postgres:
                conn.execute(self._notify, {"channel": CHANNEL, "payload":
                                            f"{gid} {len(actions)} {state_hash}"})

    def announce(self, conn, kind: str, gid: str, ident: int) -> None:
        """Tell every process sharing the database (PostgreSQL; delivered when the
        transaction of ``conn`` commits) of a live notice ``kind`` number ``ident`` of a
        game, which each then reads and pushes to its own watchers (``cluster``)."""
        if self.postgres:
            conn.execute(self._notify, {"channel": LIVE, "payload": f"{kind} {gid} {ident}"})

    def set_bot_to_act(self, gid: str, ply: int, value: bool) -> None:
        """Mark whether a bot is to act, if the stored game still has ``ply`` actions."""
        with self.engine.begin() as conn:
            conn.execute(update(GameRow).where(GameRow.id == gid, GameRow.ply == ply)
                         .values(bot_to_act=value))

    def set_header(self, gid: str, header: dict, notice: tuple[str, int] | None = None) -> None:
        """Replace a game's header (a resignation is kept there), announcing ``notice``
        (kind, number) to the other processes with it."""
        with self.session() as s, s.begin():
            row = s.get(GameRow, gid)
            if row is not None:
                row.header = dict(header)
                if notice is not None:
                    self.announce(s, notice[0], gid, notice[1])

    def set_seat(self, gid: str, side: str, kind: str, bot: str = "",
                 token_hash: str = "") -> None:
        with self.session() as s, s.begin():
            row = s.scalars(select(SeatRow).where(SeatRow.game_id == gid,
                                                  SeatRow.side == side)).first()
            if row is None:
                s.add(SeatRow(game_id=gid, side=side, kind=kind, bot=bot,
                              token_hash=token_hash))
            else:
                row.kind, row.bot, row.token_hash = kind, bot, token_hash

    # ------------------------------------------------------------ reads
    def load(self, gid: str) -> StoredGame | None:
        with self.session() as s:
            row = s.get(GameRow, gid)
            if row is None:
                return None
            seats = s.scalars(select(SeatRow).where(SeatRow.game_id == gid)).all()
            return StoredGame(
                row.id, row.game, dict(row.header), list(row.actions), row.ply,
                row.state_hash, row.snapshot, row.snapshot_ply, row.title, row.mode,
                row.created, row.updated,
                {st.side: Seat(st.side, st.kind, st.bot, st.token_hash) for st in seats})

    def bot_games(self, limit: int = 10_000) -> list[str]:
        """The games in which a bot is to act, longest waiting first."""
        with self.session() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.bot_to_act.is_(True))
                                  .order_by(GameRow.updated).limit(limit)))

    def listing(self, limit: int = 50) -> list[dict]:
        with self.session() as s:
            rows = s.execute(select(GameRow.id, GameRow.game, GameRow.title, GameRow.ply,
                                    GameRow.mode, GameRow.updated)
                             .order_by(GameRow.updated.desc()).limit(limit)).all()
            return [{"id": r.id, "game": r.game, "title": r.title, "ply": r.ply,
                     "mode": r.mode, "updated": r.updated} for r in rows]
