"""What the family classes share of the `Game` protocol: the bet structure as data, modes,
replay, the offers after a round and their choice steps, RTP figures, the maximum win.

One level of inheritance: `LineGame` and `ClusterGame` derive from `CommonGame` and fill its
named hooks (`spec`, `settings`, `own_choice_steps`, `round_cap`, `max_round_win`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar, cast

from reelforge.engine.outcome import Bet, Outcome
from reelforge.engine.protocol import (
    BetOption,
    ChoiceState,
    ChoiceStep,
    MaxWin,
    ModeInfo,
    Offer,
    RoundEnd,
    RtpFigure,
    Settlement,
    exact_max_round_win,
    rtp_figures,
)
from reelforge.errors import InvalidAction, InvalidArgument, InvalidOutcome, quote
from reelforge.spec.rules import optional_rules_module

UNBOUNDED = 2**63 - 1  # what max_round_win answers where only the spin guard ends a round


class CommonGame:
    family: ClassVar[str]
    spec: Any
    settings: Mapping[str, str]  # operator settings of the choice steps, e.g. gamble_offer

    # -- identity and bet structure ----------------------------------------------------------
    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def title(self) -> str:
        return self.spec.name

    @property
    def modes(self) -> tuple[ModeInfo, ...]:
        names = ["base"] + [m.name for m in self.spec.modes if m.name != "base"]
        return tuple(ModeInfo(n, mode.shown, mode.price, mode.buy_spins)
                     for n in names for mode in (self.spec.mode(n),))

    @property
    def min_bet(self) -> Bet:
        return Bet(self.spec.bet.min_lines, 1)

    @property
    def max_bet(self) -> Bet:
        return Bet(self.spec.bet.max_lines, self.spec.bet.max_bet_per_line)

    def info(self) -> dict[str, Any]:
        """What an information page and a reel screen draw, read from the game file: the
        window, the symbols, the pays with their units and what the family adds (paylines,
        strips, features). Data only: a client shows it, it never plays a round from it."""
        spec = self.spec
        return {"description": spec.description,
                "symbols": [{"id": s.id, "name": s.name, "role": s.role} for s in spec.symbols],
                **self._family_info()}

    def _family_info(self) -> dict[str, Any]:
        raise NotImplementedError

    def bets(self) -> tuple[BetOption, ...]:
        """Every valid stake (lines x bet per line; a cluster game's fixed coins x each coin
        value), smallest lines first, with its cost in every mode that a whole number of
        credits buys at that stake (an ante at 5/4 x the stake: multiples of 4 credits)."""
        limits = self.spec.bet
        modes = [self.spec.mode(m.name) for m in self.modes]
        return tuple(
            BetOption(Bet(lines, per_line), lines * per_line,
                      tuple((m.name, cost) for m in modes
                            for cost in (m.cost(lines * per_line),) if cost is not None))
            for lines in range(limits.min_lines, limits.max_lines + 1)
            for per_line in range(1, limits.max_bet_per_line + 1))

    def check_bet(self, bet: Bet) -> Bet:
        from reelforge.engine.round import check_bet

        return check_bet(self, bet)

    def bet(self, lines: int | None = None, bet_per_line: int | None = None, mode: str = "base",
            denomination: int | None = None) -> Bet:
        """A checked bet; missing parts default to the maximum (BET MAX), or with neither
        given, to the largest stake whose cost in `mode` is whole credits (a price of 5/4
        plays stakes that are multiples of 4)."""
        top = self.max_bet
        if lines is None and bet_per_line is None and mode in {m.name for m in self.modes}:
            top = self._largest_playable(mode) or top
        return self.check_bet(Bet(top.lines if lines is None else lines,
                                  top.bet_per_line if bet_per_line is None else bet_per_line,
                                  mode, denomination))

    def _largest_playable(self, mode: str) -> Bet | None:
        """The largest stake whose cost in `mode` is whole credits (more lines first at equal
        stakes), or None where none is: the price's denominator must divide lines x per line,
        so at each line count the per-line bet is a multiple of den / gcd(den, lines)."""
        limits, den = self.spec.bet, self.spec.mode(mode).price.denominator
        found = []
        for lines in range(limits.min_lines, limits.max_lines + 1):
            step = den // math.gcd(den, lines)
            per_line = limits.max_bet_per_line // step * step
            if per_line:
                found.append(Bet(lines, per_line))
        return max(found, key=lambda b: (b.total, b.lines), default=None)

    def price(self, bet: Bet) -> int:
        """What the round costs in credits: the stake times the mode's price (whole: a bet
        whose cost is not is refused by `check_bet`)."""
        cost = self.spec.mode(bet.mode).cost(bet.total)
        if cost is None:
            self.check_bet(bet)  # raises InvalidBet, naming the mode's price
        return int(cost)  # type: ignore[arg-type]

    def replay(self, outcome):
        """The round `outcome` records, played again from its seed (engine.round.replay)."""
        from reelforge.engine.round import replay

        return replay(self, outcome)

    # -- after the round: offers and their choice steps --------------------------------------
    def own_choice_steps(self) -> tuple[ChoiceStep, ...]:
        """Hook: the family's generic choice steps (a line game's red/black gamble)."""
        return ()

    @cached_property
    def choice_steps(self) -> tuple[ChoiceStep, ...]:
        """The family's steps, then its rules package's (`choices` part, where it has one)."""
        steps = self.own_choice_steps()
        rules = self.spec.rules
        module = None if rules is None else optional_rules_module(rules, "choices")
        return steps + (() if module is None else tuple(module.choice_steps(self)))

    def configure(self, **settings: str) -> CommonGame:
        """This game with operator settings for its choice steps (e.g. gamble_offer="5x");
        the game itself is shared, not recompiled."""
        known = {name for step in self.choice_steps for name in step.settings}
        for name, value in settings.items():
            if name not in known:
                raise InvalidArgument(f"{self.id}: setting {name} = {value!r}: not a setting of "
                                      f"this game ({', '.join(sorted(known)) or 'none'})")
        game = dataclasses.replace(cast(Any, self),
                                   settings=MappingProxyType({**self.settings, **settings}))
        game.choice_steps  # noqa: B018 - builds the steps now, so a bad value fails here
        return game

    def offers(self, outcome: Outcome | dict, balance: int | None = None, *,
               gamble_settled: bool = False) -> tuple[Offer, ...]:
        """What the player may take after `outcome` (an Outcome or its dict), given `balance`
        credits (where the caller knows them: Spin Chance depends on it). `balance` excludes
        the round's win while a gamble on it may be offered; once the player has settled that
        gamble (or declined it), `gamble_settled=True` asks again with nothing at stake.

        A dict is a stored round from outside: it is replayed and must equal its replay. The
        bet is checked against this game's bet structure either way."""
        data = outcome if isinstance(outcome, dict) else None
        outcome = Outcome.from_dict(data) if data is not None else cast(Outcome, outcome)
        if outcome.game_id != self.id:
            raise InvalidAction(f"offers for an outcome of {outcome.game_id!r}, not {self.id!r}")
        if data is not None:
            _check_replay(outcome, self.replay(data))
        if balance is not None and (isinstance(balance, bool) or not isinstance(balance, int)
                                    or balance < 0):
            raise InvalidAction(f"balance {balance!r}: must be whole credits >= 0")
        bet = self.check_bet(outcome.bet.to_bet())
        if outcome.bet.stake != bet.total or outcome.bet.cost != self.price(bet):
            raise InvalidOutcome(f"outcome bet: stake {outcome.bet.stake} and cost "
                                 f"{outcome.bet.cost} are not {bet.total} and {self.price(bet)}")
        denomination = self.spec.bet.denominations[0] if bet.denomination is None else bet.denomination
        win = 0 if gamble_settled else int(outcome.total_win)
        end = RoundEnd(bet, bet.total, self.price(bet), denomination, win,
                       "jackpot" in outcome.flags, balance)
        found = (step.offer(end) for step in self.choice_steps)
        return tuple(offer for offer in found if offer is not None)

    def _step_of(self, kind: str) -> ChoiceStep:
        for step in self.choice_steps:
            if step.kind == kind:
                return step
        raise InvalidAction(f"{self.id}: offer kind {kind!r} is not offered by this game")

    def start(self, offer: Offer, **options) -> ChoiceState:
        """Open the choice `offer` (one of `offers(...)`)."""
        return self._step_of(offer.kind).start(offer, **options)

    def choices(self, state: ChoiceState) -> tuple:
        return self._step_of(state.offer.kind).choices(state)

    def step(self, state: ChoiceState, choice, rng) -> ChoiceState:
        """One pure step: the next state; `state` is unchanged, `rng` the only thing used up."""
        return self._step_of(state.offer.kind).step(state, choice, rng)

    def paid(self, state: ChoiceState) -> Fraction:
        return self._step_of(state.offer.kind).paid(state)

    def at_stake(self, state: ChoiceState) -> int:
        return self._step_of(state.offer.kind).at_stake(state)

    def settle(self, state: ChoiceState) -> Settlement:
        """What `state` settles, as data (`Settlement`)."""
        return self._step_of(state.offer.kind).settle(state)

    def expected_payout(self, state: ChoiceState, policy: Callable[[ChoiceState], Any]) -> Fraction:
        """Exact expected credits' worth paid from `state` on under `policy`."""
        return self._step_of(state.offer.kind).expected_payout(state, policy)

    # -- figures -----------------------------------------------------------------------------
    def rtp(self) -> tuple[RtpFigure, ...]:
        """The game's RTP figures with their source, from every registered source (the exact
        analysis registers itself when `reelforge.analysis` is imported; `reelforge.games`
        registers the published estimates shipped beside a game file)."""
        return rtp_figures(self)

    def round_cap(self, bet: Bet) -> int:
        """Hook: the cap on one round's win in credits at `bet`; 0 = none."""
        return 0

    def max_round_win(self, bet: Bet) -> int:
        raise NotImplementedError

    def max_win(self, bet: Bet | None = None) -> MaxWin:
        """The most one round pays at `bet` (default: the maximum bet): the cap where the
        rules can reach it, else their exact maximum (from a registered source: the exact
        analysis) or, where none is known, the engine's upper bound."""
        bet = self.check_bet(bet or self.max_bet)
        cap, exact = self.round_cap(bet), exact_max_round_win(self, bet)
        bound = self.max_round_win(bet) if exact is None else exact
        if cap and bound >= cap:
            credits, how = cap, "cap"
        elif exact is not None:
            credits, how = exact, "exact"
        else:
            credits, how = bound, ("unbounded" if bound >= UNBOUNDED else "bound")
        return MaxWin(bet, credits, Fraction(credits, bet.total), how)  # type: ignore[arg-type]


def _check_replay(stored: Outcome, replayed: Outcome) -> None:
    """Refuse a stored outcome that is not what its seed and bet play, naming the first field
    (in schema order) where they differ."""
    if stored == replayed:
        return
    a, b = stored.to_dict(), replayed.to_dict()
    where = next(k for k in a if a[k] != b[k])
    raise InvalidOutcome(f"outcome {where} = {quote(a[where])}: not what its seed plays "
                         f"({quote(b[where])})")
