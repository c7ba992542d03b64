"""The checks a bet passes under its player's lock, as pure functions of the state read there:
the same order and the same refusals on every path (a single round, a batch, the seamless
wallet)."""

from __future__ import annotations

from collections.abc import Sequence

from reelforge.engine.outcome import Bet
from reelforge.server.db.tables import OPEN_STATUSES
from reelforge.server.errors import ApiError
from reelforge.server.services.catalog import ServedGame
from reelforge.server.services.sessions import Auth


def touches_pool(served: ServedGame, bet: Bet) -> bool:
    """A round that contributes to (or may win) the shared jackpot pool: played alone, under
    the pool row's lock, never in a batch of other players' rounds."""
    return served.profile.jackpots and served.jackpot_eligible(bet)


def batchable(auth: Auth, served: ServedGame, bet: Bet) -> bool:
    return auth.operator.wallet == "ledger" and not touches_pool(served, bet)


def check_funds(balance: int, price_minor: int) -> None:
    if balance < price_minor:
        raise ApiError("INSUFFICIENT_BALANCE", f"balance {balance} minor units does not cover "
                       f"the round's price of {price_minor}", balance_minor=balance)


def check_enabled(served: ServedGame) -> None:
    if not served.settings.enabled:
        raise ApiError("GAME_DISABLED", f"game {served.key!r}: disabled by the operator; "
                       "open rounds can still be finished")


def check_no_open_round(served: ServedGame, rows: Sequence) -> None:
    """`rows`: the player's rounds read under the lock (any others among them are passed by)."""
    for row in (r for r in rows if r.status in OPEN_STATUSES):
        if row.game_key == served.key or served.profile.one_game_at_a_time:
            raise ApiError("ROUND_ALREADY_OPEN", f"round {row.id} of {row.game_key!r} is still "
                           f"{row.status}: finish it first", round_id=row.id)


def check_pace(served: ServedGame, last: int | None, now: int) -> None:
    gap = served.profile.min_round_interval_ms * 1000
    if gap and last is not None and now - last < gap:
        wait_ms = (gap - (now - last) + 999) // 1000
        raise ApiError("TOO_FAST", f"the {served.profile.name} profile needs "
                       f"{served.profile.min_round_interval_ms} ms between rounds: wait "
                       f"{wait_ms} ms", retry_after_ms=wait_ms)
