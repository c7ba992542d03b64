"""Schema migrations: `reelforge db upgrade` and the server's refusal to run on an old schema.

The Alembic scripts live inside the package (db/migrations), and the Config is built here in
code, so an installed reelforge migrates a database with no alembic.ini anywhere.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from reelforge.errors import ReelforgeError
from reelforge.server.db.engine import is_postgres, make_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

# Any constant: two `db upgrade` runs against one PostgreSQL database take turns on it, and the
# second then finds the schema at head instead of failing halfway through CREATE TABLE.
_PG_UPGRADE_LOCK = 0x7265656C  # "reel"


def alembic_config(url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        # ConfigParser interpolates %: a URL-encoded password must reach Alembic unchanged.
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, f"no migration scripts under {MIGRATIONS}"
    return head


def upgrade(url: str, revision: str = "head") -> str:
    """Migrate the database at `url` to `revision` in one transaction; the revision it is at."""
    engine = make_engine(url)
    try:
        # SQLite's BEGIN IMMEDIATE (engine.py) serializes two upgrades the same way.
        with engine.begin() as conn:
            if is_postgres(engine):
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                             {"key": _PG_UPGRADE_LOCK})
            config = alembic_config(url)
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
        current = current_revision(engine)
    finally:
        engine.dispose()
    return current or "base"


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; None for a database Alembic never touched."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def check_schema(engine: Engine) -> None:
    """Refuse, in one line, a database whose schema is not the one this code was written for."""
    current, needed = current_revision(engine), head_revision()
    if current != needed:
        where = engine.url.render_as_string(hide_password=True)
        raise ReelforgeError(f"database at {where} is at revision {current or 'none (empty)'}, "
                             f"the server needs {needed}: run reelforge db upgrade")
