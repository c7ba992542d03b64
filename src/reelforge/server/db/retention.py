"""The retention of transaction ids (standards.md J9): `reelforge retention` removes the ledger
entries and rounds older than every jurisdiction concerned requires, and never one younger.

What may go: a round closed or cancelled before its player's operator's cutoff (now less the
days its jurisdiction keeps records, policies.py), with every ledger entry of it; an entry of
no round (a demo deposit, a seed, a correction, an instalment) older than the cutoff of the
account it touches (a jackpot account: the strictest cutoff of the operators playing in its
currency). A txn goes whole or not at
all, a round likewise.

The ledger's proofs must hold afterwards (`ledger check`): every balance is the sum of its
account's entries, every entry's balance_after the running sum. So the removal is a prefix of
the ledger by entry id: it stops at the first entry that must stay, then backs off to the start
of any round or txn the prefix would cut in two. Each account's removed entries are replaced by
one "carried" entry, under the id of its last removed entry, holding their sum (its balance
then); per currency these form one txn, retention:<last id>:<currency>, which sums to zero as
the removed txns did. Balances never change. The prefix means that a round still open, or an
entry a stricter jurisdiction keeps, holds back everything after it: the report names it.

Kept regardless: the audit log (its hash chains; its rows name the removed rounds), jackpot
claims and their instalments, corrections, and rounds with no ledger entries (a seamless
wallet's, whose money moves at the operator).

Dry run by default: `--apply` removes, in one transaction, audited on the "retention" chain.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, text

from reelforge.server.db.engine import is_postgres
from reelforge.server.db.tables import (
    accounts,
    game_configs,
    ledger_entries,
    operators,
    outbox,
    players,
    round_steps,
    rounds,
)
from reelforge.server.policies import Policies
from reelforge.server.services import audit

DAY_US = 86_400 * 1_000_000
CHAIN = "retention"
FINISHED = ("closed", "cancelled")
e, a, r = ledger_entries, accounts, rounds


@dataclass
class Plan:
    """What a retention run removes (or, dry, would remove)."""

    now_us: int
    cutoffs: dict[str, int]  # operator id -> microseconds: records before it may go
    boundary: int = 0  # entries with id <= boundary go; 0: none
    entries: int = 0
    txns: int = 0
    rounds: list[str] = field(default_factory=list)
    carried: dict[str, dict[int, int]] = field(default_factory=dict)  # currency -> account -> sum
    stopped_at: str | None = None  # the first entry kept, and why

    def summary(self) -> dict[str, Any]:
        return {"boundary_entry_id": self.boundary, "entries": self.entries, "txns": self.txns,
                "rounds": len(self.rounds), "cutoffs_us": self.cutoffs,
                "stopped_at": self.stopped_at}


def cutoffs(conn: Connection, policies: Policies, now_us: int) -> dict[str, int]:
    """Per operator in the database, the time before which its records may go: now less the
    days of its jurisdiction (the longest, if its games were ever under several; an operator
    with no recorded game: the longest of all)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for op_id, jurisdiction in conn.execute(select(game_configs.c.operator_id,
                                                   game_configs.c.jurisdiction)):
        seen[op_id].add(jurisdiction)
    longest = max(policies.retention_days.values())
    found = {}
    for op_id in conn.execute(select(operators.c.id)).scalars():
        days = max((policies.days(j) for j in seen.get(op_id, ())), default=longest)
        found[op_id] = now_us - days * DAY_US
    return found


def plan(conn: Connection, policies: Policies, now_us: int) -> Plan:
    """What may go now: the longest prefix of the ledger that is all past its cutoffs and cuts
    no round or txn in two."""
    found = Plan(now_us, cutoffs(conn, policies, now_us))
    strictest = min(found.cutoffs.values(), default=now_us - max(
        policies.retention_days.values()) * DAY_US)
    by_currency: dict[str, int] = {}
    for op_id, currency in conn.execute(select(game_configs.c.operator_id,
                                               game_configs.c.currency)):
        cutoff = found.cutoffs.get(op_id, strictest)
        by_currency[currency] = min(cutoff, by_currency.get(currency, cutoff))
    operator_of: dict[int, str] = {}

    def player_operator(player_id: int) -> str | None:
        if player_id not in operator_of:
            operator_of[player_id] = conn.execute(select(players.c.operator_id).where(
                players.c.id == player_id)).scalar_one()
        return operator_of[player_id]

    def cutoff_of_account(kind: str, owner: str, currency: str) -> int:
        if kind == "player":
            return found.cutoffs.get(player_operator(int(owner)) or "", strictest)
        if kind == "house":
            return found.cutoffs.get(owner.split("#", 1)[0], strictest)
        # a jackpot's accounts serve every operator playing in its currency
        return by_currency.get(currency, strictest)

    query = (select(e.c.id, e.c.txn, e.c.round_id, e.c.created_at, a.c.kind, a.c.owner,
                    a.c.currency, r.c.status, r.c.closed_at, r.c.updated_at, r.c.player_id)
             .select_from(e.join(a, a.c.id == e.c.account_id)
                          .outerjoin(r, r.c.id == e.c.round_id))
             .order_by(e.c.id).execution_options(yield_per=1000))
    boundary = 0
    for row in conn.execute(query):
        why = None
        if row.round_id is not None and row.status is not None:
            ended = row.closed_at if row.closed_at is not None else row.updated_at
            cutoff = found.cutoffs.get(player_operator(row.player_id) or "", strictest)
            if row.status not in FINISHED:
                why = f"round {row.round_id!r} is still {row.status}"
            elif ended >= cutoff:
                why = f"round {row.round_id!r} ended within its jurisdiction's retention"
        elif row.created_at >= cutoff_of_account(row.kind, row.owner, row.currency):
            why = f"txn {row.txn!r} is within its jurisdiction's retention"
        if why is not None:
            found.stopped_at = f"entry {row.id}: {why}"
            break
        boundary = row.id
    found.boundary = _uncut(conn, boundary)
    if found.boundary == 0:
        return found
    gone = e.c.id <= found.boundary
    found.entries = conn.scalar(select(func.count()).select_from(e).where(gone)) or 0
    found.txns = conn.scalar(select(func.count(func.distinct(e.c.txn))).where(gone)) or 0
    found.rounds = list(conn.execute(select(e.c.round_id).where(gone, e.c.round_id.is_not(None))
                                     .distinct().order_by(e.c.round_id)).scalars())
    sums = conn.execute(select(a.c.currency, e.c.account_id, func.sum(e.c.amount))
                        .select_from(e.join(a, a.c.id == e.c.account_id)).where(gone)
                        .group_by(a.c.currency, e.c.account_id)).all()
    for currency, account, total in sums:
        if total:
            found.carried.setdefault(currency, {})[account] = int(total)
    return found


def _uncut(conn: Connection, boundary: int) -> int:
    """The boundary lowered until no round and no txn has entries on both sides of it."""
    while boundary > 0:
        later = e.alias("later")
        lowest = None
        for column in (e.c.round_id, e.c.txn):
            other = later.c.round_id if column is e.c.round_id else later.c.txn
            straddling = select(func.min(e.c.id)).where(
                e.c.id <= boundary, column.is_not(None),
                column.in_(select(other).where(later.c.id > boundary)))
            first = conn.scalar(straddling)
            if first is not None:
                lowest = first if lowest is None else min(lowest, first)
        if lowest is None:
            return boundary
        boundary = lowest - 1
    return 0


def apply(conn: Connection, found: Plan) -> None:
    """Remove what `found` lists, in the caller's transaction (which has locked the ledger)."""
    if found.boundary == 0:
        return
    gone = e.c.id <= found.boundary
    last = {row.account_id: row for row in conn.execute(
        select(e.c.account_id, func.max(e.c.id).label("id"),
               func.max(e.c.created_at).label("created_at")).where(gone)
        .group_by(e.c.account_id))}
    conn.execute(delete(e).where(gone))
    for currency, moved in sorted(found.carried.items()):
        txn = f"retention:{found.boundary}:{currency}"
        conn.execute(insert(e), [
            dict(id=last[account].id, txn=txn, account_id=account, amount=total,
                 balance_after=total, kind="carried", round_id=None, step=None,
                 created_at=last[account].created_at)
            for account, total in sorted(moved.items())])
    for start in range(0, len(found.rounds), 500):
        chunk = found.rounds[start:start + 500]
        conn.execute(delete(round_steps).where(round_steps.c.round_id.in_(chunk)))
        conn.execute(delete(outbox).where(outbox.c.round_id.in_(chunk)))
        conn.execute(delete(rounds).where(rounds.c.id.in_(chunk)))
    audit.append(conn, CHAIN, "retention.applied",
                 {**found.summary(), "first_round": found.rounds[0] if found.rounds else None,
                  "last_round": found.rounds[-1] if found.rounds else None,
                  "carried": {c: {str(k): v for k, v in m.items()}
                              for c, m in found.carried.items()}}, found.now_us)


def run(conn: Connection, policies: Policies, now_us: int, remove: bool) -> Plan:
    """Plan, and with `remove` apply, in the caller's write transaction."""
    if remove and is_postgres(conn.engine):
        # No entry may commit under an id below the boundary while it is drawn: writers wait.
        conn.execute(text("LOCK TABLE ledger_entries IN EXCLUSIVE MODE"))
    found = plan(conn, policies, now_us)
    if remove:
        apply(conn, found)
    return found
