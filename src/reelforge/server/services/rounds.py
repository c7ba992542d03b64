"""Rounds: the unit of play. A bet request (with the client's request id) becomes one round:
open -> debited -> outcome committed -> credited -> closed (or cancelled), all of it, with its
ledger entries and audit row, in ONE database transaction that commits before the response.
A round that offers the player a choice (a gamble, Spin Chance) stays open at its last
committed step; `steps.py` plays the choices.

The outcome is decided before the transaction (a fresh 256-bit seed from os.urandom keys
ChaCha20): if the transaction fails, nobody ever saw that outcome. The same request id again
returns the same round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, insert, or_, select, update

from reelforge.engine.outcome import Bet, Outcome
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.errors import ReelforgeError
from reelforge.server.context import Context
from reelforge.server.db.tables import OPEN_STATUSES, accounts, players, round_steps, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, jackpot, ledger
from reelforge.server.services.catalog import ServedGame, games_of, served_game
from reelforge.server.services.common import (
    crash_point,
    dumps,
    fast_dumps,
    loads,
    new_round_id,
    now_us,
)
from reelforge.server.services.sessions import Auth, balance_of, house_account, player_account

GAMBLE_KINDS = ("gamble", "wheel_gamble")


def lock_player(conn: Connection, player_id: int):
    """The player's row, locked: one request of a player changes money at a time."""
    return conn.execute(select(players).where(players.c.id == player_id).with_for_update()).one()


def open_rounds(conn: Connection, player_id: int) -> Sequence:
    return conn.execute(select(rounds).where(rounds.c.player_id == player_id,
                                             rounds.c.status.in_(OPEN_STATUSES))
                        .order_by(rounds.c.created_at)).all()


@dataclass(frozen=True)
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

    def batchable(self) -> bool:
        """Whether a batch of other players' rounds may carry it (services/round_batch.py)."""
        return batchable(self.auth, self.served, self.bet)


def batchable(auth: Auth, served: ServedGame, bet: Bet) -> bool:
    return auth.operator.wallet == "ledger" and not _touches_pool(served, bet)


def checked(auth: Auth, game_key: str, lines: Any, bet_per_line: Any,
            mode: Any) -> tuple[ServedGame, Bet]:
    """The game and the bet, checked against its bet structure and the stake limits."""
    served = served_game(auth.operator, game_key)
    return served, served.check_bet(lines, bet_per_line, mode, auth.max_stake_minor)


def draw(auth: Auth, served: ServedGame, request_id: str, bet: Bet) -> Placement:
    """A checked bet's outcome drawn: before any lock or transaction (see the module's
    docstring)."""
    game = served.game
    seed = new_live_seed()
    outcome = game.play(bet, live_generator(seed), seed)
    return Placement(auth, served, request_id, bet, game.price(bet) * served.denomination,
                     seed, outcome, now_us())


def play(ctx: Context, auth: Auth, game_key: str, request_id: str, lines: Any,
         bet_per_line: Any, mode: Any, batch: bool = True) -> dict:
    """Place a bet and play the round; the same request id twice is one round. `batch`: let
    the process's writer commit it with other bets (off: this round's own transaction)."""
    if auth.operator.wallet != "ledger":
        raise ApiError("WALLET_UNAVAILABLE", "seamless wallet rounds go through wallets.rounds")
    served, bet = checked(auth, game_key, lines, bet_per_line, mode)
    placement = draw(auth, served, request_id, bet)
    if batch and ctx.batch_rounds and placement.batchable():
        from reelforge.server.services.round_batch import AGAIN, writer

        done = writer(ctx).place(placement)
        if isinstance(done, ApiError):
            raise done
        if done is not AGAIN:
            return done
        # a repeated request id, or a batch that could not commit: the round alone, below
    return play_alone(ctx, placement)


def play_alone(ctx: Context, placement: Placement) -> dict:
    """The round in its own transaction."""
    auth, served, request_id, bet = (placement.auth, placement.served, placement.request_id,
                                     placement.bet)
    op, game_key, now = auth.operator, served.key, placement.now
    price_minor, seed, outcome = placement.price_minor, placement.seed, placement.outcome
    with ctx.begin() as conn:
        account = player_account(conn, op, auth.player_id)
        # one statement: the player's row locked (every change to the player's money happens
        # under it) and the balance it guards
        player = conn.execute(_LOCK_WITH_BALANCE, {"pid": auth.player_id,
                                                   "account": account}).one()
        # one statement: this request's round if it was played, and every unfinished one
        mine = conn.execute(_SAME_OR_OPEN, {"pid": auth.player_id, "rid": request_id}).all()
        done = next((r for r in mine if r.request_id == request_id), None)
        if done is not None:
            return _repeat(conn, ctx, auth, done, game_key, bet)
        _check_enabled(served)
        _check_no_open_round(conn, served, auth.player_id, mine)
        _check_pace(served, player.last_round_at, now)
        check_funds(player.balance, price_minor)
        round_id = new_round_id()
        outcome_dict = outcome.to_dict()
        _insert_round(conn, round_id, auth, served, request_id, bet, price_minor, seed, outcome,
                      now, funded_by=None, outcome_json=fast_dumps(outcome_dict))
        house = house_account(conn, op, auth.player_id)
        after_stake, _ = ledger.transfer(conn, txn=f"{round_id}:stake", source=account,
                                         target=house, amount=price_minor, kind="stake",
                                         now=now, round_id=round_id)
        conn.execute(_PACE, {"pid": auth.player_id, "now": now})
        settle_outcome(conn, served, auth, round_id, outcome, price_minor, now,
                       balance=after_stake)
        row = _round(conn, auth.player_id, round_id)
        if row.status == "closed":  # the usual round: its view from what is in hand
            view = _closed_view(row, outcome_dict, conn, auth)
        else:
            view = round_view(conn, ctx, auth, row)
        crash_point("round.before_commit")
    crash_point("round.after_commit")
    return view


# Built once: the round path runs them on every bet, and building costs more than running.
# Both rows locked: after waiting for another request's lock, PostgreSQL (READ COMMITTED)
# re-reads only the rows it locks; an unlocked account row would be the balance from before
# the wait (a stale check: a 500 from the overdraft constraint, or a wrong refusal).
_LOCK_WITH_BALANCE = (
    select(players.c.id, players.c.last_round_at, accounts.c.balance)
    .join(accounts, accounts.c.id == bindparam("account"))
    .where(players.c.id == bindparam("pid")).with_for_update(of=(players, accounts)))
_SAME_OR_OPEN = select(rounds).where(
    rounds.c.player_id == bindparam("pid"),
    or_(rounds.c.request_id == bindparam("rid"), rounds.c.status.in_(OPEN_STATUSES)))
_PACE = update(players).where(players.c.id == bindparam("pid")).values(
    last_round_at=bindparam("now"))


def _touches_pool(served: ServedGame, bet: Bet) -> bool:
    """A round that contributes to (or may win) the shared jackpot pool: played alone, under
    the pool row's lock, never in a batch of other players' rounds."""
    return served.profile.jackpots and served.jackpot_eligible(bet)


def check_funds(balance: int, price_minor: int) -> None:
    if balance < price_minor:
        raise ApiError("INSUFFICIENT_BALANCE", f"balance {balance} minor units does not cover "
                       f"the round's price of {price_minor}", balance_minor=balance)


def _closed_view(row, outcome_dict: dict, conn: Connection, auth: Auth) -> dict:
    """A round that closed within its bet: no steps, no choice, its balance in its phase."""
    phase = loads(row.phase) or {}
    balance = phase.get("balance_after_minor")
    return view_of(auth, row, (), balance_of(conn, auth.operator, auth.player_id)
                   if balance is None else balance,
                   jackpot.claim_of(conn, row.id) if phase.get("jackpot_claim_id") else None,
                   outcome_dict)


def _insert_round(conn: Connection, round_id: str, auth: Auth, served: ServedGame,
                  request_id: str, bet: Bet, price_minor: int, seed: int, outcome: Outcome,
                  now: int, funded_by: str | None, outcome_json: str | None = None) -> None:
    conn.execute(insert(rounds).values(**round_values(
        round_id, auth, served, request_id, bet, price_minor, seed,
        outcome_json or outcome.to_json(), now, funded_by)))


def round_values(round_id: str, auth: Auth, served: ServedGame, request_id: str, bet: Bet,
                 price_minor: int, seed: int, outcome_json: str, now: int,
                 funded_by: str | None) -> dict[str, Any]:
    """A new round's row, its outcome committed and nothing yet paid."""
    return dict(
        id=round_id, player_id=auth.player_id, session_id=auth.session_id,
        request_id=request_id, game_key=served.key, game_id=served.settings.game_id,
        game_sha256=served.game.spec.sha256, status="outcome_committed", currency=auth.currency,
        denomination=served.denomination, **pinned_rules(served),
        bet=dumps({"lines": bet.lines, "bet_per_line": bet.bet_per_line, "mode": bet.mode}),
        stake_minor=price_minor, win_minor=None, funded_by=funded_by, seed=f"{seed:064x}",
        outcome=outcome_json, phase=dumps({"gamble": gamble_setting(served)}),
        jackpot_claim_id=None, created_at=now, updated_at=now, closed_at=None)


def pinned_rules(served: ServedGame) -> dict[str, Any]:
    """The columns that pin the operator's rules in a new round's row (`served_for_round`)."""
    return {"gamble": gamble_setting(served), "win_cap_minor": served.settings.win_cap_minor}


def gamble_setting(served: ServedGame) -> str:
    return served.settings.gamble if served.profile.gamble else "off"


def settle_outcome(conn: Connection, served: ServedGame, auth: Auth, round_id: str,
                   outcome: Outcome, price_minor: int, now: int,
                   balance: int | None = None) -> list[str]:
    """After the outcome is stored: the jackpot's contribution and claim, then either hold the
    win for a gamble the round offers, or credit it (and offer Spin Chance or close)."""
    house = house_account(conn, auth.operator, auth.player_id)
    claim = None
    if _touches_pool(served, outcome.bet.to_bet()):
        if price_minor:
            jackpot.contribute(conn, served.pool_key(), price_minor, house, round_id, now)
        if "jackpot" in outcome.flags:
            claim = jackpot.claim(conn, served.pool_key(), round_id, auth.player_id, house, now)
    phase: dict[str, Any] = {"gamble": gamble_setting(served)}
    if claim is not None:
        phase["jackpot_claim_id"] = claim["id"]
    held = hold_for_choice(served, outcome, round_id, price_minor, phase)
    if held is not None:
        _apply(conn, auth, round_id, held, phase, now)
        return list(held.said)
    return credit_and_finish(conn, served, auth, round_id, outcome, outcome.total_win, phase,
                             price_minor, from_step=0, now=now, balance=balance)


@dataclass(frozen=True)
class Transition:
    """Where a round goes next and what its audit row says: decided in Python alone, then
    written by the single round's path (`_apply`) or by a batch (`round_batch`)."""

    status: str
    audit_kind: str
    audit_body: dict
    closed: bool = False
    win_minor: int | None = None
    said: tuple[str, ...] = ()


def hold_for_choice(served: ServedGame, outcome: Outcome, round_id: str, price_minor: int,
                    phase: dict) -> Transition | None:
    """The win held for a choice the round offers (a gamble), or None: credit it now."""
    offers = served.game.offers(outcome, None)  # without a balance: only what the win offers
    if not offers:
        return None
    phase.update(offers=[o.to_dict() for o in offers], balance=None, gamble_settled=False,
                 from_step=0, pending_credits=outcome.total_win)
    return Transition("outcome_committed", "round.outcome",
                      _audit_body(round_id, price_minor, None, offers=[o.kind for o in offers]))


def wagers_balance(served: ServedGame) -> bool:
    """Whether a round's end may offer a choice on the player's balance (Spin Chance: its
    remaining credit wagered at odds). That is a gamble of the player's own funds: a profile
    that allows no gamble (DE, standards.md D6 and I9) offers none, so the game is asked
    without a balance."""
    return served.profile.gamble


def capped_payment(served: ServedGame, credits: int, phase: dict) -> int:
    """`credits` of win in minor units, cut to the operator's cap (the phase says from what)."""
    win_minor = credits * served.denomination
    cap = served.settings.win_cap_minor
    paid = win_minor if cap is None else min(win_minor, cap)
    if paid != win_minor:
        phase["capped_from_minor"] = win_minor
    return paid


def after_credit(served: ServedGame, outcome: Outcome, round_id: str, price_minor: int,
                 paid: int, after: int, phase: dict, from_step: int) -> Transition:
    """Once `paid` is credited and the balance is `after`: Spin Chance where that balance calls
    for it, else the round closes."""
    phase["balance_after_minor"] = after  # the funds at the round's end, for its history
    balance_credits = after // served.denomination
    offers = served.game.offers(outcome, balance_credits if wagers_balance(served) else None,
                                gamble_settled=True)
    if offers:
        phase.update(offers=[o.to_dict() for o in offers], balance=balance_credits,
                     gamble_settled=True, from_step=from_step, pending_credits=0)
        return Transition("credited", "round.credited",
                          _audit_body(round_id, price_minor, paid,
                                      offers=[o.kind for o in offers]),
                          win_minor=paid, said=("credited",))
    phase.update(offers=[], pending_credits=0)
    return Transition("closed", "round.closed", _audit_body(round_id, price_minor, paid),
                      closed=True, win_minor=paid, said=("credited", "closed"))


def _apply(conn: Connection, auth: Auth, round_id: str, step: Transition, phase: dict,
           now: int) -> None:
    _update(conn, round_id, step.status, phase, now, closed=step.closed,
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
        from reelforge.server.wallets.rounds import enqueue_credit

        enqueue_credit(conn, auth, round_id, served.key, due, now)
        phase.update(offers=[], pending_credits=0, credit_pending=True)
        _update(conn, round_id, "outcome_committed", phase, now, win_minor=paid)
        audit.append(conn, f"player:{auth.player_id}", "round.credit_queued",
                     _audit_body(round_id, price_minor, paid), now)
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
    _apply(conn, auth, round_id, done, phase, now)
    return list(done.said)


def credit_banked(conn: Connection, served: ServedGame, auth: Auth, round_id: str,
                  amount: int, step: int, now: int) -> None:
    """Credit `amount` minor units a gamble banked at `step`, while the round stays open for
    the rest of the gamble (seamless: owed to the operator's wallet as a credit of its own)."""
    if auth.operator.wallet == "seamless":
        from reelforge.server.wallets.rounds import enqueue_banked

        enqueue_banked(conn, auth, round_id, served.key, amount, step, now)
    else:
        ledger.transfer(conn, txn=f"{round_id}:bank:{step}",
                        source=house_account(conn, auth.operator, auth.player_id),
                        target=player_account(conn, auth.operator, auth.player_id),
                        amount=amount, kind="win", now=now, round_id=round_id, step=step)
    audit.append(conn, f"player:{auth.player_id}", "round.banked",
                 {"round_id": round_id, "step": step, "amount_minor": amount}, now)


def _audit_body(round_id: str, stake: int, win: int | None, **more: Any) -> dict:
    return {"round_id": round_id, "stake_minor": stake, "win_minor": win, **more}


def _update(conn: Connection, round_id: str, status: str, phase: dict, now: int,
            closed: bool = False, win_minor: int | None = None) -> None:
    values: dict[str, Any] = {"status": status, "phase": dumps(phase), "updated_at": now}
    if closed:
        values["closed_at"] = now
    if win_minor is not None:  # set with the status: one UPDATE per transition
        values["win_minor"] = win_minor
    conn.execute(update(rounds).where(rounds.c.id == round_id).values(**values))


def _check_no_open_round(conn: Connection, served: ServedGame, player_id: int,
                         rows: Sequence | None = None) -> None:
    found = open_rounds(conn, player_id) if rows is None else [
        r for r in rows if r.status in OPEN_STATUSES]
    for row in found:
        if row.game_key == served.key or served.profile.one_game_at_a_time:
            raise ApiError("ROUND_ALREADY_OPEN", f"round {row.id} of {row.game_key!r} is still "
                           f"{row.status}: finish it first", round_id=row.id)


def _check_enabled(served: ServedGame) -> None:
    if not served.settings.enabled:
        raise ApiError("GAME_DISABLED", f"game {served.key!r}: disabled by the operator; "
                       "open rounds can still be finished")


def _check_pace(served: ServedGame, last: int | None, now: int) -> None:
    gap = served.profile.min_round_interval_ms * 1000
    if gap and last is not None and now - last < gap:
        wait_ms = (gap - (now - last) + 999) // 1000
        raise ApiError("TOO_FAST", f"the {served.profile.name} profile needs "
                       f"{served.profile.min_round_interval_ms} ms between rounds: wait "
                       f"{wait_ms} ms", retry_after_ms=wait_ms)


def _repeat(conn: Connection, ctx: Context, auth: Auth, row, game_key: str, bet: Bet) -> dict:
    """A request id seen before: the same request gets the same round; another is refused."""
    stored = loads(row.bet)
    same = (row.game_key == game_key and stored["lines"] == bet.lines
            and stored["bet_per_line"] == bet.bet_per_line and stored["mode"] == bet.mode)
    if not same:
        raise ApiError("REQUEST_ID_REUSED", f"request id {row.request_id!r}: already used for "
                       f"round {row.id} ({row.game_key}, {stored})")
    return round_view(conn, ctx, auth, row)


def _round(conn: Connection, player_id: int, round_id: str):
    # PostgreSQL refuses a NUL in any text it is sent (a 500): no round id holds one anyway.
    row = None if "\x00" in round_id else conn.execute(select(rounds).where(and_(
        rounds.c.id == round_id, rounds.c.player_id == player_id))).first()
    if row is None:
        raise ApiError("UNKNOWN_ROUND", f"round {round_id!r}: not a round of this player")
    return row


def get_round(ctx: Context, auth: Auth, round_id: str) -> dict:
    with ctx.read() as conn:
        return round_view(conn, ctx, auth, _round(conn, auth.player_id, round_id), full=True)


def round_view(conn: Connection, ctx: Context, auth: Auth, row, full: bool = False) -> dict:
    """The round as the client renders it: outcome, money, offers, the choice in play."""
    steps = conn.execute(select(round_steps).where(round_steps.c.round_id == row.id)
                         .order_by(round_steps.c.idx)).all()
    phase = loads(row.phase) or {}
    claim = jackpot.claim_of(conn, row.id) if phase.get("jackpot_claim_id") else None
    view = view_of(auth, row, steps, balance_of(conn, auth.operator, auth.player_id), claim)
    if full:
        view["ledger"] = movements(conn, row.id)
    return view


def view_of(auth: Auth, row, steps: Sequence, balance_minor: int, claim: dict | None,
            outcome_dict: dict | None = None) -> dict:
    """`round_view` from what is in hand: the row (or anything with its columns), its steps,
    the player's balance, the round's jackpot claim (and its outcome, if already parsed)."""
    from reelforge.server.services.steps import choice_view

    phase = loads(row.phase) or {}
    return {
        "round_id": row.id, "request_id": row.request_id, "game": row.game_key,
        "game_id": row.game_id, "status": row.status, "currency": row.currency,
        "denomination": row.denomination, "bet": loads(row.bet), "stake_minor": row.stake_minor,
        "win_minor": row.win_minor, "funded_by": row.funded_by,
        "outcome": loads(row.outcome) if outcome_dict is None else outcome_dict,
        "offers": phase.get("offers", []),
        "pending_win_credits": phase.get("pending_credits", 0),
        "capped_from_minor": phase.get("capped_from_minor"),
        "choice": (choice_view(served_for_round(auth, row), row, phase, steps)
                   if row.status in OPEN_STATUSES else None),
        "steps": [step_view(s) for s in steps],
        "next_round_id": phase.get("next_round_id"),
        "jackpot_claim": claim,
        "created_at_us": row.created_at, "closed_at_us": row.closed_at,
        "balance_minor": balance_minor,
    }


def step_view(row) -> dict:
    return {"index": row.idx, "request_id": row.request_id, "kind": row.kind,
            "choice": loads(row.choice), "seed": row.seed, "result": loads(row.result),
            "created_at_us": row.created_at}


def movements(conn: Connection, round_id: str) -> list[dict]:
    from reelforge.server.db.tables import accounts, ledger_entries

    rows = conn.execute(
        select(ledger_entries, accounts.c.kind.label("account_kind"))
        .join(accounts, accounts.c.id == ledger_entries.c.account_id)
        .where(ledger_entries.c.round_id == round_id).order_by(ledger_entries.c.id)).all()
    return [{"txn": r.txn, "account": r.account_kind, "amount_minor": r.amount,
             "balance_after_minor": r.balance_after if r.account_kind != "house" else None,
             "kind": r.kind, "step": r.step, "at_us": r.created_at} for r in rows]


def history(ctx: Context, auth: Auth, limit: int, before: str | None,
            game: str | None = None) -> dict:
    """The player's rounds, newest first, `limit` at a time; `before` a round id (the cursor);
    `game` keeps one game key's rounds (a key the operator does not offer finds none)."""
    titles = {g.key: g.game.title for g in games_of(auth.operator)}
    with ctx.read() as conn:
        query = select(rounds).where(rounds.c.player_id == auth.player_id)
        if game is not None:
            query = query.where(rounds.c.game_key == game)
        if before is not None:
            anchor = _round(conn, auth.player_id, before)
            query = query.where((rounds.c.created_at < anchor.created_at)
                                | and_(rounds.c.created_at == anchor.created_at,
                                       rounds.c.id < anchor.id))
        rows = conn.execute(query.order_by(rounds.c.created_at.desc(), rounds.c.id.desc())
                            .limit(limit + 1)).all()
    items = [{"round_id": r.id, "game": r.game_key, "game_id": r.game_id,
              "title": titles.get(r.game_key, r.game_key), "status": r.status,
              "stake_minor": r.stake_minor, "win_minor": r.win_minor,
              "balance_after_minor": (loads(r.phase) or {}).get("balance_after_minor"),
              "currency": r.currency,
              "funded_by": r.funded_by, "created_at_us": r.created_at,
              "closed_at_us": r.closed_at} for r in rows[:limit]]
    return {"rounds": items, "next": items[-1]["round_id"] if len(rows) > limit else None}


def verify(ctx: Context, auth: Auth, round_id: str) -> dict:
    """Replay the stored round from its seed, and every step from its own, and compare."""
    from reelforge.server.services.steps import replay_steps

    with ctx.read() as conn:
        row = _round(conn, auth.player_id, round_id)
        steps = conn.execute(select(round_steps).where(round_steps.c.round_id == row.id)
                             .order_by(round_steps.c.idx)).all()
    from reelforge.games import make

    problems: list[str] = []
    stored = loads(row.outcome)
    try:
        replayed = make(row.game_id).replay(stored).to_dict()
        if replayed != stored:
            where = next(k for k in stored if stored[k] != replayed.get(k))
            problems.append(f"outcome {where}: stored differs from its replay")
    except ReelforgeError as exc:  # a replay that cannot run is a failed verification
        problems.append(f"outcome: cannot replay: {exc}")
    problems += replay_steps(row, steps)
    return {"round_id": row.id, "matches": not problems, "problems": problems,
            "seed": row.seed, "game_id": row.game_id, "game_sha256": row.game_sha256}


def served_for_round(auth: Auth, row) -> ServedGame:
    """The game that played the round: its own file and settings, whatever the operator's
    configuration says now (a round always finishes under the rules it started with)."""
    from reelforge.server.services.catalog import ServedGame, _configured
    from reelforge.server.settings import GameSettings

    if row.gamble is not None:
        gamble, cap = row.gamble, row.win_cap_minor
    else:  # a round from before the rules were pinned (migration 0002)
        settings = auth.operator.game(row.game_key)
        gamble = (loads(row.phase) or {}).get("gamble", "on")
        cap = None if settings is None else settings.win_cap_minor
    base = GameSettings(row.game_key, row.game_id, row.denomination, gamble, cap)
    return ServedGame(auth.operator, base, _configured(row.game_id, base.gamble))
