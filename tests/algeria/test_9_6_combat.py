"""9-6 Combat procedure and the Combat Results Table (C.3)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel.algeria.tables import tables  # noqa: E402


@pytest.mark.parametrize("fp, hits", [
    (0, 1), (1, 1), (2, 2), (4, 2), (5, 3), (8, 3), (9, 5), (15, 5), (16, 8), (24, 8),
    (25, 12), (36, 12), (60, 12)])
def test_C3_column_edges_on_a_six(fp, hits):
    assert tables().crt(fp, 6) == hits


def test_C3_column_1_needs_a_six():
    assert [tables().crt(1, r) for r in range(1, 7)] == [0, 0, 0, 0, 0, 1]


def _flush(g, area, units, rolls, air=0):
    h.script(g, *rolls)
    h.ops(g, "gov")
    g.apply(f"flush {area}")
    for u in units:
        g.apply(f"add {u}")
    g.apply("go")
    g.apply(f"air {air}")


def test_C3_excess_hits_on_fln_are_lost_and_reductions_pay_gov_2_fln_minus_1():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "front1", "II-1", "OPS")
    h.put(g, "fr_xx1", "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "OPS")
    h.set_psl(g, 40, 50)
    # Contact 1 + 2 = 3: band 1 -> 1 + 0 <= 3; front 2 -> 2 <= 3. CRT: FLN 2 + 3 = 5
    # (5-8) roll 6 -> 3 hits; GOV 25 + 9 = 34 (25-36) roll 6 -> 12 hits.
    _flush(g, "II-1", ["fr_xx1", "el_x1"], [1, 2, 6, 6])
    c = g.state.combat
    assert (c["on_gov"], c["on_fln"]) == (3, 12)
    g.apply("psp 3")                     # FLN +3
    assert h.psl(g) == (43, 50)
    g.apply("hit front1")                # Front -> Cadre: GOV +2, FLN -1
    assert h.psl(g) == (42, 52)
    new = g.state.combat["fln"]
    assert len(new) == 2
    g.apply("hit band1")
    g.apply(h.legal(g)[0])               # the Cadre the Front became
    assert g.decision() == "share" and g.state.stack[-1][:3] == ("share", "gov", 2)
    g.apply("psp 2")
    assert h.psl(g) == (42, 54)
    assert g.state.combat["fln"] == []   # nine more hits lost (C.3)
    assert not h.neut(g, "fr_xx1") and not h.neut(g, "el_x1")
    assert h.where(g, "fr_xx1") == ("II-1", "OC")
    assert g.decision() == "ops_fln"


def test_C3_side_with_more_table_hits_is_neutralized_gov():
    g = h.empty("1958")
    for u in ("band1", "band2", "front1"):
        h.put(g, u, "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "OPS")
    h.set_psl(g, 40, 50)
    # Contact 2; bands (3 > 2) +1: 1 -> 2; 1 -> 2; Front (3 > 2) +1: 1 -> 2: all found.
    # FLN 7 (5-8) roll 6 -> 3; GOV 9 (9-15) roll 1 -> 1.
    _flush(g, "II-1", ["el_x1"], [1, 1, 1, 6, 1])
    g.apply("psp 0")                     # GOV -3
    g.apply("hit band1")
    g.apply("psp 1")
    assert h.psl(g) == (40, 48)
    assert h.neut(g, "el_x1") and h.where(g, "el_x1") == ("II-1", "OC")
    assert not h.neut(g, "band2") and h.where(g, "band2") == ("II-1", "OC")
    assert not h.neut(g, "front1") and h.where(g, "front1") == ("II-1", "OC")


def test_C3_fln_survivors_neutralized_when_gov_scores_more():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "front1", "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "OPS")
    h.put(g, "el_x2", "II-1", "OPS")
    # Contact 4: both found on 1. FLN 5 (5-8) roll 1 -> 1; GOV 18 (16-24) roll 1 -> 2.
    _flush(g, "II-1", ["el_x1", "el_x2"], [1, 1, 1, 1])
    g.apply("psp 1")
    g.apply("hit front1")
    g.apply("hit band1")
    g.apply("psp 1")
    (cadre,) = g.state.combat["fln"]
    assert g.state.flags[cadre] & 1 and g.state.box[cadre] == 2     # NEUT, in OC
    assert not h.neut(g, "el_x1")


def test_C3_equal_results_nobody_neutralized():
    g = h.empty("1958")
    h.put(g, "front1", "II-1", "OPS")
    h.put(g, "el_x1", "II-1", "OPS")
    # Contact 2, Front +1: 1 -> 2 found. FLN 3 (2-4) roll 6 -> 2; GOV 9 roll 2 -> 2.
    _flush(g, "II-1", ["el_x1"], [1, 6, 2])
    g.apply("psp 2")
    g.apply("hit front1")
    g.apply(h.legal(g)[0])
    g.apply("psp 1")
    assert not h.neut(g, "el_x1")
    assert g.decision() == "ops_fln"


def test_C3_air_points_add_1d6_each_to_gov_firepower():
    g = h.empty("1958")
    h.put(g, "band1", "II-1", "OPS")
    h.put(g, "al_x1", "II-1", "OPS")
    g.state.air_avail = 3
    # React after a Raid, 2 Air Points: 2d6 = 5 + 6; GOV 5 + 11 = 16 (16-24).
    g.state.ap = 1
    h.script(g, 4, 6, 5, 6, 1, 1)        # Raid "2"; band evasion 6 (stays); air 5, 6; CRT
    h.ops(g)
    g.apply("raid band1")
    g.apply("go")
    g.apply("add al_x1")
    g.apply("go")
    g.apply("air 2")
    assert g.state.air_avail == 1
    assert "GOV fires with firepower 16" in h.log_text(g)
    assert g.state.combat["on_fln"] == 2
