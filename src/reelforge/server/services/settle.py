"""Money of a round once its outcome or a choice is known, written in the caller's
transaction: the jackpot's contribution and claim, a win held or credited (to the ledger, or
owed to a seamless operator's wallet through the outbox), what a gamble banked."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from reelforge.engine.outcome import Outcome
from reelforge.server.services import audit, jackpot, ledger
from reelforge.server.services.bet_checks import touches_pool
from reelforge.server.services.catalog import ServedGame
from reelforge.server.services.round_rows import gamble_setting, update_round
from reelforge.server.services.sessions import Auth, house_account, player_account
from reelforge.server.services.transitions import (
    Transition,
    after_credit,
    audit_body,
    capped_payment,
    hold_for_choice,
)
from reelforge.server.wallets.outbox import enqueue_banked, enqueue_credit


def settle_outcome(conn: Connection, served: ServedGame, auth: Auth, round_id: str,
                   outcome: Outcome, price_minor: int, now: int,
                   balance: int | None = None) -> list[str]:
    """After the outcome is stored: the jackpot's contribution and claim, then either hold the
    win for a gamble the round offers, or credit it (and offer Spin Chance or close)."""
    house = house_account(conn, auth.operator, auth.player_id)
    claim = None
    if touches_pool(served, outcome.bet.to_bet()):
        if price_minor:
            jackpot.contribute(conn, served.pool_key(), price_minor, house, round_id, now)
        if "jackpot" in outcome.flags:
            claim = jackpot.claim(conn, served.pool_key(), round_id, auth.player_id, house, now)
    phase: dict[str, Any] = {"gamble": gamble_setting(served)}
    if claim is not None:
        phase["jackpot_claim_id"] = claim["id"]
    held = hold_for_choice(served, outcome, round_id, price_minor, phase)
    if held is not None:
        apply_transition(conn, auth, round_id, held, phase, now)
        return list(held.said)
    return credit_and_finish(conn, served, auth, round_id, outcome, outcome.total_win, phase,
                             price_minor, from_step=0, now=now, balance=balance)


def apply_transition(conn: Connection, auth: Auth, round_id: str, step: Transition, phase: dict,
           now: int) -> None:
    update_round(conn, round_id, step.status, phase, now, closed=step.closed,
            win_minor=step.win_minor)
    audit.append(conn, f"player:{auth.player_id}", step.audit_kind, step.audit_body, now)


def credit_and_finish(conn: Connection, served: ServedGame, auth: Auth, round_id: str,
                      outcome: Outcome, credits: int, phase: dict, price_minor: int,
                      from_step: int, now: int, step: int | None = None,
                      balance: int | None = None, banked: int = 0) -> list[str]:
    """Credit `credits` of win (capped by the operator), less the `banked` minor units a
    gamble already credited (`credit_banked`), then offer Spin Chance where the new balance
    calls for it, else close the round. `balance`: the player's balance before the credit,
    where the caller knows it (a losing round then reads nothing)."""
    op = auth.operator
    paid = capped_payment(served, credits, phase)
    due = paid - banked  # >= 0: banked is min(part of the win, cap), paid min(all of it, cap)
    if op.wallet == "seamless":  # the operator holds the money: owe it the credit
        enqueue_credit(conn, auth, round_id, served.key, due, now)
        phase.update(offers=[], pending_credits=0, credit_pending=True)
        update_round(conn, round_id, "outcome_committed", phase, now, win_minor=paid)
        audit.append(conn, f"player:{auth.player_id}", "round.credit_queued",
                     audit_body(round_id, price_minor, paid), now)
        return ["credit_queued"]
    account = player_account(conn, op, auth.player_id)
    house = house_account(conn, op, auth.player_id)
    if due == 0 and balance is not None:
        after = balance
    else:  # the player's balance after the credit comes back from the transfer itself
        _, after = ledger.transfer(conn, txn=f"{round_id}:win", source=house, target=account,
                                   amount=due, kind="win", now=now, round_id=round_id,
                                   step=step)
    done = after_credit(served, outcome, round_id, price_minor, paid, after, phase, from_step)
    apply_transition(conn, auth, round_id, done, phase, now)
    return list(done.said)


def credit_banked(conn: Connection, served: ServedGame, auth: Auth, round_id: str,
                  amount: int, step: int, now: int) -> None:
    """Credit `amount` minor units a gamble banked at `step`, while the round stays open for
    the rest of the gamble (seamless: owed to the operator's wallet as a credit of its own)."""
    if auth.operator.wallet == "seamless":
        enqueue_banked(conn, auth, round_id, served.key, amount, step, now)
    else:
        ledger.transfer(conn, txn=f"{round_id}:bank:{step}",
                        source=house_account(conn, auth.operator, auth.player_id),
                        target=player_account(conn, auth.operator, auth.player_id),
                        amount=amount, kind="win", now=now, round_id=round_id, step=step)
    audit.append(conn, f"player:{auth.player_id}", "round.banked",
                 {"round_id": round_id, "step": step, "amount_minor": amount}, now)
