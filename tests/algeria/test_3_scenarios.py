"""3 Set-up and chart C.8: each scenario's tracks and the units each side places."""

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import helpers as h  # noqa: E402

from djebel import algeria  # noqa: E402
from djebel.algeria.board import (  # noqa: E402
    AREA_IDS,
    AREA_WILAYA,
    FLN_UNITS,
    FRONT,
    OPS,
    POLICE,
    PTL,
    REMOTE,
    TYPE_KEYS,
    UG,
    UNIT_NAMES,
    UTYPE,
    WILAYA_AREAS,
)
from djebel.algeria.rules.common import rating  # noqa: E402
from djebel.core.errors import IllegalAction  # noqa: E402

# Chart C.8, transcribed per wilaya: (Government units, FLN units).
C8 = {
    "1954": {
        "gov": {"II": {"fr_x": 1, "al_x": 1, "police": 1},
                "IV": {"fr_x": 1, "al_x": 1, "police": 1},
                "V": {"fr_x": 1, "el_x": 1, "al_x": 1, "police": 1}},
        "fln": {"I": {"front": 1, "cadre": 1}, "II": {"front": 1, "cadre": 2},
                "III": {"front": 1, "cadre": 1}, "IV": {"cadre": 1},
                "V": {"front": 1, "cadre": 2}},
        "abroad": {},
        "tracks": (65, 50, 0, 0, 0, None, False),
    },
    "1958": {
        "gov": {"I": {"fr_xx": 2, "fr_x": 1},
                "II": {"fr_xx": 2, "fr_x": 1, "el_x": 3, "al_x": 1, "police": 2},
                "III": {"fr_xx": 2, "al_x": 1, "police": 2},
                "IV": {"fr_xx": 2, "el_x": 3, "al_x": 2, "police": 2},
                "V": {"fr_xx": 3, "fr_x": 1, "el_x": 1, "al_x": 1, "police": 2}},
        "fln": {"I": {"front": 1, "cadre": 2, "band": 2},
                "II": {"front": 1, "cadre": 2, "band": 2},
                "III": {"front": 1, "cadre": 2, "band": 2},
                "IV": {"front": 2, "cadre": 2, "band": 2},
                "V": {"front": 1, "cadre": 1, "band": 1},
                "VI": {"front": 1, "cadre": 1, "band": 1}},
        "abroad": {"MOROCCO": {"band": 1}, "TUNISIA": {"band": 4, "failek": 1}},
        "tracks": (50, 60, 6, 4, 2, -2, True),
    },
    "1960": {
        # DIS-06: the chart's 2 Algerian brigades in wilaya II become 1 (6 counters).
        "gov": {"I": {"fr_xx": 2, "al_x": 1},
                "II": {"fr_xx": 2, "el_x": 4, "al_x": 1, "police": 2},
                "III": {"fr_xx": 2, "fr_x": 1, "al_x": 1},
                "IV": {"fr_xx": 2, "el_x": 3, "al_x": 2, "police": 2},
                "V": {"fr_xx": 5, "al_x": 1, "police": 2}},
        "fln": {"I": {"cadre": 2, "band": 2},
                "II": {"front": 1, "cadre": 2, "band": 2},
                "III": {"front": 2, "cadre": 2, "band": 2},
                "IV": {"front": 1, "cadre": 1, "band": 1},
                "V": {"cadre": 1, "band": 1}},
        "abroad": {"MOROCCO": {"band": 4}, "TUNISIA": {"band": 4, "failek": 3}},
        "tracks": (45, 45, 7, 5, 3, -3, True),
    },
}


def _expected(table):
    return Counter({(k, w): n for w, units in table.items() for k, n in units.items()})


@pytest.mark.parametrize("scenario", ["1954", "1958", "1960"])
def test_C8_setup_queues_match_the_chart(scenario):
    g = algeria.new_game(scenario, seed=5)
    s = g.state
    frames = {f[1]: f[2] for f in s.stack if f[0] == "setup_place"}
    for side in ("gov", "fln"):
        got = Counter((TYPE_KEYS[t], w) for t, w in frames[side])
        assert got == _expected(C8[scenario][side]), side
    assert g.active_side == "gov"        # 3-4: Government places first
    abroad = Counter((TYPE_KEYS[UTYPE[u]], AREA_WILAYA[s.loc[u]]) for u in FLN_UNITS
                     if s.loc[u] >= 0)
    assert abroad == _expected(C8[scenario]["abroad"])


@pytest.mark.parametrize("scenario", ["1954", "1958", "1960"])
def test_C8_tracks(scenario):
    g = algeria.new_game(scenario, seed=5, dice_script=(4, 5))
    s = g.state
    gov, fln, air, helo, naval, bz, indep = C8[scenario]["tracks"]
    assert (s.gov_psl, s.fln_psl) == (gov, fln)
    assert (s.air_max, s.air_avail, s.helo_max, s.helo_avail) == (air, air, helo, helo)
    assert s.naval == naval and s.bz == bz and s.independent is indep
    assert not s.bz_active               # 3-5: mobilized but not active
    assert s.ap == 9                     # 3-3: 2d6
    assert s.turn == 0


def test_C8_1960_wilaya_ii_one_algerian_brigade_dis_06():
    g = algeria.new_game("1960", seed=5)
    q = [f for f in g.state.stack if f[0] == "setup_place" and f[1] == "gov"][0][2]
    assert sum(1 for t, w in q if TYPE_KEYS[t] == "al_x" and w == "II") == 1
    assert sum(1 for t, w in q if TYPE_KEYS[t] == "al_x") == 6


@pytest.mark.parametrize("scenario", ["1954", "1958", "1960"])
def test_3_4_placement_boxes_and_front_limits(scenario):
    g = h.new(scenario, seed=7)
    s = g.state
    front_areas = []
    for u in range(len(s.loc)):
        a = s.loc[u]
        if a < 0 or AREA_WILAYA[a] in ("MOROCCO", "TUNISIA"):
            continue
        if u in FLN_UNITS:
            assert s.box[u] == UG
            if UTYPE[u] == FRONT:
                assert rating(s, a) != REMOTE
                front_areas.append(a)
        elif UTYPE[u] == POLICE:
            assert s.box[u] == PTL
    assert len(front_areas) == len(set(front_areas))
    assert all(c == 0 for c in s.control)     # 3-6: all Contested


def test_3_4_placement_only_in_the_wilaya_named():
    g = algeria.new_game("1954", seed=2)
    t, w = g.state.stack[-1][2][0]
    assert all(AREA_WILAYA[h.A(a.split()[2])] == w for a in h.legal(g)
               if a != "place auto")


def test_3_4_government_mobile_units_start_in_ops_then_turn_1_activation():
    g = h.new("1954", seed=7)
    s = g.state
    for u in range(len(s.loc)):
        if s.loc[u] >= 0 and TYPE_KEYS[UTYPE[u]] in ("fr_x", "el_x", "al_x"):
            assert s.box[u] == OPS


def test_3_4_place_auto_takes_one_scripted_die_per_unit():
    # 3-3 takes the first two scripted dice (2d6 AP); `place auto` then rolls one die per
    # Government unit, a dN over the N areas open to it in map order: ten 1s put each unit
    # in the first area of its wilaya (docs/rules-notes.md, "place auto and scripted dice").
    g = algeria.new_game("1954", dice_script=(3, 4, *(1,) * 10, 6, 5))
    s = g.state
    assert s.ap == 7 and s.dice.pos == 2
    g.apply("place auto")
    assert s.dice.pos == 12
    firsts = {w: AREA_IDS[WILAYA_AREAS[w][0]] for w in ("II", "IV", "V")}
    placed = {(UNIT_NAMES[u], AREA_IDS[s.loc[u]]) for u in range(len(s.loc))
              if s.loc[u] >= 0 and u not in FLN_UNITS}
    assert placed == {("fr_x1", firsts["II"]), ("al_x1", firsts["II"]),
                      ("police1", firsts["II"]), ("fr_x2", firsts["IV"]),
                      ("al_x2", firsts["IV"]), ("police2", firsts["IV"]),
                      ("fr_x3", firsts["V"]), ("el_x1", firsts["V"]),
                      ("al_x3", firsts["V"]), ("police3", firsts["V"])}


def test_3_4_place_auto_refuses_scripted_dice_that_do_not_fit():
    # The FLN's first unit is the Front of wilaya I: 2 areas are open to it (not Remote),
    # so a d2; the scripted 6 is no face of it: refused, naming the rule and the script
    # index, and nothing changes. Placed by hand, the 6 and 5 reach the random event (5-1).
    g = algeria.new_game("1954", dice_script=(3, 4, *(1,) * 10, 6, 5))
    g.apply("place auto")
    before = g.state_hash()
    assert "place auto" not in h.legal(g)
    with pytest.raises(IllegalAction) as err:
        g.apply("place auto")
    assert err.value.rule == "3-4"
    assert "d2 for the front of wilaya I" in str(err.value)
    assert "dice_script[12]) is 6" in str(err.value)
    assert g.state_hash() == before
    while g.decision() == "setup_place":
        g.apply(g.legal_actions()[0])
    assert [(e.rule, e.dice) for e in g.log.tail(3)][0] == ("5-1", (6, 5))
    assert g.log.tail(2)[0].text.startswith("Event 65")
