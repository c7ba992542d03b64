"""The red/black card gamble of Cluedo MegaJackpots (IGT), as pure functions over frozen states.

Rule sheet: "After any award less than 3000 credits, you have the opportunity to gamble your win
in a completely fair round of double or nothing." Every step is a fair bet in integer credits:
a guess doubles or forfeits with probability 1/2 each, and take-half moves `amount // 2` to the
balance while `amount - amount // 2` stays at stake, so the expected total never changes.
`expected_payout` checks that claim exactly (Fractions) for any policy. The random part of a
guess (`guess`) is split from the deterministic part (`resolve_guess`) so analysis can
enumerate both cards instead of sampling.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from reelforge.engine.rng import draw
from reelforge.errors import InvalidAction

RED, BLACK = "red", "black"
COLOURS = (RED, BLACK)
ACTIONS = (RED, BLACK, "half", "collect")


@dataclass(frozen=True)
class GambleRules:
    """The gamble's limits as data, so a variant game changes numbers, not code."""

    limit_credits: int = 3000
    max_wins: int = 5
    history_length: int = 14
    take_half: bool = True

    def __post_init__(self) -> None:
        for name in ("limit_credits", "max_wins", "history_length"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"GambleRules.{name} = {value!r}: must be a positive integer")
        if not isinstance(self.take_half, bool):
            raise ValueError(  # noqa: TRY004 - as every field's check: one kind of error to catch
                f"GambleRules.take_half = {self.take_half!r}: must be a bool")


@dataclass(frozen=True)
class GambleState:
    """One moment of a gamble round; every action returns a new one.

    `amount` is at stake now, `banked` already went to the balance via take-half (it stays
    paid even after a wrong guess), `half_taken` is whether take-half was used since the last
    guess, `history` holds the last card colours, oldest first.
    """

    amount: int
    banked: int
    wins: int
    half_taken: bool
    history: tuple[str, ...]
    finished: bool
    last_card: str | None

    @property
    def paid(self) -> int:
        """Credits the player receives: banked + amount once finished; before that only banked
        is certain, so that is what is reported."""
        return self.banked + self.amount if self.finished else self.banked

    def to_dict(self) -> dict:
        """Plain JSON-able form (history as a list) for the API and replay logs."""
        return {
            "amount": self.amount, "banked": self.banked, "wins": self.wins,
            "half_taken": self.half_taken, "history": list(self.history),
            "finished": self.finished, "last_card": self.last_card, "paid": self.paid,
        }


def gamble_offered(rules: GambleRules, award: int, jackpot: bool = False) -> bool:
    """Offered after any award 0 < award < limit that is not a jackpot (jackpots never gamble)."""
    if isinstance(award, bool) or not isinstance(award, int):
        raise InvalidAction(f"gamble award {award!r}: must be a whole number of credits")
    return not jackpot and 0 < award < rules.limit_credits


def start_gamble(rules: GambleRules, award: int, jackpot: bool = False,
                 history: tuple[str, ...] = ()) -> GambleState:
    """Open a round on `award`; `history` carries the card display over from earlier rounds."""
    if not gamble_offered(rules, award, jackpot):
        why = "a jackpot is never gambled" if jackpot else (
            f"the gamble needs 0 < award < limit {rules.limit_credits}")
        raise InvalidAction(f"gamble not offered for award {award!r}: {why}")
    for card in history:
        _check_colour(card, "history card")
    return GambleState(amount=award, banked=0, wins=0, half_taken=False,
                       history=tuple(history)[-rules.history_length:],
                       finished=False, last_card=None)


def can_take_half(rules: GambleRules, state: GambleState) -> bool:
    """Take-half is allowed once per try, and not on 1 credit (it would bank 0)."""
    return rules.take_half and not state.finished and not state.half_taken and state.amount >= 2


def take_half(rules: GambleRules, state: GambleState) -> GambleState:
    """Bank amount // 2; the rest (amount - amount // 2) stays at stake, so the total is kept."""
    _check_open(state, "take half")
    if not rules.take_half:
        raise InvalidAction("take half is not part of these gamble rules")
    if state.half_taken:
        raise InvalidAction(f"take half already used since the last guess (amount {state.amount})")
    if state.amount < 2:
        raise InvalidAction(f"take half on amount {state.amount} would bank 0 credits")
    half = state.amount // 2
    return replace(state, amount=state.amount - half, banked=state.banked + half, half_taken=True)


def card_from_draw(d: int) -> str:
    """Map draw_below(rng, 2) to a colour: 0 = red, 1 = black."""
    if d == 0:
        return RED
    if d == 1:
        return BLACK
    raise ValueError(f"card draw {d!r} is not 0 or 1")


def resolve_guess(rules: GambleRules, state: GambleState, colour: str, card: str) -> GambleState:
    """The deterministic part of a guess: given the card, double or forfeit and maybe end.

    A win ends the round at max_wins or once the amount reaches the limit (doubling may pass
    it, e.g. 2000 -> 4000; still fair). A loss forfeits the stake; banked stays paid.
    """
    _check_open(state, "guess")
    _check_colour(colour, "guess colour")
    _check_colour(card, "card")
    history = (state.history + (card,))[-rules.history_length:]
    if colour != card:
        return replace(state, amount=0, half_taken=False, history=history,
                       finished=True, last_card=card)
    amount, wins = state.amount * 2, state.wins + 1
    done = wins >= rules.max_wins or amount >= rules.limit_credits
    return replace(state, amount=amount, wins=wins, half_taken=False, history=history,
                   finished=done, last_card=card)


def guess(rules: GambleRules, state: GambleState, colour: str, rng) -> GambleState:
    """Draw one independent 50:50 card and resolve the guess; checks come before the draw so a
    rejected action consumes no randomness (replays stay aligned)."""
    _check_open(state, "guess")
    _check_colour(colour, "guess colour")
    return resolve_guess(rules, state, colour, card_from_draw(draw(rng, 2)))


def take_win(state: GambleState) -> GambleState:
    """Collect everything at stake and end the round."""
    _check_open(state, "take win")
    return replace(state, finished=True)


def expected_payout(rules: GambleRules, state: GambleState,
                    policy: Callable[[GambleState], str]) -> Fraction:
    """Exact expected `paid` under `policy`, enumerating both cards with probability 1/2.

    Equal to banked + amount for every policy, which is the "completely fair" claim. The tree
    is finite: at most max_wins winning guesses, and at most one take-half between guesses.
    """
    if state.finished:
        return Fraction(state.paid)
    action = policy(state)
    if action == "collect":
        return Fraction(take_win(state).paid)
    if action == "half":
        return expected_payout(rules, take_half(rules, state), policy)
    if action in COLOURS:
        return sum((Fraction(1, 2) * expected_payout(rules, resolve_guess(rules, state, action, c),
                                                     policy) for c in COLOURS), Fraction(0))
    raise InvalidAction(f"policy action {action!r} is not one of {ACTIONS} (amount {state.amount})")


def _check_open(state: GambleState, action: str) -> None:
    if state.finished:
        raise InvalidAction(f"{action} after the gamble finished (paid {state.paid})")


def _check_colour(colour: object, what: str) -> None:
    if colour not in COLOURS:
        raise InvalidAction(f"{what} {colour!r} is not 'red' or 'black'")
