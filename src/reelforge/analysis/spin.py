"""Exact figures of one spin of a line game: per-stop weights, what each row shows, scatter
counts, and the expectation of every payline by the engine's own `evaluate_line`.

The lowest layer of the exact analysis: `exact`, `trail` and `moments` build on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reelforge.engine.line_exact import line_expectation
from reelforge.engine.outcome import Bet
from reelforge.spec.wild_draws import combined_mean


@dataclass(frozen=True)
class SpinFigures:
    """Expectations of one spin on one reel set, in multiples of the total bet."""

    lines: float
    scatter: float
    jackpot_probability: float  # per spin, at this bet
    trigger_distribution: tuple[float, ...]  # P(trigger scatter count = c)
    award_rtp: np.ndarray  # (S, R+1): expected win per paid (symbol, count), all lines
    award_rate: np.ndarray  # (S, R+1): expected number of such line awards per spin
    line_hit_probability: tuple[float, ...]  # per bet line: P(the line pays)
    scatter_rtp: tuple[float, ...]  # expected scatter win by count
    # per bet line: (probabilities, wins in multiples of the total bet) of its paying awards
    line_wins: tuple[tuple[np.ndarray, np.ndarray], ...] = ()


def row_distributions(game, reel_set: int) -> np.ndarray:
    """(R, H, S) probability that reel r shows symbol s on row h."""
    m = game.model
    n_sym = m.line_pay.shape[0]
    out = np.zeros((m.n_reels, m.n_rows, n_sym))
    for r in range(m.n_reels):
        n = m.strip_len[reel_set, r]
        strip = m.strips[reel_set, r, :n].astype(np.int64)
        w = stop_weights(game, reel_set, r)
        for h in range(m.n_rows):
            np.add.at(out[r, h], np.roll(strip, -h), w)
        out[r] /= w.sum()
    return out


def stop_weights(game, reel_set: int, r: int) -> np.ndarray:
    """Weight of every stop of one reel (1 each on an unweighted reel set), float64."""
    m = game.model
    n = m.strip_len[reel_set, r]
    if m.weighted[reel_set]:
        return np.diff(np.concatenate(([0], m.cum_weights[reel_set, r, :n]))).astype(float)
    return np.ones(n)


def scatter_count_distribution(game, reel_set: int, k: int, reels=None) -> np.ndarray:
    """P(count of scatter k = c) for c = 0..max over `reels` (default: all), per-reel
    distributions convolved."""
    m = game.model
    sym = m.scatter_symbol[k]
    total = np.array([1.0])
    for r in range(m.n_reels) if reels is None else reels:
        n = m.strip_len[reel_set, r]
        strip = m.strips[reel_set, r, :n]
        w = stop_weights(game, reel_set, r)
        per_reel = np.zeros(m.n_rows + 1)
        for stop in range(n):
            shown = sum(strip[(stop + h) % n] == sym for h in range(m.n_rows))
            per_reel[(min(shown, 1) if not m.scatter_by_cells[k] else shown)] += w[stop]
        total = np.convolve(total, per_reel / w.sum())
    return total


def wild_draw_means(game, reel_set: int) -> tuple[bool, np.ndarray]:
    """(whether the reel set's wilds draw multipliers, (R+1,) float64: the expected combined
    multiplier of k wilds' draws, each the float of an exact fraction)."""
    m = game.model
    draws = game.spec.wild_draws
    table = () if draws is None else draws.weights(game.spec.reel_sets[reel_set].name)
    means = np.array([float(combined_mean(table, draws.combine if draws else "product", k))
                      for k in range(m.n_reels + 1)])
    return bool(table), means


def spin_figures(game, reel_set: int, bet: Bet, multiplier: int, eligible: bool,
                 dist: np.ndarray | None = None, scatter_counts=None) -> SpinFigures:
    """The figures of one spin; `dist` (R, H, S) and `scatter_counts` (per scatter, P(count =
    c)) replace what the reels show where a mechanic changes it (analysis.sticky)."""
    m = game.model
    dist = row_distributions(game, reel_set) if dist is None else dist
    n_sym = m.line_pay.shape[0]
    n_awards = n_sym + m.mixed_pay.shape[0]  # mixed groups are reported after the symbols
    award_rtp = np.zeros((n_awards, m.n_reels + 1))
    award_rate = np.zeros((n_awards, m.n_reels + 1))
    cache: dict[bytes, tuple] = {}
    draws, means = wild_draw_means(game, reel_set)
    lines_ev = jackpot_p = 0.0
    hits = []
    per_line: list[tuple[np.ndarray, np.ndarray]] = []
    for line in range(bet.lines):
        rows = m.paylines[line]
        probs = np.stack([dist[r, rows[r]] for r in range(m.n_reels)])
        key = probs.tobytes() + bytes([line == m.jackpot_line])
        if key not in cache:
            symbols = np.zeros(probs.shape, dtype=np.int64)
            p = np.zeros(probs.shape)
            counts = np.zeros(m.n_reels, dtype=np.int64)
            for r in range(m.n_reels):
                nz = np.flatnonzero(probs[r])
                symbols[r, : len(nz)], p[r, : len(nz)], counts[r] = nz, probs[r, nz], len(nz)
            window = np.zeros((m.n_reels, m.n_rows), dtype=np.int16)
            digit = np.zeros(m.n_reels, dtype=np.int64)
            value = np.zeros((n_awards, m.n_reels + 1))
            rate = np.zeros((n_awards, m.n_reels + 1))
            result = line_expectation(m, line, symbols, p, counts, multiplier, eligible,
                                      window, digit, value, rate, draws, means)
            cache[key] = (*result, value, rate)
        ev, jp, hit, value, rate = cache[key]
        paid = rate > 0
        per_line.append((rate[paid], value[paid] / rate[paid] * bet.bet_per_line / bet.total))
        lines_ev += ev * bet.bet_per_line / bet.total
        award_rtp += value * bet.bet_per_line / bet.total
        award_rate += rate
        jackpot_p += jp
        hits.append(float(hit))
    scatter_ev = 0.0
    scatter_rtp: tuple[float, ...] = ()
    trigger: tuple[float, ...] = (1.0,)
    for k in range(len(m.scatter_symbol)):
        d = (scatter_count_distribution(game, reel_set, k) if scatter_counts is None
             else scatter_counts[k])
        pays = m.scatter_pay[k]
        d_paid = d[: len(pays)]
        by_count = d_paid * pays[: len(d_paid)] * multiplier
        scatter_ev += float(by_count.sum())
        scatter_rtp = tuple(float(x) for x in by_count)
        if k == m.fg_scatter:
            trigger = tuple(float(x) for x in d)
    return SpinFigures(lines_ev, scatter_ev, jackpot_p, trigger, award_rtp, award_rate,
                       tuple(hits), scatter_rtp, tuple(per_line))
