"""The web app: lobby, boards, live updates and records over one HTTP API.

``create_app(db_url)`` builds it; ``djebel serve`` runs it with uvicorn.
"""

from __future__ import annotations

import contextlib
import json
import logging
from importlib import resources
from typing import Annotated

from fastapi import FastAPI, Header, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from djebel import __version__
from djebel.agents import agent_names
from djebel.core.errors import DjebelError
from djebel.core.records import make_record, public_header
from djebel.web import charts, heap, history, views
from djebel.web.schemas import (
    Created,
    CreateGame,
    ErrorBody,
    GameSummary,
    Odds,
    PlayAction,
    Scenarios,
    SeatOnly,
    UndoAction,
    UploadRecord,
)
from djebel.web.service import ApiError, Service
from djebel.web.storage import Store, default_url

log = logging.getLogger("djebel.web")

GameId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_\-]{1,32}$")]
Token = Annotated[str | None, Header(alias="X-Seat-Token", max_length=200)]
ERRORS = {400: {"model": ErrorBody}, 403: {"model": ErrorBody}, 404: {"model": ErrorBody},
          409: {"model": ErrorBody}}


def _static(name: str) -> str:
    return resources.files("djebel.web").joinpath("static", name).read_text()


def create_app(db_url: str | None = None, bot_delay: float = 0.0) -> FastAPI:
    store = Store(db_url or default_url())
    service = Service(store, bot_delay=bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        heap.settle()
        yield
        await service.shutdown()
        store.close()

    app = FastAPI(title="djebel", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Play Algeria and Insurgent Commander online, with bots.")
    app.state.service = service
    app.state.store = store

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError):
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError):
        problems = []
        for e in exc.errors()[:5]:
            where = ".".join(str(x) for x in e.get("loc", ()))
            problems.append(f"{where}: {e.get('msg', 'invalid')}")
        return JSONResponse({"error": "invalid request: " + "; ".join(problems)},
                            status_code=422)

    static_dir = resources.files("djebel.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static_dir)), name="static")

    # ------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page():
        return HTMLResponse(_static("index.html"))

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon():
        icon = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
                '<rect width="16" height="16" rx="3" fill="#3b3024"/>'
                '<path d="M2 13 L6 5 L9 10 L11 7 L14 13 Z" fill="#f6d38b"/></svg>')
        return Response(icon, media_type="image/svg+xml")

    @app.get("/g/{gid}", response_class=HTMLResponse, include_in_schema=False)
    async def game_page(gid: GameId):
        return HTMLResponse(_static("index.html"))

    @app.get("/charts", response_class=HTMLResponse, include_in_schema=False)
    async def charts_index():
        return HTMLResponse(charts.index_html())

    @app.get("/charts/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def chart_page(name: Annotated[str, Path(pattern=r"^[a-z0-9\-]{1,20}$")]):
        """One chart from the package's own TOML, or the rules notes."""
        if name == charts.NOTES:
            return HTMLResponse(charts.page("Rules notes", charts.notes_html(), heading=False))
        chart = charts.CHARTS.get(name)
        if chart is None:
            raise ApiError(404, f"no chart {name!r} (charts: {', '.join(charts.CHARTS)}, "
                                f"{charts.NOTES})")
        return HTMLResponse(charts.page(chart.title, charts.chart_html(chart)))

    # ------------------------------------------------------------ API
    @app.get("/api/meta", response_model=Scenarios)
    async def meta():
        from djebel.algeria.game import OPTIONS
        from djebel.skirmish import list_scenarios
        return {"algeria": ["1954", "1958", "1960"], "skirmish": list_scenarios(),
                "algeria_options": list(OPTIONS),
                "bots": {g: agent_names(g) for g in ("algeria", "skirmish")}}

    @app.get("/api/maps/algeria")
    async def algeria_map() -> dict:
        from djebel.web.algeria_map import geometry
        return JSONResponse(geometry(), headers={"Cache-Control": "max-age=3600"})

    @app.get("/api/games", response_model=list[GameSummary])
    async def list_games(limit: Annotated[int, Query(ge=1, le=200)] = 50):
        return store.listing(limit)

    @app.post("/api/games", response_model=Created, status_code=201, responses=ERRORS)
    async def create_game(body: CreateGame):
        out = service.create(body.game, body.scenario, body.seed, body.options,
                             dict(body.seats), body.title, body.analysis)
        return _links(out)

    @app.get("/api/games/{gid}", responses=ERRORS)
    async def get_game(gid: GameId, x_seat_token: Token = None,
                       at: Annotated[int | None, Query(ge=0, le=10**7)] = None) -> dict:
        ent = service.entry(gid)
        side = service.seat_of(ent, x_seat_token)
        service.kick_bots(gid)
        async with service.lock(gid):
            ent = service.entry(gid)
            ply = ent.stored.ply
            live = at is None or at >= ply
            game = ent.game if live else service.at(ent, at)
            acts = service.actions(ent) if views.shows_actions(game, side, live) else None
            body = _render(game, side, _seats(ent), ply if live else at, live,
                           _extra(service, ent, side), acts)
        return Response(body, media_type="application/json")

    @app.post("/api/games/{gid}/actions", responses=ERRORS)
    async def play(gid: GameId, body: PlayAction, x_seat_token: Token = None) -> dict:
        await service.act(gid, body.side, x_seat_token, body.action, body.ply)
        return await _live_view(gid, body.side)

    @app.post("/api/games/{gid}/undo", responses=ERRORS)
    async def undo(gid: GameId, body: UndoAction, x_seat_token: Token = None) -> dict:
        """Take back the seat's own last action: never past the last die roll or the
        other side's last action (409 and the reason), except in an analysis game."""
        await service.undo(gid, body.side, x_seat_token, body.ply)
        return await _live_view(gid, body.side)

    @app.post("/api/games/{gid}/resign", responses=ERRORS)
    async def resign(gid: GameId, body: SeatOnly, x_seat_token: Token = None) -> dict:
        """The seat gives the game up: the other side wins, and the log says so."""
        await service.resign(gid, body.side, x_seat_token)
        return await _live_view(gid, body.side)

    @app.post("/api/games/{gid}/rematch", responses=ERRORS)
    async def rematch(gid: GameId, body: SeatOnly, x_seat_token: Token = None) -> dict:
        """Once the game is over: a new game of the same scenario and options, each
        player (the same seat link's token) or bot on the other side, new secret dice.
        The other player finds it in this game's view (``rematch``)."""
        out = service.rematch(gid, body.side, x_seat_token)
        new = service.entry(out["id"])
        mine = service.seat_of(new, x_seat_token)
        links = {mine: f"/g/{out['id']}#seat={x_seat_token}"} if mine else {}
        return {"id": out["id"], "links": links, "watch": f"/g/{out['id']}"}

    async def _live_view(gid: str, side: str) -> Response:
        async with service.lock(gid):
            ent = service.entry(gid)
            acts = (service.actions(ent)
                    if views.shows_actions(ent.game, side, True) else None)
            out = _render(ent.game, side, _seats(ent), ent.stored.ply, True,
                          _extra(service, ent, side), acts)
        return Response(out, media_type="application/json")

    @app.get("/api/games/{gid}/log", responses=ERRORS)
    async def whole_log(gid: GameId,
                        offset: Annotated[int | None, Query(ge=0, le=10**8)] = None,
                        limit: Annotated[int, Query(ge=1, le=history.PAGE_MAX)] = 200) -> dict:
        """The game's whole log, paged (``offset`` and ``limit``; without an offset, the
        last page), each entry with its action (``ply``), turn, phase and acting side, and
        the action each turn starts at (for viewing the board as it was then)."""
        async with service.lock(gid):
            ent = service.entry(gid)
            m = history.marks(gid, ent.stored.header, ent.stored.actions)
            return history.page(ent.game, m, offset, limit)

    @app.get("/api/games/{gid}/odds", response_model=Odds, responses=ERRORS)
    async def odds(gid: GameId, action: Annotated[str, Query(min_length=1, max_length=200)]):
        ent = service.entry(gid)
        try:
            line = views.odds(ent.game, action)
        except DjebelError as exc:
            raise ApiError(400, str(exc)) from None
        except Exception:
            log.exception("odds of %r", action)
            line = None
        return {"action": action, "odds": line}

    @app.get("/api/games/{gid}/sight", responses=ERRORS)
    async def sight(gid: GameId,
                    element: Annotated[str, Query(pattern=r"^[A-Za-z0-9_\-]{1,16}$")],
                    at: Annotated[int | None, Query(ge=0, le=10**7)] = None) -> dict:
        """What a skirmish element can see: the enemy elements in its line of sight."""
        ent = service.entry(gid)
        if ent.stored.game != "skirmish":
            raise ApiError(400, "line of sight is for the skirmish table")
        game = ent.game if at is None else service.at(ent, at)
        try:
            return {"element": element, "sees": views.sight(game, element)}
        except DjebelError as exc:
            raise ApiError(400, str(exc)) from None

    @app.get("/api/games/{gid}/ruler", responses=ERRORS)
    async def ruler(gid: GameId,
                    x0: Annotated[float | None, Query(ge=-1e4, le=1e4)] = None,
                    y0: Annotated[float | None, Query(ge=-1e4, le=1e4)] = None,
                    x1: Annotated[float | None, Query(ge=-1e4, le=1e4)] = None,
                    y1: Annotated[float | None, Query(ge=-1e4, le=1e4)] = None,
                    a: Annotated[str | None, Query(pattern=r"^[A-Za-z0-9_\-]{1,16}$")] = None,
                    b: Annotated[str | None, Query(pattern=r"^[A-Za-z0-9_\-]{1,16}$")] = None,
                    at: Annotated[int | None, Query(ge=0, le=10**7)] = None) -> dict:
        """A ruler on the skirmish table between two points (x0, y0, x1, y1) or two
        elements (a, b): the distance, what blocks the line of sight, whether a sees b."""
        pts = (x0, y0, x1, y1)
        if (a is None) != (b is None) or (a is None and None in pts):
            raise ApiError(400, "the ruler needs two points (x0, y0, x1, y1) or two "
                           "elements (a, b)")
        ent = service.entry(gid)
        if ent.stored.game != "skirmish":
            raise ApiError(400, "the ruler is for the skirmish table")
        async with service.lock(gid):
            game = ent.game if at is None else service.at(ent, at)
            try:
                if a is not None and b is not None:
                    return views.ruler_between(game, a, b)
                return views.ruler(game, *pts)
            except DjebelError as exc:
                raise ApiError(400, str(exc)) from None

    @app.get("/api/games/{gid}/record", responses=ERRORS)
    async def record(gid: GameId):
        ent = service.entry(gid)
        # while the game runs: the faces rolled so far, never the seed (the future)
        rec = make_record(ent.game, header=ent.stored.header)
        if ent.stored.header.get("resigned"):
            rec["final_hash"] = ent.stored.state_hash    # the rules' state, before it
        body = json.dumps(rec, indent=1) + "\n"
        name = f"djebel-{ent.stored.game}-{gid}.json"
        return Response(body, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.post("/api/records", response_model=Created, status_code=201, responses=ERRORS)
    async def upload(body: UploadRecord):
        out = service.upload(body.record, body.mode, dict(body.seats), body.title)
        return _links(out)

    @app.websocket("/api/games/{gid}/ws")
    async def live(ws: WebSocket, gid: str):
        try:
            ent = service.entry(gid)
        except ApiError:
            await ws.close(code=4404)
            return
        await ws.accept()
        service.hub.join(gid, ws)
        try:
            await ws.send_json({"type": "hello", "ply": ent.stored.ply,
                                "active": ent.game.active_side})
            service.kick_bots(gid)
            while True:
                await ws.receive_text()        # pings from the page; nothing else is read
        except WebSocketDisconnect:
            pass
        except Exception:
            pass
        finally:
            service.hub.leave(gid, ws)

    return app


def _render(game, side, seats, ply, live, extra, actions=None) -> bytes:
    out = views.view(game, side, seats, ply, live=live, actions=actions)
    out.update(extra)
    return json.dumps(out, separators=(",", ":")).encode()


def _extra(service: Service, ent, side: str | None) -> dict:
    """What a view adds to the board: the game's id and title, its header without what
    tells the dice to come, and for a seat whether it may undo now."""
    st = ent.stored
    out = dict(id=st.id, title=st.title, mode=st.mode, total=st.ply,
               header=public_header(st.header, ent.game.is_over()),
               analysis=bool(st.header.get("analysis")),
               resigned=(st.header.get("resigned") or {}).get("side"),
               rematch=st.header.get("rematch"), rematch_of=st.header.get("rematch_of"))
    if side is not None:
        why = service.undo_refusal(ent, side)
        out["undo"] = {"allowed": why is None, "reason": why or ""}
    return out


def _links(out: dict) -> dict:
    gid = out["id"]
    out["links"] = {side: f"/g/{gid}#seat={tok}" for side, tok in out["seats"].items()}
    out["watch"] = f"/g/{gid}"
    return out


def _seats(ent) -> dict:
    return {side: {"kind": s.kind, "bot": s.bot} for side, s in ent.stored.seats.items()}
