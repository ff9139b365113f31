"""Web bots: a bot's choice is a function of the stored game, so a server killed in the
middle of a bot game and started again resumes it at once and ends it as if it had
never stopped."""

from __future__ import annotations

import time

import httpx
import pytest
from bot_games import GAMES, actions_of, create, listed_ply, uninterrupted, wait_ply
from server import Server

from djebel.web.bots import BotSeat
from djebel.web.service import new_game

SIDES = {"algeria": ("fln", "gov"), "skirmish": ("french", "insurgents")}


def _play_with_seats(game, scenario, seed, seats, human_seed=None, limit=100_000):
    """Play a game with one BotSeat per bot (a seat named "human" plays at random from
    ``human_seed``); returns the header and the actions."""
    import random

    g = new_game(game, scenario, seed, {}, "human" in seats.values())
    header = g.record_header()
    bots = {side: BotSeat(header, game, side, who) for side, who in seats.items()
            if who != "human"}
    rng = random.Random(human_seed)
    actions: list[str] = []
    while not g.is_over() and len(actions) < limit:
        side = g.active_side
        action = (bots[side].choose(actions) if side in bots
                  else rng.choice(g.legal_actions()))
        g.apply(action)
        actions.append(str(action))
    return header, actions


@pytest.mark.parametrize("game,scenario,seats,limit,every", [
    ("algeria", "1954", {"fln": "heuristic", "gov": "heuristic"}, 100_000, 23),
    ("algeria", "1958", {"fln": "random", "gov": "human"}, 100_000, 23),
    # the search agent's style for a turn builds on its earlier turns' rollouts
    ("algeria", "1958", {"fln": "search", "gov": "heuristic"}, 130, 60),
    # the planner's opponent model builds on every decision of the other side it saw
    ("algeria", "1958", {"fln": "heuristic", "gov": "planner"}, 130, 60),
    ("skirmish", "ambush", {"french": "heuristic", "insurgents": "matrix"}, 100_000, 23),
    ("skirmish", "search", {"french": "human", "insurgents": "heuristic"}, 100_000, 23),
])
def test_a_bot_seat_rebuilt_from_the_record_chooses_what_the_first_one_chose(
        game, scenario, seats, limit, every):
    header, actions = _play_with_seats(game, scenario, 3, seats, human_seed=8, limit=limit)
    g = new_game(game, scenario, 3, {}, "human" in seats.values())
    checked = 0
    for ply, text in enumerate(actions):
        side = g.active_side
        # a fresh seat (a restarted server) at every few decisions of a bot, and the last
        if seats[side] != "human" and (ply % every == 0 or ply == len(actions) - 1):
            fresh = BotSeat(header, game, side, seats[side])
            assert str(fresh.choose(actions[:ply])) == text, f"ply {ply}"
            checked += 1
        g.apply(text)
    assert checked >= 3


def test_a_bot_seat_after_an_undo_chooses_as_a_fresh_one_nor_plays_the_other_side():
    header, actions = _play_with_seats("algeria", "1958", 1,
                                       {"fln": "heuristic", "gov": "heuristic"}, limit=60)
    g = new_game("algeria", "1958", 1, {}, False)
    sides = []
    for text in actions:
        sides.append(g.active_side)
        g.apply(text)
    fln = [i for i, side in enumerate(sides) if side == "fln"]
    gov = [i for i, side in enumerate(sides) if side == "gov"]
    seat = BotSeat(header, "algeria", "fln", "heuristic")
    assert str(seat.choose(actions[:fln[-1]])) == actions[fln[-1]]
    # an analysis game's undo takes back actions the seat had folded (and the record
    # then goes another way): the seat folds the record again
    other = actions[:fln[1]]
    fresh = BotSeat(header, "algeria", "fln", "heuristic")
    assert str(seat.choose(other)) == str(fresh.choose(other)) == actions[fln[1]]
    assert seat.ply == fln[1]
    with pytest.raises(ValueError, match="fln is not to act"):
        BotSeat(header, "algeria", "fln", "random").choose(actions[:gov[0]])


@pytest.mark.parametrize("which", sorted(GAMES))
def test_a_bot_game_killed_mid_game_resumes_unvisited_and_ends_as_uninterrupted(
        tmp_path, which):
    game, scenario, seed, seats = GAMES[which]
    want = uninterrupted(game, scenario, seed, seats)
    srv = Server(f"sqlite:///{tmp_path / 'djebel.db'}", bot_delay=0.005).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            gid = create(c, game, scenario, seed, seats)
            # past a stored snapshot: the restarted server loads from it
            killed_at = wait_ply(c, gid, len(want) // 3)
        srv.kill()                             # SIGKILL, mid-game
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            assert listed_ply(c, gid) >= killed_at
            # nobody opens the game: the server resumes it by itself
            wait_ply(c, gid, len(want))
            time.sleep(0.2)
            got = actions_of(c, gid)
            assert killed_at < len(want)
            assert got == want
            assert c.get(f"/api/games/{gid}").json()["over"] is True
    finally:
        err = srv.stop()
    assert "Traceback" not in err, err


def test_bot_games_of_a_database_from_before_resuming_are_resumed(tmp_path):
    import sqlite3

    from djebel.web.service import Service
    from djebel.web.storage import Store

    url = f"sqlite:///{tmp_path / 'old.db'}"
    game, scenario, seed, seats = GAMES["skirmish"]
    store = Store(url)
    gid = Service(store).create(game, scenario, seed, {}, seats)["id"]   # no event loop:
    store.close()                                                        # no bot moved
    with sqlite3.connect(tmp_path / "old.db") as conn:   # the table as older djebels wrote it
        conn.execute("DROP INDEX ix_djebel_games_bot_to_act")
        conn.execute("ALTER TABLE djebel_games DROP COLUMN bot_to_act")
    srv = Server(url).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            want = uninterrupted(game, scenario, seed, seats)
            wait_ply(c, gid, len(want))
            assert actions_of(c, gid) == want
    finally:
        err = srv.stop()
    assert "Traceback" not in err, err
    with sqlite3.connect(tmp_path / "old.db") as conn:
        assert conn.execute("SELECT bot_to_act FROM djebel_games").fetchall() == [(0,)]
