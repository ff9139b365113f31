"""The API of a game played over days: the summaries of the seats a browser holds (the
tokens in the request body, never in an address), each seat's notice addresses, the
players' chat and each seat's private notepad.

Who may do what: the chat is read by anyone who can watch the game (it is table talk,
like the board and the log) and written only by a human seat; a notepad and the notice
addresses of a seat are read and written only with that seat's token.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Annotated

from fastapi import FastAPI, Header, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from djebel.web.notices import Notifier, check_email, check_webhook
from djebel.web.seatdata import CHAT_MAX, NOTEPAD_MAX, Notice, SeatData
from djebel.web.service import ApiError, Service
from djebel.web.storage import hash_token
from djebel.web.summary import seat_summary

GameId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_\-]{1,32}$")]
Token = Annotated[str | None, Header(alias="X-Seat-Token", max_length=200)]
TOKENS_MAX = 50            # seats summarized in one request
CHAT_RATE = (20, 60.0)     # at most this many messages of a seat in this many seconds
SeatToken = Annotated[str, Field(min_length=1, max_length=200)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatTokens(Strict):
    tokens: list[SeatToken] = Field(max_length=TOKENS_MAX,
                                    description="seat tokens this browser holds")


class ChatPost(Strict):
    text: str = Field(min_length=1, max_length=CHAT_MAX)


class NotepadText(Strict):
    text: str = Field(max_length=NOTEPAD_MAX)


class NoticeAddresses(Strict):
    webhook: str = Field(default="", max_length=500,
                         description="http(s) address that gets a JSON POST on your turn")
    email: str = Field(default="", max_length=254)
    seat_link: bool = Field(default=False, description="put this seat's own secret link "
                            "in the notices (the server then keeps it); else the game's "
                            "link without the token")


def add_routes(app: FastAPI, service: Service, data: SeatData, notifier: Notifier) -> None:
    posted: dict[tuple[str, str], deque] = {}
    pushed: set[int] = set()        # chat messages this process took and pushed itself

    def seat(gid: str, token: str | None, what: str) -> tuple[object, str]:
        ent = service.entry(gid)
        side = service.seat_of(ent, token)
        if side is None:
            raise ApiError(403, f"{what} needs this game's seat link")
        return ent, side

    @app.post("/api/seats")
    async def my_seats(body: SeatTokens) -> dict:
        """The game of each seat token (in the order given), or null for a token of no
        seat: whose turn it is, the last action, the result."""
        hashes = [hash_token(t) for t in body.tokens]
        found = data.seats_of(list(set(hashes)))
        out = []
        for h in hashes:
            hit = found.get(h)
            if hit is None:
                out.append(None)
                continue
            try:
                ent = service.entry(hit[0])
            except ApiError:
                out.append(None)
                continue
            out.append(seat_summary(ent, hit[1]))
        return {"seats": out}

    # ------------------------------------------------------------ chat
    @app.get("/api/games/{gid}/chat")
    async def read_chat(gid: GameId,
                        after: Annotated[int, Query(ge=0, le=2**62)] = 0) -> dict:
        """The players' messages after message ``after`` (anyone watching may read)."""
        service.entry(gid)
        return {"messages": data.chat(gid, after), "max": CHAT_MAX}

    @app.post("/api/games/{gid}/chat", status_code=201)
    async def write_chat(gid: GameId, body: ChatPost, x_seat_token: Token = None) -> dict:
        """A message from a seat of the game, pushed to everyone watching it."""
        _ent, side = seat(gid, x_seat_token, "writing in the chat")
        text = clean(body.text)
        if not text:
            raise ApiError(400, "an empty message")
        limit, window = CHAT_RATE
        now = time.monotonic()
        times = posted.setdefault((gid, side), deque())
        while times and now - times[0] > window:
            times.popleft()
        if len(times) >= limit:
            raise ApiError(429, f"at most {limit} messages a minute")
        times.append(now)
        if len(posted) > 10_000:
            posted.clear()
        msg = data.post(gid, side, text)
        pushed.add(msg["id"])
        if len(pushed) > 10_000:
            pushed.clear()
        await service.hub.publish(gid, {"type": "chat", "message": msg})
        return msg

    async def heard_chat(gid: str, ident: int) -> None:
        """A message taken by any process sharing the database (PostgreSQL), pushed to
        this process's watchers unless it took it itself (and pushed it then)."""
        if ident in pushed:
            pushed.discard(ident)
            return
        if gid not in service.hub.watchers:
            return
        msg = data.message(gid, ident)
        if msg is not None:
            await service.hub.publish(gid, {"type": "chat", "message": msg})

    service.live["chat"] = heard_chat

    # ------------------------------------------------------------ notepad
    @app.get("/api/games/{gid}/notepad")
    async def read_notepad(gid: GameId, x_seat_token: Token = None) -> dict:
        """The seat's private notes (only with its token)."""
        _ent, side = seat(gid, x_seat_token, "a notepad")
        return {"side": side, **data.notepad(gid, side)}

    @app.put("/api/games/{gid}/notepad")
    async def write_notepad(gid: GameId, body: NotepadText,
                            x_seat_token: Token = None) -> dict:
        _ent, side = seat(gid, x_seat_token, "a notepad")
        text = body.text.replace("\x00", "")          # PostgreSQL text holds no NUL
        return {"side": side, **data.write_notepad(gid, side, text)}

    # ------------------------------------------------------------ notices
    def available() -> dict:
        return {"webhook": notifier.cfg.webhooks, "email": notifier.cfg.email}

    @app.get("/api/games/{gid}/notices")
    async def read_notices(gid: GameId, x_seat_token: Token = None) -> dict:
        """Where the seat is told of its turn, and which ways this server offers."""
        _ent, side = seat(gid, x_seat_token, "the notices of a seat")
        return {"side": side, **data.notice(gid, side).public(), "available": available()}

    @app.put("/api/games/{gid}/notices")
    async def write_notices(gid: GameId, body: NoticeAddresses, request: Request,
                            x_seat_token: Token = None) -> dict:
        """Register (or, with empty strings, remove) the seat's webhook and e-mail."""
        _ent, side = seat(gid, x_seat_token, "the notices of a seat")
        hook, mail = body.webhook.strip(), body.email.strip()
        if hook:
            why = check_webhook(hook, notifier.cfg)
            if why:
                raise ApiError(400, f"webhook: {why}")
        if mail:
            if not notifier.cfg.email:
                raise ApiError(400, "email: this server sends no e-mail "
                                    "(djebel serve --smtp HOST:PORT --smtp-from ADDR)")
            why = check_email(mail)
            if why:
                raise ApiError(400, f"email: {why}")
        origin = notifier.cfg.public_url.rstrip("/") or str(request.base_url).rstrip("/")
        link = f"{origin}/g/{gid}#seat={x_seat_token}" if body.seat_link else ""
        data.set_notice(gid, side, Notice(hook, mail, origin, body.seat_link, link))
        return {"side": side, **data.notice(gid, side).public(), "available": available()}


def clean(text: str) -> str:
    """A message as shown: line ends as newlines, no other control characters, no
    blank lines or spaces around it."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(ch for ch in text if ch == "\n" or (ch >= " " and ch != "\x7f"))
    return text.strip()[:CHAT_MAX]
