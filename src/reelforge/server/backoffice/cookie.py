"""The staff session's cookie, as the back office's routes read it (routes.py, control_routes.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Cookie

COOKIE = "rf_staff"
StaffCookie = Annotated[str | None, Cookie(alias=COOKIE)]
