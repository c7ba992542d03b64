"""A round's rows: the statements that lock a player, read, insert and update rounds. No
decision is taken here (`transitions.py`, `bet_decision.py`); every service writes rounds
through these."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update

from reelforge.engine.outcome import Bet, Outcome
from reelforge.server.db.tables import OPEN_STATUSES, players, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services.catalog import ServedGame
from reelforge.server.services.common import dumps
from reelforge.server.services.sessions import Auth


def lock_player(conn: Connection, player_id: int):
    """The player's row, locked: one request of a player changes money at a time."""
    return conn.execute(select(players).where(players.c.id == player_id).with_for_update()).one()


def open_rounds(conn: Connection, player_id: int) -> Sequence:
    return conn.execute(select(rounds).where(rounds.c.player_id == player_id,
                                             rounds.c.status.in_(OPEN_STATUSES))
                        .order_by(rounds.c.created_at)).all()


def find_round(conn: Connection, player_id: int, round_id: str):
    # PostgreSQL refuses a NUL in any text it is sent (a 500): no round id holds one anyway.
    row = None if "\x00" in round_id else conn.execute(select(rounds).where(and_(
        rounds.c.id == round_id, rounds.c.player_id == player_id))).first()
    if row is None:
        raise ApiError("UNKNOWN_ROUND", f"round {round_id!r}: not a round of this player")
    return row


def update_round(conn: Connection, round_id: str, status: str, phase: dict, now: int,
            closed: bool = False, win_minor: int | None = None) -> None:
    values: dict[str, Any] = {"status": status, "phase": dumps(phase), "updated_at": now}
    if closed:
        values["closed_at"] = now
    if win_minor is not None:  # set with the status: one UPDATE per transition
        values["win_minor"] = win_minor
    conn.execute(update(rounds).where(rounds.c.id == round_id).values(**values))


def insert_round(conn: Connection, round_id: str, auth: Auth, served: ServedGame,
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
