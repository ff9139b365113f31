"""Chat, notepads and notice claims in the database, on SQLite and on PostgreSQL."""

from __future__ import annotations

from test_storage import db_url  # noqa: F401 - the fixture: both databases

from djebel.web import seatdata
from djebel.web.seatdata import Notice, SeatData
from djebel.web.storage import Seat, Store, hash_token


def test_chat_notepad_and_one_claim_per_turn(db_url):  # noqa: F811
    store = Store(db_url)
    gid = store.create("algeria", {"game": "algeria", "scenario": "1958", "seed": 1}, [], "h",
                       [Seat("fln", "human", "", hash_token("a")),
                        Seat("gov", "bot", "heuristic", "")])
    data = SeatData(store)
    SeatData(store)                                    # a second process starting: no harm
    assert data.seats_of([hash_token("a"), hash_token("b"), ""]) == {
        hash_token("a"): (gid, "fln")}
    first = data.post(gid, "fln", "salut")
    assert data.chat(gid) == [first] and data.chat(gid, first["id"]) == []
    data.write_notepad(gid, "fln", "one")
    data.write_notepad(gid, "fln", "two")
    assert data.notepad(gid, "fln")["text"] == "two" and data.notepad(gid, "gov")["text"] == ""
    # nothing registered: nothing to claim
    assert data.claim_turn(gid, "fln", 5) is None
    data.set_notice(gid, "fln", Notice("http://h/x", "", "http://o", False, "kept?"))
    assert data.notice(gid, "fln") == Notice("http://h/x", "", "http://o", False, "")
    got = data.claim_turn(gid, "fln", 5)
    assert got is not None and got.webhook == "http://h/x"
    assert data.claim_turn(gid, "fln", 5) is None             # told once
    assert data.claim_turn(gid, "fln", 9) is not None         # the next turn
    data.set_notice(gid, "fln", Notice())
    assert data.claim_turn(gid, "fln", 12) is None            # removed
    store.close()


def test_a_game_keeps_its_last_messages(tmp_path, monkeypatch):
    monkeypatch.setattr(seatdata, "CHAT_KEPT", 10)
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    gid = store.create("skirmish", {"game": "skirmish", "scenario": "ambush", "seed": 1}, [],
                       "h", [])
    data = SeatData(store)
    for i in range(13):
        data.post(gid, "french", str(i))
    assert [m["text"] for m in data.chat(gid)] == [str(i) for i in range(3, 13)]
    store.close()
