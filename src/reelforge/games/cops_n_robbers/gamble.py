"""The two-wheel gamble of Cops n Robbers Big Money Christmas, as pure functions over frozen states.

Seed (GAMBLE): a cash wheel (4/3, 2 or 3 times the amount), a bonus wheel (Big, Super or Mega
Big Money), an adjustable amount, up to min(2500 x stake, 250,000.00) then collected, payback
100%. Every spin is a fair bet, so for any policy the expected payout is what is at stake;
`expected_payout` proves it with Fractions. Interpretations:

- `choose_amount` lowers the amount at stake and banks the rest (`collected`, paid whatever
  follows); it must bank at least one credit, so every action makes progress.
- Limit L = min(limit_stake_multiple x stake, limit_minor // denomination) credits, on the whole
  win, collected + amount: a win of L or more is not offered; reaching L ends the gamble.
- Cash target num/den: amount x num / den rounded down to whole credits, offered on every
  amount except where that equals the amount (no gamble: 4/3 of 1 or 2 credits). Won with
  probability amount / target exactly: `draw_below(num) < den` where the target is exact,
  `draw_below(target) < amount` where it was rounded down (4/3 of an amount not a multiple
  of 3), so the payback stays 100%. A target past L is capped at L - collected and won with
  probability amount / capped target, exactly `draw_below(capped) < amount`.
- Bonus b costs bonus_values[b] x stake credits: the game file's exact `bonus_prices`, which
  are `analysis.trail.bonus_values` rounded to the nearest 1e-9 stake (5e-10 stake at most, on
  top of the analysis' relative 1e-12: below 1e-11 relative to the true bonus value for this
  game's 70 to 185 stakes), computed once and checked by a test, never solved during play. It is won with
  probability amount / price exactly (`bernoulli`), so |payback - 1| = 0 against that price;
  offered when amount < price and collected + price <= L. A won bonus ends the gamble with
  `bonus_won` set: the caller plays that bonus.
- "At most Mega via the bonus wheel": `reached` is the highest bonus whose price the amount has
  reached in this gamble and never falls; only bonuses above it are offered, so once Mega is
  reached only the cash wheel is (lowering the amount does not reopen the bonus wheel).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from reelforge.engine.protocol import FrozenMap
from reelforge.engine.rng import draw
from reelforge.errors import InvalidAction

OFFERS = ("on", "5x", "off")
ACTIONS = ("collect", "amount", "cash", "bonus")  # policy actions: ("amount", n), ("cash", i)...
PRICE_SCALE = 10**9  # bonus prices in 1e-9 stake
BONUS_DRAW = 2**32 - 1  # digit base of the exact bonus draw (draw_below needs n < 2**32)


@dataclass(frozen=True)
class WheelConfig:
    """The operator's offer setting and the game's wheels, as data."""

    offer: str
    limit_stake_multiple: int
    limit_minor: int
    cash_targets: tuple[tuple[int, int], ...]  # (num, den): a target of amount x num / den
    # start multiplier -> price in stakes; read-only (a FrozenMap), as the config is shared
    bonus_values: Mapping[int, Fraction] = field(hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.bonus_values, FrozenMap):
            object.__setattr__(self, "bonus_values", FrozenMap(self.bonus_values))
        if self.offer not in OFFERS:
            raise ValueError(f"WheelConfig.offer = {self.offer!r}: must be one of {OFFERS}")
        for name in ("limit_stake_multiple", "limit_minor"):
            _check_positive(getattr(self, name), f"WheelConfig.{name}", ValueError)
        if self.limit_minor >= 2**32:  # so every limit, and a capped cash draw, is below 2**32
            raise ValueError(f"WheelConfig.limit_minor = {self.limit_minor}: must be below 2**32")
        for target in self.cash_targets:
            if not all(map(_whole, target)) or not 0 < target[1] < target[0] < 2**32:
                raise ValueError(f"WheelConfig.cash_targets {target!r}: need 0 < den < num < 2**32")
        values = [self.bonus_values[b] for b in sorted(self.bonus_values)]
        if (any(not _whole(b) or b < 1 for b in self.bonus_values)
                or any(not isinstance(v, Fraction) or v <= 0 for v in values)
                or values != sorted(set(values))):
            raise ValueError(f"WheelConfig.bonus_values = {self.bonus_values!r}: need positive "
                             "Fractions rising with the starting multiplier (1, 2, ...)")


def wheel_config(game, offer: str) -> WheelConfig:
    """The game's `[features.wheel_gamble]`, with the exact bonus prices the file carries
    (`bonus_prices`, the bonus started at multiplier 1, 2, ...)."""
    spec = game.spec.wheel_gamble
    if spec is None:
        raise InvalidAction(f"{game.spec.id}: no [features.wheel_gamble] in the game file")
    if not spec.bonus_prices:
        raise InvalidAction(f"{game.spec.id}: [features.wheel_gamble] has no bonus_prices")
    prices = {b: price for b, price in enumerate(spec.bonus_prices, 1)}
    return WheelConfig(offer, spec.limit_stake_multiple, spec.limit_minor,
                       tuple(tuple(t) for t in spec.cash_targets), prices)


@dataclass(frozen=True)
class WheelState:
    """One moment of a gamble, in credits; every action returns a new one."""

    stake: int
    limit: int  # the most the whole win, collected + amount, may reach
    amount: int  # at stake now
    collected: int  # banked by choose_amount, paid whatever follows
    bonus_won: int | None  # starting multiplier of the bonus won; the caller plays it
    reached: int  # highest bonus whose price the amount has reached; 0 = none
    finished: bool


def gamble_limit(config: WheelConfig, stake: int, denomination: int = 1) -> int:
    """min(limit_stake_multiple x stake, limit_minor // denomination) credits."""
    _check_positive(stake, "stake", InvalidAction)
    _check_positive(denomination, "denomination", InvalidAction)
    return min(config.limit_stake_multiple * stake, config.limit_minor // denomination)


def gamble_offered(config: WheelConfig, win: int, stake: int, denomination: int = 1) -> bool:
    """on: any win; 5x: win >= 5 x stake; off: never; never for a win already at the limit."""
    _check_positive(win, "gamble win", InvalidAction, zero=True)
    limit = gamble_limit(config, stake, denomination)
    floor = {"on": 1, "5x": 5 * stake}.get(config.offer)
    return floor is not None and floor <= win < limit


def start_gamble(config: WheelConfig, win: int, stake: int, denomination: int = 1) -> WheelState:
    if not gamble_offered(config, win, stake, denomination):
        raise InvalidAction(f"gamble not offered for win {win!r} at stake {stake!r}: offer "
                            f"{config.offer!r}, limit {gamble_limit(config, stake, denomination)}")
    state = WheelState(stake, gamble_limit(config, stake, denomination), win, 0, None, 0, False)
    return replace(state, reached=_reached(config, state, win))


def choose_amount(state: WheelState, amount: int) -> WheelState:
    """Gamble only `amount` (1 <= amount < amount at stake); the rest is banked."""
    _check_open(state, f"choose amount {amount!r}")
    if not _whole(amount) or not 1 <= amount < state.amount:
        raise InvalidAction(f"choose amount {amount!r}: must be whole credits in "
                            f"[1, {state.amount}) (amount at stake {state.amount})")
    return replace(state, amount=amount, collected=state.collected + state.amount - amount)


def cash_target(config: WheelConfig, state: WheelState, index: int) -> int | None:
    """Credits a cash spin wins: amount x num / den rounded down, capped at limit - collected;
    None where not offered, including where the rounded target is the amount itself (4/3 of 1
    or 2 credits), which would be no gamble at all."""
    if state.finished or not _whole(index) or not 0 <= index < len(config.cash_targets):
        return None
    num, den = config.cash_targets[index]
    room = state.limit - state.collected
    if state.amount * num >= room * den:
        return room  # room > amount while the gamble is open, so a capped target is a gamble
    target = state.amount * num // den
    return target if target > state.amount else None


def bonus_price(config: WheelConfig, state: WheelState, which: int) -> Fraction:
    """Credits' worth of bonus `which` at this stake."""
    return config.bonus_values[which] * state.stake


def bonus_offered(config: WheelConfig, state: WheelState, which: int) -> bool:
    if state.finished or not _whole(which) or which not in config.bonus_values:
        return False
    price = bonus_price(config, state, which)
    return which > state.reached and state.amount < price <= state.limit - state.collected


def options(config: WheelConfig, state: WheelState) -> list[tuple]:
    """Every action allowed now as policy actions; ("amount", 1) stands for any lower amount."""
    if state.finished:
        return []
    found: list[tuple] = [("collect",)] + ([("amount", 1)] if state.amount > 1 else [])
    found += [("cash", i) for i in range(len(config.cash_targets))
              if cash_target(config, state, i) is not None]
    return found + [("bonus", b) for b in sorted(config.bonus_values)
                    if bonus_offered(config, state, b)]


def cash_chance(config: WheelConfig, state: WheelState, index: int) -> Fraction:
    return Fraction(state.amount, _target(config, state, index))


def resolve_cash(config: WheelConfig, state: WheelState, index: int, won: bool) -> WheelState:
    """The deterministic part: a win moves the amount to the target (and may reach the limit)."""
    target = _target(config, state, index)
    if not won:
        return replace(state, amount=0, finished=True)
    return replace(state, amount=target, reached=_reached(config, state, target),
                   finished=state.collected + target >= state.limit)


def spin_cash(config: WheelConfig, state: WheelState, index: int, rng) -> WheelState:
    target = _target(config, state, index)
    num, den = config.cash_targets[index]
    # an exact target keeps its short draw (and the existing draw stream); a capped or rounded
    # one draws over the target itself, which makes the chance amount / target exactly
    exact = target * den == state.amount * num
    won = draw(rng, num) < den if exact else draw(rng, target) < state.amount
    return resolve_cash(config, state, index, bool(won))


def bonus_chance(config: WheelConfig, state: WheelState, which: int) -> Fraction:
    _check_open(state, f"bonus spin {which!r}")
    if not bonus_offered(config, state, which):
        raise InvalidAction(f"bonus {which!r} not offered for amount {state.amount}: it must be "
                            f"above reached bonus {state.reached}, priced above the amount and "
                            f"within limit {state.limit} (collected {state.collected})")
    return state.amount / bonus_price(config, state, which)


def resolve_bonus(config: WheelConfig, state: WheelState, which: int, won: bool) -> WheelState:
    """The deterministic part: the amount becomes the bonus, or is lost; either way it ends."""
    bonus_chance(config, state, which)  # checks it is offered
    return replace(state, amount=0, bonus_won=which if won else None, finished=True)


def spin_bonus(config: WheelConfig, state: WheelState, which: int, rng) -> WheelState:
    return resolve_bonus(config, state, which, bernoulli(rng, bonus_chance(config, state, which)))


def collect(state: WheelState) -> WheelState:
    _check_open(state, "collect")
    return replace(state, finished=True)


def payout(config: WheelConfig, state: WheelState) -> Fraction:
    """Credits' worth paid by a finished gamble; a bonus won counts at its price."""
    if not state.finished:
        raise InvalidAction(f"payout of an open gamble (amount {state.amount})")
    bonus = bonus_price(config, state, state.bonus_won) if state.bonus_won else 0
    return state.collected + state.amount + Fraction(bonus)


def expected_payout(config: WheelConfig, state: WheelState,
                    policy: Callable[[WheelState], tuple]) -> Fraction:
    """Exact expected payout under `policy` over both outcomes of every spin; it equals
    collected + amount for every policy. A lost or bonus spin ends, so the tree is a path."""
    if state.finished:
        return payout(config, state)
    action = policy(state)
    kind, arg = (action + (None,))[:2] if isinstance(action, tuple) and action else (action, None)
    if kind == "collect":
        return payout(config, collect(state))
    if kind == "amount":
        return expected_payout(config, choose_amount(state, arg), policy)
    if kind in ("cash", "bonus"):
        chance, resolve = ((cash_chance, resolve_cash) if kind == "cash"
                           else (bonus_chance, resolve_bonus))
        p = chance(config, state, arg)
        return (p * expected_payout(config, resolve(config, state, arg, True), policy)
                + (1 - p) * expected_payout(config, resolve(config, state, arg, False), policy))
    raise InvalidAction(f"policy action {action!r} is not one of {ACTIONS} (amount {state.amount})")


def bernoulli(rng, p: Fraction, n: int = BONUS_DRAW) -> bool:
    """True with probability exactly p (0 < p < 1): a uniform number in [0, 1) is drawn digit by
    digit in base n (draw_below(n)) and compared with p, stopping at the first digit that tells
    them apart: one draw except with probability 1/n per further draw."""
    while True:
        scaled = p * n
        digit = scaled.numerator // scaled.denominator
        d = draw(rng, n)
        if d != digit or scaled == digit:
            return d < digit
        p = scaled - digit


def _reached(config: WheelConfig, state: WheelState, amount: int) -> int:
    return max([state.reached] + [b for b in config.bonus_values
                                  if amount >= bonus_price(config, state, b)])


def _target(config: WheelConfig, state: WheelState, index: int) -> int:
    _check_open(state, f"cash spin {index!r}")
    target = cash_target(config, state, index)
    if target is None:
        raise InvalidAction(f"cash target {index!r} not offered for amount {state.amount} "
                            f"(targets {config.cash_targets}, collected {state.collected})")
    return target


def _check_open(state: WheelState, action: str) -> None:
    if state.finished:
        raise InvalidAction(f"{action} after the gamble finished (collected {state.collected}, "
                            f"amount {state.amount}, bonus {state.bonus_won})")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_positive(value, name: str, error, zero: bool = False) -> None:
    if not _whole(value) or value < (0 if zero else 1):
        raise error(f"{name} {value!r}: must be a {'non-negative' if zero else 'positive'} integer")
