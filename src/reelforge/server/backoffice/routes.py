"""The back office's routes, under /backoffice/api: a staff session cookie opens them, nothing
else does. The players' routes read only the Authorization header and the players' sessions
table, these only the cookie and the staff_sessions table, so neither token opens the other
door (tests/server/test_backoffice.py tries both)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, StringConstraints

from reelforge.server.backoffice import (
    control,
    control_routes,
    events,
    meters,
    pools,
    rtp,
    staff,
)
from reelforge.server.backoffice.cookie import COOKIE, StaffCookie
from reelforge.server.context import Context
from reelforge.server.errors import ApiError
from reelforge.server.services.common import now_us, today_utc

PREFIX = "/backoffice/api"
From = Annotated[str | None, Query(alias="from", max_length=10,
                                   description="the first UTC day, YYYY-MM-DD; default: today")]
To = Annotated[str | None, Query(alias="to", max_length=10,
                                 description="the last UTC day, YYYY-MM-DD; default: today")]
MinX = Annotated[int, Query(ge=1, le=1_000_000, description="a large win pays at least this "
                            "many times its stake")]


class SignIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, StringConstraints(min_length=1, max_length=staff.MAX_NAME)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=1024)]


class GameSwitch(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    operator: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    game: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    enabled: bool


class PoolSwitch(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    pool: Annotated[str, StringConstraints(min_length=1, max_length=96)]
    enabled: bool


def _who(who: staff.Staff) -> dict[str, Any]:
    return {"name": who.name, "role": who.role, "expires_at_us": who.expires_at,
            "may": sorted(staff.ALLOWED[who.role])}


def _period(first: str | None, last: str | None) -> tuple[date, date]:
    """The days asked for, from `from` to `to` inclusive (UTC), each defaulting to today."""
    today = today_utc()

    def day(value: str | None, name: str) -> date:
        if value is None:
            return today
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise ApiError("INVALID_REQUEST", f"{name} = {value!r}: expected a day as "
                           "YYYY-MM-DD") from None

    start, end = day(first, "from"), day(last, "to")
    if end < start or (end - start).days >= meters.MAX_DAYS:
        raise ApiError("INVALID_REQUEST", f"from = {start}, to = {end}: the period must run "
                       f"forward and span at most {meters.MAX_DAYS} days")
    return start, end


def _csv(text: str, name: str) -> Response:
    """A CSV download; `name` is built here from checked dates, never from the request."""
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def router(ctx: Context, route_class: Any) -> APIRouter:
    api = APIRouter(prefix=PREFIX, tags=["backoffice"], route_class=route_class)

    def door(token: str | None, action: str = staff.READ) -> staff.Staff:
        who = staff.authenticate(ctx, token)
        who.require(action)
        return who

    @api.post("/session")
    def sign_in(body: SignIn, request: Request, response: Response) -> dict:
        """Sign in with a staff name and password: sets the session cookie (HttpOnly,
        SameSite=Strict; Secure over HTTPS)."""
        client = request.client.host if request.client is not None else "unknown"
        token, who = staff.sign_in(ctx, body.name, body.password, client)
        response.set_cookie(COOKIE, token, max_age=staff.MAX_AGE_S, path="/backoffice",
                            httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")
        return _who(who)

    @api.get("/session")
    def session(rf_staff: StaffCookie = None) -> dict:
        """Who is signed in, and until when."""
        return _who(door(rf_staff))

    @api.delete("/session")
    def sign_out(response: Response, rf_staff: StaffCookie = None) -> dict:
        staff.sign_out(ctx, door(rf_staff))
        response.delete_cookie(COOKIE, path="/backoffice")
        return {"signed_out": True}

    @api.get("/meters")
    def daily(rf_staff: StaffCookie = None, first: From = None,
              last: To = None) -> dict:
        """Turnover, wins, rounds, hold and RTP per operator, game, mode, currency and day."""
        door(rf_staff)
        start, end = _period(first, last)
        with ctx.read() as conn:
            rows = meters.daily(conn, start, end)
        return {"from": start.isoformat(), "to": end.isoformat(), "meters": rows}

    @api.get("/meters.csv", response_class=Response)
    def daily_csv(rf_staff: StaffCookie = None,
                  first: From = None,
                  last: To = None) -> Response:
        door(rf_staff)
        start, end = _period(first, last)
        with ctx.read() as conn:
            rows = meters.daily(conn, start, end)
        return _csv(meters.as_csv(rows, meters.DAILY_COLUMNS), f"meters-{start}-{end}.csv")

    @api.get("/held")
    def held(rf_staff: StaffCookie = None) -> dict:
        """Funds in unfinished rounds, per operator and currency, and those rounds."""
        door(rf_staff)
        with ctx.read() as conn:
            return meters.held(conn)

    @api.get("/large-wins")
    def large_wins(rf_staff: StaffCookie = None,
                   first: From = None,
                   last: To = None,
                   min_x: MinX = 100) -> dict:
        """Rounds that paid at least min_x times their stake, and jackpot claims."""
        door(rf_staff)
        start, end = _period(first, last)
        with ctx.read() as conn:
            return {"from": start.isoformat(), "to": end.isoformat(),
                    **meters.large_wins(conn, start, end, min_x)}

    @api.get("/large-wins.csv", response_class=Response)
    def large_wins_csv(rf_staff: StaffCookie = None,
                       first: From = None,
                       last: To = None,
                       min_x: MinX = 100) -> Response:
        door(rf_staff)
        start, end = _period(first, last)
        with ctx.read() as conn:
            found = meters.large_wins(conn, start, end, min_x)
        return _csv(meters.as_csv(found["wins"], meters.WIN_COLUMNS),
                    f"large-wins-{start}-{end}.csv")

    @api.get("/events")
    def significant_events(rf_staff: StaffCookie = None, first: From = None, last: To = None,
                           min_x: MinX = 100) -> dict:
        """The significant-events log of the period (H4): significant audit rows, large wins
        and the periods when no server process was up."""
        door(rf_staff)
        start, end = _period(first, last)
        with ctx.read() as conn:
            return {"from": start.isoformat(), "to": end.isoformat(),
                    **events.significant(conn, start, end, min_x, now_us())}

    @api.get("/rtp")
    def actual_rtp(rf_staff: StaffCookie = None, first: From = None, last: To = None,
                   operator: Annotated[str | None, Query(max_length=64)] = None,
                   game: Annotated[str | None, Query(max_length=64)] = None) -> dict:
        """Actual against theoretical RTP per operator, game, mode and currency over the
        period, with the 99% band the game's variance allows at the rounds played (E6)."""
        door(rf_staff)
        start, end = _period(first, last)
        with ctx.read() as conn:
            found = rtp.sums(conn, start, end, operator, game)
        return {"from": start.isoformat(), "to": end.isoformat(),
                "confidence": rtp.CONFIDENCE, "rtp": rtp.compare(found, ctx.settings)}

    @api.get("/games")
    def games(rf_staff: StaffCookie = None) -> dict:
        """Every operator's games: the file's setting, the back office's switch, the result."""
        door(rf_staff)
        return {"games": control.games(ctx)}

    @api.put("/games")
    def switch_game(body: GameSwitch, rf_staff: StaffCookie = None) -> dict:
        """A manager switches a game off for new rounds (open rounds finish), or on again."""
        return control.switch_game(ctx, door(rf_staff, staff.CONTROL), body.operator, body.game,
                                   body.enabled)

    @api.get("/jackpots")
    def jackpots(rf_staff: StaffCookie = None) -> dict:
        """Every pool as persisted (G8): its meter, parameters, games, odds and status."""
        door(rf_staff)
        return {"jackpots": pools.pools(ctx)}

    @api.put("/jackpots")
    def switch_pool(body: PoolSwitch, rf_staff: StaffCookie = None) -> dict:
        """A manager disables a jackpot pool (no contribution, no win) or resumes it."""
        return control.switch_pool(ctx, door(rf_staff, staff.CONTROL), body.pool, body.enabled)

    from reelforge.server.backoffice import report_routes

    # the RTP chart's series, the live monitor, a player and a round looked up
    report_routes.add(api, ctx, door, _period, StaffCookie, From, To)
    control_routes.add(api, ctx, door)  # jackpot claims, supervised corrections
    return api
