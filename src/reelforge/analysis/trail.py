"""Exact figures of cash collection and of the cop-and-robber trail bonus.

Per reel, the window's counts of (collectors, cops, cash symbols) have a joint distribution
over the reel's stops; reels are independent, so the window's totals are the convolution.
Cash values are drawn independently of positions, so a spin collects, in expectation,
collectors x cash symbols x E[value] (times the trail multipliers). The bonus is a Markov
chain on (robber, cop) positions, absorbed when the ID parade picks Bert; expected collected
value and expected spins solve (I - T) x = b. No simulation anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reelforge.engine.game import Game


def _stop_weights(game: Game, reel_set: int, r: int) -> np.ndarray:
    m = game.model
    n = m.strip_len[reel_set, r]
    if m.weighted[reel_set]:
        return np.diff(np.concatenate(([0], m.cum_weights[reel_set, r, :n]))).astype(float)
    return np.ones(n)


def window_counts(game: Game, reel_set: int) -> np.ndarray:
    """P[R, C, P]: collectors R, cops C and cash symbols P in the whole window."""
    m = game.model
    cells = m.n_reels * m.n_rows
    total = np.zeros((1, 1, 1))
    total[0, 0, 0] = 1.0
    for r in range(m.n_reels):
        n = m.strip_len[reel_set, r]
        strip = m.strips[reel_set, r, :n]
        w = _stop_weights(game, reel_set, r)
        per = np.zeros((m.n_rows + 1,) * 3)
        for stop in range(n):
            shown = [strip[(stop + h) % n] for h in range(m.n_rows)]
            robbers = sum(s == m.collector for s in shown)
            cops = sum(s == m.trail_cop and s != m.collector for s in shown)
            cash = sum(bool(m.is_cash[s]) and s != m.collector and s != m.trail_cop for s in shown)
            per[robbers, cops, cash] += w[stop]
        per /= w.sum()
        out = np.zeros(tuple(a + b - 1 for a, b in zip(total.shape, per.shape)))
        for idx in zip(*np.nonzero(per)):
            out[idx[0]: idx[0] + total.shape[0], idx[1]: idx[1] + total.shape[1],
                idx[2]: idx[2] + total.shape[2]] += per[idx] * total
        total = out
    assert total.shape[0] <= cells + 1
    return total


def mean_cash_value(game: Game) -> float:
    m = game.model
    weights = np.diff(np.concatenate(([0], m.cash_cum)))
    return float(np.dot(weights, m.cash_values) / m.cash_cum[-1])


def collect_rtp(game: Game, reel_set: int) -> float:
    """Expected collected win of one spin that collects, multiples of the stake."""
    counts = window_counts(game, reel_set)
    robbers = np.arange(counts.shape[0])[:, None, None]
    cash = np.arange(counts.shape[2])[None, None, :]
    return float((counts * robbers * cash).sum()) * mean_cash_value(game)


@dataclass(frozen=True)
class TrailFigures:
    collected: float  # expected collected value at starting multiplier 1, multiples of the stake
    spins: float  # expected bonus spins
    states: int


def trail_figures(game: Game) -> TrailFigures:
    """Expected collection (per unit of starting multiplier) and length of the bonus."""
    m = game.model
    counts = window_counts(game, m.trail_set)
    last = m.trail_multiplier.shape[0] - 1
    ev = mean_cash_value(game)
    cum = m.trail_parade_cum
    p_bert, p_sid, p_vic = cum[0] / cum[2], (cum[1] - cum[0]) / cum[2], (cum[2] - cum[1]) / cum[2]
    states = [(rob, cop) for rob in range(1, last + 1) for cop in range(rob)]
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    transition = np.zeros((n, n))
    reward = np.zeros(n)
    outcomes = [(r, c, p, q) for (r, c, p), q in np.ndenumerate(counts) if q > 0]
    for (rob, cop), i in index.items():
        for r, c, p, q in outcomes:
            new_rob, gained = rob, 0.0
            for _ in range(r):
                new_rob = min(new_rob + 1, last)
                gained += p * ev * m.trail_multiplier[new_rob]
            reward[i] += q * gained
            new_cop = cop + c
            if new_cop < new_rob:
                transition[i, index[(new_rob, new_cop)]] += q
                continue
            sid = (new_rob, max(new_rob - m.trail_pushback, 0))
            transition[i, index[sid]] += q * p_sid
            ahead = m.trail_next[new_rob]
            vic = (int(ahead), new_rob) if ahead >= 0 else sid
            transition[i, index[vic]] += q * p_vic
            # Bert: absorbed, nothing more (p_bert of q leaves the chain)
    system = np.eye(n) - transition
    start = index[(m.trail_robber_start, m.trail_cop_start)]
    collected = np.linalg.solve(system, reward)[start]
    spins = np.linalg.solve(system, np.ones(n))[start]
    assert p_bert > 0
    return TrailFigures(float(collected), float(spins), n)


def bonus_values(game: Game) -> dict[int, float]:
    """Expected win of the trail bonus by starting multiplier, in multiples of the stake:
    what the bonus wheel of the gamble prices each bonus at (exact up to float64 rounding of
    the linear solve, relative error below 1e-12)."""
    from reelforge.analysis.exact import spin_figures

    m = game.model
    figures = trail_figures(game)
    lines = spin_figures(game, m.trail_set, game.max_bet, 1, False).lines
    starts = sorted({int(s) for s in m.trail_start if s > 0})
    return {s: s * figures.collected + figures.spins * lines for s in starts}
