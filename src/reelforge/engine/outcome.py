"""The Outcome of a round: what the server stores, the client renders and `replay` rebuilds.

Fields are named for people. Money is integer credits (the game's smallest unit of the bet);
the server converts with the denomination.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Bet:
    lines: int
    bet_per_line: int
    mode: str = "base"  # the way to play the base game (e.g. "fortune"); see the game's modes
    denomination: int | None = None  # currency minor units per credit; None: the game's first

    @property
    def total(self) -> int:
        """The stake in credits: what the paytable's 'stake' multiples refer to."""
        return self.lines * self.bet_per_line


@dataclass(frozen=True)
class LineWin:
    line: int  # 1-based payline number
    symbol: str
    count: int  # reels from the leftmost
    multiplier: int  # wild and free-game multipliers applied
    win: int  # credits


@dataclass(frozen=True)
class ScatterWin:
    symbol: str
    count: int
    multiplier: int
    win: int  # credits


@dataclass(frozen=True)
class JackpotWin:
    spin: int
    line: int  # 1-based payline number
    symbol: str
    count: int


@dataclass(frozen=True)
class FreeSpinsAward:
    spin: int  # spin that triggered it (0 = base spin)
    trigger_count: int
    spins_awarded: int  # after the cap on total spins
    spins_requested: int  # what the award table gives before the cap
    total_awarded: int  # in this bonus so far


@dataclass(frozen=True)
class CashValue:
    reel: int
    row: int
    value: int  # multiples of the stake


@dataclass(frozen=True)
class Collection:
    collectors: int  # collector symbols in view, each collecting every value once
    values: int  # sum of the cash values in view, multiples of the stake
    multiplier: int
    win: int  # credits


@dataclass(frozen=True)
class TrailStep:
    robber: int  # positions on the trail after this spin
    cop: int
    robbers: int  # robber and cop symbols that landed
    cops: int
    parade: str | None = None  # "bert" | "sid" | "vic" when the cop caught the robber


@dataclass(frozen=True)
class Spin:
    index: int  # 0 = base spin, then free spins, then bonus spins, in order
    mode: str  # "base" | "free" | "bonus"
    reel_set: str
    multiplier: int
    stops: tuple[int, ...]  # strip position shown on the top row, per reel
    window: tuple[tuple[str, ...], ...]  # [reel][row] symbol ids, row 0 on top
    line_wins: tuple[LineWin, ...] = ()
    scatter_wins: tuple[ScatterWin, ...] = ()
    cash: tuple[CashValue, ...] = ()
    collection: Collection | None = None
    trail: TrailStep | None = None

    @property
    def win(self) -> int:
        collected = self.collection.win if self.collection else 0
        return sum(w.win for w in self.line_wins) + sum(w.win for w in self.scatter_wins) + collected


@dataclass(frozen=True)
class Breakdown:
    base_lines: int
    base_scatter: int
    free_games: int
    base_collect: int = 0
    bonus: int = 0


@dataclass(frozen=True)
class BonusSummary:
    trigger_count: int
    start_multiplier: int
    spins: int


@dataclass(frozen=True)
class Outcome:
    game_id: str
    game_sha256: str  # of the game file's text that played the round (GameSpec.sha256)
    seed: str | None  # hex of the 256-bit ChaCha20 key for live rounds; None for a caller's rng
    bet: Bet
    total_win: int  # credits, jackpots excluded (paid from the pool)
    breakdown: Breakdown
    free_games_triggered: bool
    free_spins_played: int
    retriggers: int
    jackpots: tuple[JackpotWin, ...]
    spins: tuple[Spin, ...]
    awards: tuple[FreeSpinsAward, ...] = ()
    spin_guard_reached: bool = False
    flags: tuple[str, ...] = field(default=())
    gamble_offered: bool = False  # the credit win may be gambled (the jackpot never is)
    bonus: BonusSummary | None = None
    win_capped: bool = False  # the round's win was cut to the game's cap
    # the win when the round stopped, above the cap (a bonus stops as soon as it reaches it)
    uncapped_win: int | None = None

    @property
    def jackpot_won(self) -> bool:
        return bool(self.jackpots)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["bet"]["total_bet"] = self.bet.total
        data["jackpot_won"] = self.jackpot_won
        return data

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=True)
