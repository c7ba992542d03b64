"""`reelforge export`: the rounds or the ledger entries of a span of days, as CSV or Parquet,
for an auditor (standards C7). Read in one snapshot, streamed in batches, so an export of a
large history neither holds it in memory nor mixes two states of a live database.

Every money column is integer minor units with its currency beside it; times are ISO 8601 in
UTC. A day is a UTC day: `--since 2026-12-01 --until 2026-12-01` is that one day.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Select, select

from reelforge.errors import InvalidArgument
from reelforge.server.db import tables as t
from reelforge.server.db.engine import make_engine, snapshot

BATCH_ROWS = 10_000
FORMATS = ("csv", "parquet")


def _rounds() -> Select[Any]:
    r, p = t.rounds, t.players
    return (select(r.c.id.label("round_id"), p.c.operator_id.label("operator"),
                   p.c.external_id.label("player"), r.c.game_key, r.c.game_id,
                   r.c.game_sha256, r.c.status, r.c.currency, r.c.denomination, r.c.bet,
                   r.c.stake_minor, r.c.win_minor, r.c.funded_by, r.c.jackpot_claim_id,
                   r.c.request_id, r.c.seed, r.c.created_at, r.c.closed_at)
            .join(p, p.c.id == r.c.player_id).order_by(r.c.created_at, r.c.id))


def _ledger() -> Select[Any]:
    e, a = t.ledger_entries, t.accounts
    return (select(e.c.id.label("entry_id"), e.c.txn, e.c.kind, a.c.kind.label("account_kind"),
                   a.c.owner.label("account_owner"), a.c.currency, e.c.amount.label("amount_minor"),
                   e.c.balance_after.label("balance_after_minor"), e.c.round_id, e.c.step,
                   e.c.created_at)
            .join(a, a.c.id == e.c.account_id).order_by(e.c.id))


# What can be exported: a query, and the table whose created_at bounds the span.
EXPORTS = {"rounds": (_rounds, t.rounds), "ledger": (_ledger, t.ledger_entries)}
_TIMES = ("created_at", "closed_at")


def day_span(since: str | None, until: str | None) -> tuple[int | None, int | None]:
    """The microsecond bounds [start, end) of the UTC days `since` to `until`, both included."""
    def day(value: str, option: str) -> dt.datetime:
        try:
            return dt.datetime.combine(dt.date.fromisoformat(value), dt.time(), dt.UTC)
        except ValueError:
            raise InvalidArgument(f"{option} {value!r}: expected a date, YYYY-MM-DD") from None
    start = day(since, "--since") if since else None
    end = day(until, "--until") + dt.timedelta(days=1) if until else None
    if start and end and end <= start:
        raise InvalidArgument(f"--until {until!r} is before --since {since!r}")
    micros = (lambda d: None if d is None else int(d.timestamp()) * 1_000_000)
    return micros(start), micros(end)


def _iso(micros: int | None) -> str | None:
    if micros is None:
        return None
    return dt.datetime.fromtimestamp(micros / 1_000_000, dt.UTC).isoformat(
        timespec="microseconds").replace("+00:00", "Z")


def _batches(url: str, what: str, since: str | None, until: str | None
             ) -> Iterator[tuple[list[str], list[tuple]]]:
    if what not in EXPORTS:
        raise InvalidArgument(f"export {what!r}: expected one of {', '.join(EXPORTS)}")
    query_of, table = EXPORTS[what]
    start, end = day_span(since, until)
    query = query_of()
    if start is not None:
        query = query.where(table.c.created_at >= start)
    if end is not None:
        query = query.where(table.c.created_at < end)
    engine = make_engine(url)
    try:
        with snapshot(engine) as conn:
            result = conn.execution_options(yield_per=BATCH_ROWS).execute(query)
            columns = list(result.keys())
            times = [i for i, c in enumerate(columns) if c in _TIMES]
            # the header first, so an empty span still gives a file with its columns
            yield columns, []
            for partition in result.partitions():
                yield columns, [tuple(_iso(v) if i in times else v for i, v in enumerate(row))
                                for row in partition]
    finally:
        engine.dispose()


def export(url: str, what: str, out: Path, fmt: str = "csv", since: str | None = None,
           until: str | None = None) -> int:
    """Write `what` (rounds, ledger) of the days `since`..`until` to the new file `out` as
    `fmt`; the number of rows written."""
    if fmt not in FORMATS:
        raise InvalidArgument(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if out.exists():
        raise InvalidArgument(f"--out {str(out)!r}: the file exists; name a new file")
    if not out.parent.is_dir():
        raise InvalidArgument(f"--out {str(out)!r}: no folder {str(out.parent)!r}")
    batches = _batches(url, what, since, until)
    written = 0
    try:
        if fmt == "csv":
            with out.open("x", newline="", encoding="utf-8") as f:
                writer = csv.writer(f)
                header = False
                for columns, rows in batches:
                    if not header:
                        writer.writerow(columns)
                        header = True
                    writer.writerows(rows)
                    written += len(rows)
        else:
            written = _parquet(batches, out)
    except BaseException:
        out.unlink(missing_ok=True)  # no half an export left for an auditor to trust
        raise
    return written


def _parquet(batches: Iterator[tuple[list[str], list[tuple]]], out: Path) -> int:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - installed with reelforge[export]
        raise InvalidArgument("--format parquet needs pyarrow: pip install "
                              "'reelforge[export]'") from None
    writer = None
    written = 0
    try:
        for columns, rows in batches:
            if writer is None:
                schema = pa.schema([(c, _arrow_type(pa, c)) for c in columns])
                writer = pq.ParquetWriter(out, schema)
            table = pa.Table.from_pylist([dict(zip(columns, row, strict=True)) for row in rows],
                                         schema=writer.schema)
            writer.write_table(table)
            written += len(rows)
    finally:
        if writer is not None:
            writer.close()
    return written


_INTEGER_COLUMNS = {"stake_minor", "win_minor", "denomination", "jackpot_claim_id", "entry_id",
                    "amount_minor", "balance_after_minor", "step"}


def _arrow_type(pa: Any, column: str) -> Any:
    # Minor units are integers end to end: int64 in the file, never a float an auditor rounds.
    return pa.int64() if column in _INTEGER_COLUMNS else pa.string()
