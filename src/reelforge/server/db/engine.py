"""Engines for the server's two databases: SQLite (one file, one host) and PostgreSQL.

The database URL comes from the command line, else `REELFORGE_DATABASE_URL`, else a SQLite file
under ./var. Every engine here is set up for money: durable commits, foreign keys enforced, and
on SQLite a write lock taken at BEGIN so that concurrent rounds queue instead of deadlocking.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, pool

from reelforge.errors import InvalidArgument

DEFAULT_SQLITE = "var/reelforge.db"
ENV_URL = "REELFORGE_DATABASE_URL"

# A writer waits this long for another writer's lock before SQLite gives up ("database is
# locked"); a round's transaction is a few milliseconds, so only a stuck process reaches it.
SQLITE_BUSY_TIMEOUT_MS = 30_000

# Sized for the server's worker threads plus the outbox worker; a burst beyond both waits in
# the pool's queue (pool_timeout) rather than opening connections without bound.
PG_POOL_SIZE = 20
PG_MAX_OVERFLOW = 20
SQLITE_POOL_SIZE = 20
SQLITE_MAX_OVERFLOW = 20

# The execution option that turns the next BEGIN on SQLite into a plain (deferred) one: a check
# that only reads must not hold the write lock and stall every round while it runs.
_SQLITE_BEGIN_OPTION = "reelforge_sqlite_begin"

_PASSWORD = re.compile(r"(://[^/:@]*:)[^/@]*@")


def masked(url: str) -> str:
    """`url` with its password, if any, replaced by ***: fit for a message or a log line."""
    return _PASSWORD.sub(r"\1***@", url)


def database_url(explicit: str | None = None) -> str:
    """The database URL to use: `explicit`, else $REELFORGE_DATABASE_URL, else the SQLite file
    var/reelforge.db under the current directory (var/ is created then). PostgreSQL URLs are
    rewritten to the psycopg 3 driver; any other scheme is refused."""
    url = explicit or os.environ.get(ENV_URL)
    if not url:
        path = Path(DEFAULT_SQLITE).absolute()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    return normalize_url(url)


def normalize_url(url: str) -> str:
    """`url` with its scheme checked: sqlite and PostgreSQL (driven by psycopg 3) only."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise InvalidArgument(f"database URL {masked(url)!r} has no scheme: use sqlite:///FILE "
                              f"or postgresql://USER@HOST/DB")
    scheme = scheme.lower()
    if scheme in ("sqlite", "sqlite+pysqlite"):
        return url
    if scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        return f"postgresql+psycopg://{rest}"
    raise InvalidArgument(f"database URL {masked(url)!r}: scheme {scheme!r} is not supported "
                          f"(sqlite://, postgresql:// or postgres://)")


def make_engine(url: str) -> Engine:
    """An engine for `url` (already normalized or not) with the server's settings."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    return create_engine(
        url,
        pool_size=PG_POOL_SIZE,
        max_overflow=PG_MAX_OVERFLOW,
        # A restarted or failed-over PostgreSQL leaves dead connections in the pool; a ping at
        # checkout costs one round trip and saves a failed round.
        pool_pre_ping=True,
        # Each service locks the rows it changes (FOR UPDATE); READ COMMITTED then sees the
        # other transaction's committed write once the lock is released.
        isolation_level="READ COMMITTED",
    )


def is_postgres(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


def _sqlite_engine(url: str) -> Engine:
    in_memory = url.split("://", 1)[1] in ("", "/", "/:memory:") or "mode=memory" in url
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if in_memory:
        # Each connection to :memory: is a database of its own: share the one connection.
        kwargs["poolclass"] = pool.StaticPool
    else:
        kwargs.update(poolclass=pool.QueuePool, pool_size=SQLITE_POOL_SIZE,
                      max_overflow=SQLITE_MAX_OVERFLOW)
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # SQLAlchemy's recipe for real transactions on sqlite3: the driver must not emit BEGIN
    # itself (it would skip it before SELECT and DDL); _sqlite_begin emits ours.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        # WAL: readers never block the writer nor the writer readers. FULL: a commit is on disk
        # before it returns (WAL's default NORMAL may lose the last commits on power loss).
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    # IMMEDIATE takes the write lock now: two deferred transactions that both read and then
    # write would each wait for the other's read lock to upgrade, and one must fail.
    mode = conn.get_execution_options().get(_SQLITE_BEGIN_OPTION, "IMMEDIATE")
    conn.exec_driver_sql(f"BEGIN {mode}")


@contextmanager
def reading(engine: Engine, single: bool = False) -> Iterator[Connection]:
    """A read-only transaction for a request that changes nothing: on SQLite a DEFERRED one,
    which takes no write lock (a reader never waits for a round being played). `single`: one
    statement, which needs no transaction around it: on PostgreSQL it then runs in autocommit,
    two round trips (BEGIN, COMMIT) fewer; every request authenticates so."""
    with engine.connect() as conn:
        if not is_postgres(engine):
            conn.execution_options(**{_SQLITE_BEGIN_OPTION: "DEFERRED"})
        elif single:
            conn.execution_options(isolation_level="AUTOCOMMIT")
            yield conn
            return
        with conn.begin():
            yield conn


@contextmanager
def snapshot(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction that sees one consistent state of the database for all its
    queries, without blocking writers: the invariant checks run in it on a live server."""
    with engine.connect() as conn:
        if is_postgres(engine):
            # READ COMMITTED would let each query see later commits: a round committed between
            # two queries of a check would look like a broken invariant.
            conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        else:
            # WAL gives a deferred transaction a snapshot from its first read.
            conn.execution_options(**{_SQLITE_BEGIN_OPTION: "DEFERRED"})
        with conn.begin():
            yield conn
