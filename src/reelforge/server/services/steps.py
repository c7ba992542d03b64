"""The player's choices after a round (Cluedo's red/black gamble, Cops n Robbers' cash and bonus
wheels, Spin Chance) as steps of the round: each one request, idempotent on its request id,
committed (with its seed, its result and any money it moves) before it is answered.

Nothing of a choice's state is stored but its inputs: the round's outcome, the balance the
offers were made on, and each step's choice and seed. The state in play is rebuilt by playing
the steps again (every step is a pure function of state, choice and rng), so a restarted
server resumes a gamble exactly where it was, and `verify` replays it the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, insert, select, update

from reelforge.engine.outcome import Outcome
from reelforge.engine.protocol import Settlement
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.engine.round import play_bonus
from reelforge.errors import ReelforgeError
from reelforge.server.context import Context
from reelforge.server.db.tables import OPEN_STATUSES, players, round_steps, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, ledger, meter_rows
from reelforge.server.services.bet_checks import check_pace
from reelforge.server.services.common import (
    crash_point,
    dumps,
    internal_request_id,
    loads,
    new_round_id,
    now_us,
)
from reelforge.server.services.round_rows import (
    find_round,
    insert_round,
    lock_player,
    update_round,
)
from reelforge.server.services.round_views import (
    rebuild,
    round_view,
    served_for_round,
    start_choice,
    state_dict,
)
from reelforge.server.services.sessions import Auth, balance_of, house_account, player_account
from reelforge.server.services.settle import credit_and_finish, credit_banked, settle_outcome
from reelforge.server.services.transitions import capped_payment
from reelforge.server.wallets.rounds import deliver_pending

MAX_STEPS = 1000  # a gamble ends long before; a client looping on "amount" does not


def _carried(conn: Connection, player_id: int, game_key: str, kind: str) -> Any:
    """What the player's last choice of this kind in this game left for the next one (its
    settlement's `carry`: a card history on screen), or None. A step stored before carries
    were stored left its whole state, which the game reads the same way."""
    row = conn.execute(
        select(round_steps.c.result).join(rounds, rounds.c.id == round_steps.c.round_id)
        .where(rounds.c.player_id == player_id, rounds.c.game_key == game_key,
               round_steps.c.kind == kind)
        .order_by(round_steps.c.created_at.desc()).limit(1)).first()
    if row is None:
        return None
    stored = loads(row.result)
    return stored.get("carry", stored.get("state"))


def take_step(ctx: Context, auth: Auth, round_id: str, request_id: str, kind: Any,
              choice: Any) -> dict:
    now = now_us()
    with ctx.begin() as conn:
        player = lock_player(conn, auth.player_id)
        row = find_round(conn, auth.player_id, round_id)
        served = served_for_round(auth, row)
        steps = conn.execute(select(round_steps).where(round_steps.c.round_id == row.id)
                             .order_by(round_steps.c.idx)).all()
        seen = next((s for s in steps if s.request_id == request_id), None)
        if seen is not None:
            if (seen.kind, loads(seen.choice)) != (kind, choice):
                raise ApiError("REQUEST_ID_REUSED", f"request id {request_id!r}: already used "
                               f"for step {seen.idx} ({seen.kind} {loads(seen.choice)!r})")
            return round_view(conn, ctx, auth, row)
        if row.status not in OPEN_STATUSES:
            raise ApiError("STEP_NOT_ALLOWED", f"round {row.id} is {row.status}: no choice left")
        if len(steps) >= MAX_STEPS:
            raise ApiError("STEP_NOT_ALLOWED", f"round {row.id}: {MAX_STEPS} steps already")
        phase = loads(row.phase)
        lapsed = _reprice(conn, served, auth, row, phase, steps, now)
        if lapsed is None:
            if _on_balance(phase, steps):
                # A choice offered on the balance wagers the player's own funds: a game cycle
                # of its own (the round it may fund starts now), under the profile's pace,
                # refused before anything is drawn.
                check_pace(served, player.last_round_at, now)
            _play_step(conn, served, auth, row, phase, steps, request_id, kind, choice, now)
        crash_point("step.before_commit")
    if lapsed is not None:
        raise lapsed
    crash_point("step.after_commit")
    if auth.operator.wallet == "seamless":
        deliver_pending(ctx, round_id=round_id)
    with ctx.begin() as conn:
        return round_view(conn, ctx, auth, find_round(conn, auth.player_id, round_id))


def _on_balance(phase: dict, steps: Sequence) -> bool:
    """Whether the next step opens a choice offered on the player's balance (not on a win)."""
    return phase.get("balance") is not None and not any(
        s.idx >= phase["from_step"] for s in steps)


def _reprice(conn: Connection, served, auth: Auth, row, phase: dict, steps: Sequence,
             now: int) -> ApiError | None:
    """A choice offered on the balance is played on the balance read now, under the lock (the
    Spin Chance sheet: "wager their remaining credit"), never on the credit of the offer: a
    bet on another game may have moved it since. Where the balance now calls for no choice,
    the round closes (the offers lapsed) and the error to answer is returned."""
    if not _on_balance(phase, steps):
        return None
    balance = balance_of(conn, auth.operator, auth.player_id)
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
    update_round(conn, row.id, "closed", phase, now, closed=True)
    audit.append(conn, f"player:{auth.player_id}", "round.closed",
                 {"round_id": row.id, "stake_minor": row.stake_minor, "win_minor": row.win_minor,
                  "lapsed": f"balance {balance}"}, now)
    return ApiError("STEP_NOT_ALLOWED", f"round {row.id}: the balance is now {balance} minor "
                    f"units ({credits} credits), which calls for none of the choices offered "
                    f"on {offered} credits; they lapsed and the round is closed")


def _play_step(conn: Connection, served, auth: Auth, row, phase: dict, steps: Sequence,
               request_id: str, kind: Any, choice: Any, now: int) -> None:
    offers, state = rebuild(served, row, phase, steps)
    active = None if state is None else state.offer.kind
    if active is not None and kind != active:
        raise ApiError("STEP_NOT_ALLOWED", f"step kind {kind!r}: the {active} in play "
                       "must be finished first")
    opened = None
    if state is None:
        phase["carried"] = _carried(conn, auth.player_id, row.game_key, kind)
        state = start_choice(served.game, offers, kind, phase)
        opened = {"balance": phase["balance"], "gamble_settled": phase["gamble_settled"],
                  "carried": phase["carried"]}
    seed = new_live_seed()
    try:
        after = served.game.step(state, choice, live_generator(seed))
    except (ReelforgeError, TypeError, ValueError) as exc:
        raise ApiError("STEP_NOT_ALLOWED", f"round {row.id}: {exc}") from None
    index = len(steps)
    result: dict[str, Any] = {"state": state_dict(after.state), "finished": after.finished}
    if opened is not None:
        result["opened"] = opened
    if after.finished:
        _finish(conn, served, auth, row, phase, after, index, result, now)
    else:
        _bank(conn, served, auth, row, phase, after, index, result, now)
        update_round(conn, row.id, row.status, phase, now)
    stored = {"kind": kind, "choice": dumps(choice), "seed": f"{seed:064x}",
              "result": dumps(result)}
    conn.execute(insert(round_steps).values(round_id=row.id, idx=index, request_id=request_id,
                                            created_at=now, **stored))
    audit.append(conn, f"player:{auth.player_id}", "round.step",
                 {"round_id": row.id, "step": index, "kind": kind, "choice": choice,
                  "finished": after.finished, "digest": audit.step_digest(**stored)}, now)


def _bank(conn: Connection, served, auth: Auth, row, phase: dict, after, index: int,
          result: dict, now: int) -> None:
    """What an unfinished choice has banked (its settlement's credits: a red/black TAKE HALF, a
    wheel amount lowered) is the player's whatever follows: credited now, in this step's
    transaction, up to the round's cap; the win meter then holds only what is still at
    stake."""
    phase["pending_credits"] = served.game.at_stake(after)
    banked = capped_payment(served, served.game.settle(after).credits, {})
    due = banked - phase.get("banked_minor", 0)
    if due <= 0:
        return
    credit_banked(conn, served, auth, row.id, due, index, now)
    phase["banked_minor"] = banked
    result["banked_minor"] = due


def _finish(conn: Connection, served, auth: Auth, row, phase: dict, after, index: int,
            result: dict, now: int) -> None:
    """Apply a finished choice's settlement, whatever its kind: the credits it debits from the
    balance, then, for a choice on the round's win, the credits it pays (and a bonus it won,
    played first) as the round's win; a choice on the balance (offered once the round was
    credited) closes the round, after playing the round it funded, if any."""
    outcome = Outcome.from_dict(loads(row.outcome))
    settled = served.game.settle(after)
    if settled.carry is not None:
        result["carry"] = dict(settled.carry)
    if settled.debits:
        kind = after.offer.kind
        wager = settled.debits * served.denomination
        ledger.transfer(conn, txn=f"{row.id}:{kind}", source=player_account(
            conn, auth.operator, auth.player_id), target=house_account(
            conn, auth.operator, auth.player_id), amount=wager, kind=kind, now=now,
            round_id=row.id, step=index)
        result["wagered_minor"] = wager
    if phase.get("balance") is None:  # offered on the round's win
        credits = paid_credits(served, outcome, settled, result)
        result["paid_credits"] = credits
        credit_and_finish(conn, served, auth, row.id, outcome, credits, phase, row.stake_minor,
                          from_step=index + 1, now=now, step=index,
                          banked=phase.get("banked_minor", 0))
        _meter_gamble(conn, served, auth, row, outcome, credits, index)
        return
    phase.update(offers=[])
    if not settled.funded_round:
        update_round(conn, row.id, "closed", phase, now, closed=True)
        return
    child = new_round_id()
    phase["next_round_id"] = child
    update_round(conn, row.id, "closed", phase, now, closed=True)
    bet = outcome.bet.to_bet()
    seed = new_live_seed()
    funded = served.game.play(bet, live_generator(seed), seed)
    insert_round(conn, child, auth, served, internal_request_id("funded", row.id), bet,
                 0, seed, funded, now, funded_by=row.id)
    conn.execute(update(players).where(players.c.id == auth.player_id)
                 .values(last_round_at=now))  # the funded round starts the pace again
    settle_outcome(conn, served, auth, child, funded, 0, now)
    result["next_round_id"] = child


def _meter_gamble(conn: Connection, served, auth: Auth, row, outcome: Outcome, credits: int,
                  index: int) -> None:
    """The back office's gamble meter (standards.md D5): the paytable's win of the round
    apart from what the choice on it made of it. A choice that ended at its first step
    paying the win unchanged (collected) was no gamble."""
    if auth.operator.wallet == "seamless":  # its money is in the operator's wallet, unmetered
        return
    paytable = capped_payment(served, outcome.total_win, {})
    paid = capped_payment(served, credits, {})
    # the round's house shard, locked before its meter rows (meter_rows' lock order)
    ledger.lock_balance(conn, house_account(conn, auth.operator, auth.player_id))
    meter_rows.gamble_settled(conn, row.id, paytable, paid,
                              gambled=index > 0 or paid != paytable)


def paid_credits(served, outcome: Outcome, settled: Settlement, result: dict) -> int:
    """The credits a finished choice on the win pays: its settlement's, and what a bonus it
    won pays, played now from its own seed (its outcome kept in the step's `result`, for
    replay)."""
    if not settled.bonus:
        return settled.credits
    seed = new_live_seed()
    played = play_bonus(served.game, outcome.bet.to_bet(), settled.bonus, live_generator(seed),
                        seed)
    result["bonus_outcome"] = played.to_dict()
    return settled.credits + played.total_win


def replay_steps(row, steps: Sequence) -> list[str]:
    """Differences between each stored step's result and what its seed plays now, each choice
    opened on the offers its first step recorded (`opened`)."""
    from reelforge.games import make

    problems: list[str] = []
    if not steps:
        return problems
    game = make(row.game_id)
    known = {name for step in game.choice_steps for name in step.settings}
    if "gamble_offer" in known:
        game = game.configure(gamble_offer=(loads(row.phase) or {}).get("gamble", "on"))
    outcome = Outcome.from_dict(loads(row.outcome))
    state = None
    for s in steps:
        stored = loads(s.result)
        try:
            if state is None or state.finished:
                opened = stored["opened"]
                offers = game.offers(outcome, opened["balance"],
                                     gamble_settled=opened["gamble_settled"])
                state = start_choice(game, offers, s.kind, opened)
            state = game.step(state, loads(s.choice), live_generator(int(s.seed, 16)))
        except (ApiError, ReelforgeError, KeyError) as exc:
            problems.append(f"step {s.idx} ({s.kind}): cannot replay: {exc}")
            return problems
        if state_dict(state.state) != stored["state"]:
            problems.append(f"step {s.idx} ({s.kind} {loads(s.choice)!r}): the stored state "
                            "differs from its replay")
        bonus = stored.get("bonus_outcome")
        if bonus is None:
            continue
        # A bonus won in a choice is the bonus alone (`paid_credits`), played again the same way
        # from its own seed: `game.replay` would play a whole round from that seed.
        try:
            seed = int(bonus["seed"], 16)
            again = play_bonus(game, outcome.bet.to_bet(), game.settle(state).bonus,
                               live_generator(seed), seed).to_dict()
        except (ReelforgeError, KeyError, TypeError, ValueError) as exc:
            problems.append(f"step {s.idx}: the bonus outcome cannot be replayed: {exc}")
            continue
        if again != bonus:
            problems.append(f"step {s.idx}: the bonus outcome differs from its replay")
    return problems
