"""``djebel bench serve``: concurrent games played over loopback by scripted clients.

A real server (``djebel serve``, SQLite file in a temporary folder unless a URL is
given) runs in its own process; this process runs the clients, one per game, each
playing both seats of a hot-seat game (no bots, so no bot thinking is measured): it
posts a legal action taken from the view the server last returned, waits for the
answer, pauses ``think`` seconds, and goes on. Latency is the time from sending an
action to reading the whole answer (the new view).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


class Http:
    """A tiny keep-alive HTTP/1.1 client over asyncio streams (JSON in, JSON out)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: dict | None = None,
                      headers: dict | None = None) -> tuple[int, dict]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                f"Content-Length: {len(data)}", "Connection: keep-alive"]
        if body is not None:
            head.append("Content-Type: application/json")
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        chunked = False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            k, _, v = line.decode().partition(":")
            if k.lower() == "content-length":
                length = int(v)
            elif k.lower() == "transfer-encoding" and "chunked" in v:
                chunked = True
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                if size == 0:
                    await self.reader.readline()
                    break
                parts.append(await self.reader.readexactly(size))
                await self.reader.readline()
            raw = b"".join(parts)
        else:
            raw = await self.reader.readexactly(length)
        return status, (json.loads(raw) if raw else {})

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(db: str, port: int) -> subprocess.Popen:
    cmd = [sys.executable, "-c", "from djebel.cli import main; main()", "serve",
           "--host", "127.0.0.1", "--port", str(port), "--db", db, "--bot-delay", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("server died: " + proc.stderr.read().decode()[-1000:])
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


GAMES = (("algeria", "1958", ("fln", "gov")), ("skirmish", "ambush", ("french", "insurgents")),
         ("algeria", "1954", ("fln", "gov")), ("skirmish", "search", ("french", "insurgents")))


async def _client(i: int, port: int, until: float, think: float, lat: list[float],
                  errors: list[str], counts: dict, measure_from: float = 0.0) -> None:
    rng = random.Random(i)
    http = Http("127.0.0.1", port)
    await asyncio.sleep(rng.random() * max(think, 0.05))     # clients do not start in step
    try:
        while time.perf_counter() < until:
            game, scenario, sides = GAMES[i % len(GAMES)]
            status, g = await http.request("POST", "/api/games", {
                "game": game, "scenario": scenario, "seed": rng.randrange(1 << 20),
                "seats": {s: "human" for s in sides}})
            if status != 201:
                errors.append(f"create {status}")
                return
            gid, tokens = g["id"], g["seats"]
            status, view = await http.request("GET", f"/api/games/{gid}",
                                              headers={"X-Seat-Token": tokens[sides[0]]})
            while time.perf_counter() < until and not view.get("over"):
                side = view["active"]
                if view.get("you") != side or not view.get("actions"):
                    status, view = await http.request("GET", f"/api/games/{gid}",
                                                      headers={"X-Seat-Token": tokens[side]})
                    continue
                action = rng.choice(view["actions"])["text"]
                t0 = time.perf_counter()
                status, answer = await http.request(
                    "POST", f"/api/games/{gid}/actions",
                    {"side": side, "action": action, "ply": view["ply"]},
                    {"X-Seat-Token": tokens[side]})
                if t0 >= measure_from:
                    lat.append(time.perf_counter() - t0)
                    counts[game] = counts.get(game, 0) + 1
                if status != 200:
                    errors.append(f"{status}: {answer.get('error', '')[:80]}")
                    break
                view = answer
                nxt = view.get("active")
                if nxt and nxt != side:
                    status, view = await http.request(
                        "GET", f"/api/games/{gid}", headers={"X-Seat-Token": tokens[nxt]})
                if think:
                    await asyncio.sleep(think * (0.5 + rng.random()))
    finally:
        http.close()


def run(games: int = 50, seconds: float = 20.0, db: str | None = None,
        think: float = 0.25, warmup: float = 3.0) -> dict:
    """Play for ``warmup`` + ``seconds``; only actions sent after the warm-up count."""
    tmp = tempfile.TemporaryDirectory(prefix="djebel-bench-")
    url = db or f"sqlite:///{Path(tmp.name) / 'bench.db'}"
    port = _free_port()
    proc = _start_server(url, port)
    try:
        lat: list[float] = []
        errors: list[str] = []
        counts: dict = {}

        async def main() -> float:
            start = time.perf_counter() + warmup
            until = start + seconds
            await asyncio.gather(*(_client(i, port, until, think, lat, errors, counts, start)
                                   for i in range(games)))
            return time.perf_counter() - start

        elapsed = asyncio.run(main())
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        tmp.cleanup()
    lat.sort()

    def pct(p: float) -> float:
        if not lat:
            return float("nan")
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2)

    return {
        "games": games, "seconds": round(elapsed, 2), "warmup_s": warmup, "think_s": think,
        "database": "sqlite (temporary file)" if db is None else db.split("@")[-1],
        "actions": len(lat), "actions_per_s": round(len(lat) / elapsed, 1),
        "actions_by_game": counts,
        "p50_ms": pct(0.50), "p90_ms": pct(0.90), "p99_ms": pct(0.99),
        "max_ms": round(1000 * lat[-1], 2) if lat else None,
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "errors": len(errors), "first_errors": errors[:3],
        "cpus": os.cpu_count(),
    }
