"""The back office's daily meters over a large history on PostgreSQL (issue 24 item 7): from the
summary rows the writer keeps (meter_days) against a scan of the ledger and rounds, as the
meters were read before.

    .venv/bin/python benchmarks/meters_pg.py [--rounds 10000000] [--days 30] [--repeats 5]

A database of its own (rf_meters_bench on 127.0.0.1:5432, trust auth, dropped at the end
unless --keep): the schema migrated to 0004, then players, accounts, rounds and their ledger
entries (a stake per round, a win for about a quarter) generated in bulk SQL with
generate_series, then migrated to head, whose 0005 fills meter_days from that ledger by the
writer's own rule (the rows the writer would have kept, round by round). Both ways' answers
are checked equal before anything is timed. Timed, median of --repeats, each a fresh
transaction: the meters of one day (of --days) and of the whole period (every round).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection, and_, case, create_engine, func, pool, select, text

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
NAME = os.environ.get("RF_BENCH_DB", "rf_meters_bench")
PLAYERS = 100_000
GAMES = ("cluedo", "cops-n-robbers", "candy-jar-clusters")
US_PER_DAY = 86_400 * 1_000_000
FIRST = date(2026, 11, 1)


def scan_daily(conn: Connection, first: date, last: date) -> list[dict[str, Any]]:
    """The meters as the back office read them before the summary rows (a scan of the ledger
    joined to rounds over the period: backoffice/meters.py before issue 24 item 7)."""
    from reelforge.server.backoffice.meters import EPOCH, bet_mode, day_number
    from reelforge.server.db.tables import accounts as a
    from reelforge.server.db.tables import ledger_entries as e
    from reelforge.server.db.tables import players as p
    from reelforge.server.db.tables import rounds as r

    day = (r.c.created_at // US_PER_DAY).label("day")
    mode = bet_mode(conn).label("mode")
    paid = r.c.funded_by.is_(None)

    def moved(kind: str, sign: int = 1) -> Any:
        return func.coalesce(func.sum(case((and_(e.c.kind == kind, paid), sign * e.c.amount),
                                           else_=0)), 0)

    query = (select(p.c.operator_id, r.c.game_key, mode, r.c.currency, day,
                    func.count(func.distinct(case((and_(e.c.kind == "stake", paid), r.c.id))))
                    .label("rounds"), moved("stake").label("turnover"),
                    moved("win", -1).label("wins"))
             .select_from(e.join(a, and_(a.c.id == e.c.account_id, a.c.kind == "house"))
                          .join(r, r.c.id == e.c.round_id).join(p, p.c.id == r.c.player_id))
             .where(r.c.created_at >= day_number(first) * US_PER_DAY,
                    r.c.created_at < (day_number(last) + 1) * US_PER_DAY)
             .group_by(p.c.operator_id, r.c.game_key, mode, r.c.currency, day)
             .order_by(day, p.c.operator_id, r.c.game_key, mode, r.c.currency))
    return [{"day": (EPOCH + timedelta(days=int(x.day))).isoformat(), "operator": x.operator_id,
             "game": x.game_key, "mode": x.mode, "currency": x.currency,
             "rounds": int(x.rounds), "turnover_minor": int(x.turnover),
             "wins_minor": int(x.wins)} for x in conn.execute(query)]


def generate(url: str, rounds: int, days: int) -> None:
    span = days * US_PER_DAY
    start = (FIRST - date(1970, 1, 1)).days * US_PER_DAY
    engine = create_engine(url, poolclass=pool.NullPool)
    steps = [
        ("operators", "INSERT INTO operators VALUES ('bench', 'Bench casino', 'ledger', NULL, 0)"),
        ("players", f"INSERT INTO players (id, operator_id, external_id, currency, jurisdiction, "
                    f"created_at) SELECT g, 'bench', 'p' || g, 'EUR', 'default', 0 "
                    f"FROM generate_series(1, {PLAYERS}) g"),
        ("accounts", f"INSERT INTO accounts (id, kind, owner, currency, balance) "
                     f"SELECT g, 'player', g::text, 'EUR', 0 FROM generate_series(1, {PLAYERS}) g "
                     f"UNION ALL SELECT {PLAYERS} + 1 + s, 'house', 'bench#' || s, 'EUR', 0 "
                     "FROM generate_series(0, 15) s"),
        # a round per g: its player, game, stake (20..100) and, for about a quarter, a win
        ("rounds", f"INSERT INTO rounds (id, player_id, request_id, game_key, game_id, "
                   "game_sha256, status, currency, denomination, bet, stake_minor, win_minor, "
                   "created_at, updated_at, closed_at) SELECT 'r' || g, 1 + g % "
                   f"{PLAYERS}, 'q' || g, (ARRAY{list(GAMES)!r})[1 + g % 3], 'bench-v1', '', "
                   "'closed', 'EUR', 1, '{\"lines\": 20, \"bet_per_line\": 1, \"mode\": \"base\"}'"
                   ", 20 * (1 + g % 5), CASE WHEN (g * 2654435761) % 100 < 25 THEN 20 * (1 + g % "
                   f"5) * ((g * 7919) % 9) ELSE 0 END, {start} + (g - 1) * {span // rounds}, "
                   f"0, 0 FROM generate_series(1::bigint, {rounds}) g"),
        ("ledger: stakes", "INSERT INTO ledger_entries (txn, account_id, amount, balance_after, "
                           "kind, round_id, created_at) SELECT r.id || ':' || 'stake', a, "
                           "CASE WHEN a = r.player_id THEN -r.stake_minor ELSE r.stake_minor END"
                           ", 0, 'stake', r.id, r.created_at FROM rounds r, LATERAL (VALUES "
                           f"(r.player_id), ({PLAYERS} + 1 + r.player_id % 16)) v(a)"),
        ("ledger: wins", "INSERT INTO ledger_entries (txn, account_id, amount, balance_after, "
                         "kind, round_id, created_at) SELECT r.id || ':' || 'win', a, "
                         "CASE WHEN a = r.player_id THEN r.win_minor ELSE -r.win_minor END, 0, "
                         "'win', r.id, r.created_at FROM rounds r, LATERAL (VALUES "
                         f"(r.player_id), ({PLAYERS} + 1 + r.player_id % 16)) v(a) "
                         "WHERE r.win_minor > 0"),
    ]
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("SET synchronous_commit = off")
            conn.exec_driver_sql("SET maintenance_work_mem = '512MB'")
            # the ledger's indexes and constraints, built once after the load, not row by row
            conn.exec_driver_sql("ALTER TABLE ledger_entries DROP CONSTRAINT "
                                 "uq_ledger_entries_txn")
            conn.exec_driver_sql("DROP INDEX ix_ledger_entries_account")
            conn.exec_driver_sql("DROP INDEX ix_ledger_entries_round")
            for what, sql in steps:
                began = time.perf_counter()
                conn.execute(text(sql))
                print(f"  {what}: {time.perf_counter() - began:.1f} s", flush=True)
            began = time.perf_counter()
            conn.exec_driver_sql("ALTER TABLE ledger_entries ADD CONSTRAINT "
                                 "uq_ledger_entries_txn UNIQUE (txn, account_id)")
            conn.exec_driver_sql("CREATE INDEX ix_ledger_entries_account ON ledger_entries "
                                 "(account_id, id)")
            conn.exec_driver_sql("CREATE INDEX ix_ledger_entries_round ON ledger_entries "
                                 "(round_id)")
            print(f"  ledger indexes: {time.perf_counter() - began:.1f} s", flush=True)
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    finally:
        engine.dispose()


def timed(engine: Any, read: Any, repeats: int) -> tuple[float, list[float], Any]:
    times, found = [], None
    for _ in range(repeats):
        with engine.connect() as conn:
            began = time.perf_counter()
            found = read(conn)
            times.append(time.perf_counter() - began)
            conn.rollback()
    return statistics.median(times), times, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scan-repeats", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()
    from reelforge.server.backoffice import meters
    from reelforge.server.db.migrate import upgrade

    admin = create_engine(f"{SERVER}/test", isolation_level="AUTOCOMMIT",
                          poolclass=pool.NullPool)
    with admin.connect() as conn:
        conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {NAME} WITH (FORCE)")
        conn.exec_driver_sql(f"CREATE DATABASE {NAME}")
    url = f"{SERVER}/{NAME}"
    try:
        print(f"meters_pg: {args.rounds:,} rounds over {args.days} days, load "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        upgrade(url, "0004")
        began = time.perf_counter()
        generate(url, args.rounds, args.days)
        print(f"generated in {time.perf_counter() - began:.0f} s", flush=True)
        began = time.perf_counter()
        upgrade(url)  # 0005: meter_days filled from the ledger by the writer's rule
        print(f"migrated to head (meter_days filled) in {time.perf_counter() - began:.0f} s",
              flush=True)
        engine = create_engine(url, poolclass=pool.NullPool)
        with engine.connect() as conn:
            sizes = conn.execute(text(
                "SELECT (SELECT count(*) FROM rounds), (SELECT count(*) FROM ledger_entries), "
                "(SELECT count(*) FROM meter_days)")).one()
        print(f"rows: rounds {sizes[0]:,}, ledger entries {sizes[1]:,}, meter_days {sizes[2]:,}")
        one = FIRST + timedelta(days=args.days // 2)
        last = FIRST + timedelta(days=args.days - 1)
        keys = ("day", "operator", "game", "mode", "currency", "rounds", "turnover_minor",
                "wins_minor")
        results = []
        for label, first_day, last_day in (("one day", one, one),
                                           (f"all {args.days} days", FIRST, last)):
            kept = timed(engine, lambda c, f=first_day, t=last_day: meters.daily(c, f, t),
                         args.repeats)
            scan = timed(engine, lambda c, f=first_day, t=last_day: scan_daily(c, f, t),
                         args.scan_repeats)
            assert [{k: row[k] for k in keys} for row in kept[2]] == scan[2], label
            rounds_ = sum(row["rounds"] for row in kept[2])
            results.append((label, rounds_, kept, scan))
            print(f"{label} ({rounds_:,} rounds): summary median {kept[0] * 1000:.1f} ms "
                  f"{[round(t * 1000, 1) for t in kept[1]]}; scan median {scan[0]:.2f} s "
                  f"{[round(t, 2) for t in scan[1]]}; equal answers", flush=True)
        engine.dispose()
        print(f"load after: {os.getloadavg()[0]:.1f}")
    finally:
        if not args.keep:
            with admin.connect() as conn:
                conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {NAME} WITH (FORCE)")
        admin.dispose()


if __name__ == "__main__":
    sys.exit(main())
