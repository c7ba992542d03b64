"""The game server's client of an operator's seamless wallet (the contract is `protocol`).

Each call ends in one of three ways, and the caller's next step depends only on which:
a response model (applied), `WalletRefused` (a definite "no": nothing was applied), or
`WalletUnknown` (a timeout, a lost connection, a 5xx: the call may or may not have been
applied, so the caller rolls back a debit or retries a credit under the same transaction id).
The client itself never retries: that decision belongs to the round's state machine.
"""

from __future__ import annotations

from typing import Self, TypeVar
from urllib.parse import urlencode

import httpx
from pydantic import BaseModel, ValidationError

from reelforge.errors import InvalidArgument, ReelforgeError, shorten
from reelforge.server.wallets.protocol import (
    SIGNATURE_HEADER,
    BalanceResponse,
    CreditRequest,
    DebitRequest,
    ErrorResponse,
    RollbackRequest,
    RollbackResponse,
    TransactionResponse,
    sign,
)

Answer = TypeVar("Answer", bound=BaseModel)
Request = TypeVar("Request", bound=BaseModel)


class WalletRefused(ReelforgeError):
    """The wallet answered a definite "no" (a 4xx with an error code): nothing was applied."""

    def __init__(self, code: str, message: str, balance: int | None = None, *,
                 transaction_id: str | None = None):
        self.code, self.message, self.balance = code, message, balance
        self.transaction_id = transaction_id
        where = f"transaction {transaction_id}" if transaction_id else "request"
        told = f" (balance {balance})" if balance is not None else ""
        super().__init__(f"wallet refused {where}: {code}: {shorten(message, 240)}{told}")


class WalletUnknown(ReelforgeError):
    """The call's outcome is unknown (timeout, connection error, 5xx, unreadable answer)."""

    def __init__(self, reason: str, *, transaction_id: str | None = None):
        self.reason, self.transaction_id = reason, transaction_id
        where = f"transaction {transaction_id}" if transaction_id else "request"
        super().__init__(f"wallet outcome unknown for {where}: {shorten(reason, 240)}")


class SeamlessWalletClient:
    """One pooled `httpx.Client` shared by every thread of the game server."""

    def __init__(self, base_url: str, secret: bytes, timeout_s: float = 5.0):
        if not secret:
            raise InvalidArgument("SeamlessWalletClient: the shared secret is empty")
        self._secret = secret
        self.timeout_s = timeout_s
        self._http = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout_s)

    def debit(self, *, transaction_id: str, player: str, round_id: str, game: str, amount: int,
              currency: str) -> TransactionResponse:
        request = _build(DebitRequest, dict(
            transaction_id=transaction_id, player=player, round_id=round_id, game=game,
            amount=amount, currency=currency))
        return self._post("/wallet/debit", request, transaction_id, TransactionResponse)

    def credit(self, *, transaction_id: str, player: str, round_id: str, game: str, amount: int,
               currency: str, debit_transaction_id: str | None,
               round_closed: bool) -> TransactionResponse:
        request = _build(CreditRequest, dict(
            transaction_id=transaction_id, player=player, round_id=round_id, game=game,
            amount=amount, currency=currency, debit_transaction_id=debit_transaction_id,
            round_closed=round_closed))
        return self._post("/wallet/credit", request, transaction_id, TransactionResponse)

    def rollback(self, *, transaction_id: str, player: str, round_id: str, game: str,
                 debit_transaction_id: str) -> RollbackResponse:
        request = _build(RollbackRequest, dict(
            transaction_id=transaction_id, player=player, round_id=round_id, game=game,
            debit_transaction_id=debit_transaction_id))
        return self._post("/wallet/rollback", request, transaction_id, RollbackResponse)

    def balance(self, player: str) -> BalanceResponse:
        query = urlencode({"player": player})
        where = f"balance of player {player!r}"
        # the GET signs its query string, sent exactly as signed
        headers = {SIGNATURE_HEADER: sign(self._secret, query.encode())}
        try:
            response = self._http.get(f"/wallet/balance?{query}", headers=headers)
        except httpx.TransportError as error:
            raise WalletUnknown(_transport_reason(error, self.timeout_s)) from error
        return _read(response, BalanceResponse, where, None)

    def report(self) -> list[dict]:
        """Every transaction the operator's wallet holds, in its order (GET /admin/report,
        page by page): what reconciliation compares with the server's outbox. An operator's
        own reporting API would stand here; the reference wallet's is this one."""
        found: list[dict] = []
        after = 0
        while True:
            query = urlencode({"after": after})
            headers = {SIGNATURE_HEADER: sign(self._secret, query.encode())}
            try:
                response = self._http.get(f"/admin/report?{query}", headers=headers)
            except httpx.TransportError as error:
                raise WalletUnknown(_transport_reason(error, self.timeout_s)) from error
            if response.status_code != 200:
                raise WalletUnknown(f"HTTP {response.status_code} for the transaction report: "
                                    f"{shorten(response.text, 200)}")
            page = response.json()
            found += page["transactions"]
            if page.get("next") is None:
                return found
            after = page["next"]

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _post(self, path: str, request: BaseModel, transaction_id: str,
              answer: type[Answer]) -> Answer:
        body = request.model_dump_json().encode()
        headers = {SIGNATURE_HEADER: sign(self._secret, body),
                   "Content-Type": "application/json"}
        try:
            response = self._http.post(path, content=body, headers=headers)
        except httpx.TransportError as error:
            raise WalletUnknown(_transport_reason(error, self.timeout_s),
                                transaction_id=transaction_id) from error
        return _read(response, answer, transaction_id, transaction_id)


def _build(model: type[Request], fields: dict[str, object]) -> Request:
    try:
        return model.model_validate(fields)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise InvalidArgument(f"wallet {model.__name__} {fields['transaction_id']!r}: {where}: "
                              f"{problem['msg']}") from error


def _transport_reason(error: httpx.TransportError, timeout_s: float) -> str:
    if isinstance(error, httpx.TimeoutException):
        return f"no answer within {timeout_s:g} s ({type(error).__name__})"
    return f"{type(error).__name__}: {error}"


def _read(response: httpx.Response, answer: type[Answer], what: str,
          transaction_id: str | None) -> Answer:
    status = response.status_code
    if 400 <= status < 500:
        try:
            error = ErrorResponse.model_validate_json(response.content)
        except ValidationError:
            # no code: a proxy or a misrouted URL answered, not the wallet's rules; treat the
            # outcome as unknown, since a rollback or a retry is harmless and a guess is not
            raise WalletUnknown(f"HTTP {status} without an error code for {what}",
                                transaction_id=transaction_id) from None
        raise WalletRefused(error.error, error.message, error.balance,
                            transaction_id=transaction_id)
    if status != 200:
        raise WalletUnknown(f"HTTP {status} for {what}", transaction_id=transaction_id)
    try:
        result = answer.model_validate_json(response.content)
    except ValidationError as error:
        raise WalletUnknown(f"unreadable answer for {what}: {error.errors()[0]['msg']}",
                            transaction_id=transaction_id) from None
    answered = getattr(result, "transaction_id", transaction_id)
    if answered != transaction_id:
        raise WalletUnknown(f"the answer names transaction {answered}",
                            transaction_id=transaction_id)
    return result
