"""Databases for the server's tests: each test that takes `db_url` runs twice, on a fresh SQLite
file and on a fresh PostgreSQL schema (skipped, with one plain reason, where no PostgreSQL runs).

PostgreSQL gets one database per test module (CREATE DATABASE costs a few hundred ms), emptied
before each test by recreating its public schema, so every test starts from nothing either way.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import Engine, create_engine, pool
from sqlalchemy.exc import OperationalError

from reelforge.server.db.engine import make_engine
from reelforge.server.db.migrate import upgrade

PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
PG_ADMIN_DB = "test"
PG_UNREACHABLE = "PostgreSQL is not reachable at 127.0.0.1:5432 (database test)"

# Learned once per session: an unreachable server is not asked again by every module.
_pg_reachable: bool | None = None


def _admin_engine(database: str) -> Engine:
    # AUTOCOMMIT: CREATE/DROP DATABASE refuse to run inside a transaction. NullPool: nothing
    # stays connected to a database about to be dropped.
    return create_engine(f"{PG_SERVER}/{database}", isolation_level="AUTOCOMMIT",
                         poolclass=pool.NullPool, connect_args={"connect_timeout": 5})


@contextmanager
def new_pg_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped on leaving; a skip where no
    PostgreSQL runs."""
    global _pg_reachable
    if _pg_reachable is False:
        pytest.skip(PG_UNREACHABLE)
    name = f"rf_{secrets.token_hex(6)}"
    admin = _admin_engine(PG_ADMIN_DB)
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"CREATE DATABASE {name}")
    except OperationalError:
        _pg_reachable = False
        admin.dispose()
        pytest.skip(PG_UNREACHABLE)
    _pg_reachable = True
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


@pytest.fixture(scope="module")
def pg_database() -> Iterator[str]:
    """A PostgreSQL database of this module's own, dropped when the module is done."""
    with new_pg_database() as url:
        yield url


def _empty_postgres(url: str) -> None:
    engine = _admin_engine(url.rsplit("/", 1)[1])
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE")
            conn.exec_driver_sql("CREATE SCHEMA public")
    finally:
        engine.dispose()


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """An empty PostgreSQL database, for the tests of what only PostgreSQL does."""
    _empty_postgres(pg_database)
    return pg_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """The URL of an empty database: a new SQLite file, or an emptied PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'reelforge.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def db_engine(db_url: str) -> Iterator[Engine]:
    """An engine on a database upgraded to the newest schema, disposed after the test."""
    upgrade(db_url)
    engine = make_engine(db_url)
    try:
        yield engine
    finally:
        engine.dispose()


@pytest.fixture(scope="module", params=[
    "sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])  # a second minute or two
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                 ) -> str:
    """The database of a module that serves one server to all its tests: a SQLite file, or
    the module's own PostgreSQL database (a skip where none runs)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('module_db') / 'reelforge.db'}"
    url: str = request.getfixturevalue("pg_database")
    return url
