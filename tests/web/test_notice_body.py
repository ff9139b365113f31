"""What a notice says and to whom, on games played in the process: the side to act when
the turn passes, every other human seat when the game ends."""

from __future__ import annotations

import asyncio
import random

from djebel.web.notices import NoticeConfig, Notifier, notice_body
from djebel.web.seatdata import Notice
from djebel.web.service import Entry, new_game
from djebel.web.storage import Seat, StoredGame
from djebel.web.summary import seat_summary


def entry(game, seats: dict[str, str]) -> Entry:
    st = StoredGame("g1", game.name, {}, game.history(), len(game.history()), "", None, -1,
                    "Test game", "play", 0.0, 0.0,
                    {s: Seat(s, k, "" if k == "human" else k, "") for s, k in seats.items()})
    return Entry(st, game)


def told(ent, acted) -> list[str]:
    notifier = Notifier(NoticeConfig(webhooks=True), data=None)
    sides: list[str] = []

    async def tell(summary):
        sides.append(summary["side"])

    notifier._tell = tell

    async def run():
        notifier.turn_changed(ent, acted)
        await asyncio.gather(*notifier.tasks)

    asyncio.run(run())
    return sides


def finished_skirmish():
    g = new_game("skirmish", "ambush", 4, {}, True)
    rng = random.Random(4)
    while not g.is_over():
        acted = g.active_side
        g.apply(rng.choice(g.legal_actions()))
    return g, acted


def test_the_turn_is_told_to_the_human_seat_to_act_only():
    g = new_game("algeria", "1958", 3, {}, True)
    ent = entry(g, {"fln": "human", "gov": "human"})
    assert told(ent, "fln") == [g.active_side]
    ent = entry(g, {"fln": "human", "gov": "heuristic"})
    assert told(ent, "fln") == ([] if g.active_side == "gov" else ["fln"])
    off = Notifier(NoticeConfig(), data=None)              # nothing turned on: no task
    off.turn_changed(ent, "gov")
    assert not off.tasks


def test_the_end_is_told_to_the_other_human_seats():
    g, acted = finished_skirmish()
    other = "insurgents" if acted == "french" else "french"
    assert told(entry(g, {"french": "human", "insurgents": "human"}), acted) == [other]
    body = notice_body(seat_summary(entry(g, {"french": "human", "insurgents": "human"}),
                                    other), Notice(webhook="http://h/x", origin="http://o"))
    res = g.result().to_json()
    assert body["event"] == "over" and body["over"] and body["to_act"] is None
    assert body["subject"] == "djebel: Test game is over"
    assert body["text"].startswith(f"The game Test game is over: "
                                   f"{(res['winner'] or 'draw').upper()} {res['level']}")
    assert body["link"] == "http://o/g/g1"


def test_the_seat_link_only_when_asked_and_titles_on_one_line():
    g = new_game("algeria", "1958", 3, {}, True)
    ent = entry(g, {"fln": "human", "gov": "human"})
    ent.stored.title = "Line one\r\nBcc: someone@example.org"
    summary = seat_summary(ent, "fln")
    link = "http://o/g/g1#seat=TOKEN"
    plain = notice_body(summary, Notice(origin="http://o", with_link=False, seat_link=link))
    own = notice_body(summary, Notice(origin="http://o", with_link=True, seat_link=link))
    assert plain["link"] == "http://o/g/g1" and "TOKEN" not in str(plain)
    assert own["link"] == link
    assert "\n" not in own["subject"] and "\r" not in own["subject"]
    assert notice_body(summary, Notice(origin="http://o"), "https://pub/")["link"] == \
        "https://pub/g/g1"
