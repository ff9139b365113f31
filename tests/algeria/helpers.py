"""Building blocks for rule tests: a game with an empty board, units put where a test
wants them, scripted dice, and a jump straight to the decision under test.

Test files import this module with ``sys.path.insert(0, str(Path(__file__).parent))``
followed by ``import helpers`` (pytest runs with ``--import-mode=importlib``).
"""

from __future__ import annotations

from djebel import algeria
from djebel.algeria import flow
from djebel.algeria.board import (
    ACTIVE,
    AIRMOBILE,
    AREA_INDEX,
    BOX_NAMES,
    DISPERSED,
    NEUT,
    NUM_AREAS,
    POOL,
    UG,
    UNIT_INDEX,
)
from djebel.algeria.rules import setup
from djebel.algeria.state import CONTESTED, FLN_CONTROL, GOV_CONTROL, OAS_INACTIVE
from djebel.core.dice import Dice
from djebel.core.log import Log

CONTROL = {"fln": FLN_CONTROL, "gov": GOV_CONTROL, "contested": CONTESTED}


def A(name: str) -> int:
    """The index of an area ("II-1", "ALGIERS", "TUNISIA")."""
    return AREA_INDEX[name.upper()]


def U(name: str) -> int:
    """The index of a unit ("band3", "fr_xx1")."""
    return UNIT_INDEX[name]


def new(scenario: str = "1958", seed: int = 1, **options):
    """A game past the set-up, at the start of turn 1 (before the random event)."""
    g = algeria.new_game(scenario, seed=seed, options=options or None)
    g.apply("place auto")
    g.apply("place auto")
    return g


def empty(scenario: str = "1958", seed: int = 1, **options):
    """A game with no unit on the map, every area Contested and unmarked, no pending step.

    Tracks keep the scenario values (PSLs, Air/Helo/Naval, Border Zone, independence);
    AP are 0; no one-turn event is in force."""
    g = new(scenario, seed, **options)
    s = g.state
    for u in range(len(s.loc)):
        s.loc[u], s.box[u], s.flags[u] = POOL, UG, 0
    s.control = [CONTESTED] * NUM_AREAS
    s.terror = [False] * NUM_AREAS
    s.resettled = [False] * NUM_AREAS
    s.done = [0] * NUM_AREAS
    s.stack = []
    s.combat = {}
    s.ap = 0
    spec = setup.scenario_spec(scenario)
    s.fln_psl, s.gov_psl = spec["fln_psl"], spec["gov_psl"]
    s.independent = bool(spec["independent"])
    s.amnesty = s.jealousy = s.suez_used = False
    s.oas = OAS_INACTIVE
    s.turn = max(s.turn, 1)
    s.phase = "operations"
    s.log = Log()
    return g


def put(g, unit: str, area: str, box: str = "OPS", *, neut: bool = False,
        active: bool = True, airmobile: bool = False, dispersed: bool = False) -> int:
    """Put a unit in a box of an area. Government units are active unless told not."""
    s = g.state
    u = U(unit)
    s.loc[u] = A(area)
    s.box[u] = BOX_NAMES.index(box)
    f = 0
    if neut:
        f |= NEUT
    if active and unit.startswith(("fr_", "el_", "al_")):
        f |= ACTIVE
    if airmobile:
        f |= AIRMOBILE
    if dispersed:
        f |= DISPERSED
    s.flags[u] = f
    return u


def script(g, *rolls: int) -> None:
    """The next rolls, in order; ``used_all(g)`` checks they were all rolled."""
    g.state.dice = Dice(12345, tuple(rolls))


def used_all(g) -> bool:
    d = g.state.dice
    return d.script_left == 0


def rolls_made(g) -> int:
    return g.state.dice.count


def at(g, *frames: tuple) -> None:
    """Replace the pending steps (first frame runs first) and advance to a decision."""
    g.state.stack = []
    flow.push(g.state, *frames)
    flow.advance(g.state)


def ops(g, side: str = "fln") -> None:
    """Jump to the Operations Phase choice of ``side`` (the rest of the turn skipped)."""
    at(g, ("ops_fln", "fln") if side == "fln" else ("ops_gov", "gov"))


def where(g, unit: str) -> tuple[str, str]:
    """(area id, box name) of a unit, or ("off", location code) off the map."""
    from djebel.algeria.board import AREA_IDS
    s = g.state
    u = U(unit)
    if s.loc[u] < 0:
        return "off", str(s.loc[u])
    return AREA_IDS[s.loc[u]], BOX_NAMES[s.box[u]]


def neut(g, unit: str) -> bool:
    return bool(g.state.flags[U(unit)] & NEUT)


def flag(g, unit: str, bit: int) -> bool:
    return bool(g.state.flags[U(unit)] & bit)


def legal(g) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def log_text(g) -> str:
    return "\n".join(str(e) for e in g.log)


def decision(g) -> str:
    return g.decision()


def psl(g) -> tuple[int, int]:
    """(FLN PSL, GOV PSL)."""
    return g.state.fln_psl, g.state.gov_psl


def set_psl(g, fln: int, gov: int) -> None:
    g.state.fln_psl, g.state.gov_psl = fln, gov


def control(g, area: str, who: str) -> None:
    g.state.control[A(area)] = CONTROL[who]
