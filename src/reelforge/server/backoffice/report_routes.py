"""The back office's report and lookup routes (added to routes.py's router, behind its door):
the RTP chart's series (E6), the live monitor's check and alerts (E5), a player (C6) and a
round looked up.

No `from __future__ import annotations` here: the routes' parameter types are routes.py's own
(its cookie, its from and to), handed to `add`, and FastAPI reads them as the objects they are
(routes.py imports this module; this module does not import it).
"""

from collections.abc import Callable
from datetime import date, timedelta
from types import SimpleNamespace
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from reelforge.server.backoffice import lookup, monitor, rtp, staff
from reelforge.server.backoffice.meters import EPOCH
from reelforge.server.context import Context
from reelforge.server.services.common import now_us

Name = Annotated[str, Query(min_length=1, max_length=64)]
Door = Callable[..., staff.Staff]
Period = Callable[[str | None, str | None], tuple[date, date]]


def add(api: APIRouter, ctx: Context, door: Door, period: Period, StaffCookie: Any,
        From: Any, To: Any) -> None:
    """Add these routes to the back office's router `api`, behind its `door`; `period` reads
    the from and to days, as routes.py does, from parameters of its types."""
    @api.get("/rtp/series")
    def rtp_series(operator: Name, game: Name, mode: Name, currency: Annotated[
                   str, Query(min_length=3, max_length=3)], rf_staff: StaffCookie = None,
                   first: From = None, last: To = None) -> dict:
        """Day by day, the cumulative rounds, actual RTP and band of one game and mode (the
        chart: the band narrowing as rounds add up, the actual line inside it or not)."""
        door(rf_staff)
        start, end = period(first, last)
        with ctx.read() as conn:
            days = rtp.series(conn, start, end, operator, game, mode, currency)
        points = []
        total = {"rounds": 0, "turnover": 0, "wins": 0, "turnover_sq": 0}
        for row in days:
            for k in total:
                total[k] += int(getattr(row, k))
            if not total["turnover"]:
                continue
            cumulative = SimpleNamespace(operator_id=operator, game_key=game, mode=mode,
                                         currency=currency, **total)
            point = rtp.compare([cumulative], ctx.settings)[0]
            points.append({"day": (EPOCH + timedelta(days=int(row.day))).isoformat(),
                           **point})
        return {"from": start.isoformat(), "to": end.isoformat(), "operator": operator,
                "game": game, "mode": mode, "currency": currency,
                "confidence": rtp.CONFIDENCE, "points": points}

    @api.post("/monitor/check")
    def monitor_check(rf_staff: StaffCookie = None) -> dict:
        """A manager runs the live RTP check now: every game's z, and any alert raised."""
        door(rf_staff, staff.CONTROL)
        return monitor.check(ctx)

    @api.get("/alerts")
    def alerts(rf_staff: StaffCookie = None) -> dict:
        """The live RTP monitor's latest alerts, with their arithmetic."""
        door(rf_staff)
        return {"alerts": monitor.alerts(ctx)}

    @api.get("/players/{operator}/{player}")
    def player(operator: Annotated[str, Path(max_length=64)],
               player: Annotated[str, Path(max_length=128)], rf_staff: StaffCookie = None) -> dict:
        """A player: balance, totals, sessions with elapsed time and net position, rounds."""
        door(rf_staff)
        with ctx.read() as conn:
            return lookup.player(conn, operator, player, now_us())

    @api.get("/rounds/{round_id}")
    def round_(round_id: Annotated[str, Path(max_length=36)], rf_staff: StaffCookie = None) -> dict:
        """A round in full: bet, outcome, steps with their seeds, ledger movements."""
        door(rf_staff)
        with ctx.read() as conn:
            return lookup.round_detail(conn, round_id)

