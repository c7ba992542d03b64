"""The simulation's statistics counters: the `Sim` counter indices every round simulator
accumulates, the win bands, the exact 128-bit sum of squared wins, and `add_round`, which adds a
line round's `RoundResult` to them. Used by the line, ways and rules kernels alike.

These kernels are inlined into their callers in other modules: numba's cache does not notice
an edited callee there, so run `make clean-cache` after editing one.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from reelforge.engine.jit import inline_kernel


@inline_kernel
def add_square(square_sum, x):
    """square_sum (2,) uint64 [low, high] += x**2, exactly, for 0 <= x < 2**63."""
    mask = np.uint64(0xFFFFFFFF)
    a = np.uint64(x) >> np.uint64(32)
    b = np.uint64(x) & mask
    parts_low = b * b  # < 2**64
    cross = np.uint64(2) * a * b  # a < 2**31, b < 2**32: < 2**64
    high = a * a + (cross >> np.uint64(32))
    cross_low = (cross & mask) << np.uint64(32)
    low = square_sum[0] + parts_low
    if low < parts_low:
        high += np.uint64(1)
    low2 = low + cross_low
    if low2 < cross_low:
        high += np.uint64(1)
    square_sum[0] = low2
    square_sum[1] += high


class Sim(IntEnum):
    """Index of each counter `lines.play_rounds` (and every game's round simulator) accumulates
    in its (len(Sim),) int64 array; Python reads them by SIM_FIELDS name (`analysis.stats`)."""

    ROUNDS = 0
    TOTAL_WIN = 1
    HITS = 2  # rounds that win, or hit the progressive jackpot
    BASE_LINE_WIN = 3
    BASE_SCATTER_WIN = 4
    FEATURE_WIN = 5
    FEATURE_TRIGGERS = 6
    FEATURE_SPINS = 7
    RETRIGGERS = 8
    JACKPOT_HITS = 9
    JACKPOT_ROUNDS = 10
    MAX_WIN = 11  # a maximum, not a sum
    GUARD_HITS = 12
    BASE_COLLECT_WIN = 13
    BONUS_WIN = 14
    BONUS_TRIGGERS = 15
    BONUS_SPINS = 16
    CAP_HITS = 17


SIM_FIELDS = tuple(f.name.lower() for f in Sim)


@inline_kernel
def add_win(bands, band_edges, square_sum, total):
    """Count a round's win in its band (0: no win; i: win < band_edges[i]; the last: beyond)
    and add its square to the 128-bit square_sum."""
    band = 0
    if total > 0:
        band = 1
        while band <= band_edges.shape[0] - 1 and total >= band_edges[band]:
            band += 1
    bands[band] += 1
    add_square(square_sum, total)


@inline_kernel
def add_round(counters, bands, band_edges, square_sum, result):
    """Add one round's `RoundResult` to the statistics arrays of `lines.play_rounds`."""
    total = result.total
    counters[Sim.ROUNDS] += 1
    counters[Sim.TOTAL_WIN] += total
    if total > 0 or result.jackpots > 0:
        counters[Sim.HITS] += 1
    counters[Sim.BASE_LINE_WIN] += result.line_win
    counters[Sim.BASE_SCATTER_WIN] += result.scatter_win
    counters[Sim.FEATURE_WIN] += result.free_win
    if result.played > 0:
        counters[Sim.FEATURE_TRIGGERS] += 1
    counters[Sim.FEATURE_SPINS] += result.played
    counters[Sim.RETRIGGERS] += result.retriggers
    counters[Sim.JACKPOT_HITS] += result.jackpots
    if result.jackpots > 0:
        counters[Sim.JACKPOT_ROUNDS] += 1
    counters[Sim.MAX_WIN] = max(counters[Sim.MAX_WIN], total)
    if result.guard:
        counters[Sim.GUARD_HITS] += 1
    counters[Sim.BASE_COLLECT_WIN] += result.collect_win
    counters[Sim.BONUS_WIN] += result.bonus_win
    if result.bonus_spins > 0:
        counters[Sim.BONUS_TRIGGERS] += 1
    counters[Sim.BONUS_SPINS] += result.bonus_spins
    if result.win_capped:
        counters[Sim.CAP_HITS] += 1
    add_win(bands, band_edges, square_sum, total)
