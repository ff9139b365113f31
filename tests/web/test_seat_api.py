"""A game over days, over a real server: the summaries of the seats a browser holds, the
players' chat, each seat's private notepad, and the notice addresses refused when the
server sends no notices."""

from __future__ import annotations

import json
import random

import httpx
import pytest
from test_api import act, create, play_some, view, wait_for


@pytest.fixture()
def client(server):
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c


def seats(c: httpx.Client, tokens: list[str]) -> list:
    r = c.post("/api/seats", json={"tokens": tokens})
    assert r.status_code == 200, r.text
    return r.json()["seats"]


def test_my_seats_says_whose_turn_and_the_last_action(client):
    alg = create(client, game="algeria", scenario="1958", seed=5,
                 seats={"fln": "human", "gov": "heuristic"})
    sk = create(client, game="skirmish", scenario="ambush", seed=2,
                seats={"french": "human", "insurgents": "human"})
    fln = alg["seats"]["fln"]
    play_some(client, sk["id"], sk["seats"], 3, random.Random(1))
    v_alg = wait_for(client, alg["id"], fln, lambda v: v["active"] == "fln")
    v_sk = view(client, sk["id"])
    rec = client.get(f"/api/games/{sk['id']}/record").json()
    tokens = [fln, sk["seats"]["french"], sk["seats"]["insurgents"], "not-a-seat", fln]
    r = client.post("/api/seats", json={"tokens": tokens})
    assert r.status_code == 200
    out = r.json()["seats"]
    assert out[3] is None                                  # a token of no seat
    assert out[4] == out[0]                                # the same token twice
    a, fr, ins = out[:3]
    assert (a["id"], a["game"], a["side"], a["mode"]) == (alg["id"], "algeria", "fln", "play")
    assert a["active"] == "fln" and a["your_turn"] and a["ply"] == v_alg["ply"]
    assert a["seats"]["gov"] == {"kind": "bot", "bot": "heuristic"}
    assert a["last_action"] == client.get(f"/api/games/{alg['id']}/record").json()[
        "actions"][-1]
    assert (fr["side"], ins["side"]) == ("french", "insurgents")
    assert fr["ply"] == ins["ply"] == v_sk["ply"] == 3
    assert fr["last_action"] == rec["actions"][-1] and fr["last_event"]
    assert fr["your_turn"] == (v_sk["active"] == "french")
    assert ins["your_turn"] == (v_sk["active"] == "insurgents")
    assert fr["your_turn"] != ins["your_turn"]
    # the answer never repeats a token
    for tok in tokens[:3]:
        assert tok not in r.text


def test_my_seats_takes_tokens_in_the_body_only(client):
    g = create(client, game="skirmish", scenario="ambush", seed=3,
               seats={"french": "human", "insurgents": "heuristic"})
    tok = g["seats"]["french"]
    assert client.get("/api/seats").status_code == 405
    assert client.get("/api/seats", params={"tokens": tok}).status_code == 405
    assert client.post("/api/seats", params={"tokens": tok}, json={}).status_code == 422
    assert client.post("/api/seats", json={"tokens": [tok] * 51}).status_code == 422
    assert client.post("/api/seats", json={"tokens": ["x" * 201]}).status_code == 422
    assert client.post("/api/seats", json={"tokens": [""]}).status_code == 422
    assert client.post("/api/seats", json={"tokens": [tok], "more": 1}).status_code == 422
    assert seats(client, []) == []
    assert seats(client, [tok])[0]["side"] == "french"
    paths = client.get("/openapi.json").json()["paths"]
    assert list(paths["/api/seats"]) == ["post"]
    assert not any(p.get("in") == "query" and "token" in p["name"]
                   for ops in paths.values() for op in ops.values()
                   for p in op.get("parameters", []))


def test_chat_between_the_seats_read_by_watchers(client, server):
    from websockets.sync.client import connect

    g = create(client, game="skirmish", scenario="search", seed=4,
               seats={"french": "human", "insurgents": "human"})
    other = create(client, game="skirmish", scenario="search", seed=4,
                   seats={"french": "human", "insurgents": "human"})
    gid, toks = g["id"], g["seats"]
    ws_url = server.url.replace("http", "ws") + f"/api/games/{gid}/ws"
    with connect(ws_url, open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        r = client.post(f"/api/games/{gid}/chat", headers={"X-Seat-Token": toks["french"]},
                        json={"text": "  Bonjour\r\nà vous\x07  "})
        assert r.status_code == 201, r.text
        msg = r.json()
        assert msg["side"] == "french" and msg["text"] == "Bonjour\nà vous"
        pushed = json.loads(ws.recv(timeout=10))
        assert pushed == {"type": "chat", "message": msg}
    r = client.post(f"/api/games/{gid}/chat", headers={"X-Seat-Token": toks["insurgents"]},
                    json={"text": "x" * 1000})
    assert r.status_code == 201 and r.json()["side"] == "insurgents"
    # a watcher reads it all, in order; after= gives what is new
    got = client.get(f"/api/games/{gid}/chat").json()["messages"]
    assert [(m["side"], len(m["text"])) for m in got] == [("french", 14), ("insurgents", 1000)]
    assert client.get(f"/api/games/{gid}/chat",
                      params={"after": got[0]["id"]}).json()["messages"] == got[1:]
    assert client.get(f"/api/games/{other['id']}/chat").json()["messages"] == []
    # refusals, none of which writes anything
    post = client.post
    assert post(f"/api/games/{gid}/chat", json={"text": "hi"}).status_code == 403
    assert post(f"/api/games/{gid}/chat", headers={"X-Seat-Token": "forged"},
                json={"text": "hi"}).status_code == 403
    assert post(f"/api/games/{gid}/chat", headers={"X-Seat-Token": other["seats"]["french"]},
                json={"text": "hi"}).status_code == 403
    assert post(f"/api/games/{gid}/chat", headers={"X-Seat-Token": toks["french"]},
                json={"text": "x" * 1001}).status_code == 422
    assert post(f"/api/games/{gid}/chat", headers={"X-Seat-Token": toks["french"]},
                json={"text": " \n\x00 "}).status_code == 400
    assert post(f"/api/games/{gid}/chat", headers={"X-Seat-Token": toks["french"]},
                json={"text": ""}).status_code == 422
    assert post("/api/games/nosuchgame/chat", headers={"X-Seat-Token": toks["french"]},
                json={"text": "hi"}).status_code == 404
    assert client.get("/api/games/nosuchgame/chat").status_code == 404
    assert len(client.get(f"/api/games/{gid}/chat").json()["messages"]) == 2


def test_chat_of_a_seat_is_limited_to_twenty_messages_a_minute(client):
    g = create(client, game="algeria", scenario="1954", seed=1,
               seats={"fln": "human", "gov": "random"})
    tok = g["seats"]["fln"]
    codes = [client.post(f"/api/games/{g['id']}/chat", headers={"X-Seat-Token": tok},
                         json={"text": f"message {i}"}).status_code for i in range(21)]
    assert codes == [201] * 20 + [429]
    assert len(client.get(f"/api/games/{g['id']}/chat").json()["messages"]) == 20


def test_notepad_is_the_seats_own(client):
    g = create(client, game="skirmish", scenario="hotlz", seed=6,
               seats={"french": "human", "insurgents": "human"})
    gid, toks = g["id"], g["seats"]
    fr = {"X-Seat-Token": toks["french"]}
    ins = {"X-Seat-Token": toks["insurgents"]}
    assert client.get(f"/api/games/{gid}/notepad", headers=fr).json()["text"] == ""
    r = client.put(f"/api/games/{gid}/notepad", headers=fr, json={"text": "flank by the wadi"})
    assert r.status_code == 200 and r.json()["side"] == "french"
    r = client.put(f"/api/games/{gid}/notepad", headers=fr, json={"text": "n" * 10_000})
    assert r.status_code == 200
    assert client.get(f"/api/games/{gid}/notepad", headers=fr).json()["text"] == "n" * 10_000
    assert client.get(f"/api/games/{gid}/notepad", headers=ins).json() == {
        "side": "insurgents", "text": "", "updated": None}
    r = client.put(f"/api/games/{gid}/notepad", headers=ins, json={"text": "a\x00b\n\tc"})
    assert r.status_code == 200 and r.json()["text"] == "ab\n\tc"
    assert client.get(f"/api/games/{gid}/notepad", headers=ins).json()["text"] == "ab\n\tc"
    # nobody else reads or writes it
    assert client.get(f"/api/games/{gid}/notepad").status_code == 403
    assert client.get(f"/api/games/{gid}/notepad",
                      headers={"X-Seat-Token": "guess"}).status_code == 403
    assert client.put(f"/api/games/{gid}/notepad", json={"text": "x"}).status_code == 403
    assert client.put(f"/api/games/{gid}/notepad", headers={"X-Seat-Token": "guess"},
                      json={"text": "x"}).status_code == 403
    assert client.put(f"/api/games/{gid}/notepad", headers=fr,
                      json={"text": "n" * 10_001}).status_code == 422
    assert client.put(f"/api/games/{gid}/notepad", headers=fr, json={}).status_code == 422
    assert client.get(f"/api/games/{gid}/notepad", headers=fr).json()["text"] == "n" * 10_000
    # and it is never in the game's view, its record or the chat
    assert "flank" not in client.get(f"/api/games/{gid}").text
    assert "n" * 100 not in client.get(f"/api/games/{gid}/record").text


def test_notices_are_off_unless_the_server_sends_them(client):
    g = create(client, game="algeria", scenario="1958", seed=8,
               seats={"fln": "human", "gov": "heuristic"})
    gid, tok = g["id"], g["seats"]["fln"]
    head = {"X-Seat-Token": tok}
    r = client.get(f"/api/games/{gid}/notices", headers=head)
    assert r.status_code == 200
    assert r.json() == {"side": "fln", "webhook": "", "email": "", "seat_link": False,
                        "available": {"webhook": False, "email": False}}
    r = client.put(f"/api/games/{gid}/notices", headers=head,
                   json={"webhook": "http://127.0.0.1:9/hook"})
    assert r.status_code == 400 and "--webhooks" in r.json()["error"]
    r = client.put(f"/api/games/{gid}/notices", headers=head, json={"email": "a@example.org"})
    assert r.status_code == 400 and "--smtp" in r.json()["error"]
    # nothing to register is fine; other seats and strangers are refused
    assert client.put(f"/api/games/{gid}/notices", headers=head, json={}).status_code == 200
    assert client.get(f"/api/games/{gid}/notices").status_code == 403
    assert client.put(f"/api/games/{gid}/notices", headers={"X-Seat-Token": "x"},
                      json={}).status_code == 403
    assert client.put(f"/api/games/{gid}/notices", headers=head,
                      json={"webhook": "h" * 501}).status_code == 422
    # the game goes on as before
    v = wait_for(client, gid, tok, lambda v: v["active"] == "fln")
    assert act(client, gid, tok, "fln", v["actions"][0]["text"], v["ply"]).status_code == 200
