"""Kernels of the line game: window draw, line and scatter evaluation, cash collection, free
games, the cap, the whole round; and the pieces a rules module's kernel composes its own round
from (`play_spin`, `read_cash`, `play_base_game`, `cap_round`: see
games/cops_n_robbers/kernel.py). The statistics counters are in `engine/counters.py`, the
exact-analysis kernels in `engine/line_exact.py`, the compilation flags in `engine/jit.py`.

Everything here is `@njit` and also runs as plain Python (NUMBA_DISABLE_JIT=1). Kernels take a
`Model` and a numpy `Generator`; they validate nothing (the Python layer did) and never raise.
Wins are integer credits: line pay x bet per line, scatter pay x total bet, times multipliers.

The round writes an event tape when `record` is true: one int64 row per event, TAPE_WIDTH + R
columns, `kind` first. The Python layer turns it into an `Outcome`; simulation skips it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.counters import add_round
from reelforge.engine.jit import inline_kernel, kernel
from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TAPE_WIDTH, TapeKind


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
    if model.wild_draw_count[reel_set] > 0:
        if reel_set == model.sticky_set:
            pos = expand_sticky_wilds(model, reel_set, window, model.wild_cells, rng, tape, pos,
                                      record, spin)
        else:
            pos = draw_wild_multipliers(model, reel_set, window, model.wild_cells, rng, tape,
                                        pos, record, spin)
        line_win, jackpots, pos = pay_lines(model, window, True, lines, bet_per_line,
                                            jackpot_eligible, multiplier, tape, pos, record, spin)
    else:  # the same, the constant False folding the draws away (a game without them)
        line_win, jackpots, pos = pay_lines(model, window, False, lines, bet_per_line,
                                            jackpot_eligible, multiplier, tape, pos, record, spin)
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
def pay_lines(model, window, draws, lines, bet_per_line, jackpot_eligible, multiplier, tape, pos,
              record, spin):
    """Pay lines 1..lines of the window, times the wilds' draws (`model.wild_cells`) when
    `draws`. Returns (credits, jackpot lines, next tape position)."""
    line_win = 0
    jackpots = 0
    for line in range(lines):
        award = evaluate_line(model, window, line, multiplier, jackpot_eligible)
        if award.jackpot:
            jackpots += 1
            pos = write_row(tape, pos, record, TapeKind.PROGRESSIVE_JACKPOT, spin, line,
                            award.symbol, award.length, 0, 0)
        elif award.win > 0:
            win = award.win
            paid_multiplier = award.multiplier
            if draws:
                drawn = run_wild_multiplier(model, window, model.wild_cells, line, award.length)
                win *= drawn
                paid_multiplier *= drawn
            win *= bet_per_line
            line_win += win
            pos = write_row(tape, pos, record, TapeKind.LINE, spin, line, award.symbol,
                            award.length, paid_multiplier, win)
    return line_win, jackpots, pos


@inline_kernel
def draw_wild_multipliers(model, reel_set, window, cells, rng, tape, pos, record, spin):
    """Every wild in view draws its multiplier from the reel set's table, reel by reel, top
    to bottom, into cells (R, H) int64 (other cells: 1); one WILD_MULTIPLIER row each.
    Returns the next tape position."""
    cells[:, :] = 1
    n = model.wild_draw_count[reel_set]
    values = model.wild_draw_values[reel_set, :n]
    cumulative = model.wild_draw_cum[reel_set, :n]
    for r in range(model.n_reels):
        for h in range(model.n_rows):
            if model.is_wild[window[r, h]]:
                m = draw_weighted(values, cumulative, rng)
                cells[r, h] = m
                pos = write_row(tape, pos, record, TapeKind.WILD_MULTIPLIER, spin, r, h, m, 0, 0)
    return pos


@inline_kernel
def expand_sticky_wilds(model, reel_set, window, cells, rng, tape, pos, record, spin):
    """The free games' expanding sticky wilds (expand = "sticky"): a reel wild before this
    spin stays wild with its multiplier (or, with `model.sticky_redraw`, draws a fresh one);
    any other reel showing a wild expands, draws its multiplier from the reel set's table
    (reels left to right) and stays wild from now on (`model.sticky_reels`, the round's
    state). Every wild reel's cells show the wild in `window` (lines and scatters read the
    expanded window) and carry its multiplier in cells (R, H) int64 (other cells: 1); one
    STICKY_WILD row per wild reel. Returns the next tape position."""
    n = model.wild_draw_count[reel_set]
    values = model.wild_draw_values[reel_set, :n]
    cumulative = model.wild_draw_cum[reel_set, :n]
    held = model.sticky_reels
    for r in range(model.n_reels):
        m = held[r]
        landed = False
        if m == 0:
            for h in range(model.n_rows):
                if model.is_wild[window[r, h]]:
                    landed = True
        if landed or (m > 0 and model.sticky_redraw):
            m = draw_weighted(values, cumulative, rng)
            held[r] = m
        if m > 0:
            for h in range(model.n_rows):
                window[r, h] = model.sticky_wild
                cells[r, h] = m
            pos = write_row(tape, pos, record, TapeKind.STICKY_WILD, spin, r, m,
                            0 if landed else 1, 0, 0)
        else:
            for h in range(model.n_rows):
                cells[r, h] = 1
    return pos


@inline_kernel
def run_wild_multiplier(model, window, cells, line, length):
    """The drawn multipliers of the wilds in a paid run (reels 1..length of the line),
    combined by product, sum or largest (`model.wild_draw_combine`); 1 with no wild."""
    rows = model.paylines[line]
    combined = 1
    wilds = 0
    for r in range(length):
        h = rows[r]
        if model.is_wild[window[r, h]]:
            m = cells[r, h]
            if wilds == 0:
                combined = m
            elif model.wild_draw_combine == 0:
                combined *= m
            elif model.wild_draw_combine == 1:
                combined += m
            elif m > combined:
                combined = m
            wilds += 1
    return combined


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
    requested = model.fg_award[trigger] if model.fg_scatter >= 0 else 0
    if requested == 0:  # most rounds: no call (a call copies the whole Model struct)
        return FreeGamesResult(win=0, played=0, retriggers=0, jackpots=0, tape_rows=pos,
                               guard=False, capped=False)
    return play_awarded_spins(model, requested, trigger, lines, bet_per_line, total_bet,
                              jackpot_eligible, rng, stops, window, tape, pos, record)


@kernel
def play_awarded_spins(model, requested, trigger, lines, bet_per_line, total_bet, jackpot_eligible,
                       rng, stops, window, tape, pos, record):
    """`requested` free spins (none when 0), retriggers included; `trigger`: the count that
    awarded them (0 for a buy mode's bought spins), as the tape's award row records it.

    Returns a `FreeGamesResult`. Spin i (1-based) is tape spin i.
    """
    fg_win = 0
    played = 0
    retriggers = 0
    jackpots = 0
    guard = False
    capped = False
    if requested > 0:
        if model.sticky_set >= 0:  # the free games start with no wild reel
            model.sticky_reels[:] = 0
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
        if model.sticky_set >= 0:  # and end with none: nothing outlives the feature
            model.sticky_reels[:] = 0
    return FreeGamesResult(win=fg_win, played=played, retriggers=retriggers, jackpots=jackpots,
                           tape_rows=pos, guard=guard, capped=capped)


@inline_kernel
def play_base_game(model, lines, bet_per_line, jackpot_eligible, rng, stops, window, tape,
                   record, watch):
    """The generic part of every line round: the paid spin (tape spin 0, collecting when the
    mode does), then every free spin it triggers; in a buy mode, the bought free spins alone.

    Returns a `BaseGameResult`, its `watched` the paid spin's count of scatter `watch` (a
    rules module's trigger; -1: none).
    """
    total_bet = lines * bet_per_line
    if model.buy_spins > 0:  # a buy mode: no base spin, the bought free games alone
        free = play_awarded_spins(model, model.buy_spins, np.int64(0), lines, bet_per_line,
                                  total_bet, jackpot_eligible, rng, stops, window, tape,
                                  np.int64(0), record)  # not literals: jit.py
        return BaseGameResult(
            line_win=0, scatter_win=0, collect_win=0, free_win=free.win, played=free.played,
            retriggers=free.retriggers, jackpots=free.jackpots, tape_rows=free.tape_rows,
            guard=free.guard, spins_capped=free.capped, watched=0)
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


# A round with nothing in it: what `play_rounds` returns for n_rounds = 0.
NO_ROUND = RoundResult(total=0, line_win=0, scatter_win=0, free_win=0, played=0, retriggers=0,
                       jackpots=0, tape_rows=0, guard=False, spins_capped=False, collect_win=0,
                       bonus_win=0, bonus_spins=0, win_capped=False)


@kernel
def play_rounds(model, lines, bet_per_line, jackpot_eligible, rng, n_rounds, record, band_edges,
                counters, bands, square_sum, stops, window, tape):
    """Play n_rounds with `play_round_kernel`, add their statistics to the arrays given and
    return the last one's `RoundResult`: simulation (many rounds, `record` False) and live
    play (one round recorded on the tape) are one compiled kernel, compiled once.

    counters: (len(Sim),) int64, indexed by `Sim`; bands: (len(band_edges)+1,)
    int64, rounds per win band, band 0 = no win, band i = win < band_edges[i] (credits);
    square_sum: (2,) uint64, the low and high words of the 128-bit sum of squared wins;
    stops, window, tape: work buffers as for `play_round_kernel`.
    """
    result = NO_ROUND
    for _ in range(n_rounds):
        result = play_round_kernel(model, lines, bet_per_line, jackpot_eligible, rng, stops,
                                   window, tape, record)
        add_round(counters, bands, band_edges, square_sum, result)
    return result
