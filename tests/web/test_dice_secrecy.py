"""Dice nobody can foresee, over the real server: while a game runs, nothing a client
can fetch (any GET, the record, the WebSocket, the page) holds its seed or lets the next
die be computed; a record in progress replays to the present and continues with fresh
dice; the finished game gives its full record; undo stops at the last die roll."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3

import httpx
import pytest
from test_api import act, create, play_some, view, wait_for

from djebel.core.dice import Dice
from djebel.core.records import FRESH_NOTE, NOTES, game_from_record, verify_record


@pytest.fixture()
def client(server):
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c


def stored(server, gid: str) -> tuple[dict, list]:
    """The header and actions the server keeps (read from its database, as only the
    server can)."""
    with sqlite3.connect(server.db_path) as db:
        header, actions = db.execute("SELECT header, actions FROM djebel_games WHERE id = ?",
                                     (gid,)).fetchone()
    return json.loads(header), json.loads(actions)


def keys(data) -> set[str]:
    """Every key of every object in a JSON document."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys(v)}
    return set()


def sides_drawn(rec: dict, monkeypatch) -> list[int]:
    """The size of each die the record's game rolled (rebuilt as a client could)."""
    sides: list[int] = []
    real = Dice.die

    def spy(self, n: int = 6) -> int:
        sides.append(n)
        return real(self, n)
    with monkeypatch.context() as m:
        m.setattr(Dice, "die", spy)
        game_from_record(rec)
    return sides


def explains(seed: int, rolls: list[int], sides: list[int]) -> bool:
    """Whether dice from ``seed`` show the faces rolled (and so would foresee the next)."""
    d = Dice(seed)
    return all(d.die(n) == face for n, face in zip(sides, rolls, strict=False))


def keen(acts: list[str], rng: random.Random) -> str:
    """An action that rolls dice soon (placing everything at once, getting ready,
    shooting), and never one that ends a phase."""
    eager = [a for a in acts if a.split()[0] in ("ready", "shoot", "activate")
             or a == "place auto"]
    calm = [a for a in acts if a.split()[0] not in ("endphase", "end", "pass")]
    return rng.choice(eager or calm or acts)


def everything_a_client_fetches(c: httpx.Client, server, gid: str, tokens: dict,
                                ws_messages: list) -> dict[str, str]:
    out = {}
    for path in ("/", f"/g/{gid}", "/static/app.js", "/api/meta", "/api/games",
                 "/openapi.json", f"/api/games/{gid}", f"/api/games/{gid}?at=0",
                 f"/api/games/{gid}?at=3", f"/api/games/{gid}/record"):
        r = c.get(path)
        assert r.status_code == 200, path
        out[path] = r.text
    for side, tok in tokens.items():
        r = c.get(f"/api/games/{gid}", headers={"X-Seat-Token": tok})
        out[f"view of {side}"] = r.text
        v = r.json()
        for a in v["actions"][:5]:
            out[f"odds {a['text']}"] = c.get(f"/api/games/{gid}/odds",
                                             params={"action": a["text"]}).text
    if json.loads(out[f"/api/games/{gid}"])["game"] == "skirmish":
        for label in ("F1", "I1"):
            out[f"sight {label}"] = c.get(f"/api/games/{gid}/sight",
                                          params={"element": label}).text
    out["websocket"] = "\n".join(ws_messages)
    return out


@pytest.mark.parametrize("game,scenario,seats", [
    ("algeria", "1958", {"fln": "human", "gov": "human"}),
    ("skirmish", "ambush", {"french": "human", "insurgents": "random"}),
])
def test_nothing_a_client_fetches_foresees_the_dice(client, server, monkeypatch, game,
                                                    scenario, seats):
    from websockets.sync.client import connect

    g = create(client, game=game, scenario=scenario, seats=seats)
    gid, tokens = g["id"], g["seats"]
    ws_messages = []
    with connect(server.url.replace("http", "ws") + f"/api/games/{gid}/ws",
                 open_timeout=10) as ws:
        ws_messages.append(ws.recv(timeout=10))
        v = play_some(client, gid, tokens, 12, random.Random(4), keen)
        while True:
            try:
                ws_messages.append(ws.recv(timeout=0.5))
            except TimeoutError:
                break
    assert not v["over"] and len(ws_messages) > 5
    header, actions = stored(server, gid)
    seed = header["seed"]
    assert seed.bit_length() == 128 and Dice(seed).key    # a secret seed keys BLAKE2b
    fetched = everything_a_client_fetches(client, server, gid, tokens, ws_messages)
    # no seed, no dice script, no dice stream anywhere in what a client gets
    live = game_from_record(dict(header, actions=actions))
    for name, text in fetched.items():
        assert str(seed) not in text and format(seed, "x") not in text, name
        assert live.dice.key.hex() not in text, name
        try:
            doc = json.loads(text)
        except ValueError:
            continue
        assert not keys(doc) & {"seed", "dice_script", "state"} or name == "/openapi.json", name
    assert '"seed"' not in fetched[f"/api/games/{gid}"]
    # the record replays to the present, with the faces rolled so far
    rec = json.loads(fetched[f"/api/games/{gid}/record"])
    assert "seed" not in rec and rec["rolls"] == live.dice.rolled()
    assert verify_record(rec).state_hash() == live.state_hash()
    # the true seed explains the faces rolled (so this check can fail) ...
    sides = sides_drawn(rec, monkeypatch)
    rolls = rec["rolls"]
    assert len(rolls) >= 12 and explains(seed, rolls, sides)
    # ... and no seed a client could guess does: small numbers, the id, the times, the ply
    meta = next(x for x in client.get("/api/games").json() if x["id"] == gid)
    guesses = set(range(5000))
    guesses |= {int.from_bytes(gid.encode(), "big") & ((1 << 64) - 1),
                int(hashlib.sha256(gid.encode()).hexdigest()[:16], 16), len(actions)}
    for t in (meta["updated"], meta["updated"] - 60):
        guesses |= {int(t) + k for k in range(-120, 1)} | {int(t * 1000)}
    guesses |= {s * 7 + salt for s in range(100) for salt in (1, 2)}
    assert not [s for s in guesses if explains(s, rolls[:12], sides[:12])]


def test_a_record_in_progress_continues_elsewhere_with_fresh_dice(client, server):
    g = create(client, game="algeria", scenario="1960", seats={"fln": "human", "gov": "human"})
    play_some(client, g["id"], g["seats"], 30, random.Random(7))
    rec = client.get(f"/api/games/{g['id']}/record").json()
    assert "seed" not in rec
    seeds = set()
    for _ in range(2):
        r = client.post("/api/records", json={"record": rec, "mode": "continue"})
        assert r.status_code == 201, r.text
        cont = r.json()["id"]
        v = view(client, cont)
        assert v["ply"] == len(rec["actions"])
        assert v["board"] == view(client, g["id"])["board"]          # the same present
        assert v["log"][-1]["text"] == FRESH_NOTE                   # and it says so
        header, _ = stored(server, cont)
        assert header["rolls"] == rec["rolls"] and header["fresh_dice_at"] == v["ply"]
        seeds.add(header["seed"])
    seeds.add(stored(server, g["id"])[0]["seed"])
    assert len(seeds) == 3                               # each goes on with its own dice


def test_a_chosen_seed_is_announced_and_a_seeded_upload_gets_fresh_dice(client, server):
    from djebel import algeria
    from djebel.core.records import make_record

    g = create(client, game="algeria", scenario="1958", seed=5,
               seats={"fln": "human", "gov": "human"})
    v = view(client, g["id"])
    assert v["log"][-1]["text"] == NOTES["chosen_seed"] and "seed" not in v["header"]
    # a full record of an unfinished game, made by whoever knows its seed
    local = algeria.new_game("1958", seed=5)
    local.apply("place auto")
    rec = make_record(local, full=True)
    r = client.post("/api/records", json={"record": rec, "mode": "continue"})
    cont = r.json()["id"]
    header, _ = stored(server, cont)
    assert header["seed"] != 5 and header["fresh_dice_at"] == 1
    assert view(client, cont)["log"][-1]["text"] == FRESH_NOTE


def test_the_finished_game_gives_its_full_record(client, server):
    g = create(client, game="skirmish", scenario="hotlz",
               seats={"french": "random", "insurgents": "random"})
    v = wait_for(client, g["id"], None, lambda v: v["over"], timeout=120)
    rec = client.get(f"/api/games/{g['id']}/record").json()
    header, _ = stored(server, g["id"])
    assert rec["seed"] == header["seed"] == v["header"]["seed"] and "rolls" not in rec
    assert verify_record(rec).is_over()


def undo(c, gid, token, side, ply):
    return c.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": token},
                  json={"side": side, "ply": ply})


def test_undo_goes_back_no_further_than_the_last_die_roll(client, server):
    g = create(client, game="algeria", scenario="1958", seats={"fln": "human", "gov": "human"})
    gid, tok = g["id"], g["seats"]
    v = view(client, gid, tok["gov"])
    assert v["undo"] == {"allowed": False, "reason": "there is no action of this game to undo"}
    assert "undo" not in view(client, gid)                        # a watcher has no undo
    r = undo(client, gid, tok["gov"], "gov", 0)
    assert r.status_code == 409 and "no action of this game to undo" in r.json()["error"]
    # a placement rolls no die: the GOV takes it back
    assert act(client, gid, tok["gov"], "gov", "place fr_xx I-1", 0).status_code == 200
    v = view(client, gid, tok["gov"])
    assert v["undo"]["allowed"] and v["ply"] == 1
    assert undo(client, gid, tok["fln"], "gov", 1).status_code == 403     # not its seat
    assert undo(client, gid, tok["gov"], "gov", 0).status_code == 409     # stale
    r = undo(client, gid, tok["gov"], "gov", 1)
    assert r.status_code == 200 and r.json()["ply"] == 0
    assert stored(server, gid)[1] == []
    assert r.json()["board"] == view(client, g["id"], at=0)["board"]
    # 'place auto' rolls dice: neither side may take it back
    assert act(client, gid, tok["gov"], "gov", "place auto", 0).status_code == 200
    r = undo(client, gid, tok["gov"], "gov", 1)
    assert r.status_code == 409 and "rolled dice" in r.json()["error"]
    assert "analysis" in r.json()["error"]
    r = undo(client, gid, tok["fln"], "fln", 1)
    assert r.status_code == 409 and "the last action was gov's" in r.json()["error"]
    assert view(client, gid, tok["gov"])["undo"]["allowed"] is False
    assert stored(server, gid)[1] == ["place auto"]


def test_undo_stops_at_a_bots_reply(client):
    g = create(client, game="skirmish", scenario="ambush", seed=3,
               seats={"french": "matrix", "insurgents": "human"})
    gid, tok = g["id"], g["seats"]["insurgents"]

    def mine():
        return wait_for(client, gid, tok, lambda v: v["active"] == "insurgents")

    v = mine()                                  # the French bot has deployed
    for order in ("ready", "activate I1"):
        assert act(client, gid, tok, "insurgents", order, v["ply"]).status_code == 200
        v = mine()
    r = undo(client, gid, tok, "insurgents", v["ply"])    # an activation rolls no die
    assert r.status_code == 200 and r.json()["prompt"].endswith("activate or end the phase")
    v = r.json()
    assert act(client, gid, tok, "insurgents", "activate I1", v["ply"]).status_code == 200
    v = mine()
    # a sprint (no die) in sight of the convoy: the French bot may react to it (D21)
    sprint = next(a["text"] for a in v["actions"] if a["text"].startswith("sprint I1 "))
    assert act(client, gid, tok, "insurgents", sprint, v["ply"]).status_code == 200
    v = mine()
    # the French reacted to the sprint (the bot): their reaction is where undo stops
    r = undo(client, gid, tok, "insurgents", v["ply"])
    assert r.status_code == 409 and "the last action was french's" in r.json()["error"]
    assert not v["undo"]["allowed"] and "french's" in v["undo"]["reason"]


def test_an_analysis_game_allows_free_take_backs_and_says_so(client, server):
    g = create(client, game="algeria", scenario="1958", analysis=True,
               seats={"fln": "human", "gov": "human"})
    gid, tok = g["id"], g["seats"]
    v = view(client, gid)
    assert v["analysis"] and v["log"][-1]["text"] == NOTES["analysis"]
    assert act(client, gid, tok["gov"], "gov", "place auto", 0).status_code == 200
    v = view(client, gid, tok["fln"])
    assert act(client, gid, tok["fln"], "fln", v["actions"][0]["text"], 1).status_code == 200
    # the GOV takes back its die-rolling placement, and the FLN's reply with it
    r = undo(client, gid, tok["gov"], "gov", 2)
    assert r.status_code == 200, r.text
    assert r.json()["ply"] == 0 and stored(server, gid)[1] == []
    assert r.json()["log"][-1]["text"] == NOTES["analysis"]
