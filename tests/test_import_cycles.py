"""No import cycles among djebel's modules (house standard: "no import cycles").

Every import is counted, at module level or inside a function, except those under
``if TYPE_CHECKING:`` (never run). ``from P import name`` counts as an import of the
module ``P.name`` when that module exists, otherwise of ``P``.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "djebel").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from (n for s in node.orelse for n in _imports_of(s))
            continue
        yield from _imports_of(node)


def _imports_of(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
        return
    if isinstance(node, ast.If) and _is_type_checking(node):
        return
    yield from _imports(node)


def import_graph() -> dict[str, set[str]]:
    """Module name -> the djebel modules it imports."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        graph[name] = set()
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            for t in targets:
                if t in mods and t != name:
                    graph[name].add(t)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (empty if there is none)."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return []


def _within(prefix: str) -> dict[str, set[str]]:
    inside = {n for n in import_graph() if n == prefix or n.startswith(prefix + ".")}
    return {n: deps & inside for n, deps in import_graph().items() if n in inside}


def test_the_checker_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) in (
        ["a", "c", "b", "a"], ["a", "b", "c", "a"], ["b", "a", "c", "b"],
        ["c", "b", "a", "c"], ["b", "c", "a", "b"], ["c", "a", "b", "c"])
    assert find_cycle({"a": {"b"}, "b": set()}) == []
    assert "djebel.skirmish.flow" in import_graph()["djebel.skirmish.game"]


@pytest.mark.parametrize("package", ["djebel", "djebel.skirmish", "djebel.algeria",
                                     "djebel.core"])
def test_no_import_cycle(package):
    assert find_cycle(_within(package)) == []
