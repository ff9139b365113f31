"""Fuzz: mutated records and positions never cause a traceback.

Hypothesis mutates valid game records (Algeria from the set-up, Algeria from a position
with its pending decision stack, Insurgent Commander) and valid positions: a value
replaced by any JSON value, a key or element removed or added, an action rewritten.
Every record goes through ``djebel replay FILE --verify`` and ``djebel play algeria
--load FILE`` run in-process through the CLI's entry point: each ends normally or with
one line ``error: ...`` and exit status 2, never a traceback. Every position goes
through ``from_position``: it builds a game or raises a DjebelError, nothing else.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from djebel import algeria, skirmish
from djebel.algeria.board import AREA_IDS, BOX_NAMES, TYPE_KEYS, UNIT_NAMES
from djebel.algeria.position import from_position, to_position
from djebel.algeria.position_checks import FRAMES, NOT_IN_POSITIONS, describable
from djebel.core.errors import DjebelError
from djebel.core.records import make_record

sys.path.insert(0, str(Path(__file__).parent))
from cli_helpers import run_cli  # noqa: E402

WORDS = (*AREA_IDS[:6], *BOX_NAMES, *TYPE_KEYS, *UNIT_NAMES[::9], *FRAMES,
         *NOT_IN_POSITIONS, "fln", "gov", "contested", "unplaced", "flush", "react", "auto",
         "band*", "fr_xx~", "el_x^", "police!", "cadre*^", "", "[rule 6.2]", "1958", "1954",
         "ambush", "neutralize", "suez", "shorter_game", "final_hash", "start", "dice_script")
KEYS = ("scenario", "options", "turn", "phase", "fln_psl", "gov_psl", "ap", "air", "helo",
        "border_zone", "independent", "oas", "suez", "suez_used", "slow_french", "areas",
        "nato", "removed", "stack", "control", "terror", "resettled", "where", "controller",
        "max", "available", "drm", "active", *BOX_NAMES, *AREA_IDS[:6], "game", "seed",
        "actions", "dice_script", "final_hash", "start", "engine", "format", "turn_limit")
ACTIONS = ("pass", "done", "place auto", "psp 3", "flush II-1", "move cadre2 I-1",
           "propaganda front1", "surface all", "build band ALGIERS", "go", "air 1",
           "move A3 45.5 60", "fire A3 B1", "end", "activate fr_x1", "mobilize police",
           "nan", "psp -1", "psp 1e400", "place fr_xx ORAN dispersed", "1" * 30)

SCALARS = (st.none() | st.booleans() | st.integers(-5, 120) | st.sampled_from(WORDS)
           | st.floats(allow_nan=True) | st.text(max_size=6) | st.integers())
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner,
                                        max_size=3), max_leaves=8)


def _paths(doc, path=()):
    """Every place in a JSON document, as a key path."""
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*path, i))


def mutate(doc, data) -> object:
    """1-4 random edits of a copy of ``doc``: mostly plausible ones (a unit token moved to
    another box or area, a number nudged, a word swapped), some wild (any JSON value)."""
    doc = copy.deepcopy(doc)
    rng = random.Random(data.draw(st.integers(0, 2**64)))
    for _ in range(rng.randint(1, 4)):
        paths = list(_paths(doc))
        if len(paths) == 1 or rng.random() < 0.01:
            doc = data.draw(VALUES)
            continue
        path = rng.choice(paths[1:])
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        last, value = path[-1], parent[path[-1]]
        how = rng.choice(("value", "word", "word", "nudge", "nudge", "nudge", "delete",
                          "move", "move", "move", "insert", "action", "action"))
        if how == "delete":
            del parent[last]
        elif how == "move":           # a word of a list moved into another list of words
            lists = [q for q in paths if q != path[:-1] and isinstance(_at(doc, q), list)
                     and all(isinstance(x, str) for x in _at(doc, q))]
            if isinstance(parent, list) and isinstance(value, str) and lists:
                target = _at(doc, rng.choice(lists))
                target.insert(rng.randint(0, len(target)), parent.pop(last))
        elif how == "insert" and isinstance(value, list):
            value.insert(rng.randint(0, len(value)), rng.choice(WORDS))
        elif how == "insert" and isinstance(value, dict):
            value[rng.choice(KEYS)] = data.draw(VALUES)
        elif how == "nudge" and isinstance(value, bool):
            parent[last] = not value
        elif how == "nudge" and isinstance(value, int):
            parent[last] = value + rng.choice((-100, -2, -1, 1, 2, 7, 100))
        elif how in ("nudge", "word", "insert"):
            parent[last] = rng.choice(WORDS)
        elif how == "action":
            parent[last] = rng.choice(ACTIONS)
        else:
            parent[last] = data.draw(VALUES)
    return doc


def _at(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def _played(game, n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@cache
def _positions() -> tuple[dict, ...]:
    """Positions of games in progress (with their stacks), and a short hand-written one."""
    out = [{"scenario": "1958", "turn": 2, "phase": "operations", "fln_psl": 55,
            "areas": {"ALGIERS": {"UG": ["cadre"], "OPS": ["front", "cadre"],
                                  "PTL": ["police"]}}}]
    for scenario, seed, n in (("1954", 1, 90), ("1958", 2, 140), ("1960", 3, 60)):
        g = _played(algeria.new_game(scenario, seed=seed, log=False), n, seed)
        while not describable(g.state.stack):
            g.apply(g.legal_actions()[0])
        out.append(json.loads(json.dumps(to_position(g))))
    return tuple(out)


@cache
def _records() -> tuple[dict, ...]:
    out = [make_record(_played(algeria.new_game("1958", seed=4, log=False), 40, 4)),
           make_record(_played(algeria.new_game("1954", seed=5, log=False), 20, 5))]
    start = from_position(_positions()[1], seed=6, log=False)
    out.append(make_record(_played(start, 15, 6)))
    out.append(make_record(_played(skirmish.new_game("ambush", seed=7), 12, 7)))
    return tuple(json.loads(json.dumps(r)) for r in out)


def _check_clean(code: int, text: str, rec) -> None:
    assert code in (0, 1, 2), (code, text, rec)
    if code == 2:
        lines = text.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (text, rec)


@settings(max_examples=700, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_records_through_the_cli_answer_one_line(data, tmp_path_factory):
    rec = mutate(data.draw(st.sampled_from(_records())), data)
    path = tmp_path_factory.getbasetemp() / "fuzz-record.json"
    path.write_text(json.dumps(rec))
    code, text = run_cli("replay", str(path), "--verify")
    _check_clean(code, text, rec)
    code, text = run_cli("play", "algeria", "--load", str(path), "--fln", "human",
                         "--gov", "human")
    _check_clean(code, text, rec)


@settings(max_examples=2500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_positions_raise_only_djebel_errors(data):
    pos = mutate(data.draw(st.sampled_from(_positions())), data)
    try:
        game = from_position(pos, seed=1, log=False)
    except DjebelError as exc:
        assert "\n" not in str(exc)
        return
    assert game.is_over() or game.legal_actions()     # a position that loads can be played
    _played(game, 3, 1)


@pytest.mark.fuzz
@settings(max_examples=6_000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_many_more_mutated_positions(data):
    """New examples on every run (not derandomized), more of them."""
    test_mutated_positions_raise_only_djebel_errors.hypothesis.inner_test(data)
