"""Persistence: a game is stored as its record (header and every action), plus seats.

SQLAlchemy 2.x, so the same code runs on an SQLite file (the default, nothing to
install) and on PostgreSQL (``postgresql+psycopg://...``). A snapshot of the state
may be stored beside the record to speed up loading; the record is the truth.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass, field

from sqlalchemy import (
    JSON,
    Float,
    ForeignKey,
    Integer,
    String,
    bindparam,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

SNAPSHOT_EVERY = 100       # store a snapshot of the state every this many actions


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
        Base.metadata.create_all(self.engine)
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        # built once with a bound parameter for every value: a statement built per call
        # costs more to compile and cache-key than the write itself
        where = update(GameRow.__table__).where(GameRow.id == bindparam("gid"),
                                                GameRow.ply == bindparam("expected"))
        cols = {c: bindparam("v_" + c) for c in ("actions", "ply", "state_hash", "updated")}
        self._append = where.values(**cols)
        self._append_snapshot = where.values(**cols, snapshot=bindparam("v_snapshot"),
                                             snapshot_ply=bindparam("v_snapshot_ply"))

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------ writes
    def create(self, game: str, header: dict, actions: list[str], state_hash: str,
               seats: list[Seat], title: str = "", mode: str = "play") -> str:
        gid = secrets.token_urlsafe(9)
        now = time.time()
        with self.session() as s, s.begin():
            s.add(GameRow(id=gid, game=game, header=header, actions=list(actions),
                          ply=len(actions), state_hash=state_hash, snapshot=None,
                          snapshot_ply=-1, title=title, mode=mode, created=now, updated=now))
            s.flush()
            for seat in seats:
                s.add(SeatRow(game_id=gid, side=seat.side, kind=seat.kind, bot=seat.bot,
                              token_hash=seat.token_hash))
        return gid

    def append(self, gid: str, expected_ply: int, actions: list[str], state_hash: str,
               snapshot: dict | None = None) -> None:
        """Store ``actions`` as the whole list, if the stored game still has
        ``expected_ply`` actions; raises Stale otherwise."""
        params: dict = {"gid": gid, "expected": expected_ply, "v_actions": list(actions),
                        "v_ply": len(actions), "v_state_hash": state_hash,
                        "v_updated": time.time()}
        stmt = self._append
        if snapshot is not None:
            stmt = self._append_snapshot
            params.update(v_snapshot=snapshot, v_snapshot_ply=len(actions))
        with self.engine.begin() as conn:
            res = conn.execute(stmt, params)
            if res.rowcount != 1:
                raise Stale(gid)

    def set_header(self, gid: str, header: dict) -> None:
        """Replace a game's header (a resignation is kept there)."""
        with self.session() as s, s.begin():
            row = s.get(GameRow, gid)
            if row is not None:
                row.header = dict(header)

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

    def listing(self, limit: int = 50) -> list[dict]:
        with self.session() as s:
            rows = s.execute(select(GameRow.id, GameRow.game, GameRow.title, GameRow.ply,
                                    GameRow.mode, GameRow.updated)
                             .order_by(GameRow.updated.desc()).limit(limit)).all()
            return [{"id": r.id, "game": r.game, "title": r.title, "ply": r.ply,
                     "mode": r.mode, "updated": r.updated} for r in rows]
