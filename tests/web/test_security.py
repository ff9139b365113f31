"""Attacks on a real server: records that name files, oversized and malformed bodies,
huge or absurd actions, forged tokens, framing and script injection. Each is refused
with a short answer in the API's error shape, nothing is stored, and the server goes on
answering."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import tomllib
from html.parser import HTMLParser
from importlib import resources

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server import Server

SCENARIO_REFUSED = "field 'scenario': expected a shipped scenario id"


@pytest.fixture(scope="module")
def client(server):
    with httpx.Client(base_url=server.url, timeout=20) as c:
        yield c


def create(c: httpx.Client, **body) -> dict:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def play(c: httpx.Client, g: dict, n: int) -> None:
    """Play the first offered action ``n`` times (hot-seat)."""
    for _ in range(n):
        v = c.get(f"/api/games/{g['id']}").json()
        if v["over"]:
            return
        side = v["active"]
        mine = c.get(f"/api/games/{g['id']}",
                     headers={"X-Seat-Token": g["seats"][side]}).json()
        r = c.post(f"/api/games/{g['id']}/actions", headers={"X-Seat-Token": g["seats"][side]},
                   json={"side": side, "action": mine["actions"][0]["text"], "ply": v["ply"]})
        assert r.status_code == 200, r.text


@pytest.fixture(scope="module")
def records(client) -> dict:
    """A record of each game, a few actions in."""
    out = {}
    for game, scenario, sides in (("skirmish", "ambush", ("french", "insurgents")),
                                  ("algeria", "1958", ("fln", "gov"))):
        g = create(client, game=game, scenario=scenario, seed=3,
                   seats={s: "human" for s in sides})
        play(client, g, 12)
        out[game] = client.get(f"/api/games/{g['id']}/record").json()
        out[game + "_game"] = g
    return out


def upload(c: httpx.Client, record, **extra) -> httpx.Response:
    return c.post("/api/records", json={"record": record, **extra})


def refused(r: httpx.Response, status: int = 400, limit: int = 600) -> str:
    """The error of a refusal: its status, the documented shape, a bounded size."""
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert len(r.content) <= limit, len(r.content)
    body = r.json()
    assert set(body) <= {"error", "rule"} and isinstance(body["error"], str), body
    return body["error"]


def stored(c: httpx.Client) -> int:
    return len(c.get("/api/games", params={"limit": 200}).json())


def answering(c: httpx.Client) -> None:
    assert c.get("/api/meta", timeout=5).status_code == 200


# ------------------------------------------------------------ records that name files
def test_record_scenario_is_never_opened_as_a_path(client, records, tmp_path):
    ambush = resources.files("djebel.skirmish").joinpath("data", "scenarios", "ambush.toml")
    toml_copy = tmp_path / "mine.toml"
    toml_copy.write_text(ambush.read_text())            # a valid scenario file on disk
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)                                     # opening it to read would hang
    before = stored(client)
    for path in ("/etc/passwd", "/proc/self/environ", "/dev/zero", str(fifo), str(toml_copy),
                 "../../../../etc/passwd", "ambush.toml", "data/scenarios/ambush.toml"):
        error = refused(upload(client, dict(records["skirmish"], scenario=path)))
        assert SCENARIO_REFUSED in error, error
        assert "root:" not in error and "TOML" not in error and "line 1" not in error
        answering(client)
    # nobody holds the pipe open for reading: the server never opened it
    with pytest.raises(OSError) as exc:
        os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    assert exc.value.errno == errno.ENXIO
    assert stored(client) == before


def test_a_record_embeds_its_scenario_checked_like_a_file(client, records):
    data = tomllib.loads(resources.files("djebel.skirmish").joinpath(
        "data", "scenarios", "ambush.toml").read_text())
    rec = dict(records["skirmish"], scenario=data)
    # same scenario, but the state now holds the table, not the id: a new final hash
    error = refused(upload(client, rec))
    assert "field 'final_hash'" in error
    from djebel.core.records import game_from_record
    rec["final_hash"] = game_from_record(rec).state_hash()
    r = upload(client, rec, mode="replay")
    assert r.status_code == 201, r.text
    v = client.get(f"/api/games/{r.json()['id']}").json()
    assert v["board"]["name"] == data["name"] and v["ply"] == len(rec["actions"])
    broken = dict(data, turn_limit=0)
    error = refused(upload(client, dict(rec, scenario=broken)))
    assert "embedded scenario: field 'turn_limit': expected a positive integer" in error
    huge = dict(data, name="x" * 5000)
    refused(upload(client, dict(rec, scenario=huge)))


def test_final_hash_is_verified(client, records):
    before = stored(client)
    for game in ("skirmish", "algeria"):
        rec = records[game]
        error = refused(upload(client, dict(rec, final_hash="0" * 32)))
        assert error.startswith("uploaded record: field 'final_hash': replay ends in state")
        error = refused(upload(client, {k: v for k, v in rec.items() if k != "final_hash"}))
        assert "final_hash" in error
        # the same actions minus the last: a record that stops short of its own claim
        error = refused(upload(client, dict(rec, actions=rec["actions"][:-1])))
        assert "field 'final_hash'" in error
    assert stored(client) == before


# ------------------------------------------------------------ sizes
def test_oversized_bodies_are_refused_while_read(client, records):
    before = stored(client)
    big = json.dumps({"record": dict(records["skirmish"],
                                     actions=["end I1"] * 200_000)}).encode()
    assert len(big) > 1024 * 1024
    error = refused(client.post("/api/records", content=big,
                                headers={"content-type": "application/json"}), 413)
    assert error == "request body over 1048576 bytes"

    def chunks():                                        # no Content-Length: counted
        for _ in range(40):
            yield b" " * 65536

    refused(client.post("/api/records", content=chunks()), 413)
    refused(client.post("/api/games", content=b" " * 70_000,
                        headers={"content-type": "application/json"}), 413)
    answering(client)
    assert stored(client) == before


def test_long_actions_get_short_answers(client, records):
    g = records["skirmish_game"]
    v = client.get(f"/api/games/{g['id']}").json()
    side = v["active"]
    tok = {"X-Seat-Token": g["seats"][side]}
    huge = "move " + "9" * 5_000_000
    r = client.post(f"/api/games/{g['id']}/actions", headers=tok,
                    json={"side": side, "action": huge, "ply": v["ply"]})
    refused(r, 413)
    r = client.post(f"/api/games/{g['id']}/actions", headers=tok,
                    json={"side": side, "action": "x" * 201, "ply": v["ply"]})
    refused(r, 422)
    rec = records["skirmish"]
    refused(upload(client, dict(rec, actions=[*rec["actions"], "x" * 2_000_000])), 413)
    error = refused(upload(client, dict(rec, actions=[*rec["actions"], "y" * 5000])))
    assert "record.actions." in error and "y" * 50 not in error
    error = refused(upload(client, dict(rec, engine="e" * 5000, seed=10**40)))
    assert "e" * 50 not in error
    r = client.get(f"/api/games/{g['id']}/odds", params={"action": "z" * 10_000})
    assert 400 <= r.status_code < 500 and len(r.content) < 20_000


def test_absurd_numbers_are_refused_not_stored(client, records):
    g = records["skirmish_game"]
    v = client.get(f"/api/games/{g['id']}").json()
    side = v["active"]
    tok = {"X-Seat-Token": g["seats"][side]}
    for text in ("face 1e300", "sprint I1 42 61 face 1e300", "move I1 nan 3", "move I1 inf 3",
                 "move I1 " + "1" * 300 + " 3", "sprint I1 42 61 face 1" + "0" * 5000):
        r = client.post(f"/api/games/{g['id']}/actions", headers=tok,
                        json={"side": side, "action": text[:200], "ply": v["ply"]})
        error = refused(r)
        assert len(error) < 300
    assert client.get(f"/api/games/{g['id']}").json()["ply"] == v["ply"]
    rec = records["skirmish"]
    error = refused(upload(client, dict(rec, actions=[*rec["actions"], "face 1e300"])))
    assert f"actions[{len(rec['actions'])}]" in error and "out of range" in error
    assert "0" * 20 not in error


# ------------------------------------------------------------ malformed bodies
@pytest.mark.parametrize("path", ["/api/records", "/api/games", "/api/games/abc/actions"])
@pytest.mark.parametrize("raw", [b'{"record": {"game": "\xff\xfe"}}', b'{"record": ',
                                 b"\xef\xbb\xbf{}", b'{"record": NaN}', b"[" * 100_00,
                                 b'{"a": 1' + b"0" * 5000 + b"}", b"null", b"\x00" * 10])
def test_malformed_bodies_answer_in_the_error_shape(client, path, raw):
    r = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text[:300]
    assert isinstance(r.json()["error"], str) and len(r.content) < 1000


# ------------------------------------------------------------ tokens
def test_forged_and_stale_tokens(client, records):
    g = records["algeria_game"]
    other = records["skirmish_game"]
    gid = g["id"]
    v = client.get(f"/api/games/{gid}").json()
    side = v["active"]
    legal = client.get(f"/api/games/{gid}",
                       headers={"X-Seat-Token": g["seats"][side]}).json()["actions"][0]["text"]
    body = {"side": side, "action": legal, "ply": v["ply"]}
    real = g["seats"][side]
    near = real[:-1] + ("A" if real[-1] != "A" else "B")    # one character off the real one
    for token in (secrets.token_urlsafe(24), near,
                  other["seats"]["french"], "x" * 200):
        refused(client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}), 403)
        refused(client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": token},
                            json=body), 403)
    refused(client.get(f"/api/games/{gid}", headers={"X-Seat-Token": "x" * 201}), 422)
    # the other side's real token does not play this side
    wrong = next(s for s in g["seats"] if s != side)
    refused(client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": g["seats"][wrong]},
                        json=body), 403)
    # a stale ply
    r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": g["seats"][side]},
                    json=dict(body, ply=max(0, v["ply"] - 1)))
    refused(r, 409)
    assert client.get(f"/api/games/{gid}").json()["ply"] == v["ply"]


def test_websocket_of_no_game_is_closed_with_a_policy_code(server):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    for gid in ("nosuchgame", "x" * 300):
        with connect(server.url.replace("http", "ws") + f"/api/games/{gid}/ws",
                     open_timeout=10) as ws, pytest.raises(ConnectionClosed) as exc:
            ws.recv(timeout=10)
        assert exc.value.rcvd.code == 4404       # app.js stops reconnecting on 4xxx


# ------------------------------------------------------------ headers
def csp_directives(value: str) -> dict[str, list[str]]:
    out = {}
    for part in value.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_every_answer_carries_the_security_headers(client, records):
    gid = records["algeria_game"]["id"]
    answers = [
        client.get("/"), client.get(f"/g/{gid}"), client.get("/static/app.js"),
        client.get("/static/style.css"), client.get("/favicon.ico"), client.get("/api/meta"),
        client.get("/openapi.json"), client.get(f"/api/games/{gid}"),
        client.get(f"/api/games/{gid}/record"), client.get("/no/such/page"),
        client.delete("/api/meta"), client.get("/api/games", params={"limit": "x"}),
        client.get("/api/games/zzzz"), upload(client, {"game": "chess"}),
        client.post("/api/games", content=b" " * 70_000), client.get("/static/../app.py"),
        client.get(f"/api/games/{gid}", headers={"X-Seat-Token": "forged"}),
    ]
    assert {r.status_code for r in answers} >= {200, 400, 403, 404, 405, 413, 422}
    for r in answers:
        h = r.headers
        csp = csp_directives(h["content-security-policy"])
        assert csp["default-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
        assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"]
        assert csp["base-uri"] == ["'none'"]
        assert h["x-content-type-options"] == "nosniff"
        assert h["x-frame-options"] == "DENY"
        assert h["referrer-policy"] == "no-referrer"


class _Inline(HTMLParser):
    """Collects whatever a strict CSP would block in a page: inline script and style."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._tag = ""

    def handle_starttag(self, tag, attrs):
        self._tag = tag
        names = dict(attrs)
        if tag == "script" and "src" not in names:
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style>")
        self.found += [f"{tag} {k}=" for k in names if k == "style" or k.startswith("on")]
        if any((v or "").strip().lower().startswith("javascript:") for v in names.values()):
            self.found.append(f"{tag} javascript: URL")


def test_the_page_has_no_inline_script_or_style(client):
    parser = _Inline()
    page = client.get("/").text
    parser.feed(page)
    assert parser.found == []
    scripts = re.findall(r'<script src="(/static/[a-z0-9-]+\.js)"', page)
    assert "/static/app.js" in scripts
    for src in scripts:
        js = client.get(src).text
        for blocked in ("style: ", '"style"', "innerHTML", "eval(", "new Function"):
            assert blocked not in js, (src, blocked)


# ------------------------------------------------------------ time limit
def test_an_upload_past_its_time_limit_stores_nothing(tmp_path, records):
    srv = Server(f"sqlite:///{tmp_path / 'slow.db'}", args=("--upload-seconds", "0")).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=20) as c:
            error = refused(upload(c, records["algeria"]), 503)
            assert "nothing was stored" in error
            assert stored(c) == 0
            answering(c)
    finally:
        assert "Traceback" not in srv.stop()


# ------------------------------------------------------------ fuzz
JUNK = st.recursive(st.none() | st.booleans() | st.integers(-10**30, 10**30)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
                    lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=12)
AMBUSH = tomllib.loads(resources.files("djebel.skirmish").joinpath(
    "data", "scenarios", "ambush.toml").read_text())
WORDS = ["end", "I1", "F1", "activate", "move", "face", "1e300", "-0", "nan", "flush",
         "II-1", "psp", "3", "ready", "endphase", "9" * 30, "\u0661", "\x00"]


@st.composite
def mutated(draw, records):
    game = draw(st.sampled_from(["skirmish", "algeria"]))
    rec = json.loads(json.dumps(records[game]))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["drop", "junk", "action", "truncate", "scenario",
                                    "table", "embed", "swap_game"]))
        key = draw(st.sampled_from(sorted(rec) + ["extra"]))
        if how == "drop":
            rec.pop(key, None)
        elif how == "junk":
            rec[key] = draw(JUNK)
        elif how == "action" and isinstance(rec.get("actions"), list) and rec["actions"]:
            i = draw(st.integers(0, len(rec["actions"]) - 1))
            rec["actions"][i] = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1,
                                                       max_size=5)))
        elif how == "truncate" and isinstance(rec.get("actions"), list):
            rec["actions"] = rec["actions"][:draw(st.integers(0, len(rec["actions"])))]
        elif how == "scenario":
            rec["scenario"] = draw(st.sampled_from(
                ["/etc/passwd", "/dev/zero", "ambush", "1954", "1958", "hotlz", "", "../x"])
                | JUNK)
        elif how == "table":                      # an embedded scenario, one field spoilt
            table = json.loads(json.dumps(AMBUSH))
            rows = table[draw(st.sampled_from(["terrain", "force", "victory"]))]
            row = rows[draw(st.integers(0, len(rows) - 1))]
            if draw(st.booleans()):
                table[draw(st.sampled_from(sorted(table)))] = draw(JUNK)
            else:
                row[draw(st.sampled_from(sorted(row) + ["cover", "move", "hill"]))] = draw(JUNK)
            rec["scenario"] = table
        elif how == "embed":                      # the scenario inside, a few values moved
            table = json.loads(json.dumps(AMBUSH))
            for _ in range(draw(st.integers(0, 3))):
                row = draw(st.sampled_from(table["force"]))
                row["facing"] = draw(st.floats(-720, 720))
                table["turn_limit"] = draw(st.integers(1, 12))
            rec["scenario"] = table
        elif how == "swap_game":
            rec["game"] = "algeria" if rec.get("game") == "skirmish" else "skirmish"
    if draw(st.booleans()):                       # often a record that replays: stored
        from djebel.core.records import game_from_record
        with contextlib.suppress(Exception):
            rec["final_hash"] = game_from_record(rec).state_hash()
    return rec


def test_mutated_records_never_cause_a_server_error(client, records):
    @given(rec=mutated(records), mode=st.sampled_from(["continue", "replay"]))
    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    def check(rec, mode):
        r = upload(client, rec, mode=mode)
        assert r.status_code < 500, r.text[:300]
        if r.status_code != 201:
            refused(r, r.status_code)
            return
        gid = r.json()["id"]
        for params in ({}, {"at": 0}):
            assert client.get(f"/api/games/{gid}", params=params).status_code == 200

    check()
    answering(client)
