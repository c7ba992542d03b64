"""The backup drill (standards H7): play rounds on a real server, back the database up while it
serves, play more, restore the backup into a fresh database, and prove that the restored one is
the database as it was at the backup (not before, not after), that its ledger and audit chain
hold, and that a server plays on it. On SQLite and PostgreSQL.

Also what a restore must refuse: a database that holds anything, a file that is no backup, a
backup of the other kind of database; and a backup never writes over a file."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from reelforge.server import commands
from reelforge.server.db.engine import make_engine
from reelforge.server.db.migrate import head_revision, upgrade

from .conftest import new_pg_database
from .harness import Player, Server, write_config

pytestmark = pytest.mark.slow  # two server starts and a dozen rounds per database


def reelforge(*args: str) -> subprocess.CompletedProcess:
    """The `reelforge` program as an operator runs it."""
    return subprocess.run([sys.executable, "-c", "from reelforge.cli import main; main()",
                           *args], capture_output=True, text=True, check=False, timeout=300)


def fingerprint(url: str) -> dict:
    """What the money and its history amount to: counts of every money table's rows, the sum
    of every balance, and the audit chain's last hash."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            def one(sql: str):
                return conn.execute(text(sql)).scalar()
            return {
                "rounds": one("SELECT count(*) FROM rounds"),
                "closed": one("SELECT count(*) FROM rounds WHERE status = 'closed'"),
                "ledger_entries": one("SELECT count(*) FROM ledger_entries"),
                "balances": one("SELECT sum(balance) FROM accounts"),
                "audit_rows": one("SELECT count(*) FROM audit_log"),
                "audit_last": one("SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1"),
            }
    finally:
        engine.dispose()


def play(player: Player, rounds: int) -> None:
    for _ in range(rounds):
        response = player.bet("candy-jar-clusters", 20, 1)
        assert response.status_code == 200, response.text
        player.finish(response.json())


@pytest.fixture
def fresh_url(db_url: str, tmp_path: Path) -> Iterator[str]:
    """A second, empty database of the same kind as `db_url`, to restore into."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.db'}"
        return
    with new_pg_database() as url:
        yield url


def test_backup_drill(db_url: str, fresh_url: str, tmp_path: Path) -> None:
    config = write_config(tmp_path)
    server = Server(db_url, tmp_path, config).start()
    try:
        player = Player(server.base)
        play(player, 6)
        at_backup = fingerprint(db_url)
        out = tmp_path / "reelforge.backup"
        done = reelforge("backup", "--database-url", db_url, "--out", str(out))
        assert done.returncode == 0, done.stdout + done.stderr
        assert out.stat().st_size > 0
        play(player, 4)  # the live database moves on after the backup
        after = fingerprint(db_url)
    finally:
        server.stop()
    assert after["rounds"] == at_backup["rounds"] + 4
    assert after["audit_last"] != at_backup["audit_last"]

    done = reelforge("restore", str(out), "--database-url", fresh_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ledger OK, audit log OK" in done.stdout
    assert fingerprint(fresh_url) == at_backup
    assert commands.ledger_check(fresh_url)[0] == []
    assert commands.audit_verify(fresh_url) == []

    # the restored database serves: a new player plays, and the books still balance
    server = Server(fresh_url, tmp_path, config).start()
    try:
        play(Player(server.base), 2)
    finally:
        server.stop()
    assert fingerprint(fresh_url)["rounds"] == at_backup["rounds"] + 2
    assert commands.ledger_check(fresh_url)[0] == []
    assert commands.audit_verify(fresh_url) == []


def test_restore_refuses_a_database_that_holds_anything(db_url: str, fresh_url: str,
                                                        tmp_path: Path) -> None:
    upgrade(db_url)
    out = tmp_path / "empty-schema.backup"
    assert commands.backup(db_url, out) > 0
    upgrade(fresh_url)  # the target now has the server's tables
    done = reelforge("restore", str(out), "--database-url", fresh_url)
    assert done.returncode != 0
    assert "never writes over" in done.stderr + done.stdout
    # and an empty target takes the same backup, at the schema's revision
    if fresh_url.startswith("sqlite"):
        target = f"sqlite:///{tmp_path / 'second.db'}"
        restored = commands.restore(out, target)
        assert restored.ok and restored.revision == head_revision()


def test_restore_refuses_what_is_not_a_backup(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    done = reelforge("restore", str(junk), "--database-url", f"sqlite:///{tmp_path / 'x.db'}")
    assert done.returncode != 0
    assert "notes.txt" in done.stderr and "neither a SQLite file nor a pg_dump" in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_a_sqlite_backup_is_not_restored_into_postgresql(tmp_path: Path, pg_url: str) -> None:
    source = f"sqlite:///{tmp_path / 'live.db'}"
    upgrade(source)
    out = tmp_path / "live.backup"
    commands.backup(source, out)
    done = reelforge("restore", str(out), "--database-url", pg_url)
    assert done.returncode != 0 and "is a SQLite backup" in done.stderr


def test_backup_never_replaces_a_file(tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'live.db'}"
    upgrade(source)
    out = tmp_path / "kept.backup"
    out.write_bytes(b"an earlier backup")
    done = reelforge("backup", "--database-url", source, "--out", str(out))
    assert done.returncode != 0 and "the file exists" in done.stderr
    assert out.read_bytes() == b"an earlier backup"
