"""The web app: lobby, boards, live updates and records over one HTTP API.

``create_app(db_url)`` builds it; ``djebel serve`` runs it with uvicorn, and
``app_from_env`` builds it in each worker process of ``djebel serve --workers N``
(or of ``uvicorn --factory djebel.web.app:app_from_env --workers N``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Header, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from djebel import __version__
from djebel.agents import agent_names
from djebel.core.errors import DjebelError
from djebel.core.records import make_record, public_header
from djebel.web import charts, heap, history, seat_api, security, views
from djebel.web.notices import NoticeConfig, Notifier
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
from djebel.web.seatdata import SeatData
from djebel.web.service import UPLOAD_SECONDS, ApiError, Service
from djebel.web.storage import Store, default_url

log = logging.getLogger("djebel.web")

GAME_ID = r"^[A-Za-z0-9_\-]{1,32}$"
GameId = Annotated[str, Path(pattern=GAME_ID)]
Token = Annotated[str | None, Header(alias="X-Seat-Token", max_length=200)]
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody}, 403: {"model": ErrorBody}, 404: {"model": ErrorBody},
    409: {"model": ErrorBody}, 413: {"model": ErrorBody}}
UPLOAD_ERRORS = {**ERRORS, 503: {"model": ErrorBody}}


def _static(name: str) -> str:
    return resources.files("djebel.web").joinpath("static", name).read_text()


def create_app(db_url: str | None = None, bot_delay: float = 0.0,
               upload_seconds: float = UPLOAD_SECONDS,
               notices: NoticeConfig | None = None) -> FastAPI:
    store = Store(db_url or default_url())
    service = Service(store, bot_delay=bot_delay, upload_seconds=upload_seconds)
    seat_data = SeatData(store)
    notifier = Notifier(notices or NoticeConfig(), seat_data)
    service.on_turn = notifier.turn_changed

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        heap.settle()
        await service.start()
        yield
        await service.shutdown()
        await notifier.close()
        store.close()

    app = FastAPI(title="djebel", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Play Algeria and Insurgent Commander online, with bots.")
    app.state.service = service
    app.state.store = store
    app.add_middleware(security.BodyLimit)
    app.add_middleware(security.SecurityHeaders)
    app.state.notifier = notifier

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError):
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError):
        return JSONResponse({"error": "invalid request: " + _problems(exc.errors())},
                            status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException):
        # Starlette's own answers (no such route, wrong method, unparsable body)
        detail = str(exc.detail)[:200]
        if detail == "There was an error parsing the body":
            detail = "request body: not JSON in UTF-8"
        return JSONResponse({"error": detail}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(Exception)
    async def server_error(_request: Request, _exc: Exception):
        # sent from outside the middleware stack: the headers are added here
        return JSONResponse({"error": "internal error"}, status_code=500,
                            headers=security.HEADERS)

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
    @app.get("/my", response_class=HTMLResponse, include_in_schema=False)
    async def my_games_page():
        return HTMLResponse(_static("index.html"))

    seat_api.add_routes(app, service, seat_data, notifier)

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

    @app.post("/api/records", response_model=Created, status_code=201,
              responses=UPLOAD_ERRORS, openapi_extra=UPLOAD_BODY)
    async def upload(request: Request):
        """Open a record (body: UploadRecord) to continue it or to watch it replayed; it is
        parsed, checked and replayed in a worker thread, within a time limit."""
        raw = await request.body()           # at most security.MAX_RECORD_BODY bytes
        out = await service.upload(lambda: _read_upload(raw))
        return _links(out)

    @app.websocket("/api/games/{gid}/ws")
    async def live(ws: WebSocket, gid: str):
        await ws.accept()
        try:
            if not re.fullmatch(GAME_ID, gid):
                raise ApiError(404, "no such game")
            ent = service.entry(gid)
        except ApiError:
            # accepted first, so that the page sees this code and stops reconnecting
            await ws.close(code=4404, reason="no such game")
            return
        service.hub.join(gid, ws)
        try:
            await ws.send_json({"type": "hello", "ply": ent.stored.ply,
                                "active": ent.game.active_side})
            while True:
                await ws.receive_text()        # pings from the page; nothing else is read
        except WebSocketDisconnect:
            pass
        except Exception:
            pass
        finally:
            service.hub.leave(gid, ws)

    _schema_components(app)
    return app


def app_from_env() -> FastAPI:
    """The app of one worker process: the database URL in ``DJEBEL_DB``, the seconds
    between two bot moves in ``DJEBEL_BOT_DELAY`` (default 0.4), the notices' settings in
    ``DJEBEL_NOTICES``."""
    text = os.environ.get("DJEBEL_BOT_DELAY", "0.4")
    try:
        delay = float(text)
    except ValueError:
        raise SystemExit(f"error: DJEBEL_BOT_DELAY={text!r} is not a number of seconds") \
            from None
    text = os.environ.get("DJEBEL_UPLOAD_SECONDS", "10")
    try:
        upload = float(text)
    except ValueError:
        raise SystemExit(f"error: DJEBEL_UPLOAD_SECONDS={text!r} is not a number of "
                         "seconds") from None
    notices = NoticeConfig.from_env(os.environ.get("DJEBEL_NOTICES", ""))
    return create_app(os.environ.get("DJEBEL_DB") or None, bot_delay=delay,
                      upload_seconds=upload, notices=notices)


UPLOAD_BODY = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/UploadRecord"}}}}}


def _schema_components(app: FastAPI) -> None:
    """Declare the upload's body in the OpenAPI schema (the route reads it itself)."""
    plain = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            schema = plain()
            models = UploadRecord.model_json_schema(ref_template="#/components/schemas/{model}")
            defs = models.pop("$defs", {})
            schema.setdefault("components", {}).setdefault("schemas", {}).update(
                defs, UploadRecord=models)
        return app.openapi_schema

    app.openapi = openapi


def _read_upload(raw: bytes) -> tuple[dict, str, dict, str]:
    """The upload's body parsed and checked (in the worker thread)."""
    data = parse_json(raw, "request body")
    try:
        body = UploadRecord.model_validate(data)
    except ValidationError as exc:
        raise ApiError(400, "uploaded record: " + _problems(exc.errors())) from None
    record = body.record.model_dump(exclude_unset=True)
    return record, body.mode, dict(body.seats), body.title


class _NotJson(ValueError):
    pass


def _constant(name: str):
    raise _NotJson(f"{name} is not a JSON number")


def parse_json(raw: bytes, where: str) -> Any:
    """Strict JSON: UTF-8, no NaN or Infinity; every failure a one-line 400."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"{where}: not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"{where}: not JSON (line {exc.lineno}, column {exc.colno}: "
                            f"{exc.msg})") from None
    except _NotJson as exc:
        raise ApiError(400, f"{where}: {exc}") from None
    except (ValueError, RecursionError):
        raise ApiError(400, f"{where}: a number too long or nesting too deep") from None


def _problems(errors: list[dict]) -> str:
    """Validation errors in one short line: where and what, never the input itself."""
    problems = []
    for e in errors[:5]:
        where = ".".join(str(x)[:40] for x in e.get("loc", ()))
        problems.append(f"field '{where}': {str(e.get('msg', 'invalid'))[:120]}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "; ".join(problems) + more


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
