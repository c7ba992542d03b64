"""A step decided: one pure function from the state read under the player's lock (the round,
its steps, the player's balance and last round start, the round's own rules pinned in its row,
the jackpot pool a round it funds would touch) and the player's choice, with its seeds drawn
beforehand, to everything the step's transaction writes: the step's row, the round's new
state, its ledger moves or calls owed to a seamless operator, the round it funds (a bet's
decision, `settle_bet`), its audit rows, or a refusal to answer once the round is closed (the
offers lapsed). `bet_writer.apply_steps` writes a list of them in one transaction.

The game's step returns its settlement as data (credits, debits, a bonus to play, a funded
round); nothing here knows the kind of choice. Money moves through the round's funding
adapter (`bet_decision.LedgerFunding` or `SeamlessFunding`), as a bet's does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reelforge.engine.outcome import Outcome
from reelforge.engine.protocol import Settlement
from reelforge.engine.rng import live_generator
from reelforge.engine.round import play_bonus
from reelforge.errors import ReelforgeError
from reelforge.server.db.tables import OPEN_STATUSES
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, ledger
from reelforge.server.services.bet_checks import check_pace
from reelforge.server.services.bet_decision import (
    Audit,
    BetDecision,
    Funding,
    PlayerState,
    settle_bet,
)
from reelforge.server.services.catalog import ServedGame
from reelforge.server.services.common import dumps, fast_dumps, internal_request_id, loads
from reelforge.server.services.jackpot import PoolState
from reelforge.server.services.round_rows import round_values
from reelforge.server.services.round_views import rebuild, start_choice, state_dict
from reelforge.server.services.sessions import Auth
from reelforge.server.services.transitions import capped_payment

MAX_STEPS = 1000  # a gamble ends long before; a client looping on "amount" does not


@dataclass(frozen=True)
class StepState:
    """What a step is decided on, read under the player's lock."""

    row: Any  # the round's row (its rules pinned in it: `served_for_round`)
    steps: Sequence[Any]  # its steps so far, in order
    balance: int  # the player's ledger balance (0 on a seamless wallet: the operator's)
    last_round_at: int | None  # the player's last round start (the pace)
    carried: Any = None  # what the last choice of this kind left (read where one opens)
    pool: PoolState | None = None  # the pool a round this step funds touches, locked


@dataclass(frozen=True)
class StepRequest:
    """The player's choice, and what is drawn for it before any lock."""

    request_id: str
    kind: Any
    choice: Any
    seed: int  # the step's
    bonus_seed: int  # a bonus the choice wins
    funded_seed: int  # a round the choice funds
    funded_round_id: str  # that round's id
    now: int


@dataclass(frozen=True)
class StepPlacement:
    """A step waiting for the writer's transaction (`bet_writer.commit`), as a `Placement` is
    a bet: the player, the round and the request, its seeds drawn."""

    auth: Auth
    round_id: str
    req: StepRequest


@dataclass(frozen=True)
class StepDecision:
    """Everything a step's transaction writes."""

    round_id: str
    round_update: dict[str, Any]  # the round's columns as the step leaves them
    step_row: dict[str, Any] | None  # None: no step played (the offers lapsed)
    moves: tuple[ledger.Move, ...]  # the wager, what is banked or paid (before `funded`'s)
    outbox: tuple[dict[str, Any], ...]  # calls owed to a seamless operator's wallet
    audits: tuple[Audit, ...]  # the round's rows, before the funded round's and the step's
    step_audit: Audit | None
    funded: BetDecision | None  # the round the choice funds, decided as a bet is
    refusal: ApiError | None  # answered once committed: the offers lapsed, the round closed
    balance_after: int
    # the back office's gamble meter (standards.md D5) where a choice on a ledger round's win
    # ended: (the paytable's win, what the choice paid, whether it was a gamble), minor units
    gamble_meter: tuple[int, int, bool] | None = None


def on_balance(phase: dict, steps: Sequence) -> bool:
    """Whether the next step opens a choice offered on the player's balance (not on a win)."""
    return phase.get("balance") is not None and not any(
        s.idx >= phase["from_step"] for s in steps)


def opens_choice(phase: dict, steps: Sequence) -> bool:
    """Whether the next step opens one of the offered choices (none is in play yet): the
    caller then reads what the last choice of its kind carried (`StepState.carried`)."""
    return bool(phase.get("offers")) and not any(
        s.idx >= phase.get("from_step", 0) for s in steps)


def decide_step(served: ServedGame, auth: Auth, state: StepState, req: StepRequest,
                funding: Funding) -> StepDecision:
    """The step `req` of the round `state.row`, played under the round's own rules (`served`):
    its checks (an ApiError refuses it, and nothing is written), then the choice's step and
    its settlement, whatever its kind."""
    row, steps, now = state.row, state.steps, req.now
    if row.status not in OPEN_STATUSES:
        raise ApiError("STEP_NOT_ALLOWED", f"round {row.id} is {row.status}: no choice left")
    if len(steps) >= MAX_STEPS:
        raise ApiError("STEP_NOT_ALLOWED", f"round {row.id}: {MAX_STEPS} steps already")
    phase = loads(row.phase)
    if on_balance(phase, steps):
        lapsed = _reprice(served, auth, row, phase, state.balance, now)
        if lapsed is not None:
            return lapsed
        # A choice offered on the balance wagers the player's own funds: a game cycle of its
        # own (the round it may fund starts now), under the profile's pace, refused before
        # anything is played.
        check_pace(served, state.last_round_at, now)
    offers, choice = rebuild(served, row, phase, steps)
    active = None if choice is None else choice.offer.kind
    if active is not None and req.kind != active:
        raise ApiError("STEP_NOT_ALLOWED", f"step kind {req.kind!r}: the {active} in play "
                       "must be finished first")
    opened = None
    if choice is None:
        phase["carried"] = state.carried
        choice = start_choice(served.game, offers, req.kind, phase)
        opened = {"balance": phase["balance"], "gamble_settled": phase["gamble_settled"],
                  "carried": phase["carried"]}
    try:
        after = served.game.step(choice, req.choice, live_generator(req.seed))
    except (ReelforgeError, TypeError, ValueError) as exc:
        raise ApiError("STEP_NOT_ALLOWED", f"round {row.id}: {exc}") from None
    index = len(steps)
    result: dict[str, Any] = {"state": state_dict(after.state), "finished": after.finished}
    if opened is not None:
        result["opened"] = opened
    money = (_finish if after.finished else _bank)(served, auth, state, req, funding, phase,
                                                     after, index, result)
    stored = {"kind": req.kind, "choice": dumps(req.choice), "seed": f"{req.seed:064x}",
              "result": dumps(result)}
    step_row = dict(round_id=row.id, idx=index, request_id=req.request_id, created_at=now,
                    **stored)
    step_audit = (f"player:{auth.player_id}", "round.step",
                  {"round_id": row.id, "step": index, "kind": req.kind, "choice": req.choice,
                   "finished": after.finished, "digest": audit.step_digest(**stored)}, now)
    status, closed, win_minor, moves, outbox, audits, funded, balance = money
    return StepDecision(row.id, _columns(status, phase, now, closed, win_minor), step_row,
                        moves, outbox, audits, step_audit, funded, None, balance,
                        _gamble_meter(served, funding, row, after, index, result))


def _gamble_meter(served: ServedGame, funding: Funding, row: Any, after: Any, index: int,
                  result: dict) -> tuple[int, int, bool] | None:
    """The paytable's win of the round apart from what the choice on it made of it, where a
    choice on the win ended (None otherwise, and on a seamless wallet: its money is in the
    operator's wallet, unmetered). A choice that ended at its first step paying the win
    unchanged (collected) was no gamble."""
    if not after.finished or "paid_credits" not in result or not funding.metered:
        return None
    paytable = capped_payment(served, Outcome.from_dict(loads(row.outcome)).total_win, {})
    paid = capped_payment(served, result["paid_credits"], {})
    return paytable, paid, index > 0 or paid != paytable


# (status, closed, win_minor, moves, outbox, audits, funded round, balance after)
_Money = tuple[str, bool, int | None, tuple[ledger.Move, ...], tuple[dict[str, Any], ...],
               tuple[Audit, ...], BetDecision | None, int]


def _bank(served: ServedGame, auth: Auth, state: StepState, req: StepRequest,
          funding: Funding, phase: dict, after: Any, index: int, result: dict) -> _Money:
    """What an unfinished choice has banked (its settlement's credits: a red/black TAKE HALF, a
    wheel amount lowered) is the player's whatever follows: paid now, in this step's
    transaction, up to the round's cap; the win meter then holds only what is still at
    stake."""
    row = state.row
    phase["pending_credits"] = served.game.at_stake(after)
    banked = capped_payment(served, served.game.settle(after).credits, {})
    due = banked - phase.get("banked_minor", 0)
    if due <= 0:
        return row.status, False, None, (), (), (), None, state.balance
    paid = funding.bank(row.id, due, index, req.now)
    phase["banked_minor"] = banked
    result["banked_minor"] = due
    said = (f"player:{auth.player_id}", "round.banked",
            {"round_id": row.id, "step": index, "amount_minor": due}, req.now)
    return (row.status, False, None, paid.moves, paid.outbox, (said,), None,
            state.balance + paid.balance)


def _finish(served: ServedGame, auth: Auth, state: StepState, req: StepRequest,
            funding: Funding, phase: dict, after: Any, index: int, result: dict) -> _Money:
    """A finished choice's settlement, whatever its kind: the credits it debits from the
    balance, then, for a choice on the round's win, the credits it pays (and a bonus it won,
    played first) as the round's win; a choice on the balance (offered once the round was
    credited) closes the round, after deciding the round it funded, if any."""
    row, now = state.row, req.now
    outcome = Outcome.from_dict(loads(row.outcome))
    settled = served.game.settle(after)
    if settled.carry is not None:
        result["carry"] = dict(settled.carry)
    moves: tuple[ledger.Move, ...] = ()
    balance = state.balance
    if settled.debits:
        wager = settled.debits * served.denomination
        taken = funding.debit(row.id, after.offer.kind, wager, index, now)
        moves, balance = taken.moves, balance + taken.balance
        result["wagered_minor"] = wager
    if phase.get("balance") is None:  # offered on the round's win
        credits = paid_credits(served, outcome, settled, result, req.bonus_seed)
        result["paid_credits"] = credits
        paid = capped_payment(served, credits, phase)
        # due >= 0: banked is min(part of the win, cap), paid min(all of it, cap)
        due = paid - phase.get("banked_minor", 0)
        done = funding.pay(served, outcome, row.id, row.stake_minor, paid, due, balance, phase,
                           now, step=index, from_step=index + 1)
        moved = done.transition
        assert moved is not None
        said = (f"player:{auth.player_id}", moved.audit_kind, moved.audit_body, now)
        return (moved.status, moved.closed, moved.win_minor, moves + done.moves, done.outbox,
                (said,), None, done.balance)
    phase.update(offers=[])
    if not settled.funded_round:
        return "closed", True, None, moves, (), (), None, balance
    child = req.funded_round_id
    phase["next_round_id"] = child
    result["next_round_id"] = child
    bet = outcome.bet.to_bet()
    seed = req.funded_seed
    funded = served.game.play(bet, live_generator(seed), seed)
    funded_dict = funded.to_dict()
    child_row = round_values(child, auth, served, internal_request_id("funded", row.id), bet,
                             0, seed, fast_dumps(funded_dict), now, funded_by=row.id)
    decided = settle_bet(served, auth.player_id, child_row, funded, funded_dict,
                         PlayerState(balance, None, (), state.pool), funding, now)
    return "closed", True, None, moves, (), (), decided, decided.balance_after


def paid_credits(served: ServedGame, outcome: Outcome, settled: Settlement, result: dict,
                 seed: int) -> int:
    """The credits a finished choice on the win pays: its settlement's, and what a bonus it
    won pays, played from `seed` (its outcome kept in the step's `result`, for replay)."""
    if not settled.bonus:
        return settled.credits
    played = play_bonus(served.game, outcome.bet.to_bet(), settled.bonus, live_generator(seed),
                        seed)
    result["bonus_outcome"] = played.to_dict()
    return settled.credits + played.total_win


def _reprice(served: ServedGame, auth: Auth, row: Any, phase: dict, balance: int,
             now: int) -> StepDecision | None:
    """A choice offered on the balance is played on the balance read now, under the lock (the
    Spin Chance sheet: "wager their remaining credit"), never on the credit of the offer: a
    bet on another game may have moved it since. Where the balance now calls for no choice,
    the round closes (the offers lapsed) with the refusal to answer."""
    credits = balance // served.denomination
    if credits == phase["balance"]:
        return None
    outcome = Outcome.from_dict(loads(row.outcome))
    offered = phase["balance"]
    phase["balance"] = credits
    offers = served.game.offers(outcome, credits, gamble_settled=phase["gamble_settled"])
    if offers:
        phase["offers"] = [o.to_dict() for o in offers]
        return None
    phase.update(offers=[], balance_after_minor=balance)
    said = (f"player:{auth.player_id}", "round.closed",
            {"round_id": row.id, "stake_minor": row.stake_minor, "win_minor": row.win_minor,
             "lapsed": f"balance {balance}"}, now)
    refusal = ApiError("STEP_NOT_ALLOWED", f"round {row.id}: the balance is now {balance} "
                       f"minor units ({credits} credits), which calls for none of the choices "
                       f"offered on {offered} credits; they lapsed and the round is closed")
    return StepDecision(row.id, _columns("closed", phase, now, True, None), None, (), (),
                        (said,), None, None, refusal, balance)


def _columns(status: str, phase: dict, now: int, closed: bool,
             win_minor: int | None) -> dict[str, Any]:
    """The round's columns a step sets (`round_rows.update_round`'s)."""
    values: dict[str, Any] = {"status": status, "phase": dumps(phase), "updated_at": now}
    if closed:
        values["closed_at"] = now
    if win_minor is not None:
        values["win_minor"] = win_minor
    return values
