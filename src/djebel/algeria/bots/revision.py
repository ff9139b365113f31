"""The Algeria bots of an earlier revision of this repository, named ``NAME@REV``.

A new bot is measured against the one it replaces (the strength ladder): ``djebel
tournament ladder --new planner --old search@ae24d79`` plays today's planner against
the search bot as it was at commit ae24d79. The bots package of that revision
(``src/djebel/algeria/bots``) is read with ``git show``, written to a cache folder as a
package of its own (its imports of ``djebel.algeria.bots`` renamed) and imported beside
today's, on today's engine. It needs a git checkout of djebel (a development install)
and a revision whose bots fit today's engine.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

from djebel.core.errors import ScenarioError

BOTS = "src/djebel/algeria/bots"
PACKAGE = "djebel.algeria.bots"
# A revision as git reads it (a commit id, a tag, a branch, HEAD~3), nothing a shell
# or git option could take for something else.
REV = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._/~^-]{0,99}$")
CLASSES = {"heuristic": ("heuristic", "HeuristicAgent"), "search": ("search", "SearchAgent"),
           "planner": ("planner", "PlannerAgent")}


def split(name: str) -> tuple[str, str | None]:
    """("search", "ae24d79") for ``search@ae24d79``; (name, None) without a revision."""
    base, at, rev = name.partition("@")
    return (base, rev) if at else (name, None)


def _repo() -> Path:
    return Path(__file__).resolve().parents[4]


def _git(*args: str) -> str:
    try:
        out = subprocess.run(["git", "-C", str(_repo()), *args], capture_output=True,
                             text=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ScenarioError(f"NAME@REV needs git and a git checkout of djebel ({exc})") from None
    if out.returncode:
        raise ScenarioError(f"git {' '.join(args[:2])}: {out.stderr.strip() or 'failed'}")
    return out.stdout


@cache
def resolve(rev: str) -> str:
    """The commit id of ``rev``; ScenarioError saying why when there is none."""
    if not REV.match(rev):
        raise ScenarioError(f"bad revision {rev!r}: expected a commit id, tag or branch")
    if not (_repo() / ".git").exists():
        raise ScenarioError(f"{rev!r}: NAME@REV needs a git checkout of djebel "
                            f"(none at {_repo()})")
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").strip()
    except ScenarioError:
        raise ScenarioError(f"no revision {rev!r} in this repository") from None


@cache
def load(rev: str) -> ModuleType:
    """The bots package of revision ``rev``, imported as ``djebel_bots_<commit>``."""
    sha = resolve(rev)
    name = f"djebel_bots_{sha[:12]}"
    root = Path(tempfile.gettempdir()) / "djebel-bots" / sha
    folder = root / name
    if not (folder / "__init__.py").exists():
        folder.mkdir(parents=True, exist_ok=True)
        for path in _git("ls-tree", "--name-only", sha, f"{BOTS}/").split():
            text = _git("show", f"{sha}:{path}")
            if path.endswith(".py"):
                text = text.replace(PACKAGE, name)
            target = folder / Path(path).name
            partial = target.with_suffix(target.suffix + f".{os.getpid()}")
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, target)      # whole files only, when processes race
    if str(root) not in sys.path:
        sys.path.append(str(root))
    return importlib.import_module(name)


def make(name: str, side: str, seed: int = 0, **options):
    """The agent ``NAME@REV`` for ``side``: a bot (heuristic, search, planner) or a
    gauntlet strategy of that revision."""
    base, rev = split(name)
    if rev is None:
        raise ScenarioError(f"{name!r} names no revision (NAME@REV)")
    bots = load(rev)
    if base in CLASSES:
        module, cls = CLASSES[base]
        return getattr(importlib.import_module(f"{bots.__name__}.{module}"), cls)(
            side, seed, **options)
    gauntlet = importlib.import_module(f"{bots.__name__}.gauntlet").GAUNTLET.get(side, {})
    if base in gauntlet:
        return gauntlet[base](side, seed)
    known = ", ".join([*CLASSES, *gauntlet])
    raise ScenarioError(f"unknown agent {base!r} at revision {rev} (known: {known})")
