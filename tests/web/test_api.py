"""The HTTP API over a real server and a real SQLite file."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import time

import httpx
import pytest
from server import Server

from djebel.agents import agent_names


def create(c: httpx.Client, **body) -> dict:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def view(c: httpx.Client, gid: str, token: str | None = None, **params) -> dict:
    headers = {"X-Seat-Token": token} if token else {}
    r = c.get(f"/api/games/{gid}", headers=headers, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def act(c: httpx.Client, gid: str, token: str, side: str, action: str, ply: int):
    return c.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": token},
                  json={"side": side, "action": action, "ply": ply})


def wait_for(c, gid, token, pred, timeout=30.0) -> dict:
    deadline = time.time() + timeout
    while True:
        v = view(c, gid, token)
        if pred(v):
            return v
        assert time.time() < deadline, f"timed out at {v['ply']}: {v['prompt']}"
        time.sleep(0.05)


def play_some(c, gid, tokens: dict, n: int, rng: random.Random, pick=None) -> dict:
    """Play ``n`` actions with the human seats (waiting for bots in between), chosen at
    random or by ``pick(action texts, rng)``."""
    for _ in range(n):
        v = wait_for(c, gid, None, lambda v: v["over"] or v["active"] in tokens)
        if v["over"]:
            return v
        side = v["active"]
        v = view(c, gid, tokens[side])
        texts = [a["text"] for a in v["actions"]]
        a = pick(texts, rng) if pick else rng.choice(texts)
        r = act(c, gid, tokens[side], side, a, v["ply"])
        assert r.status_code == 200, r.text
        assert r.json()["ply"] >= v["ply"] + 1
    return view(c, gid)


@pytest.fixture()
def client(server):
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c


def test_meta_and_pages(client):
    meta = client.get("/api/meta").json()
    assert meta["algeria"] == ["1954", "1958", "1960"]
    assert "ambush" in meta["skirmish"]
    assert "search" in meta["bots"]["algeria"] and "matrix" in meta["bots"]["skirmish"]
    assert meta["bots"]["skirmish"] == agent_names("skirmish")
    page = client.get("/")
    assert page.status_code == 200 and "djebel" in page.text
    assert client.get("/g/abc").status_code == 200
    assert client.get("/openapi.json").json()["info"]["title"] == "djebel"


def test_algeria_against_a_bot_with_the_400_409_403_rules(client, server):
    new = create(client, game="algeria", scenario="1958", seed=5,
                 seats={"fln": "human", "gov": "heuristic"})
    gid, tok = new["id"], new["seats"]["fln"]
    assert set(new["seats"]) == {"fln"}
    assert new["links"]["fln"] == f"/g/{gid}#seat={tok}"
    v = wait_for(client, gid, tok, lambda v: v["active"] == "fln")
    assert v["you"] == "fln" and v["actions"]
    assert v["board"]["kind"] == "algeria" and len(v["board"]["areas"]) == 28
    assert v["ply"] > 0                      # the Government bot has set up
    ply = v["ply"]
    # illegal: 400 with the rule
    r = act(client, gid, tok, "fln", "place front ORAN", ply)
    assert r.status_code == 400 and r.json()["rule"]
    r = act(client, gid, tok, "fln", "!!", ply)
    assert r.status_code == 400 and r.json()["rule"]
    # wrong token: 403; the other side with this token: 403
    assert act(client, gid, "not-a-token", "fln", v["actions"][0]["text"], ply).status_code \
        == 403
    assert act(client, gid, tok, "gov", v["actions"][0]["text"], ply).status_code == 403
    r = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": "nope"})
    assert r.status_code == 403
    # a watcher sees no actions
    assert view(client, gid)["actions"] == [] and view(client, gid)["you"] is None
    # a good action, then the same one again: stale, 409
    first = v["actions"][0]["text"]
    r = act(client, gid, tok, "fln", first, ply)
    assert r.status_code == 200 and r.json()["ply"] == ply + 1
    r = act(client, gid, tok, "fln", first, ply)
    assert r.status_code == 409
    # nothing was changed by the refused requests
    assert view(client, gid)["ply"] >= ply + 1
    # the seat secret is stored hashed only
    db = sqlite3.connect(server.db_path)
    hashes = [h for (h,) in db.execute("select token_hash from djebel_seats where game_id=?",
                                       (gid,))]
    db.close()
    assert hashlib.sha256(tok.encode()).hexdigest() in hashes
    assert tok not in json.dumps(hashes)


def test_token_of_another_game_is_refused(client):
    a = create(client, game="skirmish", scenario="ambush", seed=1,
               seats={"french": "human", "insurgents": "human"})
    b = create(client, game="skirmish", scenario="ambush", seed=1,
               seats={"french": "human", "insurgents": "human"})
    va = view(client, a["id"], a["seats"]["french"])
    side = va["active"]
    act_text = view(client, a["id"], a["seats"][side])["actions"][0]["text"]
    r = act(client, a["id"], b["seats"][side], side, act_text, va["ply"])
    assert r.status_code == 403
    assert view(client, a["id"])["ply"] == va["ply"]


def test_not_your_turn_is_409(client):
    g = create(client, game="skirmish", scenario="ambush", seed=2,
               seats={"french": "human", "insurgents": "human"})
    v = view(client, g["id"])
    idle = "french" if v["active"] == "insurgents" else "insurgents"
    r = act(client, g["id"], g["seats"][idle], idle, "endphase", v["ply"])
    assert r.status_code == 409


def test_hot_seat_skirmish_and_odds(client):
    g = create(client, game="skirmish", scenario="ambush", seed=3,
               seats={"french": "human", "insurgents": "human"})
    gid, toks = g["id"], g["seats"]
    rng = random.Random(4)
    found = None
    for _ in range(80):
        v = view(client, gid)
        side = v["active"]
        acts = view(client, gid, toks[side])["actions"]
        shots = [a["text"] for a in acts if a["verb"] == "shoot"]
        if shots and found is None:
            r = client.get(f"/api/games/{gid}/odds", params={"action": shots[0]})
            assert r.status_code == 200
            found = r.json()["odds"]
        a = rng.choice(acts)["text"]
        assert act(client, gid, toks[side], side, a, v["ply"]).status_code == 200
        if view(client, gid)["over"]:
            break
    assert found and "hit on" in found
    board = view(client, gid)["board"]
    assert board["kind"] == "skirmish" and board["terrain"] and board["elements"]
    e = next(e for e in board["elements"] if e["on_table"])
    assert e["move_cm"] >= 0
    r = client.get(f"/api/games/{gid}/sight", params={"element": e["label"]})
    assert r.status_code == 200 and isinstance(r.json()["sees"], list)
    enemies = {x["label"] for x in board["elements"] if x["side"] != e["side"]}
    assert set(r.json()["sees"]) <= enemies
    assert client.get(f"/api/games/{gid}/sight", params={"element": "ZZ9"}).status_code == 400


def test_ruler_on_the_table(client):
    g = create(client, game="skirmish", scenario="ambush", seed=5,
               seats={"french": "human", "insurgents": "human"})
    r = client.get(f"/api/games/{g['id']}/ruler", params={"x0": 30, "y0": 76, "x1": 90, "y1": 76})
    assert r.status_code == 200
    assert r.json() == {"from": [30.0, 76.0], "to": [90.0, 76.0], "distance": 60.0,
                        "clear": False, "blocking": [{"id": "b1", "kind": "building"},
                                                     {"id": "b2", "kind": "building"},
                                                     {"id": "b3", "kind": "building"}]}
    r = client.get(f"/api/games/{g['id']}/ruler", params={"x0": -5, "y0": 1, "x1": 9, "y1": 9})
    assert r.status_code == 400 and "off the 122 x 122 cm table" in r.json()["error"]
    r = client.get(f"/api/games/{g['id']}/ruler", params={"x0": "a", "y0": 1, "x1": 9, "y1": 9})
    assert r.status_code == 422 and "query.x0" in r.json()["error"]
    r = client.get(f"/api/games/{g['id']}/ruler", params={"a": "F1", "b": "I5"})
    assert r.status_code == 200 and r.json()["sees"] is False and r.json()["ends"] == ["F1", "I5"]
    for params in ({"a": "F1"}, {"x0": 1, "y0": 2}, {}):
        r = client.get(f"/api/games/{g['id']}/ruler", params=params)
        assert r.status_code == 400 and "two points" in r.json()["error"]
    r = client.get(f"/api/games/{g['id']}/ruler", params={"a": "F1", "b": "ZZ9"})
    assert r.status_code == 400
    a = create(client, game="algeria", scenario="1954", seats={"fln": "human", "gov": "human"})
    r = client.get(f"/api/games/{a['id']}/ruler", params={"x0": 1, "y0": 1, "x1": 9, "y1": 9})
    assert r.status_code == 400


def test_algeria_odds_of_a_mission(client):
    g = create(client, game="algeria", scenario="1958", seed=8,
               seats={"fln": "human", "gov": "human"})
    gid, toks = g["id"], g["seats"]
    rng = random.Random(1)
    for _ in range(400):
        v = view(client, gid)
        side = v["active"]
        acts = view(client, gid, toks[side])["actions"]
        for a in acts:
            if a["verb"] in ("propaganda", "strike", "civil-affairs", "suppression"):
                odds = client.get(f"/api/games/{gid}/odds", params={"action": a["text"]})
                assert odds.status_code == 200
                if odds.json()["odds"]:
                    return
        r = act(client, gid, toks[side], side, rng.choice(acts)["text"], v["ply"])
        assert r.status_code == 200
    pytest.fail("no mission with odds reached")


def test_bot_against_bot_plays_on_its_own(client):
    g = create(client, game="algeria", scenario="1960", seed=1,
               seats={"fln": "random", "gov": "random"})
    assert g["seats"] == {}
    wait_for(client, g["id"], None, lambda v: v["ply"] > 40 or v["over"])


def test_records_download_upload_and_replay(client):
    g = create(client, game="algeria", scenario="1954", seed=11,
               seats={"fln": "human", "gov": "human"})
    v = play_some(client, g["id"], g["seats"], 25, random.Random(2))
    r = client.get(f"/api/games/{g['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = r.json()
    assert rec["game"] == "algeria" and len(rec["actions"]) == v["ply"]
    # continue it
    r = client.post("/api/records", json={"record": rec, "mode": "continue",
                                          "seats": {"gov": "random"}})
    assert r.status_code == 201, r.text
    cont = r.json()
    assert set(cont["seats"]) == {"fln"}
    vc = view(client, cont["id"])
    assert vc["ply"] >= v["ply"]
    # watch it replayed step by step
    r = client.post("/api/records", json={"record": rec, "mode": "replay"})
    rep = r.json()
    assert rep["seats"] == {}
    steps = [view(client, rep["id"], at=i) for i in (0, 5, v["ply"])]
    assert [s["ply"] for s in steps] == [0, 5, v["ply"]]
    assert steps[-1]["board"] == view(client, g["id"])["board"]
    assert steps[0]["board"] != steps[-1]["board"]
    assert all(s["actions"] == [] for s in steps)
    # bad records: 400 naming the field
    bad = dict(rec, actions=rec["actions"][:3] + ["fly to the moon"])
    r = client.post("/api/records", json={"record": bad})
    assert r.status_code == 400 and "actions[3]" in r.json()["error"]
    r = client.post("/api/records", json={"record": {"game": "chess"}})
    assert r.status_code == 400


@pytest.mark.parametrize("body", [
    None, [], {}, {"game": "chess", "scenario": "x"},
    {"game": "algeria", "scenario": "1999"},
    {"game": "algeria", "scenario": "1958", "options": {"nope": True}},
    {"game": "algeria", "scenario": "1958", "seats": {"fln": "alphago"}},
    {"game": "algeria", "scenario": "1958", "seats": {"french": "human"}},
    {"game": "skirmish", "scenario": "ambush", "seats": {"french": "alphago"}},
    {"game": "algeria", "scenario": "1958", "seed": -1},
    {"game": "algeria", "scenario": "1958", "extra": 1},
])
def test_malformed_creation_is_a_4xx(client, body):
    r = client.post("/api/games", content=json.dumps(body),
                    headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text


def test_malformed_actions_are_4xx(client):
    g = create(client, game="algeria", scenario="1958", seed=1,
               seats={"fln": "human", "gov": "human"})
    gid, toks = g["id"], g["seats"]
    v = view(client, gid)
    side = v["active"]
    for body in ({"side": side, "action": "", "ply": v["ply"]},
                 {"side": side, "action": "place", "ply": -3},
                 {"side": side, "action": "place fr_xx 1e999999", "ply": v["ply"]},
                 {"side": side, "action": "place fr_xx I-1 " * 10, "ply": v["ply"]},
                 {"side": "martians", "action": "x", "ply": v["ply"]},
                 {"side": side, "action": "x" * 500, "ply": v["ply"]},
                 {"side": side}):
        r = client.post(f"/api/games/{gid}/actions", json=body,
                        headers={"X-Seat-Token": toks[side]})
        assert 400 <= r.status_code < 500, (body, r.text)
    assert client.get("/api/games/zzzzzz").status_code == 404
    assert client.get("/api/games/../etc").status_code == 404
    assert client.get(f"/api/games/{gid}", params={"at": "x"}).status_code == 422
    assert client.get(f"/api/games/{gid}/odds", params={"action": "??"}).status_code in (200,
                                                                                         400)
    assert view(client, gid)["ply"] == v["ply"]


def test_websocket_pushes_the_other_sides_moves(client, server):
    from websockets.sync.client import connect

    g = create(client, game="skirmish", scenario="search", seed=5,
               seats={"french": "human", "insurgents": "human"})
    gid, toks = g["id"], g["seats"]
    ws_url = server.url.replace("http", "ws") + f"/api/games/{gid}/ws"
    with connect(ws_url, open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello["type"] == "hello"
        v = view(client, gid)
        side = v["active"]
        a = view(client, gid, toks[side])["actions"][0]["text"]
        assert act(client, gid, toks[side], side, a, v["ply"]).status_code == 200
        msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "update" and msg["ply"] == v["ply"] + 1


def test_restart_in_the_middle_of_a_game_loses_nothing(tmp_path):
    db = tmp_path / "restart.db"
    srv = Server(f"sqlite:///{db}").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            g = create(c, game="algeria", scenario="1958", seed=21,
                       seats={"fln": "human", "gov": "heuristic"})
            sk = create(c, game="skirmish", scenario="hotlz", seed=4,
                        seats={"french": "human", "insurgents": "human"})
            play_some(c, g["id"], g["seats"], 30, random.Random(3))
            play_some(c, sk["id"], sk["seats"], 30, random.Random(3))
            v = wait_for(c, g["id"], g["seats"]["fln"],
                         lambda v: v["over"] or v["active"] == "fln")
            before = view(c, g["id"], g["seats"]["fln"])
            sk_before = view(c, sk["id"])
        srv.kill()                                  # no clean shutdown
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            after = view(c, g["id"], g["seats"]["fln"])
            assert after["board"] == before["board"]
            assert after["ply"] == before["ply"] and after["prompt"] == before["prompt"]
            assert after["actions"] == before["actions"]
            assert view(c, sk["id"])["board"] == sk_before["board"]
            # and the game goes on, the bot too
            play_some(c, g["id"], g["seats"], 10, random.Random(5))
            v = view(c, g["id"])
            assert v["ply"] > before["ply"]
            rec = c.get(f"/api/games/{g['id']}/record").json()
            assert len(rec["actions"]) == v["ply"]
    finally:
        srv.stop()


def test_algeria_odds_show_each_react_the_government_may_choose(client):
    """8-6, 9.23, 11.11-2: the web's odds of a Propaganda give each React the GOV may
    choose afterwards (each unit, each Air Point), the same figures as the terminal's."""
    from djebel.algeria.position import from_position
    from djebel.core.records import make_record

    pos = {"scenario": "1958", "turn": 2, "phase": "operations", "ap": 4,
           "air": {"max": 1, "available": 1},
           "areas": {"II-1": {"OPS": ["cadre"], "PTL": ["police", "al_x!"]},
                     "II-2": {"OPS": ["el_x!^"]}}}
    rec = make_record(from_position(pos, seed=1), full=True)
    r = client.post("/api/records", json={"record": rec, "mode": "continue",
                                          "seats": {"fln": "human", "gov": "human"}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    # a refused action has no odds: 400 with its reason and rule (9.12: Urban areas only)
    bad = client.get(f"/api/games/{gid}/odds", params={"action": "strike cadre1"})
    assert bad.status_code == 400 and "[rule 9.12]" in bad.json()["error"]
    odds = client.get(f"/api/games/{gid}/odds",
                      params={"action": "propaganda cadre1"}).json()["odds"]
    assert odds == (
        "Propaganda in II-1: MST DRM -2 -> 0+:33% 1+:17% 1:33% 2:17% (mean N 0.83); "
        "if the GOV reacts (9.23): cadre1 evades 67%; if not evaded: FLN fire 1: hits "
        "0:83% 1:17%; GOV fire 5 (al_x1): hits 1:33% 2:50% 3:17%; +1 Air: hits 1:25% "
        "2:33% 3:25% 4:8% 5:8%; GOV fire 9 (el_x1) (+0-1 Air): hits 1:17% 2:17% 3:33% "
        "4:17% 5:17%")


def test_refusals_carry_the_engines_reason_and_rule(client):
    """The web's 400 for an illegal action is the engine's refusal, reason and rule: a
    Band joining a Band's Harass (9.15-2, DIS-19)."""
    from djebel.algeria.position import from_position
    from djebel.core.records import make_record

    pos = {"scenario": "1958", "turn": 2, "phase": "operations", "ap": 4,
           "air": {"max": 1, "available": 0},
           "areas": {"II-1": {"OPS": ["band", "band"], "PTL": ["police"]}}}
    rec = make_record(from_position(pos, seed=1), full=True)
    r = client.post("/api/records", json={"record": rec, "mode": "continue",
                                          "seats": {"fln": "human", "gov": "human"}})
    gid, toks = r.json()["id"], r.json()["seats"]
    assert act(client, gid, toks["fln"], "fln", "harass band1", 0).status_code == 200
    r = act(client, gid, toks["fln"], "fln", "add band2", 1)
    assert r.status_code == 400
    assert r.json()["rule"] == "9.15-2"
    assert r.json()["error"] == ("illegal action (add band2): units harass singly unless a "
                                 "Failek harasses: add a Failek first (DIS-19) [rule 9.15-2]")
