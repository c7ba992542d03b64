"""Exact figures of cash collection and of a cop-and-robber trail bonus.

Per reel, the window's counts of (collectors, cops, cash symbols) have a joint distribution
over the reel's stops; reels are independent, so the window's totals are the convolution.
Cash values are drawn independently of positions, so a spin collects, in expectation,
collectors x cash symbols x E[value] (times the trail multipliers). The bonus is a Markov
chain on (robber, cop) positions, absorbed when the ID parade picks Bert; expected collected
value and expected spins solve (I - T) x = b. No simulation anywhere.

A game has such a trail when it declares the TRAIL capability (its rules do: Cops n Robbers'
`TrailModel`); its rules model then carries the fields of TRAIL_FIELDS, read by name, never by
importing a game's package (tests/test_capabilities.py holds the shipped rules to that).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reelforge.analysis.spin import scatter_count_distribution, spin_figures, stop_weights
from reelforge.engine.capabilities import TRAIL
from reelforge.engine.check import plain_max_round_win
from reelforge.engine.game import LineGame

# What the rules model of a game declaring TRAIL carries: the scatter index that starts it and
# its starting multiplier by count, its reel set, the cop symbol, the start positions, the
# multiplier by position and the next higher one, the ID parade's cumulative weights (bert,
# sid, vic) and Sid's pushback.
TRAIL_FIELDS = ("trigger", "start_multiplier", "reel_set", "cop", "robber_start", "cop_start",
                "multiplier", "next_higher", "parade_cum", "pushback")


def trail_of(game):
    """The game's trail (its rules model), or None for a game without one."""
    return game.rules_model if TRAIL in game.capabilities else None


def window_counts(game: LineGame, reel_set: int) -> np.ndarray:
    """P[R, C, P]: collectors R, cops C (0 without a trail) and cash symbols P in the whole
    window."""
    m = game.model
    trail = trail_of(game)
    cop = -1 if trail is None else trail.cop
    cells = m.n_reels * m.n_rows
    total: np.ndarray = np.zeros((1, 1, 1))
    total[0, 0, 0] = 1.0
    for r in range(m.n_reels):
        n = m.strip_len[reel_set, r]
        strip = m.strips[reel_set, r, :n]
        w = stop_weights(game, reel_set, r)
        per = np.zeros((m.n_rows + 1,) * 3)
        for stop in range(n):
            shown = [strip[(stop + h) % n] for h in range(m.n_rows)]
            robbers = sum(s == m.collector for s in shown)
            cops = sum(s == cop and s != m.collector for s in shown)
            cash = sum(bool(m.is_cash[s]) and s != m.collector and s != cop for s in shown)
            per[robbers, cops, cash] += w[stop]
        per /= w.sum()
        out = np.zeros(tuple(a + b - 1 for a, b in zip(total.shape, per.shape)))
        for idx in zip(*np.nonzero(per)):
            out[idx[0]: idx[0] + total.shape[0], idx[1]: idx[1] + total.shape[1],
                idx[2]: idx[2] + total.shape[2]] += per[idx] * total
        total = out
    assert total.shape[0] <= cells + 1
    return total


def mean_cash_value(game: LineGame) -> float:
    m = game.model
    weights = np.diff(np.concatenate(([0], m.cash_cum)))
    return float(np.dot(weights, m.cash_values) / m.cash_cum[-1])


def collect_rtp(game: LineGame, reel_set: int) -> float:
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


def trail_figures(game: LineGame) -> TrailFigures:
    """Expected collection (per unit of starting multiplier) and length of the bonus."""
    trail = trail_of(game)
    chain = _Chain(trail, window_counts(game, trail.reel_set))
    assert trail.parade_cum[0] > 0  # Bert has weight, so the chain is absorbed
    collected = chain.expected(chain.probs * chain.cash * chain.mults * mean_cash_value(game))
    return TrailFigures(collected, chain.expected(chain.probs), chain.n)


def bonus_values(game: LineGame) -> dict[int, float]:
    """Expected win of the trail bonus by starting multiplier, in multiples of the stake:
    what the bonus wheel of the gamble prices each bonus at (exact up to float64 rounding of
    the linear solve, relative error below 1e-12)."""
    trail = trail_of(game)
    figures = trail_figures(game)
    lines = spin_figures(game, trail.reel_set, game.max_bet, 1, False).lines
    starts = sorted({int(s) for s in trail.start_multiplier if s > 0})
    return {s: s * figures.collected + figures.spins * lines for s in starts}


def _bonus_parts(game: LineGame, m, trail, bet):
    """What both cap bounds need of the bonus at `bet`: each line's win distribution on the
    chase reels, the cash values with their probabilities, the chase chain, and the
    distribution of the trigger count on the base reels."""
    lines = spin_figures(game, trail.reel_set, bet, 1, False).line_wins
    values = np.array(m.cash_values, dtype=float)
    weights = np.diff(np.concatenate(([0], m.cash_cum))) / m.cash_cum[-1]
    chain = _Chain(trail, window_counts(game, trail.reel_set))
    p_count = scatter_count_distribution(game, m.base_set, trail.trigger)
    return lines, values, weights, chain, p_count


def cap_loss_bound(game: LineGame, bet) -> float:
    """An upper bound on what the round cap takes from the RTP at this bet (per cost).

    The cap only bites in the bonus: the base spin's largest possible win is far below it, so
    the bonus must win more than `room` = cap - that. Split the bonus win into line wins L and
    collections X: (L + X - room)+ <= (2L - room)+ + (2X - room)+, and for any s > 0,
    E[(Y - room)+] <= E[exp(sY)] exp(-s room) / (e s). E[exp(uX)] is exact from the bonus
    chain with tilted transitions (cash values are independent of everything else).
    E[exp(uL)] is bounded through Hoelder: per spin E[exp(uL) g'] <= sqrt(E[exp(2uL)] E[g'^2]),
    so its square solves the untilted chain scaled by K = E[exp(2uL)], itself bounded by
    Hoelder across the lines from each line's exact win distribution. The best s on a grid
    is kept. Returns 0 for a game without cap or bonus.
    """
    m = game.model_for(bet)
    trail = trail_of(game)
    if m.cap <= 0 or trail is None:
        return 0.0
    price = game.spec.mode(bet.mode).price
    room = (m.cap - plain_max_round_win(m, bet)) / bet.total
    if room <= 0:
        return float("inf")
    lines, values, weights, chain, p_count = _bonus_parts(game, m, trail, bet)
    best = float("inf")
    for s in np.geomspace(1e-4, 0.5, 49):
        u = 2 * s
        line_moment = chain.line_moment(_line_mgf(lines, 2 * u))
        excess = 0.0
        for c, start in enumerate(trail.start_multiplier):
            if start <= 0 or c >= len(p_count) or p_count[c] == 0:
                continue
            collect_moment = chain.collect_moment(values * start, weights, u)
            with np.errstate(invalid="ignore", over="ignore"):  # inf moments: s too large
                excess += p_count[c] * (line_moment + collect_moment) * np.exp(-s * room) / (np.e * s)
        if not np.isfinite(excess):
            continue
        best = min(best, excess)
    return best / price


def cap_second_moment_bound(game: LineGame, bet) -> float:
    """An upper bound on how much the round cap changes the variance of the round's win, in
    (multiples of the stake)^2, per stake (divide by price^2 for per cost).

    The cap K changes W to min(W, K): the second moment falls by at most
    d2 = E[W^2 1{W > K}] and the mean by at most d1 <= d2 / K, so the variance moves by at most
    max(d2, 2 E[W] d1) = d2 (E[W] < K / 2). d2 = K^2 P(W > K) + int_K^inf 2x P(W > x) dx, and
    only rounds with the bonus pass K, so with Chernoff, P(W > x | bonus) <= E[exp(tW)]
    exp(-tx): d2 <= sum_c p_c E[exp(tW) | c] exp(-tK) (K^2 + 2K/t + 2/t^2) for any t > 0.
    W <= base max + L + X (the bonus's line and collected wins), and
    E[exp(t(L + X))] <= sqrt(E[exp(2tL)] E[exp(2tX)]) (Cauchy-Schwarz), the factors as in
    `cap_loss_bound`. The best t on a grid is kept. 0 without cap or bonus.
    """
    m = game.model_for(bet)
    trail = trail_of(game)
    if m.cap <= 0 or trail is None:
        return 0.0
    base_max = plain_max_round_win(m, bet) / bet.total
    cap = m.cap / bet.total
    if base_max >= cap:
        return float("inf")
    lines, values, weights, chain, p_count = _bonus_parts(game, m, trail, bet)

    def bound(t: float) -> float:
        line_moment = chain.line_moment(_line_mgf(lines, 4 * t))  # >= E[exp(2t L)]
        tail = np.exp(t * (base_max - cap)) * (cap * cap + 2 * cap / t + 2 / (t * t))
        total = 0.0
        for c, start in enumerate(trail.start_multiplier):
            if start <= 0 or c >= len(p_count) or p_count[c] == 0:
                continue
            collect_moment = chain.collect_moment(values * start, weights, 2 * t)
            with np.errstate(invalid="ignore", over="ignore"):  # inf moments: t too large
                total += p_count[c] * tail * np.sqrt(line_moment * collect_moment)
        return float(total) if np.isfinite(total) else float("inf")

    # any t gives a bound: a coarse grid, then a finer one around its best point
    grid = np.geomspace(1e-6, 0.5, 24)
    values_at = [bound(t) for t in grid]
    i = int(np.argmin(values_at))
    fine = np.geomspace(grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)], 10)
    return min(values_at + [bound(t) for t in fine])


def _line_mgf(lines, u: float) -> float:
    """Hoelder across the n lines of a spin: E exp(u sum L_i) <= prod_i E[exp(n u L_i)]^(1/n)."""
    n = len(lines)
    log = 0.0
    for probs, wins in lines:
        with np.errstate(over="ignore"):
            log += np.log(1 - probs.sum() + np.dot(probs, np.exp(n * u * wins))) / n
    return float(np.exp(log))


class _Chain:
    """The bonus chain's moves as arrays, for the exponential moments of its wins; `trail`
    as `trail_of` returns it, `counts` from `window_counts` on its reel set."""

    def __init__(self, trail, counts):
        last = trail.multiplier.shape[0] - 1
        cum = trail.parade_cum
        p_bert, p_sid, p_vic = cum[0] / cum[2], (cum[1] - cum[0]) / cum[2], (cum[2] - cum[1]) / cum[2]
        states = [(rob, cop) for rob in range(1, last + 1) for cop in range(rob)]
        index = {st: i for i, st in enumerate(states)}
        self.n = len(states)
        self.start = index[(trail.robber_start, trail.cop_start)]
        rows, cols, probs, cash, mults, views = [], [], [], [], [], []

        def add(r, c, i, j, q, p, mult):
            rows.append(i), cols.append(j), probs.append(q), cash.append(p), mults.append(mult)
            views.append((r, c))

        outcomes = [(r, c, p, q) for (r, c, p), q in np.ndenumerate(counts) if q > 0]
        for (rob, cop), i in index.items():
            for r, c, p, q in outcomes:
                new_rob, mult = rob, 0
                for _ in range(r):
                    new_rob = min(new_rob + 1, last)
                    mult += int(trail.multiplier[new_rob])
                new_cop = cop + c
                if new_cop < new_rob:
                    add(r, c, i, index[(new_rob, new_cop)], q, p, mult)
                    continue
                sid = index[(new_rob, max(new_rob - trail.pushback, 0))]
                ahead = int(trail.next_higher[new_rob])
                add(r, c, i, -1, q * p_bert, p, mult)  # Bert: absorbed
                add(r, c, i, sid, q * p_sid, p, mult)
                add(r, c, i, index[(ahead, new_rob)] if ahead >= 0 else sid, q * p_vic, p, mult)
        self.rows, self.cols = np.array(rows), np.array(cols)
        self.probs, self.cash, self.mults = np.array(probs), np.array(cash), np.array(mults)
        # the move's window: robbers and cops in view (its cash symbols are `cash`)
        self.robbers, self.cops = (np.array([v[k] for v in views], dtype=np.int64) for k in (0, 1))

    def _solve(self, weights: np.ndarray) -> float:
        """g = a + M g, M[i, j] = sum of move weights i -> j, a[i] = weight of Bert from i;
        inf when M's spectral radius is 1 or more (the moment is infinite)."""
        inner = self.cols >= 0
        matrix = np.zeros((self.n, self.n))
        np.add.at(matrix, (self.rows[inner], self.cols[inner]), weights[inner])
        absorbed = np.bincount(self.rows[~inner], weights[~inner], minlength=self.n)
        if not np.isfinite(matrix).all():
            return float("inf")
        # For a non-negative M, (I - M) x = 1 has a solution x > 0 exactly when its spectral
        # radius is below 1 (a left Perron vector y >= 0 gives (1 - rho) y.x = y.1 > 0).
        try:
            solved = np.linalg.solve(np.eye(self.n) - matrix, np.stack([absorbed, np.ones(self.n)], 1))
        except np.linalg.LinAlgError:
            return float("inf")
        if not np.isfinite(solved).all() or (solved[:, 1] <= 0).any():
            return float("inf")
        return float(solved[self.start, 0])

    def expected(self, rewards: np.ndarray) -> float:
        """Expected sum of the moves' rewards over the whole bonus, from the start state."""
        inner = self.cols >= 0
        matrix = np.zeros((self.n, self.n))
        np.add.at(matrix, (self.rows[inner], self.cols[inner]), self.probs[inner])
        per_state = np.bincount(self.rows, rewards, minlength=self.n)
        return float(np.linalg.solve(np.eye(self.n) - matrix, per_state)[self.start])

    def collect_moment(self, values, weights, u: float) -> float:
        """E[exp(u X)], X the bonus's collected win (stake units), exactly."""
        with np.errstate(over="ignore", invalid="ignore"):
            phi = np.exp(u * self.mults[:, None] * values[None, :]) @ weights
            return self._solve(self.probs * phi ** self.cash)

    def line_moment(self, spin_moment: float) -> float:
        """Upper bound on E[exp(u L)] given spin_moment >= E[exp(2u L_spin)] (Hoelder)."""
        return float(np.sqrt(self._solve(self.probs * spin_moment)))
