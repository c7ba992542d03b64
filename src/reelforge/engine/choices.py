"""The red/black card gamble (engine/gamble.py) as a `ChoiceStep`: offered after a win below
the limit that is no jackpot; choices "red", "black", "half" (take half) and "collect".

A thin adapter: every rule stays in engine/gamble.py's pure functions; this only says which
round ends offer it and routes a choice to the function that plays it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from reelforge.engine import gamble as rb
from reelforge.engine.protocol import ChoiceState, Offer, RoundEnd, Settlement
from reelforge.errors import InvalidAction


def check_offer(kind: str, offer: Offer) -> None:
    if not isinstance(offer, Offer) or offer.kind != kind:
        raise InvalidAction(f"offer {offer!r}: not a {kind} offer")


@dataclass(frozen=True)
class RedBlackGamble:
    rules: rb.GambleRules
    kind: ClassVar[str] = "gamble"
    settings: ClassVar[tuple[str, ...]] = ()
    stakes: ClassVar[str] = "win"

    def draws(self, game: Any) -> tuple[tuple[int, str, str], ...]:
        return ((2, "[features.gamble] card colour (red/black)", "engine/gamble.py guess"),)

    def offer(self, end: RoundEnd) -> Offer | None:
        if not rb.gamble_offered(self.rules, end.win, end.jackpot):
            return None
        r = self.rules
        limits = {"limit_credits": r.limit_credits, "max_wins": r.max_wins,
                  "history_length": r.history_length, "take_half": r.take_half}
        return Offer(self.kind, end.win, end.stake, end.denomination, limits, Fraction(1))

    def start(self, offer: Offer, carried: Mapping[str, Any] | None = None) -> ChoiceState:
        """Open the gamble on the offered win; `carried` (the `carry` of the last gamble's
        settlement) brings its card display over."""
        check_offer(self.kind, offer)
        history = tuple((carried or {}).get("history") or ())
        state = rb.start_gamble(self.rules, offer.amount, False, history)
        return ChoiceState(offer, state, state.finished)

    def choices(self, state: ChoiceState) -> tuple[str, ...]:
        s = state.state
        if s.finished:
            return ()
        return rb.COLOURS + (("half",) if rb.can_take_half(self.rules, s) else ()) + ("collect",)

    def step(self, state: ChoiceState, choice: Any, rng) -> ChoiceState:
        s = state.state
        if choice in rb.COLOURS:
            after = rb.guess(self.rules, s, choice, rng)
        elif choice == "half":
            after = rb.take_half(self.rules, s)
        elif choice == "collect":
            after = rb.take_win(s)
        else:
            raise InvalidAction(f"gamble choice {choice!r}: not one of {rb.ACTIONS}")
        return ChoiceState(state.offer, after, after.finished)

    def paid(self, state: ChoiceState) -> Fraction:
        """banked + amount once finished; before that the banked half (TAKE HALF), which the
        server credits at once."""
        return Fraction(state.state.paid)

    def at_stake(self, state: ChoiceState) -> int:
        return 0 if state.finished else state.state.amount

    def settle(self, state: ChoiceState) -> Settlement:
        """Pays `paid` (the banked half before it finishes); carries the cards shown over."""
        return Settlement(credits=int(state.state.paid),
                          carry={"history": list(state.state.history)})

    def expected_payout(self, state: ChoiceState, policy: Callable[[ChoiceState], Any]) -> Fraction:
        offer = state.offer
        return rb.expected_payout(self.rules, state.state,
                                  lambda s: policy(ChoiceState(offer, s, s.finished)))

    def odds(self, state: ChoiceState) -> None:
        return None  # one half on every card: the screen names it, no table to show
