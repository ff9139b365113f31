"""What the seats of a game keep besides the game: its chat, each seat's private notepad
and where each seat wants to be told that its turn has come.

Tables of their own (``create_all`` makes them beside the games', in SQLite as in
PostgreSQL), so that a database written before they existed is used as it is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, declared_attr, mapped_column

from djebel.web.storage import Base, SeatRow, Store

CHAT_MAX = 1000            # characters in one chat message
NOTEPAD_MAX = 10_000       # characters in a seat's notepad
CHAT_KEPT = 5000           # messages a game keeps; the oldest go first
CHAT_SHOWN = 200           # messages answered at once


class ChatRow(Base):
    __tablename__ = "djebel_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("djebel_games.id"), index=True)
    side: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float, default=time.time)


class PerSeat:
    """A row of one seat of one game."""

    @declared_attr.directive
    def __table_args__(cls) -> tuple:
        return (UniqueConstraint("game_id", "side"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("djebel_games.id"))
    side: Mapped[str] = mapped_column(String(16))


class NotepadRow(PerSeat, Base):
    __tablename__ = "djebel_notepads"

    text: Mapped[str] = mapped_column(Text, default="")
    updated: Mapped[float] = mapped_column(Float, default=time.time)


class NoticeRow(PerSeat, Base):
    __tablename__ = "djebel_notices"

    webhook: Mapped[str] = mapped_column(String(500), default="")
    email: Mapped[str] = mapped_column(String(254), default="")
    origin: Mapped[str] = mapped_column(String(300), default="")   # the page's address
    # the seat's own link, kept only when the seat asked for it in its notices
    seat_link: Mapped[str] = mapped_column(String(600), default="")
    with_link: Mapped[bool] = mapped_column(Boolean, default=False)
    notified_ply: Mapped[int] = mapped_column(Integer, default=-1)


TABLES = [ChatRow.__table__, NotepadRow.__table__, NoticeRow.__table__]


@dataclass
class Notice:
    """Where a seat is told of its turn."""
    webhook: str = ""
    email: str = ""
    origin: str = ""
    with_link: bool = False
    seat_link: str = ""

    def public(self) -> dict:
        """What the seat is shown of its own registration (never its link)."""
        return {"webhook": self.webhook, "email": self.email, "seat_link": self.with_link}


class SeatData:
    """Chat, notepads and notice addresses, in the games' database."""

    def __init__(self, store: Store):
        self.store = store
        self.session = store.session
        Base.metadata.create_all(store.engine, tables=TABLES)

    # ------------------------------------------------------------ seats by token
    def seats_of(self, hashes: list[str]) -> dict[str, tuple[str, str]]:
        """Token hash -> (game id, side) of the human seats among ``hashes``."""
        if not hashes:
            return {}
        with self.session() as s:
            rows = s.execute(select(SeatRow.token_hash, SeatRow.game_id, SeatRow.side)
                             .where(SeatRow.kind == "human",
                                    SeatRow.token_hash.in_(hashes))).all()
        return {r.token_hash: (r.game_id, r.side) for r in rows}

    # ------------------------------------------------------------ chat
    def post(self, gid: str, side: str, text: str) -> dict:
        with self.session() as s, s.begin():
            row = ChatRow(game_id=gid, side=side, text=text, at=time.time())
            s.add(row)
            s.flush()
            out = _message(row)
            self.store.announce(s, "chat", gid, row.id)     # to the other processes
            count = s.scalar(select(func.count()).select_from(ChatRow)
                             .where(ChatRow.game_id == gid))
            if count > CHAT_KEPT:
                old = s.scalars(select(ChatRow.id).where(ChatRow.game_id == gid)
                                .order_by(ChatRow.id).limit(count - CHAT_KEPT)).all()
                s.execute(delete(ChatRow).where(ChatRow.id.in_(old)))
        return out

    def message(self, gid: str, ident: int) -> dict | None:
        """One chat message of a game by its number, or None (gone, or another game's)."""
        with self.session() as s:
            row = s.get(ChatRow, ident)
        return _message(row) if row is not None and row.game_id == gid else None

    def chat(self, gid: str, after: int = 0) -> list[dict]:
        """The last CHAT_SHOWN messages after message ``after``, oldest first."""
        with self.session() as s:
            rows = s.scalars(select(ChatRow).where(ChatRow.game_id == gid, ChatRow.id > after)
                             .order_by(ChatRow.id.desc()).limit(CHAT_SHOWN)).all()
        return [_message(r) for r in reversed(rows)]

    # ------------------------------------------------------------ notepads
    def notepad(self, gid: str, side: str) -> dict:
        with self.session() as s:
            row = s.scalars(select(NotepadRow).where(NotepadRow.game_id == gid,
                                                     NotepadRow.side == side)).first()
        return {"text": row.text if row else "", "updated": row.updated if row else None}

    def write_notepad(self, gid: str, side: str, text: str) -> dict:
        now = time.time()
        self._upsert(NotepadRow, gid, side, text=text, updated=now)
        return {"text": text, "updated": now}

    # ------------------------------------------------------------ notices
    def notice(self, gid: str, side: str) -> Notice:
        with self.session() as s:
            row = s.scalars(select(NoticeRow).where(NoticeRow.game_id == gid,
                                                    NoticeRow.side == side)).first()
        if row is None:
            return Notice()
        return Notice(row.webhook, row.email, row.origin, row.with_link, row.seat_link)

    def set_notice(self, gid: str, side: str, notice: Notice) -> None:
        self._upsert(NoticeRow, gid, side, webhook=notice.webhook, email=notice.email,
                     origin=notice.origin, with_link=notice.with_link,
                     seat_link=notice.seat_link if notice.with_link else "")

    def claim_turn(self, gid: str, side: str, ply: int) -> Notice | None:
        """The seat's notice addresses if it is to be told of the turn that began at
        ``ply`` and nobody has told it yet (any process, any time): the claim is a
        compare-and-set in the database, so a turn is told once."""
        with self.session() as s, s.begin():
            res = s.execute(update(NoticeRow)
                            .where(NoticeRow.game_id == gid, NoticeRow.side == side,
                                   NoticeRow.notified_ply != ply,
                                   (NoticeRow.webhook != "") | (NoticeRow.email != ""))
                            .values(notified_ply=ply))
            if res.rowcount != 1:
                return None
        return self.notice(gid, side)

    def _upsert(self, table, gid: str, side: str, **values) -> None:
        for attempt in range(2):
            try:
                with self.session() as s, s.begin():
                    row = s.scalars(select(table).where(table.game_id == gid,
                                                        table.side == side)).first()
                    if row is None:
                        s.add(table(game_id=gid, side=side, **values))
                    else:
                        for k, v in values.items():
                            setattr(row, k, v)
                return
            except IntegrityError:           # written at the same moment by another request
                if attempt:
                    raise


def _message(row: ChatRow) -> dict:
    return {"id": row.id, "side": row.side, "text": row.text, "at": row.at}
