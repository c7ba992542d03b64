"""The back office's routes, under /backoffice/api: a staff session cookie opens them, nothing
else does. The players' routes read only the Authorization header and the players' sessions
table, these only the cookie and the staff_sessions table, so neither token opens the other
door (tests/server/test_backoffice.py tries both)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Request, Response
from pydantic import BaseModel, ConfigDict, StringConstraints

from reelforge.server.backoffice import staff
from reelforge.server.context import Context

PREFIX = "/backoffice/api"
COOKIE = "rf_staff"
StaffCookie = Annotated[str | None, Cookie(alias=COOKIE)]


class SignIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, StringConstraints(min_length=1, max_length=staff.MAX_NAME)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=1024)]


def _who(who: staff.Staff) -> dict[str, Any]:
    return {"name": who.name, "role": who.role, "expires_at_us": who.expires_at,
            "may": sorted(staff.ALLOWED[who.role])}


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

    return api
