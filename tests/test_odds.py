"""Exact odds: each function equals a brute-force enumeration written here."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from djebel.algeria.tables import tables
from djebel.odds import algeria as odds
from djebel.odds import skirmish as sk
from djebel.odds.cli import app

FACES = range(1, 7)


# ---------------------------------------------------------------- brute force

def brute_crt(firepower: int, air: int) -> dict[int, Fraction]:
    t = tables()
    counts: Counter = Counter()
    for dice in itertools.product(FACES, repeat=air + 1):
        *air_dice, roll = dice
        fp = firepower + sum(air_dice)
        col = next((i for i, (_lo, hi) in enumerate(t.crt_columns) if fp <= hi),
                   len(t.crt_columns) - 1)
        counts[t.crt_hits[roll - 1][col]] += 1
    total = 6 ** (air + 1)
    return {k: Fraction(v, total) for k, v in counts.items()}


def brute_mission(drm: int) -> dict[str, Fraction]:
    t = tables()
    counts: Counter = Counter()
    for roll in FACES:
        r = min(max(roll + drm, t.mst_min), t.mst_max)
        counts[t.mst[r - t.mst_min].text] += 1
    return {k: Fraction(v, 6) for k, v in counts.items()}


def brute_control(fln: int, gov: int) -> tuple[Fraction, Fraction, Fraction]:
    if fln == gov:
        return Fraction(0), Fraction(0), Fraction(1)
    if fln > 0 and fln >= 2 * gov:
        return Fraction(1), Fraction(0), Fraction(0)
    if gov > 0 and gov >= 2 * fln:
        return Fraction(0), Fraction(1), Fraction(0)
    d = abs(fln - gov)
    f = g = c = 0
    for a, b in itertools.product(FACES, FACES):
        if a <= d < b:
            f += 1
        elif b <= d < a:
            g += 1
        else:
            c += 1
    return Fraction(f, 36), Fraction(g, 36), Fraction(c, 36)


# ---------------------------------------------------------------- functions

@pytest.mark.parametrize("firepower", [0, 1, 3, 4, 5, 8, 9, 14, 16, 24, 25, 30, 40])
@pytest.mark.parametrize("air", [0, 1, 2, 3])
def test_crt_matches_enumeration(firepower, air):
    got = odds.crt(firepower, air, exact=True)["hits"]
    want = brute_crt(firepower, air)
    assert {int(k): v for k, v in got.items() if v} == want
    assert sum(got.values()) == 1
    assert list(got) == [str(n) for n in range(len(got))]     # every count from 0


def test_crt_float_shape():
    data = odds.crt(6, 1)
    assert set(data) == {"hits"}
    assert all(isinstance(k, str) and isinstance(v, float) for k, v in data["hits"].items())
    assert abs(sum(data["hits"].values()) - 1) < 1e-12


@pytest.mark.parametrize("drm", range(-8, 9))
def test_mission_matches_enumeration(drm):
    got = odds.mission(drm, exact=True)["results"]
    assert got == brute_mission(drm)
    assert sum(got.values()) == 1


def test_mission_keys_in_table_order():
    keys = list(odds.mission(0)["results"])
    assert keys == ["1+", "1", "2", "3@"]
    assert list(odds.mission(-1)["results"]) == ["0+", "1+", "1", "2"]


@pytest.mark.parametrize("rating", [0, 1, 2, 3, 4, 5, 6, 7, 9])
@pytest.mark.parametrize("drm", [-1, 0, 1, 2, 3])
def test_contact_matches_enumeration(rating, drm):
    want = Fraction(sum(1 for r in FACES if r + drm <= rating), 6)
    assert odds.contact(rating, drm, exact=True)["contact"] == want


@pytest.mark.parametrize("fln,gov", [(0, 0), (3, 0), (0, 1), (3, 2), (2, 3), (5, 3), (3, 5),
                                     (4, 2), (7, 4), (11, 9), (20, 11), (9, 14), (1, 1)])
def test_control_matches_enumeration(fln, gov):
    got = odds.control(fln, gov, exact=True)
    assert (got["fln"], got["gov"], got["contested"]) == brute_control(fln, gov)


def test_contact_drm_from_b3():
    assert odds.contact_drm(3, 4, "remote", True) == 3
    assert odds.contact_drm(3, 2, "urban", False) == -1
    assert odds.contact_drm(3, 3, "rural", False) == 0


def test_invalid_parameters():
    with pytest.raises(ValueError):
        odds.crt(5, -1)
    with pytest.raises(ValueError):
        odds.control(-1, 2)


# ---------------------------------------------------------------- describe

SEARCH_SEEDS = range(40)


def _find_pending(kind_verbs: set[tuple[str, str]], seeds=SEARCH_SEEDS):
    """Random play until an action of one of the (decision, verb) kinds is legal."""
    from djebel import algeria

    for seed in seeds:
        game = algeria.new_game(("1958", "1960", "1954")[seed % 3], seed=seed, log=False)
        rng = random.Random(seed)
        while not game.is_over() and game.state.turn < 6:
            legal = game.legal_actions()
            for a in legal:
                if (game.decision(), a.verb) in kind_verbs:
                    return game, a
            game.apply(rng.choice(legal))
    pytest.skip(f"no {kind_verbs} reached in random play")


def test_describe_propaganda_uses_state_drm():
    game, action = _find_pending({("ops_fln", "propaganda")})
    text = odds.describe(game, action)
    assert text is not None and text.startswith("Propaganda in") and "MST DRM" in text


def test_describe_flush_and_air():
    game, action = _find_pending({("select", "go")})
    text = odds.describe(game, action)
    if game.state.stack[-1][2] == "flush":
        assert text is not None and "contact" in text
    game2, action2 = _find_pending({("air_commit", "air")})
    text2 = odds.describe(game2, str(action2))
    assert text2 is not None and "hits" in text2


def test_describe_harass_and_mst_missions():
    game, action = _find_pending({("harass_target", "target")})
    text = odds.describe(game, action)
    assert text is not None and text.startswith("Harass") and "half" in text
    game, action = _find_pending({("ops_gov", "civil-affairs"), ("ops_gov", "suppression"),
                                  ("raid_add", "go"), ("move_to", "to")})
    text = odds.describe(game, action)
    assert text is not None and ("MST DRM" in text or "eliminated" in text)


def test_describe_other_actions_none():
    from djebel import algeria

    game = algeria.new_game("1958", seed=1, log=False)
    assert odds.describe(game, game.legal_actions()[0]) is None


# ---------------------------------------------------------------- CLI

runner = CliRunner()


def _json(args: list[str]) -> dict:
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_cli_json_shapes():
    data = _json(["algeria", "crt", "--firepower", "7", "--air", "1", "--json"])
    assert set(data) == {"hits"}
    assert abs(sum(data["hits"].values()) - 1) < 1e-9 and "0" in data["hits"]
    data = _json(["algeria", "mission", "--drm", "2", "--json"])
    assert set(data) == {"results"}
    assert list(data["results"]) == ["1", "2", "3@", "4@", "5@"]
    data = _json(["algeria", "contact", "--rating", "4", "--drm", "1", "--json"])
    assert data == {"contact": pytest.approx(0.5)}
    data = _json(["algeria", "control", "--fln", "3", "--gov", "2", "--json"])
    assert set(data) == {"fln", "gov", "contested"}
    assert data["fln"] == pytest.approx(5 / 36)


@pytest.mark.parametrize("args", [["algeria", "crt", "--firepower", "12"],
                                  ["algeria", "mission", "--drm", "-2"],
                                  ["algeria", "contact", "--rating", "3"],
                                  ["algeria", "control", "--fln", "5", "--gov", "3"]])
def test_cli_tables(args):
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "%" in res.output


# ---------------------------------------------------------------- skirmish fire



def _skirmish_data():
    from djebel.skirmish.catalog import catalog, damage_result
    from djebel.skirmish.catalog import tables as sk_tables

    return catalog(), sk_tables(), damage_result


def _binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    from math import comb

    return {u: comb(n, u) * p**u * (1 - p) ** (n - u) for u in range(n + 1)}


def _p_face(pred) -> Fraction:
    return Fraction(sum(1 for r in FACES if pred(r)), 6)


def brute_ap(attacker, target, conc, cover, flank, close, moved, side):
    cat, tabs, _ = _skirmish_data()
    f, t = cat[attacker], cat[target]
    th = tabs["to_hit"]
    needed = {"open": th["open"], "obscured": th["obscured"], "heavy": th["heavy_obscured"]}[conc]
    needed += th["flank_or_rear"] * flank + th["close_range"] * close + th["move_and_shoot"] * moved
    needed = max(2, min(6, needed))
    save = tabs["ap_save"][side][{"none": "open", "light": "light", "heavy": "heavy"}[cover]]
    if save and f.ap_save_modifier and not f.ap_save_modifier_vs_hard_only:
        save -= f.ap_save_modifier
    if save > 6:
        save = 0
    p_hit = _p_face(lambda r: r >= needed)
    p_save = _p_face(lambda r: r >= save and r != 1) if save else Fraction(0)
    dist = _binomial(f.ap_fp_by_sp[-1] if f.is_infantry else f.ap_fp, p_hit * (1 - p_save))
    pinned = sum(p * (1 - Fraction(1, 2) ** u) for u, p in dist.items()
                 if 0 < u < t.strength)
    eliminated = sum(p for u, p in dist.items() if u >= t.strength)
    return needed, save, dist, pinned, eliminated


@pytest.mark.parametrize("attacker,target,side", [
    ("ins_rifle", "french_rifle", "french"), ("french_rifle", "ins_rifle", "insurgent"),
    ("mmg", "ins_rifle", "insurgent"), ("panhard", "ins_rifle", "insurgent"),
    ("t72", "french_rifle", "french"), ("ins_rifle", "leader", "french")])
@pytest.mark.parametrize("conc,cover,flank,close,moved", [
    ("open", "none", False, False, False), ("obscured", "light", True, False, True),
    ("heavy", "heavy", False, True, False), ("open", "heavy", True, True, False),
    ("heavy", "none", False, False, True)])
def test_skirmish_ap_fire_matches_binomial(attacker, target, side, conc, cover, flank, close,
                                           moved):
    got = sk.fire(attacker, target, conc, cover, flank, close, moved, target_side=side,
                  exact=True)
    needed, save, dist, pinned, eliminated = brute_ap(attacker, target, conc, cover, flank,
                                                      close, moved, side)
    assert got["kind"] == "ap" and got["to_hit"] == needed and got["save"] == save
    assert {int(k): v for k, v in got["unsaved_hits"].items()} == dist
    assert got["pinned"] == pinned
    assert got["eliminated"] == eliminated


def brute_at(attacker, target, flank, rear, law=False):
    cat, tabs, damage_result = _skirmish_data()
    f, t = cat[attacker], cat[target]
    needed = max(2, min(6, tabs["to_hit"]["open"] + (tabs["to_hit"]["flank_or_rear"]
                                                     if flank or rear else 0)))
    need = t.armour_save
    if not t.is_aircraft:
        need += tabs["armour_aspect"]["rear" if rear else "flank" if flank else "front"]
    need = need if need <= 6 else 0
    p_hit = _p_face(lambda r: r >= needed)
    p_save = _p_face(lambda r: r >= need and r != 1) if need else Fraction(0)
    dist = _binomial(f.one_shot_fp if law else f.at_fp, p_hit * (1 - p_save))
    damage: Counter = Counter()
    pinned = bails = Fraction(0)
    for u, p in dist.items():
        if u == 0:
            damage["no_effect"] += p
            continue
        for r in FACES:
            res = damage_result(t.damage_chart, r + u - 1)
            q = p / 6
            damage[res] += q
            if res == "pinned":
                pinned += q
            elif not res.startswith("destroyed"):
                pinned += q * (1 - Fraction(1, 2) ** u)
                if res in ("immobilized", "main_armament_ko", "forced_to_land_passengers_hit"):
                    bails += q * Fraction(1, 2)
    return dist, dict(damage), pinned, bails


@pytest.mark.parametrize("attacker,target,flank,rear,law", [
    ("atgm", "t72", False, False, False), ("atgm", "t72", True, False, False),
    ("ins_rifle", "panhard", False, True, False), ("french_rifle", "t55", False, False, True),
    ("ins_rifle", "attack_helo", True, False, False), ("mmg", "technical_hmg", False, False,
                                                       False),
    ("m1", "bmp2", False, False, False), ("ins_rifle", "range_rover", False, True, False)])
def test_skirmish_at_fire_matches_enumeration(attacker, target, flank, rear, law):
    got = sk.fire(attacker, target, flank=flank, rear=rear, law=law, exact=True)
    dist, damage, pinned, bails = brute_at(attacker, target, flank, rear, law)
    assert got["kind"] == "at"
    assert {int(k): v for k, v in got["unsaved_hits"].items()} == dist
    assert {k: v for k, v in got["damage"].items() if v} == {k: v for k, v in damage.items()
                                                              if v}
    assert sum(got["damage"].values()) == 1
    assert got["pinned"] == pinned and got["crew_bails"] == bails


def test_skirmish_restrictions_are_errors():
    from djebel.core.errors import ScenarioError

    with pytest.raises(ScenarioError):
        sk.fire("sam", "t72")                 # aircraft only
    with pytest.raises(ScenarioError):
        sk.fire("mmg", "t72")                 # AT only vs armour 6
    with pytest.raises(ScenarioError):
        sk.fire("nope", "t72")


def test_skirmish_cli():
    res = runner.invoke(app, ["skirmish", "fire", "--attacker", "ins_rifle", "--target",
                              "french_rifle", "--cover", "light", "--flank", "--close",
                              "--moved", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert set(data) >= {"unsaved_hits", "pinned"} and "0" in data["unsaved_hits"]
    res = runner.invoke(app, ["skirmish", "fire", "-a", "atgm", "-t", "t72", "--rear"])
    assert res.exit_code == 0, res.output
    assert "damage" in res.output


def _react_game(air: int, **areas):
    from djebel.algeria.position import from_position

    pos = {"scenario": "1958", "turn": 2, "phase": "operations", "ap": 4,
           "air": {"max": max(air, 1), "available": air}, "areas": areas}
    return from_position(pos, seed=1)


def test_describe_strike_move_and_government_react_cases():
    """9.12-7 mandatory React (none possible: the 1d6 PSL penalty; Urban: no Air Points,
    11.11-3), DIS-11 React after a Move in the destination, 11.12-4 an elite airmobile pair
    grouped (9.22-3), and the GOV's own React with each Air Point and the evasion first."""
    g = _react_game(1, ALGIERS={"OPS": ["front", "cadre"], "PTL": ["police"]})
    g.apply("strike front1")
    assert odds.describe(g, "go") == (
        "Strike in ALGIERS: MST DRM -1 -> 0+:17% 1+:17% 1:33% 2:33% (mean N 1.17); "
        "no GOV unit can React (GOV PSL -1d6, 9.12-7)")
    g = _react_game(1, ALGIERS={"OPS": ["front", "cadre"], "PTL": ["police", "el_x!"]})
    g.apply("strike front1")
    assert odds.describe(g, "go").endswith(
        "the GOV must React (9.12-7) or lose 1d6 PSL; if it reacts: front1 evades 50%; "
        "if not evaded: FLN fire 3: hits 0:50% 1:33% 2:17%; GOV fire 9 (el_x1): hits "
        "1:17% 2:17% 3:33% 4:17% 5:17%")
    g = _react_game(0, **{"II-1": {"OPS": ["band"]}, "II-2": {"OPS": ["el_x!^", "el_x!^"]}})
    g.apply("move band1")
    assert odds.describe(g, "to II-2") == (
        "Move to II-2: DRM +0, unit eliminated 17%; if the GOV reacts (9.23): band1 evades "
        "50%; if not evaded: FLN fire 2: hits 0:50% 1:33% 2:17%; GOV fire 9 (el_x1 or "
        "el_x2): hits 1:17% 2:17% 3:33% 4:17% 5:17%; GOV fire 18 (el_x1 + el_x2): hits "
        "2:17% 4:17% 5:33% 6:17% 8:17%")
    g = _react_game(2, **{"II-1": {"OPS": ["cadre"], "PTL": ["police", "al_x!"]}})
    g.apply("propaganda cadre1")
    while g.decision() != "select":
        g.apply(g.legal_actions()[0])
    assert odds.describe(g, "go") is None            # no unit chosen: 'go' is refused
    g.apply("add al_x1")
    assert odds.describe(g, "go") == (
        "React in II-1: cadre1 evades 67%; if not evaded: FLN fire 1: hits 0:83% 1:17%; "
        "GOV fire 5: hits 1:33% 2:50% 3:17%; +1 Air: hits 1:25% 2:33% 3:25% 4:8% 5:8%; "
        "+2 Air: hits 1:17% 2:19% 3:29% 4:15% 5:17% 6:1% 8:1%")
    g.apply("go")
    assert odds.describe(g, "air 1") == (
        "cadre1 evades 67%; if not evaded: GOV fire, firepower 5 + 1d6 air: hits 1:25% "
        "2:33% 3:25% 4:8% 5:8%; FLN fire 1: hits 0:83% 1:17%")


def test_react_group_is_limited_by_helo_and_air_points_that_change_nothing_merge():
    """11.12-1: brigades flown in to a React pay Helo points (2 each for Algerian ones),
    so with 4 the strongest group is two; 11.12-4: any brigade may fly in beside a French
    division; Air Points past the CRT's last column are one case (C.3)."""
    g = _react_game(1, **{"I-1": {"OPS": ["cadre"], "OC": ["fr_xx"]},
                          "II-1": {"OPS": ["al_x!", "al_x!", "al_x!"]},
                          "II-2": {"OPS": ["el_x!^"]}})
    g.state.helo_avail = 4
    text = odds.describe(g, "propaganda cadre1")
    assert "GOV fire 5 (al_x1 or al_x2 or al_x3)" in text
    assert "GOV fire 9 (el_x1) (+0-1 Air): hits 1:17% 2:17% 3:33% 4:17% 5:17%;" in text
    assert text.endswith("GOV fire 19 (el_x1 + al_x1 + al_x2): hits 2:17% 4:17% 5:33% 6:17% "
                         "8:17%; +1 Air: hits 2:14% 3:3% 4:14% 5:31% 6:14% 7:3% 8:17% "
                         "10:3% 12:3%")
