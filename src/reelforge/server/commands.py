"""What the server's CLI commands do (`reelforge db upgrade`, `ledger check`, `audit verify`),
as plain functions: the CLI only parses arguments and prints, and tests call these directly.

Each opens its own engine and disposes of it: these are one-shot commands, run beside a live
server or none, and must leave no connection behind.
"""

from __future__ import annotations

from typing import Any

from reelforge.server.db import migrate
from reelforge.server.db.engine import database_url, make_engine, snapshot
from reelforge.server.services import audit
from reelforge.server.services import ledger_check as ledger


def db_upgrade(url: str | None) -> str:
    """Migrate the database (`url`, else the configured one) to the newest schema; its
    revision."""
    return migrate.upgrade(database_url(url))


def ledger_check(url: str | None) -> tuple[list[str], dict[str, Any]]:
    """The ledger's broken invariants ([] when all hold) and a summary of what was checked."""
    engine = make_engine(database_url(url))
    try:
        migrate.check_schema(engine)
        with snapshot(engine) as conn:
            return ledger.check(conn), ledger.summary(conn)
    finally:
        engine.dispose()


def audit_verify(url: str | None) -> list[str]:
    """Every problem in the audit log's hash chains; [] when it is intact."""
    engine = make_engine(database_url(url))
    try:
        migrate.check_schema(engine)
        with snapshot(engine) as conn:
            return audit.verify(conn)
    finally:
        engine.dispose()
