"""Group commit: the bets of many players, each decided and checked on its own, written in one
transaction by one writer thread per server process.

A round's statements, not its Python, were the cost of a bet: a dozen round trips and their
SQLAlchemy work per round, plus a commit (an fsync on SQLite). Here a batch of rounds costs
about ten statements in all: the players and their accounts locked in id order (so two
processes' batches, or a batch and a single round, never deadlock), their rounds read, then
every round row, ledger entry, balance, pace mark and audit row written in bulk.

Bets reach the writer two ways. The bet endpoint hands it the request as it came (`bet`, an
`Arrival`, awaited on the event loop: no request thread at all), and the writer
authenticates the whole batch's sessions in one statement, checks and draws each bet
(`rounds.draw`), and commits them. `rounds.play` hands it a bet already drawn (`place`, from a
request thread).

Each round gets exactly what `rounds.play_alone` would give it: the same checks in the same
order (`rounds._check_*`), the same transitions (`hold_for_choice`, `capped_payment`,
`after_credit`), the same rows. A refused bet is refused alone and writes nothing. What a
batch does not play is answered Alone (a seamless wallet's bet, a round of the jackpot pool)
or AGAIN (a request id already played, whose answer is the stored round; any failure of the
batch's transaction): that bet is played alone in a request thread, and its request id makes
that safe even where the batch did commit.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, or_, select
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from reelforge.server.context import Context
from reelforge.server.db import bulk
from reelforge.server.db.tables import OPEN_STATUSES, accounts, players, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, ledger, sessions
from reelforge.server.services.common import crash_point, dumps, fast_dumps, new_round_id
from reelforge.server.services.rounds import (
    Placement,
    _check_enabled,
    _check_no_open_round,
    _check_pace,
    after_credit,
    batchable,
    capped_payment,
    check_funds,
    checked,
    draw,
    gamble_setting,
    hold_for_choice,
    round_values,
    view_of,
)
from reelforge.server.services.sessions import Auth, house_account, player_account

log = logging.getLogger("reelforge.server")

AGAIN = object()  # "play this bet alone": see the module's docstring
MAX_BATCH = 64  # rounds per transaction: enough to amortise it, short enough to hold locks


@dataclass(frozen=True)
class Written:
    """A committed round as the batch left it: its row, outcome and the player's balance."""

    row: Any
    outcome: dict
    balance: int

    def view(self, auth: Auth) -> dict:
        return view_of(auth, self.row, (), self.balance, None, self.outcome)


@dataclass(frozen=True)
class Alone:
    """The answer to an arrival the batch does not play: play it with `rounds.play_alone`
    (or the seamless wallet's path) in a request thread, as this session."""

    auth: Auth


@dataclass
class _Waiting:
    """A placement from a request thread (`RoundWriter.place`), and its answer."""

    placement: Placement
    result: Any = None
    done: threading.Event = field(default_factory=threading.Event)

    def deliver(self, result: Any) -> None:
        self.result = result
        self.done.set()


@dataclass
class Arrival:
    """A bet as the HTTP layer received it (`RoundWriter.bet`): the writer authenticates the
    batch's sessions in one statement, then checks and draws each bet."""

    token: str | None
    game_key: str
    request_id: str
    lines: Any
    bet_per_line: Any
    mode: Any
    admit: Callable[[Auth], None]  # the API layer's own checks of a session (its rate)
    deliver: Callable[[Any], None]  # called once, on the writer's thread, with the answer


class RoundWriter:
    """One thread that commits the process's bets in batches, in arrival order."""

    def __init__(self, ctx: Context, max_batch: int = MAX_BATCH) -> None:
        self._ctx, self._max = ctx, max_batch
        self._queue: queue.SimpleQueue[_Waiting | Arrival] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def _submit(self, item: _Waiting | Arrival) -> None:
        if self._thread is None or not self._thread.is_alive():
            with self._start:
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._run, name="round-writer",
                                                    daemon=True)
                    self._thread.start()
        self._queue.put(item)

    def place(self, placement: Placement) -> Any:
        """Queue a drawn bet and wait for its batch: the round's view, an ApiError or AGAIN."""
        waiting = _Waiting(placement)
        self._submit(waiting)
        waiting.done.wait()
        result = waiting.result
        return result.view(placement.auth) if isinstance(result, Written) else result

    async def bet(self, token: str | None, game_key: str, request_id: str, lines: Any,
                  bet_per_line: Any, mode: Any, admit: Callable[[Auth], None]) -> Any:
        """A bet from the event loop, with no request thread: the round's view, an ApiError,
        Alone (play it in a thread as that session) or AGAIN (play it alone from the start)."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()

        def deliver(value: Any) -> None:
            loop.call_soon_threadsafe(_settle, answer, value)

        self._submit(Arrival(token, game_key, request_id, lines, bet_per_line, mode, admit,
                             deliver))
        return await answer

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < self._max:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            self._write(batch)

    def _write(self, batch: list[_Waiting | Arrival]) -> None:
        arrivals = [item for item in batch if isinstance(item, Arrival)]
        try:
            drawn = prepare(self._ctx, arrivals)
        except Exception as exc:  # noqa: BLE001 - the writer never dies: each is played alone
            _failed(f"{len(arrivals)} bets could not be prepared", exc)
            drawn = [AGAIN] * len(arrivals)
        # (who asked, the placement, whether the answer is built here): in arrival order
        queued: list[tuple[Callable[[Any], None], Placement, bool]] = []
        answers = iter(drawn)
        for item in batch:
            if isinstance(item, _Waiting):
                queued.append((item.deliver, item.placement, False))
                continue
            ready = next(answers)
            if isinstance(ready, Placement):
                queued.append((item.deliver, ready, True))
            else:
                item.deliver(ready)
        if not queued:
            return
        try:
            results = commit(self._ctx, [placement for _, placement, _ in queued])
        except Exception as exc:  # noqa: BLE001 - rolled back, or failed after commit: AGAIN
            _failed(f"a batch of {len(queued)} rounds failed", exc)
            results = [AGAIN] * len(queued)
        for (deliver, placement, arrival), result in zip(queued, results, strict=True):
            if arrival:  # answered in full here: the event loop only sends it
                if isinstance(result, Written):
                    result = result.view(placement.auth)
                elif result is AGAIN:
                    result = Alone(placement.auth)
            deliver(result)


def _failed(what: str, exc: Exception) -> None:
    """A database that is down is one line per batch (each bet then meets it alone and is
    answered DATABASE_UNAVAILABLE); anything else is a bug, logged with its traceback."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated or isinstance(
            exc, OperationalError | InterfaceError | PoolTimeout):
        log.warning("%s (%s); each is played alone", what, type(exc).__name__)
    else:
        log.warning("%s; each is played alone", what, exc_info=exc)


def _settle(answer: asyncio.Future[Any], value: Any) -> None:
    if not answer.done():  # a request cancelled meanwhile (the client left) wants nothing
        answer.set_result(value)


def prepare(ctx: Context, arrivals: list[Arrival]) -> list[Any]:
    """Each arrival's placement, or its answer without one: an ApiError (the same refusal, in
    the same order of checks, as the request thread's path gives), or Alone."""
    if not arrivals:
        return []
    sessions_ = sessions.authenticate_many(ctx, [a.token for a in arrivals])
    drawn: list[Any] = []
    for arrival, who in zip(arrivals, sessions_, strict=True):
        if isinstance(who, ApiError):
            drawn.append(who)
            continue
        try:
            arrival.admit(who)
            served, bet = checked(who, arrival.game_key, arrival.lines, arrival.bet_per_line,
                                  arrival.mode)
        except ApiError as exc:
            drawn.append(exc)
            continue
        # a bet played alone draws its own outcome there: none is drawn here for it
        drawn.append(draw(who, served, arrival.request_id, bet)
                     if batchable(who, served, bet) else Alone(who))
    return drawn


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
    written: list[tuple[int, dict, dict, int]] = []  # (index in batch, row, outcome, balance)
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
