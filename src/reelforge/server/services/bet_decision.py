"""A bet decided: one pure function from the state read under its player's lock (the player's
balance, last round start and unfinished rounds, and the jackpot pool where the round touches
one) and the drawn bet to everything its transaction writes: the round's row, its ledger
moves, the pool's contribution and claim, the calls owed to a seamless operator, its
transition and audit rows. The writer (`bet_writer.py`) applies a list of decisions in one
transaction; a single request is a batch of one.

How the stake is funded is the one difference between wallets, and a funding adapter says it:
`LedgerFunding` moves the stake out of the player's ledger account and the win back in, in the
round's transaction; `SeamlessFunding` takes a stake the operator's wallet has already debited
(the round was opened by `decide_open` with the same checks) and owes the operator the win
through the outbox.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from reelforge.engine.outcome import Bet, Outcome
from reelforge.server.errors import ApiError
from reelforge.server.services import ledger
from reelforge.server.services.bet_checks import (
    check_enabled,
    check_funds,
    check_no_open_round,
    check_pace,
    touches_pool,
)
from reelforge.server.services.catalog import ServedGame
from reelforge.server.services.common import dumps, fast_dumps
from reelforge.server.services.jackpot import Claim, PoolState, claim_of_pool, contribution
from reelforge.server.services.placement import Placement
from reelforge.server.services.round_rows import gamble_setting, round_values
from reelforge.server.services.sessions import Auth
from reelforge.server.services.transitions import (
    Transition,
    after_credit,
    audit_body,
    capped_payment,
    hold_for_choice,
)
from reelforge.server.wallets.outbox import banked_body, credit_body, outbox_row

Audit = tuple[str, str, dict, int]  # (chain, kind, body, time)


@dataclass(frozen=True)
class PlayerState:
    """What a bet is decided on, read under the player's lock: the balance of the player's
    account, the start of their last round, their unfinished rounds, and the round's jackpot
    pool, locked, where the round touches one."""

    balance: int
    last_round_at: int | None
    unfinished: Sequence[Any]
    pool: PoolState | None = None


@dataclass(frozen=True)
class BetDecision:
    """Everything a bet's transaction writes, and the answer's makings."""

    row: dict[str, Any]  # the round's row, final for this transaction
    moves: tuple[ledger.Move, ...]  # the stake, the pool's contribution and claim, the win
    transition: Transition
    audit: Audit
    outcome: dict | None  # the outcome, as stored and answered (None: a round only opened)
    balance_after: int  # the player's balance once the moves are made
    pool: PoolState | None = None  # the round's pool as the round leaves it
    claim: Claim | None = None  # the pool won (its audit row goes before the round's)
    outbox: tuple[dict[str, Any], ...] = ()  # calls owed to a seamless operator's wallet
    debit_done: str | None = None  # the operator's debit this round was funded by
    existing: bool = False  # the row is a round opened before (updated, not inserted)


class Funding(Protocol):
    """How a round's stake is funded and its win paid: the one difference between wallets."""

    @property
    def house(self) -> int:
        """The house account that pays the jackpot contribution and reseed."""

    @property
    def metered(self) -> bool:
        """Whether the round's money is in this server's ledger, where the back office's
        meters count it (a seamless operator's is in its own wallet)."""

    def check(self, balance: int, price_minor: int) -> None:
        """Refuse a stake the funds cannot cover (an ApiError), where this side knows them."""

    def stake(self, round_id: str, price_minor: int, now: int) -> tuple[ledger.Move, ...]:
        """The stake's ledger moves."""

    def pay(self, served: ServedGame, outcome: Outcome, round_id: str, price_minor: int,
            paid: int, due: int, balance: int, phase: dict, now: int, step: int | None = None,
            from_step: int = 0) -> Paid:
        """The round's win `paid` (capped, in minor units), of which `due` is still to pay
        (the rest banked at earlier steps), paid at `step` (None: with the bet)."""

    def bank(self, round_id: str, amount: int, step: int, now: int) -> Paid:
        """What a choice still in play has banked (`amount` minor units) paid at `step`; the
        round stays where it is (the transition is None)."""

    def debit(self, round_id: str, kind: str, amount: int, step: int, now: int) -> Paid:
        """A choice's wager of the player's balance taken at `step` (the transition is None)."""


@dataclass(frozen=True)
class Paid:
    """Money a funding adapter moved: ledger moves, calls owed to an operator, where the round
    goes (None: nowhere new), and the player's balance after (for `bank` and `debit`: the
    change to it)."""

    moves: tuple[ledger.Move, ...]
    outbox: tuple[dict[str, Any], ...]
    transition: Transition | None
    balance: int


@dataclass(frozen=True)
class LedgerFunding:
    """The stake out of the player's ledger account and the win back in, in the round's
    transaction."""

    account: int
    house: int
    metered = True  # not a field: the same for every ledger round

    def check(self, balance: int, price_minor: int) -> None:
        check_funds(balance, price_minor)

    def stake(self, round_id: str, price_minor: int, now: int) -> tuple[ledger.Move, ...]:
        return _moves(ledger.Move(f"{round_id}:stake", self.account, self.house, price_minor,
                                  "stake", now, round_id))

    def pay(self, served: ServedGame, outcome: Outcome, round_id: str, price_minor: int,
            paid: int, due: int, balance: int, phase: dict, now: int, step: int | None = None,
            from_step: int = 0) -> Paid:
        after = balance + due
        moved = after_credit(served, outcome, round_id, price_minor, paid, after, phase,
                             from_step)
        return Paid(_moves(ledger.Move(f"{round_id}:win", self.house, self.account, due, "win",
                                       now, round_id, step)), (), moved, after)

    def bank(self, round_id: str, amount: int, step: int, now: int) -> Paid:
        return Paid(_moves(ledger.Move(f"{round_id}:bank:{step}", self.house, self.account,
                                       amount, "win", now, round_id, step)), (), None,
                    amount)

    def debit(self, round_id: str, kind: str, amount: int, step: int, now: int) -> Paid:
        return Paid(_moves(ledger.Move(f"{round_id}:{kind}", self.account, self.house, amount,
                                       kind, now, round_id, step)), (), None, -amount)


@dataclass(frozen=True)
class SeamlessFunding:
    """A stake the operator's wallet debited (its call `<round>:debit`) before the outcome was
    drawn; the win is owed to that wallet through the outbox, sent once committed. The funds
    are the operator's to check: it refuses a debit they do not cover."""

    auth: Auth
    game_key: str
    house: int
    metered = False  # not a field: the operator's money, unmetered here

    def check(self, balance: int, price_minor: int) -> None:
        return None

    def stake(self, round_id: str, price_minor: int, now: int) -> tuple[ledger.Move, ...]:
        return ()

    def pay(self, served: ServedGame, outcome: Outcome, round_id: str, price_minor: int,
            paid: int, due: int, balance: int, phase: dict, now: int, step: int | None = None,
            from_step: int = 0) -> Paid:
        body = credit_body(self.auth, round_id, self.game_key, due)
        phase.update(offers=[], pending_credits=0, credit_pending=True)
        moved = Transition("outcome_committed", "round.credit_queued",
                           audit_body(round_id, price_minor, paid), win_minor=paid,
                           said=("credit_queued",))
        return Paid((), (outbox_row(self.auth.operator.id, round_id, "credit", body, now),),
                    moved, balance)

    def bank(self, round_id: str, amount: int, step: int, now: int) -> Paid:
        body = banked_body(self.auth, round_id, self.game_key, amount, step)
        return Paid((), (outbox_row(self.auth.operator.id, round_id, "credit", body, now),),
                    None, 0)

    def debit(self, round_id: str, kind: str, amount: int, step: int, now: int) -> Paid:
        raise ApiError("STEP_NOT_ALLOWED", f"round {round_id}: a {kind} wagers the balance, "
                       "which the operator's wallet holds; it cannot be played here")


def check_bet(served: ServedGame, state: PlayerState, price_minor: int, now: int,
              funding: Funding) -> None:
    """A bet's checks in their fixed order, whatever the wallet (an ApiError refuses it)."""
    check_enabled(served)
    check_no_open_round(served, state.unfinished)
    check_pace(served, state.last_round_at, now)
    funding.check(state.balance, price_minor)


def decide_bet(p: Placement, state: PlayerState, round_id: str,
               funding: Funding) -> BetDecision:
    """The bet `p` on `state`: its checks (an ApiError refuses it, and nothing is written),
    then the round, funded by `funding`."""
    check_bet(p.served, state, p.price_minor, p.now, funding)
    outcome_dict = p.outcome.to_dict()
    row = round_values(round_id, p.auth, p.served, p.request_id, p.bet, p.price_minor, p.seed,
                       fast_dumps(outcome_dict), p.now, funded_by=None)
    return settle_bet(p.served, p.auth.player_id, row, p.outcome, outcome_dict, state,
                      funding, p.now)


def decide_open(auth: Auth, served: ServedGame, request_id: str, bet: Bet, price_minor: int,
                now: int, state: PlayerState, round_id: str, funding: Funding,
                debit: dict[str, Any]) -> BetDecision:
    """A round opened before its stake is funded (a seamless wallet's: the operator is asked
    for `debit` once this commits): the same checks as `decide_bet`, the round's row without
    an outcome (none is drawn before the debit is accepted), the debit owed."""
    check_bet(served, state, price_minor, now, funding)
    row = round_values(round_id, auth, served, request_id, bet, price_minor, 0, "", now,
                       funded_by=None)
    row.update(status="open", seed=None, outcome=None)
    body = {"round_id": round_id, "stake_minor": price_minor, "wallet": "seamless"}
    return BetDecision(row, (), Transition("open", "round.opened", body),
                       (f"player:{auth.player_id}", "round.opened", body, now), None,
                       state.balance, outbox=(outbox_row(auth.operator.id, round_id, "debit",
                                                         debit, now),))


def settle_bet(served: ServedGame, player_id: int, row: dict[str, Any], outcome: Outcome,
               outcome_dict: dict, state: PlayerState, funding: Funding, now: int,
               existing: bool = False) -> BetDecision:
    """The round of `row` (its outcome committed, nothing yet paid) settled: its stake, the
    pool's contribution and claim where it touches the pool, then the win held for a choice
    or paid (`funding`), and where that leaves the round. `existing`: the row is a round
    opened before (`decide_open`), whose debit this settles."""
    round_id, price = row["id"], row["stake_minor"]
    moves = list(funding.stake(round_id, price, now))
    balance = state.balance - sum(m.amount for m in moves)
    pool, claim = state.pool, None
    if touches_pool(served, outcome.bet.to_bet()):
        if pool is None:
            raise ValueError(f"round {round_id} touches the pool {served.pool_key()!r}: its "
                             "state must be read under its lock and given")
        pool, added = contribution(pool, price, funding.house, round_id, now)
        moves += added
        if "jackpot" in outcome.flags:
            pool, claim, claimed = claim_of_pool(pool, round_id, player_id, funding.house, now)
            moves += claimed
    phase: dict[str, Any] = {"gamble": gamble_setting(served)}
    outbox: tuple[dict[str, Any], ...] = ()
    step = hold_for_choice(served, outcome, round_id, price, phase)
    if step is None:
        paid = capped_payment(served, outcome.total_win, phase)
        won = funding.pay(served, outcome, round_id, price, paid, paid, balance, phase, now)
        assert won.transition is not None
        step, outbox, balance = won.transition, won.outbox, won.balance
        moves += won.moves
    row = {**row, "status": step.status, "phase": dumps(phase), "win_minor": step.win_minor,
           "closed_at": now if step.closed else None, "updated_at": now}
    return BetDecision(row, tuple(moves), step,
                       (f"player:{player_id}", step.audit_kind, step.audit_body, now),
                       outcome_dict, balance, pool, claim, outbox,
                       f"{round_id}:debit" if existing else None, existing)


def _moves(*moves: ledger.Move) -> tuple[ledger.Move, ...]:
    """The moves that move something (a zero stake or win writes no entry)."""
    return tuple(m for m in moves if m.amount)
