"""Rounds: the unit of play. A bet request (with the client's request id) becomes one round:
open -> debited -> outcome committed -> credited -> closed (or cancelled), all of it, with its
ledger entries and audit row, in ONE database transaction that commits before the response.
A round that offers the player a choice (a gamble, Spin Chance) stays open at its last
committed step; `steps.py` plays the choices.

The outcome is drawn before the transaction (`placement.py`); the round is decided by
`bet_decision.decide_bet` and written by `bet_writer` (a batch of one, or the process's batch:
`round_batch.py`), a round of the jackpot pool too (a batch of one, never batched with
other players' rounds: `Placement.batchable`).
The same request id again returns the same round. History, detail and verify read rounds.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, select

from reelforge.errors import ReelforgeError
from reelforge.server.context import Context
from reelforge.server.db.tables import OPEN_STATUSES, jackpot_claims, round_steps, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services.bet_writer import AGAIN, Written, commit
from reelforge.server.services.catalog import games_of
from reelforge.server.services.common import loads
from reelforge.server.services.placement import Placement, checked, draw
from reelforge.server.services.round_batch import writer
from reelforge.server.services.round_rows import find_round, lock_player
from reelforge.server.services.round_views import (
    repeat_answer,
    round_view,
)
from reelforge.server.services.sessions import Auth
from reelforge.server.services.steps import replay_steps


def play(ctx: Context, auth: Auth, game_key: str, request_id: str, lines: Any,
         bet_per_line: Any, mode: Any, batch: bool = True) -> dict:
    """Place a bet and play the round; the same request id twice is one round. `batch`: let
    the process's writer commit it with other bets (off: this round's own transaction)."""
    if auth.operator.wallet != "ledger":
        raise ApiError("WALLET_UNAVAILABLE", "seamless wallet rounds go through wallets.rounds")
    served, bet = checked(auth, game_key, lines, bet_per_line, mode)
    placement = draw(auth, served, request_id, bet)
    if batch and ctx.batch_rounds and placement.batchable():
        done = writer(ctx).place(placement)
        if isinstance(done, ApiError):
            raise done
        if done is not AGAIN:
            return done
        # a repeated request id, or a batch that could not commit: the round alone, below
    return play_alone(ctx, placement)


def play_alone(ctx: Context, placement: Placement) -> dict:
    """The round in its own transaction: a batch of one of the bet writer (a round of the
    jackpot pool too: its contribution and claim are part of its decision)."""
    done = commit(ctx, [placement])[0]
    if isinstance(done, ApiError):
        raise done
    if isinstance(done, Written):
        return done.view(placement.auth)
    with ctx.begin() as conn:  # the request id was played: the same round again
        lock_player(conn, placement.auth.player_id)
        row = conn.execute(select(rounds).where(
            rounds.c.player_id == placement.auth.player_id,
            rounds.c.request_id == placement.request_id)).one()
        return repeat_answer(conn, ctx, placement.auth, row, placement.served.key,
                             placement.bet)


def get_round(ctx: Context, auth: Auth, round_id: str) -> dict:
    with ctx.read() as conn:
        return round_view(conn, ctx, auth, find_round(conn, auth.player_id, round_id), full=True)


def history(ctx: Context, auth: Auth, limit: int, before: str | None,
            game: str | None = None) -> dict:
    """The player's rounds, newest first, `limit` at a time; `before` a round id (the cursor);
    `game` keeps one game key's rounds (a key the operator does not offer finds none)."""
    titles = {g.key: g.game.title for g in games_of(auth.operator)}
    with ctx.read() as conn:
        # the jackpot a round won, beside it: the history names it (it is paid apart from
        # the round's win, from the pool, after verification)
        query = (select(rounds, jackpot_claims.c.amount_minor.label("jackpot_minor"),
                        jackpot_claims.c.status.label("jackpot_status"),
                        # the steps taken: a win held at the gamble offer with none is not
                        # "in gamble" to the player, who never pressed GAMBLE
                        select(func.count()).where(round_steps.c.round_id == rounds.c.id)
                        .scalar_subquery().label("step_count"))
                 .outerjoin(jackpot_claims, jackpot_claims.c.id == rounds.c.jackpot_claim_id)
                 .where(rounds.c.player_id == auth.player_id))
        if game is not None:
            query = query.where(rounds.c.game_key == game)
        if before is not None:
            anchor = find_round(conn, auth.player_id, before)
            query = query.where((rounds.c.created_at < anchor.created_at)
                                | and_(rounds.c.created_at == anchor.created_at,
                                       rounds.c.id < anchor.id))
        rows = conn.execute(query.order_by(rounds.c.created_at.desc(), rounds.c.id.desc())
                            .limit(limit + 1)).all()
    items = [history_item(r, titles) for r in rows[:limit]]
    return {"rounds": items, "next": items[-1]["round_id"] if len(rows) > limit else None}


def history_item(r, titles: dict[str, str]) -> dict:
    """One row of the history: a round waiting on a gamble of its win says what is at stake
    and what the gamble has banked (the phase's, as the round view's `pending_win_credits`),
    where its win is not known yet."""
    phase = loads(r.phase) or {}
    # held for a choice on its win (transitions.hold_for_choice: no balance in the phase);
    # Spin Chance, offered on the balance once the win is credited, holds nothing
    held = (r.status in OPEN_STATUSES and phase.get("balance", 0) is None
            and phase.get("pending_credits", 0) > 0)
    return {"round_id": r.id, "game": r.game_key, "game_id": r.game_id,
            "title": titles.get(r.game_key, r.game_key), "status": r.status,
            "stake_minor": r.stake_minor, "win_minor": r.win_minor,
            "balance_after_minor": phase.get("balance_after_minor"),
            "at_stake_minor": phase["pending_credits"] * r.denomination if held else None,
            "banked_minor": phase.get("banked_minor", 0) if held else None,
            # steps since the held choice opened (earlier steps belong to the round's bonus)
            "gamble_steps": max(0, r.step_count - phase.get("from_step", 0)) if held else None,
            "currency": r.currency,
            "funded_by": r.funded_by, "created_at_us": r.created_at,
            "closed_at_us": r.closed_at,
            "jackpot_minor": r.jackpot_minor,
            "jackpot_status": r.jackpot_status}


def verify(ctx: Context, auth: Auth, round_id: str) -> dict:
    """Replay the stored round from its seed, and every step from its own, and compare."""
    with ctx.read() as conn:
        row = find_round(conn, auth.player_id, round_id)
        steps = conn.execute(select(round_steps).where(round_steps.c.round_id == row.id)
                             .order_by(round_steps.c.idx)).all()
    from reelforge.games import make  # the registry loads every game: only when verifying

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
