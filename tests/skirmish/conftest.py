"""Fixtures for the skirmish tests."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
SRC = Path(__file__).resolve().parents[2] / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

from skirmish_helpers import builder  # noqa: E402


@pytest.fixture
def build(tmp_path):
    """build(forces, terrain=..., dice=(...), **top) -> a new game on that scenario."""
    return builder(tmp_path)
