"""Spin Chance of Cops n Robbers Big Money Christmas, as pure functions.

Seed: "Spin Chance is triggered automatically if the credit is reduced below the current price
of play, yet is still greater than zero ... an opportunity to wager their remaining credit in
an attempt at winning an additional base game spin at the current bet ... The red and green
segments are proportional to the amount of credit in relation to the current bet."

So with `credit` credits left and one spin costing `stake` credits, the spin is won with
probability credit / stake, realised exactly as `draw_below(rng, stake) < credit` (an unbiased
draw, stake < 2**32). A won spin is worth exactly one stake (the spin the player would have
bought), so the expected value of playing is credit / stake * stake = credit: 100% payback,
which `expected_value` states exactly. `stake` is the price of one round at the current bet
(`Game.price(bet)`, which for Fortune Spins includes its price factor); the caller plays the
won spin and owns the balance. The draw is split from `resolve_spin_chance` so every draw can
be enumerated.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from reelforge.engine.rng import draw
from reelforge.errors import InvalidAction


@dataclass(frozen=True)
class SpinChanceResult:
    """What Spin Chance did with `credit` against a spin costing `stake` credits.

    `played` is False after "NO THANKS"; `draw` is the value of draw_below(stake) when played;
    `won` means one spin at the current bet is awarded and plays automatically; `kept` is the
    credit returned to the balance (all of it when declined, none when played).
    """

    credit: int
    stake: int
    played: bool
    won: bool
    draw: int | None

    @property
    def kept(self) -> int:
        return 0 if self.played else self.credit

    @property
    def spins_won(self) -> int:
        return 1 if self.won else 0


def spin_chance_offered(credit: int, stake: int) -> bool:
    """Offered exactly when 0 < credit < stake (both whole credits)."""
    _check_credits(credit, stake)
    return 0 < credit < stake


def resolve_spin_chance(credit: int, stake: int, draw: int) -> SpinChanceResult:
    """The deterministic part: a draw in [0, stake) wins iff it is below the credit, so exactly
    `credit` of the `stake` equally likely draws win."""
    _check_offered(credit, stake)
    if isinstance(draw, bool) or not isinstance(draw, int) or not 0 <= draw < stake:
        raise InvalidAction(f"spin chance draw {draw!r} is not in [0, {stake}) (credit {credit})")
    return SpinChanceResult(credit, stake, played=True, won=draw < credit, draw=draw)


def play_spin_chance(credit: int, stake: int, rng) -> SpinChanceResult:
    """"PLAY": wager the whole credit; checks come before the draw so a rejected call consumes
    no randomness."""
    _check_offered(credit, stake)
    return resolve_spin_chance(credit, stake, draw(rng, stake))


def decline(credit: int, stake: int) -> SpinChanceResult:
    """"NO THANKS": leave Spin Chance keeping the credit; no draw."""
    _check_offered(credit, stake)
    return SpinChanceResult(credit, stake, played=False, won=False, draw=None)


def win_chance(credit: int, stake: int) -> Fraction:
    """P(won) = credit / stake, exactly."""
    _check_offered(credit, stake)
    return Fraction(credit, stake)


def expected_value(credit: int, stake: int) -> Fraction:
    """Expected credits' worth of playing: P(won) x one stake, which equals `credit` exactly."""
    return win_chance(credit, stake) * stake


def _check_credits(credit: object, stake: object) -> None:
    for name, value in (("credit", credit), ("stake", stake)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidAction(f"spin chance {name} {value!r}: must be a whole number of credits")
    if not 0 < stake < 2**32:  # type: ignore[operator]
        raise InvalidAction(f"spin chance stake {stake!r}: must be in [1, 2**32) credits")


def _check_offered(credit: int, stake: int) -> None:
    if not spin_chance_offered(credit, stake):
        raise InvalidAction(f"spin chance not offered for credit {credit!r} at stake {stake!r}: "
                            "it needs 0 < credit < stake")
