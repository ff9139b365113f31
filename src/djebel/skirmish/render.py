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
    feats = sorted(g.terrain.features,
                   key=lambda f: ORDER.index(f.kind) if f.kind in ORDER else 99)
    kinds = list(dict.fromkeys(f.kind for f in feats))
    total_w = w + LEGEND_W
    total_h = max(d + FOOTER_H, LEGEND_TOP + 18 * (len(kinds) + len(SYMBOLS) + 4))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" '
           f'height="{total_h:.0f}" viewBox="0 0 {total_w:.0f} {total_h:.0f}" '
           'font-family="sans-serif">',
           f'<rect x="0" y="0" width="{w:.0f}" height="{d:.0f}" fill="#f3efe0" '
           'stroke="#333"/>']
    for f in feats:
        polys = getattr(f.poly, "geoms", [f.poly])
        for p in polys:
            pts = " ".join(_pt(g, x, y) for x, y in p.exterior.coords)
            out.append(f'<polygon points="{pts}" fill="{FILL.get(f.kind, "#ccc")}" '
                       f'fill-opacity="0.85" stroke="#555" stroke-width="0.5">'
                       f'<title>{escape(f.id)} ({escape(f.kind)})</title></polygon>')
    out += _grid(g)
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
        cx, cy = e.x * SCALE, (g.terrain.depth - e.y) * SCALE
        out.append(f'<text x="{cx + 10:.1f}" y="{cy - 8:.1f}"'
                   f' font-size="11" fill="{colour}">{escape(label)}</text>')
        out.append(f'<text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="8" fill="#fff" '
                   f'text-anchor="middle" class="type">{escape(short_type(e.type))}</text>')
    if g.last_fire:
        f, t = g.elements[g.last_fire[0]], g.elements[g.last_fire[1]]
        out.append(f'<line x1="{f.x * SCALE:.1f}" y1="{(g.terrain.depth - f.y) * SCALE:.1f}" '
                   f'x2="{t.x * SCALE:.1f}" y2="{(g.terrain.depth - t.y) * SCALE:.1f}" '
                   'stroke="#e60000" stroke-width="2" stroke-dasharray="6,3"/>')
    out.append(f'<text x="4" y="{d + 16:.0f}" font-size="13">{escape(g.prompt())}</text>')
    out += _scale_bar(d + 26)
    out += _legend(w + 12, kinds)
    out.append("</svg>")
    return "\n".join(out)


GRID_CM = 10.0        # grid spacing (the infantry move)
LEGEND_W = 200.0      # pixels right of the table for the legend
LEGEND_TOP = 16.0
FOOTER_H = 56.0       # prompt line and scale bar under the table
SYMBOLS = (("P", "pinned"), ("OW", "on Overwatch"), ("nSP", "strength points left"),
           ("- - -", "airborne (dashed outline)"), ("line", "facing"),
           ("red dashes", "last fire"), ("orange disc", "civilians"),
           ("red square", "casualty marker"))


def short_type(type_id: str) -> str:
    """A counter's type in a few letters (``french_rifle`` -> ``fr rifle``)."""
    words = type_id.replace("insurgent", "ins").replace("french", "fr").split("_")
    return " ".join(words)[:10].strip()


def _grid(g: SkirmishGame) -> list[str]:
    """A 10 cm grid with its coordinates in cm along the bottom and left edges."""
    w, d = g.terrain.width, g.terrain.depth
    out = ['<g class="grid" stroke="#999" stroke-width="0.5" stroke-opacity="0.5">']
    x = GRID_CM
    while x < w:
        out.append(f'<line x1="{x * SCALE:.1f}" y1="0" x2="{x * SCALE:.1f}" '
                   f'y2="{d * SCALE:.1f}"/>')
        x += GRID_CM
    y = GRID_CM
    while y < d:
        out.append(f'<line x1="0" y1="{(d - y) * SCALE:.1f}" x2="{w * SCALE:.1f}" '
                   f'y2="{(d - y) * SCALE:.1f}"/>')
        y += GRID_CM
    out.append("</g>")
    out.append('<g class="grid-labels" font-size="9" fill="#555">')
    x = GRID_CM
    while x < w:
        out.append(f'<text x="{x * SCALE + 2:.1f}" y="{d * SCALE - 3:.1f}">{x:.0f}</text>')
        x += GRID_CM
    y = GRID_CM
    while y < d:
        out.append(f'<text x="2" y="{(d - y) * SCALE - 2:.1f}">{y:.0f}</text>')
        y += GRID_CM
    out.append("</g>")
    return out


def _scale_bar(top: float) -> list[str]:
    """A bar one grid square long, labelled in cm."""
    length = GRID_CM * SCALE
    return [f'<g class="scale"><rect x="4" y="{top:.0f}" width="{length:.0f}" height="6" '
            'fill="#333"/>'
            f'<text x="{length + 10:.0f}" y="{top + 7:.0f}" font-size="11">{GRID_CM:.0f} cm '
            f'(grid {GRID_CM:.0f} cm; x from the west edge, y from the south edge)</text></g>']


def _legend(x: float, kinds: list[str]) -> list[str]:
    """Sides, the terrain kinds on this table and the counters' marks."""
    out = [f'<g class="legend" font-size="11"><text x="{x:.0f}" y="{LEGEND_TOP:.0f}" '
           'font-weight="bold">Legend</text>']
    y = LEGEND_TOP + 18
    for side, colour in SIDE_COLOUR.items():
        out.append(f'<rect x="{x:.0f}" y="{y - 9:.0f}" width="12" height="10" '
                   f'fill="{colour}"/><text x="{x + 18:.0f}" y="{y:.0f}">{side}</text>')
        y += 18
    for kind in kinds:
        out.append(f'<rect x="{x:.0f}" y="{y - 9:.0f}" width="12" height="10" '
                   f'fill="{FILL.get(kind, "#ccc")}" stroke="#555" stroke-width="0.5"/>'
                   f'<text x="{x + 18:.0f}" y="{y:.0f}">{escape(kind.replace("_", " "))}</text>')
        y += 18
    for mark, meaning in SYMBOLS:
        out.append(f'<text x="{x:.0f}" y="{y:.0f}"><tspan font-weight="bold">'
                   f'{escape(mark)}</tspan> {escape(meaning)}</text>')
        y += 18
    out.append("</g>")
    return out


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
