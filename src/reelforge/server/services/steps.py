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

from sqlalchemy import Connection, select

from reelforge.engine.outcome import Outcome
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.engine.round import play_bonus
from reelforge.errors import ReelforgeError
from reelforge.server.context import Context
from reelforge.server.db.tables import OPEN_STATUSES, round_steps, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services.bet_checks import touches_pool
from reelforge.server.services.bet_decision import Funding, LedgerFunding, SeamlessFunding
from reelforge.server.services.bet_writer import apply_steps, lock
from reelforge.server.services.common import crash_point, loads, new_round_id, now_us
from reelforge.server.services.round_rows import find_round, lock_player
from reelforge.server.services.round_views import (
    round_view,
    served_for_round,
    start_choice,
    state_dict,
)
from reelforge.server.services.sessions import Auth, house_account, player_account
from reelforge.server.services.step_decision import (
    StepRequest,
    StepState,
    decide_step,
    on_balance,
    opens_choice,
)
from reelforge.server.wallets.rounds import deliver_pending


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
    """The player's choice in round `round_id`: decided (`decide_step`, on the state read
    under the player's lock, under the round's own rules) and written by the bet writer in
    one transaction, committed before it is answered."""
    req = StepRequest(request_id, kind, choice, new_live_seed(), new_live_seed(),
                      new_live_seed(), new_round_id(), now_us())
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
        op = auth.operator
        house = house_account(conn, op, auth.player_id)
        phase = loads(row.phase) or {}
        pool_keys: dict[str, str] = {}
        # a choice on the balance may fund a round, which may touch the pool
        if (row.status in OPEN_STATUSES and phase.get("offers") and on_balance(phase, steps)
                and touches_pool(served, Outcome.from_dict(loads(row.outcome)).bet.to_bet())):
            pool_keys[served.pool_key()] = op.currency
        funding: Funding
        if op.wallet == "seamless":
            funding, account = SeamlessFunding(auth, row.game_key, house), None
        else:
            account = player_account(conn, op, auth.player_id)
            funding = LedgerFunding(account, house)
        _, balances, pools = lock(conn, [auth.player_id], {house} | (
            set() if account is None else {account}), pool_keys)
        carried = (_carried(conn, auth.player_id, row.game_key, kind)
                   if opens_choice(phase, steps) else None)
        state = StepState(row, steps, 0 if account is None else balances[account],
                          player.last_round_at, carried,
                          next(iter(pools.values()), None))
        decision = decide_step(served, auth, state, req, funding)
        apply_steps(conn, [decision], balances, pools)
        crash_point("step.before_commit")
    if decision.refusal is not None:
        raise decision.refusal
    crash_point("step.after_commit")
    if auth.operator.wallet == "seamless":
        deliver_pending(ctx, round_id=round_id)
    with ctx.begin() as conn:
        return round_view(conn, ctx, auth, find_round(conn, auth.player_id, round_id))


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
