"""Frozen game specs: what a game file says, validated, with names kept for people."""

from __future__ import annotations

from dataclasses import dataclass, field

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
class BetSpec:
    max_lines: int
    max_bet_per_line: int
    denominations: tuple[int, ...]  # currency minor units per credit


@dataclass(frozen=True)
class GameSpec:
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

    @property
    def symbol_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.symbols)

    def reel_set(self, name: str) -> ReelSetSpec:
        return next(r for r in self.reel_sets if r.name == name)
