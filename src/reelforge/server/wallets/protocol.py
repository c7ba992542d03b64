"""The seamless wallet's wire contract: the operator holds the money and the game server calls it.

    POST /wallet/debit     DebitRequest    -> TransactionResponse
    POST /wallet/credit    CreditRequest   -> TransactionResponse
    POST /wallet/rollback  RollbackRequest -> RollbackResponse
    GET  /wallet/balance?player=..         -> BalanceResponse

A refusal is a 4xx `ErrorResponse` whose `error` is an `ErrorCode`: a definite "no", nothing
was applied. A 5xx, a timeout or a lost connection leaves the outcome unknown: the caller rolls
back a debit or retries a credit, and the wallet's idempotency (each transaction id applied at
most once, a duplicate answered with the stored original response) keeps that safe.

Every request is signed: `X-Reelforge-Signature` carries the hex HMAC-SHA256 of the raw body
bytes (of the raw query string for a GET) under the secret the two sides share.
"""

from __future__ import annotations

import hashlib
import hmac
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

SIGNATURE_HEADER = "X-Reelforge-Signature"

# JSON numbers past 2**53 lose precision in many parsers (JavaScript's among them), and the
# wallet's BIGINT must hold a balance after many credits: money on the wire stays below it.
MAX_MONEY = 2**53 - 1

TransactionId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9:_.-]{1,96}$")]
Money = Annotated[int, Field(ge=0, le=MAX_MONEY)]
Currency = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]


class ErrorCode(StrEnum):
    INSUFFICIENT_FUNDS = "INSUFFICIENT_FUNDS"
    UNKNOWN_PLAYER = "UNKNOWN_PLAYER"
    WRONG_CURRENCY = "WRONG_CURRENCY"
    TRANSACTION_ROLLED_BACK = "TRANSACTION_ROLLED_BACK"  # a debit whose id carries a tombstone
    DEBIT_ROLLED_BACK = "DEBIT_ROLLED_BACK"  # a credit for a debit that was rolled back
    CREDIT_RECEIVED = "CREDIT_RECEIVED"  # a rollback of a debit that a credit already names
    DUPLICATE_MISMATCH = "DUPLICATE_MISMATCH"  # a known transaction id with a different body
    INVALID_SIGNATURE = "INVALID_SIGNATURE"
    INVALID_REQUEST = "INVALID_REQUEST"
    UNAVAILABLE = "UNAVAILABLE"  # 5xx: the outcome is unknown to the caller


HTTP_STATUS: dict[ErrorCode, int] = {
    ErrorCode.INSUFFICIENT_FUNDS: 409,
    ErrorCode.UNKNOWN_PLAYER: 404,
    ErrorCode.WRONG_CURRENCY: 409,
    ErrorCode.TRANSACTION_ROLLED_BACK: 409,
    ErrorCode.DEBIT_ROLLED_BACK: 409,
    ErrorCode.CREDIT_RECEIVED: 409,
    ErrorCode.DUPLICATE_MISMATCH: 409,
    ErrorCode.INVALID_SIGNATURE: 401,
    ErrorCode.INVALID_REQUEST: 422,
    ErrorCode.UNAVAILABLE: 503,
}


class StrictModel(BaseModel):
    # strict: 5.0 or "5" is not an amount and "true" is not a flag; unknown keys are mistakes
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class DebitRequest(StrictModel):
    transaction_id: TransactionId
    player: TransactionId
    round_id: TransactionId
    game: TransactionId
    amount: Money
    currency: Currency


class CreditRequest(StrictModel):
    """Amount 0 is a losing round's closing credit. A credit never depends on a session: it is
    retried until paid, possibly long after the player left."""

    transaction_id: TransactionId
    player: TransactionId
    round_id: TransactionId
    game: TransactionId
    amount: Money
    currency: Currency
    debit_transaction_id: TransactionId | None
    round_closed: bool


class RollbackRequest(StrictModel):
    """Reverses one debit; an unknown debit id is recorded as a tombstone instead."""

    transaction_id: TransactionId
    player: TransactionId
    round_id: TransactionId
    game: TransactionId
    debit_transaction_id: TransactionId


class TransactionResponse(StrictModel):
    transaction_id: TransactionId
    balance: Money
    currency: Currency


class RollbackResponse(TransactionResponse):
    rolled_back: bool  # false: the debit was unknown and its id is now refused (a tombstone)


class BalanceResponse(StrictModel):
    balance: Money
    currency: Currency


class ErrorResponse(StrictModel):
    error: str  # an ErrorCode; a str so that a newer operator's code still reads as a refusal
    message: str
    balance: Money | None = None  # with INSUFFICIENT_FUNDS: the balance the debit met


def sign(secret: bytes, body: bytes) -> str:
    """The signature header's value for `body`."""
    return hmac.new(secret, body, hashlib.sha256).hexdigest()


def verify(secret: bytes, body: bytes, signature: str | None) -> bool:
    """Whether `signature` signs `body`; compared in constant time so that timing leaks nothing."""
    if not signature:
        return False
    try:
        given = signature.strip().lower().encode("ascii")
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(sign(secret, body).encode("ascii"), given)
