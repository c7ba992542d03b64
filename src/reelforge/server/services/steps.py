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

from reelforge.engine.outcome import Outcome
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.engine.round import play_bonus
from reelforge.errors import ReelforgeError
from reelforge.server.context import Context
from reelforge.server.errors import ApiError
from reelforge.server.services.bet_writer import AGAIN, Stepped, commit
from reelforge.server.services.common import loads, new_round_id, now_us
from reelforge.server.services.round_batch import writer
from reelforge.server.services.round_rows import find_round
from reelforge.server.services.round_views import round_view, start_choice, state_dict
from reelforge.server.services.sessions import Auth
from reelforge.server.services.step_decision import StepPlacement, StepRequest
from reelforge.server.wallets.rounds import deliver_pending


def take_step(ctx: Context, auth: Auth, round_id: str, request_id: str, kind: Any,
              choice: Any) -> dict:
    """The player's choice in round `round_id`: decided (`decide_step`, on the state read
    under the player's lock, under the round's own rules) and written by the bet writer,
    batched with other players' bets and steps (a ledger wallet's, where the process batches)
    or as a batch of one, committed before it is answered."""
    step = StepPlacement(auth, round_id, StepRequest(
        request_id, kind, choice, new_live_seed(), new_live_seed(), new_live_seed(),
        new_round_id(), now_us()))
    done: Any = AGAIN
    if ctx.batch_rounds and auth.operator.wallet == "ledger":
        done = writer(ctx).place(step)
    if done is AGAIN:  # held back from a batch, or a batch that could not commit: alone
        done = commit(ctx, [step])[0]
    if isinstance(done, ApiError):
        raise done
    assert isinstance(done, Stepped), done
    if auth.operator.wallet == "seamless":
        deliver_pending(ctx, round_id=round_id)
    with ctx.read() as conn:
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
