"""Launch tokens (signed by the operator) and session tokens (random, stored hashed).

A launch token is `base64url(JSON claims).hex(HMAC-SHA256(operator key, that base64 text))`:
the operator's site makes one per game launch; the server checks the signature, the expiry
and that its nonce was never used. A session token is 256 random bits; the database keeps only
its SHA-256, so a stolen database holds no usable session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass

from reelforge.server.errors import ApiError

LAUNCH_TTL_LIMIT_S = 24 * 3600


@dataclass(frozen=True)
class LaunchClaims:
    operator: str
    player: str
    exp: int  # Unix seconds
    nonce: str
    max_stake_minor: int | None = None  # the player's own stake limit (e.g. a UK age band)

    def to_dict(self) -> dict:
        data = {"op": self.operator, "player": self.player, "exp": self.exp, "nonce": self.nonce}
        if self.max_stake_minor is not None:
            data["max_stake_minor"] = self.max_stake_minor
        return data


def sign_launch(key: bytes, claims: LaunchClaims) -> str:
    body = base64.urlsafe_b64encode(json.dumps(claims.to_dict(), sort_keys=True).encode())
    text = body.decode().rstrip("=")
    return f"{text}.{hmac.new(key, text.encode(), hashlib.sha256).hexdigest()}"


def launch_operator(token: str) -> str:
    """The operator a launch token claims to come from (unverified: it picks the key)."""
    return _claims(token)["op"]


def verify_launch(key: bytes, token: str, now_s: int) -> LaunchClaims:
    _check_shape(token)  # before the HMAC: compare_digest takes ASCII text only
    text, _, signature = token.partition(".")
    expected = hmac.new(key, text.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        raise ApiError("INVALID_LAUNCH_TOKEN", "launch token: the signature does not match the "
                       "operator's key")
    data = _claims(token)
    claims = LaunchClaims(data["op"], data["player"], data["exp"], data["nonce"],
                          data.get("max_stake_minor"))
    if claims.exp <= now_s:
        raise ApiError("INVALID_LAUNCH_TOKEN", f"launch token: expired at {claims.exp} "
                       f"(server time {now_s})")
    if claims.exp > now_s + LAUNCH_TTL_LIMIT_S:
        raise ApiError("INVALID_LAUNCH_TOKEN", f"launch token: exp {claims.exp} is more than "
                       f"{LAUNCH_TTL_LIMIT_S} s ahead")
    return claims


def _check_shape(token: str) -> None:
    """A token is base64url, a dot and hex: ASCII. Anything else is refused here, so no
    later step meets text it cannot encode or compare (a lone surrogate, a non-ASCII
    signature: a TypeError in compare_digest)."""
    if (not isinstance(token, str) or len(token) > 2048 or not token.isascii()
            or token.count(".") != 1):
        raise ApiError("INVALID_LAUNCH_TOKEN", "launch token: expected <claims>.<signature> "
                       "in ASCII, at most 2048 characters")


def _claims(token: str) -> dict:
    _check_shape(token)
    text = token.partition(".")[0]
    try:
        data = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: claims nested past the parser's stack (about 1000 levels), which
        # the 2048-character limit still lets through
        raise ApiError("INVALID_LAUNCH_TOKEN", "launch token: the claims are not base64 "
                       "JSON") from None
    ok = (isinstance(data, dict) and isinstance(data.get("op"), str)
          and isinstance(data.get("player"), str) and 0 < len(data["player"]) <= 128
          and type(data.get("exp")) is int and isinstance(data.get("nonce"), str)
          and 8 <= len(data["nonce"]) <= 64
          # stored as text and BIGINT: a NUL or a lone surrogate, or 2**63, would be a 500
          and data["player"].isprintable() and data["nonce"].isprintable()
          and (data.get("max_stake_minor") is None
               or (type(data["max_stake_minor"]) is int and 0 < data["max_stake_minor"] < 2**63)))
    if not ok:
        raise ApiError("INVALID_LAUNCH_TOKEN", "launch token: claims need op, player, exp, "
                       "nonce (player and nonce printable text; optionally max_stake_minor, "
                       "a positive 64-bit integer)")
    return data


def new_session_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
