"""Rounds on a seamless wallet: the operator holds the money, the server calls it.

A round here cannot be one transaction (the debit is the operator's), so every call owed to
the operator is first written to the outbox in the transaction of the state it belongs to:
1. open: the round and its debit call are committed (status "open");
2. the debit is sent. Accepted: the outcome is drawn and committed with the credit call
   (status "outcome_committed"). Refused: the round is cancelled. Unknown (a timeout, a 5xx,
   a crash): the debit is rolled back (a rollback call, retried until acknowledged), then the
   round is cancelled: a debit whose outcome is unknown never stands;
3. the credit is sent now and, failing that, retried by the outbox worker until the operator
   acknowledges it; then the round closes. Credits are never rolled back.
Every call carries an idempotent transaction id (<round>:debit, <round>:credit,
<round>:rollback): sending one twice is safe, which is what makes retrying safe.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from sqlalchemy import bindparam, or_, select, update

from reelforge.engine.outcome import Outcome
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.server.context import Context
from reelforge.server.db.tables import OPEN_STATUSES, outbox, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services import audit
from reelforge.server.services.bet_checks import touches_pool
from reelforge.server.services.bet_decision import (
    PlayerState,
    SeamlessFunding,
    decide_open,
    settle_bet,
)
from reelforge.server.services.bet_writer import Voided, apply, lock
from reelforge.server.services.catalog import ServedGame
from reelforge.server.services.common import (
    crash_point,
    dumps,
    fast_dumps,
    loads,
    new_round_id,
    now_us,
)
from reelforge.server.services.placement import checked
from reelforge.server.services.round_rows import find_round
from reelforge.server.services.round_views import repeat_answer, round_view
from reelforge.server.services.sessions import Auth, house_account
from reelforge.server.wallets.client import SeamlessWalletClient, WalletRefused, WalletUnknown
from reelforge.server.wallets.outbox import enqueue, mark

log = logging.getLogger("reelforge.server.outbox")
US = 1_000_000
# An "open" round this old lost its request: its debit is unknown. The recovery tests shorten
# it (REELFORGE_STALE_OPEN_S) so as not to wait half a minute for each rollback.
STALE_OPEN_US = int(float(os.environ.get("REELFORGE_STALE_OPEN_S", "30")) * US)
MAX_BACKOFF_S = 3600


def client(ctx: Context, operator_id: str) -> SeamlessWalletClient:
    found = ctx.wallets.get(operator_id)
    if found is None:
        op = ctx.operator(operator_id)
        assert op.wallet_url is not None and op.wallet_secret is not None
        found = ctx.wallets.setdefault(operator_id, SeamlessWalletClient(
            op.wallet_url, op.wallet_secret, timeout_s=5.0))
    return found


def play_seamless(ctx: Context, auth: Auth, game_key: str, request_id: str, lines: Any,
                  bet_per_line: Any, mode: Any) -> dict:
    """A bet on the operator's wallet: the round decided and written as a ledger bet is
    (`bet_decision`, `bet_writer.apply`), with the same checks, and funded by the operator's
    debit (`SeamlessFunding`) in the two transactions around that call."""
    op = auth.operator
    served, bet = checked(auth, game_key, lines, bet_per_line, mode)
    price_minor = served.game.price(bet) * served.denomination
    now = now_us()
    round_id = new_round_id()
    debit = {"transaction_id": f"{round_id}:debit", "player": auth.external_id,
             "round_id": round_id, "game": game_key, "amount": price_minor,
             "currency": auth.currency}
    with ctx.begin() as conn:
        house = house_account(conn, op, auth.player_id)
        funding = SeamlessFunding(auth, served.key, house)
        last, balances, _ = lock(conn, [auth.player_id], set(), {})
        mine = conn.execute(_SAME_OR_OPEN, {"pid": auth.player_id, "rid": request_id}).all()
        done = next((r for r in mine if r.request_id == request_id), None)
        if done is not None:
            return repeat_answer(conn, ctx, auth, done, game_key, bet)
        state = PlayerState(0, last[auth.player_id], mine)
        apply(conn, [decide_open(auth, served, request_id, bet, price_minor, now, state,
                                 round_id, funding, debit)], balances)
    crash_point("seamless.after_open")
    wallet = client(ctx, op.id)
    try:
        wallet.debit(**debit)
    except WalletRefused as exc:
        _cancel(ctx, auth, round_id, f"debit refused: {exc.code}")
        if exc.code == "INSUFFICIENT_FUNDS":
            raise ApiError("INSUFFICIENT_BALANCE", f"the operator's wallet holds {exc.balance} "
                           f"minor units, the round costs {price_minor}",
                           balance_minor=exc.balance) from None
        raise ApiError("WALLET_REFUSED", f"the operator's wallet refused the debit: "
                       f"{exc.code}") from None
    except WalletUnknown as exc:
        roll_back(ctx, auth.operator.id, round_id, str(exc))
        raise ApiError("WALLET_UNAVAILABLE", f"the operator's wallet did not answer the debit "
                       f"of round {round_id} ({exc}); it was rolled back") from None
    crash_point("seamless.after_debit")
    seed = new_live_seed()
    outcome = served.game.play(bet, live_generator(seed), seed)
    if not _fund(ctx, auth, served, funding, round_id, seed, outcome):
        # the stale-round worker rolled the debit back meanwhile: the round is void
        raise ApiError("WALLET_UNAVAILABLE", f"round {round_id}: the operator's wallet answered "
                       "the debit after it was rolled back; the round was voided")
    crash_point("seamless.after_outcome")
    deliver_pending(ctx, round_id=round_id)
    with ctx.begin() as conn:
        return round_view(conn, ctx, auth, find_round(conn, auth.player_id, round_id))


def _fund(ctx: Context, auth: Auth, served: ServedGame, funding: SeamlessFunding,
          round_id: str, seed: int, outcome: Outcome) -> bool:
    """The debit accepted: the round's outcome committed and settled (`settle_bet`: the pool's
    contribution and claim, the win held or owed to the operator) by the bet writer, unless a
    rollback is already owed (the stale-round worker's, sent or not), which voids the round
    even while it is still open. Whether the round was funded."""
    now = now_us()
    key = served.pool_key() if touches_pool(served, outcome.bet.to_bet()) else None
    try:
        with ctx.begin() as conn:
            last, balances, pools = lock(conn, [auth.player_id], {funding.house},
                                         {} if key is None else {key: served.operator.currency})
            owed = conn.execute(select(outbox.c.id).where(
                outbox.c.transaction_id == f"{round_id}:rollback")).first()
            row = conn.execute(select(rounds).where(rounds.c.id == round_id)
                               .with_for_update()).one()
            if owed is not None or row.status != "open":
                return False
            outcome_dict = outcome.to_dict()
            values = {**row._asdict(), "seed": f"{seed:064x}",
                      "outcome": fast_dumps(outcome_dict)}
            state = PlayerState(0, last[auth.player_id], (), pools.get(key or ""))
            apply(conn, [settle_bet(served, auth.player_id, values, outcome, outcome_dict,
                                    state, funding, now, existing=True)], balances, pools)
    except Voided:
        return False
    return True


_SAME_OR_OPEN = select(rounds).where(
    rounds.c.player_id == bindparam("pid"),
    or_(rounds.c.request_id == bindparam("rid"), rounds.c.status.in_(OPEN_STATUSES)))


def _cancel(ctx: Context, auth: Auth, round_id: str, why: str) -> None:
    now = now_us()
    with ctx.begin() as conn:
        mark(conn, f"{round_id}:debit", "failed", now, {"why": why})
        conn.execute(update(rounds).where(rounds.c.id == round_id, rounds.c.status == "open")
                     .values(status="cancelled", updated_at=now, closed_at=now))
        audit.append(conn, f"player:{auth.player_id}", "round.cancelled",
                     {"round_id": round_id, "why": why}, now)


def roll_back(ctx: Context, operator_id: str, round_id: str, why: str) -> None:
    """Owe the operator a rollback of the round's debit, and try it now."""
    now = now_us()
    with ctx.begin() as conn:
        row = conn.execute(select(rounds).where(rounds.c.id == round_id)).one()
        if row.status != "open":
            return
        exists = conn.execute(select(outbox.c.id).where(
            outbox.c.transaction_id == f"{round_id}:rollback")).first()
        if exists is None:
            debit = loads(conn.execute(select(outbox.c.body).where(
                outbox.c.transaction_id == f"{round_id}:debit")).scalar_one())
            mark(conn, f"{round_id}:debit", "unknown", now, {"why": why})
            enqueue(conn, operator_id, round_id, "rollback", {
                "transaction_id": f"{round_id}:rollback", "player": debit["player"],
                "round_id": round_id, "game": debit["game"],
                "debit_transaction_id": f"{round_id}:debit"}, now)
    deliver_pending(ctx, round_id=round_id)


def deliver_pending(ctx: Context, round_id: str | None = None, limit: int = 50) -> int:
    """Send the owed calls that are due (of one round, or any); returns how many succeeded."""
    now = now_us()
    with ctx.begin() as conn:
        query = select(outbox).where(outbox.c.status == "pending", outbox.c.next_at <= now,
                                     outbox.c.kind != "debit")
        if round_id is not None:
            query = query.where(outbox.c.round_id == round_id)
        due = conn.execute(query.order_by(outbox.c.id).limit(limit)).all()
    delivered = 0
    for row in due:
        body = loads(row.body)
        wallet = client(ctx, row.operator_id)
        try:
            answer = (wallet.credit(**body) if row.kind == "credit"
                      else wallet.rollback(**body))
        except WalletUnknown as exc:
            _retry_later(ctx, row, str(exc))
            continue
        except WalletRefused as exc:
            _refused(ctx, row, exc)
            continue
        crash_point(f"outbox.after_{row.kind}")
        _delivered(ctx, row, answer.model_dump())
        delivered += 1
    return delivered


def _retry_later(ctx: Context, row, reason: str) -> None:
    now = now_us()
    delay = min(2 ** min(row.attempts, 12), MAX_BACKOFF_S) * US
    with ctx.begin() as conn:
        conn.execute(update(outbox).where(outbox.c.id == row.id).values(
            attempts=row.attempts + 1, next_at=now + delay, updated_at=now,
            response=dumps({"last_error": reason})))


def _refused(ctx: Context, row, exc: WalletRefused) -> None:
    """An operator that says no to a credit or rollback needs a person (a reconciliation):
    the call is parked as failed and audited, never silently dropped."""
    now = now_us()
    with ctx.begin() as conn:
        mark(conn, row.transaction_id, "failed", now, {"code": exc.code, "message": str(exc)})
        audit.append(conn, f"operator:{row.operator_id}", "outbox.refused",
                     {"transaction_id": row.transaction_id, "code": exc.code}, now)


def _delivered(ctx: Context, row, answer: dict) -> None:
    now = now_us()
    with ctx.begin() as conn:
        current = conn.execute(select(outbox.c.status).where(outbox.c.id == row.id)).scalar_one()
        if current != "pending":
            return  # another process delivered it first (the operator saw it once)
        mark(conn, row.transaction_id, "done", now, answer)
        r = conn.execute(select(rounds).where(rounds.c.id == row.round_id)
                         .with_for_update()).one()
        chain = f"player:{r.player_id}"
        if row.kind == "rollback" and r.status == "open":
            conn.execute(update(rounds).where(rounds.c.id == r.id).values(
                status="cancelled", updated_at=now, closed_at=now))
            audit.append(conn, chain, "round.cancelled",
                         {"round_id": r.id, "why": "debit rolled back"}, now)
        elif row.kind == "credit" and r.status in ("outcome_committed", "credited"):
            phase = loads(r.phase) or {}
            if not phase.get("offers"):
                conn.execute(update(rounds).where(rounds.c.id == r.id).values(
                    status="closed", updated_at=now, closed_at=now))
                audit.append(conn, chain, "round.closed",
                             {"round_id": r.id, "win_minor": r.win_minor}, now)


def recover_stale(ctx: Context) -> None:
    """Rounds left "open" by a request that died (a crash between the debit call and its
    answer): their debit is unknown, so it is rolled back."""
    cutoff = now_us() - STALE_OPEN_US
    with ctx.begin() as conn:
        stale = conn.execute(select(rounds.c.id, rounds.c.player_id).where(
            rounds.c.status == "open", rounds.c.created_at < cutoff).limit(100)).all()
    for row in stale:
        op_id = _operator_of(ctx, row.player_id)
        roll_back(ctx, op_id, row.id, "the request that opened it did not finish")


def _operator_of(ctx: Context, player_id: int) -> str:
    from reelforge.server.db.tables import players

    with ctx.begin() as conn:
        return conn.execute(select(players.c.operator_id).where(players.c.id == player_id)
                            ).scalar_one()


def start_outbox_worker(ctx: Context, interval_s: float = 0.5) -> threading.Thread:
    """One daemon thread per process: due calls are sent, stale debits rolled back."""
    def loop() -> None:
        while True:
            try:
                recover_stale(ctx)
                deliver_pending(ctx)
            except Exception:  # the worker must outlive one bad row or a database blip
                log.exception("outbox worker pass failed")
            threading.Event().wait(interval_s)

    thread = threading.Thread(target=loop, name="reelforge-outbox", daemon=True)
    thread.start()
    return thread
