"""The writer of bets: a list of drawn bets, each decided on its own (`decide_bet`) on the
state read under its player's lock, all applied in one transaction. A single request is a
batch of one; the process's writer thread (`round_batch.py`) batches many.

The players and their accounts are locked in id order (so two processes' batches, or a batch
and a single round, never deadlock), their rounds read in one statement, then every round
row, ledger entry, balance, pace mark and audit row written in bulk.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection, bindparam, or_, select

from reelforge.server.context import Context
from reelforge.server.db import bulk
from reelforge.server.db.tables import OPEN_STATUSES, accounts, players, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, ledger
from reelforge.server.services.bet_decision import BetDecision, PlayerState, decide_bet
from reelforge.server.services.common import crash_point, new_round_id
from reelforge.server.services.placement import Placement
from reelforge.server.services.round_views import view_of
from reelforge.server.services.sessions import Auth, house_account, player_account

AGAIN = object()  # "this request id was played": its stored round is the answer


@dataclass(frozen=True)
class Written:
    """A committed round as the batch left it: its row, outcome and the player's balance."""

    row: Any
    outcome: dict
    balance: int

    def view(self, auth: Auth) -> dict:
        return view_of(auth, self.row, (), self.balance, None, self.outcome)


def commit(ctx: Context, batch: list[Placement]) -> list[Any]:
    """Decide and write every placement of `batch` (ledger-wallet bets outside the jackpot
    pool: `Placement.batchable`) in one transaction; each one's result: Written, an ApiError,
    or AGAIN."""
    results: list[Any] = [AGAIN] * len(batch)
    decided: list[tuple[int, BetDecision]] = []
    with ctx.begin() as conn:
        mine = [(player_account(conn, p.auth.operator, p.auth.player_id),
                 house_account(conn, p.auth.operator, p.auth.player_id)) for p in batch]
        pids = sorted({p.auth.player_id for p in batch})
        last = dict(conn.execute(_LOCK_PLAYERS, {"pids": pids}).all())
        balances = dict(conn.execute(_LOCK_ACCOUNTS, {"ids": sorted({a for pair in mine
                                                                      for a in pair})}
                                     ).all())
        known = conn.execute(_SAME_OR_OPEN, {"pids": pids, "rids": sorted(
            {p.request_id for p in batch})}).all()
        played = {(r.player_id, r.request_id) for r in known}
        unfinished: dict[int, list] = defaultdict(list)
        for r in known:
            if r.status in OPEN_STATUSES:
                unfinished[r.player_id].append(r)
        running = dict(balances)
        for i, (p, (account, house)) in enumerate(zip(batch, mine, strict=True)):
            pid = p.auth.player_id
            if (pid, p.request_id) in played:
                continue  # AGAIN: the stored round is the answer
            state = PlayerState(running[account], last[pid], tuple(unfinished[pid]))
            try:
                decision = decide_bet(p, state, new_round_id(), account, house)
            except ApiError as exc:
                results[i] = exc
                continue
            played.add((pid, p.request_id))
            for m in decision.moves:
                running[m.source] -= m.amount
                running[m.target] += m.amount
            last[pid] = p.now
            if decision.transition.status in OPEN_STATUSES:
                unfinished[pid].append(SimpleNamespace(**decision.row))
            decided.append((i, decision))
        apply(conn, [d for _, d in decided], balances)
        crash_point("round.before_commit")
    crash_point("round.after_commit")
    for i, d in decided:
        results[i] = Written(SimpleNamespace(**d.row), d.outcome, d.balance_after)
    return results


def apply(conn: Connection, decisions: list[BetDecision], balances: dict[int, int]) -> None:
    """Write `decisions` in the caller's transaction, in a handful of statements however many:
    their rounds, ledger moves (on accounts locked with their `balances`), pace marks and
    audit rows."""
    if not decisions:
        return
    bulk.insert_rows(conn, rounds, [d.row for d in decisions])
    ledger.post_locked(conn, [m for d in decisions for m in d.moves], balances)
    paced = {d.row["player_id"]: d.row["created_at"] for d in decisions}
    bulk.update_rows(conn, players, "id", [{"id": pid, "last_round_at": at}
                                           for pid, at in sorted(paced.items())])
    audit.append_many(conn, [d.audit for d in decisions])


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
