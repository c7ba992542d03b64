"""`reelforge backup` and `reelforge restore`: a copy of the server's database that can be taken
while it serves, and put back into a fresh database (standards H7: a backup is only a backup
once a restore of it has been proven).

SQLite is copied with its online backup API: one consistent snapshot, page by page, while the
server keeps writing (WAL lets readers and the writer go on together). PostgreSQL is dumped
with `pg_dump --format=custom` (one snapshot of the whole database) and restored with
`pg_restore` in a single transaction, so a failed restore leaves the target empty.

A restore never writes over a database that holds anything: the target must be a new SQLite
file or a PostgreSQL database without tables. After a restore the schema revision, the ledger's
invariants and the audit chain are checked, and the result says what they found.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import make_url

from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.server.db.engine import make_engine, masked, normalize_url

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
# Pages copied per step of SQLite's online backup: small steps let the server's writer in
# between them (a step holds a read lock only), large enough that a 1 GB file is a few seconds.
SQLITE_STEP_PAGES = 4096


class BackupError(ReelforgeError):
    """A backup or restore that could not be made, naming the file or database and why."""


def backup(url: str, out: Path) -> int:
    """Copy the database at `url` into the new file `out`; its size in bytes. `out` must not
    exist (a backup never replaces another) and its folder must."""
    url = normalize_url(url)
    if out.exists():
        raise InvalidArgument(f"--out {str(out)!r}: the file exists; a backup never replaces "
                              f"another, name a new file")
    if not out.parent.is_dir():
        raise InvalidArgument(f"--out {str(out)!r}: no folder {str(out.parent)!r}")
    if url.startswith("sqlite"):
        _sqlite_backup(_sqlite_path(url), out)
    else:
        _pg_run(["pg_dump", "--format=custom", "--no-owner", "--file", str(out)], url)
    return out.stat().st_size


def restore(source: Path, url: str) -> str | None:
    """Put the backup `source` into the empty database at `url`; the schema revision it is at
    (the caller then proves its ledger and audit chain: commands.restore)."""
    from reelforge.server.db.migrate import current_revision

    url = normalize_url(url)
    kind = _kind(source)
    if url.startswith("sqlite"):
        if kind != "sqlite":
            raise InvalidArgument(f"{str(source)!r} is a PostgreSQL dump; restore it into a "
                                  f"postgresql:// database")
        _sqlite_restore(source, _sqlite_path(url))
    else:
        if kind != "postgresql":
            raise InvalidArgument(f"{str(source)!r} is a SQLite backup; restore it into a "
                                  f"sqlite:/// file")
        _refuse_non_empty_pg(url)
        _pg_run(["pg_restore", "--no-owner", "--exit-on-error", "--single-transaction",
                 str(source)], url)
    engine = make_engine(url)
    try:
        return current_revision(engine)
    finally:
        engine.dispose()


def _kind(source: Path) -> str:
    try:
        with source.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise InvalidArgument(f"backup {str(source)!r}: {exc.strerror or exc}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise InvalidArgument(f"backup {str(source)!r} is neither a SQLite file nor a pg_dump "
                          f"custom-format dump (it starts {head[:8]!r})")


def _sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:" or "mode=memory" in url:
        raise InvalidArgument(f"database URL {masked(url)!r}: an in-memory SQLite database has "
                              f"nothing to back up or restore into")
    return Path(database)


def _sqlite_backup(path: Path, out: Path) -> None:
    if not path.is_file():
        raise InvalidArgument(f"database {str(path)!r}: no such SQLite file")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    target = sqlite3.connect(out)
    try:
        source.backup(target, pages=SQLITE_STEP_PAGES)
        # A backup is one self-contained file: out of WAL mode, so no -wal file must travel.
        target.execute("PRAGMA journal_mode=DELETE")
        bad = target.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.Error as exc:
        target.close()
        out.unlink(missing_ok=True)
        raise BackupError(f"backup of {str(path)!r} into {str(out)!r} failed: {exc}") from None
    finally:
        source.close()
        target.close()
    if bad != "ok":
        out.unlink(missing_ok=True)
        raise BackupError(f"backup of {str(path)!r}: the copy fails SQLite's integrity check "
                          f"({bad})")


def _sqlite_restore(source: Path, path: Path) -> None:
    if path.exists() and path.stat().st_size > 0:
        raise InvalidArgument(f"database {str(path)!r} exists; a restore goes into a new file "
                              f"(it never writes over a database)")
    if not path.parent.is_dir():
        raise InvalidArgument(f"database {str(path)!r}: no folder {str(path.parent)!r}")
    partial = path.with_name(path.name + ".restoring")
    partial.unlink(missing_ok=True)
    try:
        backup_db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        target = sqlite3.connect(partial)
        try:
            backup_db.backup(target)
            target.execute("PRAGMA journal_mode=WAL")  # as the server runs it
        finally:
            target.close()
            backup_db.close()
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"restore of {str(source)!r} failed: {exc}") from None
    # The whole database appears at once: an interrupted restore leaves no half a file there.
    os.replace(partial, path)


def _refuse_non_empty_pg(url: str) -> None:
    engine = make_engine(url)
    try:
        tables = inspect(engine).get_table_names()
    finally:
        engine.dispose()
    if tables:
        raise InvalidArgument(f"database {masked(url)!r} holds {len(tables)} tables "
                              f"({', '.join(sorted(tables)[:4])}...); a restore goes into an "
                              f"empty database (it never writes over one)")


def _pg_run(command: list[str], url: str) -> None:
    """Run a PostgreSQL client program on the database at `url`: its password, if any, in the
    environment (never on a command line that `ps` shows)."""
    program = command[0]
    if shutil.which(program) is None:
        raise BackupError(f"{program} is not installed (PostgreSQL's client programs, Debian's "
                          f"postgresql-client)")
    parsed = make_url(url)
    env = {**os.environ}
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    conninfo = parsed.set(drivername="postgresql", password=None).render_as_string(
        hide_password=False)
    done = subprocess.run([*command, "--dbname", conninfo], env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{program} on {masked(url)} failed ({done.returncode}): "
                          f"{done.stderr.strip()[-600:]}")
