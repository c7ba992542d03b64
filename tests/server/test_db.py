"""The server's database layer: URLs and engines, migrations, the audit log's hash chains and
the ledger's invariant check, each on SQLite and on PostgreSQL (conftest.db_url).

Expected values are worked out here from the data each test writes (its own running balances,
its own sha256 of the audit records), never read back from the code under test.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    CheckConstraint,
    Connection,
    Engine,
    delete,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.server import commands
from reelforge.server.db.engine import database_url, is_postgres, make_engine, snapshot
from reelforge.server.db.migrate import MIGRATIONS, check_schema, current_revision, upgrade
from reelforge.server.db.tables import (
    ROUTINE_AUDIT_KINDS,
    accounts,
    audit_heads,
    audit_log,
    jackpot_pools,
    ledger_entries,
    metadata,
    operators,
    players,
    rounds,
)
from reelforge.server.services import audit, ledger_check

T0 = 1_700_000_000_000_000  # microseconds: any fixed time will do
SCALE = 10_000  # pool units per minor unit, as tables.py documents it


def named(text_: str, word: str) -> bool:
    """`word` appears in `text_` as a whole token: "seq 5" is not found in "seq 51"."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w])", text_) is not None


# -- URLs and engines -----------------------------------------------------------------------


def test_database_url_prefers_the_argument_then_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("REELFORGE_DATABASE_URL", "sqlite:////tmp/from-env.db")
    assert database_url("sqlite:////tmp/explicit.db") == "sqlite:////tmp/explicit.db"
    assert database_url() == "sqlite:////tmp/from-env.db"


def test_database_url_defaults_to_a_sqlite_file_under_var(monkeypatch, tmp_path):
    monkeypatch.delenv("REELFORGE_DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    assert database_url() == f"sqlite:///{tmp_path / 'var' / 'reelforge.db'}"
    assert (tmp_path / "var").is_dir()


@pytest.mark.parametrize("given", ["postgresql://u:pw@db:5432/rf", "postgres://u:pw@db:5432/rf",
                                   "postgresql+psycopg://u:pw@db:5432/rf"])
def test_postgres_urls_are_driven_by_psycopg3(given):
    assert database_url(given) == "postgresql+psycopg://u:pw@db:5432/rf"


@pytest.mark.parametrize("given", ["mysql://admin:hunter2@db/rf",
                                   "postgresql+asyncpg://admin:hunter2@db/rf", "db.sqlite"])
def test_other_schemes_are_refused_without_showing_the_password(given):
    with pytest.raises(InvalidArgument) as refused:
        database_url(given)
    message = str(refused.value)
    assert "hunter2" not in message
    assert given.replace(":hunter2@", ":***@") in message


def test_sqlite_engine_settings(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        with engine.connect() as conn:
            pragma = {name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                      for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")}
        # synchronous: 2 is FULL
        assert pragma == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1,
                          "busy_timeout": 30_000}
        assert not is_postgres(engine)
    finally:
        engine.dispose()


def test_sqlite_takes_the_write_lock_at_begin_and_snapshots_do_not(tmp_path):
    path = tmp_path / "x.db"
    engine = make_engine(f"sqlite:///{path}")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with engine.begin() as conn:
            conn.execute(text("SELECT 1"))  # a read only, yet the write lock is held
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        with snapshot(engine) as conn:
            conn.execute(text("SELECT 1"))
            other.execute("BEGIN IMMEDIATE")  # a reader does not stall the writers
            other.execute("ROLLBACK")
    finally:
        other.close()
        engine.dispose()


def test_postgres_engine_settings(pg_url):
    engine = make_engine(pg_url)
    try:
        assert is_postgres(engine)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == "read committed"
        assert engine.pool.size() == 20  # type: ignore[attr-defined]
        assert engine.pool._max_overflow == 20  # type: ignore[attr-defined]
        assert engine.pool._pre_ping
        assert engine.driver == "psycopg"
        with snapshot(engine) as conn:
            assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == "repeatable read"
            assert conn.exec_driver_sql("SHOW transaction_read_only").scalar() == "on"
        with engine.begin() as conn:  # the pooled connection is back to the server's settings
            assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == "read committed"
            assert conn.exec_driver_sql("SHOW transaction_read_only").scalar() == "off"
    finally:
        engine.dispose()


# -- migrations -----------------------------------------------------------------------------


def head() -> str:
    found = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert found is not None
    return found


def test_upgrade_creates_the_schema_of_tables_py(db_url):
    assert upgrade(db_url) == head()
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            found = inspect(conn)
            dialect = conn.dialect.name
            # compare_metadata leaves out check constraints and index predicates: compare them.
            for table in metadata.sorted_tables:
                wanted = sorted(c.name for c in table.constraints
                                if isinstance(c, CheckConstraint))
                assert sorted(c["name"] for c in found.get_check_constraints(table.name)) \
                    == wanted, table.name
            (open_index,) = [i for i in found.get_indexes("rounds") if i["name"] == "uq_rounds_open"]
            assert open_index["unique"]
            assert open_index["column_names"] == ["player_id", "game_key"]
            where = str(open_index.get("dialect_options", {}).get(f"{dialect}_where"))
            assert "closed" in where and "cancelled" in where
            # the significant-events log's index leaves out exactly tables.py's routine kinds
            (events,) = [i for i in found.get_indexes("audit_log")
                         if i["name"] == "ix_audit_log_significant"]
            where = str(events.get("dialect_options", {}).get(f"{dialect}_where"))
            assert sorted(re.findall(r"'([a-z_.]+)'", where)) == sorted(ROUTINE_AUDIT_KINDS)
            (voided,) = [i for i in found.get_indexes("rounds")
                         if i["name"] == "ix_rounds_cancelled"]
            assert "'cancelled'" in str(voided.get("dialect_options", {}).get(f"{dialect}_where"))
    finally:
        engine.dispose()


def test_upgrading_twice_changes_nothing(db_url):
    first = upgrade(db_url)
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            tables = sorted(inspect(conn).get_table_names())
        assert upgrade(db_url) == first
        with engine.connect() as conn:
            assert sorted(inspect(conn).get_table_names()) == tables
            assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [(first,)]
        assert current_revision(engine) == first
    finally:
        engine.dispose()


def test_check_schema_refuses_a_database_not_upgraded(db_url):
    engine = make_engine(db_url)
    try:
        assert current_revision(engine) is None
        with pytest.raises(ReelforgeError) as refused:
            check_schema(engine)
        message = str(refused.value)
        assert "\n" not in message
        assert named(message, head()) and "run reelforge db upgrade" in message
        upgrade(db_url)
        check_schema(engine)
    finally:
        engine.dispose()


# -- what the schema itself refuses -------------------------------------------------------


def add_operator_and_player(conn: Connection, player_id: int = 1) -> None:
    if conn.execute(select(operators.c.id)).first() is None:
        conn.execute(insert(operators).values(id="op", name="Op", wallet_mode="ledger",
                                              created_at=T0))
    conn.execute(insert(players).values(id=player_id, operator_id="op",
                                        external_id=f"p{player_id}", currency="EUR",
                                        jurisdiction="MT", created_at=T0))


def add_round(conn: Connection, round_id: str, status: str, *, game_key: str = "g1",
              stake: int = 100, player_id: int = 1, funded_by: str | None = None,
              outcome: str | None = "{}", win: int | None = None) -> None:
    conn.execute(insert(rounds).values(
        id=round_id, player_id=player_id, request_id=f"req-{round_id}", game_key=game_key,
        game_id="game-v1", game_sha256="0" * 64, status=status, currency="EUR", denomination=1,
        bet="{}", stake_minor=stake, win_minor=win, funded_by=funded_by, outcome=outcome,
        created_at=T0, updated_at=T0))


def test_only_the_house_may_go_negative(db_engine):
    with db_engine.begin() as conn:
        conn.execute(insert(accounts), [
            dict(id=1, kind="player", owner="1", currency="EUR", balance=0),
            dict(id=2, kind="house", owner="op#1", currency="EUR", balance=0)])
    with pytest.raises(IntegrityError), db_engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == 1).values(balance=-1))
    with db_engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == 2).values(balance=-1))
        assert conn.execute(select(accounts.c.id, accounts.c.balance)
                            .order_by(accounts.c.id)).all() == [(1, 0), (2, -1)]


def test_one_open_round_per_player_and_game(db_engine):
    with db_engine.begin() as conn:
        add_operator_and_player(conn)
        add_round(conn, "r-closed", "closed")
        add_round(conn, "r-open", "debited")
        add_round(conn, "r-other-game", "open", game_key="g2")
    with pytest.raises(IntegrityError), db_engine.begin() as conn:
        add_round(conn, "r-second-open", "open")
    with db_engine.begin() as conn:
        add_round(conn, "r-cancelled", "cancelled")
        assert conn.scalar(select(func.count()).select_from(rounds)) == 4


# -- the audit log --------------------------------------------------------------------------

CHAINS = ("player:1", "jackpot:mega/EUR", "operator:op")
GENESIS = "0" * 64


def expected_hash(prev: str, chain: str, seq: int, kind: str, payload: dict,
                  created_at: int) -> str:
    record = json.dumps({"chain": chain, "seq": seq, "kind": kind, "payload": payload,
                         "created_at": created_at},
                        sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((prev + record).encode("utf-8")).hexdigest()


def fill_audit(engine: Engine, rows: int = 50) -> dict[str, int]:
    """`rows` rows spread over CHAINS, each hash checked; the length of each chain."""
    prev = dict.fromkeys(CHAINS, GENESIS)
    length = dict.fromkeys(CHAINS, 0)
    for i in range(rows):
        chain = CHAINS[i % len(CHAINS)]
        length[chain] += 1
        payload = {"i": i, "note": "café ☕", "amount": i * 10}
        with engine.begin() as conn:
            got = audit.append(conn, chain, "test", payload, T0 + i)
        prev[chain] = expected_hash(prev[chain], chain, length[chain], "test", payload, T0 + i)
        assert got == prev[chain], (chain, length[chain])
    return length


def audit_problems(engine: Engine) -> list[str]:
    with snapshot(engine) as conn:
        return audit.verify(conn)


def row_of(chain: str, seq: int):
    return (audit_log.c.chain == chain) & (audit_log.c.seq == seq)


def test_audit_chain_intact(db_engine):
    length = fill_audit(db_engine)
    assert audit_problems(db_engine) == []
    with db_engine.connect() as conn:
        heads = dict(conn.execute(select(audit_heads.c.chain, audit_heads.c.seq)).all())
    assert heads == length
    assert sum(length.values()) == 50


def test_concurrent_appends_to_one_chain_queue_up(db_engine):
    # The chain exists (its head row can be locked); 4 writers then append 10 rows each.
    with db_engine.begin() as conn:
        audit.append(conn, "player:1", "start", {}, T0)

    def writer(w: int) -> None:
        for i in range(10):
            with db_engine.begin() as conn:
                audit.append(conn, "player:1", "test", {"writer": w, "i": i}, T0 + i)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert audit_problems(db_engine) == []
    with db_engine.connect() as conn:
        seqs = conn.execute(select(audit_log.c.seq).order_by(audit_log.c.seq)).scalars().all()
    assert seqs == list(range(1, 1 + 1 + 4 * 10))


def test_audit_names_an_edited_row(db_engine):
    fill_audit(db_engine)
    with db_engine.begin() as conn:
        conn.execute(update(audit_log).where(row_of("player:1", 7))
                     .values(payload='{"amount":999999}'))
    (problem,) = audit_problems(db_engine)
    assert named(problem, "'player:1'") and named(problem, "seq 7")


def test_audit_names_a_row_rewritten_with_a_fresh_hash(db_engine):
    fill_audit(db_engine)
    with db_engine.begin() as conn:
        old = conn.execute(select(audit_log).where(row_of("player:1", 4))).one()
        payload = {"i": 9, "note": "forged", "amount": 0}
        forged = expected_hash(old.prev_hash, old.chain, old.seq, old.kind, payload,
                               old.created_at)
        conn.execute(update(audit_log).where(row_of("player:1", 4))
                     .values(payload=json.dumps(payload), hash=forged))
    (problem,) = audit_problems(db_engine)
    # The forged row is self-consistent: the next row's link to it is what breaks.
    assert named(problem, "'player:1'") and named(problem, "seq 5")


def test_audit_names_a_deleted_middle_row(db_engine):
    fill_audit(db_engine)
    with db_engine.begin() as conn:
        conn.execute(delete(audit_log).where(row_of("jackpot:mega/EUR", 5)))
    (problem,) = audit_problems(db_engine)
    assert named(problem, "'jackpot:mega/EUR'") and named(problem, "seq 5")


def test_audit_names_a_deleted_last_row(db_engine):
    length = fill_audit(db_engine)
    last = length["operator:op"]
    with db_engine.begin() as conn:
        conn.execute(delete(audit_log).where(row_of("operator:op", last)))
    (problem,) = audit_problems(db_engine)
    assert named(problem, "'operator:op'") and named(problem, f"seq {last}")


def test_audit_names_a_chain_emptied_or_headless(db_engine):
    length = fill_audit(db_engine)
    with db_engine.begin() as conn:
        conn.execute(delete(audit_log).where(audit_log.c.chain == "operator:op"))
        conn.execute(delete(audit_heads).where(audit_heads.c.chain == "player:1"))
    problems = audit_problems(db_engine)
    assert len(problems) == 2
    emptied = [p for p in problems if named(p, "'operator:op'")]
    headless = [p for p in problems if named(p, "'player:1'")]
    assert len(emptied) == 1 and named(emptied[0], f"seq {length['operator:op']}")
    assert len(headless) == 1 and named(headless[0], f"seq {length['player:1']}")


# -- the ledger check -----------------------------------------------------------------------


@dataclass
class Book:
    """The test's own double-entry book: it posts entries with the balances it works out."""

    conn: Connection
    balance: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    by_round: dict[str, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    kind_of: dict[int, str] = field(default_factory=dict)
    entries: int = 0

    def account(self, account_id: int, kind: str, owner: str, currency: str = "EUR") -> int:
        self.conn.execute(insert(accounts).values(id=account_id, kind=kind, owner=owner,
                                                  currency=currency, balance=0))
        self.kind_of[account_id] = kind
        return account_id

    def post(self, txn: str, moves: list[tuple[int, int]], kind: str,
             round_id: str | None = None) -> None:
        for account_id, amount in moves:
            self.balance[account_id] += amount
            self.conn.execute(insert(ledger_entries).values(
                txn=txn, account_id=account_id, amount=amount,
                balance_after=self.balance[account_id], kind=kind, round_id=round_id,
                created_at=T0))
            self.conn.execute(update(accounts).where(accounts.c.id == account_id)
                              .values(balance=self.balance[account_id]))
            self.entries += 1
            if round_id is not None:
                side = {"player": "player", "house": "house"}.get(self.kind_of[account_id],
                                                                  "jackpot")
                self.by_round[round_id][side] += amount


PLAYER, HOUSE, POOL, LIABILITY, PLAYER2, HOUSE_USD = 1, 2, 3, 4, 5, 6
POOL_KEY = "mega/EUR"


def build_ledger(conn: Connection) -> Book:
    """A small consistent ledger: a deposit, a seeded jackpot, rounds that stake, win,
    contribute and hit the jackpot; a funded round, an open one and a debited one."""
    add_operator_and_player(conn)
    book = Book(conn)
    book.account(PLAYER, "player", "1")
    book.account(HOUSE, "house", "op#1")
    book.account(POOL, "jackpot_pool", POOL_KEY)
    book.account(LIABILITY, "jackpot_liability", POOL_KEY)

    book.post("deposit:1", [(HOUSE, -1000), (PLAYER, 1000)], "deposit")
    book.post("jackpot:seed:0", [(HOUSE, -500), (POOL, 500)], "jackpot_seed")
    units, credited, contributions, seeded, paid = 500 * SCALE, 500, 0, 500, 0

    # r1: stake 150, 1% of it (1.5 minor) to the pool, of which 1 whole minor unit moves.
    add_round(conn, "r1", "closed", stake=150, win=300)
    book.post("r1:stake", [(PLAYER, -150), (HOUSE, 150)], "stake", "r1")
    units, contributions = units + 15_000, contributions + 15_000
    book.post("r1:contribution", [(HOUSE, -1), (POOL, 1)], "jackpot_contribution", "r1")
    credited += 1
    book.post("r1:win", [(HOUSE, -300), (PLAYER, 300)], "win", "r1")

    # r2: paid for by r1's Spin Chance: no stake entry of its own.
    add_round(conn, "r2", "closed", stake=150, funded_by="r1")

    # r4: stake 100 (1 minor to the pool), hits the jackpot: the pool's whole 502 is claimed,
    # the 0.5 minor left stays in the pool, and the seed of 500 is funded again.
    add_round(conn, "r4", "closed", stake=100)
    book.post("r4:stake", [(PLAYER, -100), (HOUSE, 100)], "stake", "r4")
    units, contributions = units + 10_000, contributions + 10_000
    book.post("r4:contribution", [(HOUSE, -1), (POOL, 1)], "jackpot_contribution", "r4")
    credited += 1
    claim = units // SCALE
    book.post("r4:jackpot_claim", [(POOL, -claim), (LIABILITY, claim)], "jackpot_claim", "r4")
    units, paid = units - claim * SCALE, paid + claim
    book.post("r4:jackpot_seed", [(HOUSE, -500), (POOL, 500)], "jackpot_seed", "r4")
    units, seeded = units + 500 * SCALE, seeded + 500
    credited = units // SCALE
    book.post("r4:jackpot_pay", [(LIABILITY, -claim), (PLAYER, claim)], "jackpot_payment", "r4")

    add_round(conn, "r3", "open", game_key="g3", stake=100, outcome=None)
    add_round(conn, "r5", "debited", game_key="g5", stake=200, outcome=None)
    book.post("r5:stake", [(PLAYER, -200), (HOUSE, 200)], "stake", "r5")

    conn.execute(insert(jackpot_pools).values(
        key=POOL_KEY, currency="EUR", units=units, credited_minor=credited, seed_minor=500,
        contribution_bp=100, contributions_units=contributions, seeded_minor=seeded,
        paid_minor=paid, wins=1, enabled=True, created_at=T0, updated_at=T0))
    return book


def ledger_problems(engine: Engine) -> list[str]:
    with snapshot(engine) as conn:
        return ledger_check.check(conn)


def test_ledger_check_passes_a_consistent_ledger(db_engine):
    with db_engine.begin() as conn:
        book = build_ledger(conn)
    assert ledger_problems(db_engine) == []
    with snapshot(db_engine) as conn:
        summary = ledger_check.summary(conn)
    assert summary["accounts"] == 4
    assert summary["entries"] == book.entries
    assert {k: v for k, v in summary["rounds"].items() if v} == {"closed": 3, "open": 1,
                                                               "debited": 1}
    assert summary["open_rounds"] == 2
    assert summary["held_stakes_minor"] == {"EUR": 200}


def first_entry_of(conn: Connection, account_id: int, nth: int) -> int:
    return conn.execute(select(ledger_entries.c.id).where(ledger_entries.c.account_id
                                                          == account_id)
                        .order_by(ledger_entries.c.id).offset(nth).limit(1)).scalar_one()


def drop_overdraft_guard(conn: Connection) -> None:
    """A database without its CHECK constraint, as a careless restore could leave it."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("ALTER TABLE accounts DROP CONSTRAINT ck_accounts_no_overdraft"))
    else:
        conn.execute(text("PRAGMA ignore_check_constraints = ON"))


# Each breaks one invariant of the consistent ledger, and returns the words (ids, amounts)
# the one problem reported must name.
Breakage = Callable[[Connection, Book], list[str]]


def unbalanced_txn(conn: Connection, book: Book) -> list[str]:
    book.post("adjust:1", [(HOUSE, 5)], "adjust")
    return ["'adjust:1'", "5"]


def txn_across_currencies(conn: Connection, book: Book) -> list[str]:
    book.account(HOUSE_USD, "house", "op#1", "USD")
    book.post("fx:1", [(HOUSE, -7), (HOUSE_USD, 7)], "fx")
    return ["'fx:1'"]


def balance_off_its_entries(conn: Connection, book: Book) -> list[str]:
    conn.execute(update(accounts).where(accounts.c.id == PLAYER)
                 .values(balance=book.balance[PLAYER] + 7))
    return [f"account {PLAYER}", str(book.balance[PLAYER] + 7), str(book.balance[PLAYER])]


def running_balance_broken(conn: Connection, book: Book) -> list[str]:
    third = first_entry_of(conn, PLAYER, 2)
    conn.execute(update(ledger_entries).where(ledger_entries.c.id == third)
                 .values(balance_after=ledger_entries.c.balance_after + 1))
    return [f"account {PLAYER}", f"entry {third}"]


def player_overdrawn(conn: Connection, book: Book) -> list[str]:
    drop_overdraft_guard(conn)
    book.post("withdraw:1", [(PLAYER, -2000), (HOUSE, 2000)], "withdrawal")
    return [f"account {PLAYER}", str(book.balance[PLAYER])]


def round_split_across_rounds(conn: Connection, book: Book) -> list[str]:
    # A balanced txn whose house side is filed under no round: round r1 no longer balances.
    book.post("r1:bonus", [(PLAYER, 40)], "bonus", "r1")
    book.post("r1:bonus", [(HOUSE, -40)], "bonus")
    sides = book.by_round["r1"]
    total = sides["player"] + sides["house"] + sides["jackpot"]
    assert total == 40
    return ["'r1'", str(sides["player"]), str(sides["house"]), str(total)]


def round_pays_another_player(conn: Connection, book: Book) -> list[str]:
    add_operator_and_player(conn, player_id=2)
    book.account(PLAYER2, "player", "2")
    book.post("r1:misfiled", [(HOUSE, -10), (PLAYER2, 10)], "win", "r1")
    misfiled = first_entry_of(conn, PLAYER2, 0)
    return ["'r1'", f"entry {misfiled}"]


def contribution_lost(conn: Connection, book: Book) -> list[str]:
    conn.execute(update(jackpot_pools).values(
        contributions_units=jackpot_pools.c.contributions_units - 1))
    return [f"'{POOL_KEY}'"]


def pool_account_off_credited(conn: Connection, book: Book) -> list[str]:
    book.post("jackpot:topup", [(HOUSE, -3), (POOL, 3)], "jackpot_seed")
    return [f"'{POOL_KEY}'", str(book.balance[POOL])]


def pool_remainder_too_large(conn: Connection, book: Book) -> list[str]:
    # Contributions still add up (G3), but a whole minor unit was never moved to the account.
    conn.execute(update(jackpot_pools).values(
        units=jackpot_pools.c.units + SCALE,
        contributions_units=jackpot_pools.c.contributions_units + SCALE))
    return [f"'{POOL_KEY}'"]


def closed_without_outcome(conn: Connection, book: Book) -> list[str]:
    conn.execute(update(rounds).where(rounds.c.id == "r4").values(outcome=None))
    return ["'r4'"]


def debited_without_stake(conn: Connection, book: Book) -> list[str]:
    add_round(conn, "r6", "outcome_committed", game_key="g6", stake=50)
    return ["'r6'", "50"]


def stake_entry_of_another_amount(conn: Connection, book: Book) -> list[str]:
    conn.execute(update(rounds).where(rounds.c.id == "r5").values(stake_minor=120))
    return ["'r5'", "120", "-200"]


def win_off_its_entries(conn: Connection, book: Book) -> list[str]:
    # An insider's edit of what the round paid, its entries left as they were (issue 23).
    conn.execute(update(rounds).where(rounds.c.id == "r1").values(win_minor=400))
    return ["'r1'", "400", "300"]


@pytest.mark.parametrize("breakage", [
    win_off_its_entries, unbalanced_txn, txn_across_currencies, balance_off_its_entries, running_balance_broken,
    player_overdrawn, round_split_across_rounds, round_pays_another_player, contribution_lost,
    pool_account_off_credited, pool_remainder_too_large, closed_without_outcome,
    debited_without_stake, stake_entry_of_another_amount,
], ids=lambda f: f.__name__)
def test_ledger_check_names_each_broken_invariant(db_engine, breakage: Breakage):
    with db_engine.begin() as conn:
        book = build_ledger(conn)
        words = breakage(conn, book)
    problems = ledger_problems(db_engine)
    assert len(problems) == 1, problems
    for word in words:
        assert named(problems[0], word), (word, problems[0])


def test_ledger_check_lists_a_few_of_many_findings(db_engine, monkeypatch):
    monkeypatch.setattr(ledger_check, "LISTED", 2)
    with db_engine.begin() as conn:
        book = build_ledger(conn)
        for i in range(5):
            book.post(f"adjust:{i}", [(HOUSE, 1)], "adjust")
    problems = ledger_problems(db_engine)
    assert len(problems) == 3
    assert named(problems[2], str(5 - 2))


def test_ledger_check_leaves_the_callers_settings_alone(pg_url):
    upgrade(pg_url)
    engine = make_engine(pg_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("SET LOCAL work_mem = '5MB'"))
            assert ledger_check.check(conn) == []
            settings = conn.execute(text("SELECT current_setting('enable_nestloop'), "
                                         "current_setting('work_mem')")).one()
        assert tuple(settings) == ("on", "5MB")
    finally:
        engine.dispose()


# -- the commands ---------------------------------------------------------------------------


def test_commands_on_a_fresh_and_on_a_filled_database(db_url):
    with pytest.raises(ReelforgeError, match="run reelforge db upgrade"):
        commands.ledger_check(db_url)
    assert commands.db_upgrade(db_url) == head()
    assert commands.ledger_check(db_url) == ([], {
        "accounts": 0, "entries": 0, "open_rounds": 0, "held_stakes_minor": {},
        "rounds": dict.fromkeys(("open", "debited", "outcome_committed", "credited", "closed",
                                 "cancelled"), 0)})
    assert commands.audit_verify(db_url) == []
    engine = make_engine(db_url)
    try:
        fill_audit(engine, rows=6)
        with engine.begin() as conn:
            conn.execute(update(audit_log).where(row_of("player:1", 2)).values(kind="edited"))
    finally:
        engine.dispose()
    (problem,) = commands.audit_verify(db_url)
    assert named(problem, "'player:1'") and named(problem, "seq 2")


def test_a_game_key_given_twice_is_refused(tmp_path):
    """Two games of one operator under one key: the second could never be played (every
    request finds the first), so the configuration is refused, naming the key."""
    from reelforge.server.settings import load_settings

    key = tmp_path / "launch.key"
    key.write_text("k" * 64)
    game = '[[operators.games]]\nkey = "cluedo"\ngame_id = "{}"\n'
    config = tmp_path / "operators.toml"
    config.write_text(f'[[operators]]\nid = "op"\ncurrency = "EUR"\nsecret_file = "{key}"\n'
                      + game.format("cluedo-v1") + game.format("cluedo-94-v1"))
    with pytest.raises(InvalidArgument) as refused:
        load_settings(config, tmp_path)
    assert "operators[0].games: key 'cluedo' is given 2 times" in str(refused.value)
    config.write_text(config.read_text().replace('key = "cluedo"\ngame_id = "cluedo-94-v1"',
                                                 'key = "cluedo-94"\ngame_id = "cluedo-94-v1"'))
    assert [g.key for g in load_settings(config, tmp_path).operators[0].games] == [
        "cluedo", "cluedo-94"]


@pytest.mark.parametrize("value, accepted", [
    (30, 30), (1, 1), (86_400, 86_400), (0, None), (-5, None), (86_401, None), (2.5, None),
    ("30", None), (True, None)])
def test_choice_timeout_setting(tmp_path, value, accepted):
    """`choice_timeout_s` (a held win collected after that long without input) is whole
    seconds in 1..86400; anything else is refused naming the operator's game and the value."""
    from reelforge.server.services.catalog import served_game
    from reelforge.server.settings import load_settings

    key = tmp_path / "launch.key"
    key.write_text("k" * 64)
    config = tmp_path / "operators.toml"
    config.write_text(f'[[operators]]\nid = "op"\ncurrency = "EUR"\nsecret_file = "{key}"\n'
                      '[[operators.games]]\nkey = "cluedo"\ngame_id = "cluedo-v1"\n'
                      f'choice_timeout_s = {value!r}\n'.replace("'", '"').replace(
                          "True", "true"))
    if accepted is None:
        with pytest.raises(InvalidArgument) as refused:
            load_settings(config, tmp_path)
        assert "operators[0].games[0].choice_timeout_s" in str(refused.value)
        return
    operator = load_settings(config, tmp_path).operators[0]
    assert operator.games[0].choice_timeout_s == accepted
    assert served_game(operator, "cluedo").describe(None)["choice_timeout_ms"] == accepted * 1000
