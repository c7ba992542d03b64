"""What the server's CLI commands do (`reelforge db upgrade`, `ledger check`, `ledger
reconcile`, `audit verify`, `backup`, `restore`, `export`),
as plain functions: the CLI only parses arguments and prints, and tests call these directly.

Each opens its own engine and disposes of it: these are one-shot commands, run beside a live
server or none, and must leave no connection behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reelforge.server.db import migrate
from reelforge.server.db.engine import database_url, make_engine, masked, snapshot
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


def ledger_reconcile(url: str | None, operator_id: str, config: Path | None,
                     var_dir: Path = Path("var")):
    """The server's records of seamless operator `operator_id` against its wallet's own
    (services/reconcile.py): a `Reconciliation` of mismatches, pending calls and a summary.
    The wallet's URL and key come from the operator's configuration (`--config`)."""
    from reelforge.errors import InvalidArgument
    from reelforge.server.services.reconcile import reconcile
    from reelforge.server.settings import load_settings
    from reelforge.server.wallets.client import SeamlessWalletClient, WalletUnknown

    settings = load_settings(config, var_dir)
    op = settings.operator(operator_id)
    if op is None:
        raise InvalidArgument(f"--operator {operator_id!r}: not in {settings.source} "
                              f"({', '.join(o.id for o in settings.operators)})")
    if op.wallet != "seamless" or op.wallet_url is None or op.wallet_secret is None:
        raise InvalidArgument(f"--operator {operator_id!r}: its wallet is {op.wallet!r}; only "
                              "a seamless operator's wallet has records of its own")
    with SeamlessWalletClient(op.wallet_url, op.wallet_secret, timeout_s=30) as wallet:
        try:
            rows = wallet.report()
        except WalletUnknown as exc:
            raise InvalidArgument(f"operator {operator_id!r}: its wallet at {op.wallet_url} "
                                  f"did not report: {exc.reason}") from None
    engine = make_engine(database_url(url))
    try:
        migrate.check_schema(engine)
        with snapshot(engine) as conn:
            return reconcile(conn, operator_id, rows)
    finally:
        engine.dispose()


def backup(url: str | None, out: Path) -> int:
    """A consistent copy of the database (`url`, else the configured one) in the new file
    `out`, taken while the server runs; its size in bytes (db/backup.py)."""
    from reelforge.server.db.backup import backup as copy

    return copy(database_url(url), out)


@dataclass(frozen=True)
class Restored:
    """What a restore put back and what the checks found in it ([] where all hold)."""

    url: str
    revision: str | None
    ledger_problems: list[str] = field(default_factory=list)
    audit_problems: list[str] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.ledger_problems and not self.audit_problems


def restore(source: Path, url: str | None) -> Restored:
    """The backup `source` put into the empty database `url`, then its ledger and audit chain
    proven (db/backup.py)."""
    from reelforge.server.db.backup import restore as put_back

    target = database_url(url)
    revision = put_back(source, target)
    problems, summary = ledger_check(target)
    return Restored(masked(target), revision, problems, audit_verify(target), summary)


def export(url: str | None, what: str, out: Path, fmt: str, since: str | None,
           until: str | None) -> int:
    """Rounds or ledger entries of the days `since`..`until` into the new file `out` (CSV or
    Parquet) for an auditor; the rows written (db/export.py)."""
    from reelforge.server.db.export import export as write

    return write(database_url(url), what, out, fmt, since, until)


def staff_add(url: str | None, name: str, role: str, password: str) -> int:
    """Create a back-office staff account in the database; its id."""
    from reelforge.server.backoffice import staff
    from reelforge.server.context import Context
    from reelforge.server.settings import Settings

    engine = make_engine(database_url(url))
    try:
        migrate.check_schema(engine)
        return staff.add(Context(engine, Settings(())), name, role, password)
    finally:
        engine.dispose()


def retention(url: str | None, config: Path | None, remove: bool):
    """What the retention policy lets go (db/retention.py): a `Plan`; removed with `remove`,
    else a dry run that changes nothing. The days per jurisdiction are the configuration
    file's [retention] (`config`), else the floors of policies.REQUIRED_DAYS."""
    import tomllib

    from reelforge.errors import InvalidArgument
    from reelforge.server.db import retention as policy
    from reelforge.server.policies import Policies, parse_policies
    from reelforge.server.services.common import now_us

    policies = Policies()
    if config is not None:
        try:
            policies = parse_policies(config, tomllib.loads(config.read_text(encoding="utf-8")))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise InvalidArgument(f"--config {config}: {exc}") from None
    engine = make_engine(database_url(url))
    try:
        migrate.check_schema(engine)
        if not remove:
            with snapshot(engine) as conn:
                return policy.run(conn, policies, now_us(), remove=False)
        with engine.begin() as conn:
            return policy.run(conn, policies, now_us(), remove=True)
    finally:
        engine.dispose()
