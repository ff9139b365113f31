"""Strategies of our own: one-idea Algeria opponents outside the gauntlet, against a bot.

The gauntlet (``djebel tournament gauntlet``) holds the simple strategies every offered
bot must beat. These are more of the same kind, written to look for holes the gauntlet
does not show (docs/gauntlet.md, *Strategies of our own*):

* ``X+shares`` (FLN): the gauntlet's strategy ``X`` with the heuristic's own share rule
  (9-4) and its fear of a hunting group, instead of the simple ones it keeps as a
  yardstick;
* ``X+setup`` (FLN): the gauntlet's ``X`` with the heuristic's set-up (3-4), Cadres
  where they can propagandize;
* ``abroad`` (FLN): every AP on Bands and Faileks in Morocco and Tunisia, whose
  firepower pays 10% a turn (10.4-5); nothing surfaced, every mission passed;
* ``france`` (FLN): Cadres built in Algeria and kept underground, one sent to France
  (11.22), the only mission its Propaganda there, where nobody can React;
* ``strike`` (FLN): every AP but a Strike's on Cadres in the Urban areas and on a Front
  there; every Cadre and Front in an Urban area surfaces; the only mission is the
  Strike (9.12), every Cadre of its area helping;
* ``civil-affairs+patrol`` (Government): the gauntlet's ``civil-affairs`` with every
  unit that can deploy on Patrol in its own area (9.21).

Game *i* of a cell is seeded as the gauntlet seeds its cells, from the seed, the
scenario, the bot, its side and the strategy::

    python examples/own_strategies.py --bot heuristic --scenario 1958 --games 200
    python examples/own_strategies.py --bot planner --against france --games 50 --workers 2
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor

from djebel.agents import make_agent
from djebel.algeria import SCENARIOS, new_game
from djebel.algeria.board import CADRE, COUNTRIES, FRANCE, FRONT, UNIT_INDEX, UTYPE
from djebel.algeria.bots import gauntlet as g
from djebel.algeria.bots.heuristic import HeuristicAgent
from djebel.algeria.bots.heuristic_base import _a
from djebel.algeria.bots.view import view_of
from djebel.simulate.report import wilson
from djebel.simulate.runner import derive_seed


def with_shares(cls: type) -> type:
    """``cls`` sharing out its PSP by the heuristic's rule and wary of a hunting group."""
    class Shares(cls):
        def __init__(self, side: str, seed: int = 0):
            HeuristicAgent.__init__(self, side, seed, hunt=0, wary=True)

        _share = HeuristicAgent._share
    Shares.__name__ = cls.__name__ + "Shares"
    return Shares


def with_setup(cls: type) -> type:
    """``cls`` placing its counters at the start by the heuristic's weights."""
    return type(cls.__name__ + "Setup", (cls,), {"SETUP": HeuristicAgent.SETUP})


class Abroad(g.GauntletAgent):
    """Every AP on Bands and Faileks in Morocco and Tunisia; nothing else."""

    OVERRIDE = {"fln_reinf": "arm_abroad", "fln_deploy": "nothing", "ops_fln": "nothing"}

    def arm_abroad(self, s, legal):
        for act in legal:
            if (act.verb == "convert" and act.args[1] == "failek"
                    and s.loc[UNIT_INDEX[act.args[0]]] in COUNTRIES):
                return act
        builds = [a for a in legal if a.verb == "build" and a.args[0] == "band"
                  and _a(a.args[1]) in COUNTRIES]
        if not builds:
            return None
        return min(builds, key=lambda a: s.loc.count(_a(a.args[1])))


class France(g.GauntletAgent):
    """Cadres built in Algeria and kept underground; one in France runs Propaganda."""

    OVERRIDE = {"fln_reinf": "build_cadre", "fln_deploy": "to_france",
                "ops_fln": "propaganda_in_france"}

    def build_cadre(self, s, legal):
        return next((a for a in legal if a.verb == "build" and a.args[0] == "cadre"
                     and _a(a.args[1]) not in COUNTRIES), None)

    def to_france(self, s, legal):
        return next((a for a in legal if a.verb == "france"), None)

    def propaganda_in_france(self, s, legal):
        return next((a for a in legal if a.verb == "propaganda"
                     and s.loc[UNIT_INDEX[a.args[0]]] == FRANCE), None)


class Strike(g.GauntletAgent):
    """Cadres and a Front in the Urban areas, and Strikes (9.12) there every turn."""

    OVERRIDE = {"fln_reinf": "build_in_cities", "fln_deploy": "surface_in_cities",
                "ops_fln": "strike"}

    def build_in_cities(self, s, legal):
        """A Front converted (3 AP, A.1) where a city has none, else a Cadre built in a
        city (3 AP), while the 3 AP of this turn's Strike (A.2) are kept."""
        if s.ap < 6:
            return None
        v = view_of(s)
        for act in legal:
            if act.verb == "convert" and act.args[1] == "front":
                a = s.loc[UNIT_INDEX[act.args[0]]]
                if v.urban[a] and v.fronts[a] is None:
                    return act
        return next((a for a in legal if a.verb == "build" and a.args[0] == "cadre"
                     and v.urban[_a(a.args[1])]), None)

    def surface_in_cities(self, s, legal):
        v = view_of(s)
        return next((a for a in legal if a.verb == "surface" and a.args[0] != "all"
                     and UTYPE[UNIT_INDEX[a.args[0]]] in (CADRE, FRONT)
                     and v.urban[s.loc[UNIT_INDEX[a.args[0]]]]), None)

    def strike(self, s, legal):
        return next((a for a in legal if a.verb == "strike"), None)


class CivilAffairsPatrol(g.CivilAffairsAgent):
    """The gauntlet's ``civil-affairs``, every unit that can deploy on Patrol."""

    OVERRIDE = {**g.CivilAffairsAgent.OVERRIDE, "gov_deploy": "deploy_all",
                "deploy_to": "patrol"}
    deploy_all = g.PatrolAgent.deploy_all
    patrol = g.PatrolAgent.patrol


FLN_BASES = {"propaganda": g.PropagandaAgent, "all-in": g.ReinforceAllAgent,
             "bands": g.BandsAgent, "hide-raid": g.HideRaidAgent}
STRATEGIES: dict[str, tuple[str, type]] = {
    **{f"{name}+shares": ("fln", with_shares(cls)) for name, cls in FLN_BASES.items()},
    "abroad": ("fln", Abroad),
    "france": ("fln", France),
    "strike": ("fln", Strike),
    "pass+setup": ("fln", with_setup(g.PassAgent)),
    **{f"{name}+setup": ("fln", with_setup(cls)) for name, cls in FLN_BASES.items()},
    "civil-affairs+patrol": ("gov", CivilAffairsPatrol),
}


def play(scenario: str, bot: str, strategy: str, seed: int, index: int) -> tuple[bool, int]:
    """Game ``index`` of the cell: (did the bot win, turns played)."""
    their_side, cls = STRATEGIES[strategy]
    side = "gov" if their_side == "fln" else "fln"
    cell = derive_seed(seed, 0, f"{scenario}:{bot}:{side}:{strategy}")
    game = new_game(scenario, derive_seed(cell, index), None, log=False)
    players = {side: make_agent(bot, "algeria", side, derive_seed(cell, index, side)),
               their_side: cls(their_side, derive_seed(cell, index, their_side))}
    while not game.is_over():
        game.apply(players[game.active_side].choose(game))
    return game.result().winner == side, game.state.turn


def _play(args: tuple) -> tuple[bool, int]:
    return play(*args)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bot", default="heuristic", help="heuristic, search or planner")
    p.add_argument("--scenario", action="append", choices=SCENARIOS,
                   help="scenario (repeatable; default all three)")
    p.add_argument("--against", action="append", choices=sorted(STRATEGIES),
                   help="strategy (repeatable; default all)")
    p.add_argument("--games", type=int, default=200, help="games per cell")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=1)
    return p


def main(argv: list[str] | None = None) -> list[dict]:
    args = parser().parse_args(argv)
    if args.bot not in ("heuristic", "search", "planner"):
        parser().error(f"--bot {args.bot!r}: expected heuristic, search or planner")
    if args.games < 1 or args.workers < 1:
        parser().error("--games and --workers must be 1 or more")
    rows = []
    print("| Scenario | Bot | Against | Games | Bot wins | Win rate | 95% CI (Wilson) "
          "| Mean length (turns) |\n|---|---|---|---:|---:|---:|---|---:|")
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    run = pool.map if pool else map
    try:
        for scenario in args.scenario or SCENARIOS:
            for strategy in args.against or STRATEGIES:
                jobs = [(scenario, args.bot, strategy, args.seed, i)
                        for i in range(args.games)]
                results = list(run(_play, jobs))
                wins = sum(w for w, _ in results)
                turns = sum(t for _, t in results) / args.games
                lo, hi = wilson(wins, args.games)
                rows.append({"scenario": scenario, "strategy": strategy, "wins": wins,
                             "games": args.games, "turns": turns})
                print(f"| {scenario} | {args.bot} | `{strategy}` | {args.games} | {wins} | "
                      f"{100 * wins / args.games:.1f}% | {100 * lo:.1f}% – {100 * hi:.1f}% "
                      f"| {turns:.1f} |", flush=True)
    finally:
        if pool:
            pool.shutdown()
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
