"""Statistical checks: frequencies from the engine against exact icepool probabilities.

Each test runs the real rule functions many times on seeded dice and requires
every outcome's frequency to lie within 4.5 standard errors of the exact
probability, which a correct engine passes with overwhelming probability (and,
the seeds being fixed, always) while a wrong number fails.
"""

from __future__ import annotations

import math
from collections import Counter

import icepool
from skirmish_helpers import F, I

from djebel.skirmish.catalog import damage_result
from djebel.skirmish.rules import damage, fire

N = 6000


def _check(counts: Counter, exact: dict, n: int) -> None:
    for outcome, p in exact.items():
        freq = counts.get(outcome, 0) / n
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(freq - p) <= max(4.5 * se, 1e-9), (
            f"outcome {outcome}: {freq:.4f} vs exact {float(p):.4f}")
    assert set(counts) <= set(exact), f"impossible outcomes {set(counts) - set(exact)}"


def _die_dict(die) -> dict:
    return {o: float(die.probability(o)) for o in die.outcomes()}


def test_R62_R68_R70_sp_loss_french_open(build):
    # 5 AP dice at 4+, French in the open save on 6: each die removes an SP with p = 1/2 * 5/6
    g = build([I("ins_rifle", 20, 20, 0), F("french_rifle", 50, 20, 180)],
              first_side="insurgents", options={"log": False}, seed=11)
    f, t = g.el("I1"), g.el("F1")
    counts = Counter()
    for _ in range(N):
        t.sp, t.pinned, t.removed = 5, False, ""
        fire.attack(g, f, t, moving=False)
        counts[5 - t.sp] += 1
    unsaved = (icepool.d6 >= 4) & (icepool.d6 < 6)
    exact = _die_dict(5 @ unsaved)
    _check(counts, exact, N)


def test_R72_pin_frequency_given_unsaved_hits(build):
    g = build([I("ins_rifle", 20, 20, 0), F("french_rifle", 50, 20, 180)],
              options={"log": False}, seed=5)
    t = g.el("F1")
    for n in (1, 2, 3):
        pinned = 0
        for _ in range(N // 2):
            t.pinned = False
            fire.pin_test(g, t, n)
            pinned += t.pinned
        p = 1 - 0.5 ** n
        freq = pinned / (N // 2)
        assert abs(freq - p) <= 4.5 * math.sqrt(p * (1 - p) / (N // 2))


def test_R65_R64_hits_move_and_shoot_close_range(build):
    # firer 5 cm away (close +1), Move and Shoot (-1): 4+ per die
    g = build([F("french_rifle", 20, 20, 0), I("ins_rifle", 28, 20, 180)],
              options={"log": False}, seed=3)
    f, t = g.el("F1"), g.el("I1")
    counts = Counter()
    for _ in range(N):
        t.sp, t.pinned, t.removed = 5, False, ""
        counts[fire.attack(g, f, t, moving=True)] += 1
    _check(counts, _die_dict(5 @ (icepool.d6 >= 4)), N)


def test_R91_damage_roll_distribution_armoured_two_unsaved(build):
    g = build([F("lav", 20, 20), I("ins_rifle", 100, 100)], options={"log": False}, seed=9)
    counts = Counter()
    for _ in range(N):
        r = g.roll(1)[0]
        counts[damage_result("armoured", r + 1)] += 1
    chart = (icepool.d6 + 1).map(lambda x: damage_result("armoured", x))
    _check(counts, _die_dict(chart), N)
    assert damage.DAMAGE_TYPE["engine_damage"] == "engine"


def test_R87_armour_saves_flank_frequency(build):
    # 4 AT dice, flank: to hit 3+, armour 5+ on the flank needs 6: unsaved per die 2/3 * 5/6
    g = build([I("ins_rifle", 50, 50, 270), F("hmmwv_m2", 50, 20, 0)],
              first_side="insurgents", options={"log": False}, seed=21)
    f, t = g.el("I1"), g.el("F1")
    counts = Counter()
    assert fire.to_hit_needed(g, f, t, 0, "at", False) == 3
    assert fire.armour_needed(g, f, t) == 6
    for _ in range(N):
        hits = sum(1 for r in g.roll(4) if r >= fire.to_hit_needed(g, f, t, 0, "at", False))
        need = fire.armour_needed(g, f, t)
        counts[sum(1 for r in g.roll(hits) if r < need)] += 1
    unsaved = (icepool.d6 >= 3) & (icepool.d6 < 6)
    _check(counts, _die_dict(4 @ unsaved), N)


def test_R114_close_combat_hits_pinned_need_4(build):
    from djebel.skirmish.rules.close_combat import cc_dice
    g = build([F("french_rifle", 20, 20), I("ins_rifle", 23, 20, 180)],
              options={"log": False}, seed=2)
    e = g.el("I1")
    assert cc_dice(e) == 5
    counts = Counter()
    for _ in range(N // 2):
        counts[sum(1 for r in g.roll(cc_dice(e)) if r >= 4)] += 1
    _check(counts, _die_dict(5 @ (icepool.d6 >= 4)), N // 2)


def test_R158_matrix_bands_30_60_10():
    from djebel.skirmish.bots.matrix import MatrixBot, _band
    from djebel.skirmish.catalog import tables
    bands = tables()["decision_matrix"]["bands"]
    bot = MatrixBot(4)
    counts = Counter(_band(bot.dice.die(10), bands) for _ in range(N))
    _check(counts, {"most_dangerous": 0.3, "most_likely": 0.6, "goofiest": 0.1}, N)
