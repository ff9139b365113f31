"""Cross-check every table of the Charts & Tables (the seed text, A.1-C.8) against the
package's data files, and the map against the reference map.toml.

The seed and the reference live next to the repository (``../shared``); without them
the cross-check is skipped.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from djebel.algeria import board
from djebel.algeria.tables import load, tables

SHARED = Path(__file__).resolve().parents[3] / "shared"
SEED = SHARED / "seeds" / "000_e3f53036fe0d38da.txt"
REFERENCE_MAP = SHARED / "reference" / "algeria" / "map.toml"

DASHES = str.maketrans({"\u2013": "-", "\u2212": "-", "\u2014": "-"})


# ---------------------------------------------------------------- parsing the seed

@pytest.fixture(scope="module")
def seed() -> dict[str, list[str]]:
    """The seed's lines grouped by chart code ("A.1" .. "C.8")."""
    if not SEED.is_file():
        pytest.skip(f"seed file not found at {SEED}: the cross-check needs ../shared/seeds")
    text = SEED.read_text(encoding="utf-8").translate(DASHES)
    sections: dict[str, list[str]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.rstrip()
        m = re.match(r"^([ABC]\.\d)\s+\S", line)
        if m and "\t" not in line:
            current = m.group(1)
            if current in sections:      # the table of contents repeats nothing we need
                current = None
                continue
            sections[current] = []
            continue
        if re.match(r"^[ABC]\.\s", line) or line.startswith("(Algeria V2"):
            current = None
            continue
        if current and line.strip():
            sections[current].append(line)
    expected = {f"{c}.{n}" for c, k in (("A", 4), ("B", 4), ("C", 8)) for n in range(1, k + 1)}
    assert expected <= set(sections), f"charts missing from the seed: {expected - set(sections)}"
    return sections


@pytest.fixture(scope="module")
def ref_map() -> dict:
    if not REFERENCE_MAP.is_file():
        pytest.skip(f"reference map not found at {REFERENCE_MAP}: the cross-check needs "
                    "../shared/reference")
    return tomllib.loads(REFERENCE_MAP.read_text(encoding="utf-8"))


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.split("\t")]


def rows(lines: list[str]) -> dict[str, list[str]]:
    """Tab-separated lines keyed by their first cell."""
    return {cells(ln)[0]: cells(ln)[1:] for ln in lines if "\t" in ln}


def number(text: str) -> float:
    """'3', '1/2', '-1', '0+' -> the number."""
    text = text.strip()
    if m := re.fullmatch(r"(\d+)/(\d+)", text):
        return int(m.group(1)) / int(m.group(2))
    m = re.match(r"[-+]?\d+", text)
    assert m, f"no number in {text!r}"
    return int(m.group(0))


def roll_range(text: str) -> tuple[int, int]:
    """'3-4' -> (3, 4), '2' -> (2, 2), '25-36+' -> (25, 36), '>= 25' -> (25, None)."""
    text = text.replace("\u2265", ">=").strip().rstrip("+")
    if m := re.fullmatch(r">=\s*(\d+)", text):
        return int(m.group(1)), None
    if m := re.fullmatch(r"(\d+)-(\d+)", text):
        return int(m.group(1)), int(m.group(2))
    return int(text), int(text)


def drms(text: str) -> list[tuple[int, str]]:
    """'-1 x # units on Patrol -1 area is Terrorized' -> [(-1, 'x # units on Patrol'), ...]."""
    parts = re.split(r"(?:^|\s)([-+]\d+)\s", " " + text + " ")
    return [(int(parts[i]), parts[i + 1].strip()) for i in range(1, len(parts) - 1, 2)]


def drm_for(text: str, phrase: str) -> int:
    found = [v for v, what in drms(text) if phrase.lower() in what.lower()]
    assert len(found) == 1, f"DRM {phrase!r} not found once in {text!r}"
    return found[0]


# ---------------------------------------------------------------- A.1

def test_a1_reinforcement_costs(seed):
    r = rows(seed["A.1"])
    a1 = tables().a1
    assert r["Build Cadre or Band"][0] == "3 (2)"
    assert a1["build"]["cost"] == 3
    assert a1["build"]["cost_abroad"] == 2
    assert "Morocco / Tunisia" in r["Build Cadre or Band"][1]
    assert set(a1["build"]["units"]) == {"cadre", "band"}
    for label, key, frm, to in (("Convert Cadre to Front", "cadre_front", "cadre", "front"),
                                ("Convert Cadre to Band", "cadre_band", "cadre", "band"),
                                ("Convert Band to Failek", "band_failek", "band", "failek")):
        conv = a1["convert"][key]
        assert conv["cost"] == number(r[label][0]), label
        assert (conv["from"], conv["to"]) == (frm, to), label
    assert set(a1["convert"]) == {"cadre_front", "cadre_band", "band_failek"}
    assert "Not in Remote areas" in r["Convert Cadre to Front"][1]
    assert "Only possible in Morocco / Tunisia" in r["Convert Band to Failek"][1]


# ---------------------------------------------------------------- A.2

def test_a2_fln_mission_costs_and_drms(seed):
    r = rows(seed["A.2"])
    a2 = tables().a2
    assert r["Activity"][:4] == ["AP", "Notes", "Result", "DRM"]
    for label in ("Propaganda", "Strike", "Move", "Raid", "Harass"):
        assert a2[label.lower()]["cost"] == number(r[label][0]), label
    assert set(a2) == {"propaganda", "strike", "move", "raid", "harass"}

    prop = r["Propaganda"]
    assert a2["propaganda"]["drm_per_patrol"] == drm_for(prop[3], "units on Patrol")
    assert a2["propaganda"]["drm_terror"] == drm_for(prop[3], "Terrorized")
    assert "x2 if Urban area" in prop[2]
    assert a2["propaganda"]["urban_multiplier"] == 2

    strike = r["Strike"]
    assert a2["strike"]["drm_per_patrol"] == drm_for(strike[3], "units on Patrol")
    assert a2["strike"]["drm_terror"] == drm_for(strike[3], "Terrorized")
    assert a2["strike"]["drm_per_cadre"] == drm_for(strike[3], "Cadre assisting")
    assert "-1d6 Gov PSL if no React" in strike[2]
    assert a2["strike"]["no_react_penalty_d6"] == 1

    move = r["Move"]
    assert a2["move"]["drm_per_patrol"] == drm_for(move[3], "units on Patrol in area moved to")

    raid = r["Raid"]
    assert "+1 x (# units-1)" in raid[3]
    assert a2["raid"]["drm_per_extra_unit"] == 1
    assert a2["raid"]["drm_per_patrol"] == drm_for(raid[3], "units on Patrol")
    assert "x2 if Urban area" in raid[2]
    assert a2["raid"]["urban_multiplier"] == 2

    harass = r["Harass"]
    assert "HALF firepower (round up)" in harass[2]
    assert a2["harass"]["return_fire"] == "half"


# ---------------------------------------------------------------- A.3 / B.4

def mst_cells(lines: list[str]) -> dict[int, str]:
    r = rows(lines)
    rolls = [int(x) for x in r["Roll (1d6)"]]
    results = r["Result"]
    assert len(rolls) == len(results) == 10
    return dict(zip(rolls, results, strict=True))


@pytest.mark.parametrize("chart,file", [("A.3", "a3_mission_success"),
                                        ("B.4", "b4_mission_success")])
def test_mission_success_table_every_cell(seed, chart, file):
    printed = mst_cells(seed[chart])
    data = load(file)
    assert (data["min_roll"], data["max_roll"]) == (min(printed), max(printed))
    in_file = {row["roll"]: row["result"] for row in data["row"]}
    assert in_file == printed
    t = tables()
    for roll, text in printed.items():
        cell = t.mst_result(roll)
        assert cell.n == int(text.rstrip("+@")), (chart, roll)
        assert cell.plus == text.endswith("+"), (chart, roll)
        assert cell.at == text.endswith("@"), (chart, roll)
    # Off-table modified rolls read as the nearest end of the table.
    assert t.mst_result(-5) == t.mst_result(min(printed))
    assert t.mst_result(12) == t.mst_result(max(printed))


# ---------------------------------------------------------------- A.4

def test_a4_income_rates(seed):
    r = rows(seed["A.4"])
    a4 = tables().a4
    assert r["Source"][:3] == ["Urban", "Rural", "Remote"]
    area = next(v for k, v in r.items() if k.startswith("Areas under FLN Control"))
    key = next(k for k in r if k.startswith("Areas under FLN Control"))
    assert "-1 AP if area is terrorized" in key
    assert a4["area_income"]["terror"] == -1
    for rating, text in zip(("urban", "rural", "remote"), area, strict=True):
        m = re.fullmatch(r"(\d+) if controlled, (\d+) if contested but non-neutralized FLN "
                         r"units are present", text)
        if m:
            expect = {"controlled": int(m.group(1)), "contested": int(m.group(2))}
        else:
            assert text == "0", text
            expect = {"controlled": 0, "contested": 0}
        assert a4["area_income"][rating] == expect, rating
    psl = r["FLN PSL"][0]
    assert "FLN PSL x 10%" in psl and "round fractions up" in psl
    assert "MINUS # of Govt Naval Points" in psl
    assert a4["psl_income"] == {"percent": 10, "rounding": "up", "minus_naval": True}
    assert "Raid missions" in r and "Random Events" in r


# ---------------------------------------------------------------- B.1

B1_ITEMS = {"French division": "fr_xx", "French brigade": "fr_x",
            "French Elite brigade": "el_x", "Algerian brigade": "al_x", "Police unit": "police"}
B1_POINTS = {"1 Air Point": ("air",), "1 Naval / Helo Point": ("naval", "helo")}


def test_b1_mobilization_and_activation_every_row(seed):
    r = rows(seed["B.1"])
    b1 = tables().b1
    assert r["Item"][0] == "PSP to Mobilize"
    assert r["Item"][1].startswith("PSP to Activate")
    printed_items = [k for k in r if k != "Item"]
    assert set(printed_items) == set(B1_ITEMS) | set(B1_POINTS) | {"Border Zone"}
    for label, key in B1_ITEMS.items():
        mob, act = r[label]
        assert b1["unit"][key]["mobilize"] == number(mob), label
        assert b1["unit"][key]["activate"] == number(act), label
    assert "place in PTL box" in r["Police unit"][0]
    assert b1["unit"]["police"]["box"] == "PTL"
    assert set(b1["unit"]) == set(B1_ITEMS.values())
    for label, keys in B1_POINTS.items():
        mob, act = r[label]
        assert number(act) == 0
        for key in keys:
            assert b1["point"][key]["mobilize"] == number(mob), (label, key)
    assert set(b1["point"]) == {"air", "naval", "helo"}
    mob, act = r["Border Zone"]
    assert b1["border_zone"] == {"mobilize": number(mob), "activate": number(act)}


# ---------------------------------------------------------------- B.2

def coup_dice(text: str, verb: str) -> int:
    m = re.search(rf"{verb}\s*(\d+)d6", text)
    return int(m.group(1)) if m else 0


def test_b2_coup_table_every_row(seed):
    lines = seed["B.2"]
    header = lines[0]
    assert "Government PSL <= 30" in header and "roll 6 on a 1d6" in header
    assert "DRM +1 = if OAS is deployed in France" in header
    b2 = tables().b2
    assert (b2["threshold"], b2["attempt_on"], b2["oas_france_drm"]) == (30, 6, 1)
    printed = [(roll_range(c[0]), c[1]) for c in map(cells, lines)
               if "\t" in "\t".join(c) and re.fullmatch(r"\d+(-\d+)?", c[0])]
    assert len(printed) == 6
    data = tables().coup
    assert len(data) == len(printed)
    t = tables()
    for ((lo, hi), text), row in zip(printed, data, strict=True):
        name, effects = text.split(":", 1)
        assert row["result"] == name.strip(), (lo, hi)
        assert row["rolls"][0] == lo, name
        # The top row also takes 13, a 12 with the OAS-in-France DRM.
        assert row["rolls"][1] == (hi if hi < 12 else 13), name
        for roll in range(lo, hi + 1):
            assert t.coup_row(roll) is row or t.coup_row(roll) == row, roll
        sign = -1 if re.search(r"-\d+d6 PSP", effects) else 1
        assert row["psp_d6"] == sign * coup_dice(effects, r"[-+]"), name
        assert row["mobilize_d6"] == coup_dice(effects, "mobilize"), name
        m_fixed = re.search(r"remove (\d+) elite unit", effects)
        assert row["remove_elite"] == (int(m_fixed.group(1)) if m_fixed else 0), name
        assert row["remove_elite_d6"] == coup_dice(effects, "remove"), name
    assert t.coup_row(13)["result"] == printed[-1][1].split(":")[0]


# ---------------------------------------------------------------- B.3

B3_MISSIONS = {"Patrol": "patrol", "Flush": "flush", "React": "react",
               "Intelligence": "intelligence", "Civil Affairs": "civil_affairs",
               "Suppression": "suppression", "Population Resettlement": "resettlement"}


def test_b3_gov_mission_costs_and_drms(seed):
    r = rows(seed["B.3"])
    b3 = tables().b3
    assert r["Mission"][:4] == ["PSP", "Notes", "Result", "DRM"]
    assert {k for k in r if k != "Mission"} == set(B3_MISSIONS)
    assert set(b3) == set(B3_MISSIONS.values())
    for label, key in B3_MISSIONS.items():
        assert b3[key]["cost"] == number(r[label][0]), label
    for label in ("Flush", "Intelligence"):
        text = r[label][3]
        spec = b3[label.lower()]
        assert spec["drm_evasion_higher"] == drm_for(text, "Evasion rating of unit is higher")
        assert spec["drm_remote"] == drm_for(text, "in Remote area")
        assert spec["drm_terror"] == drm_for(text, "Terrorized")
        assert spec["drm_urban"] == drm_for(text, "in Urban area")
    assert b3["civil_affairs"]["drm_amnesty"] == drm_for(r["Civil Affairs"][3], "Amnesty")
    sup = r["Suppression"]
    assert b3["suppression"]["drm_per_elite"] == drm_for(sup[3], "Elite units assisting")
    assert b3["suppression"]["drm_amnesty"] == drm_for(sup[3], "Amnesty")
    assert "-1d6 Government PSP" in sup[2]
    assert b3["suppression"]["failure_d6"] == 1
    assert "FLN +3d6 PSP" in r["Population Resettlement"][2]
    assert b3["resettlement"]["fln_psp_d6"] == 3


# ---------------------------------------------------------------- C.1

def test_c1_sequence_and_control(seed):
    text = "\n".join(seed["C.1"])
    c1 = tables().c1
    assert "see who controls OAS (1-3=FLN)" in text
    assert c1["oas_fln_on"] == [1, 3]
    assert "OAS activates if Government PSL =< 30" in text
    assert c1["oas_active_psl"] == 30
    assert "3 Control Points for each FLN Front or Dispersed mode Division, 1 for each other" \
        in text
    assert c1["control"] == {"front_points": 3, "dispersed_division_points": 3,
                             "other_points": 1, "control_ratio": 2}
    assert "2x or more Points" in text
    phases = [cells(ln)[0] for ln in seed["C.1"] if ln.split("\t")[0].endswith("Phase")]
    assert [p.removesuffix(" Phase").lower().replace(" ", "_") for p in phases] == \
        c1["phases"][:4]


# ---------------------------------------------------------------- C.2

C2_KEYS = {"No event": "none", "FLN Foreign Arms shipment": "foreign_arms",
           "Jealousy and Paranoia": "jealousy", "Elections in France": "elections",
           "UN Debates Algerian Independence": "un_debate", "FLN Factional Purge": "purge",
           "Morocco and Tunisia Gain Independence": "independence",
           "NATO pressures France to boost European defense": "nato", "Suez Crisis": "suez",
           "Amnesty": "amnesty",
           "Jean-Paul Sartre writes article condemning the war": "sartre"}
C2_DICE = {"foreign_arms": ("ap_d6", r"adds (\d+)d6 AP"),
           "un_debate": ("psp_d6", r"by (\d+)d6"),
           "purge": ("neutralize_d6", r"rolls (\d+)d6"),
           "independence": ("psl_d6", r"PSL by (\d+)d6"),
           "nato": ("brigades_d6", r"rolls (\d+)d6"),
           "suez": ("elites_d6", r"remove (\d+)d6 elite"),
           "amnesty": ("drm", r"get a \+(\d+) DRM")}


def test_c2_random_events_every_range_and_dice(seed):
    printed = [cells(ln) for ln in seed["C.2"] if re.match(r"^\d\d-\d\d\t", ln)]
    assert len(printed) == 11
    events = tables().events
    assert len(events) == len(printed)
    t = tables()
    for (rng, text), ev in zip(printed, events, strict=True):
        lo, hi = roll_range(rng)
        title = text.split(".", 1)[0]
        key = C2_KEYS[title]
        assert ev["key"] == key, rng
        assert ev["name"] == (title if key != "none" else "No event"), rng
        assert tuple(ev["rolls"]) == (lo, hi), key
        for tens in range(1, 7):
            for units in range(1, 7):
                if lo <= tens * 10 + units <= hi:
                    assert t.event(tens * 10 + units)["key"] == key
        if key in C2_DICE:
            field_, pattern = C2_DICE[key]
            m = re.search(pattern, text)
            assert m, (key, pattern)
            assert ev[field_] == int(m.group(1)), key
        if key == "nato":
            assert "a division counts as three brigades" in text
            assert ev["division_brigades"] == 3
        if key == "sartre":
            assert "Reduce Government PSL by 1 PSP" in text
            assert ev["gov_psp"] == -1
        if key == "foreign_arms":
            assert "minus the current number of Naval Points" in text
    # Every two-dice roll has exactly one event.
    for tens in range(1, 7):
        for units in range(1, 7):
            r = tens * 10 + units
            assert sum(1 for ev in events if ev["rolls"][0] <= r <= ev["rolls"][1]) == 1, r


# ---------------------------------------------------------------- C.3

def test_c3_crt_every_cell_and_column(seed):
    lines = [cells(ln) for ln in seed["C.3"] if "\t" in ln]
    header, body = lines[0], lines[1:]
    assert header[0] == "Die Roll"
    columns = [roll_range(c) for c in header[1:]]
    data = load("c3_crt")
    assert [tuple(c) for c in data["columns"]] == columns
    assert [int(b[0]) for b in body] == [1, 2, 3, 4, 5, 6]
    printed = [[0 if x == "-" else int(x) for x in b[1:]] for b in body]
    assert data["hits"] == printed
    t = tables()
    for roll in range(1, 7):
        for col, (lo, hi) in enumerate(columns):
            for fp in range(lo, hi + 1):
                assert t.crt(fp, roll) == printed[roll - 1][col], (fp, roll)
        # "36+": anything above reads in the last column; below 1 in the first.
        assert t.crt(60, roll) == printed[roll - 1][-1]
        assert t.crt(0, roll) == printed[roll - 1][0]
    note = " ".join(seed["C.3"])
    assert "+1d6 for each Air Point used: no Air Points in Urban areas" in note
    assert data["air_point_d6"] == 1


# ---------------------------------------------------------------- C.4

def test_c4_depreciation_bands_and_drms(seed):
    text = "\n".join(seed["C.4"])
    assert "DRM: -1 for PSL <= 30, +1 for PSL => 70" in text
    c4 = tables().c4
    assert (c4["psl_low"], c4["drm_low"], c4["psl_high"], c4["drm_high"]) == (30, -1, 70, 1)
    r = rows(seed["C.4"])
    bands = [roll_range(x) for x in r["Points"]]
    losses = [-int(x) for x in r["Loss Number"]]
    assert len(bands) == len(losses) == len(c4["bands"])
    for (lo, hi), loss, band in zip(bands, losses, c4["bands"], strict=True):
        assert band[0] == lo and band[2] == loss
        assert band[1] == hi if hi is not None else band[1] >= 99
    t = tables()
    for points in range(1, 100):
        want = next(loss for (lo, hi), loss in zip(bands, losses, strict=True)
                    if lo <= points and (hi is None or points <= hi))
        assert t.depreciation_loss(points) == want, points


# ---------------------------------------------------------------- C.5

def test_c5_recovery(seed):
    r = rows(seed["C.5"])
    unit_drm, terror_drm = r["Die roll"]
    assert unit_drm == "DRM: +1 elite unit or PSL => 70 -1 PSL <= 30"
    assert terror_drm == "DRM: +1 no non-neutralized FLN units in area"
    c5 = tables().c5
    assert c5["unit"] == {"drm_elite_or_high_psl": 1, "psl_high": 70,
                          "drm_low_psl": -1, "psl_low": 30}
    assert c5["terror"] == {"drm_no_fln": 1}
    assert r["5-6+"] == ["Recovers", "Recovers"]
    assert r["<1-4"] == ["--", "--"]
    assert c5["recovers_on"] == 5


# ---------------------------------------------------------------- C.6

def test_c6_fixed_amounts(seed):
    r = {c[2]: c for c in map(cells, seed["C.6"]) if len(c) >= 3}
    c6 = tables().c6

    def amount(why: str) -> str:
        return next(c[1] for k, c in r.items() if k.startswith(why))

    assert amount("for each FLN Cadre or Band eliminated") == "+1 OR -1"
    assert c6["cadre_band_eliminated"] == 1
    assert amount("for each Front reduced to a Cadre") == "+2 AND -1"
    assert (c6["front_failek_reduced_gov"], c6["front_failek_reduced_fln"]) == (2, -1)
    assert amount("for each 'hit' inflicted") == "-1 OR +1"
    assert c6["gov_hit"] == c6["police_neutralized"] == 1
    assert "for each Police unit neutralized" in next(k for k in r if k.startswith("for each '"))
    assert amount("Population Resettlement") == "+3d6"
    assert c6["resettlement_fln_d6"] == 3
    assert amount("failed Suppression") == "-1d6"
    assert c6["suppression_failed_gov_d6"] == 1
    assert amount("did not React to Strike") == "-1d6"
    assert c6["no_react_gov_d6"] == 1
    assert amount("OAS deployed in Algeria") == "-1 -2"
    assert (c6["oas_algeria_gov"], c6["oas_france_gov"]) == (-1, -2)
    assert amount("for each area currently Terrorized or ever Resettled") == "-1"
    assert c6["terror_or_resettled_gov"] == -1
    assert amount("No non-neutralized FLN mobile units in Algeria") == "-3d6"
    assert c6["no_fln_units_fln_d6"] == 3
    fp = next(k for k in r if k.startswith("Total Firepower"))
    assert "x 10% (round fractions down)" in fp
    assert c6["abroad_firepower_percent"] == 10
    bonus = next(k for k in r if k.startswith("side that Controls more areas"))
    assert "HALF the difference" in bonus and "round fractions down" in bonus
    assert c6["control_bonus_divisor"] == 2


# ---------------------------------------------------------------- C.7

C7_TYPES = {"Band": "band", "Failek": "failek", "brigade": "fr_x", "division": "fr_xx",
            "Elite infantry unit": "el_x", "Cadre": "cadre", "Police": "police",
            "Front": "front"}


def test_c7_unit_types_against_the_counter_mix(seed, ref_map):
    text = "\n".join(seed["C.7"])
    for word in C7_TYPES:
        assert word in text, word
    assert "Dispersed mode division" in text and "Airmobilized unit" in text
    assert "Cadre (mobile unit)" in text
    assert "Police (static unit)" in text and "Front (static unit)" in text
    units = {u["key"]: u for u in load("c7_units")["unit"]}
    ref = {u["key"]: u for u in ref_map["unit_type"]}
    assert list(units) == list(ref), "unit types (and their order) differ from the counter mix"
    for key, spec in units.items():
        want = ref[key]
        for f in ("name", "side", "kind", "count", "firepower", "elite", "control_points"):
            assert spec.get(f, False) == want.get(f, False), (key, f)
        rating = "contact" if spec["side"] == "gov" else "evasion"
        assert want["rating"] == rating
        assert spec[rating] == want[rating], (key, rating)
        assert spec.get("airmobilize_helo_cost") == want.get("airmobilize_helo_cost"), key
        assert bool(want.get("can_airmobilize")) == ("airmobilize_helo_cost" in spec), key
        assert spec.get("reduces_to", "") == want.get("reduces_to", ""), key
        if "airmobile" in want:
            bonus = load("c7_units")["airmobile"]["contact_bonus"]
            assert spec["contact"] + bonus == want["airmobile"]["contact"], key
            assert spec["firepower"] == want["airmobile"]["firepower"], key
    assert units["fr_xx"]["dispersed"] == ref["fr_xx"]["dispersed"]
    assert units["police"]["kind"] == units["front"]["kind"] == "static"
    assert sum(u["count"] for u in units.values()) == ref_map["counter_totals"]["all"]
    for side in ("gov", "fln"):
        assert sum(u["count"] for u in units.values() if u["side"] == side) == \
            ref_map["counter_totals"][side]
    # The engine's counters are exactly the mix.
    for t, key in enumerate(board.TYPE_KEYS):
        assert len(board.TYPE_UNITS[t]) == units[key]["count"], key
    assert ref_map["counter_totals"]["all"] == board.NUM_UNITS


# ---------------------------------------------------------------- C.8

UNIT_WORDS = {"French XX": "fr_xx", "French X": "fr_x", "Elite X": "el_x",
              "Algerian X": "al_x", "Police": "police", "Front": "front", "Cadre": "cadre",
              "Band": "band", "Failek": "failek"}


def side_units(text: str) -> dict[str, int]:
    text = text.strip()
    if text in ("nothing", ""):
        return {}
    out: dict[str, int] = {}
    for part in text.split(","):
        m = re.fullmatch(r"(\d+) (.+?)s?", part.strip())
        assert m, f"cannot read {part!r}"
        key = UNIT_WORDS[m.group(2)]
        out[key] = out.get(key, 0) + int(m.group(1))
    return out


def scenario_cell(text: str) -> dict[str, dict[str, int]]:
    """'Government: 2 French XX, 1 French X FLN: 1 Front' -> {'gov': {...}, 'fln': {...}}."""
    if text == "Not independent yet":
        return {"gov": {}, "fln": {}}
    m = re.fullmatch(r"(?:Government: (.*?))?\s*(?:FLN: (.*))?", text)
    assert m and (m.group(1) is not None or m.group(2) is not None), text
    return {"gov": side_units(m.group(1) or ""), "fln": side_units(m.group(2) or "")}


def track_cell(text: str) -> dict:
    t = re.sub(r"\bO Naval\b", "0 Naval", text)     # the chart prints a letter O
    m = re.fullmatch(r"Government PSL = (\d+) Points: (\d+) Air, (\d+) Helo, (\d+) Naval "
                     r"FLN PSL = (\d+) FLN AP = 2d6 Border Zone = (n/a|-?\d+)", t.strip())
    assert m, f"cannot read the tracks: {text!r}"
    bz = m.group(6)
    return {"gov_psl": int(m.group(1)), "air": int(m.group(2)), "helo": int(m.group(3)),
            "naval": int(m.group(4)), "fln_psl": int(m.group(5)),
            "border_zone": bz if bz == "n/a" else int(bz)}


def printed_scenarios(seed) -> tuple[list[str], dict, dict]:
    lines = [cells(ln) for ln in seed["C.8"] if "\t" in ln]
    header = lines[0]
    assert header[0] == "Wilaya"
    years = header[1:]
    units: dict[str, dict] = {y: {"gov": {}, "fln": {}} for y in years}
    tracks: dict[str, dict] = {}
    for row in lines[1:]:
        where = row[0]
        if where == "":
            for y, text in zip(years, row[1:], strict=True):
                tracks[y] = track_cell(text)
            continue
        key = where.upper() if where in ("Morocco", "Tunisia") else where
        for y, text in zip(years, row[1:], strict=True):
            cell = scenario_cell(text)
            for side in ("gov", "fln"):
                if cell[side]:
                    units[y][side][key] = cell[side]
    return years, units, tracks


def test_c8_scenarios_every_wilaya_and_track(seed):
    years, printed, tracks = printed_scenarios(seed)
    assert years == ["1954", "1958", "1960"]
    data = load("c8_scenarios")["scenario"]
    assert set(data) == set(years)
    differences = []
    for y in years:
        for side in ("gov", "fln"):
            want, have = printed[y][side], data[y].get(side, {})
            for w in sorted(set(want) | set(have)):
                if want.get(w, {}) != have.get(w, {}):
                    differences.append((y, side, w, want.get(w, {}), have.get(w, {})))
        spec = data[y]
        for f, v in tracks[y].items():
            assert spec[f] == v, (y, f)
        assert spec["independent"] == (tracks[y]["border_zone"] != "n/a"), y
    # DIS-06: the chart's 1960 wilaya II has 2 Algerian brigades, but only 6 counters
    # exist; djebel places 1. That must be the only difference.
    assert differences == [("1960", "gov", "II",
                            {"fr_xx": 2, "el_x": 4, "al_x": 2, "police": 2},
                            {"fr_xx": 2, "el_x": 4, "al_x": 1, "police": 2})]
    data_file = resources.files("djebel.algeria") / "data" / "c8_scenarios.toml"
    assert "DIS-06" in data_file.read_text(), "say so in the scenario data (DIS-06)"
    text = " ".join(seed["C.8"])
    assert "the FLN player begins with 2d6 AP" in text
    assert "Police units set up in PTL boxes" in text


def test_c8_scenarios_fit_the_counter_mix_and_the_reference(seed, ref_map):
    counts = {u["key"]: u["count"] for u in load("c7_units")["unit"]}
    data = load("c8_scenarios")["scenario"]
    for y, spec in data.items():
        total: dict[str, int] = {}
        for side in ("gov", "fln"):
            for w, units in spec.get(side, {}).items():
                assert w in board.WILAYA_AREAS, (y, w)
                for k, n in units.items():
                    assert board.TYPE_SIDE[board.TYPE_INDEX[k]] == side, (y, w, k)
                    total[k] = total.get(k, 0) + n
            ref_side = ref_map["scenario"][y]["government" if side == "gov" else "fln"]
            ours = {w: u for w, u in spec.get(side, {}).items() if u}
            theirs = {w: u for w, u in ref_side.items() if u}
            if (y, side) == ("1960", "gov"):
                theirs = {w: u for w, u in
                          ref_map["scenario"][y]["government_rtt"].items() if u}
            assert ours == theirs, (y, side)
        for k, n in total.items():
            assert n <= counts[k], (y, k, n)
        ref = ref_map["scenario"][y]
        assert (spec["gov_psl"], spec["fln_psl"]) == (ref["gov_psl"], ref["fln_psl"])
        assert (spec["air"], spec["helo"], spec["naval"]) == (
            ref["air_points"], ref["helo_points"], ref["naval_points"])
        assert spec["independent"] == ref["morocco_tunisia_independent"]
        assert spec["border_zone"] == ref.get("border_zone_drm", "n/a")


# ---------------------------------------------------------------- the map

def test_map_areas_wilayas_ratings(ref_map):
    ours = load("map")
    ref_areas = {a["id"]: a for a in ref_map["area"]}
    our_areas = {a["id"]: a for a in ours["area"]}
    assert list(our_areas) == list(ref_areas)
    for aid, a in ref_areas.items():
        for f in ("name", "wilaya", "rating"):
            assert our_areas[aid][f] == a[f], (aid, f)
        assert board.is_algerian(board.AREA_INDEX[aid]) == a["algerian"], aid
    assert ours["wilayas"] == [w for w in ref_map["wilayas"] if w not in ("MOROCCO", "TUNISIA")]
    for w, members in ref_map["wilayas"].items():
        assert sorted(board.AREA_IDS[i] for i in board.WILAYA_AREAS[w]) == sorted(members), w
    ratings = [a["rating"] for a in ref_areas.values() if a["algerian"]]
    assert (ratings.count("urban"), ratings.count("rural"), ratings.count("remote")) == \
        (3, 14, 8)
    assert len(board.ALGERIA) == 25


def test_map_adjacency_pairs_and_move_targets(ref_map):
    def pairs(lst):
        return {frozenset(p) for p in lst}

    ours = pairs(load("map")["adjacency"]["pairs"])
    ref = pairs(ref_map["adjacency"]["pairs"])
    assert ours == ref
    assert len(ours) == 28
    by_area = ref_map["adjacency"]["by_area"]
    for aid in board.AREA_IDS:
        got = sorted(board.AREA_IDS[b] for b in board.ADJACENT[board.AREA_INDEX[aid]])
        assert got == sorted(by_area.get(aid, [])), aid
    targets = ref_map["adjacency"]["move_targets_by_wilaya"]
    for w, expect in targets.items():
        reach = set()
        for a in board.WILAYA_AREAS[w]:
            reach |= set(board.MOVE_TARGETS[a])
        assert sorted(board.AREA_IDS[b] for b in reach) == sorted(expect), w
        for a in board.WILAYA_AREAS[w]:
            assert a not in board.MOVE_TARGETS[a]
    assert all(board.FRANCE not in t for t in board.MOVE_TARGETS.values())
