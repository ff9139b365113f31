"""The server's heap and the cyclic garbage collector.

A full collection walks every tracked object and stops the event loop while it does,
so every request in flight waits for it. Most of a server's objects are made at start
(modules, the app, the rule tables) and live for good: once they are frozen, a full
collection walks only what the games made since.
"""

from __future__ import annotations

import gc

_settled = False


def settle() -> None:
    """Load what requests will use, collect once and freeze what is left (once a
    process: objects frozen are never collected, so doing it again would only leak)."""
    global _settled
    if _settled:
        return
    _settled = True
    from djebel.web import views
    from djebel.web.service import SIDES, new_game
    for name, scenario in (("algeria", "1958"), ("skirmish", "ambush")):
        game = new_game(name, scenario, 0, {}, True)       # imports and rule tables
        views.view(game, SIDES[name][0], {}, 0)
    gc.collect()
    gc.freeze()
