"""Frozen game specs: what a game file says, validated, with names kept for people."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from reelforge.spec.wild_draws import WildDrawSpec

# Game ids become file names (PAR sheets, estimates) and are read back from outcomes, so one
# pattern everywhere: lowercase words of letters and digits joined by hyphens, then "-vN"
# (a decimal point in an id is written "p": "cleopatra-rtp95p007187-v1", "cluedo-94p5-v1").
# No dot, slash or space can appear, so an id is always a plain file name.
# Anchored (\A, \Z: "$" would let a trailing newline through), so match, search and
# fullmatch all test the whole text.
GAME_ID_PATTERN = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*-v[0-9]+\Z")
GAME_ID_RULE = "lowercase letters, digits and hyphens, ending in -vN, at most 100 characters"
GAME_ID_MAX_LENGTH = 100  # well under any file system's 255-byte name limit, with a suffix


def valid_game_id(text: object) -> bool:
    """True when `text` is a game id: GAME_ID_PATTERN, whole, and at most 100 characters."""
    return (isinstance(text, str) and len(text) <= GAME_ID_MAX_LENGTH
            and GAME_ID_PATTERN.fullmatch(text) is not None)


# Mode and reel-set names reach file names too ("<id>-<mode>-par.html") and command lines
# (--mode), so they follow the id's pattern without the version: no dot, slash or space.
NAME_PATTERN = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")
NAME_MAX_LENGTH = 40  # an id (100) + "-" + a name + "-par.html" stays far below 255 bytes
NAME_RULE = f"lowercase letters, digits and hyphens, at most {NAME_MAX_LENGTH} characters"


def valid_name(text: object) -> bool:
    """True when `text` is a mode or reel-set name: NAME_PATTERN, whole, at most 40 characters."""
    return (isinstance(text, str) and len(text) <= NAME_MAX_LENGTH
            and NAME_PATTERN.fullmatch(text) is not None)


ROLES = ("regular", "wild", "scatter", "bonus")
PURE_WILD_RULES = ("highest", "wild", "substituted")
MULTIPLIER_COMBINE = ("max", "product")
SCATTER_COUNTING = ("reels", "cells")
RETRIGGER_MODES = ("unlimited", "none", "capped")


@dataclass(frozen=True)
class SymbolSpec:
    id: str
    name: str
    role: str


@dataclass(frozen=True)
class WildSpec:
    symbol: str
    substitutes: frozenset[str]
    multiplier: int


@dataclass(frozen=True)
class ScatterSpec:
    symbol: str
    counting: str  # "reels": reels showing it; "cells": every cell showing it
    pays: tuple[tuple[int, int], ...]  # (count, pay in multiples of the total bet)


@dataclass(frozen=True)
class ReelSetSpec:
    name: str
    strips: tuple[tuple[str, ...], ...]  # one strip per reel, top-to-bottom order
    weights: tuple[tuple[int, ...], ...] | None  # integer weight per stop, or None: uniform


@dataclass(frozen=True)
class FreeGamesSpec:
    trigger: str  # scatter symbol whose count awards the spins
    award: tuple[tuple[int, int], ...]  # (count, spins) from the base game
    retrigger_award: tuple[tuple[int, int], ...]  # (count, spins) during free games
    retrigger: str  # "unlimited" | "none" | "capped"
    max_total_spins: int  # cap on spins awarded in one bonus, including the first award
    multiplier: int
    reel_set: str
    exempt: tuple[tuple[str, int], ...]  # (symbol, count) line awards never multiplied
    # (multiplier, integer weight): a multiplier drawn before every free spin; () = fixed
    multiplier_weights: tuple[tuple[int, int], ...] = ()


# A progressive jackpot is paid in this many instalments, the first upon validation, then
# annual ones: the same terms for every game (the server's jackpot service pays them, a game's
# information pages state them).
JACKPOT_INSTALMENTS = 20


@dataclass(frozen=True)
class JackpotSpec:
    symbol: str
    count: int
    line: int  # 1-based payline number
    requires_max_bet: bool
    seed_amount: int  # currency minor units
    contribution_bp: int  # basis points of each eligible stake fed to the pool


@dataclass(frozen=True)
class GambleSpec:
    kind: str
    limit_credits: int
    max_wins: int
    history_length: int
    take_half: bool


@dataclass(frozen=True)
class MixedPaySpec:
    """Symbols that pay together in any combination on a line (e.g. presents)."""

    name: str
    symbols: tuple[str, ...]
    pays: tuple[tuple[int, int], ...]  # (count, pay in multiples of the bet per line)


@dataclass(frozen=True)
class CashSpec:
    """Symbols that carry a cash value, drawn per symbol in view where a collector can take it."""

    symbols: tuple[str, ...]
    values: tuple[tuple[int, int], ...]  # (value in multiples of the total stake, weight)
    collector: str | None  # the symbol that collects the values in view, once per instance


def price_value(price: Fraction) -> int | str:
    """A mode's price as JSON and reports write it, exact: 2, or "5/4"."""
    return int(price) if price.denominator == 1 else str(price)


@dataclass(frozen=True)
class ModeSpec:
    """A way to play: its reel set, its price and whether collectors collect; a buy mode
    (`buy_spins` > 0) skips the base spin and starts the free games with that many spins."""

    name: str
    reel_set: str
    price: Fraction  # cost of a round in multiples of the stake, exact (5/4 for an ante)
    collect: bool
    buy_spins: int = 0  # > 0: the round is the free games alone, started with these spins
    title: str = ""  # what a player reads; "" = the name

    @property
    def shown(self) -> str:
        return self.title or self.name

    def cost(self, stake: int) -> int | None:
        """What a round costs at `stake` credits, in credits; None where the price makes it
        no whole number of credits (the mode is not offered at that stake)."""
        cost = stake * self.price
        return int(cost) if cost.denominator == 1 else None


class FixedStakeSpec:
    """What the specs of the families with one way to play and a stake of fixed coins (ways,
    hold-and-win, pays-anywhere) answer alike: no rules, modes, jackpot or gamble, the base
    reel set "base", the symbol ids, the coins of a stake and the one mode. A base of their
    frozen dataclasses (these are class constants, not fields)."""

    rules: ClassVar[None] = None
    modes: ClassVar[tuple] = ()
    jackpot: ClassVar[None] = None
    gamble: ClassVar[None] = None
    base_reel_set: ClassVar[str] = "base"

    if TYPE_CHECKING:  # the dataclass's fields (or properties)
        @property
        def symbols(self) -> tuple[SymbolSpec, ...]: ...
        @property
        def bet(self) -> BetSpec: ...

    @property
    def symbol_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.symbols)

    @property
    def pay_unit(self) -> int:
        """Coins in a stake: every pay is a whole number of them."""
        return self.bet.max_lines

    def mode(self, name: str) -> ModeSpec:
        """The one way to play: "base", price 1."""
        if name == "base":
            return ModeSpec("base", "base", Fraction(1), False)
        raise KeyError(name)


@dataclass(frozen=True)
class WheelGambleSpec:
    limit_stake_multiple: int  # gamble up to this many stakes ...
    limit_minor: int  # ... or this much currency, whichever is lower
    cash_targets: tuple[tuple[int, int], ...]  # target as a fraction (numerator, denominator)
    # price of the bonus started at multiplier 1, 2, ..., in stakes: exact rationals computed
    # once by the game's exact analysis and carried here (tests recompute them), never solved
    # during play
    bonus_prices: tuple[Fraction, ...] = ()


@dataclass(frozen=True)
class BetSpec:
    max_lines: int
    max_bet_per_line: int
    denominations: tuple[int, ...]  # currency minor units per credit
    min_lines: int = 1
    max_win_minor: int = 0  # cap on one round's win in currency minor units, 0 = none


@dataclass(frozen=True)
class GameSpec:
    family = "lines"  # a class constant; cluster games are spec.clusters.ClusterGameSpec
    id: str
    name: str
    source: str
    reels: int
    rows: int
    symbols: tuple[SymbolSpec, ...]
    paytable: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]  # symbol -> (count, pay)
    wilds: tuple[WildSpec, ...]
    wild_multiplier_combine: str
    pure_wild_vs_substituted: str
    paylines: tuple[tuple[int, ...], ...]  # row index (0 = top) per reel
    scatters: tuple[ScatterSpec, ...]
    reel_sets: tuple[ReelSetSpec, ...]
    base_reel_set: str
    bet: BetSpec
    free_games: FreeGamesSpec | None = None
    jackpot: JackpotSpec | None = None
    gamble: GambleSpec | None = None
    description: str = field(default="", compare=False)
    mixed: tuple[MixedPaySpec, ...] = ()
    cash: CashSpec | None = None
    modes: tuple[ModeSpec, ...] = ()
    # the rules registered as `rules` (spec.rules) and their parse of the file's [features]
    # tables (for "cops_trail", games/cops_n_robbers/spec.py's TrailSpec), or None
    rules: str | None = None
    features: Any = None
    wheel_gamble: WheelGambleSpec | None = None
    # SHA-256 of the game file's UTF-8 text, set by parse_spec: outcomes record it, so replay
    # can tell the file that played a round from another with the same id
    sha256: str = field(default="", compare=False)
    # [wild_multipliers]: wilds that draw their own multiplier per reel set (spec.wild_draws)
    wild_draws: WildDrawSpec | None = None

    @property
    def symbol_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.symbols)

    def reel_set(self, name: str) -> ReelSetSpec:
        return next(r for r in self.reel_sets if r.name == name)

    def mode(self, name: str) -> ModeSpec:
        """The named way to play; "base" always exists (base reels, price 1, no collecting)."""
        for m in self.modes:
            if m.name == name:
                return m
        if name == "base":
            return ModeSpec("base", self.base_reel_set, Fraction(1), False)
        raise KeyError(name)
