"""What every request and answer passes through: a size limit on request bodies, read as
they arrive, and the headers that keep the page's scripts its own.

Both are plain ASGI middleware, so that they see every answer (static files and errors
included) and can refuse a body before the app reads any of it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

MAX_BODY = 64 * 1024            # bytes: a created game, an action
MAX_RECORD_BODY = 1024 * 1024   # bytes: an uploaded record (a long game is ~10 KB)

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",      # seat tokens live in the page's address
    "cross-origin-opener-policy": "same-origin",
}
_RAW = [(k.encode(), v.encode()) for k, v in HEADERS.items()]


def body_limit(path: str) -> int:
    return MAX_RECORD_BODY if path == "/api/records" else MAX_BODY


class SecurityHeaders:
    """Adds HEADERS to every HTTP answer that does not set them itself."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k, v) for k, v in _RAW if k not in have)]
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuses, with 413, a request body over its route's limit: at once when its
    Content-Length says so, else as soon as the bytes read pass the limit. The app gets
    the body whole (at most the limit is ever held in memory)."""

    def __init__(self, app, limit: Callable[[str], int] = body_limit):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(scope.get("path", ""))
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or len(declared) > 18:
                await _error(send, 400, "the Content-Length header is not a number")
                return
            if int(declared) > limit:
                await _too_large(send, limit)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _too_large(send, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay():
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(send, limit: int) -> None:
    await _error(send, 413, f"request body over {limit} bytes", close=True)


async def _error(send, status: int, message: str, close: bool = False) -> None:
    """An answer in the API's error shape, sent before the app has seen the request."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
