"""Exact standard deviation, volatility index and maximum win of a line game's round.

Second moments, never simulated. The base spin's win is X = sum_i L_i + sum_k S_k: line wins
and scatter wins. E[X^2] = sum_ij E[L_i L_j] + 2 sum_ik E[L_i S_k] + E[(sum_k S_k)^2], and
every term is exact: E[L_i L_j] enumerates what the two lines' cells show together, reel by
reel, stopping a branch as soon as a line is settled (`engine.line_exact.line_pair_moment`, which
pays with the engine's own `evaluate_line`); E[L_i 1{count = c}] does the same for one line
and a scatter's count (the reels left over convolved); scatter terms come from the per-reel
count distributions convolved. So E[X], E[X^2] and E[X 1{trigger count = c}] are exact on any
reel set, at every free-spin multiplier.

The round W = B + F: F, the free games, depends on the base spin only through its trigger
count T, so E[B F] = sum_c E[B 1{T=c}] E[F | c]. F's moments follow the free-game chain:
no retrigger, a sum of k independent spins; unlimited retriggers, a branching process
(each spin's own descendants are independent copies); capped, the chain on (spins left,
spins awarded) with m2 = E[X^2] + 2 E[X m1(next)] + E[m2(next)] (`free_chain_moments`).
Float64 sums of non-negative terms, as in `exact`; the variance subtracts E[W]^2 from
E[W^2], so its relative error is about 1e-15 x E[W^2] / Var(W), below 1e-12 here.

Cash collection and the trail bonus (Cops n Robbers): the paid spin's collection is
stake x collectors x the sum of the P cash values in view, values independent of the window,
so it needs E[L 1{collectors, cash symbols, bonus count}] (the same line enumeration, the
counts in mixed radix) and the window's count distribution; the bonus's moments solve the
chase chain's linear equations (`_bonus_moments`). Those figures are of the uncapped round,
as the exact RTP is; `trail.cap_second_moment_bound` bounds what the round cap changes.

The progressive jackpot is not in W: a jackpot line pays 0 credits (the pool pays it), as
in `exact.analyze` and in simulation. The spin guard (a safety stop of unlimited retriggers
at 100,000 free spins) is ignored, as in `exact.analyze`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reelforge.analysis.capabilities import exact_available, no_exact_reason
from reelforge.analysis.exact import (
    _with_breaker,
    capped_chain_moments,
    capped_chain_states,
    refuse_never_ending,
    retrigger_awards,
)
from reelforge.analysis.spin import stop_weights
from reelforge.analysis.trail import _Chain, cap_second_moment_bound, trail_of, window_counts
from reelforge.engine.capabilities import EXACT_HOLDWIN, EXACT_WAYS
from reelforge.engine.game import LineGame
from reelforge.engine.line_exact import (
    free_chain_max,
    line_count_moment,
    line_pair_moment,
    max_spin_win,
)
from reelforge.engine.outcome import Bet
from reelforge.engine.round import check_bet, jackpot_eligible
from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.spec.model import price_value

VI_Z = 1.645  # the volatility index is VI_Z x SD (90% two-sided), as in analysis.par

# Work limits, so that `analyze` refuses at once instead of running for hours on a file with
# thousands of paylines or reels that keep every line unsettled. Measured on every shipped and
# conformance line game (kernels' nodes counted; the largest, cluedo-v1, in brackets): the
# Python side reads every stop of every enumerated reel set once per pair of bet lines,
# lines (lines + 1) / 2 x stops (110,040; about 25 us each, 3 s); the compiled pair
# enumeration visits nodes (9.4e6 in all); the branch and bound for the maximum visits
# partial windows, each evaluating every line (6.5e6 x 20 lines = 1.3e8). The limits are
# about 20 times those: under a minute or so of work on this machine.
MAX_PYTHON_STEPS = 2_000_000  # pairs of lines x stops of the enumerated reel sets
MAX_PAIR_NODES = 200_000_000  # line_pair_moment's nodes, all pairs together
MAX_SPIN_LINE_NODES = 3_000_000_000  # max_spin_win's nodes x bet lines, per reel set and multiplier
UNBOUNDED = ("unbounded (guard only): unlimited retriggers can go on without end, winning; "
             "only the engine's spin guard stops a round")


class NotExact(ReelforgeError):
    """This game's moments have no exact method here (reason in the message)."""


@dataclass(frozen=True)
class ExactMoments:
    """Exact moments and maxima of one game at one bet; ratios are per cost (total bet x the
    mode's price: 1 in the base mode, 2 in Fortune Spins, 5/4 for an ante)."""

    total_bet: int  # credits
    base_mean: float  # E[base spin win] / total bet: the paid spin alone (lines + scatters)
    base_standard_deviation: float  # SD of the base spin win / total bet
    round_mean: float  # E[whole round win] / total bet, equal to analyze()'s RTP
    round_standard_deviation: float  # SD of the whole round's win / total bet
    # theoretical maximum win of one round, credits, exact; None: the rules set no bound (only
    # the engine's spin guard ends such a round, so a figure would be the guard's, not the game's)
    max_round_win: int | None
    max_base_win: int  # theoretical maximum base-spin win, credits, exact
    method: str  # one sentence, how it was computed
    seconds: float
    max_base_stops: tuple[int, ...] = ()  # a base window (stops) that wins max_base_win
    price: Fraction = Fraction(1)  # exact: 2, or 5/4 for an ante
    # the round cap's largest effect on the variance, (x total bet)^2; None: no cap to bound
    cap_variance_bound: float | None = None
    # "exact", or "exact (uncapped round)": the moments are the uncapped round's and the cap
    # can bind (the maximum uncapped win exceeds it), its effect bounded or not
    sd_label: str = "exact"
    max_round_win_note: str = "exact"  # or UNBOUNDED, or the cap reached

    def volatility_index(self) -> float:
        return VI_Z * self.round_standard_deviation

    def base_volatility_index(self) -> float:
        return VI_Z * self.base_standard_deviation

    def to_dict(self) -> dict:
        cost = self.total_bet * float(self.price)
        return {
            "label": self.sd_label,
            "total_bet": self.total_bet,
            "price": price_value(self.price),  # ratios are per cost: total bet x price
            "mean": self.round_mean,
            "standard_deviation": self.round_standard_deviation,
            "volatility_index": self.volatility_index(),
            "base_mean": self.base_mean,
            "base_standard_deviation": self.base_standard_deviation,
            "base_volatility_index": self.base_volatility_index(),
            "max_round_win": self.max_round_win,
            "max_round_win_x": None if self.max_round_win is None else self.max_round_win / cost,
            "max_round_win_note": self.max_round_win_note,
            "max_base_win": self.max_base_win,
            "max_base_win_x": self.max_base_win / cost,
            "max_base_stops": list(self.max_base_stops),
            "volatility_definition": f"VI = {VI_Z} x SD per round (90% confidence), SD exact, "
                                     "multiples of the total bet",
            "cap_variance_bound": self.cap_variance_bound,
            "method": self.method,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class SpinMoments:
    """Moments of one spin's win (lines + scatters) in credits."""

    mean: float
    square: float  # E[X^2]
    count_probability: np.ndarray  # P(trigger count = c)
    mean_by_count: np.ndarray  # E[X 1{trigger count = c}]


def _refuse_unsupported(game: LineGame, m) -> None:
    if not exact_available(game):
        raise NotExact(f"{game.id}: {no_exact_reason(game)}; its SD is estimated: reelforge estimate")
    if game.spec.wild_draws is not None:
        raise NotExact(f"{game.id}: wilds that draw their multipliers ([wild_multipliers]) are "
                       "not covered by the exact second moment and maximum (two lines through one "
                       "wild share its draw); the RTP is exact, the SD is estimated by simulation")
    if trail_of(game) is not None and m.fg_scatter >= 0:
        raise NotExact(f"{game.id}: free games and a trail bonus in one round are not covered "
                       "by the exact second moment (the round would need both counts jointly)")


def _reel_joint(game: LineGame, m, reel_set: int, r: int, key) -> dict:
    """{key(column): probability} over the stops of reel r; key maps the column shown
    (rows top to bottom) to a hashable outcome."""
    n = int(m.strip_len[reel_set, r])
    strip = m.strips[reel_set, r, :n]
    w = stop_weights(game, reel_set, r)
    out: dict = {}
    for stop in range(n):
        if w[stop] > 0:
            column = tuple(int(strip[(stop + h) % n]) for h in range(m.n_rows))
            k = key(column)
            out[k] = out.get(k, 0.0) + w[stop]
    total = float(w.sum())
    return {k: v / total for k, v in out.items()}


def _scatter_on(m, k: int, column) -> int:
    shown = sum(s == m.scatter_symbol[k] for s in column)
    return int(shown if m.scatter_by_cells[k] else min(shown, 1))


def _as_arrays(per_reel: list[dict], width: int):
    """Per reel {tuple: p} -> (R, K, width) int64 outcomes, (R, K) probabilities, (R,) counts."""
    most = max(len(d) for d in per_reel)
    outcomes = np.zeros((len(per_reel), most, width), dtype=np.int64)
    probs = np.zeros((len(per_reel), most))
    counts = np.zeros(len(per_reel), dtype=np.int64)
    for r, d in enumerate(per_reel):
        for i, (k, p) in enumerate(d.items()):
            outcomes[r, i] = k
            probs[r, i] = p
        counts[r] = len(d)
    return outcomes, probs, counts


def _window_joint(game: LineGame, m, reel_set: int, counts, width: int) -> dict:
    """{window counts: probability}: counts(column) is a tuple of `width` counts a reel shows,
    added over the reels (the reels' distributions convolved)."""
    total = {(0,) * width: 1.0}
    for r in range(m.n_reels):
        per = _reel_joint(game, m, reel_set, r, counts)
        new: dict = {}
        for a, pa in total.items():
            for b, pb in per.items():
                key = tuple(x + y for x, y in zip(a, b))
                new[key] = new.get(key, 0.0) + pa * pb
        total = new
    return total


def _count_joint(game: LineGame, m, reel_set: int) -> dict:
    """{(count of scatter 0, count of scatter 1, ...): probability} for the whole window."""
    n_scatter = len(m.scatter_symbol)
    return _window_joint(game, m, reel_set,
                         lambda col: tuple(_scatter_on(m, k, col) for k in range(n_scatter)),
                         n_scatter)


def _lines_square(game: LineGame, m, reel_set: int, bet: Bet, multiplier: int, eligible: bool) -> float:
    """E[(sum of the line values)^2], values in multiples of the bet per line."""
    mb = _with_breaker(m)
    window = np.full((m.n_reels, m.n_rows), mb.line_pay.shape[0] - 1, dtype=np.int16)
    digit = np.zeros(m.n_reels, dtype=np.int64)
    prob_at = np.zeros(m.n_reels + 1)
    total = 0.0
    budget = MAX_PAIR_NODES
    for i in range(bet.lines):
        for j in range(i, bet.lines):
            rows_i, rows_j = m.paylines[i], m.paylines[j]
            per_reel = [_reel_joint(game, m, reel_set, r,
                                    lambda col, a=rows_i[r], b=rows_j[r]: (col[a], col[b]))
                        for r in range(m.n_reels)]
            outcomes, probs, counts = _as_arrays(per_reel, 2)
            value, nodes = line_pair_moment(mb, i, j, outcomes[:, :, 0].copy(),
                                            outcomes[:, :, 1].copy(), probs, counts, multiplier,
                                            eligible, window, digit, prob_at, budget)
            budget -= nodes
            if value < 0:
                raise NotExact(f"{game.id}: the exact second moment would enumerate more than "
                               f"{MAX_PAIR_NODES:,} reel combinations of pairs of lines (reached "
                               f"at lines {i + 1} and {j + 1} of {bet.lines}); its SD is "
                               "estimated: reelforge estimate")
            total += value if i == j else 2 * value
    return total


def _lines_by_code(game: LineGame, m, reel_set: int, bet: Bet, multiplier: int, eligible: bool,
                   code, n_codes: int) -> np.ndarray:
    """E[(sum of the line values) 1{code = x}] for x < n_codes, values in multiples of the
    bet per line; code(column) is what a reel adds to a window-wide code (a count, or counts
    in mixed radix: sums never carry, each count staying below its radix)."""
    mb = _with_breaker(m)
    n_reels = m.n_reels
    window = np.full((n_reels, m.n_rows), mb.line_pay.shape[0] - 1, dtype=np.int16)
    digit = np.zeros(n_reels, dtype=np.int64)
    prob_at = np.zeros(n_reels + 1)
    count_at = np.zeros(n_reels + 1, dtype=np.int64)
    rest = np.zeros((n_reels + 1, n_codes))
    rest[n_reels, 0] = 1.0
    for r in range(n_reels - 1, -1, -1):
        for x, p in _reel_joint(game, m, reel_set, r, code).items():
            rest[r, x:] += p * rest[r + 1, : n_codes - x]
    out = np.zeros(n_codes)
    for i in range(bet.lines):
        rows = m.paylines[i]
        per_reel = [_reel_joint(game, m, reel_set, r, lambda col, h=rows[r]: (col[h], code(col)))
                    for r in range(n_reels)]
        outcomes, probs, counts = _as_arrays(per_reel, 2)
        line_count_moment(mb, i, outcomes[:, :, 0].copy(), outcomes[:, :, 1].copy(), probs, counts,
                          multiplier, eligible, rest, window, digit, prob_at, count_at, out)
    return out


def _cash_on(m, column, cop: int = -1) -> tuple[int, int, int]:
    """(collectors, cops, cash symbols) a column shows, classified as `read_cash` does; `cop`
    the trail's cop symbol (-1: none)."""
    robbers = sum(s == m.collector for s in column)
    cops = sum(s == cop and s != m.collector for s in column)
    cash = sum(bool(m.is_cash[s]) and s != m.collector and s != cop for s in column)
    return int(robbers), int(cops), int(cash)


def _cash_value_moments(m) -> tuple[float, float]:
    """(E[v], Var(v)) of one drawn cash value, multiples of the stake."""
    weights = np.diff(np.concatenate(([0], m.cash_cum))) / m.cash_cum[-1]
    values = m.cash_values.astype(float)
    mean = float(np.dot(weights, values))
    return mean, float(np.dot(weights, values * values)) - mean * mean


def spin_moments(game: LineGame, m, reel_set: int, bet: Bet, multiplier: int, eligible: bool,
                 cond: int | None = None, collect: bool = False) -> SpinMoments:
    """Exact E[X], E[X^2] and E[X 1{count = c}] of one spin at one multiplier, c the count of
    scatter `cond` (default: the free-game trigger; none: c = 0). With `collect`, X also
    holds the collection: collectors x the cash values in view x the stake."""
    cond = m.fg_scatter if cond is None else cond
    n_reels = m.n_reels
    n_counts = m.scatter_pay.shape[1]
    bpl, stake = bet.bet_per_line, bet.total
    lines_square = _lines_square(game, m, reel_set, bet, multiplier, eligible)

    # the scatters' counts, jointly, and their wins
    joint = _count_joint(game, m, reel_set)
    count_probability = np.zeros(n_counts)
    mean_by_count = np.zeros(n_counts)
    scatter_mean = scatter_square = 0.0
    for key, p in joint.items():
        win = sum(int(m.scatter_pay[k, c]) for k, c in enumerate(key)) * stake * multiplier
        c = key[cond] if cond >= 0 else 0
        count_probability[c] += p
        mean_by_count[c] += p * win
        scatter_mean += p * win
        scatter_square += p * win * win

    # the lines with each paying scatter's count and with the conditioning count
    cross = 0.0
    paying = [k for k in range(len(m.scatter_symbol)) if m.scatter_pay[k].any()]
    for k in sorted(set(paying) | ({cond} if cond >= 0 else set())):
        by_count = bpl * _lines_by_code(game, m, reel_set, bet, multiplier, eligible,
                                        lambda col, k=k: _scatter_on(m, k, col), n_counts)
        cross += float(np.dot(by_count, m.scatter_pay[k].astype(float))) * stake * multiplier
        if k == cond:
            mean_by_count += by_count
    lines_mean = bpl * float(_lines_by_code(game, m, reel_set, bet, multiplier, eligible,
                                            lambda col: 0, 1)[0])
    if cond < 0:
        mean_by_count[0] += lines_mean
    mean = lines_mean + scatter_mean
    square = lines_square * bpl * bpl + 2 * cross + scatter_square

    if collect:  # collection Q = stake x multiplier x collectors x (sum of the values in view)
        if paying:
            raise NotExact(f"{game.id}: a paying scatter in a spin that collects cash is not "
                           "covered by the exact second moment")
        radix = n_reels * m.n_rows + 1
        v_mean, v_var = _cash_value_moments(m)
        unit = stake * multiplier

        def code(col):  # (count, collectors, cash symbols) in mixed radix
            robbers, _cops, cash = _cash_on(m, col)
            c = _scatter_on(m, cond, col) if cond >= 0 else 0
            return (c * radix + robbers) * radix + cash

        lines = bpl * _lines_by_code(game, m, reel_set, bet, multiplier, eligible, code, radix ** 3)
        window = _window_joint(game, m, reel_set, lambda col: (
            _scatter_on(m, cond, col) if cond >= 0 else 0, *_cash_on(m, col)[::2]), 3)
        for (c, robbers, cash), p in window.items():
            q_mean = unit * robbers * cash * v_mean
            mean += p * q_mean
            mean_by_count[c] += p * q_mean
            square += p * unit * unit * robbers * robbers * (cash * v_var + cash * cash * v_mean ** 2)
            square += 2 * lines[(c * radix + robbers) * radix + cash] * q_mean
    return SpinMoments(mean, square, count_probability, mean_by_count)


def _bonus_moments(game: LineGame, m, bet: Bet) -> dict[int, tuple[float, float]]:
    """{starting multiplier: (E[Z], E[Z^2])} of the trail bonus's uncapped win Z, credits.

    The chain of `trail._Chain` on (robber, cop); a spin wins Y = L + s x stake x mult x V
    (line win L; V the sum of the cash values in view, P of them, drawn independently of
    everything else; mult the trail multipliers the robbers' moves reach), so per move,
    with E[L 1{robbers, cops, cash}] from `_lines_by_code`: m1 = r1 + T m1 and
    m2 = E[L^2] + sum_moves (E[Y^2 - L^2; move] + 2 E[Y; move] m1(next)) + T m2."""
    trail = trail_of(game)
    counts = window_counts(game, trail.reel_set)
    chain = _Chain(trail, counts)
    radix = m.n_reels * m.n_rows + 1
    bpl, stake = bet.bet_per_line, bet.total

    def code(col):
        robbers, cops, cash = _cash_on(m, col, trail.cop)
        return (robbers * radix + cops) * radix + cash

    lines = bpl * _lines_by_code(game, m, trail.reel_set, bet, 1, False, code, radix ** 3)
    lines_square = bpl * bpl * _lines_square(game, m, trail.reel_set, bet, 1, False)
    v_mean, v_var = _cash_value_moments(m)
    w, cash, mults = chain.probs, chain.cash.astype(float), chain.mults.astype(float)
    q = counts[chain.robbers, chain.cops, chain.cash]
    line_part = w * lines[(chain.robbers * radix + chain.cops) * radix + chain.cash] / q
    inner = chain.cols >= 0
    matrix = np.zeros((chain.n, chain.n))
    np.add.at(matrix, (chain.rows[inner], chain.cols[inner]), w[inner])
    system = np.eye(chain.n) - matrix
    out = {}
    for start in sorted({int(x) for x in trail.start_multiplier if x > 0}):
        unit = start * stake * mults  # credits per unit of collected value, per move
        first = line_part + unit * cash * v_mean * w
        extra = 2 * unit * cash * v_mean * line_part + unit ** 2 * (cash * v_var + cash ** 2 * v_mean ** 2) * w
        m1 = np.linalg.solve(system, np.bincount(chain.rows, first, minlength=chain.n))
        following = np.where(inner, m1[np.maximum(chain.cols, 0)], 0.0)
        r2 = lines_square + np.bincount(chain.rows, extra + 2 * first * following, minlength=chain.n)
        m2 = np.linalg.solve(system, r2)
        out[start] = (float(m1[chain.start]), float(m2[chain.start]))
    return out


def _free_spin_moments(game: LineGame, m, bet: Bet, eligible: bool) -> SpinMoments:
    """One free spin, its multiplier drawn first: the moments mixed over the multipliers."""
    weights = np.diff(np.concatenate(([0], m.fg_multiplier_cum))) / m.fg_multiplier_cum[-1]
    parts = [(w, spin_moments(game, m, m.fg_set, bet, int(mult), eligible))
             for mult, w in zip(m.fg_multipliers, weights) if w > 0]
    first = parts[0][1]
    return SpinMoments(sum(w * s.mean for w, s in parts), sum(w * s.square for w, s in parts),
                       first.count_probability, sum(w * s.mean_by_count for w, s in parts))


def _free_game_moments(game: LineGame, m, free: SpinMoments, starts: list[int]) -> dict[int, tuple[float, float]]:
    """{initial award: (E[F], E[F^2])} of the free games' win F, per the retrigger rule."""
    again = retrigger_awards(m, len(free.count_probability))
    retriggers = m.fg_retrigger_mode != 0 and bool((free.count_probability[again > 0] > 0).any())
    mu, square = free.mean, free.square
    if not retriggers:  # k independent spins
        return {k: (k * mu, k * square + k * (k - 1) * mu * mu) for k in starts}
    if m.fg_retrigger_mode == 1:  # each spin and its own descendants: independent copies
        growth = float(np.dot(free.count_probability, again))
        refuse_never_ending(game, growth)
        one = mu / (1 - growth)
        pairs = float(np.dot(free.count_probability, again * (again - 1.0)))
        two = (square + 2 * float(np.dot(free.mean_by_count, again)) * one + pairs * one * one) / (1 - growth)
        return {k: (k * one, k * two + k * (k - 1) * one * one) for k in starts}
    firsts, seconds = capped_chain_moments(game, free.count_probability, mu, free.mean_by_count,
                                           square, starts)
    return {k: (float(a), float(b)) for k, a, b in zip(starts, firsts, seconds)}


def _no_spin(base: SpinMoments) -> SpinMoments:
    """The moments of a base spin a buy mode does not play: it pays and triggers nothing."""
    counts = np.zeros_like(base.count_probability)
    counts[0] = 1.0
    return SpinMoments(0.0, 0.0, counts, np.zeros_like(base.mean_by_count))


def _bought_award(m) -> int:
    """The spins a buy mode's round starts with, after the retrigger cap; 0 outside one."""
    if m.buy_spins <= 0:
        return 0
    return min(int(m.buy_spins), int(m.fg_max_total)) if m.fg_retrigger_mode == 2 else int(m.buy_spins)


def _initial_award(m, c: int) -> int:
    if c >= len(m.fg_award) or m.fg_award[c] <= 0:
        return 0
    award = int(m.fg_award[c])
    return min(award, int(m.fg_max_total)) if m.fg_retrigger_mode == 2 else award


def exact_moments(game: LineGame, bet: Bet | None = None) -> ExactMoments:
    """Exact mean, SD and maximum win of the base spin and of the whole round; raises
    NotExact with the reason where this method does not apply."""
    start_time = time.perf_counter()
    if not exact_available(game):
        _refuse_unsupported(game, None)
    if EXACT_WAYS in game.capabilities:
        raise NotExact(f"{game.id}: these moments are the line game's; a ways game's standard "
                       "deviation, from every window combination, is on its PAR sheet (reelforge par)")
    if EXACT_HOLDWIN in game.capabilities:
        raise NotExact(f"{game.id}: these moments are the line game's; a hold-and-win game's "
                       "exact figures are on its PAR sheet (reelforge par)")
    bet = check_bet(game, bet or game.max_bet)
    m = game.model_for(bet)
    _refuse_unsupported(game, m)
    _refuse_too_much_work(game, m, bet)
    eligible = jackpot_eligible(game, bet)
    exact_price = game.spec.mode(bet.mode).price
    price = float(exact_price)  # an integer price, or 5/4, is exact as a float too
    cost = bet.total * price
    trail = trail_of(game)
    cond = m.fg_scatter if m.fg_scatter >= 0 else (-1 if trail is None else trail.trigger)
    base = spin_moments(game, m, m.base_set, bet, 1, eligible, cond=cond, collect=bool(m.collect))
    if m.buy_spins > 0:  # a buy mode plays no base spin: the round is the bought free games
        base = _no_spin(base)
    mean, square = base.mean, base.square
    if m.fg_scatter >= 0:
        free = _free_spin_moments(game, m, bet, eligible)
        starts = sorted({_initial_award(m, c) for c in range(len(base.count_probability))
                         if base.count_probability[c] > 0} - {0})
        bought = _bought_award(m)
        if bought:
            starts = sorted(set(starts) | {bought})
        if starts:
            if m.fg_retrigger_mode == 2:
                capped_chain_states(game)
            moments = _free_game_moments(game, m, free, starts)
            if bought:
                mean, square = moments[bought]
            for c, p in enumerate(base.count_probability):
                k = _initial_award(m, c)
                if p > 0 and k > 0:
                    first, second = moments[k]
                    mean += p * first
                    square += 2 * base.mean_by_count[c] * first + p * second
    cap_bound = None
    method = ("exact enumeration: E[X^2] of a spin from every pair of lines' cells and every "
              "line with the scatter count, reel by reel until settled; the free games' second "
              "moment by recursion over their retrigger chain; the maximum by branch and bound "
              "over the stops; progressive jackpot excluded (the pool pays it)")
    if trail is not None:
        bonus = _bonus_moments(game, m, bet)
        for c, p in enumerate(base.count_probability):
            start = int(trail.start_multiplier[c]) if c < len(trail.start_multiplier) else 0
            if p > 0 and start > 0:
                first, second = bonus[start]
                mean += p * first
                square += 2 * base.mean_by_count[c] * first + p * second
        method = ("exact enumeration: E[X^2] of the paid spin from every pair of lines' cells and "
                  "every line with the window's collectors, cash symbols and bonus count, reel by "
                  "reel until settled, cash values independent; the trail bonus's second moment "
                  "by the chase chain's linear equations; uncapped, as the exact RTP: the round "
                  "cap changes the variance by at most cap_variance_bound (an exponential-moment "
                  "bound); the maximum round win is the cap")
        if m.cap > 0:
            cap_bound = cap_second_moment_bound(game, bet) / price ** 2
    top_base, top_round, note, stops, uncapped = _maxima(game, m, bet, eligible)
    sd_label = "exact"
    if cap_bound or (m.cap > 0 and trail is None and (uncapped is None or uncapped > m.cap)):
        # the figures are the uncapped round's (as the exact RTP): the cap can bind
        sd_label = "exact (uncapped round)"
    return ExactMoments(
        total_bet=bet.total, base_mean=base.mean / cost,
        base_standard_deviation=math.sqrt(max(base.square - base.mean ** 2, 0.0)) / cost,
        round_mean=mean / cost,
        round_standard_deviation=math.sqrt(max(square - mean ** 2, 0.0)) / cost,
        max_round_win=top_round, max_base_win=top_base, method=method,
        seconds=time.perf_counter() - start_time, max_base_stops=stops, price=exact_price,
        cap_variance_bound=cap_bound, sd_label=sd_label, max_round_win_note=note)


def _refuse_too_much_work(game: LineGame, m, bet: Bet) -> None:
    """NotExact, before any work, where the Python side would visit too many stops: each pair
    of bet lines reads every stop of every reel of each reel set enumerated."""
    trail = trail_of(game)
    sets = {m.base_set} | ({m.fg_set} if m.fg_scatter >= 0 else set()) | \
        ({trail.reel_set} if trail is not None else set())
    stops = sum(int(m.strip_len[s, : m.n_reels].sum()) for s in sets)
    steps = bet.lines * (bet.lines + 1) // 2 * stops
    if steps > MAX_PYTHON_STEPS:
        raise NotExact(f"{game.id}: the exact second moment would read {steps:,} reel stops "
                       f"({bet.lines} lines, so {bet.lines * (bet.lines + 1) // 2:,} pairs, x "
                       f"{stops:,} stops), above its limit of {MAX_PYTHON_STEPS:,}; its SD is "
                       "estimated: reelforge estimate")


# ---------------------------------------------------------------------------------------------
# Maximum win


def max_spin_by_count(game: LineGame, m, reel_set: int, bet: Bet, multiplier: int, eligible: bool,
                      collect: bool = False):
    """(best (T,), stops (T, R)): the largest spin win (lines + scatters, and the collection
    when `collect`, credits) for each trigger count (one entry without free games), -1 where
    the count cannot occur."""
    mb = _with_breaker(m)
    n_sym = m.line_pay.shape[0]
    wild = int(m.wild_multiplier.max())
    wild = wild ** m.n_reels if m.multiplier_product else wild
    top_pure = np.zeros(n_sym + 1, dtype=np.int64)
    top_sub = np.zeros(n_sym + 1, dtype=np.int64)
    for s in range(n_sym):
        top_pure[s] = int(m.line_pay[s].max()) * multiplier
        group = int(m.mixed_group[s])
        pay = max(int(m.line_pay[s].max()), int(m.mixed_pay[group].max()) if group >= 0 else 0)
        top_sub[s] = pay * wild * multiplier
    top_any = int(max(top_pure.max(), top_sub.max()))
    reps_per_reel = []
    n_scatter = len(m.scatter_symbol)
    count_most = np.zeros((max(n_scatter, 1), m.n_reels + 1), dtype=np.int64)
    cash_most = np.zeros((2, m.n_reels + 1), dtype=np.int64)
    for r in range(m.n_reels):
        seen = {}
        n = int(m.strip_len[reel_set, r])
        w = stop_weights(game, reel_set, r)
        for stop in range(n):
            column = tuple(int(m.strips[reel_set, r, (stop + h) % n]) for h in range(m.n_rows))
            if w[stop] > 0 and column not in seen:
                seen[column] = stop
        reps_per_reel.append(list(seen.values()))
        for k in range(n_scatter):
            count_most[k, r] = max(_scatter_on(m, k, col) for col in seen)
        cash_most[0, r] = max(_cash_on(m, col)[0] for col in seen)
        cash_most[1, r] = max(_cash_on(m, col)[2] for col in seen)
    for r in range(m.n_reels - 1, -1, -1):
        count_most[:, r] += count_most[:, r + 1]
        cash_most[:, r] += cash_most[:, r + 1]
    # every cash symbol can draw the largest value: collectors x cash symbols x that x stake
    drawn = m.cash_values[np.diff(np.concatenate(([0], m.cash_cum))) > 0]
    collect_value = int(drawn.max()) * bet.total * multiplier if collect else 0
    reps = np.zeros((m.n_reels, max(len(x) for x in reps_per_reel)), dtype=np.int64)
    n_reps = np.array([len(x) for x in reps_per_reel], dtype=np.int64)
    for r, x in enumerate(reps_per_reel):
        reps[r, : len(x)] = x
    classes = m.scatter_pay.shape[1] if m.fg_scatter >= 0 else 1
    best = np.full(classes, -1, dtype=np.int64)
    best_stops = np.zeros((classes, m.n_reels), dtype=np.int64)
    nodes = max_spin_win(mb, reel_set, bet.lines, bet.bet_per_line, multiplier, eligible, reps,
                         n_reps, top_pure, top_sub, top_any, count_most, best, best_stops,
                         np.zeros(m.n_reels, dtype=np.int64),
                         np.zeros((m.n_reels, m.n_rows), dtype=np.int16),
                         np.zeros(m.n_reels, dtype=np.int64),
                         np.zeros((max(n_scatter, 1), m.n_reels + 1), dtype=np.int64),
                         collect_value, cash_most, np.zeros((2, m.n_reels + 1), dtype=np.int64),
                         MAX_SPIN_LINE_NODES // bet.lines)
    if nodes < 0:
        raise NotExact(f"{game.id}: the maximum spin win's branch and bound would visit more than "
                       f"{MAX_SPIN_LINE_NODES // bet.lines:,} partial windows of {bet.lines} lines "
                       f"(reel set {reel_set}, multiplier {multiplier}); no exact maximum here")
    return best, best_stops


def _unlimited_max(m, best_free: np.ndarray, start: int) -> tuple[int | None, int]:
    """(the largest free-game win from `start` spins with unlimited retriggers, or None where
    the rules set no bound; the largest win reachable within the spin guard's G spins).

    Unbounded when a spin that retriggers can win, or when one retrigger adds two spins or
    more while some spin can win: the chain can then go on for ever, winning. Otherwise only
    the first `start` spins can win (retriggers of one spin replace themselves). Within the
    guard, with retriggering spins (award a, win w_r) played first so the spins never run out
    early, n_r of them and n_i others: n_i <= start + n_r (a - 1), n_r + n_i <= G; the most
    over the award sizes is attainable (a lower bound where several sizes mix)."""
    guard = int(m.spin_guard)
    again = retrigger_awards(m, len(best_free))
    seen = best_free >= 0
    plain = best_free[seen & (again == 0)]
    w_plain = int(plain.max()) if len(plain) else 0
    retrig: dict[int, int] = {}
    for w, a in zip(best_free[seen & (again > 0)], again[seen & (again > 0)]):
        retrig[int(a)] = max(retrig.get(int(a), -1), int(w))
    unbounded = any(w > 0 for w in retrig.values()) or (w_plain > 0 and max(retrig, default=0) >= 2)
    within = min(start, guard) * w_plain
    for award, w_r in retrig.items():
        n_r = np.arange(0, guard + 1, dtype=np.int64)
        n_i = np.minimum(guard - n_r, start + n_r * (award - 1))
        within = max(within, int((n_r * w_r + n_i * w_plain).max()))
    return (None if unbounded else start * w_plain), within


def _maxima(game: LineGame, m, bet: Bet, eligible: bool
            ) -> tuple[int, int | None, str, tuple[int, ...], int | None]:
    """(max base-spin win, max round win or None (unbounded), its note, stops of a base window
    winning the former, the max round win before the cap or None)."""
    base_best, base_stops = max_spin_by_count(game, m, m.base_set, bet, 1, eligible,
                                              collect=bool(m.collect))
    c_top = int(np.argmax(base_best))
    top_base = int(base_best[c_top])
    stops = tuple(int(x) for x in base_stops[c_top])
    if trail_of(game) is not None:
        top = max_round_win(game, bet)
        return top_base, top, "the round cap: a long enough chase reaches it", stops, None
    top_round: int | None = top_base
    within = top_base  # the most a round reaches inside the spin guard
    if m.fg_scatter >= 0:
        weights = np.diff(np.concatenate(([0], m.fg_multiplier_cum)))
        best_free = np.full(len(base_best), -1, dtype=np.int64)
        for mult, w in zip(m.fg_multipliers, weights):
            if w > 0:
                best_free = np.maximum(best_free, max_spin_by_count(game, m, m.fg_set, bet, int(mult),
                                                                    eligible)[0])
        starts = sorted({_initial_award(m, c) for c in range(len(base_best)) if base_best[c] >= 0} - {0})
        bought = _bought_award(m)
        free_top = _free_max(game, m, best_free, sorted(set(starts) | {bought} - {0}))
        if bought:  # a buy mode: no base spin, the round is the bought free games
            top_base, stops, base_best = 0, (), np.full_like(base_best, -1)
            top_round, within = free_top[bought]
        for c, w in enumerate(base_best):
            k = _initial_award(m, c)
            if w >= 0 and k > 0:
                most, reach = free_top[k]
                within = max(within, int(w) + reach)
                top_round = None if top_round is None or most is None else max(top_round, int(w) + most)
    uncapped = top_round
    note = "exact"
    binds = m.cap > 0 and (top_round is None or top_round > m.cap)
    if binds and (top_round is not None or within >= m.cap):  # reached within the guard
        top_round, note = int(m.cap), "the round cap, which a round reaches"
    if top_round is None:
        note = UNBOUNDED
    return top_base, top_round, note, stops, uncapped


def _free_max(game: LineGame, m, best_free: np.ndarray, starts: list[int]
              ) -> dict[int, tuple[int | None, int]]:
    """{initial award: (the largest free-game win from it or None: unbounded, the largest
    within the spin guard)}, credits."""
    if not starts:
        return {}
    again = retrigger_awards(m, len(best_free))
    retriggers = m.fg_retrigger_mode != 0 and bool((best_free[again > 0] >= 0).any())
    guard = int(m.spin_guard)
    if not retriggers:
        top = int(best_free.max())
        return {k: (min(k, guard) * top,) * 2 for k in starts}
    if m.fg_retrigger_mode == 1:
        return {k: _unlimited_max(m, best_free, k) for k in starts}
    capped_chain_states(game)
    cap = int(m.fg_max_total)
    ring = int(again.max()) + 1
    out = np.zeros(len(starts), dtype=np.int64)
    free_chain_max(best_free >= 0, best_free, again, cap, min(starts), np.array(starts, dtype=np.int64),
                   np.zeros((ring, cap + 1), dtype=np.int64), out)
    return {k: (int(v),) * 2 for k, v in zip(starts, out)}


def max_round_win(game: LineGame, bet: Bet | None = None) -> int | None:
    """The theoretical maximum win of one round, credits, exact (attainable); None where the
    rules set no bound (unlimited retriggers that can win for ever: only the guard stops them)."""
    if not exact_available(game):
        raise InvalidArgument(f"{game.id}: no exact maximum win here: {no_exact_reason(game)}")
    bet = check_bet(game, bet or game.max_bet)
    if EXACT_WAYS in game.capabilities:
        from reelforge.analysis.ways_exact import max_round_win as ways_max_round_win

        found = ways_max_round_win(game, bet)
        if found is None:
            raise NotExact(f"{game.id}: too many window combinations for an exact maximum")
        return found
    if EXACT_HOLDWIN in game.capabilities:
        raise NotExact(f"{game.id}: no exact maximum win for a hold-and-win game (the engine's "
                       "bound stands)")
    m = game.model_for(bet)
    _refuse_unsupported(game, m)
    if trail_of(game) is not None:
        # The chase lasts until the parade picks Bert: any number of spins, each of which can
        # collect, so only the cap bounds the round, and a long enough chase reaches it.
        if m.cap <= 0:
            raise NotExact(f"{game.id}: the trail bonus has no maximum win without a round cap")
        return int(m.cap)
    return _maxima(game, m, bet, jackpot_eligible(game, bet))[1]


__all__ = ["ExactMoments", "NotExact", "exact_moments", "max_round_win", "spin_moments"]
