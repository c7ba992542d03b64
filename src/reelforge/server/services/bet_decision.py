"""A bet decided: one pure function from the state read under its player's lock (the player's
balance, last round start and unfinished rounds) and the drawn bet to everything its
transaction writes: the round's row, its ledger moves, its transition and audit row. The
writer (`bet_writer.py`) applies a list of decisions in one transaction; a single request is
a batch of one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reelforge.server.services import ledger
from reelforge.server.services.bet_checks import (
    check_enabled,
    check_funds,
    check_no_open_round,
    check_pace,
)
from reelforge.server.services.common import dumps, fast_dumps
from reelforge.server.services.placement import Placement
from reelforge.server.services.round_rows import gamble_setting, round_values
from reelforge.server.services.transitions import (
    Transition,
    after_credit,
    capped_payment,
    hold_for_choice,
)


@dataclass(frozen=True)
class PlayerState:
    """What a bet is decided on, read under the player's lock: the balance of the player's
    account, the start of their last round and their unfinished rounds."""

    balance: int
    last_round_at: int | None
    unfinished: Sequence[Any]


@dataclass(frozen=True)
class BetDecision:
    """Everything a bet's transaction writes, and the answer's makings."""

    row: dict[str, Any]  # the round's row, final for this transaction
    moves: tuple[ledger.Move, ...]  # the stake, then the win (none for zero)
    transition: Transition
    audit: tuple[str, str, dict, int]  # (chain, kind, body, time)
    outcome: dict  # the outcome, as stored and answered
    balance_after: int  # the player's balance once the moves are made


def decide_bet(p: Placement, state: PlayerState, round_id: str, account: int,
               house: int) -> BetDecision:
    """The bet `p` of a ledger-wallet round without the jackpot pool, on `state`: its checks in
    their fixed order (an ApiError refuses it, and nothing is written), then the round."""
    served, now = p.served, p.now
    check_enabled(served)
    check_no_open_round(served, state.unfinished)
    check_pace(served, state.last_round_at, now)
    check_funds(state.balance, p.price_minor)
    outcome_dict = p.outcome.to_dict()
    row = round_values(round_id, p.auth, served, p.request_id, p.bet, p.price_minor, p.seed,
                       fast_dumps(outcome_dict), now, funded_by=None)
    moves = [_move(f"{round_id}:stake", account, house, p.price_minor, "stake", now, round_id)]
    balance = state.balance - p.price_minor
    phase: dict[str, Any] = {"gamble": gamble_setting(served)}
    step = hold_for_choice(served, p.outcome, round_id, p.price_minor, phase)
    if step is None:
        paid = capped_payment(served, p.outcome.total_win, phase)
        moves.append(_move(f"{round_id}:win", house, account, paid, "win", now, round_id))
        balance += paid
        step = after_credit(served, p.outcome, round_id, p.price_minor, paid, balance, phase,
                            from_step=0)
    row.update(status=step.status, phase=dumps(phase), win_minor=step.win_minor,
               closed_at=now if step.closed else None)
    return BetDecision(row, tuple(m for m in moves if m.amount), step,
                       (f"player:{p.auth.player_id}", step.audit_kind, step.audit_body, now),
                       outcome_dict, balance)


def _move(txn: str, source: int, target: int, amount: int, kind: str, now: int,
          round_id: str) -> ledger.Move:
    return ledger.Move(txn, source, target, amount, kind, now, round_id)
