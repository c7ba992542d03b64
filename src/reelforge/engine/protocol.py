"""The `Game` protocol: what every game offers the rest of the platform, whatever its family.

Like Gymnasium's `Env`, a small structural protocol: a server, the CLI, the analyses and the
tests hold "a game" and call these members, never asking which family it is (only the family
registry, `engine.families`, does). The data it speaks is here too: modes, bet options, RTP
figures, the maximum win, and the offers a player may take after a round, each with its limits
and its exact payback, and the choice steps that play them: for each offer kind a `ChoiceStep`
whose `start(offer)` opens a state and whose `step(state, choice, rng)` is a pure function
returning the next one (states are frozen; the rng is the only thing a step consumes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

import numpy as np

from reelforge.engine.outcome import Bet, Outcome

FigureSource = Literal["exact", "estimate"]


class FrozenMap(Mapping):
    """A read-only mapping, for data held by frozen objects that sessions share (an offer's
    limits, a game's wheel prices). Compares equal to any mapping with the same items; unlike
    `types.MappingProxyType` it copies and pickles. Nested dicts are frozen too."""

    __slots__ = ("_items",)
    _items: dict

    def __init__(self, items: Mapping = ()) -> None:  # type: ignore[assignment]
        object.__setattr__(self, "_items", {k: FrozenMap(v) if isinstance(v, Mapping) else v
                                            for k, v in dict(items).items()})

    def __getitem__(self, key: Any) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return repr(self._items)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"FrozenMap is read-only: cannot set {name}")

    def __reduce__(self):
        return FrozenMap, (self._items,)

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class ModeInfo:
    """A way to play; a round in it costs `price` x the stake (exact: 5/4 for an ante); a
    buy mode (`buy_spins` > 0) plays the free games alone, started with that many spins."""

    name: str
    title: str
    price: Fraction
    buy_spins: int = 0


@dataclass(frozen=True)
class BetOption:
    """One valid stake: the bet, its stake in credits, and its cost in credits in each mode."""

    bet: Bet
    stake: int
    costs: tuple[tuple[str, int], ...]  # (mode name, credits), in the game's mode order

    def cost(self, mode: str = "base") -> int:
        return dict(self.costs)[mode]


@dataclass(frozen=True)
class RtpFigure:
    """A published RTP of one mode (at the maximum bet), with where it comes from.

    `source` "exact": computed combinatorially (`value` exact up to float64 rounding, ci95
    None); "estimate": a published Monte Carlo estimate whose 95% CI half-width is `ci95`.
    `method` is the command that reproduces it.
    """

    mode: str
    value: Fraction | float
    source: FigureSource
    ci95: float | None
    method: str


@dataclass(frozen=True)
class MaxWin:
    """The most one round can pay at `bet`, in credits and in multiples of the stake.

    `enforced`: "cap" (the game cuts a round's win there and the rules can reach it),
    "exact" (the rules' exact, attainable maximum, below any cap), "bound" (an upper bound
    of the rules, where no exact maximum is known) or "unbounded" (only the engine's spin
    guard ends a round).
    """

    bet: Bet
    credits: int
    x: Fraction  # credits / stake
    enforced: Literal["cap", "exact", "bound", "unbounded"]


@dataclass(frozen=True)
class Labels:
    """Words a report uses for a family's simulated figures."""

    breakdown: Mapping[str, str] = field(hash=False)  # source -> words, where not its own name
    endless: str  # what a round cut at the spin guard did not end
    feature: str  # the feature whose frequency and mean award are shown
    bonus_frequency: str  # the row of rounds with a bonus (or its extra spins)
    bonus_mean: str  # the row of the bonus' mean spins
    fixed_jackpots: bool  # show the fixed jackpots won (cluster jars)


@dataclass(frozen=True)
class RoundEnd:
    """What the choice steps need to know of a finished round to say what they offer."""

    bet: Bet
    stake: int  # credits: lines x bet per line
    price: int  # credits one round at this bet costs (the stake x the mode's price)
    denomination: int  # currency minor units per credit
    win: int  # credits the round won still at stake: its total win; 0 once a gamble is settled
    jackpot: bool  # a jackpot was won (never gambled)
    # The player's credits where the caller knows them, excluding `win` (a win offered to
    # gamble is not yet the player's); after a settled gamble, including what it paid.
    balance: int | None


@dataclass(frozen=True)
class Offer:
    """A choice the player may take after a round: its kind, the credits it puts at stake,
    its limits as data, and its exact payback (expected credits paid / credits at stake, for
    every way of playing it)."""

    kind: str  # "gamble", "wheel_gamble", "spin_chance": a rules package may add its own
    amount: int  # credits at stake: the win to gamble, or the balance for Spin Chance
    stake: int  # credits of the bet it refers to (Spin Chance: the price of one round)
    denomination: int
    limits: Mapping[str, Any] = field(hash=False)  # read-only (a FrozenMap)
    payback: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        if not isinstance(self.limits, FrozenMap):
            object.__setattr__(self, "limits", FrozenMap(self.limits))

    def to_dict(self) -> dict:
        """JSON-ready: lists for tuples, string keys, Fractions as "num/den" strings."""
        return {"kind": self.kind, "amount": self.amount, "stake": self.stake,
                "denomination": self.denomination, "limits": _json(self.limits),
                "payback": _json(self.payback)}


def _json(value: Any) -> Any:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Mapping):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True)
class ChoiceState:
    """A choice being played: its offer and the kind's own frozen state (the card gamble's
    GambleState, the wheel gamble's WheelState, Spin Chance's SpinChanceResult once played or
    declined, None before)."""

    offer: Offer
    state: Any
    finished: bool


@dataclass(frozen=True)
class Settlement:
    """What a choice's state settles, as data: the caller (the server) moves the money and
    plays what it names without knowing the kind of choice.

    `credits`: whole credits the choice pays the player; once finished all of it (the prize of
    a bonus not counted), before that what it has banked whatever follows (a red/black TAKE
    HALF). `debits`: credits it takes from the player's balance (a wager of the balance).
    `bonus`: the start multiplier of a bonus won, which the caller plays
    (`engine.round.play_bonus`) and pays on top. `funded_round`: a round at the round's bet
    won, which the caller plays, paid for by `debits`. `carry`: what the next choice of this
    kind starts from (`ChoiceStep.start(offer, carried=...)`: a card history on screen)."""

    credits: int = 0
    debits: int = 0
    bonus: int | None = None
    funded_round: bool = False
    carry: Mapping[str, Any] | None = field(default=None, hash=False)


@runtime_checkable
class ChoiceStep(Protocol):
    """One offer kind: whether a round's end offers it, and its pure steps.

    `choices(state)` lists what may be chosen now; `step` refuses anything else with
    InvalidAction before it draws, so a refused choice consumes no randomness. `paid` is what
    a finished state pays (a bonus won counts at its price) and, before it finishes, what the
    choice has already banked for the player whatever follows (a red/black TAKE HALF, a wheel
    amount lowered): the server credits that at once. `at_stake` is the whole credits still
    at risk in an unfinished state (0 once finished). `expected_payout(state, policy)` is the
    exact expected `paid` under `policy` (a function state -> choice). `odds(state)` is what a
    screen shows before the player chooses: per amount the player may put at stake, each
    choice's win and exact chance; None for a step whose chances need no table (red/black is
    one half on every card).
    """

    kind: ClassVar[str]
    settings: ClassVar[tuple[str, ...]]  # the operator settings it reads (Game.configure)
    # What it puts at stake: "win", the round's win (a gamble, offered before the win is the
    # player's); "balance", the player's balance (offered once the round is credited)
    stakes: ClassVar[str]

    def offer(self, end: RoundEnd) -> Offer | None: ...
    def start(self, offer: Offer, carried: Mapping[str, Any] | None = None) -> ChoiceState: ...
    def choices(self, state: ChoiceState) -> tuple: ...
    # every bounded draw its steps can make in `game`: (n, where it is set, the code that draws)
    def draws(self, game: Any) -> tuple[tuple[int, str, str], ...]: ...
    def step(self, state: ChoiceState, choice: Any, rng: np.random.Generator) -> ChoiceState: ...
    def paid(self, state: ChoiceState) -> Fraction: ...
    def at_stake(self, state: ChoiceState) -> int: ...
    def settle(self, state: ChoiceState) -> Settlement: ...
    def expected_payout(self, state: ChoiceState, policy: Callable[[ChoiceState], Any]) -> Fraction: ...
    def odds(self, state: ChoiceState) -> Mapping[int, Mapping[tuple, tuple[int | Fraction, Fraction]]] | None: ...


@runtime_checkable
class Game(Protocol):
    """Every game, whatever its family (engine/game.py, cluster_game.py, ways_game.py): what it
    is, what may be bet, one round, its replay, the offers after it and their steps (each the
    step of its offer's kind: `ChoiceStep`), its published figures. What the analysis asks
    more is `Analysable`, dispatched on the game's capabilities."""

    family: ClassVar[str]

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def spec(self) -> Any: ...
    @property
    def modes(self) -> tuple[ModeInfo, ...]: ...
    @property
    def min_bet(self) -> Bet: ...
    @property
    def max_bet(self) -> Bet: ...
    def bets(self) -> tuple[BetOption, ...]: ...
    def bet(self, lines: int | None = None, bet_per_line: int | None = None, mode: str = "base",
            denomination: int | None = None) -> Bet: ...
    def check_bet(self, bet: Bet) -> Bet: ...
    def price(self, bet: Bet) -> int: ...
    def info(self) -> dict[str, Any]: ...
    def play(self, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> Outcome: ...
    def replay(self, outcome: Outcome | dict) -> Outcome: ...
    def offers(self, outcome: Outcome | dict, balance: int | None = None, *,
               gamble_settled: bool = False) -> tuple[Offer, ...]: ...
    def start(self, offer: Offer, carried: Mapping[str, Any] | None = None) -> ChoiceState: ...
    def choices(self, state: ChoiceState) -> tuple: ...
    def step(self, state: ChoiceState, choice: Any, rng: np.random.Generator) -> ChoiceState: ...
    def paid(self, state: ChoiceState) -> Fraction: ...
    def at_stake(self, state: ChoiceState) -> int: ...
    def settle(self, state: ChoiceState) -> Settlement: ...
    def expected_payout(self, state: ChoiceState, policy: Callable[[ChoiceState], Any]) -> Fraction: ...
    def configure(self, **settings: str) -> Game: ...
    def rtp(self) -> tuple[RtpFigure, ...]: ...
    def max_win(self, bet: Bet | None = None) -> MaxWin: ...


@runtime_checkable
class Analysable(Game, Protocol):
    """What the simulation, the analyses, the PAR sheets and the checks ask of a game beyond
    play: the capabilities it declares (engine.capabilities, dispatched by
    analysis.capabilities), a report's words, rounds without a tape, bounds of one round, and
    its own check (`check_game` runs it)."""

    @property
    def capabilities(self) -> frozenset[str]: ...
    @property
    def labels(self) -> Labels: ...
    def simulate(self, bet: Bet, rng: np.random.Generator, rounds: int,
                 band_edges_x) -> tuple[dict, tuple[int, ...], int]: ...
    def max_round_win(self, bet: Bet) -> int: ...
    def max_round_spins(self, bet: Bet) -> int: ...
    def check(self, rounds: int = 2000, seed: int = 0) -> None: ...


# --- figures from above the engine ---------------------------------------------------------
# The figures are computed above the engine (the exact analysis imports the engine, so the
# engine cannot call it) or read from data a layer above ships (published estimates). Each
# such layer registers a source here when it is imported; `Game.rtp()` asks every source, and
# `Game.max_win` the exact maximum's sources before falling back on the engine's own bound.
RtpSource = Callable[[Any], tuple[RtpFigure, ...]]
MaxWinSource = Callable[[Any, Bet], "int | None"]
_RTP_SOURCES: list[RtpSource] = []
_MAX_WIN_SOURCES: list[MaxWinSource] = []


def register_rtp_source(source: RtpSource) -> None:
    """Add a source of RTP figures (once: registering it again changes nothing)."""
    if source not in _RTP_SOURCES:
        _RTP_SOURCES.append(source)


def rtp_figures(game) -> tuple[RtpFigure, ...]:
    """Every registered source's figures for `game`, in registration order."""
    return tuple(f for source in _RTP_SOURCES for f in source(game))


def register_max_win_source(source: MaxWinSource) -> None:
    """Add a source of exact maximum round wins: (game, bet) -> credits, or None where it
    knows none (once: registering it again changes nothing)."""
    if source not in _MAX_WIN_SOURCES:
        _MAX_WIN_SOURCES.append(source)


def exact_max_round_win(game, bet: Bet) -> int | None:
    """The first registered source's exact maximum round win at `bet`, or None."""
    for source in _MAX_WIN_SOURCES:
        found = source(game, bet)
        if found is not None:
            return found
    return None
