"""The protocol conformance check, shipped so every game runs the same one.

``check_game(make_game)`` plays random legal games and checks what every
game must guarantee: legal actions are offered until the game ends and each
one applies (no dead ends); clones are independent; the JSON round trip
and the record replay reproduce the state exactly; illegal input raises
``IllegalAction`` and changes nothing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from djebel.core.actions import Action
from djebel.core.errors import IllegalAction
from djebel.core.records import make_record, verify_record


def random_playout(game, rng: random.Random, max_steps: int = 100_000) -> int:
    """Play uniformly random legal actions to the end; returns the number of steps."""
    steps = 0
    while not game.is_over():
        actions = game.legal_actions()
        if not actions:
            raise AssertionError(f"dead end: no legal action at step {steps}: {game.prompt()}")
        game.apply(rng.choice(actions))
        steps += 1
        if steps > max_steps:
            raise AssertionError(f"game did not end within {max_steps} steps")
    if game.active_side is not None:
        raise AssertionError("a finished game still has an active side")
    if game.legal_actions():
        raise AssertionError("a finished game still offers actions")
    if game.result() is None:
        raise AssertionError("a finished game has no result")
    return steps


def check_game(make_game: Callable[[int], object], seeds=(0, 1, 2), game_class=None) -> None:
    """Run the whole conformance suite on games made by ``make_game(seed)``."""
    for seed in seeds:
        rng = random.Random(seed)
        game = make_game(seed)
        assert game.active_side in game.sides
        mid = None
        steps = 0
        while not game.is_over():
            actions = game.legal_actions()
            assert actions, f"dead end at step {steps}: {game.prompt()}"
            for a in actions[:3]:
                assert Action.parse(str(a)) == a, f"notation does not round-trip: {a}"
            if steps == 40:
                mid = game.clone()
                mid_hash = mid.state_hash()
                _check_illegal_changes_nothing(game)
                _check_json_round_trip(game, game_class or type(game))
            game.apply(rng.choice(actions))
            steps += 1
            assert steps < 200_000, "game does not end"
        assert game.result() is not None
        assert not game.legal_actions()
        if mid is not None:
            assert mid.state_hash() == mid_hash, "playing the original changed its clone"
            random_playout(mid, random.Random(seed + 1000))
        rec = json.loads(json.dumps(make_record(game)))
        replayed = verify_record(rec)
        assert replayed.state_hash() == game.state_hash()
        _check_json_round_trip(game, game_class or type(game))


def _check_illegal_changes_nothing(game) -> None:
    before = game.state_hash()
    for bogus in ("no-such-verb", "pass 99 extra words"):
        try:
            game.apply(bogus)
        except IllegalAction as exc:
            assert exc.rule, "IllegalAction must name a rule"
        else:  # "pass ..." might be legal in some game; then it is a real action
            return
        assert game.state_hash() == before, f"illegal {bogus!r} changed the state"


def _check_json_round_trip(game, cls) -> None:
    data = json.loads(json.dumps(game.to_json()))
    again = cls.from_json(data)
    assert again.state_hash() == game.state_hash(), "JSON round trip changed the state"
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in game.legal_actions()]
