"""Group commit: the bets of many players, each decided and checked on its own, written in one
transaction by one writer thread per server process.

A round's statements, not its Python, were the cost of a bet: a dozen round trips and their
SQLAlchemy work per round, plus a commit (an fsync on SQLite). Here a batch of rounds costs
about ten statements in all: the players and their accounts locked in id order (so two
processes' batches, or a batch and a single round, never deadlock), their rounds read, then
every round row, ledger entry, balance, pace mark and audit row written in bulk.

Each round gets exactly what `rounds.play` would give it alone: the same checks in the same
order (`rounds._check_*`), the same transitions (`hold_for_choice`, `capped_payment`,
`after_credit`), the same rows. A refused bet is refused alone and writes nothing. Anything a
batch cannot decide alone (a request id already played, whose answer is the stored round) or
any failure of the batch's transaction answers AGAIN: that bet is played alone by
`rounds.play`, with the outcome already drawn, and its request id makes that safe even where
the batch did commit. Rounds that touch the jackpot pool never come here.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, or_, select

from reelforge.engine.outcome import Bet, Outcome
from reelforge.server.context import Context
from reelforge.server.db import bulk
from reelforge.server.db.tables import OPEN_STATUSES, accounts, players, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, ledger
from reelforge.server.services.catalog import ServedGame
from reelforge.server.services.common import crash_point, dumps, fast_dumps, new_round_id
from reelforge.server.services.rounds import (
    _check_enabled,
    _check_no_open_round,
    _check_pace,
    after_credit,
    capped_payment,
    check_funds,
    gamble_setting,
    hold_for_choice,
    round_values,
    view_of,
)
from reelforge.server.services.sessions import Auth, house_account, player_account

log = logging.getLogger("reelforge.server")

AGAIN = object()  # "play this bet alone": see the module's docstring
MAX_BATCH = 64  # rounds per transaction: enough to amortise it, short enough to hold locks


@dataclass
class Placement:
    """A checked bet whose outcome is drawn, waiting for its transaction."""

    auth: Auth
    served: ServedGame
    request_id: str
    bet: Bet
    price_minor: int
    seed: int
    outcome: Outcome
    now: int
    result: Any = None  # Written, an ApiError, or AGAIN
    done: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class Written:
    """A committed round as the batch left it: its row, outcome and the player's balance."""

    row: Any
    outcome: dict
    balance: int


class RoundWriter:
    """One thread that commits the process's bets in batches, in arrival order."""

    def __init__(self, ctx: Context, max_batch: int = MAX_BATCH) -> None:
        self._ctx, self._max = ctx, max_batch
        self._queue: queue.SimpleQueue[Placement] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def place(self, placement: Placement) -> Any:
        """Queue the bet and wait for its batch: the round's view, an ApiError or AGAIN."""
        if self._thread is None or not self._thread.is_alive():
            with self._start:
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._run, name="round-writer",
                                                    daemon=True)
                    self._thread.start()
        self._queue.put(placement)
        placement.done.wait()
        result = placement.result
        if isinstance(result, Written):  # the view is built here, off the writer's thread
            return view_of(placement.auth, result.row, (), result.balance, None, result.outcome)
        return result

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < self._max:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                results = commit(self._ctx, batch)
            except Exception:  # rolled back, or failed after its commit: AGAIN is safe for both
                log.warning("a batch of %d rounds failed; each is played alone", len(batch),
                            exc_info=True)
                results = [AGAIN] * len(batch)
            for placement, result in zip(batch, results, strict=True):
                placement.result = result
                placement.done.set()


_lock = threading.Lock()


def writer(ctx: Context) -> RoundWriter:
    """The process's writer for this context, made on first use (never at import)."""
    found = ctx.extensions.get("round_writer")
    if found is None:
        with _lock:
            found = ctx.extensions.setdefault("round_writer", RoundWriter(ctx))
    return found


def commit(ctx: Context, batch: list[Placement]) -> list[Any]:
    """Decide and write every placement of `batch` in one transaction; each one's result:
    Written, an ApiError, or AGAIN."""
    results: list[Any] = [AGAIN] * len(batch)
    written: list[tuple[int, dict, dict, int]] = []  # (placement, row, outcome, balance)
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
        moves: list[ledger.Move] = []
        new_rounds: list[dict] = []
        audits: list[tuple[str, str, dict, int]] = []
        paced: dict[int, int] = {}
        for i, (p, (account, house)) in enumerate(zip(batch, mine, strict=True)):
            pid, served, now = p.auth.player_id, p.served, p.now
            if (pid, p.request_id) in played:
                continue  # AGAIN: the stored round is the answer
            try:
                _check_enabled(served)
                _check_no_open_round(conn, served, pid, unfinished[pid])
                _check_pace(served, last[pid], now)
                check_funds(running[account], p.price_minor)
            except ApiError as exc:
                results[i] = exc
                continue
            played.add((pid, p.request_id))
            round_id = new_round_id()
            outcome_dict = p.outcome.to_dict()
            row = round_values(round_id, p.auth, served, p.request_id, p.bet, p.price_minor,
                               p.seed, fast_dumps(outcome_dict), now, funded_by=None)
            _move(moves, running, f"{round_id}:stake", account, house, p.price_minor,
                         "stake", now, round_id)
            phase: dict[str, Any] = {"gamble": gamble_setting(served)}
            step = hold_for_choice(served, p.outcome, round_id, p.price_minor, phase)
            if step is None:
                paid = capped_payment(served, p.outcome.total_win, phase)
                _move(moves, running, f"{round_id}:win", house, account, paid, "win", now,
                      round_id)
                step = after_credit(served, p.outcome, round_id, p.price_minor, paid,
                                    running[account], phase, from_step=0)
            row.update(status=step.status, phase=dumps(phase), win_minor=step.win_minor,
                       closed_at=now if step.closed else None)
            new_rounds.append(row)
            audits.append((f"player:{pid}", step.audit_kind, step.audit_body, now))
            last[pid] = paced[pid] = now
            if step.status in OPEN_STATUSES:
                unfinished[pid].append(SimpleNamespace(**row))
            written.append((i, row, outcome_dict, running[account]))
        if new_rounds:
            bulk.insert_rows(conn, rounds, new_rounds)
            ledger.post_locked(conn, moves, balances)
            bulk.update_rows(conn, players, "id", [{"id": pid, "last_round_at": at}
                                                   for pid, at in sorted(paced.items())])
            audit.append_many(conn, audits)
        crash_point("round.before_commit")
    crash_point("round.after_commit")
    for i, row, outcome_dict, balance in written:
        results[i] = Written(SimpleNamespace(**row), outcome_dict, balance)
    return results


def _move(moves: list[ledger.Move], running: dict[int, int], txn: str, source: int,
          target: int, amount: int, kind: str, now: int, round_id: str) -> None:
    """A transfer for the batch (none for zero), with the running balances it leaves."""
    if amount:
        moves.append(ledger.Move(txn, source, target, amount, kind, now, round_id))
        running[source] -= amount
        running[target] += amount


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
