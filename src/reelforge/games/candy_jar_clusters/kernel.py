"""The Candy Jar Clusters round, compiled: base spin, jars, Free Spins with modifiers, super
spins, fixed jackpots and the 10,000x cap.

`base_spin`, `free_spins` and `play_round` are compiled once each and called (not inlined)
by every simulator: inlining the whole round into each of four top-level kernels made a cold
compile take minutes; the call costs a few percent at most (a round is microseconds). Live play, replay and every simulation (whole
rounds and the stratified estimate's base-spin and Free-Spins strata) run these functions.

Amounts are coins at one coin per coin of the stake (the stake is `coins` coins, 20 here);
the caller multiplies by the coin value. Every draw goes through the cluster engine's
`draw_below`/`draw_weighted`, in the order the code below makes them.

Tape rows (`engine.tape.TapeKind`: besides the cluster engine's GRID / CLUSTER / MULTIPLIER
and the cluster round's CLUSTER_SPIN / SPIN_WIN, the rules' CANDIES, TRIGGER, EXTRA and
JACKPOT) are [kind, spin, a, b, c, d, e] where spin 0 is the base spin and 1, 2, ... the free
and super spins in play order. A spin's SPIN_WIN win is what it added to the round: the spin
that reaches the cap shows only the part up to the cap (its clusters and jackpots show what
they paid).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.cluster_strata import BaseExtra, BaseField, FreeField
from reelforge.engine.clusters import (
    cascade,
    draw_grid,
    draw_weighted,
    inline_kernel,
    kernel,
    write_grid,
    write_row,
)
from reelforge.engine.counters import Sim, add_square, add_win
from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TapeKind

SPIN_BASE, SPIN_FREE, SPIN_SUPER = 0, 1, 2
N_MASKS = 8  # modifier masks 0..7; 0 = no Free Spins


# What the kernels return, by name; amounts in coins at a coin value of 1; tape_rows: the
# tape rows written so far, the next row's index.
class BaseSpinResult(NamedTuple):
    """The base spin and its jars (`base_spin`)."""

    win: int  # capped at the cap
    mask: int  # the modifiers it triggers, 0 when Free Spins are not triggered
    tape_rows: int
    guard: bool  # the tumble guard stopped it
    multiplier: int  # its random multiplier
    tumbles: int
    capped: bool
    first_mask: int  # the mask the drawn grid's candies alone would trigger (when asked)
    raw_win: int  # before the random multiplier and the cap


class FreeSpinsResult(NamedTuple):
    """A Free Spins round (`free_spins`)."""

    win: int  # at most the headroom
    jackpot_win: int  # the jackpots' part of it, before the cap
    played: int  # free spins
    supers: int  # super spins
    extras: int  # EXTRA symbols collected
    jackpots: int  # jackpots won
    capped: bool
    guard: bool
    tape_rows: int


class CandyRoundResult(NamedTuple):
    """One paid round (`play_round`)."""

    total: int
    base_win: int
    free_win: int  # total - base_win
    jackpot_win: int
    mask: int
    played: int
    supers: int
    extras: int
    jackpots: int
    capped: bool
    guard: bool
    tape_rows: int


@inline_kernel
def count_symbols(grid, counts):
    for s in range(counts.shape[0]):
        counts[s] = 0
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            counts[grid[r, c]] += 1


@inline_kernel
def place_wilds(cm, cj, rng, grid, cells):
    """WILD modifier: 6-12 (by weight) cells, distinct and uniform (a partial Fisher-Yates
    shuffle of the cell numbers), each turned into a wild drawn by weight (WILD or a Golden
    Wild); returns (wilds placed, sum of their multipliers)."""
    k = cj.wild_count_values[draw_weighted(cj.wild_count_cum, rng)]
    cols = cm.n_cols
    n = cm.n_rows * cols
    for i in range(n):
        cells[i] = i
    golden = 0
    for i in range(k):
        j = i + draw_below(rng, n - i)
        t = cells[i]
        cells[i] = cells[j]
        cells[j] = t
        sym = cj.wild_symbols[draw_weighted(cj.wild_symbol_cum, rng)]
        grid[cells[i] // cols, cells[i] % cols] = sym
        golden += cm.wild_mult[sym]
    return k, golden


@inline_kernel
def jar_mask(cj, counts):
    """The modifier mask the candies in counts (by symbol) trigger, 0 for none."""
    y = counts[cj.candy_symbols[0]]
    r = counts[cj.candy_symbols[1]]
    g = counts[cj.candy_symbols[2]]
    if y + r + g < cj.trigger_candies:
        return 0
    return (1 if y > 0 else 0) | (2 if r > 0 else 0) | (4 if g > 0 else 0)


@kernel
def base_spin(cm, cj, rng, work, record, pos, initial):
    """The base spin and its jars. Returns a `BaseSpinResult`, its first_mask 0 unless
    `initial`."""
    tape = work.tape
    counts = work.counts
    pos = write_row(tape, pos, record, TapeKind.CLUSTER_SPIN, 0, SPIN_BASE, 0, 0, 0, 0)
    draw_grid(cm, 0, rng, work.grid, work.stops)
    first = 0
    if initial:
        count_symbols(work.grid, counts)
        first = jar_mask(cj, counts)
    pos = write_grid(tape, pos, record, 0, work.grid, 0, 0)
    spin = cascade(cm, 0, cj.base_mult_values, cj.base_mult_cum, rng, work, record, pos)
    win = spin.win
    raw = win // spin.multiplier
    capped = False
    if cj.cap > 0 and win >= cj.cap:
        win = cj.cap
        capped = True
    pos = write_row(tape, spin.tape_rows, record, TapeKind.SPIN_WIN, 0, win, win,
                    1 if capped else 0, 0, 0)
    count_symbols(work.grid, counts)
    mask = jar_mask(cj, counts)
    if capped:
        mask = 0  # the cap ends the round
    pos = write_row(tape, pos, record, TapeKind.CANDIES, 0, counts[cj.candy_symbols[0]],
                    counts[cj.candy_symbols[1]], counts[cj.candy_symbols[2]],
                    1 if mask else 0, 0)
    return BaseSpinResult(win=win, mask=mask, tape_rows=pos, guard=spin.guard,
                          multiplier=spin.multiplier, tumbles=spin.tumbles, capped=capped,
                          first_mask=first, raw_win=raw)


@kernel
def free_spins(cm, cj, mask, headroom, base, rng, work, cells, meters, record, pos):
    """A Free Spins round with the modifiers of `mask`, ending when its spins (and super
    spins) are played, or at once when its win reaches `headroom` coins (the cap less the
    base spin's win `base`, which the tape's running totals include), which it then pays.

    Returns a `FreeSpinsResult`."""
    tape = work.tape
    counts = work.counts
    awarded = cj.free_spins
    start = 0
    if mask & 2:
        start = cj.extra_start_values[draw_weighted(cj.extra_start_cum, rng)]
        awarded += start
    pos = write_row(tape, pos, record, TapeKind.TRIGGER, 0, mask, awarded, start, 0, 0)
    free_set = cj.free_sets[(1 if mask & 2 else 0) + (2 if mask & 4 else 0)]
    for j in range(meters.shape[0]):
        meters[j] = 0
    total = 0
    jackpot_win = 0
    played = 0
    supers = 0
    pending = 0
    toward = 0
    extras = 0
    jackpots = 0
    capped = False
    guard = False
    index = 0
    while played < awarded or pending > 0:
        if index >= cj.spin_guard:
            guard = True
            break
        index += 1
        if pending > 0:
            pending -= 1
            supers += 1
            kind = SPIN_SUPER
            rs = cj.super_set
            wilds = True
        else:
            played += 1
            kind = SPIN_FREE
            rs = free_set
            wilds = (mask & 1) != 0
        draw_grid(cm, rs, rng, work.grid, work.stops)
        placed = 0
        golden = 0
        if wilds:
            placed, golden = place_wilds(cm, cj, rng, work.grid, cells)
        pos = write_row(tape, pos, record, TapeKind.CLUSTER_SPIN, index, kind, rs, placed,
                        golden, 0)
        pos = write_grid(tape, pos, record, 0, work.grid, 0, rs)
        mult_values = cj.super_mult_values if kind == SPIN_SUPER else cj.free_mult_values
        mult_cum = cj.super_mult_cum if kind == SPIN_SUPER else cj.free_mult_cum
        spin = cascade(cm, rs, mult_values, mult_cum, rng, work, record, pos)
        pos = spin.tape_rows
        win = spin.win
        multiplier = spin.multiplier
        guard = guard or spin.guard
        count_symbols(work.grid, counts)
        e = counts[cj.extra_symbol]
        if e > 0:
            extras += e
            awarded += e
            toward += e
            new_supers = toward // cj.extra_per_super
            toward -= new_supers * cj.extra_per_super
            pending += new_supers
            pos = write_row(tape, pos, record, TapeKind.EXTRA, index, e, awarded, toward,
                            new_supers, 0)
        for j in range(meters.shape[0]):
            meters[j] += counts[cj.jackpot_symbols[j]]
            if meters[j] >= cj.jackpot_collect[j]:
                meters[j] = 0
                times = multiplier * (golden if golden > 0 else 1)
                jw = cj.jackpot_pays[j] * times
                win += jw
                jackpot_win += jw
                jackpots += 1
                pos = write_row(tape, pos, record, TapeKind.JACKPOT, index, j,
                                cj.jackpot_pays[j], times, jw, 0)
        total += win
        if total >= headroom:
            # the spin shows what it added up to the cap, so the spins add up to the round
            win -= total - headroom
            total = headroom
            capped = True
        pos = write_row(tape, pos, record, TapeKind.SPIN_WIN, index, win, base + total,
                        1 if capped else 0, 0, 0)
        if capped:
            break
    return FreeSpinsResult(win=total, jackpot_win=jackpot_win, played=played, supers=supers,
                           extras=extras, jackpots=jackpots, capped=capped, guard=guard,
                           tape_rows=pos)


@kernel
def play_round(cm, cj, rng, work, cells, meters, record):
    """One paid round. Returns a `CandyRoundResult`."""
    first = base_spin(cm, cj, rng, work, record, np.int64(0), np.bool_(False))  # jit.py
    base = first.win
    pos = first.tape_rows
    capped = first.capped
    guard = first.guard
    free = 0
    jackpot_win = 0
    played = 0
    supers = 0
    extras = 0
    jackpots = 0
    if first.mask > 0:
        headroom = cj.cap - base if cj.cap > 0 else np.int64(2**62)
        spins = free_spins(cm, cj, first.mask, headroom, base, rng, work, cells, meters, record,
                           pos)
        free = spins.win
        jackpot_win = spins.jackpot_win
        played = spins.played
        supers = spins.supers
        extras = spins.extras
        jackpots = spins.jackpots
        capped = spins.capped
        guard = guard or spins.guard
        pos = spins.tape_rows
    return CandyRoundResult(total=base + free, base_win=base, free_win=free,
                            jackpot_win=jackpot_win, mask=first.mask, played=played,
                            supers=supers, extras=extras, jackpots=jackpots, capped=capped,
                            guard=guard, tape_rows=pos)


@kernel
def simulate_rounds(cm, cj, rng, n_rounds, band_edges, counters, bands, square_sum, work,
                    cells, meters):
    """Whole rounds into counters indexed by `lines.Sim` (base cluster wins as its line wins,
    Free Spins as its feature, super spins as its bonus spins), win bands and the 128-bit
    square sum (as lines.play_rounds, so one Stats serves every game)."""
    for _ in range(n_rounds):
        r = play_round(cm, cj, rng, work, cells, meters, np.bool_(False))  # not a literal: jit.py
        total = r.total
        counters[Sim.ROUNDS] += 1
        counters[Sim.TOTAL_WIN] += total
        if total > 0:
            counters[Sim.HITS] += 1
        counters[Sim.BASE_LINE_WIN] += r.base_win
        counters[Sim.FEATURE_WIN] += r.free_win
        if r.mask > 0:
            counters[Sim.FEATURE_TRIGGERS] += 1
        counters[Sim.FEATURE_SPINS] += r.played
        counters[Sim.RETRIGGERS] += r.extras
        counters[Sim.JACKPOT_HITS] += r.jackpots
        if r.jackpots > 0:
            counters[Sim.JACKPOT_ROUNDS] += 1
        counters[Sim.MAX_WIN] = max(counters[Sim.MAX_WIN], total)
        if r.guard:
            counters[Sim.GUARD_HITS] += 1
        if r.supers > 0:
            counters[Sim.BONUS_TRIGGERS] += 1
        counters[Sim.BONUS_SPINS] += r.supers
        if r.capped:
            counters[Sim.CAP_HITS] += 1
        add_win(bands, band_edges, square_sum, total)


@kernel
def simulate_base_spins(cm, cj, rng, n_spins, threshold, big, by_pair, raw_hist, extra, work):
    """The base stratum: base spins alone.

    by_pair (N_MASKS, N_MASKS, len(BaseField)) int64, by (mask of the drawn grid's candies,
    mask after the tumbles), indexed by `BaseField` (`threshold`: its WIN_ABOVE_THRESHOLD in
    coins; only for CAP_SENSITIVE spins can the multiplier change the mask, by ending the
    round). raw_hist (cap + 1,) int64: spins by raw win, raw wins >= cap counted at cap.
    extra (len(BaseExtra),) int64, indexed by `BaseExtra` (BIG: wins >= `big` coins)."""
    top = raw_hist.shape[0] - 1
    v_max = 1
    for i in range(cj.base_mult_values.shape[0]):
        v_max = max(v_max, cj.base_mult_values[i])
    for _ in range(n_spins):
        spin = base_spin(cm, cj, rng, work, np.bool_(False), np.int64(0), np.bool_(True))  # jit.py
        win = spin.win
        raw = spin.raw_win
        row = by_pair[spin.first_mask, spin.mask]
        row[BaseField.SPINS] += 1
        row[BaseField.RAW_WIN] += raw
        if win > threshold:
            row[BaseField.WIN_ABOVE_THRESHOLD] += win
        if raw * v_max >= top:
            row[BaseField.CAP_SENSITIVE] += 1
        raw_hist[min(raw, top)] += 1
        extra[BaseExtra.MAX_WIN] = max(extra[BaseExtra.MAX_WIN], win)
        if win > 0:
            extra[BaseExtra.HITS] += 1
        extra[BaseExtra.TUMBLES] += spin.tumbles
        if spin.multiplier > 1:
            extra[BaseExtra.MULTIPLIED] += 1
        if spin.guard:
            extra[BaseExtra.GUARD_HITS] += 1
        if win >= big:
            extra[BaseExtra.BIG] += 1
        if spin.capped:
            extra[BaseExtra.CAPPED] += 1


@kernel
def simulate_free_rounds(cm, cj, mask, rng, n_rounds, near, big, counters, squares, work, cells,
                         meters):
    """A Free Spins stratum: rounds with modifier mask `mask` played from their trigger with
    the whole cap as headroom. counters (len(FreeField),) int64 indexed by `FreeField`
    (NEAR_CAP: wins >= `near` coins; BIG: wins >= `big` coins); squares (2,) uint64, the
    128-bit sum of squared wins."""
    for _ in range(n_rounds):
        r = free_spins(cm, cj, mask, cj.cap if cj.cap > 0 else np.int64(2**62), np.int64(0), rng,
                       work, cells, meters, np.bool_(False), np.int64(0))  # not literals: jit.py
        win = r.win
        counters[FreeField.ROUNDS] += 1
        counters[FreeField.WIN] += win
        if r.capped:
            counters[FreeField.CAPPED] += 1
        if win >= near:
            counters[FreeField.NEAR_CAP] += 1
        counters[FreeField.SPINS] += r.played
        counters[FreeField.SUPER_SPINS] += r.supers
        counters[FreeField.JACKPOT_WIN] += r.jackpot_win
        counters[FreeField.JACKPOTS] += r.jackpots
        counters[FreeField.MAX_WIN] = max(counters[FreeField.MAX_WIN], win)
        if r.guard:
            counters[FreeField.GUARD_HITS] += 1
        if win >= big:
            counters[FreeField.BIG] += 1
        add_square(squares, win)
