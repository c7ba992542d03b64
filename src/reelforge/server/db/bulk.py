"""Many rows in one statement: what a batch of rounds writes (services/round_batch.py).

On PostgreSQL each call is one statement whatever the number of rows. Inserts are a COPY (the
rows formatted by psycopg's C code); updates send one array per column, which `unnest` turns
back into rows. Measured against the alternatives: psycopg's executemany binds and executes
every row on its own, in Python; a VALUES list of thousands of parameters is parsed again on
every call (psycopg caches only short queries); arrays of text are quoted element by element
with a regular expression, too slow for a round's outcome but fine for a few short keys. On SQLite, which runs in this process,
the driver's own executemany loop is already the fast way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Table, bindparam, insert, update

from reelforge.server.db.engine import is_postgres


def insert_rows(conn: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """INSERT every row of `rows` (dicts with the same keys) into `table`."""
    if not rows:
        return
    if not is_postgres(conn.engine):
        conn.execute(insert(table), list(rows))
        return
    columns = tuple(rows[0])
    raw = conn.connection.driver_connection  # the psycopg connection, in this transaction
    assert raw is not None
    with raw.cursor() as cursor, cursor.copy(_copy(table, columns)) as copy:
        for row in rows:
            copy.write_row([row[c] for c in columns])


def update_rows(conn: Connection, table: Table, key: str, rows: Sequence[dict[str, Any]]) -> None:
    """UPDATE `table` SET each row's other columns WHERE `key` = the row's `key` (short values:
    numbers, keys and hashes)."""
    if not rows:
        return
    columns = tuple(rows[0])
    if not is_postgres(conn.engine):
        conn.execute(_sqlite_update(table, key, columns),
                     [{f"b_{c}": row[c] for c in columns} for row in rows])
        return
    conn.exec_driver_sql(_pg_update(conn.dialect, table, key, columns),
                         tuple([row[c] for row in rows] for c in columns))


@lru_cache(maxsize=64)
def _copy(table: Table, columns: tuple[str, ...]) -> str:
    return f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"


@lru_cache(maxsize=64)
def _pg_update(dialect: Any, table: Table, key: str, columns: tuple[str, ...]) -> str:
    arrays = ", ".join(f"CAST(%s AS {table.c[c].type.compile(dialect)}[])" for c in columns)
    sets = ", ".join(f"{c} = v.{c}" for c in columns if c != key)
    return (f"UPDATE {table.name} SET {sets} FROM unnest({arrays}) AS v({', '.join(columns)}) "
            f"WHERE {table.name}.{key} = v.{key}")


@lru_cache(maxsize=64)
def _sqlite_update(table: Table, key: str, columns: tuple[str, ...]):
    return (update(table).where(table.c[key] == bindparam(f"b_{key}"))
            .values({c: bindparam(f"b_{c}") for c in columns if c != key}))
