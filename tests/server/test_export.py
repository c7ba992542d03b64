"""`reelforge export` (standards C7): the rounds and ledger entries of a day as CSV and Parquet,
whose sums are the database's own, on SQLite and PostgreSQL, after real rounds on a real
server."""

from __future__ import annotations

import csv
import datetime as dt
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from sqlalchemy import text

from reelforge.server import commands
from reelforge.server.db.engine import make_engine

from .harness import Player, Server, write_config


def reelforge(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from reelforge.cli import main; main()",
                           *args], capture_output=True, text=True, check=False, timeout=300)


def database_sums(url: str) -> tuple[Counter, int, int]:
    """Straight from the tables: ledger amounts by (account kind, entry kind, currency), and
    the rounds' stakes and wins."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            by_kind = Counter({(k, ek, c): int(s) for k, ek, c, s in conn.execute(text(
                "SELECT a.kind, e.kind, a.currency, sum(e.amount) FROM ledger_entries e "
                "JOIN accounts a ON a.id = e.account_id GROUP BY a.kind, e.kind, a.currency"))})
            stakes, wins = conn.execute(text(
                "SELECT sum(stake_minor), coalesce(sum(win_minor), 0) FROM rounds")).one()
            return by_kind, int(stakes), int(wins)
    finally:
        engine.dispose()


def test_a_days_export_sums_to_the_database(db_url: str, tmp_path: Path) -> None:
    server = Server(db_url, tmp_path, write_config(tmp_path)).start()
    try:
        player = Player(server.base)
        for _ in range(5):
            response = player.bet("candy-jar-clusters", 20, 1)
            assert response.status_code == 200, response.text
            player.finish(response.json())
    finally:
        server.stop()
    today = dt.datetime.now(dt.UTC).date().isoformat()
    ledger_csv, rounds_csv = tmp_path / "ledger.csv", tmp_path / "rounds.csv"
    for what, out in (("ledger", ledger_csv), ("rounds", rounds_csv)):
        done = reelforge("export", what, "--out", str(out), "--since", today, "--until", today,
                         "--database-url", db_url)
        assert done.returncode == 0, done.stdout + done.stderr

    ledger = list(csv.DictReader(ledger_csv.open(encoding="utf-8")))
    rounds = list(csv.DictReader(rounds_csv.open(encoding="utf-8")))
    by_kind, stakes, wins = database_sums(db_url)
    exported = Counter()
    for row in ledger:
        exported[(row["account_kind"], row["kind"], row["currency"])] += int(row["amount_minor"])
    assert exported == by_kind
    assert len(rounds) == 5 and all(r["status"] == "closed" for r in rounds)
    assert sum(int(r["stake_minor"]) for r in rounds) == stakes
    assert sum(int(r["win_minor"] or 0) for r in rounds) == wins
    # the two exports agree with each other: each round's stake left its player's account
    paid_in = -sum(int(r["amount_minor"]) for r in ledger
                   if r["account_kind"] == "player" and r["kind"] == "stake")
    assert paid_in == stakes
    # and the ledger check passes on the database they came from
    assert commands.ledger_check(db_url)[0] == []

    # Parquet: the same rows, money as int64
    parquet = tmp_path / "ledger.parquet"
    assert commands.export(db_url, "ledger", parquet, "parquet", today, today) == len(ledger)
    table = pq.read_table(parquet)
    assert str(table.schema.field("amount_minor").type) == "int64"
    assert table.column("amount_minor").to_pylist() == [int(r["amount_minor"]) for r in ledger]

    # a day with nothing: the header alone
    tomorrow = (dt.date.fromisoformat(today) + dt.timedelta(days=1)).isoformat()
    empty = tmp_path / "empty.csv"
    assert commands.export(db_url, "rounds", empty, "csv", tomorrow, tomorrow) == 0
    assert empty.read_text(encoding="utf-8").splitlines() == [",".join(rounds[0].keys())]


@pytest.mark.parametrize(("args", "message"), [
    (["rounds", "--since", "2026-13-01"], "--since '2026-13-01': expected a date"),
    (["rounds", "--since", "2026-12-02", "--until", "2026-12-01"], "is before --since"),
    (["players"], "export 'players': expected one of rounds, ledger"),
    (["rounds", "--format", "xlsx"], "--format 'xlsx': expected one of csv, parquet"),
])
def test_export_refuses_bad_arguments_naming_them(tmp_path: Path, args: list[str],
                                                  message: str) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    commands.db_upgrade(url)
    out = tmp_path / "out.csv"
    done = reelforge("export", *args, "--out", str(out), "--database-url", url)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not out.exists()
