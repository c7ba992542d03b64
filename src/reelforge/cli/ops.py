"""Commands that run and maintain the server: serve, database, ledger, audit log, staff,
backup, restore, export and retention."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from reelforge.cli.common import (
    _at_least,
    _fail,
    app,
)
from reelforge.errors import InvalidArgument, ReelforgeError

DbUrlOpt = Annotated[str | None, typer.Option(
    "--database-url", help="SQLAlchemy URL (default: $REELFORGE_DATABASE_URL, else SQLite "
    "var/reelforge.db); postgresql://... for PostgreSQL")]


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port")] = 8000,
    database_url: DbUrlOpt = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="Operators and their games (TOML); default: the demo operators")] = None,
    workers: Annotated[int, typer.Option("--workers", help="Server processes")] = 1,
) -> None:
    """Serve the games: the remote game server (migrates the database first)."""
    _at_least(workers, "--workers")
    if not 0 < port < 65536:
        _fail(InvalidArgument(f"--port = {port}: must be 1..65535"))
    from reelforge.server.main import serve as run_server

    try:
        run_server(host, port, database_url, config, workers)
    except ReelforgeError as exc:
        _fail(exc)


db_app = typer.Typer(no_args_is_help=True, help="The server's database.")
app.add_typer(db_app, name="db")
ledger_app = typer.Typer(no_args_is_help=True, help="The server's double-entry ledger.")
app.add_typer(ledger_app, name="ledger")
audit_app = typer.Typer(no_args_is_help=True, help="The server's hash-chained audit log.")
app.add_typer(audit_app, name="audit")
staff_app = typer.Typer(no_args_is_help=True, help="The back office's staff accounts.")
app.add_typer(staff_app, name="staff")


@db_app.command("upgrade")
def db_upgrade(database_url: DbUrlOpt = None) -> None:
    """Create or migrate the server's tables to the current revision (Alembic)."""
    from reelforge.server.commands import db_upgrade as upgrade

    try:
        print(f"database at revision {upgrade(database_url)}")
    except ReelforgeError as exc:
        _fail(exc)


@ledger_app.command("check")
def ledger_check(database_url: DbUrlOpt = None) -> None:
    """Prove the ledger's invariants; exit 1 and name each broken one."""
    from reelforge.server.commands import ledger_check as check

    try:
        problems, summary = check(database_url)
    except ReelforgeError as exc:
        _fail(exc)
    for key, value in summary.items():
        print(f"{key}: {value}")
    for problem in problems:
        print(f"FAIL {problem}")
    print("ledger OK" if not problems else f"ledger BROKEN: {len(problems)} problem(s)")
    raise typer.Exit(1 if problems else 0)


@ledger_app.command("reconcile")
def ledger_reconcile(
    operator: Annotated[str, typer.Option("--operator", help="The seamless operator's id")],
    config: Annotated[Path | None, typer.Option("--config", help="The server's operators "
                                                "(TOML): the wallet's URL and key")] = None,
    database_url: DbUrlOpt = None,
) -> None:
    """Compare the server's ledger and outbox with a seamless operator wallet's own records,
    transaction by transaction, to the cent; exit 1 and name each mismatch."""
    from reelforge.server.commands import ledger_reconcile as reconcile

    try:
        found = reconcile(database_url, operator, config)
    except ReelforgeError as exc:
        _fail(exc)
    for key, value in found.summary.items():
        print(f"{key}: {value}")
    for line in found.pending:
        print(f"PENDING {line}")
    for line in found.mismatches:
        print(f"MISMATCH {line}")
    print("reconciled OK" + (f" ({len(found.pending)} pending)" if found.pending else "")
          if not found.mismatches else f"reconcile FAILED: {len(found.mismatches)} mismatch(es)")
    raise typer.Exit(1 if found.mismatches else 0)


@audit_app.command("verify")
def audit_verify(database_url: DbUrlOpt = None) -> None:
    """Check the audit log's hash chains; exit 1 and name each edited, inserted or deleted row."""
    from reelforge.server.commands import audit_verify as verify

    try:
        problems = verify(database_url)
    except ReelforgeError as exc:
        _fail(exc)
    for problem in problems:
        print(f"FAIL {problem}")
    print("audit log OK" if not problems else f"audit log BROKEN: {len(problems)} problem(s)")
    raise typer.Exit(1 if problems else 0)


@app.command("backup")
def backup_command(
    out: Annotated[Path, typer.Option("--out", help="The new file to write the backup to")],
    database_url: DbUrlOpt = None,
) -> None:
    """Back up the server's database while it serves: SQLite's online backup API, or pg_dump's
    custom format for PostgreSQL. Restore it with `reelforge restore`."""
    from reelforge.server.commands import backup

    try:
        size = backup(database_url, out)
    except ReelforgeError as exc:
        _fail(exc)
    print(f"backup written to {out} ({size:,} bytes)")


@app.command("restore")
def restore_command(
    source: Annotated[Path, typer.Argument(help="A file written by reelforge backup")],
    database_url: DbUrlOpt = None,
) -> None:
    """Restore a backup into an empty database (a new SQLite file, a PostgreSQL database with
    no tables), then prove its ledger and audit chain; exit 1 if either is broken."""
    from reelforge.server.commands import restore

    try:
        restored = restore(source, database_url)
    except ReelforgeError as exc:
        _fail(exc)
    print(f"restored into {restored.url} at revision {restored.revision}")
    for key, value in restored.summary.items():
        print(f"{key}: {value}")
    for problem in restored.ledger_problems + restored.audit_problems:
        print(f"FAIL {problem}")
    print("ledger OK, audit log OK" if restored.ok else "restored database BROKEN")
    raise typer.Exit(0 if restored.ok else 1)


@app.command("export")
def export_command(
    what: Annotated[str, typer.Argument(help="rounds or ledger")],
    out: Annotated[Path, typer.Option("--out", help="The new file to write")],
    fmt: Annotated[str, typer.Option("--format", help="csv or parquet")] = "csv",
    since: Annotated[str | None, typer.Option("--since", help="First UTC day, YYYY-MM-DD")] = None,
    until: Annotated[str | None, typer.Option("--until", help="Last UTC day, YYYY-MM-DD")] = None,
    database_url: DbUrlOpt = None,
) -> None:
    """Export the rounds or the ledger entries of a span of days for an auditor, as CSV or
    Parquet: integer minor units with their currency, times in UTC."""
    from reelforge.server.commands import export

    try:
        rows = export(database_url, what, out, fmt, since, until)
    except ReelforgeError as exc:
        _fail(exc)
    print(f"{rows:,} {what} rows written to {out}")

@app.command("retention")
def retention_command(
    apply: Annotated[bool, typer.Option("--apply", help="Remove them (default: a dry run "
                                        "that only lists)")] = False,
    config: Annotated[Path | None, typer.Option(
        "--config", help="The server's configuration: its [retention] days per jurisdiction "
        "(default: each jurisdiction's required minimum)")] = None,
    database_url: DbUrlOpt = None,
) -> None:
    """Remove the ledger entries and rounds older than their jurisdiction's retention (J9),
    never a younger one; the ledger's proofs still hold after. A dry run unless --apply."""
    from reelforge.server.commands import retention

    try:
        found = retention(database_url, config, apply)
    except ReelforgeError as exc:
        _fail(exc)
    for key, value in found.summary().items():
        print(f"{key}: {value}")
    verb = "removed" if apply else "would remove (dry run; --apply to remove)"
    print(f"retention {verb}: {found.entries} ledger entries of {found.txns} txns, "
          f"{len(found.rounds)} rounds")


@staff_app.command("add")
def staff_add(
    name: Annotated[str, typer.Argument(help="The staff member's sign-in name")],
    role: Annotated[str, typer.Option("--role", help="viewer, manager or auditor")],
    database_url: DbUrlOpt = None,
) -> None:
    """Create a back-office account. The password is asked twice at a terminal, or read as
    the first line of standard input (never an argument: it would stay in the shell's
    history and the process list)."""
    from reelforge.server.commands import staff_add as add

    if sys.stdin.isatty():
        import getpass

        password = getpass.getpass(f"password for {name}: ")
        if getpass.getpass("again: ") != password:
            _fail(InvalidArgument(f"the two passwords typed for {name!r} differ"))
    else:
        password = sys.stdin.readline().rstrip("\r\n")
    try:
        staff_id = add(database_url, name, role, password)
    except ReelforgeError as exc:
        _fail(exc)
    print(f"staff {name!r} added as {role} (id {staff_id})")
