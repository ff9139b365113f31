"""Test helpers: build small scenarios on the fly (used through the ``build`` fixture)."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

from djebel.skirmish import new_game  # noqa: E402

_count = itertools.count()


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(v)


def scenario_text(forces, terrain=(), civilians=(), victory=(), **top) -> str:
    head = {"id": "test", "name": "test", "turn_limit": 3, "first_side": "french"}
    head.update(top)
    lines = [f"{k} = {_toml_value(v)}" for k, v in head.items() if not isinstance(v, dict)]
    if civilians:
        lines.append(f"civilians = {_toml_value([list(c) for c in civilians])}")
    for k, v in head.items():
        if isinstance(v, dict):
            lines.append(f"[{k}]")
            lines += [f"{kk} = {_toml_value(vv)}" for kk, vv in v.items()]
    for t in terrain:
        lines.append("[[terrain]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in t.items()]
    for f in forces:
        lines.append("[[force]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in f.items()]
    for v in victory:
        lines.append("[[victory]]")
        lines += [f"{k} = {_toml_value(vv)}" for k, vv in v.items()]
    return "\n".join(lines) + "\n"


def builder(tmp_path):
    """build(forces, terrain=..., dice=(...), **top) -> a new game on that scenario."""

    def make(forces, terrain=(), civilians=(), victory=(), dice=(), options=None, seed=0,
             **top):
        path = tmp_path / f"scn{next(_count)}.toml"
        path.write_text(scenario_text(forces, terrain, civilians, victory, **top))
        return new_game(str(path), seed, options or {}, tuple(dice))

    return make


def F(type_: str, x: float, y: float, facing: float = 0.0, side: str = "french", **kw) -> dict:
    d = {"side": side, "type": type_, "at": [x, y], "facing": facing}
    d.update(kw)
    return d


def I(type_: str, x: float, y: float, facing: float = 180.0, **kw) -> dict:  # noqa: E743
    return F(type_, x, y, facing, side="insurgents", **kw)


def go(g, action: str) -> None:
    """Apply an action, then let the other side pass any reaction it is offered."""
    g.apply(action)
    while not g.is_over() and g.frames[-1]["k"] in ("react", "ow", "charge"):
        g.apply("wait" if g.frames[-1]["k"] == "ow" else "pass")
