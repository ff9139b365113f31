"""A real djebel server in a child process, on loopback, for the web tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db_url: str, bot_delay: float = 0.0, workers: int = 1,
                 args: tuple[str, ...] = (), env: dict | None = None):
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.workers = workers
        self.args = tuple(args)            # more options of djebel serve
        self.env = env or {}
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        cmd = [sys.executable, "-c", "from djebel.cli import main; main()", "serve",
               "--host", "127.0.0.1", "--port", str(self.port), "--db", self.db_url,
               "--bot-delay", str(self.bot_delay), "--workers", str(self.workers),
               *self.args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     env=dict(os.environ, PYTHONUNBUFFERED="1", **self.env))
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server died: " + self.proc.stderr.read().decode()[-2000:])
            try:
                if httpx.get(self.url + "/api/meta", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> str:
        """Stop the server; returns what it wrote on stderr."""
        if self.proc is None:
            return ""
        self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        self.proc = None
        return err.decode(errors="replace")

    def kill(self) -> None:
        """Stop abruptly, the way a crash or a power cut would."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.communicate()
            self.proc = None

    def restart(self) -> Server:
        self.stop()
        return self.start()
