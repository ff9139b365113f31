"""Records of games in progress carry the faces rolled, not the seed; finished games give
the full record; continuing a record without its seed draws fresh dice."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from djebel import algeria, skirmish
from djebel.agents import RandomAgent
from djebel.cli import app
from djebel.core.errors import RecordError
from djebel.core.records import (
    FRESH_NOTE,
    check_record,
    game_from_record,
    make_record,
    public_header,
    verify_record,
)


def played(game, n: int, seed: int = 1):
    bots = {side: RandomAgent(seed + i) for i, side in enumerate(game.sides)}
    for _ in range(n):
        if game.is_over():
            break
        game.apply(bots[game.active_side].choose(game))
    return game


def next_faces(game, n: int) -> tuple[int, ...]:
    """The next ``n`` d6 the game would roll (on a copy of its dice)."""
    dice = game.dice.copy()
    return tuple(dice.die(6) for _ in range(n))


def fresh(kind: str, seed: int):
    return algeria.new_game("1958", seed=seed) if kind == "algeria" else \
        skirmish.new_game("ambush", seed)


@settings(max_examples=12, deadline=None)
@given(kind=st.sampled_from(["algeria", "skirmish"]), seed=st.integers(0, 2**64 - 1),
       n=st.integers(0, 120))
def test_a_record_in_progress_has_the_faces_rolled_and_replays_to_the_present(kind, seed, n):
    live = played(fresh(kind, seed), n, seed % 1000)
    rec = make_record(live)
    if live.is_over():
        assert rec["seed"] == seed
        return
    assert "seed" not in rec and "dice_script" not in rec
    assert rec["rolls"] == live.dice.rolled() and len(rec["rolls"]) == live.dice.count
    again = verify_record(json.loads(json.dumps(rec)))
    assert again.state_hash() == live.state_hash()
    assert again.history() == live.history()
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in live.legal_actions()]
    assert again.log.tail(1)[0].text == FRESH_NOTE            # and says so


def test_continuing_a_record_in_progress_draws_fresh_dice():
    live = played(algeria.new_game("1958", seed=7), 60)
    rec = make_record(live)
    a, b = game_from_record(rec), game_from_record(rec)
    assert a.state_hash() == b.state_hash() == live.state_hash()
    # the next faces come from new secret seeds: neither the original's nor each other's
    streams = [next_faces(g, 40) for g in (a, b, live)]
    assert len(set(streams)) == 3
    assert a.header["seed"] != b.header["seed"] and a.header["rolls"] == rec["rolls"]
    # the continued game records itself like any other, and replays
    played(a, 30, 9)
    assert verify_record(make_record(a)).state_hash() == a.state_hash()
    if a.is_over():
        assert make_record(a)["seed"] == a.header["seed"]


def test_a_finished_game_gives_the_full_record_with_its_seed():
    g = played(skirmish.new_game("hotlz", 5), 5000, 2)
    assert g.is_over()
    rec = make_record(g)
    assert rec["seed"] == 5 and "rolls" not in rec
    assert verify_record(rec).state_hash() == g.state_hash()
    assert public_header(g.record_header(), over=True)["seed"] == 5
    assert "seed" not in public_header(g.record_header(), over=False)


def test_the_rolls_must_be_exactly_the_faces_the_actions_draw():
    rec = make_record(played(algeria.new_game("1958", seed=3), 80))
    with pytest.raises(RecordError, match=r"'rolls' holds \d+ faces but the actions draw"):
        game_from_record(dict(rec, rolls=rec["rolls"] + [3]))   # a planted future die
    with pytest.raises(RecordError, match="draw"):
        game_from_record(dict(rec, rolls=rec["rolls"][:-1]))
    bad = list(rec["rolls"])
    bad[0] = 9                                                   # the first die is a d6
    with pytest.raises(RecordError, match="not a face of the d6"):
        game_from_record(dict(rec, rolls=bad))
    for rolls, field in (("66", "'rolls'"), ([1, 0], "'rolls[1]'"), ([True], "'rolls[0]'")):
        with pytest.raises(RecordError, match=re.escape(field)):
            check_record(dict(rec, rolls=rolls))
    no_dice = {k: v for k, v in rec.items() if k != "rolls"}
    with pytest.raises(RecordError, match="field 'seed' is missing"):
        check_record(no_dice)


def test_the_state_hash_covers_the_dice_drawn_not_the_stream():
    a, b = algeria.new_game("1958", seed=1), algeria.new_game("1958", seed=1)
    assert a.state_hash() == b.state_hash()
    b.dice.reseed(99)                        # another future, same present
    assert a.state_hash() == b.state_hash()
    b.dice.die(6)                            # one more die drawn: another present
    assert a.state_hash() != b.state_hash()


def test_replay_verify_and_play_load_on_the_command_line(tmp_path):
    live = played(algeria.new_game("1960", seed=4), 50)
    mid = tmp_path / "mid.json"
    mid.write_text(json.dumps(make_record(live)))
    full = tmp_path / "full.json"
    full.write_text(json.dumps(make_record(live, full=True)))
    for path in (mid, full):
        res = CliRunner().invoke(app, ["replay", str(path), "--verify"])
        assert res.exit_code == 0 and "final state verified" in res.output, res.output
    res = CliRunner().invoke(app, ["play", "algeria", "--load", str(mid), "--fln", "random",
                                   "--gov", "random"])
    assert res.exit_code == 0, res.output
    assert FRESH_NOTE in " ".join(res.output.split())
    res = CliRunner().invoke(app, ["play", "algeria", "--load", str(full), "--fln", "random",
                                   "--gov", "random"])
    assert res.exit_code == 0 and FRESH_NOTE not in " ".join(res.output.split())


def test_play_skirmish_load_continues_a_record_with_fresh_dice(tmp_path):
    live = played(skirmish.new_game("search", 6), 40)
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(make_record(live)))
    res = CliRunner().invoke(app, ["play", "skirmish", "--load", str(path), "--french",
                                   "random", "--insurgents", "random", "--svg", ""])
    assert res.exit_code == 0, res.output
    assert f"{path}: {FRESH_NOTE}" in res.output
    res = CliRunner().invoke(app, ["play", "skirmish", "--french", "random"])
    assert "give a scenario id, or --load FILE" in str(res.exception)


@pytest.mark.parametrize("kind,bots", [("algeria", ("heuristic", "search")),
                                       ("skirmish", ("matrix", "heuristic"))])
def test_bots_never_draw_from_the_games_dice(kind, bots):
    """Bots and their tie-breaks have their own generators: choosing leaves the game's
    dice as they were, so a record of faces rolled replays a game with bots exactly."""
    from djebel.agents import make_agent
    from djebel.web.bots import bot_options

    game = fresh(kind, 12)
    agents = {side: make_agent(bots[i], kind, side, 5 + i,
                               **({"seconds": 0.2} if bot_options(kind, bots[i]) else {}))
              for i, side in enumerate(game.sides)}
    for _ in range(60):
        if game.is_over():
            break
        dice = game.dice.to_json()
        action = agents[game.active_side].choose(game)
        assert game.dice.to_json() == dice
        game.apply(action)
    assert game.dice.count > 0
    assert verify_record(make_record(game)).state_hash() == game.state_hash()


def test_a_secret_seed_keys_blake2b_and_a_small_seed_drives_splitmix64():
    """Secret seeds (128 bits) key BLAKE2b over a counter, so faces shown reveal nothing
    of the next; seeds of 64 bits or fewer keep the fast SplitMix64 stream."""
    from hashlib import blake2b

    from djebel.core.dice import Dice, secret_seed

    seed = secret_seed()
    assert seed.bit_length() == 128
    d = Dice(seed)
    key = seed.to_bytes(16, "little")
    for n in range(1, 40):
        z = int.from_bytes(blake2b(n.to_bytes(8, "little"), digest_size=8, key=key).digest(),
                           "little")
        assert d.die(6) == (z >> 11) * 6 // (1 << 53) + 1
    # a copy, a saved state and a reseed keep their stream
    c, j = d.copy(), Dice.from_json(d.to_json())
    assert [c.die(6) for _ in range(20)] == [j.die(6) for _ in range(20)]
    assert Dice(3).key is None and Dice(2**64 - 1).key is None and Dice(2**64).key
    small, ref = Dice(seed), Dice(7)
    small.reseed(7)
    assert small.key is None
    assert [small.die(6) for _ in range(5)] == [ref.die(6) for _ in range(5)]
