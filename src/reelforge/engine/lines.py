"""Kernels of the line game: window draw, line and scatter evaluation, cash collection, free
games, the cap, the whole round; and the pieces a rules module's kernel composes its own round
from (`play_spin`, `read_cash`, `play_base_game`, `cap_round`, `add_round`: see
games/cops_n_robbers/kernel.py).

Everything here is `@njit` and also runs as plain Python (NUMBA_DISABLE_JIT=1). Kernels take a
`Model` and a numpy `Generator`; they validate nothing (the Python layer did) and never raise.
Wins are integer credits: line pay x bet per line, scatter pay x total bet, times multipliers.

The round writes an event tape when `record` is true: one int64 row per event, TAPE_WIDTH + R
columns, `kind` first. The Python layer turns it into an `Outcome`; simulation skips it.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numba
import numpy as np

from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TAPE_WIDTH, TapeKind

# Kernels compile without numba's reference-counting runtime (`_nrt=False`): with it, every
# read of an array field of the Model inside a branchy loop costs an atomic incref/decref
# pair, which made a round about 9x slower. So kernels never allocate: callers pass every
# buffer. The per-spin helpers are also inlined at numba's IR level: a call that is not
# inlined copies the whole Model struct (about 200 words), which cost more than drawing the
# window. Figures in benchmarks/RESULTS.md. `_nrt` is private, so numba's type stubs do not
# list it: hence the narrow ignores.
kernel = numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]
inline_kernel = numba.njit(cache=True, _nrt=False, inline="always")  # type: ignore[call-overload]


class LineAward(NamedTuple):
    """One payline's best award (`evaluate_line`)."""

    win: int  # multiples of the bet per line, multipliers applied; 0 for the jackpot
    symbol: int  # -1: none; a mixed group is S + its index
    length: int  # of the paid run, from reel 1 (the tape's "count")
    multiplier: int
    jackpot: bool  # the line shows the progressive jackpot and the bet is eligible


# What the round's kernels return, by name (numba builds and returns these NamedTuples in
# nopython mode; a field keeps one type across every place that builds it). Wins in credits;
# tape_rows: the tape rows written so far, the next row's index.
class SpinResult(NamedTuple):
    """One spin (`play_spin`)."""

    line_win: int
    scatter_win: int
    collect_win: int
    trigger: int  # count of the free-game trigger scatter
    watched: int  # count of the scatter a rules module watches (0 when it watches none)
    jackpots: int
    tape_rows: int


class FreeGamesResult(NamedTuple):
    """The free spins a paid spin awards (`play_free_games`)."""

    win: int
    played: int
    retriggers: int
    jackpots: int
    tape_rows: int
    guard: bool  # the spin guard stopped them
    capped: bool  # the retrigger cap granted fewer spins than the rules asked for


class BaseGameResult(NamedTuple):
    """The paid spin and its free spins (`play_base_game`)."""

    line_win: int
    scatter_win: int
    collect_win: int
    free_win: int
    played: int  # free spins
    retriggers: int
    jackpots: int  # the paid spin's and the free spins'
    tape_rows: int
    guard: bool
    spins_capped: bool
    watched: int  # the paid spin's count of the watched scatter


class RoundResult(NamedTuple):
    """A whole paid round (`play_round_kernel`, and a rules module's round with its bonus in
    the bonus fields): the base game's line, scatter and collected wins, the free games',
    the bonus', and the total after the cap on the round's win."""

    total: int
    line_win: int
    scatter_win: int
    free_win: int
    played: int
    retriggers: int
    jackpots: int
    tape_rows: int
    guard: bool
    spins_capped: bool
    collect_win: int
    bonus_win: int
    bonus_spins: int
    win_capped: bool


@inline_kernel
def draw_stop(model, reel_set, reel, rng):
    """Stop index (the strip position shown on the top row) of one reel: uniform or weighted."""
    n = model.strip_len[reel_set, reel]
    if not model.weighted[reel_set]:
        return draw_below(rng, n)
    total = model.cum_weights[reel_set, reel, n - 1]
    t = draw_below(rng, total)
    lo, hi = 0, n - 1
    while lo < hi:  # first stop whose cumulative weight exceeds t
        mid = (lo + hi) // 2
        if model.cum_weights[reel_set, reel, mid] > t:
            hi = mid
        else:
            lo = mid + 1
    return lo


@inline_kernel
def draw_window(model, reel_set, rng, stops, window):
    """Fill stops (R,) and window (R, H) int16 symbol indices; reels draw left to right."""
    for r in range(model.n_reels):
        stop = draw_stop(model, reel_set, r, rng)
        stops[r] = stop
        n = model.strip_len[reel_set, r]
        at = stop
        for h in range(model.n_rows):  # wrap by subtraction: a modulo costs more than the draw
            window[r, h] = model.strips[reel_set, r, at]
            at += 1
            if at == n:
                at = 0


@inline_kernel
def substituted_run(model, window, rows, target, group):
    """The run from reel 1 of `target` (or, with group >= 0, of any symbol of that mixed-pay
    group), wilds that substitute for `target` standing in. Returns (length, the multiplier
    of the wilds in it, combined by max or product)."""
    count = 0
    mult = 1
    while count < model.n_reels:
        s = window[count, rows[count]]
        if s == target or (group >= 0 and model.mixed_group[s] == group):
            count += 1
        elif model.substitutes[s, target]:
            m = model.wild_multiplier[s]
            if model.multiplier_product:
                mult *= m
            elif m > mult:
                mult = m
            count += 1
        else:
            break
    return count, mult


@inline_kernel
def evaluate_line(model, window, line, spin_multiplier, jackpot_eligible):
    """Best award of one payline, left to right from the leftmost reel.

    Two candidates compete: the run of the wild on reel 1 paid as itself, and the run of the
    first non-wild symbol with wilds substituting (times the wild multiplier if one completes
    it). Values include the spin multiplier unless the award is exempt. Returns a
    `LineAward`, its win 0 for the jackpot: the pool pays it, never in credits. (Every return
    builds the same field types: numba does not unify two kinds of one NamedTuple.)
    """
    n = model.n_reels
    rows = model.paylines[line]
    first = window[0, rows[0]]
    if n > 1 and not model.is_wild[first] and model.line_pay[first, 1] == 0:
        second = window[1, rows[1]]  # most lines end here: a run of one that pays nothing
        if second != first and not model.substitutes[second, first] and (
                not model.has_mixed or model.mixed_group[second] != model.mixed_group[first]
                or model.mixed_group[first] < 0) and not (
                jackpot_eligible and line == model.jackpot_line):
            return LineAward(0, -1, 0, 1, False)
    pure_count = 0
    if model.is_wild[first]:
        pure_count = 1
        while pure_count < n and window[pure_count, rows[pure_count]] == first:
            pure_count += 1
    target = -1
    for r in range(n):
        s = window[r, rows[r]]
        if not model.is_wild[s]:
            target = s
            break
    sub_count = 0
    wild_mult = 1
    if target >= 0:
        sub_count, wild_mult = substituted_run(model, window, rows, target, -1)

    if jackpot_eligible and line == model.jackpot_line and model.jackpot_symbol >= 0:
        js, jc = model.jackpot_symbol, model.jackpot_count
        if (first == js and pure_count >= jc) or (target == js and sub_count >= jc):
            return LineAward(0, js, jc, 1, True)

    pure_value = 0
    pure_mult = 1
    if pure_count > 0:
        pure_mult = 1 if model.fg_exempt[first, pure_count] else spin_multiplier
        pure_value = model.line_pay[first, pure_count] * pure_mult
    sub_value = 0
    sub_mult = wild_mult
    if sub_count > 0:
        if not model.fg_exempt[target, sub_count]:
            sub_mult *= spin_multiplier
        sub_value = model.line_pay[target, sub_count] * sub_mult

    if target >= 0 and model.mixed_group[target] >= 0:
        # a mixed group: any of its symbols (or a wild standing in) counts towards the run
        group = model.mixed_group[target]
        mixed_count, mixed_mult = substituted_run(model, window, rows, target, group)
        mixed_mult *= spin_multiplier
        mixed_value = model.mixed_pay[group, mixed_count] * mixed_mult
        if mixed_value > sub_value:
            sub_value = mixed_value
            sub_mult = mixed_mult
            sub_count = mixed_count
            target = model.line_pay.shape[0] + group  # groups are named after the symbols

    rule = model.pure_wild_rule
    take_pure = pure_value > 0 and (
        rule == 1 or sub_value == 0 or (rule == 0 and pure_value >= sub_value)
    )
    if take_pure:
        return LineAward(pure_value, np.int64(first), pure_count, pure_mult, False)
    if sub_value > 0:
        return LineAward(sub_value, target, sub_count, sub_mult, False)
    return LineAward(0, -1, 0, 1, False)


@inline_kernel
def count_scatter(model, window, k):
    """How many reels (or cells) show scatter k."""
    sym = model.scatter_symbol[k]
    total = 0
    for r in range(model.n_reels):
        on_reel = 0
        for h in range(model.n_rows):
            if window[r, h] == sym:
                on_reel += 1
        if model.scatter_by_cells[k]:
            total += on_reel
        elif on_reel > 0:
            total += 1
    return total


@inline_kernel
def write_row(tape, pos, record, kind, spin, a, b, c, d, e):
    """Append one tape row if recording and there is room; returns the next position."""
    if record and pos < tape.shape[0]:
        tape[pos, 0] = kind
        tape[pos, 1] = spin
        tape[pos, 2] = a
        tape[pos, 3] = b
        tape[pos, 4] = c
        tape[pos, 5] = d
        tape[pos, 6] = e
    return pos + 1


@inline_kernel
def play_spin(model, reel_set, lines, bet_per_line, total_bet, jackpot_eligible, multiplier,
              rng, stops, window, tape, pos, record, spin, collect, watch):
    """One spin on a reel set: draw, pay lines 1..lines, pay scatters, collect if asked.

    `watch`: the scatter whose count a rules module reads (its trigger; -1: none). Returns
    a `SpinResult`.
    """
    draw_window(model, reel_set, rng, stops, window)
    if record and pos < tape.shape[0]:
        for r in range(model.n_reels):
            tape[pos, TAPE_WIDTH + r] = stops[r]
    pos = write_row(tape, pos, record, TapeKind.SPIN, spin, reel_set, multiplier, 0, 0, 0)
    line_win = 0
    jackpots = 0
    for line in range(lines):
        award = evaluate_line(model, window, line, multiplier, jackpot_eligible)
        if award.jackpot:
            jackpots += 1
            pos = write_row(tape, pos, record, TapeKind.PROGRESSIVE_JACKPOT, spin, line,
                            award.symbol, award.length, 0, 0)
        elif award.win > 0:
            win = award.win * bet_per_line
            line_win += win
            pos = write_row(tape, pos, record, TapeKind.LINE, spin, line, award.symbol,
                            award.length, award.multiplier, win)
    scatter_win = 0
    trigger = 0
    watched = 0
    for k in range(model.scatter_symbol.shape[0]):
        count = count_scatter(model, window, k)
        if k == model.fg_scatter:
            trigger = count
        if k == watch:
            watched = count
        pay = model.scatter_pay[k, count]
        if pay > 0:
            win = pay * total_bet * multiplier
            scatter_win += win
            pos = write_row(tape, pos, record, TapeKind.SCATTER, spin, model.scatter_symbol[k],
                            count, multiplier, win, 0)
    collect_win = 0
    if collect:
        collectors, values, pos = read_cash(model, window, rng, tape, pos, record, spin)
        if collectors > 0 and values > 0:
            collect_win = collectors * values * total_bet * multiplier
            pos = write_row(tape, pos, record, TapeKind.COLLECT, spin, collectors, values,
                            multiplier, collect_win, 0)
    return SpinResult(line_win=line_win, scatter_win=scatter_win, collect_win=collect_win,
                      trigger=trigger, watched=watched, jackpots=jackpots, tape_rows=pos)


@inline_kernel
def draw_weighted(values, cumulative, rng):
    """values[i] with probability weight_i / total, from cumulative integer weights."""
    n = values.shape[0]
    t = draw_below(rng, cumulative[n - 1])
    i = 0
    while cumulative[i] <= t:
        i += 1
    return values[i]


@inline_kernel
def read_cash(model, window, rng, tape, pos, record, spin):
    """Collectors and the cash values in view: a value is drawn for every cash symbol, reel by
    reel, top to bottom. Returns (collectors, value sum, next tape position)."""
    collectors = 0
    values = 0
    for r in range(model.n_reels):
        for h in range(model.n_rows):
            s = window[r, h]
            if s == model.collector:
                collectors += 1
            elif model.is_cash[s]:
                v = draw_weighted(model.cash_values, model.cash_cum, rng)
                values += v
                pos = write_row(tape, pos, record, TapeKind.CASH, spin, r, h, v, 0, 0)
    return collectors, values, pos


@inline_kernel
def count_symbol(model, window, symbol):
    """How many cells of the window show `symbol`."""
    n = 0
    for r in range(model.n_reels):
        for h in range(model.n_rows):
            if window[r, h] == symbol:
                n += 1
    return n


@inline_kernel
def draw_free_multiplier(model, rng):
    """The multiplier of the next free spin: fixed, or drawn by integer weights."""
    if model.fg_multipliers.shape[0] == 1:
        return model.fg_multipliers[0]  # fixed: consumes no randomness
    return draw_weighted(model.fg_multipliers, model.fg_multiplier_cum, rng)


@inline_kernel
def grant_spins(model, requested, awarded_so_far):
    """Spins actually granted under the retrigger cap."""
    if model.fg_retrigger_mode == 2:
        room = model.fg_max_total - awarded_so_far
        return requested if requested < room else max(room, 0)
    return requested


@inline_kernel
def play_free_games(model, trigger, lines, bet_per_line, total_bet, jackpot_eligible, rng, stops,
                    window, tape, pos, record):
    """The free spins a paid spin's trigger count awards, retriggers included.

    Returns a `FreeGamesResult`. Spin i (1-based) is tape spin i.
    """
    fg_win = 0
    played = 0
    retriggers = 0
    jackpots = 0
    guard = False
    capped = False
    if model.fg_scatter >= 0 and model.fg_award[trigger] > 0:
        requested = model.fg_award[trigger]
        awarded = grant_spins(model, requested, 0)
        capped = awarded < requested
        pos = write_row(tape, pos, record, TapeKind.AWARD, 0, awarded, requested, awarded,
                        trigger, 0)
        while played < awarded:
            if played >= model.spin_guard:
                guard = True
                break
            played += 1
            multiplier = draw_free_multiplier(model, rng)
            spin = play_spin(
                model, model.fg_set, lines, bet_per_line, total_bet, jackpot_eligible,
                multiplier, rng, stops, window, tape, pos, record, played, False, -1)
            pos = spin.tape_rows
            fg_win += spin.line_win + spin.scatter_win + spin.collect_win
            jackpots += spin.jackpots
            again = spin.trigger
            if model.fg_retrigger_mode != 0 and model.fg_retrigger_award[again] > 0:
                requested = model.fg_retrigger_award[again]
                extra = grant_spins(model, requested, awarded)
                if extra < requested:
                    capped = True
                awarded += extra
                if extra > 0:
                    retriggers += 1
                pos = write_row(tape, pos, record, TapeKind.AWARD, played, extra, requested,
                                awarded, again, 0)
    return FreeGamesResult(win=fg_win, played=played, retriggers=retriggers, jackpots=jackpots,
                           tape_rows=pos, guard=guard, capped=capped)


@inline_kernel
def play_base_game(model, lines, bet_per_line, jackpot_eligible, rng, stops, window, tape,
                   record, watch):
    """The generic part of every line round: the paid spin (tape spin 0, collecting when the
    mode does), then every free spin it triggers.

    Returns a `BaseGameResult`, its `watched` the paid spin's count of scatter `watch` (a
    rules module's trigger; -1: none).
    """
    total_bet = lines * bet_per_line
    spin = play_spin(model, model.base_set, lines, bet_per_line, total_bet, jackpot_eligible, 1,
                     rng, stops, window, tape, 0, record, 0, model.collect, watch)
    free = play_free_games(model, spin.trigger, lines, bet_per_line, total_bet, jackpot_eligible,
                           rng, stops, window, tape, spin.tape_rows, record)
    return BaseGameResult(
        line_win=spin.line_win, scatter_win=spin.scatter_win, collect_win=spin.collect_win,
        free_win=free.win, played=free.played, retriggers=free.retriggers,
        jackpots=spin.jackpots + free.jackpots, tape_rows=free.tape_rows, guard=free.guard,
        spins_capped=free.capped, watched=spin.watched)


@inline_kernel
def cap_round(model, total):
    """(the round's win after the cap on one round's win, whether the cap took any)."""
    if model.cap > 0 and total > model.cap:
        return model.cap, True
    return total, False


@inline_kernel
def play_round_kernel(model, lines, bet_per_line, jackpot_eligible, rng, stops, window, tape,
                      record):
    """The whole paid round of a line game without rules: base spin, every free spin it
    triggers, then the cap on the round's win.

    Returns a `RoundResult` (a rules module's round returns the same, its bonus in the bonus
    fields: 0 here). A tape shorter than its `tape_rows` means the caller must replay with a
    longer one.
    """
    base = play_base_game(model, lines, bet_per_line, jackpot_eligible, rng, stops, window, tape,
                          record, -1)
    total, win_capped = cap_round(
        model, base.line_win + base.scatter_win + base.collect_win + base.free_win)
    return RoundResult(
        total=total, line_win=base.line_win, scatter_win=base.scatter_win,
        free_win=base.free_win, played=base.played, retriggers=base.retriggers,
        jackpots=base.jackpots, tape_rows=base.tape_rows, guard=base.guard,
        spins_capped=base.spins_capped, collect_win=base.collect_win, bonus_win=0,
        bonus_spins=0, win_capped=win_capped)


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
    """Index of each counter `simulate_kernel` (and every game's round simulator) accumulates
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
    """Add one round's `RoundResult` to the statistics arrays of `simulate_kernel`."""
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


@kernel
def simulate_kernel(model, lines, bet_per_line, jackpot_eligible, rng, n_rounds, band_edges,
                    counters, bands, square_sum, stops, window, tape):
    """Play n_rounds with `play_round_kernel` and add their statistics to the arrays given.

    counters: (len(Sim),) int64, indexed by `Sim`; bands: (len(band_edges)+1,)
    int64, rounds per win band, band 0 = no win, band i = win < band_edges[i] (credits);
    square_sum: (2,) uint64, the low and high words of the 128-bit sum of squared wins;
    stops, window, tape: work buffers as for `play_round_kernel` (the tape is not written).
    """
    for _ in range(n_rounds):
        add_round(counters, bands, band_edges, square_sum, play_round_kernel(
            model, lines, bet_per_line, jackpot_eligible, rng, stops, window, tape, False))


@kernel
def line_expectation(model, line, symbols, probs, counts, multiplier, jackpot_eligible, window,
                     digit, award_value, award_probability):
    """Exact expectation of one payline by enumerating every symbol combination it can show.

    symbols: (R, S) int64, the symbols reel r can show on this line's row (first counts[r]);
    probs: (R, S) float64, their probabilities. Uses `evaluate_line`, so the analysis pays
    exactly what play pays. Returns (expected win in multiples of the bet per line,
    probability of the jackpot, probability of a paying line). window (R, H) int16 and
    digit (R,) int64 are work buffers; award_value and award_probability (S, R+1) float64
    receive, per paid (symbol, count), its expected value and its probability.
    """
    n = model.n_reels
    digit[:] = 0
    for r in range(n):
        for h in range(model.n_rows):
            window[r, h] = symbols[r, 0]
    expected = 0.0
    p_jackpot = 0.0
    p_win = 0.0
    while True:
        p = 1.0
        for r in range(n):
            p *= probs[r, digit[r]]
        award = evaluate_line(model, window, line, multiplier, jackpot_eligible)
        if award.jackpot:
            p_jackpot += p
        elif award.win > 0:
            expected += p * award.win
            p_win += p
            award_value[award.symbol, award.length] += p * award.win
            award_probability[award.symbol, award.length] += p
        r = n - 1  # next combination, odometer style
        while r >= 0:
            digit[r] += 1
            if digit[r] < counts[r]:
                break
            digit[r] = 0
            r -= 1
        if r < 0:
            break
        for rr in range(r, n):
            for h in range(model.n_rows):
                window[rr, h] = symbols[rr, digit[rr]]
    return expected, p_jackpot, p_win


@kernel
def base_hit_probability(model, reel_set, depth, lines, jackpot_eligible, scatter,
                         scatter_pays_given, window, stops):
    """P(the spin pays anything), exactly, by enumerating the stops of the first `depth` reels.

    `model` must carry a breaker symbol (the last index) that nothing matches or substitutes;
    reels from `depth` on show it, so a line pays here exactly when it pays at all, provided
    every award that pays keeps paying for longer runs and no run needs more than `depth`
    reels (the caller checks both). `scatter_pays_given[c]`: P(the scatters pay | c of them in
    the first `depth` reels, counted as scatter index `scatter` counts; -1: no paying
    scatter), from the other reels. window (R, H) int16, stops (R,) int64.
    """
    breaker = model.line_pay.shape[0] - 1
    for r in range(model.n_reels):
        for h in range(model.n_rows):
            window[r, h] = breaker
        stops[r] = 0
    total = 0.0
    while True:
        p = 1.0
        scatters = 0
        for r in range(depth):
            n = model.strip_len[reel_set, r]
            if model.weighted[reel_set]:
                before = model.cum_weights[reel_set, r, stops[r] - 1] if stops[r] > 0 else 0
                p *= (model.cum_weights[reel_set, r, stops[r]] - before) / model.cum_weights[reel_set, r, n - 1]
            else:
                p /= n
            at = stops[r]
            on_reel = 0
            for h in range(model.n_rows):
                s = model.strips[reel_set, r, at]
                window[r, h] = s
                if scatter >= 0 and s == model.scatter_symbol[scatter]:
                    on_reel += 1
                at += 1
                if at == n:
                    at = 0
            if scatter >= 0 and on_reel > 0:
                scatters += on_reel if model.scatter_by_cells[scatter] else 1
        pays = False
        for line in range(lines):
            award = evaluate_line(model, window, line, 1, jackpot_eligible)
            if award.win > 0 or award.jackpot:
                pays = True
                break
        total += p if pays else p * scatter_pays_given[scatters]
        r = depth - 1  # next combination of stops, odometer style
        while r >= 0:
            stops[r] += 1
            if stops[r] < model.strip_len[reel_set, r]:
                break
            stops[r] = 0
            r -= 1
        if r < 0:
            break
    return total


# ---------------------------------------------------------------------------------------------
# Exact moments and maxima (analysis.moments): enumerations that stop as soon as the lines
# they follow are settled.


@inline_kernel
def line_reach(model, window, line):
    """How many reels from the left `evaluate_line` reads on this line, and the target.

    Cells of reels at or beyond the reach cannot change the line's result, so a line whose
    reach is at most d is settled by the first d reels. Mirrors the reads of `evaluate_line`
    (the pure-wild run, the search for the first non-wild symbol, the substituted and mixed
    runs, each read up to the cell that breaks it). Returns (reach, target, target's reel):
    the first non-wild symbol and its reel, (-1, n) when every cell is wild.
    """
    n = model.n_reels
    rows = model.paylines[line]
    first = window[0, rows[0]]
    reach = 1
    if model.is_wild[first]:
        k = 1
        while k < n and window[k, rows[k]] == first:
            k += 1
        reach = k + 1
    target = -1
    at = n
    for r in range(n):
        s = window[r, rows[r]]
        if not model.is_wild[s]:
            target = s
            at = r
            break
    if target < 0:
        return n, -1, n
    reach = max(reach, at + 1)
    count, _m = substituted_run(model, window, rows, target, -1)
    reach = max(reach, count + 1)
    group = model.mixed_group[target]
    if group >= 0:
        count, _m = substituted_run(model, window, rows, target, group)
        reach = max(reach, count + 1)
    return min(reach, n), target, at


@kernel
def line_pair_moment(model, line_a, line_b, syms_a, syms_b, probs, counts, multiplier,
                     jackpot_eligible, window, digit, prob_at, budget):
    """E[value_a x value_b] of two paylines (the same line twice: E[value**2]), exactly.

    Enumerates, reel by reel, what the two lines' cells can show together: syms_a, syms_b
    (R, K) int64 and probs (R, K) float64, the first counts[r] entries of reel r (joint over
    the reel's stops). A branch stops as soon as either line is settled at zero (it adds
    nothing) or both are settled. `model` must carry a breaker symbol (the last index) and
    window (R, H) int16 must show it everywhere; values in multiples of the bet per line,
    jackpots count 0 (the pool pays them). digit (R,) int64, prob_at (R+1,) float64: work.
    Returns (the moment, nodes visited); past `budget` nodes it stops and returns
    (-1.0, nodes): the worst case grows like the product of the reels' joint sizes.
    """
    breaker = model.line_pay.shape[0] - 1
    rows_a = model.paylines[line_a]
    rows_b = model.paylines[line_b]
    total = 0.0
    nodes = 0
    depth = 0
    digit[0] = 0
    prob_at[0] = 1.0
    while depth >= 0:
        if digit[depth] >= counts[depth]:
            window[depth, rows_a[depth]] = breaker
            window[depth, rows_b[depth]] = breaker
            depth -= 1
            if depth >= 0:
                digit[depth] += 1
            continue
        nodes += 1
        if nodes > budget:
            for r in range(window.shape[0]):
                window[r, rows_a[r]] = breaker
                window[r, rows_b[r]] = breaker
            return -1.0, nodes
        k = digit[depth]
        window[depth, rows_a[depth]] = syms_a[depth, k]
        window[depth, rows_b[depth]] = syms_b[depth, k]
        p = prob_at[depth] * probs[depth, k]
        d = depth + 1
        reach_a, _t, _at = line_reach(model, window, line_a)
        reach_b, _t, _at = line_reach(model, window, line_b)
        value_a = 1
        value_b = 1
        if reach_a <= d:
            value_a = evaluate_line(model, window, line_a, multiplier, jackpot_eligible).win
        if reach_b <= d:
            value_b = evaluate_line(model, window, line_b, multiplier, jackpot_eligible).win
        if value_a == 0 or value_b == 0:
            digit[depth] += 1
        elif reach_a <= d and reach_b <= d:
            total += p * value_a * value_b
            digit[depth] += 1
        else:
            prob_at[d] = p
            digit[d] = 0
            depth = d
    return total, nodes


@kernel
def line_count_moment(model, line, syms, adds, probs, counts, multiplier, jackpot_eligible,
                      rest, window, digit, prob_at, count_at, out):
    """out[c] += E[value x 1{count = c}] of one payline, exactly: `count` is a per-reel sum
    (a scatter's count) that the line's cells share stops with.

    syms, adds (R, K) int64, probs (R, K) float64: what the line's cell shows on reel r, what
    the reel adds to the count, jointly (first counts[r] entries). rest (R+1, C) float64:
    P(the reels from d on add x). A branch stops when the line is settled: at zero, or
    spreading its value over the counts the other reels may add. Values in multiples of the
    bet per line; same model and window conventions as `line_pair_moment`.
    """
    breaker = model.line_pay.shape[0] - 1
    rows = model.paylines[line]
    depth = 0
    digit[0] = 0
    prob_at[0] = 1.0
    count_at[0] = 0
    while depth >= 0:
        if digit[depth] >= counts[depth]:
            window[depth, rows[depth]] = breaker
            depth -= 1
            if depth >= 0:
                digit[depth] += 1
            continue
        k = digit[depth]
        window[depth, rows[depth]] = syms[depth, k]
        p = prob_at[depth] * probs[depth, k]
        c = count_at[depth] + adds[depth, k]
        d = depth + 1
        reach, _t, _at = line_reach(model, window, line)
        if reach <= d:
            value = evaluate_line(model, window, line, multiplier, jackpot_eligible).win
            if value > 0:
                for x in range(rest.shape[1]):
                    if rest[d, x] > 0 and c + x < out.shape[0]:
                        out[c + x] += p * value * rest[d, x]
            digit[depth] += 1
        else:
            prob_at[d] = p
            count_at[d] = c
            digit[d] = 0
            depth = d


@kernel
def max_spin_win(model, reel_set, lines, bet_per_line, multiplier, jackpot_eligible, reps,
                 n_reps, top_pure, top_sub, top_any, count_most, best, best_stops, stops,
                 window, digit, scatters, collect_value, cash_most, cash, budget):
    """The largest win of one spin (lines + scatters + collection, credits) for every count
    of the free-game trigger, by branch and bound over the stops of the reels, left to right.

    reps (R, N) int64: one stop of each distinct column of reel r (first n_reps[r]). A branch
    is cut when an upper bound on its wins (lines settled so far at their value, unsettled
    lines at the top pay of their pure-wild run (top_pure[first]) or of their target
    (top_sub[target], or top_any while no target is seen), each scatter at its best count
    still reachable, count_most (C, R+1): the most the reels from d on can add to scatter k)
    cannot beat the best win already found for any trigger count still reachable.
    A spin that collects (collect_value > 0: the largest cash value x the stake) wins
    collectors x cash symbols x collect_value at most, and exactly that with every value at
    its largest; cash_most (2, R+1): the most collectors and cash symbols the reels from d on
    can show. best (T,) int64 (-1: none found) and best_stops (T, R) receive the maxima and
    a window reaching each; `model` must carry a breaker symbol. stops (R,), digit (R,)
    int64, scatters (C, R+1), cash (2, R+1) int64: work. Returns the nodes visited, or -1
    once past `budget` (the bound may cut little: the worst case is every window).
    """
    n = model.n_reels
    total_bet = lines * bet_per_line
    breaker = model.line_pay.shape[0] - 1
    n_scatter = model.scatter_symbol.shape[0]
    fg = model.fg_scatter
    for r in range(n):
        for h in range(model.n_rows):
            window[r, h] = breaker
    for k in range(n_scatter):
        scatters[k, 0] = 0
    cash[0, 0] = 0
    cash[1, 0] = 0
    nodes = 0
    depth = 0
    digit[0] = 0
    while depth >= 0:
        if digit[depth] >= n_reps[depth]:
            for h in range(model.n_rows):
                window[depth, h] = breaker
            depth -= 1
            if depth >= 0:
                digit[depth] += 1
            continue
        nodes += 1
        if nodes > budget:
            return -1
        stop = reps[depth, digit[depth]]
        stops[depth] = stop
        length = model.strip_len[reel_set, depth]
        at = stop
        for h in range(model.n_rows):
            window[depth, h] = model.strips[reel_set, depth, at]
            at += 1
            if at == length:
                at = 0
        d = depth + 1
        for k in range(n_scatter):
            on_reel = 0
            for h in range(model.n_rows):
                if window[depth, h] == model.scatter_symbol[k]:
                    on_reel += 1
            if not model.scatter_by_cells[k] and on_reel > 0:
                on_reel = 1
            scatters[k, d] = scatters[k, depth] + on_reel
        bound = 0
        for line in range(lines):
            reach, target, t_at = line_reach(model, window, line)
            if reach <= d:
                bound += evaluate_line(model, window, line, multiplier,
                                       jackpot_eligible).win * bet_per_line
                continue
            first = window[0, model.paylines[line, 0]]
            top = top_pure[first] if model.is_wild[first] else 0
            sub = top_any if t_at >= d else top_sub[target]
            bound += max(top, sub) * bet_per_line
        scatter_win = 0
        for k in range(n_scatter):
            most = 0
            for x in range(count_most[k, d] + 1):
                pay = model.scatter_pay[k, scatters[k, d] + x]
                most = max(most, pay)
            scatter_win += most * total_bet * multiplier
        bound += scatter_win
        if collect_value > 0:
            robbers = 0
            values = 0
            for h in range(model.n_rows):
                s = window[depth, h]
                if s == model.collector:
                    robbers += 1
                elif model.is_cash[s]:
                    values += 1
            cash[0, d] = cash[0, depth] + robbers
            cash[1, d] = cash[1, depth] + values
            bound += ((cash[0, d] + cash_most[0, d]) * (cash[1, d] + cash_most[1, d])
                      * collect_value)
        low = 0
        high = 0
        if fg >= 0:
            low = scatters[fg, d]
            high = low + count_most[fg, d]
            high = min(high, best.shape[0] - 1)
        improves = False
        for c in range(low, high + 1):
            if bound > best[c]:
                improves = True
        if not improves:
            digit[depth] += 1
            continue
        if d == n:
            c = low  # every reel is set: the bound is the win, the count is known
            if bound > best[c]:
                best[c] = bound
                for r in range(n):
                    best_stops[c, r] = stops[r]
            digit[depth] += 1
            continue
        digit[d] = 0
        depth = d
    return nodes


@kernel
def free_chain_moments(probs, win, win_by_count, win_square, again, cap, lowest, starts,
                       m1, m2, out1, out2):
    """First and second moments of the free-game win under a retrigger cap, exactly.

    The chain's state is (spins left l, spins awarded a); a spin wins X and shows a trigger
    count c (probs[c]); a retrigger adds e = min(again[c], cap - a) spins. With m1, m2 the
    moments of what is still to come: m1(l, a) = E[X] + sum_c p_c m1(l-1+e, a+e) and
    m2(l, a) = E[X^2] + 2 sum_c E[X 1{c}] m1(l-1+e, a+e) + sum_c p_c m2(l-1+e, a+e).
    win = E[X], win_square = E[X^2], win_by_count[c] = E[X 1{c}]. Rows a = cap down to
    `lowest` are filled into the ring buffers m1, m2 (E+1, cap+1) float64, E the largest
    award; out1[i], out2[i] receive the moments at (starts[i], starts[i]).
    """
    ring = m1.shape[0]
    for a in range(cap, lowest - 1, -1):
        row = a % ring
        m1[row, 0] = 0.0
        m2[row, 0] = 0.0
        for left in range(1, a + 1):
            first = win
            second = win_square
            for c in range(probs.shape[0]):
                p = probs[c]
                if p == 0.0 and win_by_count[c] == 0.0:
                    continue
                e = 0
                if again[c] > 0:
                    e = min(again[c], cap - a)
                nxt = (a + e) % ring
                f = m1[nxt, left - 1 + e]
                first += p * f
                second += 2.0 * win_by_count[c] * f + p * m2[nxt, left - 1 + e]
            m1[row, left] = first
            m2[row, left] = second
        for i in range(starts.shape[0]):
            if starts[i] == a:
                out1[i] = m1[row, a]
                out2[i] = m2[row, a]


@kernel
def free_chain_max(possible, best, again, cap, lowest, starts, fmax, out):
    """The largest free-game win under a retrigger cap, exactly: fmax(l, a) = the best over
    the trigger counts c a spin can show (possible[c]) of best[c] + fmax(l-1+e, a+e), e as in
    `free_chain_moments`. fmax (E+1, cap+1) int64 ring buffer; out[i] = fmax(starts[i],
    starts[i]). Credits."""
    ring = fmax.shape[0]
    for a in range(cap, lowest - 1, -1):
        row = a % ring
        fmax[row, 0] = 0
        for left in range(1, a + 1):
            top = -1
            for c in range(possible.shape[0]):
                if not possible[c]:
                    continue
                e = 0
                if again[c] > 0:
                    e = min(again[c], cap - a)
                value = best[c] + fmax[(a + e) % ring, left - 1 + e]
                top = max(top, value)
            fmax[row, left] = top
        for i in range(starts.shape[0]):
            if starts[i] == a:
                out[i] = fmax[row, a]
