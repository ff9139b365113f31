"""Property-based API testing with schemathesis against the app's OpenAPI schema:
whatever a client sends, the server never answers 5xx."""

from __future__ import annotations

import httpx
import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402


@pytest.fixture(scope="module")
def api_schema(server):
    # a few real games, so that generated ids and actions sometimes hit something
    g = httpx.post(server.url + "/api/games", json={
        "game": "algeria", "scenario": "1958", "seed": 1,
        "seats": {"fln": "human", "gov": "human"}}).json()
    assert g["id"]
    return schemathesis.openapi.from_url(server.url + "/openapi.json")


def test_no_server_errors(api_schema):
    """Every operation of the schema, with generated requests. Driven by hypothesis
    directly rather than by schemathesis's pytest plugin, which follows pytest's private
    internals and breaks on new pytest releases."""
    from hypothesis import given

    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 5
    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
        def check(case):
            case.call_and_validate(checks=[not_a_server_error])

        check()


@pytest.fixture(scope="module")
def real_game(server):
    out = {}
    for game, scenario, sides in (("algeria", "1958", ("fln", "gov")),
                                  ("skirmish", "ambush", ("french", "insurgents"))):
        g = httpx.post(server.url + "/api/games", json={
            "game": game, "scenario": scenario, "seed": 2,
            "seats": {s: "human" for s in sides}}).json()
        out[game] = g
    return out


WORDS = ["place", "fr_xx", "I-1", "ALGIERS", "auto", "move", "shoot", "F1", "I3", "face",
         "activate", "endphase", "ready", "1e308", "-0", "nan", "inf", "999999999999", "0.5",
         "\u00e9", "band1", "to", "PTL", "psp", "air", "go"]


def test_random_action_text_never_breaks_the_server(server, real_game):
    from hypothesis import given
    from hypothesis import strategies as st

    words = st.lists(st.one_of(st.sampled_from(WORDS), st.text(min_size=1, max_size=8),
                               st.floats(allow_nan=True).map(str),
                               st.integers(-10**6, 10**6).map(str)), min_size=1, max_size=7)

    @given(game=st.sampled_from(["algeria", "skirmish"]), ws=words,
           ply_delta=st.integers(-2, 2), side_pick=st.integers(0, 1))
    @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
    def check(game, ws, ply_delta, side_pick):
        g = real_game[game]
        v = httpx.get(f"{server.url}/api/games/{g['id']}").json()
        sides = sorted(g["seats"])
        side = v["active"] if side_pick == 0 else sides[side_pick]
        r = httpx.post(f"{server.url}/api/games/{g['id']}/actions",
                       headers={"X-Seat-Token": g["seats"][side]},
                       json={"side": side, "action": " ".join(ws)[:200],
                             "ply": max(0, v["ply"] + ply_delta)})
        assert r.status_code < 500, r.text
        o = httpx.get(f"{server.url}/api/games/{g['id']}/odds",
                      params={"action": " ".join(ws)[:200] or "x"})
        assert o.status_code < 500, o.text

    check()
