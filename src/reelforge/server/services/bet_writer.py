"""The writer of bets: a list of drawn bets, each decided on its own (`decide_bet`) on the
state read under its player's lock, all applied in one transaction. A single request is a
batch of one; the process's writer thread (`round_batch.py`) batches many. Every bet of the
ledger wallet, in or out of the jackpot pool, is written by `commit`; a seamless wallet's
round by `apply` too (wallets/rounds.py: its funding differs, not its writing).

The players, their accounts and the jackpot pools are locked in that order (`lock`: so two
processes' batches, or a batch and a single round, never deadlock), their rounds read in one
statement, then every round row, ledger entry, balance, pool, pace mark and audit row written
in bulk.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection, bindparam, or_, select, update

from reelforge.server.context import Context
from reelforge.server.db import bulk
from reelforge.server.db.tables import (
    OPEN_STATUSES,
    accounts,
    outbox,
    players,
    round_steps,
    rounds,
)
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, jackpot, ledger, meter_rows
from reelforge.server.services.bet_checks import touches_pool
from reelforge.server.services.bet_decision import (
    BetDecision,
    LedgerFunding,
    PlayerState,
    decide_bet,
)
from reelforge.server.services.common import crash_point, dumps, loads, new_round_id
from reelforge.server.services.jackpot import PoolState
from reelforge.server.services.placement import Placement
from reelforge.server.services.round_views import view_of
from reelforge.server.services.sessions import Auth, house_account, player_account
from reelforge.server.services.step_decision import StepDecision
from reelforge.server.wallets.outbox import mark

AGAIN = object()  # "this request id was played": its stored round is the answer


@dataclass(frozen=True)
class Written:
    """A committed round as the batch left it: its row, outcome, the player's balance and the
    jackpot it won, if any."""

    row: Any
    outcome: dict
    balance: int
    claim: dict | None = None

    def view(self, auth: Auth) -> dict:
        return view_of(auth, self.row, (), self.balance, self.claim, self.outcome)


def commit(ctx: Context, batch: list[Placement]) -> list[Any]:
    """Decide and write every ledger-wallet placement of `batch` in one transaction; each
    one's result: Written, an ApiError, or AGAIN."""
    results: list[Any] = [AGAIN] * len(batch)
    decided: list[tuple[int, BetDecision]] = []
    with ctx.begin() as conn:
        mine = [(player_account(conn, p.auth.operator, p.auth.player_id),
                 house_account(conn, p.auth.operator, p.auth.player_id)) for p in batch]
        pool_keys = {p.served.pool_key(): p.served.operator.currency for p in batch
                     if touches_pool(p.served, p.bet)}
        pids = sorted({p.auth.player_id for p in batch})
        last, balances, pools = lock(conn, pids, {a for pair in mine for a in pair}, pool_keys)
        known = conn.execute(_SAME_OR_OPEN, {"pids": pids, "rids": sorted(
            {p.request_id for p in batch})}).all()
        played = {(r.player_id, r.request_id) for r in known}
        unfinished: dict[int, list] = defaultdict(list)
        for r in known:
            if r.status in OPEN_STATUSES:
                unfinished[r.player_id].append(r)
        running, pools_now = dict(balances), dict(pools)
        for i, (p, (account, house)) in enumerate(zip(batch, mine, strict=True)):
            pid = p.auth.player_id
            if (pid, p.request_id) in played:
                continue  # AGAIN: the stored round is the answer
            key = p.served.pool_key() if touches_pool(p.served, p.bet) else None
            state = PlayerState(running[account], last[pid], tuple(unfinished[pid]),
                                None if key is None else pools_now[key])
            try:
                decision = decide_bet(p, state, new_round_id(), LedgerFunding(account, house))
            except ApiError as exc:
                results[i] = exc
                continue
            played.add((pid, p.request_id))
            for m in decision.moves:
                running[m.source] -= m.amount
                running[m.target] += m.amount
            if key is not None and decision.pool is not None:
                pools_now[key] = decision.pool
            last[pid] = p.now
            if decision.transition.status in OPEN_STATUSES:
                unfinished[pid].append(SimpleNamespace(**decision.row))
            decided.append((i, decision))
        claims = apply(conn, [d for _, d in decided], balances, pools)
        crash_point("round.before_commit")
    crash_point("round.after_commit")
    for (i, d), claim in zip(decided, claims, strict=True):
        results[i] = Written(SimpleNamespace(**d.row), d.outcome or {}, d.balance_after, claim)
    return results


def lock(conn: Connection, pids: list[int], account_ids: set[int], pool_keys: dict[str, str]
         ) -> tuple[dict[int, int | None], dict[int, int], dict[str, PoolState]]:
    """Lock, in this order, the players (id order), the accounts (id order: the players', the
    house shards, the pools', their liabilities and overflows) and the jackpot pools (key order; keys
    -> currency), so two processes' writers never deadlock; (each player's last round start,
    each account's balance, each pool's state)."""
    ids = set(account_ids)
    for key, currency in pool_keys.items():
        ids.update(jackpot.pool_accounts(conn, key, currency))
    last = dict(conn.execute(_LOCK_PLAYERS, {"pids": sorted(pids)}).all())
    balances = dict(conn.execute(_LOCK_ACCOUNTS, {"ids": sorted(ids)}).all())
    return last, balances, jackpot.lock_pools(conn, sorted(pool_keys))


def apply(conn: Connection, decisions: list[BetDecision], balances: dict[int, int],
          pools: dict[str, PoolState] | None = None) -> list[dict | None]:
    """Write `decisions` in the caller's transaction, in a handful of statements however many:
    their jackpot claims, rounds, ledger moves (on accounts locked with their `balances`),
    pools (locked, read as `pools`), calls owed to an operator, pace marks and audit rows.
    Each decision's claim as the round's answer shows it (None for most)."""
    if not decisions:
        return []
    claims: list[dict | None] = []
    for d in decisions:  # a pool won: its claim's id goes in the round's phase
        if d.claim is None:
            claims.append(None)
            continue
        claim_id = jackpot.insert_claim(conn, d.claim)
        d.row.update(phase=dumps({**loads(d.row["phase"]), "jackpot_claim_id": claim_id}),
                     jackpot_claim_id=claim_id)
        claims.append(d.claim.view(claim_id))
    bulk.insert_rows(conn, rounds, [d.row for d in decisions if not d.existing])
    for d in (d for d in decisions if d.existing):
        _fund_opened(conn, d.row)
    ledger.post_locked(conn, [m for d in decisions for m in d.moves], balances)
    after = {d.pool.key: d.pool for d in decisions if d.pool is not None}
    if after:
        jackpot.write_pools(conn, pools or {}, after, decisions[-1].row["updated_at"])
    bulk.insert_rows(conn, outbox, [o for d in decisions for o in d.outbox])
    for d in decisions:
        if d.debit_done is not None:
            mark(conn, d.debit_done, "done", d.row["updated_at"])
    paced = {d.row["player_id"]: d.row["created_at"] for d in decisions if not d.existing}
    bulk.update_rows(conn, players, "id", [{"id": pid, "last_round_at": at}
                                           for pid, at in sorted(paced.items())])
    audit.append_many(conn, [a for d in decisions
                             for a in ((d.claim.audit, d.audit) if d.claim else (d.audit,))])
    return claims


def apply_steps(conn: Connection, decisions: list[StepDecision], balances: dict[int, int],
                pools: dict[str, PoolState] | None = None) -> None:
    """Write step `decisions` in the caller's transaction: each round's new state, the steps'
    rows, their ledger moves (on accounts locked with their `balances`) and calls owed, the
    rounds they fund (`apply`, as bets), and their audit rows in order: each round's, the
    funded round's, the step's."""
    for d in decisions:
        conn.execute(update(rounds).where(rounds.c.id == d.round_id).values(**d.round_update))
    ledger.post_locked(conn, [m for d in decisions for m in d.moves], balances)
    for d in decisions:  # the round's house shard is locked (`lock`): meter_rows' order
        if d.gamble_meter is not None:
            meter_rows.gamble_settled(conn, d.round_id, *d.gamble_meter)
    bulk.insert_rows(conn, outbox, [o for d in decisions for o in d.outbox])
    said = [a for d in decisions for a in d.audits]
    if said:
        audit.append_many(conn, said)
    apply(conn, [d.funded for d in decisions if d.funded is not None], balances, pools)
    bulk.insert_rows(conn, round_steps, [d.step_row for d in decisions
                                         if d.step_row is not None])
    stepped = [d.step_audit for d in decisions if d.step_audit is not None]
    if stepped:
        audit.append_many(conn, stepped)


class Voided(Exception):
    """The round opened for a debit is no longer open (its debit was rolled back meanwhile):
    its funding cannot be written, and the caller's transaction rolls back."""


def _fund_opened(conn: Connection, row: dict[str, Any]) -> None:
    columns = ("status", "seed", "outcome", "phase", "win_minor", "closed_at", "updated_at",
               "jackpot_claim_id")
    moved = conn.execute(update(rounds).where(rounds.c.id == row["id"],
                                              rounds.c.status == "open")
                         .values(**{c: row[c] for c in columns})).rowcount
    if moved != 1:
        raise Voided(f"round {row['id']}: no longer open")


# Built once; locks are taken in id order (see the module's docstring).
_LOCK_PLAYERS = (select(players.c.id, players.c.last_round_at)
                 .where(players.c.id.in_(bindparam("pids", expanding=True)))
                 .order_by(players.c.id).with_for_update())
_LOCK_ACCOUNTS = (select(accounts.c.id, accounts.c.balance)
                  .where(accounts.c.id.in_(bindparam("ids", expanding=True)))
                  .order_by(accounts.c.id).with_for_update())
_SAME_OR_OPEN = (select(rounds.c.id, rounds.c.player_id, rounds.c.request_id, rounds.c.status,
                        rounds.c.game_key)
                 .where(rounds.c.player_id.in_(bindparam("pids", expanding=True)),
                        or_(rounds.c.request_id.in_(bindparam("rids", expanding=True)),
                            rounds.c.status.in_(OPEN_STATUSES))))
