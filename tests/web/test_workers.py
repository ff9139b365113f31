"""More than one server process on one PostgreSQL database: live updates reach the
watchers of every process, one process at a time drives a game's bots, a process
killed mid-game (or cut from the database) loses nothing, and two actions at the same
ply are one success and one 409 whichever processes they reach."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import httpx
import psycopg
from bot_games import GAMES, actions_of, create, listed_ply, uninterrupted, wait_ply
from server import Server

from djebel.web.cluster import BOT_LOCKS


def _drivers(url: str, gid: str) -> list[int]:
    """The process ids (of server processes) holding the bot lock of ``gid``."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
            "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.classid = %s AND l.objsubid = 2 "
            "AND l.objid::bigint = (hashtext(%s)::bigint + 4294967296) %% 4294967296",
            (BOT_LOCKS, gid)).fetchall()
    return [int(name.split()[1]) for (name,) in rows]


def _listeners(url: str, n: int) -> set[int]:
    """The process ids of the server processes connected to the database (at least n)."""
    deadline = time.time() + 30
    while True:
        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT application_name FROM pg_stat_activity "
                                "WHERE application_name LIKE 'djebel %'").fetchall()
        pids = {int(name.split()[1]) for (name,) in rows}
        if len(pids) >= n:
            return pids
        assert time.time() < deadline, pids
        time.sleep(0.1)


class Watcher(threading.Thread):
    """A page watching a game over WebSocket: the plies it is told of."""

    def __init__(self, url: str, gid: str):
        super().__init__(daemon=True)
        self.url = url.replace("http", "ws") + f"/api/games/{gid}/ws"
        self.plies: list[int] = []
        self.chat: list[dict] = []          # the chat messages it is pushed
        self.over: list[bool] = []          # whether the game is over, at each update
        self.ready = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        from websockets.sync.client import connect
        with connect(self.url, open_timeout=10) as ws:
            self.plies.append(json.loads(ws.recv(timeout=10))["ply"])
            self.ready.set()
            while not self.stop.is_set():
                try:
                    msg = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    continue
                except Exception:
                    return
                if msg.get("type") == "chat":
                    self.chat.append(msg["message"])
                else:
                    self.plies.append(msg["ply"])
                    self.over.append(msg["over"])


def test_serve_refuses_several_workers_on_sqlite(tmp_path):
    res = subprocess.run([sys.executable, "-m", "djebel.cli", "serve", "--workers", "2",
                          "--db", f"sqlite:///{tmp_path / 'x.db'}"],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2
    assert "--workers 2 needs PostgreSQL" in res.stdout and "Traceback" not in res.stderr
    assert not (tmp_path / "x.db").exists()


def test_two_processes_share_live_updates_and_one_drives_the_bots_until_killed(pg):
    url = pg.new_database()
    game, scenario, seed, seats = GAMES["algeria"]
    want = uninterrupted(game, scenario, seed, seats)
    servers = [Server(url, bot_delay=0.02).start(), Server(url, bot_delay=0.02).start()]
    watcher = None
    try:
        with httpx.Client(base_url=servers[0].url, timeout=30) as c:
            gid = create(c, game, scenario, seed, seats)
            wait_ply(c, gid, 10)
        assert _listeners(url, 2) == {s.proc.pid for s in servers}
        (driver,) = _drivers(url, gid)              # exactly one process drives the bots
        drives = next(s for s in servers if s.proc.pid == driver)
        other = next(s for s in servers if s is not drives)
        watcher = Watcher(other.url, gid)
        watcher.start()
        assert watcher.ready.wait(10)
        with httpx.Client(base_url=other.url, timeout=30) as c:
            killed_at = wait_ply(c, gid, watcher.plies[0] + 30)
        told = list(watcher.plies)
        # the watcher of the other process heard of the driver's moves (LISTEN/NOTIFY)
        assert len(told) >= 10 and told == sorted(told) and told[-1] > told[0]
        assert _drivers(url, gid) == [driver]
        drives.kill()                               # SIGKILL, mid-game
        with httpx.Client(base_url=other.url, timeout=30) as c:
            wait_ply(c, gid, len(want))
            assert actions_of(c, gid) == want       # nothing lost, nothing changed
            assert c.get(f"/api/games/{gid}").json()["over"] is True
        assert killed_at < len(want)
        time.sleep(0.3)
        # the survivor drove the rest, and its own watcher saw it to the end
        assert watcher.plies[-1] == len(want)
        assert watcher.plies == sorted(watcher.plies)
    finally:
        if watcher is not None:
            watcher.stop.set()
            watcher.join(5)
        errs = [s.stop() for s in servers]
    for err in errs:
        assert "Traceback" not in err, err


def test_actions_at_the_same_ply_on_two_processes_are_one_success_and_one_409(pg):
    url = pg.new_database()
    servers = [Server(url).start(), Server(url).start()]
    clients = [httpx.Client(base_url=s.url, timeout=30) for s in servers]
    watchers: list[Watcher] = []
    try:
        out = clients[0].post("/api/games", json={"game": "algeria", "scenario": "1958",
                                                  "seed": 2, "seats": {}}).json()
        gid, tokens = out["id"], out["seats"]
        watchers += [Watcher(srv.url, gid) for srv in servers]
        for w in watchers:
            w.start()
            assert w.ready.wait(10)
        accepted: list[str] = []
        for round_ in range(12):
            side = _seen(clients[round_ % 2], gid, len(accepted))["active"]
            view = _seen(clients[0], gid, len(accepted), tokens[side])
            ply = view["ply"]
            texts = [a["text"] for a in view["actions"]]
            picks = [texts[0], texts[-1]]
            answers: list = [None, None]
            go = threading.Barrier(2)

            def send(i: int, picks=picks, side=side, ply=ply, answers=answers, go=go):
                go.wait()
                answers[i] = clients[i].post(
                    f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[side]},
                    json={"side": side, "action": picks[i], "ply": ply})

            threads = [threading.Thread(target=send, args=(i,)) for i in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            codes = [r.status_code for r in answers]
            assert sorted(codes) == [200, 409], [r.text for r in answers]
            accepted.append(picks[codes.index(200)])
            # the loser's stale ply stays refused on both processes
            for c in clients:
                r = c.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[side]},
                           json={"side": side, "action": picks[0], "ply": ply})
                assert r.status_code == 409, r.text
        for c in clients:
            assert actions_of(c, gid) == accepted
            assert listed_ply(c, gid) == len(accepted)
        # every accepted action reached the watchers of both processes, once, in order
        deadline = time.time() + 10
        while any(w.plies[-1] < len(accepted) for w in watchers):
            assert time.time() < deadline, [w.plies for w in watchers]
            time.sleep(0.05)
        for w in watchers:
            assert w.plies == list(range(len(accepted) + 1))
    finally:
        for w in watchers:
            w.stop.set()
            w.join(5)
        for c in clients:
            c.close()
        errs = [s.stop() for s in servers]
    for err in errs:
        assert "Traceback" not in err, err


def _seen(c: httpx.Client, gid: str, ply: int, token: str = "") -> dict:
    """The view once this process has heard of the ``ply``-th action (announcements
    take a moment to arrive)."""
    deadline = time.time() + 10
    while True:
        view = c.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).json()
        if view["ply"] >= ply:
            assert view["ply"] == ply
            return view
        assert time.time() < deadline, view["ply"]
        time.sleep(0.02)


def _children(pid: int) -> set[int]:
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if ppid == pid:
                out.add(int(entry))
    return out


def test_serve_workers_a_killed_worker_loses_nothing(pg):
    url = pg.new_database()
    game, scenario, seed, seats = GAMES["skirmish"]
    want = uninterrupted(game, scenario, seed, seats)
    srv = Server(url, bot_delay=0.03, workers=2).start()
    try:
        listening = _listeners(url, 2)            # both workers up and listening
        workers = _children(srv.proc.pid)
        assert len(listening) == 2 and listening <= workers
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            gid = create(c, game, scenario, seed, seats)
            killed_at = wait_ply(c, gid, 20)
            (driver,) = _drivers(url, gid)
            assert driver in workers
            os.kill(driver, signal.SIGKILL)          # the worker driving the bots
        # (a connection the killed worker held is gone with it: a new client)
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            wait_ply(c, gid, len(want))
            assert killed_at < len(want)
            assert actions_of(c, gid) == want
    finally:
        err = srv.stop()
    assert "Traceback" not in err.replace("SIGKILL", ""), err


def test_a_process_that_loses_its_lock_connection_stops_and_takes_the_game_again(pg):
    url = pg.new_database()
    game, scenario, seed, seats = GAMES["skirmish"]
    want = uninterrupted(game, scenario, seed, seats)
    srv = Server(url, bot_delay=0.03).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            gid = create(c, game, scenario, seed, seats)
            wait_ply(c, gid, 20)
            with psycopg.connect(url, autocommit=True) as conn:   # as a DBA or a failover
                (n,) = conn.execute(
                    "SELECT count(pg_terminate_backend(l.pid)) FROM pg_locks l "
                    "WHERE l.locktype = 'advisory' AND l.classid = %s", (BOT_LOCKS,)).fetchone()
            assert n == 1
            wait_ply(c, gid, len(want))
            assert actions_of(c, gid) == want
        deadline = time.time() + 10          # the game is over: its lock is let go
        while _drivers(url, gid):
            assert time.time() < deadline, _drivers(url, gid)
            time.sleep(0.05)
    finally:
        err = srv.stop()
    assert "bot locks lost" in err and "Traceback" not in err, err


def test_an_undo_on_one_process_reaches_the_other_and_its_stale_action_is_refused(pg):
    url = pg.new_database()
    servers = [Server(url).start(), Server(url).start()]
    a, b = (httpx.Client(base_url=s.url, timeout=30) for s in servers)
    watcher = None
    try:
        g = a.post("/api/games", json={"game": "algeria", "scenario": "1958",
                                       "seats": {}}).json()
        gid, tok = g["id"], {"X-Seat-Token": g["seats"]["gov"]}
        watcher = Watcher(servers[1].url, gid)
        watcher.start()
        assert watcher.ready.wait(10)

        def act(c, action, ply):
            return c.post(f"/api/games/{gid}/actions", headers=tok,
                          json={"side": "gov", "action": action, "ply": ply})

        texts = [x["text"] for x in a.get(f"/api/games/{gid}", headers=tok).json()["actions"]]
        other = next(t for t in texts if t.startswith("place fr_xx ") and t != "place fr_xx I-1")
        # a placement rolls no die, so the GOV may take it back
        assert act(a, "place fr_xx I-1", 0).status_code == 200
        assert _seen(b, gid, 1)["board"] == _seen(a, gid, 1)["board"]
        r = b.post(f"/api/games/{gid}/undo", headers=tok, json={"side": "gov", "ply": 1})
        assert r.status_code == 200 and r.json()["ply"] == 0
        # the other process heard of the undo: ply 1 is stale there too
        deadline = time.time() + 10
        while a.get(f"/api/games/{gid}").json()["ply"] != 0:
            assert time.time() < deadline
            time.sleep(0.02)
        assert act(a, "place fr_xx I-1", 1).status_code == 409
        assert act(a, other, 0).status_code == 200
        _seen(b, gid, 1)                # the announcement takes a moment to arrive
        assert actions_of(a, gid) == actions_of(b, gid) == [other]
        deadline = time.time() + 10
        while watcher.plies[-1:] != [listed_ply(b, gid)]:
            assert time.time() < deadline, watcher.plies
            time.sleep(0.02)
        assert watcher.plies[:4] == [0, 1, 0, 1]
    finally:
        if watcher is not None:
            watcher.stop.set()
            watcher.join(5)
        a.close()
        b.close()
        errs = [s.stop() for s in servers]
    for err in errs:
        assert "Traceback" not in err, err


def test_chat_a_resignation_and_a_rematch_are_shared_by_every_process(pg):
    """A message posted on either process is pushed live to the watchers of both (the
    LISTEN/NOTIFY of djebel_live), once each: the process that took it does not push it
    again when it hears its own announcement. A resignation taken by one process ends the
    game on the other too (its cached copy is dropped), and its watchers are told."""
    url = pg.new_database()
    servers = [Server(url).start(), Server(url).start()]
    watchers = []
    try:
        with httpx.Client(base_url=servers[0].url, timeout=30) as a, \
                httpx.Client(base_url=servers[1].url, timeout=30) as b:
            g = a.post("/api/games", json={"game": "algeria", "scenario": "1958",
                                           "seats": {"fln": "human", "gov": "human"}}).json()
            gid, seats = g["id"], g["seats"]
            _listeners(url, 2)
            watchers = [Watcher(s.url, gid) for s in servers]
            for w in watchers:
                w.start()
                assert w.ready.wait(10)
            posts = [(a, "fln", "your move, mon général"), (b, "gov", "patience")]
            for client, side, text in posts:
                r = client.post(f"/api/games/{gid}/chat", json={"text": text},
                                headers={"X-Seat-Token": seats[side]})
                assert r.status_code == 201, r.text
            deadline = time.time() + 10
            while any(len(w.chat) < 2 for w in watchers):
                assert time.time() < deadline, [w.chat for w in watchers]
                time.sleep(0.05)
            time.sleep(0.5)                        # nothing more arrives
            for w in watchers:      # each once; by number (arrival order may differ)
                assert [(m["side"], m["text"]) for m in sorted(w.chat, key=lambda m: m["id"])] == [
                    ("fln", "your move, mon général"), ("gov", "patience")]
            assert b.get(f"/api/games/{gid}").json()["over"] is False     # cached on b
            r = a.post(f"/api/games/{gid}/resign", json={"side": "fln"},
                       headers={"X-Seat-Token": seats["fln"]})
            assert r.status_code == 200, r.text
            deadline = time.time() + 10
            while not all(w.over[-1:] == [True] for w in watchers):
                assert time.time() < deadline, [w.over for w in watchers]
                time.sleep(0.05)
            view = b.get(f"/api/games/{gid}").json()
            assert view["over"] is True and view["actions"] == []
            r = b.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": seats["gov"]},
                       json={"side": "gov", "action": "place auto", "ply": view["ply"]})
            assert r.status_code in (400, 409), r.text
            # a rematch asked of each process is one and the same game
            again = [c.post(f"/api/games/{gid}/rematch", json={"side": side},
                            headers={"X-Seat-Token": seats[side]}).json()["id"]
                     for c, side in ((a, "fln"), (b, "gov"))]
            assert again[0] == again[1]
    finally:
        for w in watchers:
            w.stop.set()
            w.join(5)
        errs = [s.stop() for s in servers]
    for err in errs:
        assert "Traceback" not in err, err
