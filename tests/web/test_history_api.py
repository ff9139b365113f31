"""The whole log paged with turns, phases and sides; resigning; rematches."""

from __future__ import annotations

import random

import httpx
import pytest
from test_api import act, create, play_some, view


@pytest.fixture(scope="module")
def client(server):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def test_whole_log_pages_with_turns_phases_and_sides(client):
    out = create(client, game="algeria", scenario="1958", seed=4,
                 seats={"fln": "human", "gov": "random"})
    gid, tok = out["id"], out["seats"]["fln"]
    v = play_some(client, gid, {"fln": tok}, 40, random.Random(2))
    whole = client.get(f"/api/games/{gid}/log", params={"offset": 0, "limit": 500}).json()
    total = whole["total"]
    assert total > 60 and total == len(whole["entries"]) or total > 500
    # the pages add up to the whole log, in order, numbered
    pages, off = [], 0
    while off < total:
        p = client.get(f"/api/games/{gid}/log", params={"offset": off, "limit": 37}).json()
        assert p["offset"] == off and p["total"] == total
        pages += p["entries"]
        off += 37
    assert [e["n"] for e in pages] == list(range(total))
    # the set-up (3-4) is logged before turn 1, with the GOV placing
    first = pages[0]
    assert first["ply"] == 0 and first["phase"] == "setup" and first["actor"] == ""
    places = [e for e in pages if e["text"].startswith("GOV places")]
    assert places and all(e["phase"] == "setup" and e["actor"] == "gov" for e in places)
    # 4: "Turn 1 begins" belongs to the action that closed the set-up; turn 1 is listed
    turns = {t["turn"]: t["ply"] for t in whole["turns"]}
    assert turns[0] == 0 and turns[1] > 0
    assert all(e["turn"] == 0 for e in pages if e["ply"] <= turns[1])
    assert any(e["text"] == "Turn 1 begins" and e["ply"] == turns[1] for e in pages)
    # plies never go back, and each ply's entries share one turn, phase and side
    plies = [e["ply"] for e in pages]
    assert plies == sorted(plies) and plies[-1] <= v["ply"]
    # the last page by default, and bad paging is refused with a clear error
    last = client.get(f"/api/games/{gid}/log", params={"limit": 5}).json()
    assert [e["n"] for e in last["entries"]] == list(range(total - 5, total))
    r = client.get(f"/api/games/{gid}/log", params={"limit": 0})
    assert r.status_code == 422 and "limit" in r.json()["error"]
    assert client.get("/api/games/nosuchgame/log").status_code == 404
    # the board as it was at the start of turn 1 (the past view the page steps through)
    past = view(client, gid, None, at=turns[1])
    assert past["ply"] == turns[1] and past["board"]["turn"] in (0, 1)


def test_log_follows_an_undo(client):
    out = create(client, game="algeria", scenario="1958", seed=9, analysis=True)
    gid, toks = out["id"], out["seats"]
    play_some(client, gid, toks, 6, random.Random(1))
    before = client.get(f"/api/games/{gid}/log").json()["total"]
    v = view(client, gid, toks["gov"])
    r = client.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": toks[v["active"]]},
                    json={"side": v["active"], "ply": v["ply"]})
    assert r.status_code == 200, r.text
    after = client.get(f"/api/games/{gid}/log").json()
    assert after["total"] < before
    assert max(e["ply"] for e in after["entries"]) <= r.json()["ply"]


def test_resign_ends_the_game_and_the_other_side_wins(client):
    out = create(client, game="algeria", scenario="1958", seed=5)
    gid, toks = out["id"], out["seats"]
    # a watcher or the wrong seat cannot resign for a side
    r = client.post(f"/api/games/{gid}/resign", json={"side": "fln"})
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": toks["gov"]},
                    json={"side": "fln"})
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": toks["fln"]},
                    json={"side": "fln"})
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["over"] and v["result"]["winner"] == "gov"
    assert v["result"]["level"] == "resignation" and v["resigned"] == "fln"
    assert v["log"][-1]["text"] == "FLN resigned: GOV wins"
    assert v["actions"] == [] and v["active"] is None
    # nothing more can be played, resigned or undone
    r = client.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": toks["gov"]},
                    json={"side": "gov"})
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert act(client, gid, toks["gov"], "gov", "done", v["ply"]).status_code == 409
    # the record downloaded verifies (its final hash is the rules' state)
    rec = client.get(f"/api/games/{gid}/record").json()
    from djebel.core.records import game_from_record
    assert game_from_record(rec).state_hash() == rec["final_hash"]


def test_resign_survives_a_restart(server):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        out = create(c, game="skirmish", scenario=_scenario(c), seed=3,
                     seats={"french": "human", "insurgents": "human"})
        gid, toks = out["id"], out["seats"]
        r = c.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": toks["insurgents"]},
                   json={"side": "insurgents"})
        assert r.status_code == 200 and r.json()["result"]["winner"] == "french"
    server.restart()
    with httpx.Client(base_url=server.url, timeout=60) as c:
        v = view(c, gid)
        assert v["over"] and v["result"]["winner"] == "french" and v["resigned"] == "insurgents"


def _scenario(c) -> str:
    return c.get("/api/meta").json()["skirmish"][0]


def test_rematch_swaps_the_seats_with_new_dice(client):
    out = create(client, game="algeria", scenario="1960", seats={"fln": "human", "gov": "human"},
                 options={})
    gid, toks = out["id"], out["seats"]
    hdr = {"X-Seat-Token": toks["fln"]}
    r = client.post(f"/api/games/{gid}/rematch", headers=hdr, json={"side": "fln"})
    assert r.status_code == 409 and "not over" in r.json()["error"]
    client.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": toks["gov"]},
                json={"side": "gov"})
    r = client.post(f"/api/games/{gid}/rematch", headers=hdr, json={"side": "fln"})
    assert r.status_code == 200, r.text
    new = r.json()["id"]
    assert r.json()["links"] == {"gov": f"/g/{new}#seat={toks['fln']}"}
    # each player's link now plays the other side; the old game points to the new one
    assert view(client, new, toks["fln"])["you"] == "gov"
    assert view(client, new, toks["gov"])["you"] == "fln"
    old = view(client, gid, toks["gov"])
    assert old["rematch"] == new
    nv = view(client, new)
    assert nv["rematch_of"] == gid and nv["header"]["scenario"] == "1960"
    assert "seed" not in nv["header"]           # new secret dice, never shown while it runs
    # asked again (by the other seat), the same rematch
    r2 = client.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": toks["gov"]},
                     json={"side": "gov"})
    assert r2.json()["id"] == new and r2.json()["links"] == {"fln": f"/g/{new}#seat={toks['gov']}"}
