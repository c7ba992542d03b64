"""The choices after a Cops n Robbers round, as `ChoiceStep`s (engine/protocol.py): the two-wheel
gamble (gamble.py) and Spin Chance (spin_chance.py). The `choices` part of the "cops_trail"
rules: the family class loads it by name (spec.rules), so the engine imports no game.

Thin adapters: every rule stays in the two pure modules; these say which round ends offer
them, route a choice to the function that plays it, and report payouts exactly.
- Wheel gamble: offered per the operator setting `gamble_offer` ("on", "5x" or "off"; default
  "on", `Game.configure`). Choices ("collect",), ("amount", n), ("cash", i), ("bonus", b). A
  won bonus ends the gamble with `state.state.bonus_won` set: the caller plays that bonus
  (`engine.round.play_bonus`); `paid` counts it at its price. `wheel_odds` is each offered
  spin's target and exact chance, the one the step plays with; `WheelGamble.odds` gives it at
  every amount the amount arrows reach, for the server's view (the client draws the wheels
  from it and computes nothing).
- Spin Chance: offered when 0 < balance < the price of a round at the bet, and no gamble is
  open on the round's win: the two are never offered on the same credits. After a gamble is
  settled, `offers(outcome, balance, gamble_settled=True)` evaluates it on the balance then
  (`balance` never counts a win still at stake). Choices "play" and "decline"; `paid` is the credit kept, or one round's price where the spin was won (the spin
  the player would have bought), so the payback is exactly 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from reelforge.engine.choices import check_offer
from reelforge.engine.protocol import ChoiceState, Offer, RoundEnd, Settlement
from reelforge.errors import InvalidAction, InvalidArgument
from reelforge.games.cops_n_robbers import gamble as wg
from reelforge.games.cops_n_robbers import spin_chance as sc

ROUNDED_TARGETS = range(4, 13)  # the wheel's 4/3 targets of these amounts are rounded down


def choice_steps(game) -> tuple:
    """The game's steps: the wheel gamble where its file has one, and Spin Chance."""
    steps: list = []
    if game.spec.wheel_gamble is not None:
        setting = game.settings.get("gamble_offer", "on")
        if setting not in wg.OFFERS:
            raise InvalidArgument(f"{game.id}: setting gamble_offer = {setting!r}: must be one "
                                  f"of {', '.join(wg.OFFERS)}")
        steps.append(WheelGamble(wg.wheel_config(game, setting)))
    return (*steps, SpinChance((*game.own_choice_steps(), *steps)))


@dataclass(frozen=True)
class WheelGamble:
    config: wg.WheelConfig
    kind: ClassVar[str] = "wheel_gamble"
    settings: ClassVar[tuple[str, ...]] = ("gamble_offer",)
    stakes: ClassVar[str] = "win"

    def draws(self, game: Any) -> tuple[tuple[int, str, str], ...]:
        """The cash wheel's exact draws (and the targets a rounding makes, for the amounts of
        ROUNDED_TARGETS), the limit at a spread of stakes, the bonus wheel's digit base."""
        config, found = self.config, []
        for num, den in config.cash_targets:
            found.append((num, f"[features.wheel_gamble] cash target {num}/{den}: exact draw below {num}",
                          "games/cops_n_robbers/gamble.py spin_cash"))
        for amount in ROUNDED_TARGETS:
            for num, den in config.cash_targets:
                if amount * num % den:
                    found.append((amount * num // den, f"[features.wheel_gamble] cash target {num}/{den} "
                                  f"of {amount} credits, rounded down",
                                  "games/cops_n_robbers/gamble.py spin_cash"))
        denomination = game.spec.bet.denominations[0]
        for stake in sorted({o.stake for o in game.bets()})[:: max(1, len(game.bets()) // 4)]:
            found.append((wg.gamble_limit(config, stake, denomination),
                          f"[features.wheel_gamble] target capped at the limit (stake {stake})",
                          "games/cops_n_robbers/gamble.py spin_cash"))
        found.append((wg.BONUS_DRAW, "[features.wheel_gamble] bonus wheel: digit base of the exact draw",
                      "games/cops_n_robbers/gamble.py bernoulli"))
        return tuple(found)

    def offer(self, end: RoundEnd) -> Offer | None:
        c = self.config
        if end.win <= 0 or not wg.gamble_offered(c, end.win, end.stake, end.denomination):
            return None
        limits = {"offer": c.offer, "limit": wg.gamble_limit(c, end.stake, end.denomination),
                  "cash_targets": c.cash_targets,
                  "bonus_prices": {b: v * end.stake for b, v in sorted(c.bonus_values.items())}}
        return Offer(self.kind, end.win, end.stake, end.denomination, limits, Fraction(1))

    def start(self, offer: Offer, carried: Mapping[str, Any] | None = None) -> ChoiceState:
        check_offer(self.kind, offer)
        state = wg.start_gamble(self.config, offer.amount, offer.stake, offer.denomination)
        return ChoiceState(offer, state, state.finished)

    def choices(self, state: ChoiceState) -> tuple:
        return tuple(wg.options(self.config, state.state))

    def odds(self, state: ChoiceState) -> dict[int, dict[tuple, tuple[int | Fraction, Fraction]]]:
        """`wheel_odds` at each amount the amount arrows reach (`arrow_amounts`; the highest is
        the amount at stake): what the wheels show before the player sends ("amount", n)."""
        s = state.state
        return {a: wheel_odds(self.config, s if a == s.amount else wg.choose_amount(s, a))
                for a in arrow_amounts(s)}

    def step(self, state: ChoiceState, choice: Any, rng) -> ChoiceState:
        s, c = state.state, self.config
        kind, arg = _action(choice)
        if kind == "collect":
            after = wg.collect(s)
        elif kind == "amount":
            after = wg.choose_amount(s, arg)
        elif s.finished:
            raise InvalidAction(f"wheel gamble choice {choice!r} after the gamble finished")
        else:
            odds = wheel_odds(c, s)
            if (kind, arg) not in odds:  # refused before any draw: the spin is not offered
                raise InvalidAction(f"wheel gamble choice {choice!r}: not offered now (amount "
                                    f"{s.amount}, collected {s.collected}, offered "
                                    f"{sorted(odds, key=str)})")
            target, chance = odds[(kind, arg)]
            if kind == "cash":
                after = wg.spin_cash(c, s, arg, rng)
                if after.amount not in (0, target):
                    raise AssertionError(f"cash spin paid {after.amount}, not target {target}")
            else:
                after = wg.resolve_bonus(c, s, arg, wg.bernoulli(rng, chance))
        return ChoiceState(state.offer, after, after.finished)

    def paid(self, state: ChoiceState) -> Fraction:
        s = state.state
        return wg.payout(self.config, s) if s.finished else Fraction(s.collected)

    def at_stake(self, state: ChoiceState) -> int:
        return 0 if state.finished else state.state.amount

    def settle(self, state: ChoiceState) -> Settlement:
        """Finished: collected + amount, and a bonus won played on top by the caller; before
        that, what lowering the amount has collected."""
        s = state.state
        if not s.finished:
            return Settlement(credits=s.collected)
        return Settlement(credits=s.collected + s.amount, bonus=s.bonus_won)

    def expected_payout(self, state: ChoiceState, policy: Callable[[ChoiceState], Any]) -> Fraction:
        offer = state.offer
        return wg.expected_payout(self.config, state.state,
                                  lambda s: _as_tuple(policy(ChoiceState(offer, s, s.finished))))


@dataclass(frozen=True)
class SpinChance:
    gambles: tuple = ()  # the game's gamble steps: while one is offered, Spin Chance is not
    kind: ClassVar[str] = "spin_chance"
    settings: ClassVar[tuple[str, ...]] = ()
    stakes: ClassVar[str] = "balance"
    CHOICES: ClassVar[tuple[str, ...]] = ("play", "decline")

    def draws(self, game: Any) -> tuple[tuple[int, str, str], ...]:
        return tuple((price, f"Spin Chance: price of a round ({price} credits)",
                      "games/cops_n_robbers/spin_chance.py play_spin_chance")
                     for price in sorted({c for o in game.bets() for _, c in o.costs}))

    def offer(self, end: RoundEnd) -> Offer | None:
        if end.balance is None or not sc.spin_chance_offered(end.balance, end.price):
            return None
        if any(step.offer(end) is not None for step in self.gambles):
            return None  # the win is at stake: Spin Chance waits until the gamble is settled
        return Offer(self.kind, end.balance, end.price, end.denomination,
                     {"price": end.price}, Fraction(1))

    def start(self, offer: Offer, carried: Mapping[str, Any] | None = None) -> ChoiceState:
        """Open Spin Chance; its state is None until played or declined (then the
        SpinChanceResult)."""
        check_offer(self.kind, offer)
        sc.win_chance(offer.amount, offer.stake)  # refuses an offer that is not one
        return ChoiceState(offer, None, False)

    def choices(self, state: ChoiceState) -> tuple[str, ...]:
        return () if state.finished else self.CHOICES

    def step(self, state: ChoiceState, choice: Any, rng) -> ChoiceState:
        if state.finished:
            raise InvalidAction(f"spin chance choice {choice!r} after it finished")
        offer = state.offer
        if choice == "play":
            result = sc.play_spin_chance(offer.amount, offer.stake, rng)
        elif choice == "decline":
            result = sc.decline(offer.amount, offer.stake)
        else:
            raise InvalidAction(f"spin chance choice {choice!r}: not one of {self.CHOICES}")
        return ChoiceState(offer, result, True)

    def paid(self, state: ChoiceState) -> Fraction:
        """Credits' worth: the credit kept, plus one round's price for a spin won."""
        result = state.state
        if result is None:
            return Fraction(0)
        return Fraction(result.kept + result.spins_won * result.stake)

    def at_stake(self, state: ChoiceState) -> int:
        """Nothing of a round's win is at stake in Spin Chance: it wagers the balance's credit."""
        return 0

    def settle(self, state: ChoiceState) -> Settlement:
        """PLAY takes the credit from the balance and, won, funds a round at the current bet;
        NO THANKS leaves the balance as it is."""
        result = state.state
        if result is None or not result.played:
            return Settlement()
        return Settlement(debits=result.credit, funded_round=result.won)

    def expected_payout(self, state: ChoiceState, policy: Callable[[ChoiceState], Any]) -> Fraction:
        """Exact: "play" averages `paid` over every one of the `stake` equally likely draws."""
        if state.finished:
            return self.paid(state)
        offer = state.offer
        choice = policy(state)
        if choice == "decline":
            return self.paid(ChoiceState(offer, sc.decline(offer.amount, offer.stake), True))
        if choice != "play":
            raise InvalidAction(f"spin chance choice {choice!r}: not one of {self.CHOICES}")
        total = sum(self.paid(ChoiceState(offer, sc.resolve_spin_chance(offer.amount, offer.stake, d),
                                          True)) for d in range(offer.stake))
        return Fraction(total, offer.stake)

    def odds(self, state: ChoiceState) -> None:
        return None  # one draw of the stake's equally likely outcomes: the sheet words it


def wheel_odds(config: wg.WheelConfig, state: wg.WheelState
               ) -> dict[tuple, tuple[int | Fraction, Fraction]]:
    """Every spin the state offers -> (what it wins, its exact chance of winning): ("cash", i)
    -> (target credits, amount / target), the target amount x num / den rounded down and cut
    at the limit (`gamble.cash_target`); ("bonus", b) -> (the bonus's price in credits, a
    Fraction, amount / price). Empty once finished. The step plays a spin only where it is
    here, and with this chance (`WheelGamble.step`)."""
    odds: dict[tuple, tuple[int | Fraction, Fraction]] = {}
    for choice in wg.options(config, state):
        kind, arg = _action(choice)
        if kind == "cash":
            target = wg.cash_target(config, state, arg)
            assert target is not None  # options lists only the offered targets
            odds[choice] = (target, wg.cash_chance(config, state, arg))
        elif kind == "bonus":
            odds[choice] = (wg.bonus_price(config, state, arg), wg.bonus_chance(config, state, arg))
    return odds


def arrow_amounts(state: wg.WheelState) -> list[int]:
    """The amounts the amount arrows step through, the amount at stake first: down from it by
    a tenth of it (rounded half up, at least 1 credit) while above 1, then 1 credit. None but
    the amount once finished or at 1 credit."""
    if state.finished:
        return []
    step = max(1, (state.amount + 5) // 10)
    return [*range(state.amount, 1, -step), 1] if state.amount > 1 else [1]


ARITY = {"collect": 1, "amount": 2, "cash": 2, "bonus": 2}  # elements of each action


def _action(choice: Any) -> tuple[str, Any]:
    """(kind, argument or None) of "collect", ("collect",) or a 2-element ("amount", n),
    ("cash", i), ("bonus", b), as a tuple or a JSON list; anything else is refused."""
    parts = tuple(choice) if isinstance(choice, (tuple, list)) else (choice,)
    kind = parts[0] if parts else None
    if not isinstance(kind, str) or ARITY.get(kind) != len(parts):
        raise InvalidAction(f"wheel gamble choice {choice!r}: not one of \"collect\", "
                            "(\"amount\", n), (\"cash\", i), (\"bonus\", b)")
    return kind, (parts[1] if len(parts) == 2 else None)


def _as_tuple(choice: Any) -> tuple:
    kind, arg = _action(choice)
    return (kind,) if arg is None else (kind, arg)
