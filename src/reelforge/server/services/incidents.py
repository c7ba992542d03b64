"""Significant events the server notices about itself (standards.md H4), written to the audit
log's "server" chain:

- `server.started` and `server.stopped` for every process, with its row in server_processes
  (a heartbeat every HEARTBEAT_S): the back office derives the periods when no process was up
  (backoffice/events.py), a process killed having no stop but a last heartbeat;
- `auth.refused`, `server.error` and `database.unavailable`: requests refused for a bad or
  expired token, requests that failed inside the server (500), and requests the database did
  not complete (503). They are counted in the process and written as one row per kind every
  FLUSH_S, with the first and last time and the addresses and codes seen most: a flood of bad
  tokens must not become a flood of audit rows queued on one chain's head;
- `clock.changed`: the server's clock (what stamps every row) moved against the monotonic
  clock by more than CLOCK_JUMP_S between two looks, so someone or something set it.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections import Counter
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError

from reelforge.server.context import Context
from reelforge.server.db.tables import server_processes
from reelforge.server.services import audit
from reelforge.server.services.common import now_us

log = logging.getLogger("reelforge.incidents")
CHAIN = "server"
# REELFORGE_EVENTS_HEARTBEAT_S and REELFORGE_EVENTS_FLUSH_S override them (a test waits
# seconds, not minutes).
HEARTBEAT_S = 15.0
FLUSH_S = 60.0
CLOCK_JUMP_S = 2.0
TOP = 10  # addresses and codes named per flushed row
_STATE = "incidents"  # ctx.extensions: this process's _State


class _State:
    def __init__(self, process_id: int) -> None:
        self.process_id = process_id
        self.flush_s = float(os.environ.get("REELFORGE_EVENTS_FLUSH_S", FLUSH_S))
        self.heartbeat_s = heartbeat_s()
        self.lock = threading.Lock()
        self.counts: dict[str, dict[str, Any]] = {}
        self.stop = threading.Event()
        self.offset_us = _clock_offset_us()


def heartbeat_s() -> float:
    return float(os.environ.get("REELFORGE_EVENTS_HEARTBEAT_S", HEARTBEAT_S))


def _clock_offset_us() -> int:
    return now_us() - time.monotonic_ns() // 1000  # the server's one clock (services/common)


def _append(ctx: Context, kind: str, payload: dict[str, Any], now: int) -> None:
    # Two processes starting together may both write the chain's very first row: the unique
    # (chain, seq) refuses the second, which writes again after the first.
    for attempt in range(3):
        try:
            with ctx.begin() as conn:
                audit.append(conn, CHAIN, kind, payload, now)
            return
        except IntegrityError:
            if attempt == 2:
                raise


def started(ctx: Context) -> None:
    """This process is up: its row and the event; then its heartbeat, flushes and clock
    watch, until `stopped`."""
    now = now_us()
    host = socket.gethostname()[:255]
    with ctx.begin() as conn:
        process_id = conn.execute(insert(server_processes).values(
            host=host, pid=os.getpid(), started_at=now, last_seen_at=now)
            .returning(server_processes.c.id)).scalar_one()
    _append(ctx, "server.started", {"process": process_id, "host": host, "pid": os.getpid()},
            now)
    state = ctx.extensions[_STATE] = _State(process_id)
    threading.Thread(target=_watch, args=(ctx, state), name="incidents", daemon=True).start()


def stopped(ctx: Context) -> None:
    """A clean stop: the counts so far, the stop time and the event."""
    state: _State | None = ctx.extensions.pop(_STATE, None)
    if state is None:
        return  # never started (an app built without the server's start-up)
    state.stop.set()
    flush(ctx, state)
    now = now_us()
    with ctx.begin() as conn:
        conn.execute(update(server_processes).where(server_processes.c.id == state.process_id)
                     .values(stopped_at=now, last_seen_at=now))
    _append(ctx, "server.stopped", {"process": state.process_id}, now)


def note(ctx: Context, kind: str, address: str | None, code: str) -> None:
    """Count one refused or failed request of `kind` (written at the next flush)."""
    state: _State | None = ctx.extensions.get(_STATE)
    if state is None:
        return
    now = now_us()
    with state.lock:
        found = state.counts.setdefault(kind, {"count": 0, "first_us": now, "last_us": now,
                                               "addresses": Counter(), "codes": Counter()})
        found["count"] += 1
        found["last_us"] = now
        found["addresses"][address or "unknown"] += 1
        found["codes"][code] += 1


def flush(ctx: Context, state: _State) -> None:
    """Write the counts as one audit row per kind; kept for the next try if the database
    refuses (it may be why they were counted)."""
    with state.lock:
        counts, state.counts = state.counts, {}
    if not counts:
        return
    now = now_us()
    try:
        with ctx.begin() as conn:
            for kind in sorted(counts):
                c = counts[kind]
                audit.append(conn, CHAIN, kind, {
                    "process": state.process_id, "count": c["count"], "first_us": c["first_us"],
                    "last_us": c["last_us"], "addresses": dict(c["addresses"].most_common(TOP)),
                    "codes": dict(c["codes"].most_common(TOP))}, now)
    except Exception:
        with state.lock:
            for kind, c in counts.items():
                _merge(state.counts.setdefault(kind, {
                    "count": 0, "first_us": c["first_us"], "last_us": c["last_us"],
                    "addresses": Counter(), "codes": Counter()}), c)
        raise


def _merge(into: dict[str, Any], earlier: dict[str, Any]) -> None:
    into["count"] += earlier["count"]
    into["first_us"] = min(into["first_us"], earlier["first_us"])
    into["last_us"] = max(into["last_us"], earlier["last_us"])
    into["addresses"].update(earlier["addresses"])
    into["codes"].update(earlier["codes"])


def look_at_clock(ctx: Context, state: _State) -> None:
    """A `clock.changed` row when the wall clock moved against the monotonic one."""
    offset = _clock_offset_us()
    jump = offset - state.offset_us
    state.offset_us = offset
    if abs(jump) > CLOCK_JUMP_S * 1_000_000:
        now = now_us()
        _append(ctx, "clock.changed", {"process": state.process_id, "jump_us": jump,
                                       "before_us": now - jump, "after_us": now}, now)


def _watch(ctx: Context, state: _State) -> None:
    last_flush = last_beat = time.monotonic()
    while not state.stop.wait(min(1.0, state.heartbeat_s)):
        try:
            look_at_clock(ctx, state)
            if time.monotonic() - last_beat >= state.heartbeat_s:
                last_beat = time.monotonic()
                with ctx.begin() as conn:
                    conn.execute(update(server_processes)
                                 .where(server_processes.c.id == state.process_id)
                                 .values(last_seen_at=now_us()))
            if time.monotonic() - last_flush >= state.flush_s:
                last_flush = time.monotonic()
                flush(ctx, state)
        except Exception:  # the database away for a moment: the next look tries again
            log.warning("significant events not written; trying again", exc_info=True)
