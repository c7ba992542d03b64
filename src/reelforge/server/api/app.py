"""The FastAPI application: routes over the services, errors as stable codes.

Handlers are plain functions (FastAPI runs them in its thread pool): a short burst of numba
and a database transaction, with nothing to await in between. The bet is the exception: it
awaits the process's round writer (services/round_batch.py), which authenticates, plays and
commits bets in batches, so the busiest request needs no thread of its own.
"""

from __future__ import annotations

import json
import logging
import os
import reprlib
import uuid
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
from fastapi import FastAPI, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from reelforge.evidence import manifest
from reelforge.server.api.limits import Admission, SessionLimiter, max_in_flight
from reelforge.server.api.schemas import BetRequest, LaunchRequest, StepRequest
from reelforge.server.api.views import (
    GamesView,
    GameView,
    HistoryView,
    MetersView,
    OpenedSession,
    RoundView,
    SessionView,
    VerifyView,
    VersionView,
    documented,
)
from reelforge.server.context import Context
from reelforge.server.errors import CODES, ApiError
from reelforge.server.services import jackpot, rounds, sessions, steps
from reelforge.server.services.catalog import games_of, served_game
from reelforge.server.services.common import json_bytes
from reelforge.server.services.round_batch import AGAIN, Alone, writer
from reelforge.server.services.round_rows import open_rounds
from reelforge.server.services.round_views import round_view

log = logging.getLogger("reelforge.server")
API = "/api/v1"
MAX_BODY_BYTES = 64 * 1024
# A refused list or object is shown, but only its first items and levels.
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict = 2, 4, 4
# At module level: with postponed annotations FastAPI resolves them in the module's globals.
Auth = Annotated[str | None, Header(alias="Authorization")]


class JSON(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return json_bytes(content)


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"key {key!r} appears twice in one object")
        found[key] = value
    return found


class _StrictJSONRequest(Request):
    """A JSON body with a key given twice is refused, not read last-wins: a proxy or an
    operator's log that reads the first value would see another bet than the one played."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = json.loads(await self.body(), object_pairs_hook=_unique_keys)
        return self._json


class _StrictJSONRoute(APIRoute):
    def get_route_handler(self):
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictJSONRequest(request.scope, request.receive))

        return strict


class _BodyLimit:
    """No request of this API needs more than a few hundred bytes: a huge body is refused
    before it is read, by its declared length. Plain ASGI: Starlette's BaseHTTPMiddleware
    (what @app.middleware builds) cost a loaded server about a fifth of its CPU per request."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
            said = "content-length"
            if length is None and any(k == b"transfer-encoding" for k, _ in scope["headers"]):
                # no declared length (a chunked body): read it here, at most past the limit
                receive, length = await self._buffered(receive)
                said = "a chunked body's length so far"
            length = b"0" if length is None else length
            if not length.isdigit() or int(length) > MAX_BODY_BYTES:
                shown = length[:20].decode("latin-1")
                refused = JSON(ApiError("REQUEST_TOO_LARGE", f"{said} {shown!r}: at most "
                                        f"{MAX_BODY_BYTES} bytes").body(), status_code=413)
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def _buffered(receive):
        """The body's messages, read until its end or past the limit, to be played again to
        the application; and the body's length so far (past the limit: refused unread)."""
        messages, size = [], 0
        while size <= MAX_BODY_BYTES:
            message = await receive()
            messages.append(message)
            size += len(message.get("body", b""))
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        pending = iter(messages)

        async def replay():
            return next(pending, None) or await receive()

        return replay, str(size).encode()


def create_app(ctx: Context, startup=None) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if startup is not None:
            startup(ctx)
        # Fewer threads than Starlette's 40: a round is CPU under the GIL plus short database
        # waits, and 40 threads spent ~30% of a worker's time handing the GIL around.
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = int(os.environ.get("REELFORGE_THREADS", "16"))
        yield
        from reelforge.server.services import incidents

        incidents.stopped(ctx)  # a clean stop, in the significant-events log
        ctx.engine.dispose()

    app = FastAPI(title="reelforge game server", version="1", lifespan=lifespan,
                  description="Remote game server for reelforge's slot games. Errors: "
                  + "; ".join(f"{code} ({status}): {what}"
                              for code, (status, what) in CODES.items()),
                  default_response_class=JSON)
    app.state.ctx = ctx
    app.router.route_class = _StrictJSONRoute  # before any route is declared
    _errors(app)

    app.add_middleware(_BodyLimit)
    # Added last, so outermost: a refused request costs the process no more than its answer.
    app.add_middleware(Admission, limit=max_in_flight())
    limiter = SessionLimiter()

    def admit(who: sessions.Auth) -> None:
        limiter.take(who.session_id, who.operator.session_rate_per_s, who.operator.session_burst)

    def auth(authorization: str | None) -> sessions.Auth:
        who = sessions.authenticate(ctx, _bearer(authorization))
        admit(who)
        return who

    @app.get("/health", tags=["ops"])
    def health() -> dict:
        return {"status": "ok"}

    version = manifest.at_start()  # hashed as the server starts: the files it loaded

    @app.get("/version", tags=["ops"], responses=documented(VersionView))
    def version_info() -> JSON:
        """SHA-256 of every game file and every source file that plays a round, the same
        manifest as `reelforge certify`'s bundle: no authentication."""
        return JSON(version)

    @app.post(f"{API}/sessions", tags=["session"], responses=documented(OpenedSession, 401, 404, 409))
    def open_session(body: LaunchRequest) -> JSON:
        """Exchange an operator's signed launch token for a session (and recover open rounds)."""
        token, who = sessions.open_session(ctx, body.launch_token)
        return JSON({"session_token": token, **_session(who)})

    @app.get(f"{API}/session", tags=["session"], responses=documented(SessionView, 401))
    def session(authorization: Auth = None) -> JSON:
        """Authenticate: the player, balance, open rounds at their last committed step."""
        return JSON(_session(auth(authorization)))

    def _session(who: sessions.Auth) -> dict:
        with ctx.read() as conn:
            balance = sessions.balance_of(conn, who.operator, who.player_id)
            net = 0 if who.operator.wallet != "ledger" else sessions.net_by_session(
                conn, sessions.player_account(conn, who.operator, who.player_id),
                who.player_id, who.session_id, who.started_at).get(who.session_id, 0)
            open_views = [round_view(conn, ctx, who, r)
                          for r in open_rounds(conn, who.player_id)]
        held = sum(v["pending_win_credits"] * v["denomination"] for v in open_views)
        return {"player": who.external_id, "operator": who.operator.id,
                "currency": who.currency, "balance_minor": balance, "in_play_minor": held,
                "open_rounds": open_views,
                "session": {"id": who.session_id, "started_at_us": who.started_at,
                            "expires_at_us": who.expires_at,
                            "net_minor": net},
                "jurisdiction": who.operator.profile.to_dict(),
                "wallet": who.operator.wallet, "demo": who.operator.free_play}

    @app.get(f"{API}/games", tags=["games"], responses=documented(GamesView, 401))
    def games(authorization: Auth = None) -> JSON:
        who = auth(authorization)
        return JSON({"games": [g.describe(who.max_stake_minor) for g in games_of(who.operator)]})

    @app.get(f"{API}/games/{{game_key}}", tags=["games"],
             responses=documented(GameView, 401, 403, 404))
    def game(game_key: str, authorization: Auth = None) -> JSON:
        who = auth(authorization)
        return JSON(served_game(who.operator, game_key).describe(who.max_stake_minor))

    @app.post(f"{API}/games/{{game_key}}/rounds", tags=["rounds"],
              responses=documented(RoundView, 401, 403, 404, 409, 429, 503))
    async def bet(game_key: str, body: BetRequest, authorization: Auth = None) -> JSON:
        """Bet and play a round. The same request_id again returns the same round."""
        answer: Any = AGAIN
        if ctx.batch_rounds:  # the process's writer authenticates, draws and commits it
            answer = await writer(ctx).bet(_bearer(authorization), game_key, body.request_id,
                                           body.lines, body.bet_per_line, body.mode, admit)
        if isinstance(answer, ApiError):
            raise answer
        if isinstance(answer, dict):
            return JSON(answer)
        who = answer.auth if isinstance(answer, Alone) else None
        return JSON(await run_in_threadpool(bet_alone, who, game_key, body, authorization))

    def bet_alone(who: sessions.Auth | None, game_key: str, body: BetRequest,
                  authorization: str | None) -> dict:
        """A bet in its own transaction, in a request thread: a seamless wallet's, a round of
        the jackpot pool, a repeated request id, or one whose batch could not commit."""
        if who is None:
            who = auth(authorization)
        if who.operator.wallet == "seamless":
            from reelforge.server.wallets.rounds import play_seamless

            return play_seamless(ctx, who, game_key, body.request_id, body.lines,
                                 body.bet_per_line, body.mode)
        return rounds.play(ctx, who, game_key, body.request_id, body.lines,
                           body.bet_per_line, body.mode, batch=False)

    @app.get(f"{API}/rounds", tags=["history"], responses=documented(HistoryView, 401, 404))
    def history(authorization: Auth = None,
                limit: Annotated[int, Query(ge=1, le=100)] = 10,
                before: Annotated[str | None, Query(max_length=36)] = None,
                game: Annotated[str | None, Query(max_length=64)] = None) -> JSON:
        """The player's rounds, newest first (of one game key, with `game`); `next` is the
        cursor for the page after."""
        return JSON(rounds.history(ctx, auth(authorization), limit, before, game))

    @app.get(f"{API}/rounds/{{round_id}}", tags=["history"],
             responses=documented(RoundView, 401, 404))
    def one_round(round_id: str, authorization: Auth = None) -> JSON:
        """One round in full: outcome events, every step, every ledger movement."""
        return JSON(rounds.get_round(ctx, auth(authorization), round_id))

    @app.post(f"{API}/rounds/{{round_id}}/steps", tags=["rounds"],
              responses=documented(RoundView, 401, 404, 409))
    def step(round_id: str, body: StepRequest, authorization: Auth = None) -> JSON:
        """A player's choice: gamble, take half, collect, wheel spins, Spin Chance."""
        return JSON(steps.take_step(ctx, auth(authorization), round_id, body.request_id,
                                    body.kind, body.choice))

    @app.get(f"{API}/rounds/{{round_id}}/verify", tags=["history"],
             responses=documented(VerifyView, 401, 404))
    def verify(round_id: str, authorization: Auth = None) -> JSON:
        """Replay the stored round and its steps from their seeds; say whether they match."""
        return JSON(rounds.verify(ctx, auth(authorization), round_id))

    @app.get(f"{API}/jackpots", tags=["jackpots"], responses=documented(MetersView))
    def meters() -> JSON:
        """Every progressive pool's meter, in minor units of its currency."""
        with ctx.read() as conn:
            return JSON({"jackpots": jackpot.meters(conn)})

    # After the player's API: a request is matched against the routes in order, and the back
    # office's (its own prefix, no path shared) were a dozen checks before every bet.
    from reelforge.server.backoffice.routes import router as backoffice

    app.include_router(backoffice(ctx, _StrictJSONRoute))

    @app.get("/demo", tags=["demo"], response_class=RedirectResponse, status_code=303)
    def demo(operator: Annotated[str, Query(max_length=64)] = "demo") -> RedirectResponse:
        """A new demo player with the demo balance, launched (303 to the game page)."""
        return RedirectResponse(f"/play?launch={sessions.demo_launch(ctx, operator)}", 303)

    @app.get("/play", tags=["demo"], response_class=HTMLResponse)
    def play_page(launch: Annotated[str, Query(max_length=2048)] = "") -> HTMLResponse:
        return HTMLResponse(_play_page(launch))

    @app.get("/", include_in_schema=False, response_model=None)
    def root() -> HTMLResponse | RedirectResponse:
        """The lobby: the built client's page (it asks for a demo session itself)."""
        index = _web_dir() / "index.html"
        if index.is_file():
            return HTMLResponse(index.read_text(encoding="utf-8"))
        return RedirectResponse("/play", 307)

    @app.get("/backoffice", include_in_schema=False)
    def backoffice_page() -> HTMLResponse:
        """The back office's page (web/backoffice.html, built); it signs in on its own."""
        page = _web_dir() / "backoffice.html"
        if page.is_file():
            return HTMLResponse(page.read_text(encoding="utf-8"))
        return HTMLResponse("<!doctype html><meta charset=utf-8><title>reelforge back office"
                            "</title><p>The back office page is not built here (make web). "
                            "Its API: /backoffice/api, in <a href=/docs>/docs</a>.</p>")

    # The client's hashed bundles (web/dist/assets, `make web`): StaticFiles resolves every
    # path inside that folder (no request path reaches the file system unchecked) and sends
    # each file's MIME type. Checked per request, so a build after start is served.
    app.mount("/assets", StaticFiles(directory=_web_dir() / "assets", check_dir=False),
              name="assets")
    return app


def _web_dir() -> Path:
    """The built client: $REELFORGE_WEB_DIR, else web/dist under the working directory, else
    the checkout's web/dist (a server started from elsewhere in the tree)."""
    if "REELFORGE_WEB_DIR" in os.environ:
        return Path(os.environ["REELFORGE_WEB_DIR"])
    here = Path("web/dist")
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[4] / "web" / "dist"


def _play_page(launch: str) -> str:
    """The launch lands here: the built client (it reads the token from the address), or,
    where none is built, what to do with the token."""
    web = _web_dir() / "index.html"
    if web.is_file():
        return web.read_text(encoding="utf-8")
    safe = "".join(c for c in launch if c.isalnum() or c in "-_.=")
    return ("<!doctype html><meta charset=utf-8><title>reelforge</title>"
            "<h1>reelforge game server</h1><p>The browser client is not built here. "
            "Launch token (POST it to <code>/api/v1/sessions</code> as "
            f"<code>{{\"launch_token\": ...}}</code>):</p><pre>{safe}</pre>"
            "<p>API: <a href=/docs>/docs</a>, <a href=/openapi.json>/openapi.json</a>.</p>")


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSON:
        if exc.status == 401 and exc.code != "BAD_CREDENTIALS":  # staff sign-ins: their own rows
            _incident(request, "auth.refused", exc.code)
        wait = exc.details.get("retry_after_ms") if exc.code == "RATE_LIMITED" else None
        headers = {"Retry-After": str(-(-wait // 1000))} if wait else None
        return JSON(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSON:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        value = first.get("input")
        shown = repr(value)[:80] if not isinstance(value, dict | list) else _SHORT.repr(value)
        return JSON(ApiError("INVALID_REQUEST", f"{where} = {shown}: "
                             f"{first.get('msg', 'invalid')}").body(), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSON:
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code,
                                                                 "INVALID_REQUEST")
        status = exc.status_code if exc.status_code in (404, 405) else 400
        detail, cause = exc.detail, exc.__cause__
        if status == 400 and cause is not None:  # a body FastAPI could not parse: say why
            why = "nested too deep" if isinstance(cause, RecursionError) else str(cause)[:200]
            detail = f"the body is not JSON this server reads: {why}"
        return JSON({"error": {"code": code, "message": f"{request.method} "
                               f"{request.url.path}: {detail}"}}, status_code=status)

    async def database_down(request: Request, exc: Exception) -> JSON:
        # The database restarting, unreachable or out of disk: the transaction was rolled back
        # (or its commit's fate is unknown), so the client retries under the same request id.
        reference = uuid.uuid4().hex[:12]
        _incident(request, "database.unavailable", type(exc).__name__)
        cause = (str(getattr(exc, "orig", exc)).strip().splitlines() or [""])[0][:160]
        log.warning("database unavailable %s on %s %s: %s: %s", reference, request.method,
                    request.url.path, type(exc).__name__, cause)
        return JSON(ApiError("DATABASE_UNAVAILABLE", f"the database did not complete the "
                             f"request (reference {reference}): retry it with the same request "
                             "id").body(), status_code=503, headers={"Retry-After": "1"})

    for db_error in (OperationalError, InterfaceError, PoolTimeout):
        app.add_exception_handler(db_error, database_down)

    @app.exception_handler(Exception)
    async def bug(request: Request, exc: Exception) -> JSON:
        reference = uuid.uuid4().hex[:12]
        _incident(request, "server.error", type(exc).__name__)
        log.exception("internal error %s on %s %s", reference, request.method, request.url.path)
        return JSON({"error": {"code": "INTERNAL", "message": f"internal error, reference "
                               f"{reference}"}}, status_code=500)


def _incident(request: Request, kind: str, code: str) -> None:
    from reelforge.server.services import incidents

    client = request.client.host if request.client else None
    incidents.note(request.app.state.ctx, kind, client, code)
