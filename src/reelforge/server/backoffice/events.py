"""The significant-events log (standards.md H4), read from the audit chain and the server's
process rows:

- every audit row of a significant kind (any kind but the routine ones every round and
  session writes, tables.ROUTINE_AUDIT_KINDS): sign-ins refused, configuration and game or
  jackpot switches, decommissioned games and pools, voided rounds, corrections, jackpot claims
  and their verification, requests refused for a bad token, server errors, the database
  unavailable, clock changes, server starts and stops;
- large wins: the rounds that paid at least `min_x` times their stake (each audited in its
  player's chain);
- periods of unavailability: when no server process was up (services/incidents.py keeps
  each process's start, heartbeat and clean stop), from the first start on.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from sqlalchemy import Connection, select

from reelforge.server.backoffice.meters import large_wins, period_us
from reelforge.server.db.tables import ROUTINE_AUDIT_KINDS, audit_log, server_processes
from reelforge.server.services.incidents import heartbeat_s

LIMIT = 5000  # events per answer: a narrower period reads the rest
GONE_AFTER_BEATS = 3  # a process this many heartbeats silent is gone since its last one


def significant(conn: Connection, first: date, last: date, min_x: int,
                now: int) -> dict[str, Any]:
    since, until = period_us(first, last)
    a = audit_log
    rows = conn.execute(
        select(a.c.chain, a.c.seq, a.c.kind, a.c.payload, a.c.created_at)
        # the same predicate as the partial index ix_audit_log_significant, so it is used
        .where(a.c.kind.not_in(ROUTINE_AUDIT_KINDS), a.c.created_at >= since,
               a.c.created_at < until)
        .order_by(a.c.created_at, a.c.id).limit(LIMIT + 1)).all()
    events = [{"at_us": r.created_at, "kind": r.kind, "chain": r.chain, "seq": r.seq,
               "payload": json.loads(r.payload)} for r in rows[:LIMIT]]
    wins = large_wins(conn, first, last, min_x)["wins"]
    return {"from_us": since, "to_us": until, "events": events, "truncated": len(rows) > LIMIT,
            "large_wins": wins, "unavailable": unavailable(conn, since, min(until, now), now)}


def unavailable(conn: Connection, since: int, until: int, now: int) -> list[dict[str, Any]]:
    """The periods within [since, until) when no server process was up, each with how the
    last process before it ended: a clean stop, or none (killed, or the host down: gone since
    its last heartbeat)."""
    gone_after_us = GONE_AFTER_BEATS * heartbeat_s() * 1_000_000
    lives = []
    for p in conn.execute(select(server_processes).order_by(server_processes.c.started_at)):
        if p.stopped_at is not None:
            lives.append((p.started_at, p.stopped_at, "a clean stop"))
        elif now - p.last_seen_at > gone_after_us:
            lives.append((p.started_at, p.last_seen_at,
                          "no clean stop (killed or crashed): gone since its last heartbeat"))
        else:
            lives.append((p.started_at, now, "up"))
    periods: list[dict[str, Any]] = []
    if not lives:
        return periods
    up_to, how = lives[0][1], lives[0][2]
    for start, end, ended in lives[1:]:
        if start > up_to:
            _gap(periods, up_to, start, how, since, until)
        if end >= up_to:
            up_to, how = end, ended
    if up_to < until and how != "up":
        _gap(periods, up_to, until, how, since, until, still=True)
    return periods


def _gap(periods: list[dict[str, Any]], start: int, end: int, how: str, since: int,
         until: int, still: bool = False) -> None:
    start, end = max(start, since), min(end, until)
    if end > start:
        periods.append({"from_us": start, "to_us": None if still else end,
                        "seconds": (end - start) / 1_000_000, "ended_by": how})
