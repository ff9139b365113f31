"""A compact text picture of an Algeria game, for the terminal and for bug reports."""

from __future__ import annotations

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

CONTROL_MARK = {FLN_CONTROL: "FLN", GOV_CONTROL: "GOV"}


def unit_label(s: State, u: int) -> str:
    """``band3`` with marks: * neutralized, ^ airmobile, ~ dispersed."""
    f = s.flags[u]
    return (UNIT_NAMES[u] + ("*" if f & NEUT else "") + ("^" if f & AIRMOBILE else "")
            + ("~" if f & DISPERSED else ""))


def tracks(s: State) -> str:
    bz = "n/a" if s.bz is None else f"{s.bz:+d}{' active' if s.bz_active else ''}"
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


def describe(s: State) -> str:
    return tracks(s) + "\n" + board(s)


