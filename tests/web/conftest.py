from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from server import Server  # noqa: E402
from system import postgres_or_skip  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "djebel.db"
    srv = Server(f"sqlite:///{db}").start()
    srv.db_path = db
    yield srv
    err = srv.stop()
    assert "Traceback" not in err, err


@pytest.fixture(scope="module")
def pg():
    """A throwaway PostgreSQL server (``pg.new_database()`` for a fresh database)."""
    pg = postgres_or_skip()
    yield pg
    pg.stop()
