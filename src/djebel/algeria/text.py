"""A compact text picture of an Algeria game, for the terminal and for bug reports."""

from __future__ import annotations

import re

from djebel.algeria.board import (
    AIRMOBILE,
    AREA_IDS,
    AREA_NAMES,
    AREA_WILAYA,
    BOX_NAMES,
    DISPERSED,
    NEUT,
    NUM_AREAS,
    UNIT_NAMES,
)
from djebel.algeria.rules.common import rating
from djebel.algeria.state import FLN_CONTROL, GOV_CONTROL, OAS_INACTIVE, OAS_UNPLACED, State
from djebel.core.log import LogEntry

CONTROL_MARK = {FLN_CONTROL: "FLN", GOV_CONTROL: "GOV"}


def unit_label(s: State, u: int) -> str:
    """``band3`` with marks: * neutralized, ^ airmobile, ~ dispersed."""
    f = s.flags[u]
    return (UNIT_NAMES[u] + ("*" if f & NEUT else "") + ("^" if f & AIRMOBILE else "")
            + ("~" if f & DISPERSED else ""))


def border_zone(s: State) -> str:
    """6.33: the Border Zone's level and whether the Government activated it this turn
    (an inactive Border Zone has no effect: the level alone would mislead)."""
    return f"{s.bz:+d} {'active' if s.bz_active else 'inactive'}"


def tracks(s: State) -> str:
    bz = "n/a" if s.bz is None else border_zone(s)
    oas = ("inactive" if s.oas == OAS_INACTIVE else "unplaced" if s.oas == OAS_UNPLACED
           else AREA_IDS[s.oas]) + (f" ({s.oas_controller.upper()})" if s.oas_controller else "")
    flags = [name for name, on in (("Amnesty", s.amnesty), ("Jealousy&Paranoia", s.jealousy),
                                   ("Slow French Reaction", s.slow_french),
                                   ("Morocco/Tunisia independent", s.independent)) if on]
    return (f"Turn {s.turn} {s.phase} | FLN PSL {s.fln_psl}  AP {s.ap} | GOV PSL {s.gov_psl} "
            f"| Air {s.air_avail}/{s.air_max}  Helo {s.helo_avail}/{s.helo_max}  "
            f"Naval {s.naval} | Border Zone {bz} | OAS {oas}"
            + (f" | {', '.join(flags)}" if flags else ""))


def board(s: State) -> str:
    """One line per area that holds units or markers: its boxes and their counters."""
    lines = []
    for a in range(NUM_AREAS):
        boxes: dict[int, list[str]] = {}
        for u in range(len(s.loc)):
            if s.loc[u] == a:
                boxes.setdefault(s.box[u], []).append(unit_label(s, u))
        marks = []
        if s.control[a] in CONTROL_MARK:
            marks.append(CONTROL_MARK[s.control[a]])
        if s.terror[a]:
            marks.append("TERROR")
        if s.resettled[a]:
            marks.append("RESETTLED")
        if not boxes and not marks:
            continue
        head = f"{AREA_IDS[a]:<11} {AREA_NAMES[a][:13]:<13} {AREA_WILAYA[a] or '-':<7}"
        head += f" {rating(s, a):<7} {' '.join(marks):<14}"
        body = "  ".join(f"{BOX_NAMES[b]}: {' '.join(us)}" for b, us in sorted(boxes.items()))
        lines.append(head + body)
    return "\n".join(lines)


MARK_LEGEND = (("*", "neutralized"), ("^", "airmobile"), ("~", "dispersed"))


def describe(s: State) -> str:
    """The tracks, the board, and what the unit marks shown on it mean."""
    text = board(s)
    marks = [f"{m} {what}" for m, what in MARK_LEGEND
             if any(m in label for label in (unit_label(s, u) for u in range(len(s.loc))
                                             if s.loc[u] >= 0))]
    return tracks(s) + "\n" + text + (f"\n(marks: {', '.join(marks)})" if marks else "")




MAX_UNIT_NOTES = 12      # a change summary lists at most this many units (then "N more")


def _spot(s: State, u: int) -> str:
    return f"{AREA_IDS[s.loc[u]]} {BOX_NAMES[s.box[u]]}" if s.loc[u] >= 0 else "off-map"


def changes(old: State, new: State) -> str:
    """What changed from ``old`` to ``new`` in a few lines: the tracks, the units moved,
    placed or removed, the areas whose control changed; "" when nothing did. The terminal
    shows this after each decision instead of the whole board."""
    lines = []
    tracks_ = [f"{label} {a} -> {b}" for label, a, b in (
        ("FLN PSL", old.fln_psl, new.fln_psl), ("GOV PSL", old.gov_psl, new.gov_psl),
        ("AP", old.ap, new.ap), ("Air", old.air_avail, new.air_avail),
        ("Helo", old.helo_avail, new.helo_avail)) if a != b]
    if old.turn != new.turn or old.phase != new.phase:
        tracks_.insert(0, f"now Turn {new.turn} {new.phase}")
    if old.bz != new.bz or old.bz_active != new.bz_active:
        tracks_.append(f"Border Zone {border_zone(new)}")
    if tracks_:
        lines.append("; ".join(tracks_))
    moved, placed, gone = [], [], []
    for u in range(len(new.loc)):
        if (old.loc[u], old.box[u]) == (new.loc[u], new.box[u]):
            continue
        if new.loc[u] < 0:
            gone.append(f"{UNIT_NAMES[u]} (was {_spot(old, u)})")
        elif old.loc[u] < 0:
            placed.append(f"{unit_label(new, u)} {_spot(new, u)}")
        else:
            to = BOX_NAMES[new.box[u]] if old.loc[u] == new.loc[u] else _spot(new, u)
            moved.append(f"{unit_label(new, u)} {_spot(old, u)} -> {to}")
    for label, items in (("moved", moved), ("new", placed), ("removed", gone)):
        if items:
            more = len(items) - MAX_UNIT_NOTES
            lines.append(f"{label}: " + ", ".join(items[:MAX_UNIT_NOTES])
                         + (f" and {more} more ('board' shows all)" if more > 0 else ""))
    names = {FLN_CONTROL: "FLN", GOV_CONTROL: "GOV"}
    control = [f"{AREA_IDS[a]} {names.get(old.control[a], 'contested')} -> "
               f"{names.get(new.control[a], 'contested')}"
               for a in range(NUM_AREAS) if old.control[a] != new.control[a]]
    if control:
        lines.append("control: " + ", ".join(control))
    return "\n".join(lines)


INTERPHASE_RULES = ("10.1", "10.11", "10.2")    # control, depreciation, recovery
MAX_LOG_LINES = 25        # log lines shown after a decision (the interphase summary apart)
_CONTROL_ROLL = re.compile(r"Control of (\S+) \(\d+ v \d+, need <= (\d+)\)")


SETUP_LISTED = 3        # a side's set-up placements shown one by one, else in one line


def _placement(e: LogEntry) -> str:
    """The side of a set-up placement entry (3-4), else ''."""
    if e.rule == "3-4" and e.text.startswith(("GOV places ", "FLN places ")):
        return e.text[:3]
    return ""


def _placements(run: list[LogEntry]) -> list[tuple[bool, str]]:
    """A side's set-up in one line (the board and 'log N' show each unit)."""
    if len(run) <= SETUP_LISTED:
        return [(False, str(e)) for e in run]
    areas = len({e.text.split(" in ")[-1].split(" (")[0] for e in run})
    return [(True, f"(3-4) {_placement(run[0])} places {len(run)} units in {areas} areas "
                   f"('log {len(run)}' lists them)")]


def _interphase(entries: list[LogEntry]) -> list[str]:
    """10.1 / 10.11 / 10.2 in three lines: control (with each rolled area's outcome),
    depreciation and recovery; the rolls themselves stay in the log ('log N')."""
    rolled, total, lost, tried, recovered, terror = [], "", [], [], [], []
    tried_units: list[str] = []
    for e in entries:
        m = _CONTROL_ROLL.match(e.text)
        if m and len(e.dice) == 2:
            diff = int(m.group(2))
            f, g = (d <= diff for d in e.dice)
            won = "FLN" if f and not g else "GOV" if g and not f else "contested"
            rolled.append(f"{m.group(1)} {won}")
        elif e.text.startswith("Control: "):
            total = e.text[len("Control: "):]
        elif e.rule == "10.11" and e.text.startswith("Depreciation of "):
            tried.append(e.text.split(" (")[0][len("Depreciation of "):])
        elif e.rule == "10.11":
            lost.append(e.text.replace(": ", " "))
        elif e.rule == "10.2" and " recovery (DRM " in e.text:
            tried_units.append(e.text.split(" recovery")[0])
        elif e.text.endswith(" recovers"):
            recovered.append(e.text[:-len(" recovers")])
        elif e.text.startswith("Terror marker removed from "):
            terror.append(e.text[len("Terror marker removed from "):])
    lines = []
    if total or rolled:
        lines.append(f"Interphase control (10.1): {total or '?'}"
                     + (f"; rolled: {', '.join(rolled)}" if rolled else ""))
    if tried:
        lines.append(f"Depreciation (10.11) of {', '.join(tried)}: "
                     + (", ".join(lost) if lost else "nothing lost"))
    if any(e.rule == "10.2" for e in entries):
        still = [u for u in tried_units if u not in recovered]
        parts = ([f"{', '.join(recovered)} recovered"] if recovered else []) + (
            [f"{', '.join(still)} still neutralized"] if still else []) + (
            [f"Terror removed from {', '.join(terror)}"] if terror else [])
        lines.append("Recovery (10.2): " + ("; ".join(parts) or "nothing recovered"))
    return lines


def digest(entries: list[LogEntry]) -> list[str]:
    """The new log lines to show after a decision: each interphase as a few summary lines
    (its control and depreciation rolls would scroll away), the last MAX_LOG_LINES others."""
    out: list[tuple[bool, str]] = []        # (a summary line, text)
    run: list[LogEntry] = []
    placed: list[LogEntry] = []             # a run of one side's set-up placements (3-4)
    for e in [*entries, None]:
        if e is not None and e.rule in INTERPHASE_RULES:
            run.append(e)
            continue
        if run:
            out.extend((True, line) for line in _interphase(run))
            run = []
        if e is not None and _placement(e) and (not placed or _placement(placed[0])
                                                == _placement(e)):
            placed.append(e)
            continue
        if placed:
            out.extend(_placements(placed))
            placed = []
            if e is not None and _placement(e):
                placed.append(e)
                continue
        if e is not None:
            out.append((False, str(e)))
    extra = sum(not keep for keep, _ in out) - MAX_LOG_LINES
    if extra <= 0:
        return [text for _, text in out]
    lines = [f"({extra} earlier log lines: 'log N' shows them)"]
    for keep, text in out:
        if not keep and extra > 0:
            extra -= 1
            continue
        lines.append(text)
    return lines


def where(game, action) -> str:
    """Where a listed action happens, when it names a unit on the map and no area:
    `` @I-1`` after ``propaganda cadre1`` (the terminal's list; the web names both)."""
    from djebel.algeria.board import AREA_IDS, AREA_INDEX, UNIT_INDEX

    args = [str(x) for x in action.args]
    if any(w.upper() in AREA_INDEX for w in args):
        return ""
    u = next((UNIT_INDEX[w] for w in args if w in UNIT_INDEX), None)
    if u is None or game.state.loc[u] < 0:
        return ""
    return f" @{AREA_IDS[game.state.loc[u]]}"
