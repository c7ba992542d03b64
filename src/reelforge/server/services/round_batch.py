"""Group commit: the bets and steps of many players, each decided and checked on its own,
written in one transaction by one writer thread per server process.

A round's statements, not its Python, were the cost of a bet: a dozen round trips and their
SQLAlchemy work per round, plus a commit (an fsync on SQLite). Here a batch of rounds costs
about ten statements in all: the players and their accounts locked in id order (so two
processes' batches, or a batch and a single round, never deadlock), their rounds read, then
every round row, ledger entry, balance, pace mark and audit row written in bulk.

Bets reach the writer two ways. The bet endpoint hands it the request as it came (`bet`, an
`Arrival`, awaited on the event loop: no request thread at all), and the writer
authenticates the whole batch's sessions in one statement, checks and draws each bet
(`placement.draw`), and commits them. `rounds.play` hands it a bet already drawn (`place`,
from a request thread); `steps.take_step` hands it a step (`place` too: a ledger wallet's
step, whose seeds are drawn), decided by `step_decision.decide_step` in the same batch.

Each round is decided by `bet_decision.decide_bet` and written by `bet_writer.commit`, the
path `rounds.play_alone` takes for a single bet too (a batch of one). A refused bet is
refused alone and writes nothing. What a batch does not play is answered Alone (a seamless wallet's bet, a round of the jackpot pool)
or AGAIN (a request id already played, whose answer is the stored round; any failure of the
batch's transaction): that bet is played alone in a request thread, and its request id makes
that safe even where the batch did commit.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from reelforge.server.context import Context
from reelforge.server.errors import ApiError
from reelforge.server.services import sessions
from reelforge.server.services.bet_checks import batchable
from reelforge.server.services.bet_writer import AGAIN, Written, commit
from reelforge.server.services.placement import Placement, checked, draw
from reelforge.server.services.sessions import Auth
from reelforge.server.services.step_decision import StepPlacement

log = logging.getLogger("reelforge.server")

MAX_BATCH = 64  # rounds per transaction: enough to amortise it, short enough to hold locks


@dataclass(frozen=True)
class Alone:
    """The answer to an arrival the batch does not play: play it with `rounds.play_alone`
    (or the seamless wallet's path) in a request thread, as this session."""

    auth: Auth


@dataclass
class _Waiting:
    """A placement (a bet or a step) from a request thread (`RoundWriter.place`), and its
    answer."""

    placement: Placement | StepPlacement
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
    """One thread that commits the process's bets and steps in batches, in arrival order."""

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

    def place(self, placement: Placement | StepPlacement) -> Any:
        """Queue a drawn bet or a step and wait for its batch: the round's view (a step's:
        Stepped), an ApiError or AGAIN."""
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
        queued: list[tuple[Callable[[Any], None], Placement | StepPlacement, bool]] = []
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
