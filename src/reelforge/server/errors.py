"""The server's error vocabulary: every refusal is an `ApiError` with a stable code, an HTTP
status and one sentence naming the bad value. A 5xx is a bug, or the operator's wallet being
unreachable (WALLET_UNAVAILABLE) or the database (DATABASE_UNAVAILABLE), never a bad request.

The codes are part of the API (clients switch on them); the sentences are for people.
"""

from __future__ import annotations

from typing import Any

# code -> (HTTP status, what it means): the list the OpenAPI description and the docs show.
CODES: dict[str, tuple[int, str]] = {
    "INVALID_REQUEST": (422, "the request body or a parameter is malformed (400: a body that "
                             "is not JSON at all)"),
    "REQUEST_TOO_LARGE": (413, "the request body is larger than the server reads"),
    "UNAUTHORIZED": (401, "no session token, or one the server does not know"),
    "SESSION_EXPIRED": (401, "the session token has expired: launch the game again"),
    "INVALID_LAUNCH_TOKEN": (401, "the launch token is malformed, badly signed, expired or used"),
    "UNKNOWN_OPERATOR": (404, "no such operator"),
    "UNKNOWN_GAME": (404, "no such game for this operator"),
    "GAME_DISABLED": (403, "the operator has disabled this game: open rounds can still finish"),
    "GAME_NOT_ALLOWED": (403, "the jurisdiction does not allow this game"),
    "UNKNOWN_ROUND": (404, "no such round of this player"),
    "STAKE_NOT_OFFERED": (422, "the bet is not one of the game's bets, or above a stake limit"),
    "INSUFFICIENT_BALANCE": (409, "the balance does not cover the price of the round"),
    "ROUND_ALREADY_OPEN": (409, "a round of this game (or, where one at a time, any game) is "
                                "still open: finish it first"),
    "TOO_FAST": (429, "the jurisdiction's minimum time between rounds has not passed"),
    "STEP_NOT_ALLOWED": (409, "this choice is not allowed in the round's current state"),
    "REQUEST_ID_REUSED": (409, "the request id was already used for a different request"),
    "CURRENCY_MISMATCH": (409, "the player's currency differs from the launch's"),
    "WALLET_REFUSED": (409, "the operator's wallet refused the debit"),
    "WALLET_UNAVAILABLE": (503, "the operator's wallet did not answer: the round was voided"),
    "DATABASE_UNAVAILABLE": (503, "the database did not answer or refused the write (restarting, "
                                  "or its disk is full): retry with the same request id"),
    "RATE_LIMITED": (429, "this session sent more requests than its operator allows: retry "
                          "after retry_after_ms"),
    "SERVER_BUSY": (503, "this server process is serving as many requests as it admits at "
                         "once: retry after retry_after_ms (Retry-After)"),
    "NOT_FOUND": (404, "no such resource"),
    "PLAYER_NOT_FOUND": (404, "back office: no such player of this operator"),
    "ROUND_NOT_FOUND": (404, "back office: no such round"),
    "METHOD_NOT_ALLOWED": (405, "the method is not allowed on this resource"),
    "DEMO_DISABLED": (403, "this operator has no demo players"),
    # the back office's door (server/backoffice/)
    "BAD_CREDENTIALS": (401, "back office: no staff account with this name and password"),
    "SIGN_IN_LOCKED": (429, "back office: too many wrong passwords for this staff account: "
                            "sign in again after the time the message names"),
    "FORBIDDEN": (403, "back office: the staff member's role does not allow this"),
    "UNKNOWN_POOL": (404, "back office: no such jackpot pool"),
    "UNKNOWN_CLAIM": (404, "back office: no such jackpot claim, or no such instalment of it"),
    "UNKNOWN_PLAYER": (404, "back office: no such player of this operator"),
    "UNKNOWN_CORRECTION": (404, "back office: no such correction"),
    "NOT_NOW": (409, "back office: the record's state does not allow this now (a claim not yet "
                     "verified or an instalment not yet due, a correction already decided, a "
                     "balance that would go below zero): the message says which"),
}


class ApiError(Exception):
    def __init__(self, code: str, message: str, **details: Any) -> None:
        if code not in CODES:
            raise ValueError(f"ApiError code {code!r} is not in CODES")
        super().__init__(message)
        self.code, self.message, self.details = code, message, details

    @property
    def status(self) -> int:
        return CODES[self.code][0]

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, **self.details}}
