"""JSON views of a game for the browser: the board, the legal actions grouped by what
they name on the board (so a click narrows the choice), the prompt, the log tail."""

from __future__ import annotations

import math

from djebel.core.actions import Action
from djebel.core.memo import Memo
from djebel.odds import algeria as algeria_odds
from djebel.odds import skirmish as skirmish_odds
from djebel.web.symbols import symbol

LOG_TAIL = 60


def view(game, side: str | None, seats: dict, ply: int, *, live: bool = True,
         actions: list[dict] | None = None) -> dict:
    """Everything the page draws. Actions are listed only for the side to act, and only
    when it is the viewer's (``side``) and the view is of the live game; ``actions``
    is :func:`described_actions` of ``game`` when the caller already has it."""
    active = game.active_side
    over = game.is_over()
    result = game.result()
    acts = []
    if shows_actions(game, side, live):
        acts = described_actions(game) if actions is None else actions
    return {
        "game": game.name,
        "ply": ply,
        "active": active,
        "you": side,
        "over": over,
        "result": result.to_json() if result else None,
        "prompt": game.prompt(),
        "seats": seats,
        "actions": acts,
        "log": [dict(e.to_json(), n=i) for i, e in
                enumerate(game.log.tail(LOG_TAIL), start=max(0, len(game.log) - LOG_TAIL))],
        "board": algeria_board(game) if game.name == "algeria" else skirmish_board(game),
    }


# ---------------------------------------------------------------- actions
def shows_actions(game, side: str | None, live: bool) -> bool:
    """Whether a view by ``side`` lists the legal actions."""
    return live and side is not None and not game.is_over() and side == game.active_side


def described_actions(game) -> list[dict]:
    """The legal actions of the side to act, each with what it names on the board."""
    return [describe_action(game, a) for a in game.legal_actions()]


def describe_action(game, a: Action) -> dict:
    out = {"text": str(a), "verb": a.verb}
    if game.name == "algeria":
        from djebel.algeria.board import AREA_INDEX, BOX_NAMES, TYPE_INDEX, UNIT_INDEX
        units, areas, types, boxes = [], [], [], []
        for arg in a.args:
            w = str(arg)
            if w in UNIT_INDEX:
                units.append(w)
            elif w.upper() in AREA_INDEX:
                areas.append(w.upper())
            elif w in TYPE_INDEX:
                types.append(w)
            elif w.upper() in BOX_NAMES:
                boxes.append(w.upper())
        out.update(units=units, areas=areas, types=types, boxes=boxes,
                   label=_algeria_label(game, a, units, areas))
    else:
        labels = game.labels
        els = [str(x) for x in a.args if str(x) in labels]
        out["elements"] = els
        nums = [x for x in a.args if isinstance(x, (int, float))]
        if a.verb in ("move", "sprint", "place", "enter", "fly", "land", "dismount", "unload",
                      "disembark") and len(nums) >= 2:
            out["point"] = [float(nums[0]), float(nums[1])]
    return out


def _algeria_label(game, a: Action, units: list[str], areas: list[str]) -> str:
    """The action as the page shows it: every area by its name and code, and a unit's
    area added when the action names none (``propaganda cadre2 in Algiers (ALGIERS)``);
    the notation sent back to the server stays ``str(a)``."""
    from djebel.algeria.board import AREA_IDS, AREA_INDEX, AREA_NAMES, UNIT_INDEX

    words = [f"{AREA_NAMES[AREA_INDEX[w.upper()]]} ({w.upper()})"
             if w.upper() in AREA_INDEX and w.upper() in areas else w
             for w in str(a).split()]
    if units and not areas:
        loc = game.state.loc[UNIT_INDEX[units[0]]]
        if loc >= 0:
            words += ["in", f"{AREA_NAMES[loc]} ({AREA_IDS[loc]})"]
    return " ".join(words)


# ---------------------------------------------------------------- Algeria
def algeria_board(game) -> dict:
    from djebel.algeria.board import (
        AIRMOBILE,
        AREA_IDS,
        BOX_NAMES,
        DISPERSED,
        NATO,
        NEUT,
        NUM_AREAS,
        POOL,
        REMOVED,
        SUEZ,
        TYPE_KEYS,
        TYPE_SIDE,
        UNIT_NAMES,
        UNIT_TYPES,
        UTYPE,
    )
    from djebel.algeria.rules.common import contact, evasion, firepower, rating
    from djebel.algeria.state import FLN_CONTROL, GOV_CONTROL, OAS_INACTIVE, OAS_UNPLACED

    s = game.state
    areas = []
    boxes: list[dict[str, list[str]]] = [{b: [] for b in BOX_NAMES} for _ in range(NUM_AREAS)]
    units = {}
    offmap: dict[str, list[str]] = {"pool": [], "nato": [], "suez": [], "removed": []}
    where = {POOL: "pool", NATO: "nato", SUEZ: "suez", REMOVED: "removed"}
    for u, name in enumerate(UNIT_NAMES):
        t = UTYPE[u]
        side = TYPE_SIDE[t]
        f = s.flags[u]
        loc = s.loc[u]
        # compact: [type, firepower, contact or evasion, marks (1 neutralized, 2 airmobile,
        # 4 dispersed)]; what never changes is in "types"
        units[name] = [TYPE_KEYS[t], firepower(s, u),
                       contact(s, u) if side == "gov" else evasion(u),
                       (1 if f & NEUT else 0) | (2 if f & AIRMOBILE else 0)
                       | (4 if f & DISPERSED else 0)]
        if loc >= 0:
            boxes[loc][BOX_NAMES[s.box[u]]].append(name)
        elif loc in where:
            offmap[where[loc]].append(name)
    for a in range(NUM_AREAS):
        ctrl = s.control[a]
        areas.append({
            "id": AREA_IDS[a], "rating": rating(s, a),
            "control": "fln" if ctrl == FLN_CONTROL else "gov" if ctrl == GOV_CONTROL else "",
            "terror": bool(s.terror[a]), "resettled": bool(s.resettled[a]),
            "boxes": boxes[a],
        })
    oas = ("inactive" if s.oas == OAS_INACTIVE else "unplaced" if s.oas == OAS_UNPLACED
           else AREA_IDS[s.oas])
    return {
        "kind": "algeria",
        "scenario": s.scenario, "turn": s.turn, "phase": s.phase,
        "decision": game.decision(),
        "tracks": {
            "fln_psl": s.fln_psl, "gov_psl": s.gov_psl, "ap": s.ap,
            "air_avail": s.air_avail, "air_max": s.air_max,
            "helo_avail": s.helo_avail, "helo_max": s.helo_max, "naval": s.naval,
            "bz": s.bz, "bz_active": bool(s.bz_active), "independent": bool(s.independent),
            "oas": oas, "oas_controller": s.oas_controller or "",
            "amnesty": bool(s.amnesty), "jealousy": bool(s.jealousy),
            "slow_french": bool(s.slow_french), "turn_limit": s.turn_limit,
        },
        "areas": areas,
        "units": units,
        "types": {TYPE_KEYS[t]: {"side": TYPE_SIDE[t], "name": spec["name"],
                                 "elite": bool(spec.get("elite")),
                                 "static": spec.get("kind") == "static",
                                 "symbol": symbol("algeria", TYPE_KEYS[t])}
                  for t, spec in enumerate(UNIT_TYPES)},
        "offmap": offmap,
    }


# ---------------------------------------------------------------- skirmish
def skirmish_board(game) -> dict:
    from djebel.skirmish.geometry import corners
    from djebel.skirmish.rules.garnish import score
    from djebel.skirmish.rules.movement import move_cm

    g = game
    terrain = _terrain(g)
    sprint = g.tabs["movement"].get("sprint_moves", 2)
    elements = []
    for e in g.elements:
        t = e.t
        item = {
            "label": e.label, "side": e.side, "type": e.type, "name": t.name,
            "x": round(e.x, 2), "y": round(e.y, 2), "facing": round(e.facing, 1),
            "w": t.base_w_cm, "d": t.base_d_cm,
            "on_table": e.on_table, "removed": e.removed, "off_table": e.off_table,
            "embarked_in": g.elements[e.embarked_in].label if e.embarked_in >= 0 else "",
            "pinned": e.pinned, "overwatch": e.overwatch, "airborne": e.airborne,
            "sp": e.sp, "strength": t.strength, "infantry": t.is_infantry,
            "immobilized": e.immobilized, "engine_damaged": e.engine_damaged,
            "optics": e.optics, "weapons_ko": e.weapons_ko,
            "damage": list(e.damage_types), "activated": e.activated,
            "ap": e.ap_dice(), "at": e.at_dice(), "symbol": symbol("skirmish", e.type),
            "passengers": [o.label for o in g.elements if o.embarked_in == e.id],
        }
        if e.on_table:
            item["corners"] = [[round(x, 2), round(y, 2)] for x, y in corners(e.body)]
            item["move_cm"] = 0.0 if e.immobilized else move_cm(g, e)
            item["sprint_cm"] = item["move_cm"] * sprint
        elements.append(item)
    markers = [{"label": m.label, "x": m.x, "y": m.y} for m in g.markers if m.on_table]
    civ = [{"x": x, "y": y, "hits": g.civ_hits[i]} for i, (x, y) in enumerate(g.scn.civilians)]
    last = None
    if g.last_fire:
        last = [g.elements[g.last_fire[0]].label, g.elements[g.last_fire[1]].label]
    fr = g.frames[-1] if g.frames else {}
    return {
        "kind": "skirmish", "scenario": g.scenario_name, "name": g.scn.name,
        "setup": fr.get("side", "") if fr.get("k") == "deploy" else "",
        "zones": sorted(g.zones) if fr.get("k") == "deploy" else [],
        "close_cm": dict(g.tabs["to_hit"]["close_range_cm"]),
        "width": g.terrain.width, "depth": g.terrain.depth,
        "turn": g.turn, "turn_limit": g.turn_limit, "phasing": g.phasing,
        "score": score(g, final=False),
        "terrain": terrain, "elements": elements, "markers": markers, "civilians": civ,
        "last_fire": last,
    }


def ruler(g, x0: float, y0: float, x1: float, y1: float) -> dict:
    """A ruler laid on the table from (x0, y0) to (x1, y1), in cm: its length and the
    terrain that blocks the line of sight along it (D33.3, ground level)."""
    from djebel.core.errors import IllegalAction
    from djebel.skirmish.geometry import blocking_features

    w, d = g.terrain.width, g.terrain.depth
    for x, y in ((x0, y0), (x1, y1)):
        if not (0 <= x <= w and 0 <= y <= d):
            raise IllegalAction("D33", f"({x:g}, {y:g}) is off the {w:g} x {d:g} cm table")
    blocks = blocking_features(g.terrain, (x0, y0), (x1, y1))
    return {"from": [x0, y0], "to": [x1, y1],
            "distance": round(math.hypot(x1 - x0, y1 - y0), 1), "clear": not blocks,
            "blocking": [{"id": f.id, "kind": f.kind} for f in blocks]}


def ruler_between(g, first: str, second: str) -> dict:
    """The ruler from one element's centre to another's, and whether the first sees the
    second by the rules (R147: D33, any clear line between the bases, with D76)."""
    from djebel.core.errors import IllegalAction

    a, b = g.el(first), g.el(second)
    for e in (a, b):
        if not e.on_table:
            raise IllegalAction("D33", f"{e.label} is not on the table")
    out = ruler(g, a.x, a.y, b.x, b.y)
    terrain = bool(g.terrain_sees(a, b))
    sees = bool(g.sees(a, b))
    # D76: what the terrain lets through, civilians between can still hide
    out.update(ends=[a.label, b.label], sees=sees, civilians=terrain and not sees)
    return out


def sight(g, label: str) -> list[str]:
    """The enemy elements that element ``label`` can see now (R147, D33, D76)."""
    e = g.el(label)
    if not e.on_table:
        return []
    return [o.label for o in g.elements
            if o.on_table and o.side != e.side and _sees(g, e, o)]


_TERRAIN: Memo[tuple, list] = Memo(64)


def _terrain(g) -> list:
    """The terrain features as polygons (cached: most tables never change)."""
    key = (g.scn.path,
           tuple((f.id, f.kind, f.poly.bounds, f.poly.area) for f in g.terrain.features))
    hit = _TERRAIN.get(key)
    if hit is None:
        hit = []
        for f in g.terrain.features:
            polys = getattr(f.poly, "geoms", [f.poly])
            hit.append({"id": f.id, "kind": f.kind,
                        "polys": [[[round(x, 2), round(y, 2)] for x, y in p.exterior.coords]
                                  for p in polys if hasattr(p, "exterior")]})
        _TERRAIN.store(key, hit)
    return hit


def _sees(g, a, b) -> bool:
    try:
        return bool(g.sees(a, b))
    except Exception:
        return False


# ---------------------------------------------------------------- odds
def odds(game, text: str) -> str | None:
    """One line of odds for a pending action, or None when it involves no dice."""
    a = Action.parse(text)
    game.validate(a)          # a refused action has no odds: its refusal says why
    # the same figures as the terminal's and `djebel odds`
    describe = algeria_odds.describe if game.name == "algeria" else skirmish_odds.describe
    return describe(game, a)




def angle(x0: float, y0: float, x1: float, y1: float) -> float:
    return math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360
