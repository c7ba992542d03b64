"""The double-entry ledger: accounts and transfers in integer minor units.

Every movement is one `transfer`: two entries of one txn (out of one account, into another)
with each account's balance after it, in the caller's transaction. The database refuses a
player, jackpot pool or liability balance below zero (a CHECK constraint), so a transfer that
would overdraw raises `Overdrawn` and the caller's whole transaction rolls back.

The house is split into `HOUSE_SHARDS` accounts per operator and currency, picked by player:
every round moves money with the house, and one house row would serialize every round of every
player on PostgreSQL (a row lock held to commit). The shards sum to the house's result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from reelforge.server.db import bulk
from reelforge.server.db.tables import accounts, ledger_entries
from reelforge.server.services import meter_rows

HOUSE_SHARDS = 16
assert meter_rows.SHARDS == HOUSE_SHARDS  # the meters are sharded as the house is


class Overdrawn(Exception):
    """A transfer would take an account below zero; the database refused it."""


def house_owner(operator_id: str, player_id: int) -> str:
    return f"{operator_id}#{player_id % HOUSE_SHARDS}"


# Account ids never change once committed: remembered per process, they save a SELECT per
# account per request. Only ids this connection did not insert itself are remembered (an
# insert may still roll back); a database is one per process, as the server runs.
_ids: dict[tuple[str, str, str, str], int] = {}
_kinds: dict[tuple[str, int], str] = {}  # (database, account id) -> kind, remembered alike


def account_id(conn: Connection, kind: str, owner: str, currency: str) -> int:
    """The account's id, created with a zero balance on first use."""
    key = (str(conn.engine.url), kind, owner, currency)
    known = _ids.get(key)
    if known is not None:
        return known
    found = conn.execute(select(accounts.c.id).where(
        accounts.c.kind == kind, accounts.c.owner == owner, accounts.c.currency == currency)
    ).scalar_one_or_none()
    # Per transaction, not per connection: once the inserting transaction has ended, its ids
    # are committed (or gone) and may be remembered; the set stays one transaction's size.
    txn = conn.get_transaction()
    held = conn.info.get("inserted_accounts")
    if held is None or held[0] is not txn:
        held = conn.info["inserted_accounts"] = (txn, set())
    mine: set[tuple[str, str, str, str]] = held[1]
    if found is not None:
        if key not in mine:
            _ids[key] = found
            _kinds[(key[0], found)] = kind
        return found
    mine.add(key)
    return conn.execute(insert(accounts).values(kind=kind, owner=owner, currency=currency,
                                                balance=0).returning(accounts.c.id)).scalar_one()


def house_ids(conn: Connection, ids: set[int]) -> set[int]:
    """Which of the accounts `ids` are house accounts (the kinds of accounts remembered as
    their ids are, by `account_id`; the others read)."""
    url = str(conn.engine.url)
    unknown = sorted(i for i in ids if (url, i) not in _kinds)
    kinds = {i: _kinds[(url, i)] for i in ids if (url, i) in _kinds}
    if unknown:
        kinds.update(conn.execute(select(accounts.c.id, accounts.c.kind)
                                  .where(accounts.c.id.in_(unknown))).tuples().all())
    return {i for i, kind in kinds.items() if kind == "house"}


def lock_balance(conn: Connection, account: int) -> int:
    """The balance, with the row locked to the end of the transaction (PostgreSQL; SQLite's
    BEGIN IMMEDIATE already holds the database's write lock)."""
    return conn.execute(select(accounts.c.balance).where(accounts.c.id == account)
                        .with_for_update()).scalar_one()


def balance(conn: Connection, account: int) -> int:
    return conn.execute(select(accounts.c.balance).where(accounts.c.id == account)).scalar_one()


def transfer(conn: Connection, *, txn: str, source: int, target: int, amount: int, kind: str,
             now: int, round_id: str | None = None, step: int | None = None) -> tuple[int, int]:
    """Move `amount` minor units from `source` to `target`; returns both balances after.
    Zero moves nothing and writes nothing."""
    if type(amount) is not int or amount < 0:
        raise ValueError(f"transfer {txn}: amount {amount!r} must be a whole number >= 0")
    if amount == 0:
        return balance(conn, source), balance(conn, target)
    try:
        after_source = _add(conn, source, -amount)
    except IntegrityError:
        raise Overdrawn(f"transfer {txn}: account {source} cannot pay {amount}") from None
    after_target = _add(conn, target, amount)
    conn.execute(insert(ledger_entries), [
        dict(txn=txn, account_id=source, amount=-amount, balance_after=after_source, kind=kind,
             round_id=round_id, step=step, created_at=now),
        dict(txn=txn, account_id=target, amount=amount, balance_after=after_target, kind=kind,
             round_id=round_id, step=step, created_at=now)])
    if round_id is not None:  # the back office's meters, in this same transaction
        meter_rows.record_moves(conn, [Move(txn, source, target, amount, kind, now, round_id,
                                            step)], house_ids(conn, {source, target}))
    return after_source, after_target


def _add(conn: Connection, account: int, delta: int) -> int:
    return conn.execute(update(accounts).where(accounts.c.id == account)
                        .values(balance=accounts.c.balance + delta)
                        .returning(accounts.c.balance)).scalar_one()


@dataclass(frozen=True)
class Move:
    """One transfer for `post_locked`: `amount` (> 0) minor units from `source` to `target`."""

    txn: str
    source: int
    target: int
    amount: int
    kind: str
    now: int
    round_id: str | None = None
    step: int | None = None


def post_locked(conn: Connection, moves: Sequence[Move], balances: dict[int, int]) -> None:
    """Write `moves` in order: the same two entries per move as `transfer`, in one UPDATE per
    account and one INSERT of every entry, however many moves. Only for accounts the caller
    has locked in this transaction and whose balances it read under that lock (`balances`,
    updated in place); the database's CHECK still refuses an overdrawn final balance."""
    entries: list[dict] = []
    for m in moves:
        if type(m.amount) is not int or m.amount <= 0:
            raise ValueError(f"move {m.txn}: amount {m.amount!r} must be a whole number > 0")
        balances[m.source] -= m.amount
        balances[m.target] += m.amount
        for account, amount in ((m.source, -m.amount), (m.target, m.amount)):
            entries.append(dict(txn=m.txn, account_id=account, amount=amount,
                                balance_after=balances[account], kind=m.kind,
                                round_id=m.round_id, step=m.step, created_at=m.now))
    if not entries:
        return
    touched = sorted({e["account_id"] for e in entries})
    try:
        bulk.update_rows(conn, accounts, "id", [{"id": a, "balance": balances[a]}
                                                for a in touched])
    except IntegrityError:
        raise Overdrawn(f"moves {moves[0].txn}..: an account would go below zero") from None
    bulk.insert_rows(conn, ledger_entries, entries)
    rounds_ = [m for m in moves if m.round_id is not None]
    if rounds_:  # the back office's meters, in this same transaction
        meter_rows.record_moves(conn, rounds_, house_ids(conn, {a for m in rounds_
                                                               for a in (m.source, m.target)}))
