"""Our own map of Algeria for the web board: each area at its real town, regions
drawn as the Voronoi cells of the towns inside a simplified outline of the country,
grouped by wilaya. All coordinates here are longitude/latitude, projected once to
the SVG's pixels.
"""

from __future__ import annotations

from functools import lru_cache

from shapely.geometry import MultiPoint, Point, Polygon
from shapely.ops import unary_union, voronoi_diagram

from djebel.algeria.board import AREA_IDS, AREA_NAMES, AREA_WILAYA

# Towns: (longitude, latitude) of the place that names each area.
TOWNS = {
    "I-1": (5.37, 35.39), "I-2": (6.17, 35.56), "I-3": (5.73, 34.85), "I-4": (8.12, 35.40),
    "CONSTANTINE": (6.61, 36.37), "II-1": (5.41, 36.19), "II-2": (6.91, 36.88),
    "II-3": (7.95, 36.29),
    "III-1": (4.05, 36.71), "III-2": (4.76, 36.07), "III-3": (5.08, 36.75),
    "ALGIERS": (3.06, 36.75), "IV-1": (2.75, 36.26), "IV-2": (1.33, 36.16),
    "ORAN": (-0.63, 35.70), "V-1": (-0.28, 33.55), "V-2": (-1.32, 34.88),
    "V-3": (-0.63, 35.19), "V-4": (0.09, 35.93), "V-5": (0.15, 34.83), "V-6": (0.14, 35.40),
    "V-7": (-0.58, 32.75), "V-8": (2.87, 33.80),
    "VI-1": (3.77, 35.88), "VI-2": (2.90, 35.45),
    "MOROCCO": (-2.0, 34.0), "TUNISIA": (9.3, 35.6),
}

# Northern Algeria, simplified by hand: the coast from the Moroccan border to the
# Tunisian one, then the Tunisian border south, a straight line across the Sahara
# edge, and the Moroccan border north again.
OUTLINE = [
    (-1.75, 35.10), (-1.20, 35.30), (-0.80, 35.78), (-0.45, 35.85), (0.05, 35.88),
    (0.35, 36.10), (1.20, 36.50), (2.10, 36.60), (2.90, 36.80), (3.40, 36.78),
    (3.90, 36.92), (4.60, 36.90), (5.08, 36.76), (5.50, 36.70), (5.80, 36.84),
    (6.30, 37.08), (6.90, 36.90), (7.40, 37.08), (7.80, 36.90), (8.35, 36.95),
    (8.62, 36.94), (8.45, 36.50), (8.30, 35.80), (8.35, 35.30), (8.15, 34.60),
    (7.70, 34.20), (7.50, 33.30), (7.00, 32.40), (3.00, 32.30), (-0.40, 32.15),
    (-1.25, 32.10), (-1.20, 32.65), (-1.60, 33.10), (-1.70, 34.10), (-1.85, 34.65),
    (-2.20, 35.08),
]
MOROCCO_BOX = [(-3.6, 32.1), (-2.2, 32.1), (-1.25, 32.10), (-1.20, 32.65), (-1.60, 33.10),
               (-1.70, 34.10), (-1.85, 34.65), (-2.20, 35.08), (-3.6, 35.3)]
TUNISIA_BOX = [(8.62, 36.94), (9.8, 37.25), (10.6, 36.9), (10.6, 32.3), (7.00, 32.40),
               (7.50, 33.30), (7.70, 34.20), (8.15, 34.60), (8.35, 35.30), (8.30, 35.80),
               (8.45, 36.50)]

LON0, LON1, LAT0, LAT1 = -3.6, 10.6, 32.0, 38.6
WIDTH = 1420
SCALE_X = WIDTH / (LON1 - LON0)
SCALE_Y = SCALE_X * 1.22          # latitude degrees are longer than longitude ones here
HEIGHT = round((LAT1 - LAT0) * SCALE_Y)

WILAYA_COLOURS = {"I": "#e9dcc0", "II": "#dfe6c6", "III": "#e8d4c4", "IV": "#d7e2d8",
                  "V": "#ece4cf", "VI": "#e2d9e6", "MOROCCO": "#d9d4cc", "TUNISIA": "#d9d4cc"}


def project(lon: float, lat: float) -> tuple[float, float]:
    return (round((lon - LON0) * SCALE_X, 1), round((LAT1 - lat) * SCALE_Y, 1))


def _ring(poly) -> list[list[float]]:
    return [list(project(x, y)) for x, y in poly.exterior.coords]


@lru_cache(maxsize=1)
def geometry() -> dict:
    """Everything the client needs to draw the map, in SVG pixels."""
    land = Polygon(OUTLINE).buffer(0)
    ids = [a for a in AREA_IDS if a in TOWNS and a not in ("MOROCCO", "TUNISIA")]
    pts = MultiPoint([Point(*TOWNS[a]) for a in ids])
    cells = voronoi_diagram(pts, envelope=land.buffer(2))
    regions: dict[str, list] = {}
    for cell in cells.geoms:
        for a in ids:
            if cell.contains(Point(*TOWNS[a])):
                part = cell.intersection(land)
                geoms = getattr(part, "geoms", [part])
                regions[a] = [_ring(g) for g in geoms if g.geom_type == "Polygon"]
    wilayas = {}
    for w in sorted({AREA_WILAYA[AREA_IDS.index(a)] for a in ids}):
        members = [Polygon(OUTLINE).buffer(0)]
        members = [cell.intersection(land) for cell in cells.geoms
                   if any(cell.contains(Point(*TOWNS[a])) for a in ids
                          if AREA_WILAYA[AREA_IDS.index(a)] == w)]
        shape = unary_union(members).buffer(0)
        geoms = getattr(shape, "geoms", [shape])
        c = shape.representative_point()
        wilayas[w] = {"rings": [_ring(g) for g in geoms if g.geom_type == "Polygon"],
                      "label": list(project(c.x, c.y)), "colour": WILAYA_COLOURS[w]}
    areas = {}
    for i, a in enumerate(AREA_IDS):
        if a in TOWNS:
            areas[a] = {"name": AREA_NAMES[i], "wilaya": AREA_WILAYA[i],
                        "town": list(project(*TOWNS[a])), "cells": regions.get(a, [])}
    return {
        "width": WIDTH, "height": HEIGHT,
        "land": _ring(land),
        "morocco": _ring(Polygon(MOROCCO_BOX).buffer(0)),
        "tunisia": _ring(Polygon(TUNISIA_BOX).buffer(0)),
        "wilayas": wilayas,
        "areas": areas,
        "colours": WILAYA_COLOURS,
    }


CARD_W, CARD_H = 140, 84


FRANCE_BOX = (20, 14, 330, 104)          # x, y, width, height of the France box


@lru_cache(maxsize=1)
def cards() -> dict[str, list[float]]:
    """Top-left corners of each area's box card: near its town, no two overlapping.

    Overlapping cards are pushed apart while a pull towards the town fades out, so the
    last rounds only separate."""
    ids = [a for a in AREA_IDS if a in TOWNS]
    pos = {}
    for a in ids:
        x, y = project(*TOWNS[a])
        pos[a] = [x - CARD_W / 2, y - CARD_H / 2]
    pos["MOROCCO"] = [10.0, 400.0]
    pos["TUNISIA"] = [WIDTH - CARD_W - 10, 420.0]
    fixed = {"MOROCCO", "TUNISIA", "FRANCE"}
    pos["FRANCE"] = [FRANCE_BOX[0], FRANCE_BOX[1]]
    size = {a: (CARD_W, CARD_H) for a in ids}
    size["FRANCE"] = (FRANCE_BOX[2], FRANCE_BOX[3])
    names = [*ids, "FRANCE"]
    gap = 10
    rounds = 1500
    for step in range(rounds):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if a in fixed and b in fixed:
                    continue
                pa, pb = pos[a], pos[b]
                (wa, ha), (wb, hb) = size[a], size[b]
                dx = (pb[0] + wb / 2) - (pa[0] + wa / 2)
                dy = (pb[1] + hb / 2) - (pa[1] + ha / 2)
                ox = (wa + wb) / 2 + gap - abs(dx)
                oy = (ha + hb) / 2 + gap - abs(dy)
                if ox <= 0 or oy <= 0:
                    continue
                moved = True
                if ox / (wa + wb) < oy / (ha + hb):
                    push, axis, sign = ox / 2 + 0.5, 0, (1 if dx >= 0 else -1)
                else:
                    push, axis, sign = oy / 2 + 0.5, 1, (1 if dy >= 0 else -1)
                if a not in fixed:
                    pa[axis] -= sign * push * (2 if b in fixed else 1)
                if b not in fixed:
                    pb[axis] += sign * push * (2 if a in fixed else 1)
        pull = 0.05 * max(0.0, 1 - step / (rounds * 0.6))
        for a in ids:
            if a in fixed:
                continue
            tx, ty = project(*TOWNS[a])
            p = pos[a]
            p[0] += (tx - CARD_W / 2 - p[0]) * pull
            p[1] += (ty - CARD_H / 2 - p[1]) * pull
            p[0] = min(max(p[0], 4), WIDTH - CARD_W - 4)
            p[1] = min(max(p[1], 24), HEIGHT - CARD_H - 4)
        if not moved and pull == 0:
            break
    return {a: [round(p[0], 1), round(p[1], 1)] for a, p in pos.items() if a != "FRANCE"}
