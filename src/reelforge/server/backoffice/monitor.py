"""Live RTP monitoring (standards.md E5): a periodic job in every server process checks each
game's actual RTP over the last `window_days` UTC days against its theoretical figure and the
band its variance allows (rtp.py), and raises an alert where a game with at least `min_rounds`
paid rounds is outside that band at `confidence` (two-sided).

An alert is stored (monitor_alerts: one per game, mode, currency and UTC day; of several
processes checking at once, the one whose row is inserted raises it), logged as a warning and
POSTed as JSON to the operator's `webhook_url`, each with its arithmetic: rounds, turnover,
wins, actual, expected, the SD of one round, the SD of the RTP at these stakes, z and the
band. A manager runs the same check at once from the back office.

Configuration, the `[monitor]` section of the operators file (every key optional):

    [monitor]
    interval_s = 300          # seconds between checks; 0: no periodic check
    confidence = 0.99         # two-sided, in (0, 1)
    window_days = 7           # today and the days before it, UTC
    min_rounds = 1000         # fewer paid rounds in the window: too few to judge
    webhook_url = "https://ops.example/rtp-alerts"   # http(s); absent: no webhook
    webhook_timeout_s = 5
"""

from __future__ import annotations

import json
import logging
import math
import threading
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from reelforge.errors import InvalidArgument
from reelforge.server.backoffice import rtp
from reelforge.server.backoffice.meters import day_number
from reelforge.server.context import Context
from reelforge.server.db.tables import monitor_alerts
from reelforge.server.services.common import now_us, today_utc
from reelforge.server.settings import Settings

log = logging.getLogger("reelforge.monitor")
_STOP = "monitor.stop"  # ctx.extensions: set to end the periodic check


@dataclass(frozen=True)
class MonitorSettings:
    interval_s: float = 300.0
    confidence: float = rtp.CONFIDENCE
    window_days: int = 7
    min_rounds: int = 1000
    webhook_url: str | None = None
    webhook_timeout_s: float = 5.0


def monitor_settings(settings: Settings) -> MonitorSettings:
    """The `[monitor]` section of the settings' file, checked: one error naming the key,
    its value and the file."""
    raw = settings.extra.get("monitor", {})
    where = f"{settings.source}: monitor"
    if not isinstance(raw, dict):
        raise InvalidArgument(f"{where} = {raw!r}: expected a [monitor] table")
    known = set(MonitorSettings.__dataclass_fields__)
    for key in raw:
        if key not in known:
            raise InvalidArgument(f"{where}.{key}: not a setting ({', '.join(sorted(known))})")

    def number(key: str, low: float, high: float, whole: bool = False) -> Any:
        value = raw.get(key, getattr(MonitorSettings, key))
        kinds = (int,) if whole else (int, float)
        if type(value) not in kinds or not low <= value <= high or (
                isinstance(value, float) and not math.isfinite(value)):
            kind = "a whole number" if whole else "a number"
            raise InvalidArgument(f"{where}.{key} = {value!r}: expected {kind} from {low} "
                                  f"to {high}")
        return value

    confidence = number("confidence", 0.5, 0.999999)
    url = raw.get("webhook_url")
    if url is not None and (not isinstance(url, str)
                            or not url.startswith(("http://", "https://"))):
        raise InvalidArgument(f"{where}.webhook_url = {url!r}: expected an http(s) URL")
    return MonitorSettings(float(number("interval_s", 0, 86_400)), float(confidence),
                           number("window_days", 1, 366, whole=True),
                           number("min_rounds", 1, 10**12, whole=True), url,
                           float(number("webhook_timeout_s", 0.1, 60)))


def check(ctx: Context, settings: MonitorSettings | None = None) -> dict[str, Any]:
    """Check every game now: each game's figures with its z, and the alerts raised (those
    already raised today for a game are not raised again)."""
    ms = settings or monitor_settings(ctx.settings)
    today = today_utc()
    first = today - timedelta(days=ms.window_days - 1)
    with ctx.read() as conn:
        sums = rtp.sums(conn, first, today)
    checked = rtp.compare(sums, ctx.settings, ms.confidence)
    raised = []
    for row in checked:
        row["judged"] = row["band"] is not None and row["rounds"] >= ms.min_rounds
        if row["judged"] and not row["inside"]:
            alert = _raise(ctx, ms, row, first.isoformat(), today.isoformat())
            if alert is not None:
                raised.append(alert)
    return {"from": first.isoformat(), "to": today.isoformat(), "settings": asdict(ms),
            "checked": checked, "raised": raised}


def arithmetic(row: dict[str, Any]) -> str:
    """The alert's reasoning in one line, every number in it."""
    low, high = row["band"]
    return (f"{row['operator']}/{row['game']} ({row['mode']}, {row['currency']}): "
            f"{row['rounds']} rounds, turnover {row['turnover_minor']}, wins "
            f"{row['wins_minor']}: actual RTP {row['actual_rtp']:.6f} against expected "
            f"{row['theoretical_rtp']:.6f}; SD of one round {row['round_sd']:.6f} "
            f"({row['sd_source']}), SD of the RTP at these stakes = SD x sqrt(sum s^2) / "
            f"sum s = {row['sd_of_rtp']:.6f}; z = (actual - expected) / SD = {row['z']:.3f}; "
            f"band at {row['confidence']:.4%} = [{low:.6f}, {high:.6f}]: outside")


def _raise(ctx: Context, ms: MonitorSettings, row: dict[str, Any], first: str,
           last: str) -> dict[str, Any] | None:
    now = now_us()
    body = {"alert": "rtp_outside_band", "from": first, "to": last,
            **{k: row[k] for k in ("operator", "game", "mode", "currency", "rounds",
                                   "turnover_minor", "wins_minor", "actual_rtp",
                                   "theoretical_rtp", "theoretical_source", "round_sd",
                                   "sd_source", "sd_of_rtp", "z", "band", "confidence")},
            "at_us": now}
    body["arithmetic"] = arithmetic(row)
    try:
        with ctx.begin() as conn:
            alert_id = conn.execute(insert(monitor_alerts).values(
                operator_id=row["operator"], game_key=row["game"], mode=row["mode"],
                currency=row["currency"], day=day_number(today_utc(now)),
                body=json.dumps(body), webhook=None, created_at=now)
                .returning(monitor_alerts.c.id)).scalar_one()
    except IntegrityError:  # raised today already (here, or by another process)
        return None
    body["alert_id"] = int(alert_id)
    log.warning("RTP alert %s: %s", alert_id, body["arithmetic"])
    answer = _post(ms, body)
    with ctx.begin() as conn:
        conn.execute(update(monitor_alerts).where(monitor_alerts.c.id == alert_id)
                     .values(webhook=answer))
    return {**body, "webhook": answer}


def _post(ms: MonitorSettings, body: dict[str, Any]) -> str | None:
    """POST the alert to the operator's webhook; what it answered, or why it was not reached
    (logged: an alert is never lost to a webhook that is down, it stays stored)."""
    if ms.webhook_url is None:
        return None
    try:
        response = httpx.post(ms.webhook_url, json=body, timeout=ms.webhook_timeout_s)
    except httpx.HTTPError as exc:
        log.warning("RTP alert %s: webhook %s not reached: %s", body["alert_id"],
                    ms.webhook_url, exc)
        return f"not reached: {type(exc).__name__}: {exc}"
    if response.status_code >= 300:
        log.warning("RTP alert %s: webhook %s answered %s", body["alert_id"], ms.webhook_url,
                    response.status_code)
    return f"HTTP {response.status_code}"


def alerts(ctx: Context, limit: int = 100) -> list[dict[str, Any]]:
    """The latest alerts, newest first, with what the webhook answered."""
    with ctx.read() as conn:
        rows = conn.execute(select(monitor_alerts).order_by(monitor_alerts.c.id.desc())
                            .limit(limit)).all()
    return [{**json.loads(r.body), "alert_id": int(r.id), "webhook": r.webhook} for r in rows]


def start_monitor(ctx: Context) -> None:
    """This process's periodic check, every `interval_s` (none at 0); the settings are
    checked here, at start, so a bad [monitor] section stops the server with its error."""
    ms = monitor_settings(ctx.settings)
    if ms.interval_s <= 0:
        return
    stop: threading.Event = ctx.extensions.setdefault(_STOP, threading.Event())

    def run() -> None:
        while not stop.wait(ms.interval_s):
            try:
                check(ctx, ms)
            except Exception:  # a database away for a moment, a game's figures: next time
                log.warning("RTP monitor check failed; trying again", exc_info=True)

    threading.Thread(target=run, name="rtp-monitor", daemon=True).start()
