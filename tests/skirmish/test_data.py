"""Data files: catalog and tables against the seed text, scenario validation errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from skirmish_helpers import F, I, scenario_text

from djebel.core.errors import ScenarioError
from djebel.skirmish import new_game
from djebel.skirmish.catalog import DATA, catalog, load_toml, parse_catalog, tables
from djebel.skirmish.scenario import list_scenarios, load_scenario

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
SEED = SEEDS / "001_5ee30a699d39ec4a.txt"


def _seed_text() -> str:
    if not SEED.exists():
        pytest.skip(f"seed text not available at {SEED} (it lives outside the repository)")
    return SEED.read_text()


def _num(tok: str) -> int:
    tok = tok.strip().rstrip("*").rstrip("+")
    return 0 if tok in ("-", "–") else int(tok)


def test_catalog_matches_the_seed_table():
    text = _seed_text()
    rows = 0
    for t in catalog().values():
        m = re.search(r"^" + re.escape(t.name) + r"\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", text,
                      re.MULTILINE)
        assert m, f"{t.name} not found in the seed table"
        ap, at, sp, armour = (_num(x) for x in m.groups())
        assert (t.ap_fp, t.at_fp, t.strength, t.armour_save) == (ap, at, sp, armour), t.id
        if "*" in m.group(1) or "*" in m.group(2):
            assert t.seed_note != "None.", t.id
        rows += 1
    assert rows == 29


def test_tables_match_the_seed_numbers():
    text = _seed_text()
    tab = tables()
    assert "French need 7+, Insurgent need 8+" in text
    assert tab["command"]["base_target"] == {"french": 7, "insurgent": 8}
    assert "single move for infantry is 10cm" in text and tab["movement"]["foot_cm"] == 10
    assert "single move for vehicles is 20cm" in text
    assert tab["movement"]["ground_vehicle_cm"] == 20
    assert "FP of 5D6, hit on 4+" in text
    assert tab["blunder"]["rows"][1]["dice"] == 5 and tab["blunder"]["rows"][1]["hit_on"] == 4
    assert re.search(r"Open:\s+4\+", text) and tab["to_hit"]["open"] == 4
    assert re.search(r"Obscured:\s+5\+", text) and tab["to_hit"]["obscured"] == 5
    assert re.search(r"Hvy Obscured:\s+6", text) and tab["to_hit"]["heavy_obscured"] == 6
    assert re.search(r"Lt Cover\s+5\+\s+6", text)
    assert tab["ap_save"]["french"]["light"] == 5 and tab["ap_save"]["insurgent"]["light"] == 6
    assert re.search(r"Hvy Cover\s+4\+\s+5", text)
    assert tab["ap_save"]["french"]["heavy"] == 4 and tab["ap_save"]["insurgent"]["heavy"] == 5
    assert "(10cm AP, 20CM AT)" in text
    assert tab["to_hit"]["close_range_cm"] == {"ap": 10.0, "at": 20.0}
    assert "hit on 2+" in text and tab["close_combat"]["hit_on"] == 2
    assert "AT: 6" in text and catalog()["french_rifle"].one_shot_fp == 6
    for line, chart, total in (("8+ - Vehicle Destroyed, all KIA", "armoured", 8),
                               ("6+ - Destroyed, no survivors", "aircraft", 6)):
        assert line in text
        assert tables()["damage"][chart]["rows"][-1]["min"] == total


def test_catalog_loader_names_file_and_field(tmp_path):
    data = load_toml(DATA / "catalog.toml")
    del data["element"][3]["at_fp"]
    with pytest.raises(ScenarioError) as exc:
        parse_catalog(data, "mycat.toml")
    assert "mycat.toml" in str(exc.value) and "at_fp" in str(exc.value)
    data = load_toml(DATA / "catalog.toml")
    data["element"][0]["kind"] = "robot"
    with pytest.raises(ScenarioError, match="kind"):
        parse_catalog(data, "mycat.toml")


def test_shipped_scenarios_load():
    assert list_scenarios() == ["ambush", "casevac", "douar", "hotlz", "search"]
    limits = {name: load_scenario(name).turn_limit for name in list_scenarios()}
    assert limits == {"ambush": 6, "casevac": 6, "douar": 8, "hotlz": 8, "search": 10}
    for name in list_scenarios():
        assert load_scenario(name).victory


@pytest.mark.parametrize("mutate, field", [
    (lambda t: t.replace('kind = "building"', 'kind = "castle"'), "terrain[0].kind"),
    (lambda t: t.replace('type = "french_rifle"', 'type = "tiger"'), "force[0].type"),
    (lambda t: t.replace("turn_limit = 3", "turn_limit = 0"), "turn_limit"),
    (lambda t: t.replace("at = [20, 20]", "at = [51, 20]"), "force[1].at"),
    (lambda t: t.replace('rect = [30, 40, 0, 122]', 'rect = [30, 40]'), "terrain[0].rect"),
    (lambda t: t.replace('first_side = "french"', 'first_side = "rebels"'), "first_side"),
    (lambda t: t.replace("[[terrain]]", "[[terrain]]\nheight = 3", 1), "terrain[0].height"),
])
def test_malformed_scenario_names_file_and_field(tmp_path, mutate, field):
    text = scenario_text([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)],
                         terrain=[{"id": "b1", "kind": "building", "rect": [30, 40, 0, 122]}])
    path = tmp_path / "bad.toml"
    path.write_text(mutate(text))
    with pytest.raises(ScenarioError) as exc:
        new_game(str(path))
    msg = str(exc.value)
    assert str(path) in msg and field in msg and "expected" in msg


def test_scenario_not_toml_and_unknown_id(tmp_path):
    path = tmp_path / "junk.toml"
    path.write_text("id = [unclosed\n")
    with pytest.raises(ScenarioError, match="junk.toml"):
        new_game(str(path))
    with pytest.raises(ScenarioError, match="unknown scenario"):
        new_game("no-such-battle")
    with pytest.raises(ScenarioError, match="unknown option"):
        new_game("ambush", 0, {"speed": 2})


def test_deployment_zone_and_enemy_distance_checked(tmp_path):
    text = scenario_text([F("french_rifle", 20, 20),
                          I("ins_rifle", 26, 20, zone="z", min_enemy_distance_cm=10.0)],
                         zones={"z": [[0, 122, 0, 122]]})
    text = text.replace("[zones]\nz = [[0, 122, 0, 122]]", "[zones]\nz = [[0, 122, 0, 122]]")
    path = tmp_path / "close.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError, match="at least 10"):
        new_game(str(path))


def test_a_record_embeds_a_file_scenario_and_never_opens_a_path(tmp_path):
    """A game started from a scenario file (the user names it on the command line) is
    recorded with the scenario inside: replaying the record needs no file, and a record
    whose scenario is a path is refused before anything is opened (a FIFO would hang)."""
    import os

    from djebel.core.errors import RecordError
    from djebel.core.records import game_from_record, make_record, verify_record

    path = tmp_path / "mine.toml"
    path.write_text(scenario_text([F("french_rifle", 20, 20), I("ins_rifle", 50, 20)]))
    g = new_game(str(path), 4)
    for text in ("activate F1", "end F1"):
        if text in [str(a) for a in g.legal_actions()]:
            g.apply(text)
    rec = make_record(g)
    assert rec["scenario"] == load_toml(path)
    path.unlink()
    assert verify_record(rec).state_hash() == g.state_hash()
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    for spec in (str(fifo), str(path), "/etc/passwd", "ambush.toml", 3, None):
        with pytest.raises(RecordError, match="field 'scenario': expected a shipped scenario id"):
            game_from_record(dict(rec, scenario=spec))
    bad = dict(rec["scenario"], first_side="rebels")
    with pytest.raises(RecordError, match="embedded scenario: field 'first_side'"):
        game_from_record(dict(rec, scenario=bad))
    for field, junk, expected in (("force", {"a": 1}, "force': expected an array"),
                                  ("terrain", [3], "terrain[0]': expected a table"),
                                  ("sides", {"french": []}, "sides.french': expected a table"),
                                  ("civilians", [[1, 1]] * 101, "expected at most 100 entries"),
                                  ("terrain", [{"id": "w", "kind": "building",
                                                "polygon": [[1, 1], [2, 1], [2, 2]] * 30}],
                                   "3 to 64 [x, y] points"),
                                  ("terrain", [{"id": "b", "kind": "building", "cover": [1],
                                                "rect": [30, 40, 0, 10]}],
                                   "terrain[0].cover': expected one of ['heavy', 'light'"),
                                  ("terrain", [{"id": "b", "kind": "building", "move": {},
                                                "rect": [30, 40, 0, 10]}],
                                   "terrain[0].move': expected a table of foot = "),
                                  ("terrain", [{"id": "b", "kind": "building",
                                                "rect": [30, 10**400, 0, 10]}],
                                   "terrain[0].rect': expected [x0, x1, y0, y1] in cm"),
                                  ("civilians", [[10**400, 1]], "civilians[0]': expected")):
        with pytest.raises(RecordError, match=re.escape(expected)):
            game_from_record(dict(rec, scenario=dict(rec["scenario"], **{field: junk})))
    with pytest.raises(RecordError, match="no NaN"):
        game_from_record(dict(rec, scenario=dict(bad, x=float("nan"))))


def test_embedded_scenarios_never_share_a_cache_entry():
    """Two scenario tables with the same id but different terrain are two scenarios."""
    from djebel.skirmish.scenario import embedded_scenario

    one = load_toml(DATA / "scenarios" / "ambush.toml")
    two = dict(one, turn_limit=one["turn_limit"] + 1)
    a, b = embedded_scenario(one), embedded_scenario(two)
    assert a.id == b.id and a.path != b.path and b.turn_limit == a.turn_limit + 1
    assert embedded_scenario(dict(one)) is a
