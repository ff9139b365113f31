"""The text picture of a game: marker states, the change summary, the interphase digest."""

from djebel.algeria.position import from_position
from djebel.algeria.text import MAX_LOG_LINES, changes, describe, digest
from djebel.core.log import LogEntry


def ops(**more):
    return from_position({"scenario": "1958", "turn": 2, "phase": "operations", "ap": 5,
                          "areas": {"II-1": {"UG": ["band*"], "OPS": ["cadre"]}}, **more},
                         seed=1)


def test_markers_say_their_state():
    """6.33: the Border Zone level with its activation; the unit marks explained."""
    text = describe(ops(border_zone={"drm": -2, "active": False}).state)
    assert "Border Zone -2 inactive" in text
    assert "Border Zone -2 active" in describe(
        ops(border_zone={"drm": -2, "active": True}).state)
    assert "UG: band1*" in text and text.endswith("(marks: * neutralized)")


def test_changes_lists_tracks_units_and_control():
    from djebel.algeria.board import AREA_IDS
    from djebel.algeria.state import FLN_CONTROL

    g = ops()
    before = g.state.copy()
    assert changes(before, g.state) == ""
    g.apply("move cadre1")
    g.apply("to II-2")
    assert changes(before, g.state) == "moved: cadre1 II-1 OPS -> II-2 OC"
    after = g.state.copy()
    after.fln_psl += 3
    after.control[AREA_IDS.index("II-2")] = FLN_CONTROL
    after.loc[0] = -1                      # the first counter taken off the map
    assert changes(before, after).splitlines()[0] == "FLN PSL 50 -> 53"
    assert changes(before, after).splitlines()[-1] == "control: II-2 contested -> FLN"


def test_digest_summarizes_an_interphase_and_keeps_the_last_lines():
    """10.1 (a roll of 4 and 5 against a difference of 4: only the FLN succeeds),
    10.11, 10.2; the other lines cut to the last MAX_LOG_LINES."""
    entries = [LogEntry("8-4", f"line {i}") for i in range(MAX_LOG_LINES + 3)] + [
        LogEntry("10.1", "Control of II-1 (5 v 1, need <= 4)", (4, 5)),
        LogEntry("10.1", "Control: FLN 1 areas, GOV 0 areas"),
        LogEntry("10.11", "Depreciation of 6 Air Points (loss 1, DRM +0)", (1,)),
        LogEntry("10.11", "Air Points: -1"),
        LogEntry("10.11", "Depreciation of 3 AP (loss 1, DRM +0)", (6,)),
        LogEntry("10.2", "band1 recovery (DRM +0)", (5,)),
        LogEntry("10.2", "band1 recovers"),
        LogEntry("10.2", "cadre2 recovery (DRM +0)", (2,)),
        LogEntry("4", "Turn 3 begins")]
    out = digest(entries)
    assert out[0] == "(4 earlier log lines: 'log N' shows them)"
    assert out[1] == "(8-4) line 4"
    assert out[-4:] == [
        "Interphase control (10.1): FLN 1 areas, GOV 0 areas; rolled: II-1 FLN",
        "Depreciation (10.11) of 6 Air Points, 3 AP: Air Points -1",
        "Recovery (10.2): band1 recovered; cadre2 still neutralized",
        "(4) Turn 3 begins"]
    assert len(out) == 1 + MAX_LOG_LINES + 3


def test_digest_puts_each_sides_set_up_in_one_line():
    """3-4: a side's placements, more than three, in one line; a short run stays whole."""
    gov = [LogEntry("3-4", f"GOV places police{i} in {a}") for i, a in
           enumerate(["II-1", "II-1", "ORAN", "V-2", "ALGIERS (dispersed)"], 1)]
    fln = [LogEntry("3-4", "FLN places front (front1) in I-1"),
           LogEntry("3-4", "FLN places cadre (cadre1) in I-2")]
    out = digest([*gov, *fln, LogEntry("4", "Turn 1 begins")])
    assert out == ["(3-4) GOV places 5 units in 4 areas ('log 5' lists them)",
                   "(3-4) FLN places front (front1) in I-1",
                   "(3-4) FLN places cadre (cadre1) in I-2", "(4) Turn 1 begins"]
