"""Stats: mergeable Monte Carlo statistics of whole rounds, exact in integers.

Every counter is a Python int, so `merge` is exact, associative and commutative, and
`Stats.empty()` is its identity: a run gives the same figures bit for bit however its chunks
were grouped. Wins are credits at one total bet; ratios are taken only when reported.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, fields, replace

# Win bands in multiples of the total bet: band 0 is "no win", then [0, 1), [1, 2), ...
BAND_EDGES_X = (0, 1, 2, 5, 10, 20, 50, 100, 250, 500, 1000, 5000)
Z95 = 1.959963984540054


def band_labels() -> list[str]:
    labels = ["0"]
    edges = BAND_EDGES_X
    for lo, hi in itertools.pairwise(edges):
        labels.append(f"({lo}x, {hi}x)" if lo == 0 else f"[{lo}x, {hi}x)")
    labels.append(f">= {edges[-1]}x")
    return labels


@dataclass(frozen=True)
class Stats:
    total_bet: int = 0  # what one round costs in credits (stake x mode price); 0: empty identity
    rounds: int = 0
    total_win: int = 0
    win_squares: int = 0  # sum of squared round wins, credits^2
    hits: int = 0  # rounds with any win or a jackpot
    base_line_win: int = 0
    base_scatter_win: int = 0
    feature_win: int = 0
    feature_triggers: int = 0
    feature_spins: int = 0
    retriggers: int = 0
    jackpot_hits: int = 0
    jackpot_rounds: int = 0
    max_win: int = 0
    guard_hits: int = 0
    base_collect_win: int = 0
    bonus_win: int = 0
    bonus_triggers: int = 0
    bonus_spins: int = 0
    cap_hits: int = 0
    bands: tuple[int, ...] = field(default=(0,) * (len(BAND_EDGES_X) + 1))

    @classmethod
    def empty(cls) -> Stats:
        return cls()

    def merge(self, other: Stats) -> Stats:
        if self.rounds == 0 and self.total_bet == 0:
            return other
        if other.rounds == 0 and other.total_bet == 0:
            return self
        if self.total_bet != other.total_bet:
            raise ValueError(f"cannot merge stats at total bet {self.total_bet} and {other.total_bet}")
        values = {}
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "total_bet":
                values[f.name] = a
            elif f.name == "max_win":
                values[f.name] = max(a, b)
            elif f.name == "bands":
                values[f.name] = tuple(x + y for x, y in zip(a, b))
            else:
                values[f.name] = a + b
        return replace(self, **values)

    # -- figures, in multiples of the total bet -------------------------------------------
    def _ratio(self, value: int) -> float:
        return value / (self.rounds * self.total_bet) if self.rounds else math.nan

    @property
    def rtp(self) -> float:
        return self._ratio(self.total_win)

    @property
    def standard_deviation(self) -> float:
        """Per round, in multiples of the total bet (population formula on exact sums)."""
        if self.rounds == 0:
            return math.nan
        n, bet = self.rounds, self.total_bet
        variance_num = n * self.win_squares - self.total_win**2  # exact integer
        return math.sqrt(max(variance_num, 0)) / (n * bet)

    @property
    def rtp_standard_error(self) -> float:
        return self.standard_deviation / math.sqrt(self.rounds) if self.rounds else math.nan

    def rtp_interval(self, z: float = Z95) -> tuple[float, float]:
        half = z * self.rtp_standard_error
        return self.rtp - half, self.rtp + half

    @property
    def hit_frequency(self) -> float:
        return self.hits / self.rounds if self.rounds else math.nan

    @property
    def feature_frequency(self) -> float:
        return self.feature_triggers / self.rounds if self.rounds else math.nan

    @property
    def mean_feature_award(self) -> float:
        """Mean free-game win per trigger, in multiples of the total bet."""
        if not self.feature_triggers:
            return math.nan
        return self.feature_win / (self.feature_triggers * self.total_bet)

    @property
    def max_win_x(self) -> float:
        return self.max_win / self.total_bet if self.total_bet else math.nan

    def to_dict(self) -> dict:
        low, high = self.rtp_interval()
        return {
            "rounds": self.rounds,
            "total_bet": self.total_bet,
            "rtp": self.rtp,
            "rtp_standard_error": self.rtp_standard_error,
            "rtp_ci95": [low, high],
            "standard_deviation": self.standard_deviation,
            "hit_frequency": self.hit_frequency,
            "feature_frequency": self.feature_frequency,
            "mean_feature_award": self.mean_feature_award,
            "mean_free_spins": self.feature_spins / self.feature_triggers if self.feature_triggers else None,
            "retriggers": self.retriggers,
            "jackpot_hits": self.jackpot_hits,
            "max_win": self.max_win_x,
            "max_win_credits": self.max_win,
            "breakdown": {
                "base_lines": self._ratio(self.base_line_win),
                "base_scatter": self._ratio(self.base_scatter_win),
                "free_games": self._ratio(self.feature_win),
                "base_collect": self._ratio(self.base_collect_win),
                "bonus": self._ratio(self.bonus_win),
            },
            "bonus_frequency": self.bonus_triggers / self.rounds if self.rounds else None,
            "mean_bonus_spins": self.bonus_spins / self.bonus_triggers if self.bonus_triggers else None,
            "cap_hits": self.cap_hits,
            "win_distribution": dict(zip(band_labels(), self.bands)),
            "spin_guard_hits": self.guard_hits,
        }
