"""A bet checked against its game and drawn before any lock or transaction: if the transaction
that would commit it fails, nobody ever saw its outcome (a fresh 256-bit seed from os.urandom
keys ChaCha20)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reelforge.engine.outcome import Bet, Outcome
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.server.services.bet_checks import batchable
from reelforge.server.services.catalog import ServedGame, served_game
from reelforge.server.services.common import now_us
from reelforge.server.services.sessions import Auth


@dataclass(frozen=True)
class Placement:
    """A checked bet whose outcome is drawn, waiting for its transaction."""

    auth: Auth
    served: ServedGame
    request_id: str
    bet: Bet
    price_minor: int
    seed: int
    outcome: Outcome
    now: int

    def batchable(self) -> bool:
        """Whether a batch of other players' rounds may carry it (services/round_batch.py)."""
        return batchable(self.auth, self.served, self.bet)


def checked(auth: Auth, game_key: str, lines: Any, bet_per_line: Any,
            mode: Any) -> tuple[ServedGame, Bet]:
    """The game and the bet, checked against its bet structure and the stake limits."""
    served = served_game(auth.operator, game_key)
    return served, served.check_bet(lines, bet_per_line, mode, auth.max_stake_minor)


def draw(auth: Auth, served: ServedGame, request_id: str, bet: Bet) -> Placement:
    """A checked bet's outcome drawn: before any lock or transaction (see the module's
    docstring)."""
    game = served.game
    seed = new_live_seed()
    outcome = game.play(bet, live_generator(seed), seed)
    return Placement(auth, served, request_id, bet, game.price(bet) * served.denomination,
                     seed, outcome, now_us())
