"""Pictures of the table: an SVG board and a compact text description."""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

from djebel.skirmish.geometry import corners
from djebel.skirmish.rules.garnish import score

if TYPE_CHECKING:
    from djebel.skirmish.game import SkirmishGame

SCALE = 6.0          # pixels per cm
FILL = {
    "road": "#d8c9a3", "river": "#9cc3e6", "canal": "#8fb8e0", "ford": "#b7d3ea",
    "bridge": "#bba88a", "footbridge": "#bba88a", "building": "#8d7b68",
    "wall": "#5e5347", "sandbag_emplacement": "#b59a62", "bunker": "#6b6b6b",
    "dense_woods": "#3f7a3a", "light_woods": "#7fae6f", "orchard": "#a5c98a",
    "crop_field": "#e6dc8a", "hill": "#d9c4a0", "crest": "#c9ae7e",
    "rocky_ground": "#b3a89a", "open_ground": "#eef0d8", "wreck": "#444444",
}
ORDER = ("hill", "crest", "open_ground", "crop_field", "orchard", "rocky_ground", "river",
         "canal", "ford", "road", "bridge", "footbridge", "light_woods", "dense_woods",
         "sandbag_emplacement", "building", "bunker", "wall", "wreck")
SIDE_COLOUR = {"french": "#1f4e9c", "insurgents": "#a32020"}


def _pt(g: SkirmishGame, x: float, y: float) -> str:
    return f"{x * SCALE:.1f},{(g.terrain.depth - y) * SCALE:.1f}"


def to_svg(game: SkirmishGame) -> str:
    """The table as SVG: terrain, civilians, casualties, elements with facing and status,
    and the last line of fire."""
    g = game
    w, d = g.terrain.width * SCALE, g.terrain.depth * SCALE
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{d + 24:.0f}" '
           f'viewBox="0 0 {w:.0f} {d + 24:.0f}" font-family="sans-serif">',
           f'<rect x="0" y="0" width="{w:.0f}" height="{d:.0f}" fill="#f3efe0" '
           'stroke="#333"/>']
    feats = sorted(g.terrain.features,
                   key=lambda f: ORDER.index(f.kind) if f.kind in ORDER else 99)
    for f in feats:
        polys = getattr(f.poly, "geoms", [f.poly])
        for p in polys:
            pts = " ".join(_pt(g, x, y) for x, y in p.exterior.coords)
            out.append(f'<polygon points="{pts}" fill="{FILL.get(f.kind, "#ccc")}" '
                       f'fill-opacity="0.85" stroke="#555" stroke-width="0.5">'
                       f'<title>{escape(f.id)} ({escape(f.kind)})</title></polygon>')
    for i, (x, y) in enumerate(g.scn.civilians):
        hits = g.civ_hits[i]
        out.append(f'<circle cx="{x * SCALE:.1f}" cy="{(g.terrain.depth - y) * SCALE:.1f}" '
                   f'r="{1.5 * SCALE:.1f}" fill="{"#000" if hits else "#f5a623"}" '
                   f'stroke="#333"><title>civilians ({hits} casualties)</title></circle>')
    for m in g.markers:
        if m.on_table:
            x, y = m.x * SCALE - 1.5 * SCALE, (g.terrain.depth - m.y) * SCALE - 1.5 * SCALE
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{3 * SCALE:.0f}" '
                       f'height="{3 * SCALE:.0f}" fill="#fff" stroke="#c00" stroke-width="2">'
                       f'<title>casualty {m.label}</title></rect>')
    for e in g.elements:
        if not e.on_table:
            continue
        b = e.body
        pts = " ".join(_pt(g, x, y) for x, y in corners(b))
        colour = SIDE_COLOUR[e.side]
        dash = ' stroke-dasharray="4,2"' if e.airborne else ""
        status = []
        if e.pinned:
            status.append("P")
        if e.overwatch:
            status.append("OW")
        if e.t.is_infantry and e.sp < e.t.strength:
            status.append(f"{e.sp}SP")
        out.append(f'<polygon points="{pts}" fill="{colour}" fill-opacity="'
                   f'{0.45 if e.pinned else 0.85}" stroke="#000"{dash}>'
                   f'<title>{escape(e.label)} {escape(e.t.name)} {" ".join(status)}</title>'
                   '</polygon>')
        rad = math.radians(e.facing)
        tip = (e.x + math.cos(rad) * (b.d / 2 + 2), e.y + math.sin(rad) * (b.d / 2 + 2))
        out.append(f'<line x1="{e.x * SCALE:.1f}" y1="{(g.terrain.depth - e.y) * SCALE:.1f}" '
                   f'x2="{tip[0] * SCALE:.1f}" y2="{(g.terrain.depth - tip[1]) * SCALE:.1f}" '
                   'stroke="#000" stroke-width="2"/>')
        label = e.label + (" " + " ".join(status) if status else "")
        out.append(f'<text x="{e.x * SCALE + 10:.1f}" y="{(g.terrain.depth - e.y) * SCALE - 8:.1f}"'
                   f' font-size="11" fill="{colour}">{escape(label)}</text>')
    if g.last_fire:
        f, t = g.elements[g.last_fire[0]], g.elements[g.last_fire[1]]
        out.append(f'<line x1="{f.x * SCALE:.1f}" y1="{(g.terrain.depth - f.y) * SCALE:.1f}" '
                   f'x2="{t.x * SCALE:.1f}" y2="{(g.terrain.depth - t.y) * SCALE:.1f}" '
                   'stroke="#e60000" stroke-width="2" stroke-dasharray="6,3"/>')
    out.append(f'<text x="4" y="{d + 16:.0f}" font-size="13">{escape(g.prompt())}</text>')
    out.append("</svg>")
    return "\n".join(out)


def describe(game: SkirmishGame) -> str:
    """Compact text state for the terminal: turn, scores, every element's situation."""
    g = game
    pts = score(g, final=False)
    lines = [f"{g.scn.name} - turn {g.turn}/{g.turn_limit}, {g.phasing} phase; "
             f"points french {pts['french']} insurgents {pts['insurgents']}; "
             f"civilian casualties {sum(g.civ_hits)}"]
    for side in g.sides:
        parts = []
        for e in g.elements:
            if e.side != side:
                continue
            if e.removed:
                parts.append(f"{e.label}:{e.type}[{e.removed}]")
                continue
            if e.off_table:
                where = "off-table"
            elif e.embarked_in >= 0:
                where = f"in {g.elements[e.embarked_in].label}"
            else:
                where = f"({e.x:.1f},{e.y:.1f})@{e.facing:.0f}"
            flags = []
            if e.t.is_infantry:
                flags.append(f"{e.sp}SP")
            if e.pinned:
                flags.append("pinned")
            if e.overwatch:
                flags.append("OW")
            if e.airborne and not e.off_table:
                flags.append("air")
            if e.immobilized:
                flags.append("immob")
            if e.markers:
                flags.append(f"dmg{e.markers}")
            if g.in_fight(e.id):
                flags.append("CC")
            if e.activated:
                flags.append("done")
            parts.append(f"{e.label}:{e.type} {where} {' '.join(flags)}".rstrip())
        lines.append(f"{side}: " + "; ".join(parts))
    ms = [m for m in g.markers if not m.evacuated]
    if ms:
        lines.append("casualties: " + ", ".join(
            f"{m.label}@({m.x:.0f},{m.y:.0f})" if m.on_table else
            f"{m.label} carried by {g.elements[m.carried_by].label}" for m in ms))
    return "\n".join(lines)
