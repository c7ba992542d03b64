"""The round as the client renders it (outcome, money, offers, the choice in play) and the
game that plays a stored round under its own rules. Choices are rebuilt from their stored
inputs alone: every step is a pure function of state, choice and rng, so a restarted server
shows a gamble exactly where it was."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, select

from reelforge.engine.outcome import Bet, Outcome
from reelforge.engine.rng import live_generator
from reelforge.server.context import Context
from reelforge.server.db.tables import OPEN_STATUSES, accounts, ledger_entries, round_steps
from reelforge.server.errors import ApiError
from reelforge.server.services import jackpot
from reelforge.server.services.catalog import ServedGame, configured_game
from reelforge.server.services.common import loads
from reelforge.server.services.sessions import Auth, balance_of
from reelforge.server.settings import GameSettings


def state_dict(state: Any) -> Any:
    if state is None:
        return None
    if hasattr(state, "to_dict"):
        return state.to_dict()
    if dataclasses.is_dataclass(state):
        return {f.name: plain_json(getattr(state, f.name)) for f in dataclasses.fields(state)}
    return plain_json(state)


def plain_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [plain_json(v) for v in value]
    if hasattr(value, "items"):
        return {str(k): plain_json(v) for k, v in value.items()}
    return value


def rebuild(served, row, phase: dict, steps: Sequence) -> tuple[tuple, Any]:
    """(the offers, the choice state in play or None) from the stored inputs alone."""
    game = served.game
    if "offers" not in phase or not phase["offers"]:
        return (), None
    outcome = Outcome.from_dict(loads(row.outcome))
    offers = game.offers(outcome, phase["balance"], gamble_settled=phase["gamble_settled"])
    played = [s for s in steps if s.idx >= phase["from_step"]]
    if not played:
        return offers, None
    state = start_choice(game, offers, played[0].kind, phase)
    for s in played:
        state = game.step(state, loads(s.choice), live_generator(int(s.seed, 16)))
    return offers, state


def start_choice(game, offers: tuple, kind: str, phase: dict):
    offer = next((o for o in offers if o.kind == kind), None)
    if offer is None:
        raise ApiError("STEP_NOT_ALLOWED", f"choice kind {kind!r}: not offered now "
                       f"({', '.join(o.kind for o in offers) or 'nothing'})")
    # `carried`: what the last choice of the kind left (a row from before carries were kept
    # has its fields in the phase itself, which the game reads the same way)
    return game.start(offer, carried=phase.get("carried", phase))


def choice_view(served, row, phase: dict, steps: Sequence) -> dict | None:
    offers, state = rebuild(served, row, phase, steps)
    if not offers:
        return None
    game = served.game
    if state is None:
        started = [start_choice(game, offers, o.kind, phase) for o in offers]
        return {"active": None, "state": None,
                "choices": {s.offer.kind: plain_json(game.choices(s)) for s in started},
                "odds": next((o for s in started if (o := choice_odds(game, s))), None)}
    return {"active": state.offer.kind, "state": state_dict(state.state),
            "choices": {state.offer.kind: plain_json(game.choices(state))},
            "odds": choice_odds(game, state)}


def choice_odds(game, state) -> dict[str, list[dict]] | None:
    """The wheel gamble's spins at each amount the arrows reach, as the step plays them (its
    `odds`): amount -> [{"choice", "target" (cash: credits won), "price" (bonus: credits'
    worth, [num, den]), "chance" ([num, den])}]. None for a step whose `odds` are None (a red/black card, Spin Chance)."""
    step = next((s for s in game.choice_steps if s.kind == state.offer.kind), None)
    table = None if step is None or state.finished else step.odds(state)
    if table is None:
        return None
    return {str(amount): [{"choice": list(choice),
                           "target": None if isinstance(win, Fraction) else win,
                           "price": exact(win) if isinstance(win, Fraction) else None,
                           "chance": exact(chance)}
                          for choice, (win, chance) in spins.items()]
            for amount, spins in table.items()}


def exact(value: Fraction) -> list[int]:
    return [value.numerator, value.denominator]


def closed_view(row, outcome_dict: dict, conn: Connection, auth: Auth) -> dict:
    """A round that closed within its bet: no steps, no choice, its balance in its phase."""
    phase = loads(row.phase) or {}
    balance = phase.get("balance_after_minor")
    return view_of(auth, row, (), balance_of(conn, auth.operator, auth.player_id)
                   if balance is None else balance,
                   jackpot.claim_of(conn, row.id) if phase.get("jackpot_claim_id") else None,
                   outcome_dict)


def repeat_answer(conn: Connection, ctx: Context, auth: Auth, row, game_key: str, bet: Bet) -> dict:
    """A request id seen before: the same request gets the same round; another is refused."""
    stored = loads(row.bet)
    same = (row.game_key == game_key and stored["lines"] == bet.lines
            and stored["bet_per_line"] == bet.bet_per_line and stored["mode"] == bet.mode)
    if not same:
        raise ApiError("REQUEST_ID_REUSED", f"request id {row.request_id!r}: already used for "
                       f"round {row.id} ({row.game_key}, {stored})")
    return round_view(conn, ctx, auth, row)


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
    rows = conn.execute(
        select(ledger_entries, accounts.c.kind.label("account_kind"))
        .join(accounts, accounts.c.id == ledger_entries.c.account_id)
        .where(ledger_entries.c.round_id == round_id).order_by(ledger_entries.c.id)).all()
    return [{"txn": r.txn, "account": r.account_kind, "amount_minor": r.amount,
             "balance_after_minor": r.balance_after if r.account_kind != "house" else None,
             "kind": r.kind, "step": r.step, "at_us": r.created_at} for r in rows]


def served_for_round(auth: Auth, row) -> ServedGame:
    """The game that played the round: its own file and settings, whatever the operator's
    configuration says now (a round always finishes under the rules it started with)."""
    if row.gamble is not None:
        gamble, cap = row.gamble, row.win_cap_minor
    else:  # a round from before the rules were pinned (migration 0002)
        settings = auth.operator.game(row.game_key)
        gamble = (loads(row.phase) or {}).get("gamble", "on")
        cap = None if settings is None else settings.win_cap_minor
    base = GameSettings(row.game_key, row.game_id, row.denomination, gamble, cap)
    return ServedGame(auth.operator, base, configured_game(row.game_id, base.gamble))
