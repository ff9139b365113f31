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

# Towns: (longitude, latitude) of the place that names each area; Morocco and Tunisia at
# the middle of their boxes.
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
    "MOROCCO": (-2.5, 33.6), "TUNISIA": (9.5, 34.4),
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
MOROCCO_BOX = [(-3.2, 32.1), (-2.2, 32.1), (-1.25, 32.10), (-1.20, 32.65), (-1.60, 33.10),
               (-1.70, 34.10), (-1.85, 34.65), (-2.20, 35.08), (-3.2, 35.3)]
TUNISIA_BOX = [(8.62, 36.94), (9.8, 37.25), (10.4, 36.9), (10.4, 32.3), (7.00, 32.40),
               (7.50, 33.30), (7.70, 34.20), (8.15, 34.60), (8.35, 35.30), (8.30, 35.80),
               (8.45, 36.50)]

LON0, LON1, LAT0, LAT1 = -3.2, 10.4, 32.0, 37.6
# One SVG unit is about one screen pixel at the default zoom on a 1400 px wide window, so
# that the page's sizes (text 12 px and up) hold there. North-south is stretched, as board
# wargame maps of Algeria are: the towns of the Tell are close together from north to
# south and far apart from east to west.
WIDTH = 1000
SCALE_X = WIDTH / (LON1 - LON0)
SCALE_Y = SCALE_X * 1.75
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
