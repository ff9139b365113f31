"""System packages for the web tests: Debian's Chromium and PostgreSQL.

``ensure_packages()`` installs them once (``apt-get``) when this is possible (root
with apt, or CI=true), under a lock file so parallel test workers do not race.
``postgres_url()`` starts a throwaway PostgreSQL server on 127.0.0.1 as the
``postgres`` user and returns its URL. Tests that cannot have either skip, saying why.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
LOCK = Path(tempfile.gettempdir()) / "djebel-web-tests-apt.lock"
MARK = Path(tempfile.gettempdir()) / "djebel-web-tests-apt.done"
PACKAGES = ("chromium", "postgresql")


def _pg_bin() -> Path | None:
    for d in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / "initdb").exists() and (d / "pg_ctl").exists():
            return d
    return None


def _have_all() -> bool:
    return Path(CHROMIUM).exists() and _pg_bin() is not None


def _can_install() -> tuple[bool, str]:
    if shutil.which("apt-get") is None:
        return False, "apt-get is not available on this machine"
    if os.geteuid() != 0 and os.environ.get("CI") != "true":
        return False, "installing Debian packages needs root (or CI=true with sudo rights)"
    return True, ""


def ensure_packages() -> str | None:
    """Install Chromium and PostgreSQL if missing; returns None, or why they are missing."""
    if _have_all():
        return None
    ok, why = _can_install()
    if not ok:
        return f"{', '.join(PACKAGES)} not installed and {why}"
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if _have_all():
                return None
            if MARK.exists() and MARK.read_text().startswith("failed"):
                return MARK.read_text()
            sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            for cmd in (["apt-get", "update", "-q"],
                        ["apt-get", "install", "-y", "-q", *PACKAGES]):
                res = subprocess.run(sudo + cmd, capture_output=True, text=True, env=env,
                                     timeout=1800)
                if res.returncode != 0:
                    why = (f"failed: {' '.join(cmd)} exited {res.returncode}: "
                           f"{(res.stderr or res.stdout).strip()[-400:]}")
                    MARK.write_text(why)
                    return why
            MARK.write_text("installed")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return None if _have_all() else "apt-get ran but Chromium or PostgreSQL is still missing"


def chromium_or_skip() -> str:
    why = ensure_packages()
    if why is not None or not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium for the browser tests: {why}")
    return CHROMIUM


CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


class Postgres:
    """A throwaway PostgreSQL cluster on 127.0.0.1, owned by the ``postgres`` user."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="djebel-pg-"))
        self.port = 0
        self.url = ""

    def _as_postgres(self, args: list[str], **kw):
        cmd = ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)

    def start(self) -> str:
        from server import free_port

        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        data = self.dir / "data"
        res = self._as_postgres([str(self.bin / "initdb"), "-D", str(data), "-U", "postgres",
                                 "-A", "trust", "--no-sync", "-E", "UTF8"])
        if res.returncode != 0:
            raise RuntimeError(f"initdb failed: {res.stderr[-400:]}")
        self.port = free_port()
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                f"-c unix_socket_directories={self.dir} -c fsync=off")
        res = self._as_postgres([str(self.bin / "pg_ctl"), "-D", str(data), "-o", opts,
                                 "-l", str(self.dir / "log"), "-w", "-t", "60", "start"])
        if res.returncode != 0:
            log = (self.dir / "log").read_text() if (self.dir / "log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {res.stderr[-300:]} {log[-300:]}")
        atexit.register(self.stop)
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        deadline = time.time() + 30
        import psycopg
        while True:
            try:
                psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres "
                                "dbname=postgres", connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        return self.url

    def new_database(self) -> str:
        """The URL of a fresh, empty database on this server."""
        import random

        import psycopg
        name = f"t{random.randrange(1 << 30)}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.port:
            self._as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"),
                               "-m", "immediate", "-w", "stop"])
            self.port = 0
        shutil.rmtree(self.dir, ignore_errors=True)


def postgres_or_skip() -> Postgres:
    why = ensure_packages()
    if why is not None or _pg_bin() is None:
        pytest.skip(f"no PostgreSQL for the storage tests: {why}")
    pg = Postgres()
    try:
        pg.start()
    except Exception as exc:
        pg.stop()
        pytest.skip(f"PostgreSQL would not start: {exc}")
    return pg
