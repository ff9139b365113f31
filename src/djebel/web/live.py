"""Live updates: one hub of WebSocket watchers per game."""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict


class Hub:
    def __init__(self) -> None:
        self.watchers: dict[str, set] = defaultdict(set)

    def join(self, gid: str, ws) -> None:
        self.watchers[gid].add(ws)

    def leave(self, gid: str, ws) -> None:
        group = self.watchers.get(gid)
        if group is not None:
            group.discard(ws)
            if not group:
                del self.watchers[gid]

    async def publish(self, gid: str, message: dict) -> None:
        group = list(self.watchers.get(gid, ()))
        if not group:
            return

        async def send(ws) -> None:
            try:
                await asyncio.wait_for(ws.send_json(message), timeout=5)
            except Exception:
                self.leave(gid, ws)
                with contextlib.suppress(Exception):
                    await ws.close()

        await asyncio.gather(*(send(ws) for ws in group))
