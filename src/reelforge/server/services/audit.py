"""The audit log: append-only, hash-chained per chain (a player, a jackpot pool, an operator).

Each row's hash covers the previous row's hash of its chain and its own content, and
audit_heads holds each chain's last (seq, hash). An edited row no longer matches its hash, a
deleted or inserted row breaks the seq numbering or the prev_hash links, and a deleted last row
leaves the head pointing past the chain's end: `verify` names each.

Rows are written inside the transaction of the change they record, so the log holds exactly the
committed changes: a rolled-back round leaves no audit row, a committed one always has its row.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, func, select

from reelforge.server.db import bulk
from reelforge.server.db.tables import audit_heads, audit_log, round_steps, rounds
from reelforge.server.services.common import dumps

GENESIS = "0" * 64
# Rows fetched per round trip while verifying: the log grows without bound, memory must not.
STREAM_BATCH = 1000


def row_hash(prev_hash: str, chain: str, seq: int, kind: str, payload: Any,
             created_at: int) -> str:
    record = {"chain": chain, "seq": seq, "kind": kind, "payload": payload,
              "created_at": created_at}
    return hashlib.sha256((prev_hash + dumps(record)).encode()).hexdigest()


def append(conn: Connection, chain: str, kind: str, payload: dict[str, Any], now_us: int) -> str:
    """Append a row to `chain` within the caller's transaction (never commits); its hash.

    The head row is read FOR UPDATE, so on PostgreSQL two appends to one chain queue on it (on
    SQLite the whole database is locked from BEGIN IMMEDIATE). A chain's very first append has
    no head row to lock: two concurrent first appends both try seq 1, the unique (chain, seq)
    constraint fails the second, and its caller's transaction rolls back. That is acceptable:
    a chain starts once, with the creation of what it audits, which is itself unique.
    """
    return append_many(conn, [(chain, kind, payload, now_us)])[0]


def append_many(conn: Connection, entries: Sequence[tuple[str, str, dict[str, Any], int]]
                ) -> list[str]:
    """Append (chain, kind, payload, now_us) rows in order, any number of chains, in three
    statements whatever their number (heads locked in chain order, rows, heads); their hashes."""
    chains = sorted({chain for chain, _, _, _ in entries})
    heads = {h.chain: (h.seq, h.hash) for h in conn.execute(_HEADS, {"chains": chains})}
    fresh = {chain for chain in chains if chain not in heads}
    rows, digests = [], []
    for chain, kind, payload, now_us in entries:
        seq, prev = heads.get(chain, (0, GENESIS))
        digest = row_hash(prev, chain, seq + 1, kind, payload, now_us)
        rows.append(dict(chain=chain, seq=seq + 1, kind=kind, payload=dumps(payload),
                         created_at=now_us, prev_hash=prev, hash=digest))
        heads[chain] = (seq + 1, digest)
        digests.append(digest)
    bulk.insert_rows(conn, audit_log, rows)
    bulk.insert_rows(conn, audit_heads, [dict(chain=c, seq=heads[c][0], hash=heads[c][1])
                                         for c in chains if c in fresh])
    bulk.update_rows(conn, audit_heads, "chain", [dict(chain=c, seq=heads[c][0],
                                                       hash=heads[c][1])
                                                  for c in chains if c not in fresh])
    return digests


# Built once: every round appends.
_HEADS = (select(audit_heads.c.chain, audit_heads.c.seq, audit_heads.c.hash)
          .where(audit_heads.c.chain.in_(bindparam("chains", expanding=True)))
          .order_by(audit_heads.c.chain).with_for_update())


def step_digest(kind: str, choice: str, seed: str, result: str) -> str:
    """What a step's audit row says of its stored row (its choice, seed and result, money
    included, as stored: `choice` and `result` are the JSON texts of the row): an edit of the
    step shows against the chain."""
    return hashlib.sha256(dumps([kind, choice, seed, result]).encode()).hexdigest()


class _Money:
    """What the chain says of the money columns: each round's last audited win_minor, each
    step's digest. Kept while the log streams by."""

    def __init__(self) -> None:
        self.wins: dict[str, int | None] = {}
        self.steps: dict[tuple[str, int], str] = {}

    def note(self, payload: Any) -> None:
        if not isinstance(payload, dict) or not isinstance(payload.get("round_id"), str):
            return
        if payload.get("win_minor") is not None:
            self.wins[payload["round_id"]] = payload["win_minor"]
        if "digest" in payload and isinstance(payload.get("step"), int):
            self.steps[(payload["round_id"], payload["step"])] = payload["digest"]


def verify(conn: Connection) -> list[str]:
    """Every problem in the audit log, one sentence each naming chain and seq, then every
    round whose win or step differs from what the chain recorded; [] if intact."""
    money = _Money()
    return _row_problems(conn, money) + _head_problems(conn) + _money_problems(conn, money)


def _money_problems(conn: Connection, money: _Money) -> list[str]:
    problems: list[str] = []
    for row in conn.execute(select(rounds.c.id, rounds.c.win_minor).order_by(rounds.c.id)
                            .execution_options(yield_per=STREAM_BATCH)):
        audited = money.wins.get(row.id)
        if row.win_minor != audited:
            problems.append(f"round {row.id!r}: win_minor {row.win_minor}, but the audit chain "
                            f"recorded {audited} (the round was edited)")
    steps = select(round_steps.c.round_id, round_steps.c.idx, round_steps.c.kind,
                   round_steps.c.choice, round_steps.c.seed, round_steps.c.result)
    for step in conn.execute(steps.order_by(round_steps.c.round_id, round_steps.c.idx)
                             .execution_options(yield_per=STREAM_BATCH)):
        audited_step = money.steps.get((step.round_id, step.idx))
        if audited_step is None:
            continue  # a step audited before digests were (it has nothing to compare)
        if step_digest(step.kind, step.choice, step.seed, step.result) != audited_step:
            problems.append(f"round {step.round_id!r} step {step.idx}: its stored choice, seed "
                            f"or result differs from what the audit chain recorded (the step "
                            f"was edited)")
    return problems


def _row_problems(conn: Connection, money: _Money) -> list[str]:
    problems: list[str] = []
    rows = conn.execute(
        select(audit_log.c.chain, audit_log.c.seq, audit_log.c.kind, audit_log.c.payload,
               audit_log.c.created_at, audit_log.c.prev_hash, audit_log.c.hash)
        .order_by(audit_log.c.chain, audit_log.c.seq)
        # A server-side cursor on PostgreSQL; sqlite3 fetches lazily anyway.
        .execution_options(yield_per=STREAM_BATCH)
    )
    chain: str | None = None
    last_seq, last_hash = 0, GENESIS
    for row in rows:
        # Only equality of chain names is used, never their order: the database's collation
        # may sort them differently from Python.
        if row.chain != chain:
            chain, last_seq, last_hash = row.chain, 0, GENESIS
        problems.extend(_check_row(row, last_seq, last_hash, money))
        last_seq, last_hash = row.seq, row.hash
    return problems


def _check_row(row: Any, last_seq: int, last_hash: str, money: _Money) -> Iterable[str]:
    where = f"audit chain {row.chain!r} seq {row.seq}"
    if row.seq != last_seq + 1:
        missing = (f"seq {last_seq + 1} is" if row.seq == last_seq + 2
                   else f"seq {last_seq + 1} to {row.seq - 1} are")
        yield (f"{where}: {missing} missing before it (rows deleted, or this one inserted "
               f"out of order)")
    elif row.prev_hash != last_hash:
        # After a gap the missing row's hash is unknown: the gap itself is the finding.
        before = "the genesis hash" if last_seq == 0 else f"the hash of seq {last_seq}"
        yield (f"{where}: its prev_hash {row.prev_hash[:12]}... is not {before} "
               f"{last_hash[:12]}... (a row before it was replaced or inserted)")
    try:
        payload = json.loads(row.payload)
    except ValueError:
        yield f"{where}: its payload is not JSON (the row was edited)"
        return
    money.note(payload)
    expected = row_hash(row.prev_hash, row.chain, row.seq, row.kind, payload, row.created_at)
    if expected != row.hash:
        yield f"{where}: its hash does not match its content (the row was edited)"


def _head_problems(conn: Connection) -> list[str]:
    problems: list[str] = []
    last = (select(audit_log.c.chain, func.max(audit_log.c.seq).label("seq"))
            .group_by(audit_log.c.chain).subquery("last"))
    tail = audit_log.alias("tail")
    heads = conn.execute(
        select(audit_heads.c.chain, audit_heads.c.seq, audit_heads.c.hash,
               last.c.seq.label("last_seq"), tail.c.hash.label("last_hash"))
        .select_from(audit_heads
                     .outerjoin(last, last.c.chain == audit_heads.c.chain)
                     .outerjoin(tail, (tail.c.chain == last.c.chain)
                                & (tail.c.seq == last.c.seq)))
        .execution_options(yield_per=STREAM_BATCH)
    )
    for head in heads:
        where = f"audit chain {head.chain!r} seq {head.seq}"
        if head.last_seq is None:
            problems.append(f"{where}: the head names this row but the chain has no rows "
                            f"(all deleted)")
        elif head.last_seq != head.seq:
            problems.append(f"{where}: the head names this row but the chain's last row is "
                            f"seq {head.last_seq} (rows deleted at its end or appended "
                            f"past the head)")
        elif head.last_hash != head.hash:
            problems.append(f"{where}: the head's hash is not this row's hash (the last row "
                            f"was replaced)")
    orphans = conn.execute(
        select(last.c.chain, last.c.seq)
        .where(~select(audit_heads.c.chain).where(audit_heads.c.chain == last.c.chain)
               .exists())
        .execution_options(yield_per=STREAM_BATCH)
    )
    for chain, seq in orphans:
        problems.append(f"audit chain {chain!r} seq {seq}: the chain has rows up to here but "
                        f"no head (its head row was deleted)")
    return problems
