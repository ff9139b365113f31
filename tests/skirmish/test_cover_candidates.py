"""Move candidates towards cover: sheltered or hidden spots, all legal."""

from __future__ import annotations

from djebel.skirmish import new_game
from djebel.skirmish.bots.candidates import cover_candidates, exposure, move_candidates
from djebel.skirmish.geometry import terrain_los
from djebel.skirmish.rules import movement


def _foes(g, e):
    return sorted((o for o in g.elements if o.side != e.side and o.on_table),
                  key=lambda o: (o.x - e.x) ** 2 + (o.y - e.y) ** 2)[:4]


def test_cover_spots_are_legal_and_less_exposed():
    g = new_game("ambush", 1)
    e = g.el("F3")                                  # on the road, next to the orchard
    step = movement.move_cm(g, e)
    acts = cover_candidates(g, e, 1, "move", step)
    assert acts
    here, _ = exposure(g, e, e.x, e.y, _foes(g, e))
    rated = [exposure(g, e, float(a.args[1]), float(a.args[2]), _foes(g, e),
                      float(a.args[4]))[0] for a in acts]
    assert min(rated) < here
    for a in acts:
        assert a.verb == "move"
        movement.plan_ground(g, e, [(float(a.args[1]), float(a.args[2]))],
                             float(a.args[4]), 1)
    # the offered moves include them, and the game accepts them
    offered = move_candidates(g, e, 1, "move")
    assert set(acts) <= set(offered)


def test_infantry_finds_cover_or_a_hidden_spot():
    g = new_game("search", 2)
    e = g.el("F2")
    g.place(e, 45.0, 40.0, 0.0)                     # in the open, south-west of h1
    acts = cover_candidates(g, e, 2, "sprint", 2 * movement.move_cm(g, e))
    assert acts
    foes = _foes(g, e)
    good = False
    for a in acts:
        x, y = float(a.args[1]), float(a.args[2])
        movement.plan_ground(g, e, [(x, y)], float(a.args[4]), 2)
        kinds = {f.props["cover"] for f in g.terrain.containing(x, y)}
        tmp = e.copy()
        tmp.x, tmp.y = x, y
        hidden = not any(terrain_los(g.terrain, o.body, tmp.body) for o in foes)
        good |= bool(kinds - {"open"}) or hidden or exposure(g, e, x, y, foes)[0] == 0
    assert good


def test_offered_in_a_game_and_applied():
    g = new_game("search", 3)
    g.apply("activate F2")
    cover = {a for a in g.legal_actions() if a.verb in ("move", "sprint")}
    assert cover
    for a in sorted(cover, key=str)[:4]:
        h = g.clone()
        h.apply(a)
