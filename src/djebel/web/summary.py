"""A seat's game in a few words: whose turn it is and what was played last. The "my
games" page lists them, and a notice of a turn change says the same."""

from __future__ import annotations


def seat_summary(ent, side: str) -> dict:
    """The game of ``ent`` (a service Entry) as the seat ``side`` sees it in a list."""
    st = ent.stored
    game = ent.game
    over = game.is_over()
    result = game.result()
    tail = game.log.tail(1)
    active = None if over else game.active_side
    return {
        "id": st.id,
        "game": st.game,
        "title": st.title,
        "mode": st.mode,
        "side": side,
        "active": active,
        "your_turn": active == side,
        "over": over,
        "result": result.to_json() if result else None,
        "ply": st.ply,
        "last_action": st.actions[-1] if st.actions else None,
        "last_event": tail[-1].text if tail else "",
        "updated": st.updated,
        "seats": {s: {"kind": seat.kind, "bot": seat.bot} for s, seat in st.seats.items()},
    }
