"""Action notation: what is read is bounded, and what is stored is canonical."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from djebel.core.actions import MAX_NUMBER, MAX_TEXT, Action
from djebel.core.errors import IllegalAction


@pytest.mark.parametrize("text", ["face 1e300", "face 1" + "0" * 300, "move I1 nan 3",
                                  "move I1 -inf 3", "psp 10001", "face 1" + "0" * 5000])
def test_numbers_out_of_range_are_refused_with_a_short_message(text):
    with pytest.raises(IllegalAction) as exc:
        Action.parse(text)
    assert exc.value.rule == "notation" and len(str(exc.value)) < 150


def test_long_text_is_refused():
    with pytest.raises(IllegalAction, match=f"at most {MAX_TEXT} characters"):
        Action.parse("end " + "x" * MAX_TEXT)


@pytest.mark.parametrize("text,stored", [("psp 1_0", "psp 10"), ("face 3.6e2", "face 360"),
                                         ("move I1 -0 12.50", "move I1 0 12.5")])
def test_numbers_are_stored_canonically(text, stored):
    assert str(Action.parse(text)) == stored


@given(st.floats(-MAX_NUMBER, MAX_NUMBER).map(lambda x: round(x, 2)))
def test_a_stored_number_reads_back_as_itself(x):
    """Numbers in range, rounded as the skirmish rounds positions, survive str and parse."""
    a = Action("move", ("I1", x))
    assert Action.parse(str(a)).args[1] == x
