"""The Insurgent Commander game: state, decision flow and the shared protocol.

The flow is an explicit stack of frames (plain dicts). Decision frames ask one
side for an action: ``main`` (pick an element or end the phase), ``act`` (the
element's activation), ``react`` (reactions to an observed enemy action),
``ow`` (overwatch fire interrupting a move) and ``charge`` (the charge
exception). Automatic frames (``moving``, ``cc``, ``pin``, ``after``) run
until a decision is needed. Everything is JSON-able, so any decision point can
be cloned, saved and restored.
"""

from __future__ import annotations

import math

from djebel.core.actions import Action
from djebel.core.chain import Chain
from djebel.core.dice import Dice, check_script
from djebel.core.errors import IllegalAction, ScenarioError
from djebel.core.log import Log
from djebel.core.memo import Memo
from djebel.core.protocol import Result, state_hash
from djebel.skirmish import flow, orders, reaction_orders
from djebel.skirmish.bots import candidates as cand
from djebel.skirmish.catalog import tables
from djebel.skirmish.geometry import (
    Feature,
    base_poly,
    civilians_in_lane,
    distance,
    terrain_los,
)
from djebel.skirmish.rules import aircraft, fire, garnish
from djebel.skirmish.scenario import Scenario, open_scenario, terrain_library
from djebel.skirmish.state import Element, Marker

OPTION_DEFAULTS = {
    "unpin_roll_grants_action": False, "fast_rope_allowed": True, "blast_vs_buildings": True,
    "road_bonus_requires_road_path": True, "casualty_rules": True, "civilian_rules": True,
    "max_range_cm": 0.0, "turn_limit": 0, "collateral_hit_on": 0, "log": True,
    "collateral_trigger": "", "bunker_cc_defender_bonus": 0, "wrecks_as_terrain": False,
    "deploy": False,
}
# Options whose value is one of a few words or faces (D77).
OPTION_CHOICES = {"collateral_trigger": ("", "no_hits", "no_unsaved_hits"),
                  "collateral_hit_on": (0, 5, 6)}
DECIDERS = {"main": "phasing", "act": "phasing", "group": "phasing", "react": "other",
            "ow": "other", "charge": "other"}


def check_option(key: str, value: object) -> None:
    """An option's value has its default's type (numbers not negative, D77 words)."""
    kind = type(OPTION_DEFAULTS[key])
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is bool:
        ok, want = isinstance(value, bool), "true or false"
    elif kind is str:
        ok, want = isinstance(value, str), "a string"
    else:
        ok = number and 0 <= value < float("inf") and (kind is float or isinstance(value, int))
        want = "a number >= 0" if kind is float else "an integer >= 0"
    if key in OPTION_CHOICES:
        ok, want = ok and value in OPTION_CHOICES[key], \
            f"one of {', '.join(map(repr, OPTION_CHOICES[key]))}"
    if not ok:
        raise ScenarioError(f"option {key!r}: expected {want}, found {value!r}")


_FIGHTS: Memo[tuple, tuple[frozenset[int], ...]] = Memo(50_000)


class SkirmishGame:
    """One battle of Insurgent Commander on a continuous table."""

    name = "skirmish"
    sides = ("french", "insurgents")

    # ------------------------------------------------------------ set-up
    def __init__(self, scenario: str | dict, seed: int = 0, options: dict | None = None,
                 dice_script: tuple = (), rolls: tuple = ()) -> None:
        opts = dict(OPTION_DEFAULTS)
        if options is not None and not isinstance(options, dict):
            raise ScenarioError(f"field 'options': expected an object, found {options!r}")
        for k, v in (options or {}).items():
            if k not in OPTION_DEFAULTS:
                raise ScenarioError(f"unknown option {k!r} (known: {', '.join(OPTION_DEFAULTS)})")
            check_option(k, v)
            opts[k] = v
        self.scn: Scenario
        self.scn, self.scenario_data = open_scenario(scenario)
        self.scenario_name = scenario if self.scenario_data is None else self.scn.id
        self.seed = int(seed)
        self.options = opts
        self.user_options = dict(options or {})
        self.dice_script = check_script(dice_script)
        self.tabs = tables()
        self.terrain = self.scn.terrain
        self.breaches: list = []
        self.wrecks: list = []
        self.rolls = tuple(int(x) for x in rolls)     # faces drawn before the script
        self.dice = Dice(self.seed, self.rolls + self.dice_script)
        self.log = Log(enabled=bool(opts["log"]))
        self.hist = Chain()
        self.elements: list[Element] = []
        for fe in self.scn.forces:
            e = Element(len(self.elements), fe.label, fe.side, fe.type, fe.x, fe.y, fe.facing)
            e.overwatch = fe.overwatch
            e.off_table = fe.off_table
            e.airborne = fe.airborne
            e.available_turn = fe.available_turn
            e.max_sorties = fe.max_sorties
            self.elements.append(e)
            carrier = e.id
            for ptype, plabel in zip(fe.passengers, fe.passenger_labels, strict=True):
                p = Element(len(self.elements), plabel, fe.side, ptype, fe.x, fe.y, fe.facing)
                p.embarked_in = carrier
                self.elements.append(p)
        self.labels = {e.label: e.id for e in self.elements}
        self.zones = {fe.label: fe for fe in self.scn.forces if fe.zone}
        self.entry = {fe.label: fe.entry_edge for fe in self.scn.forces if fe.entry_edge}
        # D73: casualty markers the scenario puts down at the start (wounded to recover)
        self.markers: list[Marker] = [Marker(i, x, y) for i, (x, y) in
                                      enumerate(self.scn.casualties)
                                      if opts["casualty_rules"]]
        self.civ_hits: list[int] = [0] * len(self.scn.civilians)
        self.turn = 1
        self.phase_no = 0
        self.phasing = self.scn.first_side
        self.frames: list[dict] = []
        self.searched: tuple[str, ...] = ()
        self.last_fire: tuple | None = None
        self.over = False
        self._result: Result | None = None
        self.turn_limit = int(opts["turn_limit"]) or self.scn.turn_limit
        self._cache: dict = {}
        if opts["deploy"]:
            # spec 4: each side may move its elements within their set-up zones first
            self.frames = [{"k": "deploy", "side": self.scn.setup_order[0]}]
            self.log.add("4", f"set-up: {self.scn.setup_order[0]} deploy first")
        else:
            self._start_phase()
        self._advance()

    # ------------------------------------------------------------ small helpers
    def opt(self, name: str):
        return self.options.get(name)

    @staticmethod
    def other(side: str) -> str:
        return "insurgents" if side == "french" else "french"

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        return tuple(self.dice.die(sides) for _ in range(n))

    def dirty(self) -> None:
        self._cache = {}

    def el(self, label, rule: str = "R10") -> Element:
        i = self.labels.get(str(label))
        if i is None:
            raise IllegalAction(rule, f"no element called {label!r}")
        return self.elements[i]

    def place(self, e: Element, x: float, y: float, facing: float) -> None:
        e.x, e.y, e.facing = float(x), float(y), float(facing) % 360.0
        self.dirty()

    def pin(self, e: Element) -> None:
        """Pinned: also ends Overwatch (D15.2) and the rest of an own activation (D10)."""
        if e.removed:
            return
        e.pinned = True
        e.overwatch = False
        for fr in self.frames:
            if fr["k"] == "act" and fr["e"] == e.id and not fr.get("grp"):
                fr["free"] = False
                fr["credits"] = 0
            elif fr["k"] == "group" and e.id in fr["m"]:
                fr["free"] = [i for i in fr["free"] if i != e.id]     # D10 in a group
        self.log.add("R72", f"{e.label} is pinned")

    def terrain_sees(self, a: Element, b: Element) -> bool:
        return a.on_table and b.on_table and terrain_los(self.terrain, a.body, b.body)

    def sees(self, a: Element, b: Element) -> bool:
        """R147/D33 with D76: civilians block a French element's view of an Insurgent."""
        if not self.terrain_sees(a, b):
            return False
        return not (a.side == "french" and b.side == "insurgents"
                    and self.opt("civilian_rules")
                    and civilians_in_lane(a.body, b.body, self.scn.civilians,
                                          self.tabs["civilians"]["footprint_radius_cm"]))

    def fights(self) -> list[set[int]]:
        """D53.3: sets of elements linked by enemy base contacts (memoised on where the
        ground elements stand: the same positions come back in clones and dry runs)."""
        hit = self._cache.get("fights")
        if hit is not None:
            return hit
        eps = self.tabs["table"]["contact_eps_cm"]
        ground = [e for e in self.elements if e.ground]
        key = (eps, tuple((e.id, e.side, e.x, e.y, e.facing, e.type) for e in ground))
        kept = _FIGHTS.get(key)
        if kept is None:
            kept = _FIGHTS.store(key, tuple(frozenset(c) for c in self._fights(ground, eps)))
        out = [set(c) for c in kept]
        self._cache["fights"] = out
        return out

    def _fights(self, ground: list[Element], eps: float) -> list[set[int]]:
        links: dict[int, set[int]] = {}
        for i, a in enumerate(ground):
            ra = math.hypot(a.t.base_w_cm, a.t.base_d_cm) / 2
            for b in ground[i + 1:]:
                if a.side == b.side:
                    continue
                rb = math.hypot(b.t.base_w_cm, b.t.base_d_cm) / 2
                if math.hypot(a.x - b.x, a.y - b.y) > ra + rb + eps:
                    continue
                if distance(a.body, b.body) <= eps:
                    links.setdefault(a.id, set()).add(b.id)
                    links.setdefault(b.id, set()).add(a.id)
        out: list[set[int]] = []
        seen: set[int] = set()
        for start in sorted(links):
            if start in seen:
                continue
            comp, stack = set(), [start]
            while stack:
                n = stack.pop()
                if n in comp:
                    continue
                comp.add(n)
                stack.extend(links[n] - comp)
            seen |= comp
            out.append(comp)
        return out

    def fight_of(self, eid: int) -> set[int] | None:
        for f in self.fights():
            if eid in f:
                return f
        return None

    def in_fight(self, eid: int) -> bool:
        return self.fight_of(eid) is not None

    # ------------------------------------------------------------ removal and damage
    def remove(self, e: Element, fate: str) -> None:
        """D40/D73: take an element out of play; French losses leave a casualty marker."""
        if e.removed:
            return
        e.removed = fate
        e.overwatch = False
        e.pinned = False
        if any(m.carried_by == e.id for m in self.markers):
            ms = []
            for m in self.markers:
                if m.carried_by == e.id and not m.evacuated:
                    m = m.copy()                           # D73.5: dropped where it was
                    m.carried_by = -1
                    m.x, m.y = self._ground_xy(e)
                ms.append(m)
            self.markers = ms
        if (fate in ("eliminated", "destroyed") and e.side == "french"
                and self.opt("casualty_rules")):
            x, y = self._ground_xy(e)
            m = Marker(len(self.markers), x, y)
            self.markers = self.markers + [m]
            self.log.add("R149", f"casualty marker {m.label} placed for {e.label}")
        self.log.add("D40", f"{e.label} is {fate}")
        if (fate in ("destroyed", "abandoned") and not e.t.is_infantry and not e.airborne
                and not e.off_table and e.embarked_in < 0 and self.opt("wrecks_as_terrain")):
            self._add_wreck(e)
        self.dirty()

    def _add_wreck(self, e: Element) -> None:
        """D52 option: the wreck stays as terrain (obscured, light cover, blocks vehicles)."""
        from shapely import wkt

        shape = wkt.loads(wkt.dumps(base_poly(e.body), rounding_precision=4))
        self.terrain = self.terrain.with_feature(Feature(f"wreck_{e.label}", "wreck", shape,
                                                         wreck_props()))
        self.wrecks = self.wrecks + [(f"wreck_{e.label}", shape.wkt)]

    def _ground_xy(self, e: Element) -> tuple[float, float]:
        if e.embarked_in >= 0:
            c = self.elements[e.embarked_in]
            return (c.x, c.y)
        return (e.x, e.y)

    def destroy_vehicle(self, v: Element, passengers_killed: bool) -> None:
        """R93-R95/R102/R103: destroyed; passengers hit or all killed."""
        if passengers_killed:
            for p in aircraft.passengers(self, v):
                self.remove(p, "eliminated")
        else:
            self.passengers_hit(v, place=True)
        self.remove(v, "destroyed")

    def passengers_hit(self, v: Element, place: bool = False) -> None:
        """D50: each passenger takes hits equal to its SP, saved for the ground's cover."""
        cover = 0
        for f in self.terrain.containing(v.x, v.y):
            cover = max(cover, ("open", "light", "heavy").index(f.props["cover"]))
        for p in aircraft.passengers(self, v):
            hits = p.sp
            need = fire.ap_save_needed(self, None, p, cover, False, False)
            unsaved = fire.roll_saves(self, p, hits, need, "R102")
            if unsaved:
                p.sp = max(0, p.sp - unsaved)
                self.log.add("R102", f"{p.label} loses {unsaved} SP ({p.sp} left)")
                if p.sp == 0:
                    self.remove(p, "eliminated")
                    continue
            if place:
                placed = aircraft.unload(self, v, [p], reaction=False)
                if not placed:
                    self.remove(p, "eliminated")
                    continue
            if unsaved:
                fire.pin_test(self, p, unsaved, "D50")

    def force_landing(self, v: Element) -> bool:
        return aircraft.force_landing(self, v)

    def abandon(self, v: Element) -> None:
        """D49: crew bails; passengers dismount at once, unhurt."""
        aircraft.unload(self, v, aircraft.passengers(self, v), reaction=False)
        for p in aircraft.passengers(self, v):
            self.remove(p, "eliminated")
        self.remove(v, "abandoned")

    def collateral(self, f: Element, t: Element, n: int) -> None:
        garnish.collateral(self, f, t, n)

    def evacuate_carried(self, carrier: Element, how: str) -> None:
        """D64/D69/D73.4: markers aboard a carrier leaving the table are evacuated."""
        if how not in self.scn.casevac_by and how != "zone":
            return
        ms = list(self.markers)
        changed = False
        for i, m in enumerate(ms):
            if m.carried_by == carrier.id and not m.evacuated:
                m = m.copy()
                m.evacuated = True
                ms[i] = m
                changed = True
                self.log.add("R150", f"casualty {m.label} evacuated")
        if changed:
            self.markers = ms

    # ------------------------------------------------------------ protocol
    @property
    def active_side(self) -> str | None:
        if self.over or not self.frames:
            return None
        if self.frames[-1]["k"] == "deploy":
            return self.frames[-1]["side"]
        who = DECIDERS[self.frames[-1]["k"]]
        return self.phasing if who == "phasing" else self.other(self.phasing)

    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result | None:
        return self._result

    def history(self) -> list[str]:
        return self.hist.to_list()

    def record_header(self) -> dict:
        out = {"game": self.name, "scenario": self.scenario_spec(), "seed": self.seed,
               "options": dict(self.user_options), "dice_script": list(self.dice_script)}
        if self.rolls:
            out["rolls"] = list(self.rolls)
        return out

    def scenario_spec(self) -> str | dict:
        """What a record names the scenario by: a shipped id, or the whole scenario."""
        return self.scenario_name if self.scenario_data is None else self.scenario_data

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        return list(self.menu().all())

    def menu(self) -> cand.Menu:
        """The legal actions, worked out only as far as they are asked for (bots that
        want a few kinds of order need not pay for the move lists)."""
        if self.over:
            return cand.Menu.of_list([])
        hit = self._cache.get("menu")
        if hit is None:
            hit = self._cache["menu"] = cand.menu(self)
        return hit

    def validate(self, action: Action | str) -> None:
        """Raise IllegalAction (naming the rule) unless ``action`` may be applied now."""
        trial = self.clone()
        trial.log = Log(enabled=False)
        trial.apply(action)

    def apply(self, action: Action | str) -> None:
        a = Action.parse(action) if isinstance(action, str) else action
        if self.over:
            raise IllegalAction("D79", "the game is over", a)
        a = _normalise(a)
        snap = self._snapshot()
        try:
            _dispatch(self, a)
            self.dirty()
            self.hist.append(str(a))
            flow.advance(self)
        except IllegalAction as exc:
            self._restore(snap)
            if exc.action is None:
                raise IllegalAction(exc.rule, exc.reason, a) from None
            raise
        except Exception:
            self._restore(snap)
            raise
        self.dirty()

    def prompt(self) -> str:
        return flow.prompt(self)

    # ------------------------------------------------------------ phases
    def _start_phase(self) -> None:
        flow.start_phase(self)

    def _advance(self) -> None:
        flow.advance(self)

    # ------------------------------------------------------------ copy and JSON
    _FIELDS = ("scenario_name", "scenario_data", "scn", "seed", "options", "user_options",
               "dice_script", "rolls", "tabs", "terrain", "breaches", "wrecks", "labels",
               "entry", "zones", "turn", "phase_no", "phasing", "searched", "last_fire", "over",
               "_result", "turn_limit")

    def clone(self) -> SkirmishGame:
        c = SkirmishGame.__new__(SkirmishGame)
        for name in self._FIELDS:
            setattr(c, name, getattr(self, name))
        c.dice = self.dice.copy()
        c.log = self.log.copy()
        c.hist = self.hist.copy()
        c.elements = [e.copy() for e in self.elements]
        c.markers = list(self.markers)
        c.civ_hits = list(self.civ_hits)
        c.frames = [dict(f) for f in self.frames]
        c._cache = {}
        return c

    def _snapshot(self) -> SkirmishGame:
        return self.clone()

    def _restore(self, snap: SkirmishGame) -> None:
        for name in self._FIELDS + ("dice", "log", "hist", "elements", "markers", "civ_hits",
                                    "frames"):
            setattr(self, name, getattr(snap, name))
        self._cache = {}

    def to_json(self) -> dict:
        return {
            "game": self.name, "scenario": self.scenario_spec(), "seed": self.seed,
            "options": dict(self.user_options), "dice_script": list(self.dice_script),
            "rolls": list(self.rolls), "dice": self.dice.to_json(), "turn": self.turn,
            "phase_no": self.phase_no,
            "phasing": self.phasing, "elements": [e.to_json() for e in self.elements],
            "markers": [m.to_json() for m in self.markers], "civ_hits": list(self.civ_hits),
            "frames": [dict(f) for f in self.frames], "searched": list(self.searched),
            "last_fire": list(self.last_fire) if self.last_fire else None,
            "breaches": [list(b) for b in self.breaches],
            "wrecks": [list(w) for w in self.wrecks], "over": self.over,
            "result": self._result.to_json() if self._result else None,
            "log": self.log.to_json(), "history": self.history(),
        }

    @classmethod
    def from_json(cls, data: dict) -> SkirmishGame:
        from djebel.skirmish.scenario import shipped_or_embedded
        g = cls(shipped_or_embedded(data["scenario"]), data["seed"], data.get("options") or {},
                tuple(data.get("dice_script", ())), tuple(data.get("rolls", ())))
        g.dice = Dice.from_json(data["dice"])
        g.turn, g.phase_no, g.phasing = data["turn"], data["phase_no"], data["phasing"]
        g.elements = [Element.from_json(d) for d in data["elements"]]
        g.markers = [Marker.from_json(d) for d in data["markers"]]
        g.civ_hits = list(data["civ_hits"])
        g.frames = [_json_frame(f) for f in data["frames"]]
        g.searched = tuple(data["searched"])
        g.last_fire = tuple(data["last_fire"]) if data.get("last_fire") else None
        g.breaches = []
        from shapely import wkt
        for fid, hole in data.get("breaches", []):
            g.terrain = g.terrain.with_breach(fid, wkt.loads(hole))
            g.breaches.append((fid, hole))
        g.wrecks = []
        for fid, shape in data.get("wrecks", []):
            g.terrain = g.terrain.with_feature(Feature(fid, "wreck", wkt.loads(shape),
                                                      wreck_props()))
            g.wrecks.append((fid, shape))
        g.over = data["over"]
        r = data.get("result")
        g._result = Result(r["winner"], r["level"], dict(r["scores"]), r["reason"]) if r else None
        g.log = Log.from_json(data.get("log", []), enabled=g.log.enabled)
        g.hist = Chain(data.get("history", []))
        g._cache = {}
        return g

    def state_hash(self) -> str:
        d = self.to_json()
        for key in ("log", "seed", "dice_script", "rolls"):     # where dice come from:
            d.pop(key)                                          # not the position
        d["dice"] = self.dice.hash_json()
        return state_hash(d)


def wreck_props() -> dict:
    """D52: the terrain values of a wreck."""
    props = dict(terrain_library()["open_ground"])
    props.update({
        "concealment": {"infantry": "obscured", "vehicle": "obscured"},
        "air_concealment": {"infantry": "obscured", "vehicle": "obscured"},
        "cover": "light", "helo_landing": False,
        "move": {"foot": "difficult", "wheeled": "impassable", "tracked": "impassable"},
    })
    return props


def _json_frame(f: dict) -> dict:
    out = {}
    for k, v in f.items():
        if isinstance(v, list):
            v = [tuple(x) if isinstance(x, list) else x for x in v]
        out[k] = v
    return out


def _normalise(a: Action) -> Action:
    """Round coordinates so the notation stored in the history replays exactly."""
    args = tuple(round(x, 2) if isinstance(x, float) else x for x in a.args)
    args = tuple(int(x) if isinstance(x, float) and x.is_integer() else x for x in args)
    return Action(a.verb, args)


def _dispatch(g: SkirmishGame, a: Action) -> None:
    """Hand ``a`` to the handler of the decision frame on top of the stack."""
    fr = g.frames[-1]
    if a.verb in ("pass", "wait", "endphase") and a.args:
        raise IllegalAction("R4", f"'{a.verb}' takes no arguments")
    handler = {"main": orders.do_main, "act": orders.do_act, "react": reaction_orders.do_react,
               "ow": reaction_orders.do_ow, "charge": reaction_orders.do_charge,
               "group": orders.do_group, "deploy": orders.do_deploy}[fr["k"]]
    handler(g, fr, a)
