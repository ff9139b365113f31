"""Agents: anything with ``choose(game) -> action``, selectable by name."""

from __future__ import annotations

import random
from typing import Protocol

from djebel.core.actions import Action
from djebel.core.errors import ScenarioError


class Agent(Protocol):
    def choose(self, game) -> Action: ...


class RandomAgent:
    """Uniformly random legal play, from its own seeded generator (never the game's dice)."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game) -> Action:
        return self.rng.choice(game.legal_actions())


def agent_names(game: str) -> list[str]:
    names = ["random"]
    if game == "algeria":
        names += ["heuristic", "search", "planner"]
    else:
        names += ["matrix", "heuristic", "search"]
    return names


def check_name(game: str, name: str, known: list[str]) -> None:
    """ScenarioError unless ``name`` is one of ``known``, or (Algeria) ``NAME@REV`` with
    NAME one of them and REV a revision of this repository."""
    base, _, rev = name.partition("@")
    if base in known and (not rev or game == "algeria"):
        if rev:
            from djebel.algeria.bots import revision
            revision.resolve(rev)
        return
    raise ScenarioError(f"{name!r}: expected one of {', '.join(known)}"
                        + (", or NAME@REV" if game == "algeria" else ""))


def gauntlet_names(game: str, side: str) -> list[str]:
    """The simple strategies of the gauntlet for ``side`` (Algeria only): bots to test
    the real ones against, not offered as opponents in the web lobby."""
    if game != "algeria":
        return []
    from djebel.algeria.bots.gauntlet import GAUNTLET
    return list(GAUNTLET.get(side, ()))


def parse_style(side: str, items: list[str]) -> dict:
    """Style settings of the Algeria heuristic agent from ``KEY=VALUE`` texts (for
    example ``air_guard=1``, ``fronts=off``), checked against the side's settings."""
    from djebel.algeria.bots.heuristic import STYLE_SETTINGS

    settings = STYLE_SETTINGS.get(side)
    if settings is None:
        raise ScenarioError(f"no style settings for side {side!r}")
    out: dict = {}
    for item in items:
        key, eq, text = item.partition("=")
        key, text = key.strip().replace("-", "_"), text.strip()
        kind = settings.get(key)
        if kind is None or not eq or not text:
            known = ", ".join(settings)
            raise ScenarioError(f"bad {side} style {item!r}: expected KEY=VALUE with KEY "
                                f"one of {known}")
        out[key] = _style_value(side, key, kind, text)
    return out


def _style_value(side: str, key: str, kind: type, text: str) -> object:
    if kind is bool:
        flags = {"on": True, "true": True, "yes": True, "1": True,
                 "off": False, "false": False, "no": False, "0": False}
        if text.lower() in flags:
            return flags[text.lower()]
        raise ScenarioError(f"bad {side} style {key}={text!r}: expected on or off")
    try:
        return kind(text)
    except ValueError:
        raise ScenarioError(f"bad {side} style {key}={text!r}: expected "
                            f"{'a whole number' if kind is int else 'a number'}") from None


def make_agent(name: str, game: str, side: str, seed: int = 0, **options) -> Agent:
    """The agent called ``name`` for ``side`` of ``game``.

    Keyword ``options`` go to agents that take them (the Algeria search agent:
    ``iterations``, ``seconds``, ``width``, ``tree``, ``rollouts``; the Algeria planner:
    ``rollouts``, ``horizon``, ``share_rollouts``, ``margin``, ``memory``, ``decay``; the
    skirmish searching commander: ``iterations``, ``width``, ``seconds``; the Algeria
    heuristic agent: its style settings, such as ``spend`` or ``fronts``); agents
    without options ignore them. ``NAME@REV`` is an Algeria bot as it was at git
    revision REV of this repository (``djebel.algeria.bots.revision``)."""
    if game == "algeria" and "@" in name:
        from djebel.algeria.bots import revision
        return revision.make(name, side, seed, **options)
    if name == "random":
        return RandomAgent(seed)
    if game == "algeria" and name == "heuristic":
        from djebel.algeria.bots import HeuristicAgent
        return HeuristicAgent(side, seed, **options)
    if game == "algeria" and name == "search":
        from djebel.algeria.bots import SearchAgent
        return SearchAgent(side, seed, **options)
    if game == "algeria" and name == "planner":
        from djebel.algeria.bots.planner import PlannerAgent
        return PlannerAgent(side, seed, **options)
    if game == "algeria" and name in gauntlet_names(game, side):
        from djebel.algeria.bots.gauntlet import GAUNTLET
        return GAUNTLET[side][name](side, seed)
    if game == "skirmish" and name == "matrix":
        from djebel.skirmish.bots import MatrixBot
        return MatrixBot(seed)
    if game == "skirmish" and name == "heuristic":
        if side == "french":
            from djebel.skirmish.bots import CommanderBot
            return CommanderBot(seed)
        from djebel.skirmish.bots import HeuristicBot
        return HeuristicBot(seed)
    if game == "skirmish" and name == "search":
        from djebel.skirmish.bots.search import SearchCommander
        keep = {k: v for k, v in options.items() if k in ("iterations", "width", "seconds")}
        return SearchCommander(side, seed, **keep)
    known = ", ".join(agent_names(game) + gauntlet_names(game, side))
    raise ScenarioError(f"unknown agent {name!r} for {game} (known: {known})")

