"""The bounded memo the skirmish geometry, movement and web views share."""

from djebel.core.memo import Memo


def test_memo_keeps_values_and_empties_itself_past_its_limit():
    memo: Memo[int, str] = Memo(2)
    assert memo.store(1, "a") == "a" and memo.store(2, "b") == "b"
    memo.store(3, "c")                  # 2 entries: not over the limit yet
    assert dict(memo) == {1: "a", 2: "b", 3: "c"}
    assert memo.store(4, "d") == "d"    # 3 entries > 2: cleared first
    assert dict(memo) == {4: "d"}
