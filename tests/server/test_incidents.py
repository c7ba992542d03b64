"""The server's own significant events (services/incidents.py) and the lives of pools and
voided rounds in the reports, in process on SQLite: the events a test cannot provoke from
outside a healthy server (its clock set back, a failed flush, a 500) are driven here through
the same functions the server calls.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import OperationalError

from reelforge.server.backoffice import events, meters
from reelforge.server.db.migrate import upgrade
from reelforge.server.db.tables import audit_log, jackpot_pools, players, rounds
from reelforge.server.main import build_context, startup
from reelforge.server.services import audit, incidents, jackpot
from reelforge.server.services.common import now_us

from .harness import write_config


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[Any]:
    url = f"sqlite:///{tmp_path / 'events.db'}"
    upgrade(url)
    context = build_context(url, write_config(tmp_path), tmp_path)
    startup(context)
    yield context
    incidents.stopped(context)
    context.engine.dispose()


def _rows(ctx, kind: str) -> list[dict[str, Any]]:
    with ctx.read() as conn:
        return [{"chain": r.chain, **json.loads(r.payload)} for r in conn.execute(
            select(audit_log.c.chain, audit_log.c.payload).where(audit_log.c.kind == kind)
            .order_by(audit_log.c.id))]


def test_a_clock_set_back_or_forward_is_an_event(ctx):
    state = ctx.extensions[incidents._STATE]
    incidents.look_at_clock(ctx, state)  # the clock as it is: nothing
    assert _rows(ctx, "clock.changed") == []
    state.offset_us += 5_000_000  # as if the wall clock had been set back 5 s since
    incidents.look_at_clock(ctx, state)
    (row,) = _rows(ctx, "clock.changed")
    assert row["chain"] == incidents.CHAIN
    assert -5_100_000 < row["jump_us"] < -4_900_000
    assert row["after_us"] - row["before_us"] == row["jump_us"]


def test_refused_and_failed_requests_are_counted_into_one_row_each(ctx):
    state = ctx.extensions[incidents._STATE]
    for address in ("10.0.0.1", "10.0.0.1", "10.0.0.2"):
        incidents.note(ctx, "auth.refused", address, "UNAUTHORIZED")
    incidents.note(ctx, "server.error", "10.0.0.3", "KeyError")
    incidents.flush(ctx, state)
    (refused,) = _rows(ctx, "auth.refused")
    assert (refused["count"], refused["addresses"], refused["codes"]) == (
        3, {"10.0.0.1": 2, "10.0.0.2": 1}, {"UNAUTHORIZED": 3})
    (failed,) = _rows(ctx, "server.error")
    assert (failed["count"], failed["codes"]) == (1, {"KeyError": 1})
    incidents.flush(ctx, state)  # nothing new: no row
    assert len(_rows(ctx, "auth.refused")) == 1


def test_counts_survive_a_flush_the_database_refused(ctx, monkeypatch):
    state = ctx.extensions[incidents._STATE]
    incidents.note(ctx, "database.unavailable", "10.0.0.9", "OperationalError")

    def down():  # type: ignore[no-untyped-def]
        raise OperationalError("BEGIN", {}, Exception("database is locked"))

    with monkeypatch.context() as m:
        m.setattr(ctx, "begin", down)
        with pytest.raises(OperationalError):
            incidents.flush(ctx, state)
    incidents.note(ctx, "database.unavailable", "10.0.0.9", "OperationalError")
    incidents.flush(ctx, state)
    (row,) = _rows(ctx, "database.unavailable")
    assert (row["count"], row["addresses"]) == (2, {"10.0.0.9": 2})


def test_a_pool_no_game_feeds_is_decommissioned_and_back_when_fed_again(ctx):
    with ctx.read() as conn:
        key, *others = conn.execute(select(jackpot_pools.c.key)
                                    .order_by(jackpot_pools.c.key)).scalars().all()

    def decommissioned() -> dict[str, int | None]:
        with ctx.read() as conn:
            return dict(conn.execute(select(jackpot_pools.c.key,
                                            jackpot_pools.c.decommissioned_at)).all())

    t0 = now_us()
    jackpot.mark_decommissioned(ctx.engine, set(others), t0)
    jackpot.mark_decommissioned(ctx.engine, set(others), t0 + 1)  # again: no second row
    assert decommissioned() == {key: t0, **{k: None for k in others}}
    assert [r["chain"] for r in _rows(ctx, "jackpot.decommissioned")] == [f"jackpot:{key}"]
    jackpot.mark_decommissioned(ctx.engine, {key, *others}, t0 + 2)
    assert set(decommissioned().values()) == {None}
    (back,) = _rows(ctx, "jackpot.recommissioned")
    assert (back["chain"], back["since_us"]) == (f"jackpot:{key}", t0)
    with ctx.read() as conn:
        assert audit.verify(conn) == []


def test_voided_rounds_are_counted_per_game_and_day(ctx):
    """Cancelled rounds (a seamless wallet's debit rolled back) written as the wallet path
    leaves them, counted by the daily report; rounds closed are not."""
    now = now_us()
    with ctx.begin() as conn:
        pid = conn.execute(insert(players).values(
            operator_id="demo", external_id="v", currency="EUR", jurisdiction="default",
            created_at=now).returning(players.c.id)).scalar_one()
        for i, status in enumerate(("cancelled", "cancelled", "closed")):
            conn.execute(insert(rounds).values(
                id=f"r-{i}", player_id=pid, request_id=f"q-{i}", game_key="cluedo",
                game_id="cluedo-v1", game_sha256="0" * 64, status=status, currency="EUR",
                denomination=1,
                bet=json.dumps({"lines": 20, "bet_per_line": 1}), stake_minor=20,
                win_minor=None if status == "cancelled" else 0, created_at=now,
                updated_at=now))
    today = datetime.now(UTC).date()
    with ctx.read() as conn:
        (row,) = [r for r in meters.daily(conn, today, today) if r["game"] == "cluedo"]
    assert (row["voided_rounds"], row["mode"], row["rounds"]) == (2, "base", 0)


def test_no_process_up_between_two_lives_is_one_period(ctx):
    # the fixture's process is up now; an earlier one, stopped cleanly an hour ago after a
    # day's life, and another killed before it (last heartbeat two hours ago)
    from reelforge.server.db.tables import server_processes

    now, hour = now_us(), 3_600 * 1_000_000
    with ctx.begin() as conn:
        conn.execute(insert(server_processes), [
            dict(host="h", pid=1, started_at=now - 30 * hour, last_seen_at=now - 2 * hour,
                 stopped_at=None),
            dict(host="h", pid=2, started_at=now - 2 * hour + 60_000_000,
                 last_seen_at=now - hour, stopped_at=now - hour)])
    with ctx.read() as conn:
        gaps = events.unavailable(conn, now - 40 * hour, now, now)
    assert [(g["from_us"], g["ended_by"][:14]) for g in gaps] == [
        (now - 2 * hour, "no clean stop "), (now - hour, "a clean stop")]
    assert gaps[0]["seconds"] == 60.0
