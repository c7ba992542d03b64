"""The calls owed to a seamless operator's wallet, written to the outbox in the transaction of
the state they belong to (wallets/rounds.py sends them)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert, update

from reelforge.server.db.tables import outbox
from reelforge.server.services.common import dumps
from reelforge.server.services.sessions import Auth


def enqueue_credit(conn: Connection, auth: Auth, round_id: str, game_key: str, amount: int,
                   now: int) -> None:
    """Owe the operator the round's credit (the same transaction as the state it settles)."""
    enqueue(conn, auth.operator.id, round_id, "credit",
            credit_body(auth, round_id, game_key, amount), now)


def credit_body(auth: Auth, round_id: str, game_key: str, amount: int) -> dict[str, Any]:
    """The call that credits the round's win (`amount` minor units) and closes it."""
    return {"transaction_id": f"{round_id}:credit", "player": auth.external_id,
            "round_id": round_id, "game": game_key, "amount": amount,
            "currency": auth.currency, "debit_transaction_id": f"{round_id}:debit",
            "round_closed": True}


def enqueue_banked(conn: Connection, auth: Auth, round_id: str, game_key: str, amount: int,
                   step: int, now: int) -> None:
    """Owe the operator a credit of what a gamble banked at `step` (TAKE HALF) while the round
    stays open; the round's own credit later carries only the rest of its win."""
    enqueue(conn, auth.operator.id, round_id, "credit",
            banked_body(auth, round_id, game_key, amount, step), now)


def banked_body(auth: Auth, round_id: str, game_key: str, amount: int,
                step: int) -> dict[str, Any]:
    """The call that credits what a choice banked at `step`; the round stays open."""
    return {"transaction_id": f"{round_id}:bank:{step}", "player": auth.external_id,
            "round_id": round_id, "game": game_key, "amount": amount,
            "currency": auth.currency, "debit_transaction_id": f"{round_id}:debit",
            "round_closed": False}


def enqueue(conn: Connection, operator_id: str, round_id: str, kind: str, body: dict,
             now: int) -> None:
    conn.execute(insert(outbox).values(**outbox_row(operator_id, round_id, kind, body, now)))


def outbox_row(operator_id: str, round_id: str, kind: str, body: dict,
               now: int) -> dict[str, Any]:
    """A call owed, as its outbox row: pending, due now."""
    return dict(transaction_id=body["transaction_id"], operator_id=operator_id,
                round_id=round_id, kind=kind, body=dumps(body), status="pending", attempts=0,
                next_at=now, response=None, created_at=now, updated_at=now)


def mark(conn: Connection, transaction_id: str, status: str, now: int,
          response: Any = None) -> None:
    conn.execute(update(outbox).where(outbox.c.transaction_id == transaction_id).values(
        status=status, updated_at=now, response=None if response is None else dumps(response)))
