"""Telling a seat that its turn has come (or that the game is over): a JSON POST to the
webhook it registered, an e-mail through the operator's SMTP server, or both.

Both are off unless the operator turns them on (``djebel serve --webhooks``,
``--smtp HOST:PORT --smtp-from ADDR``). Notices are sent from background tasks, each
with a time limit; a failure is logged, never raised into a request. Each turn change
is told at most once to a seat: the seat's row in the database is claimed for that ply
(a compare-and-set) before anything is sent, whichever process stored the action.

A notice carries the game's link without the seat token, unless the seat asked for its
own link in its notices (then, and only then, the database keeps that link).
"""

from __future__ import annotations

import asyncio
import fnmatch
import ipaddress
import json
import logging
import os
import re
import smtplib
import ssl
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import parseaddr
from urllib.parse import urlsplit

import httpx

from djebel import __version__
from djebel.web.seatdata import Notice, SeatData
from djebel.web.summary import seat_summary

log = logging.getLogger("djebel.web.notices")

SMTP_USER_ENV = "DJEBEL_SMTP_USER"
SMTP_PASSWORD_ENV = "DJEBEL_SMTP_PASSWORD"
WEBHOOK_MAX = 500
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class NoticeConfig:
    """What the operator allows: webhooks (to hosts matching ``webhook_allow``, any host
    when it is empty) and e-mail through ``smtp`` (``HOST:PORT``)."""
    webhooks: bool = False
    webhook_allow: tuple[str, ...] = ()
    smtp: str = ""
    smtp_from: str = ""
    public_url: str = ""
    timeout: float = 10.0

    def to_env(self) -> str:
        """The settings as the text of DJEBEL_NOTICES, for worker processes."""
        return json.dumps({**asdict(self), "webhook_allow": list(self.webhook_allow)})

    @staticmethod
    def from_env(text: str) -> NoticeConfig:
        data = json.loads(text) if text else {}
        data["webhook_allow"] = tuple(data.get("webhook_allow", ()))
        return NoticeConfig(**data)

    @property
    def email(self) -> bool:
        return bool(self.smtp)

    def smtp_address(self) -> tuple[str, int]:
        host, _, port = self.smtp.rpartition(":")
        return host.strip("[]"), int(port)


def check_config(cfg: NoticeConfig) -> None:
    """A ValueError naming the option for a setting that cannot work."""
    if cfg.smtp:
        host, sep, port = cfg.smtp.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"--smtp: {cfg.smtp!r} is not HOST:PORT")
        if not cfg.smtp_from or check_email(cfg.smtp_from) is not None:
            raise ValueError("--smtp needs --smtp-from, a plain e-mail address")
    elif cfg.smtp_from:
        raise ValueError("--smtp-from without --smtp: no server to send through")
    for pattern in cfg.webhook_allow:
        if not pattern or _CONTROL.search(pattern) or "/" in pattern:
            raise ValueError(f"--webhook-allow: {pattern!r} is not a host pattern")
    if cfg.public_url and urlsplit(cfg.public_url).scheme not in ("http", "https"):
        raise ValueError(f"--public-url: {cfg.public_url!r} is not an http(s) address")
    if not 0 < cfg.timeout <= 120:
        raise ValueError("--notice-timeout: between 0 and 120 seconds")


def check_webhook(url: str, cfg: NoticeConfig) -> str | None:
    """Why ``url`` cannot be a seat's webhook; None if it can."""
    if not cfg.webhooks:
        return "this server sends no webhooks (djebel serve --webhooks turns them on)"
    if len(url) > WEBHOOK_MAX or _CONTROL.search(url) or " " in url:
        return f"a webhook is an http(s) address of at most {WEBHOOK_MAX} characters"
    try:
        parts = urlsplit(url)
        host = parts.hostname
        _ = parts.port
    except ValueError:
        return "the webhook is not a valid address"
    if parts.scheme not in ("http", "https") or not host:
        return "a webhook is an http:// or https:// address"
    if cfg.webhook_allow and not any(fnmatch.fnmatchcase(host.lower(), p.lower())
                                     for p in cfg.webhook_allow):
        return f"this server sends webhooks only to {', '.join(cfg.webhook_allow)}"
    return None


def check_email(addr: str) -> str | None:
    """Why ``addr`` cannot be a notice's e-mail address; None if it can."""
    if len(addr) > 254 or _CONTROL.search(addr) or parseaddr(addr)[1] != addr:
        return "not a plain e-mail address (name@example.org)"
    local, at, domain = addr.rpartition("@")
    if not at or not local or "." not in domain.strip(".") or " " in addr or "," in addr:
        return "not a plain e-mail address (name@example.org)"
    return None


class Notifier:
    """Sends the notices of turn changes in the background."""

    def __init__(self, cfg: NoticeConfig, data: SeatData):
        self.cfg = cfg
        self.data = data
        self.tasks: set[asyncio.Task] = set()
        self.sent = 0                       # notices sent without an error

    @property
    def on(self) -> bool:
        return self.cfg.webhooks or self.cfg.email

    def turn_changed(self, ent, acted: str | None) -> None:
        """The action of ``acted`` just stored in ``ent`` gave the turn to another side,
        or ended the game: tell the seat to act now, or at the end every other human
        seat. Returns at once; the sending is a background task."""
        if not self.on or ent.stored.mode != "play":
            return
        try:
            self._schedule(ent, acted)
        except Exception as exc:                  # the action is stored: it stands
            log.warning("notices of game %s not sent: %s", ent.stored.id, _why(exc))

    def _schedule(self, ent, acted: str | None) -> None:
        game = ent.game
        if game.is_over():
            sides = [s for s, seat in ent.stored.seats.items()
                     if seat.kind == "human" and s != acted]
        else:
            seat = ent.stored.seats.get(game.active_side or "")
            sides = [seat.side] if seat is not None and seat.kind == "human" else []
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for side in sides:
            summary = seat_summary(ent, side)
            task = loop.create_task(self._tell(summary))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _tell(self, summary: dict) -> None:
        gid, side = summary["id"], summary["side"]
        try:
            # the end is claimed apart from the turn that began at the same ply (a
            # resignation ends the game without an action): as -2 - ply, since -1 is
            # the "never told" of a new row
            key = -2 - summary["ply"] if summary["over"] else summary["ply"]
            notice = await asyncio.to_thread(self.data.claim_turn, gid, side, key)
            if notice is None:
                return
            body = notice_body(summary, notice, self.cfg.public_url)
            jobs = []
            if notice.webhook and self.cfg.webhooks:
                jobs.append(self._webhook(notice.webhook, body))
            if notice.email and self.cfg.email:
                jobs.append(asyncio.to_thread(self._mail, notice.email, body))
            for outcome in await asyncio.gather(*jobs, return_exceptions=True):
                if isinstance(outcome, BaseException):
                    log.warning("notice to %s of game %s: %s", side, gid, _why(outcome))
                else:
                    self.sent += 1
        except Exception as exc:                  # never into a request, never silent
            log.warning("notice to %s of game %s not sent: %s", side, gid, _why(exc))

    async def _webhook(self, url: str, body: dict) -> None:
        # no redirects: a webhook goes to the address registered (and allowed), only
        async with httpx.AsyncClient(timeout=self.cfg.timeout, follow_redirects=False,
                                     headers={"User-Agent": f"djebel/{__version__}"}) as c:
            r = await c.post(url, json=body)
        if not 200 <= r.status_code < 300:
            raise RuntimeError(f"webhook at {urlsplit(url).hostname} answered "
                               f"{r.status_code}")

    def _mail(self, to: str, body: dict) -> None:
        msg = EmailMessage()
        msg["From"] = self.cfg.smtp_from
        msg["To"] = to
        msg["Subject"] = body["subject"]
        msg["X-Djebel-Game"] = body["game"]["id"]
        msg.set_content(body["text"] + "\n")
        host, port = self.cfg.smtp_address()
        user = os.environ.get(SMTP_USER_ENV, "")
        password = os.environ.get(SMTP_PASSWORD_ENV, "")
        with smtplib.SMTP(host, port, timeout=self.cfg.timeout) as smtp:
            smtp.ehlo()
            secure = False
            if smtp.has_extn("starttls"):
                smtp.starttls(context=ssl.create_default_context())
                smtp.ehlo()
                secure = True
            if user:
                if not secure and not _loopback(host):
                    raise RuntimeError(f"{host} offers no STARTTLS: the SMTP credentials "
                                       "are sent over an encrypted connection only")
                smtp.login(user, password)
            smtp.send_message(msg)

    async def close(self, wait: float = 2.0) -> None:
        """Let the notices under way finish for a moment, then stop them."""
        if self.tasks:
            _, pending = await asyncio.wait(list(self.tasks), timeout=wait)
            for task in pending:
                task.cancel()


def notice_body(summary: dict, notice: Notice, public_url: str = "") -> dict:
    """What a notice says: a JSON object (the webhook's body), with the subject and text
    of the e-mail. The seat token only in the seat's own link, when it asked for it."""
    origin = (public_url or notice.origin).rstrip("/")
    gid, side = summary["id"], summary["side"]
    link = notice.seat_link if notice.with_link and notice.seat_link else f"{origin}/g/{gid}"
    title = _CONTROL.sub(" ", summary["title"])[:200]
    event = "over" if summary["over"] else "turn"
    if event == "over":
        res = summary["result"] or {}
        subject = f"djebel: {title} is over"
        head = f"The game {title} is over: {(res.get('winner') or 'draw').upper()} " \
               f"{res.get('level', '')}".rstrip() + "."
    else:
        subject = f"djebel: your turn in {title} ({side.upper()})"
        head = f"It is your turn ({side.upper()}) in {title}."
    lines = [head]
    if summary["last_action"]:
        lines.append(f"Last action: {summary['last_action']}")
    if summary["last_event"]:
        lines.append(f"Last in the log: {summary['last_event']}")
    lines += [f"Actions played: {summary['ply']}", "", f"Play: {link}"]
    return {"event": event, "game": {"id": gid, "kind": summary["game"], "title": title},
            "side": side, "to_act": summary["active"], "ply": summary["ply"],
            "over": summary["over"], "result": summary["result"],
            "last_action": summary["last_action"], "last_event": summary["last_event"],
            "link": link, "subject": subject, "text": "\n".join(lines)}


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _why(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"[:300] if text else type(exc).__name__
