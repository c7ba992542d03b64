"""The writer of money: a list of drawn bets and players' steps, each decided on its own
(`decide_bet`, `decide_step`) on the state read under its player's lock, all applied in one
transaction (`apply`). A single request is a batch of one; the process's writer thread
(`round_batch.py`) batches many. Every bet of the ledger wallet, in or out of the jackpot
pool, and every step is written by `commit`; a seamless wallet's round by `apply` too
(wallets/rounds.py: its funding differs, not its writing).

The players, their accounts and the jackpot pools are locked in that order (`lock`: so two
processes' batches, or a batch and a single round, never deadlock), the bets' rounds read in
one statement and each step's round with its steps, then every round row, step row, ledger
entry, balance, pool, pace mark and audit row written in bulk.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection, bindparam, or_, select, update

from reelforge.engine.outcome import Outcome
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
    Funding,
    LedgerFunding,
    PlayerState,
    SeamlessFunding,
    decide_bet,
)
from reelforge.server.services.catalog import ServedGame
from reelforge.server.services.common import crash_point, dumps, loads, new_round_id
from reelforge.server.services.jackpot import PoolState
from reelforge.server.services.placement import Placement
from reelforge.server.services.round_rows import find_round
from reelforge.server.services.round_views import served_for_round, view_of
from reelforge.server.services.sessions import Auth, house_account, player_account
from reelforge.server.services.step_decision import (
    StepDecision,
    StepPlacement,
    StepState,
    decide_step,
    on_balance,
    opens_choice,
)
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


def commit(ctx: Context, batch: Sequence[Placement | StepPlacement]) -> list[Any]:
    """Decide and write every bet and step of `batch` in one transaction; each one's result:
    a bet's Written, a step's Stepped, an ApiError (a refusal: nothing of it is written, but
    for a step whose offers lapsed, which closes its round), or AGAIN (play it alone: a bet's
    request id already played, or an item held back by `_admitted`). Bets are the ledger
    wallet's; a step may be a seamless wallet's (its funding differs, not its writing)."""
    results: list[Any] = [AGAIN] * len(batch)
    taken = _admitted(batch)
    alone = len(taken) == 1
    written: list[tuple[int, BetDecision | StepDecision]] = []
    with ctx.begin() as conn:
        last = dict(conn.execute(_LOCK_PLAYERS, {"pids": sorted(
            {batch[i].auth.player_id for i in taken})}).all())
        held = _read_steps(conn, batch, taken, results, alone)
        live = [i for i in taken if isinstance(batch[i], Placement) or i in held]
        house = {i: house_account(conn, batch[i].auth.operator, batch[i].auth.player_id)
                 for i in live}
        own = {i: player_account(conn, batch[i].auth.operator, batch[i].auth.player_id)
               for i in live if batch[i].auth.operator.wallet == "ledger"}
        pool_keys = {h.pool_key: h.served.operator.currency for h in held.values()
                     if h.pool_key is not None}
        for i in live:
            p = batch[i]
            if isinstance(p, Placement) and touches_pool(p.served, p.bet):
                pool_keys[p.served.pool_key()] = p.served.operator.currency
        balances, pools = _lock_money(conn, set(house.values()) | set(own.values()), pool_keys)
        bettors = sorted({batch[i].auth.player_id for i in live
                          if isinstance(batch[i], Placement)})
        known = conn.execute(_SAME_OR_OPEN, {"pids": bettors, "rids": sorted(
            {p.request_id for p in batch if isinstance(p, Placement)})}).all() if bettors else []
        played = {(r.player_id, r.request_id) for r in known}
        unfinished: dict[int, list] = defaultdict(list)
        for r in known:
            if r.status in OPEN_STATUSES:
                unfinished[r.player_id].append(r)
        running, pools_now = dict(balances), dict(pools)
        for i in live:
            p = batch[i]
            pid = p.auth.player_id
            decision: BetDecision | StepDecision
            if isinstance(p, Placement):
                if (pid, p.request_id) in played:
                    continue  # AGAIN: the stored round is the answer
                key = p.served.pool_key() if touches_pool(p.served, p.bet) else None
                state = PlayerState(running[own[i]], last[pid], tuple(unfinished[pid]),
                                    None if key is None else pools_now[key])
                try:
                    decision = decide_bet(p, state, new_round_id(),
                                          LedgerFunding(own[i], house[i]))
                except ApiError as exc:
                    results[i] = exc
                    continue
                played.add((pid, p.request_id))
                if decision.transition.status in OPEN_STATUSES:
                    unfinished[pid].append(SimpleNamespace(**decision.row))
                rounds_ = [decision]
                moved: list[BetDecision | StepDecision] = [decision]
            else:
                h = held[i]
                funding: Funding = (LedgerFunding(own[i], house[i]) if i in own
                                    else SeamlessFunding(p.auth, h.row.game_key, house[i]))
                step_state = StepState(h.row, h.steps, running[own[i]] if i in own else 0,
                                       last[pid], h.carried,
                                       None if h.pool_key is None else pools_now[h.pool_key])
                try:
                    decision = decide_step(h.served, p.auth, step_state, p.req, funding)
                except ApiError as exc:
                    results[i] = exc
                    continue
                rounds_ = [] if decision.funded is None else [decision.funded]
                moved = [decision, *rounds_]
            for m in (m for d in moved for m in d.moves):
                running[m.source] -= m.amount
                running[m.target] += m.amount
            for d in rounds_:
                if d.pool is not None:
                    pools_now[d.pool.key] = d.pool
                last[pid] = d.row["created_at"]
            written.append((i, decision))
        claims = apply(conn, [d for _, d in written], balances, pools)
        _crash(batch, taken, "before_commit")
    _crash(batch, taken, "after_commit")
    for (i, done), claim in zip(written, claims, strict=True):
        if isinstance(done, StepDecision):
            results[i] = done.refusal or Stepped(done.round_id)
        else:
            results[i] = Written(SimpleNamespace(**done.row), done.outcome or {}, done.balance_after,
                                 claim)
    return results


@dataclass(frozen=True)
class Stepped:
    """A step committed, or its request id played before with the same choice: the answer is
    the round as it now stands."""

    round_id: str


@dataclass(frozen=True)
class _Held:
    """A step's round read under its player's lock, and what deciding it needs."""

    row: Any
    steps: Sequence[Any]
    served: ServedGame
    carried: Any
    pool_key: str | None  # the pool a round the step funds would touch


def _admitted(batch: Sequence[Placement | StepPlacement]) -> list[int]:
    """The items this batch decides, in order. A step is its player's only item: a later item
    of a player who has a step in the batch, or a step of one who has a bet in it, is held
    back (AGAIN: played alone), since a step is decided on its round as it stood before the
    batch."""
    stepping: dict[int, bool] = {}
    taken = []
    for i, p in enumerate(batch):
        is_step = isinstance(p, StepPlacement)
        pid = p.auth.player_id
        if pid in stepping and (stepping[pid] or is_step):
            continue
        stepping[pid] = is_step
        taken.append(i)
    return taken


def _read_steps(conn: Connection, batch: Sequence[Placement | StepPlacement], taken: list[int],
                results: list[Any], alone: bool) -> dict[int, _Held]:
    """Each step's round and steps, read under its player's lock (taken): those to decide.
    A step answered here goes in `results`: an unknown round, a request id played before (the
    same choice: Stepped; another: refused). A step whose funded round would touch the
    jackpot pool is played alone (AGAIN), as such a bet is, unless the batch is its own."""
    held: dict[int, _Held] = {}
    for i in taken:
        p = batch[i]
        if not isinstance(p, StepPlacement):
            continue
        auth, req = p.auth, p.req
        try:
            row = find_round(conn, auth.player_id, p.round_id)
            served = served_for_round(auth, row)
        except ApiError as exc:
            results[i] = exc
            continue
        steps = conn.execute(select(round_steps).where(round_steps.c.round_id == row.id)
                             .order_by(round_steps.c.idx)).all()
        seen = next((s for s in steps if s.request_id == req.request_id), None)
        if seen is not None:
            results[i] = Stepped(row.id) if (seen.kind, loads(seen.choice)) == (
                req.kind, req.choice) else ApiError(
                "REQUEST_ID_REUSED", f"request id {req.request_id!r}: already used for step "
                f"{seen.idx} ({seen.kind} {loads(seen.choice)!r})")
            continue
        phase = loads(row.phase) or {}
        pool_key = None
        # a choice on the balance may fund a round, which may touch the pool
        if (row.status in OPEN_STATUSES and phase.get("offers") and on_balance(phase, steps)
                and touches_pool(served, Outcome.from_dict(loads(row.outcome)).bet.to_bet())):
            if not alone:
                continue  # AGAIN
            pool_key = served.pool_key()
        carried = (_carried(conn, auth.player_id, row.game_key, req.kind)
                   if opens_choice(phase, steps) else None)
        held[i] = _Held(row, steps, served, carried, pool_key)
    return held


def _carried(conn: Connection, player_id: int, game_key: str, kind: str) -> Any:
    """What the player's last choice of this kind in this game left for the next one (its
    settlement's `carry`: a card history on screen), or None. A step stored before carries
    were stored left its whole state, which the game reads the same way."""
    row = conn.execute(
        select(round_steps.c.result).join(rounds, rounds.c.id == round_steps.c.round_id)
        .where(rounds.c.player_id == player_id, rounds.c.game_key == game_key,
               round_steps.c.kind == kind)
        .order_by(round_steps.c.created_at.desc()).limit(1)).first()
    if row is None:
        return None
    stored = loads(row.result)
    return stored.get("carry", stored.get("state"))


def _crash(batch: Sequence[Placement | StepPlacement], taken: list[int], when: str) -> None:
    """The recovery tests' crash points: a bet's (`round.*`) where the batch holds a bet, a
    step's (`step.*`) where it holds a step."""
    kinds = {isinstance(batch[i], StepPlacement) for i in taken}
    if False in kinds:
        crash_point(f"round.{when}")
    if True in kinds:
        crash_point(f"step.{when}")


def lock(conn: Connection, pids: list[int], account_ids: set[int], pool_keys: dict[str, str]
         ) -> tuple[dict[int, int | None], dict[int, int], dict[str, PoolState]]:
    """Lock, in this order, the players (id order), the accounts (id order: the players', the
    house shards, the pools', their liabilities and overflows) and the jackpot pools (key order; keys
    -> currency), so two processes' writers never deadlock; (each player's last round start,
    each account's balance, each pool's state)."""
    last = dict(conn.execute(_LOCK_PLAYERS, {"pids": sorted(pids)}).all())
    return (last, *_lock_money(conn, account_ids, pool_keys))


def _lock_money(conn: Connection, account_ids: set[int], pool_keys: dict[str, str]
                ) -> tuple[dict[int, int], dict[str, PoolState]]:
    """The second and third of `lock`'s steps, once its players are locked."""
    ids = set(account_ids)
    for key, currency in pool_keys.items():
        ids.update(jackpot.pool_accounts(conn, key, currency))
    balances = dict(conn.execute(_LOCK_ACCOUNTS, {"ids": sorted(ids)}).all())
    return balances, jackpot.lock_pools(conn, sorted(pool_keys))


def apply(conn: Connection, decisions: Sequence[BetDecision | StepDecision],
          balances: dict[int, int], pools: dict[str, PoolState] | None = None
          ) -> list[dict | None]:
    """Write `decisions` (bets and steps, in the order they were decided) in the caller's
    transaction, in a handful of statements however many: the steps' round updates, the
    rounds (the bets' and those steps fund) with their jackpot claims, every ledger move (on
    accounts locked with their `balances`), the gamble meters, the pools (locked, read as
    `pools`), the calls owed to an operator, pace marks, the steps' rows and the audit rows
    (each chain's in order: a step's round, the round it funds, the step). Each decision's
    claim as the round's answer shows it (None for most, and for a step)."""
    if not decisions:
        return []
    steps = [d for d in decisions if isinstance(d, StepDecision)]
    bets = [b for d in decisions
            for b in ((d,) if isinstance(d, BetDecision) else (d.funded,) if d.funded else ())]
    for s in steps:
        conn.execute(update(rounds).where(rounds.c.id == s.round_id).values(**s.round_update))
    claims: dict[int, dict | None] = {}
    for d in bets:  # a pool won: its claim's id goes in the round's phase
        if d.claim is None:
            continue
        claim_id = jackpot.insert_claim(conn, d.claim)
        d.row.update(phase=dumps({**loads(d.row["phase"]), "jackpot_claim_id": claim_id}),
                     jackpot_claim_id=claim_id)
        claims[id(d)] = d.claim.view(claim_id)
    bulk.insert_rows(conn, rounds, [d.row for d in bets if not d.existing])
    for d in (d for d in bets if d.existing):
        _fund_opened(conn, d.row)
    # a step's moves before the round it funds: the order they were decided in
    ledger.post_locked(conn, [m for s in steps for m in s.moves]
                       + [m for d in bets for m in d.moves], balances)
    for s in steps:  # the round's house shard is locked (`lock`): meter_rows' order
        if s.gamble_meter is not None:
            meter_rows.gamble_settled(conn, s.round_id, *s.gamble_meter)
    after = {d.pool.key: d.pool for d in bets if d.pool is not None}
    if after:
        jackpot.write_pools(conn, pools or {}, after, bets[-1].row["updated_at"])
    bulk.insert_rows(conn, outbox, [o for s in steps for o in s.outbox]
                     + [o for d in bets for o in d.outbox])
    for d in bets:
        if d.debit_done is not None:
            mark(conn, d.debit_done, "done", d.row["updated_at"])
    paced = {d.row["player_id"]: d.row["created_at"] for d in bets if not d.existing}
    bulk.update_rows(conn, players, "id", [{"id": pid, "last_round_at": at}
                                           for pid, at in sorted(paced.items())])
    bulk.insert_rows(conn, round_steps, [s.step_row for s in steps if s.step_row is not None])
    audit.append_many(conn, [a for s in steps for a in s.audits]
                      + [a for d in bets
                         for a in ((d.claim.audit, d.audit) if d.claim else (d.audit,))]
                      + [s.step_audit for s in steps if s.step_audit is not None])
    return [claims.get(id(d)) if isinstance(d, BetDecision) else None for d in decisions]


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
