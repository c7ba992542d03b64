"""Kernels of the pays-anywhere game (`family = "anywhere"`): grid draw, counting, the tumble,
the spin, the round with its free spins and global multiplier, and its simulation.

The grid is `grid[row, col]`, row 0 on top; every cell is a weighted draw from its column's
integer weights in the spin's reel set (columns left to right, cells top to bottom; every
draw through `rng.draw_below`). A spin repeats count -> pay -> tumble:

* count every symbol on the grid; a symbol pays `pay[s, count]` coins (its count range's
  pay, 0 outside every range). A grid where no symbol pays ends the spin.
* the multiplier symbols on that grid add their values to the global multiplier (at most
  `mult_max`); each paying symbol wins its pay x the global multiplier.
* the global multiplier then grows by `mult_step` (at most `mult_max`), the paying symbols'
  cells and the multiplier symbols' cells are removed, each column's remaining cells fall
  to the bottom in order, and the empty cells on top are drawn afresh (top to bottom,
  columns left to right).

Scatters never pay and never tumble out; their count on the spin's final grid awards free
spins: `award[count]` after the base spin, `retrigger[count]` after a free spin, at most
`max_spins` a round in all. The global multiplier starts every round at `mult_start` and
carries from the base spin through every free spin of that round. A round stops as soon as
its win reaches the cap (`cap` coins), and a spin stops at the tumble guard (`tumble_guard`
grids paid).

Wins are coins at a coin value of 1 (the game scales them). Everything here is `@njit`, also
runs as plain Python (NUMBA_DISABLE_JIT=1), validates nothing and never raises or allocates.
The round writes an event tape when `record` is true (engine/tape.py's ANYWHERE_* kinds, and
GRID, AWARD, SPIN_WIN rows): one int64 row per event, TAPE_WIDTH + rows x cols columns.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.counters import Sim, add_win
from reelforge.engine.jit import inline_kernel, kernel
from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TAPE_WIDTH, TapeKind

TUMBLE_GUARD = 1_000  # grids a spin pays at most (spec.limits.TUMBLE_GUARD, copied)


class AnywhereModel(NamedTuple):
    """Compiled pays-anywhere game. S symbols, K reel sets, H rows, C columns."""

    n_rows: int
    n_cols: int
    weights_cum: np.ndarray  # (K, C, S) int64 cumulative symbol weights per column
    pay: np.ndarray  # (S, H*C + 1) int64 coins for each count of the symbol (0: none)
    mult_value: np.ndarray  # (S,) int64 value a multiplier symbol adds (0: not one)
    scatter: int  # symbol index of the scatter, -1: none
    award: np.ndarray  # (H*C + 1,) int64 free spins for a base spin's final scatter count
    retrigger: np.ndarray  # (H*C + 1,) int64 the same after a free spin
    max_spins: int  # free spins one round plays at most
    free_set: int  # reel set of the free spins (0: the base set)
    mult_start: int
    mult_step: int
    mult_max: int
    cap: int  # coins one round pays at most at a coin value of 1, 0 = no cap
    tumble_guard: int


class AnywhereWork(NamedTuple):
    """Work buffers of one round (`new_work`)."""

    grid: np.ndarray  # (H, C) int16
    counts: np.ndarray  # (S,) int64
    winners: np.ndarray  # (H, C) bool
    tape: np.ndarray  # (rows, TAPE_WIDTH + H*C) int64


class SpinResult(NamedTuple):
    """One spin (`play_spin`): coins won (up to the cap's headroom), the global multiplier
    after it, the scatters on its final grid, the grids it tumbled."""

    win: int
    multiplier: int
    scatters: int
    tumbles: int
    guard: bool
    capped: bool
    tape_rows: int


class RoundResult(NamedTuple):
    """A whole round (`play_anywhere_round`); coins at a coin value of 1, after the cap."""

    total: int
    base_win: int
    free_win: int
    free_spins: int  # free spins played
    retriggers: int
    triggered: bool
    capped: bool
    guard: bool
    multiplier: int  # the global multiplier at the end of the round
    tape_rows: int


def compile_anywhere(spec) -> AnywhereModel:
    """The spec's arrays as the kernels read them."""
    ids = list(spec.symbol_ids)
    n_sym, cells = len(ids), spec.cells
    sets = [rs.name for rs in spec.reel_sets]
    cum = np.zeros((len(sets), spec.cols, n_sym), dtype=np.int64)
    for k, rs in enumerate(spec.reel_sets):
        for sid, per_col in rs.weights:
            cum[k, :, ids.index(sid)] += per_col
    cum = np.cumsum(cum, axis=2)
    pay = np.zeros((n_sym, cells + 1), dtype=np.int64)
    for sid, ranges in spec.pays:
        for r in ranges:
            pay[ids.index(sid), r.low: r.high + 1] = r.coins
    mult_value = np.zeros(n_sym, dtype=np.int64)
    for sid, value in spec.multiplier_symbols:
        mult_value[ids.index(sid)] = value
    return AnywhereModel(
        n_rows=spec.rows, n_cols=spec.cols, weights_cum=cum, pay=pay, mult_value=mult_value,
        scatter=-1 if spec.scatter is None else ids.index(spec.scatter),
        award=award_table(spec.award, cells), retrigger=award_table(spec.retrigger, cells),
        max_spins=spec.max_spins, free_set=sets.index(spec.free_reel_set),
        mult_start=spec.multiplier_start, mult_step=spec.multiplier_per_tumble,
        mult_max=spec.multiplier_max, cap=spec.max_win_x * spec.pay_unit,
        tumble_guard=TUMBLE_GUARD)


def award_table(pairs, cells: int) -> np.ndarray:
    """(cells + 1,) int64: for each scatter count, the award of the largest key at or below."""
    out = np.zeros(cells + 1, dtype=np.int64)
    for count, spins in sorted(pairs):
        out[count:] = spins
    return out


def new_work(model: AnywhereModel, tape_rows: int = 1) -> AnywhereWork:
    h, c = model.n_rows, model.n_cols
    return AnywhereWork(grid=np.zeros((h, c), dtype=np.int16),
                        counts=np.zeros(model.pay.shape[0], dtype=np.int64),
                        winners=np.zeros((h, c), dtype=np.bool_),
                        tape=np.zeros((max(tape_rows, 1), TAPE_WIDTH + h * c), dtype=np.int64))


@inline_kernel
def draw_cell(model, rs, col, rng):
    """One symbol for a cell of column `col`: index i with probability weight_i / total."""
    cum = model.weights_cum[rs, col]
    t = draw_below(rng, cum[cum.shape[0] - 1])
    i = 0
    while cum[i] <= t:
        i += 1
    return i


@inline_kernel
def draw_grid(model, rs, rng, grid):
    """Fill grid (H, C) int16 from reel set rs: columns left to right, cells top to bottom."""
    for c in range(model.n_cols):
        for h in range(model.n_rows):
            grid[h, c] = draw_cell(model, rs, c, rng)


@inline_kernel
def count_symbols(grid, counts):
    """counts (S,) int64 = how many cells of grid (H, C) show each symbol."""
    for s in range(counts.shape[0]):
        counts[s] = 0
    for h in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            counts[grid[h, c]] += 1


@inline_kernel
def tumble(model, rs, grid, winners, rng):
    """Remove the winners (H, C) bool, let each column's remaining cells fall to the bottom
    in order and draw the empty cells on top afresh from reel set rs (top to bottom, columns
    left to right). Returns the cells refilled."""
    rows = model.n_rows
    refilled = 0
    for c in range(model.n_cols):
        write = rows - 1
        for r in range(rows - 1, -1, -1):
            if not winners[r, c]:
                if write != r:
                    grid[write, c] = grid[r, c]
                write -= 1
        for h in range(write + 1):
            grid[h, c] = draw_cell(model, rs, c, rng)
        refilled += write + 1
    return refilled


@inline_kernel
def write_row(tape, pos, record, kind, spin, a, b, c, d, e):
    """Append a [kind, spin, a, b, c, d, e, 0...] row if recording and there is room;
    returns the next position."""
    if record and pos < tape.shape[0]:
        tape[pos, 0] = kind
        tape[pos, 1] = spin
        tape[pos, 2] = a
        tape[pos, 3] = b
        tape[pos, 4] = c
        tape[pos, 5] = d
        tape[pos, 6] = e
        for j in range(TAPE_WIDTH, tape.shape[1]):
            tape[pos, j] = 0
    return pos + 1


@inline_kernel
def write_grid(tape, pos, record, tumble_index, grid, refilled, rs):
    """Append a GRID row (the grid row-major from column TAPE_WIDTH)."""
    if record and pos < tape.shape[0]:
        write_row(tape, pos, record, TapeKind.GRID, tumble_index, refilled, rs, 0, 0, 0)
        cols = grid.shape[1]
        for r in range(grid.shape[0]):
            for c in range(cols):
                tape[pos, TAPE_WIDTH + r * cols + c] = grid[r, c]
    return pos + 1


@inline_kernel
def play_spin(model, rs, kind, index, multiplier, headroom, rng, work, record, pos):
    """One spin on reel set rs with the global multiplier at `multiplier`, paying at most
    `headroom` coins before the round's cap (0: no cap). Returns a `SpinResult`."""
    grid, counts, winners, tape = work.grid, work.counts, work.winners, work.tape
    pos = write_row(tape, pos, record, TapeKind.ANYWHERE_SPIN, index, kind, rs, multiplier, 0, 0)
    draw_grid(model, rs, rng, grid)
    pos = write_grid(tape, pos, record, 0, grid, 0, rs)
    n_sym = counts.shape[0]
    win = 0
    tumbles = 0
    guard = False
    capped = False
    while True:
        count_symbols(grid, counts)
        pays = False
        for s in range(n_sym):
            if model.pay[s, counts[s]] > 0:
                pays = True
                break
        if not pays:
            break
        if tumbles > model.tumble_guard:
            guard = True
            break
        for s in range(n_sym):
            if model.mult_value[s] > 0:
                multiplier += counts[s] * model.mult_value[s]
        multiplier = min(multiplier, model.mult_max)
        for s in range(n_sym):
            coins = model.pay[s, counts[s]]
            if coins > 0:
                won = coins * multiplier
                win += won
                pos = write_row(tape, pos, record, TapeKind.ANYWHERE, tumbles, s, counts[s],
                                coins, multiplier, won)
        multiplier += model.mult_step
        multiplier = min(multiplier, model.mult_max)
        if headroom > 0 and win >= headroom:
            win = headroom
            capped = True
            break
        for h in range(model.n_rows):
            for c in range(model.n_cols):
                s = grid[h, c]
                winners[h, c] = model.pay[s, counts[s]] > 0 or model.mult_value[s] > 0
        refilled = tumble(model, rs, grid, winners, rng)
        tumbles += 1
        pos = write_grid(tape, pos, record, tumbles, grid, refilled, rs)
    scatters = counts[model.scatter] if model.scatter >= 0 else 0
    return SpinResult(win=win, multiplier=multiplier, scatters=scatters, tumbles=tumbles,
                      guard=guard, capped=capped, tape_rows=pos)


@inline_kernel
def play_anywhere_round(model, rng, work, record):
    """One round: the base spin, then its free spins, the global multiplier carried from
    spin to spin. Returns a `RoundResult`."""
    cap = model.cap
    multiplier = model.mult_start
    spin = play_spin(model, 0, 0, 0, multiplier, cap, rng, work, record, 0)
    total = spin.win
    pos = write_row(work.tape, spin.tape_rows, record, TapeKind.SPIN_WIN, 0, spin.win, total,
                    1 if spin.capped else 0, spin.multiplier, 0)
    multiplier = spin.multiplier
    capped, guard = spin.capped, spin.guard
    base_win = total
    free_win = 0
    played = 0
    retriggers = 0
    awarded = 0
    triggered = False
    if not capped and not guard and model.scatter >= 0:
        asked = model.award[spin.scatters]
        if asked > 0:
            triggered = True
            awarded = min(asked, model.max_spins)
            pos = write_row(work.tape, pos, record, TapeKind.AWARD, 0, awarded, asked, awarded,
                            spin.scatters, 0)
    left = awarded
    while left > 0 and not capped and not guard:
        played += 1
        left -= 1
        spin = play_spin(model, model.free_set, 1, played, multiplier, 0 if cap == 0 else cap - total,
                         rng, work, record, pos)
        total += spin.win
        free_win += spin.win
        multiplier = spin.multiplier
        capped, guard = spin.capped, spin.guard
        pos = write_row(work.tape, spin.tape_rows, record, TapeKind.SPIN_WIN, played, spin.win,
                        total, 1 if capped else 0, multiplier, 0)
        asked = model.retrigger[spin.scatters]
        if asked > 0 and not capped and not guard:
            more = min(asked, model.max_spins - awarded)
            retriggers += 1
            awarded += more
            left += more
            pos = write_row(work.tape, pos, record, TapeKind.AWARD, played, more, asked, awarded,
                            spin.scatters, 0)
    return RoundResult(total=total, base_win=base_win, free_win=free_win, free_spins=played,
                       retriggers=retriggers, triggered=triggered, capped=capped, guard=guard,
                       multiplier=multiplier, tape_rows=pos)


@kernel
def simulate_anywhere(model, rng, n_rounds, band_edges, counters, bands, square_sum, work):
    """Play n_rounds and add their statistics: counters (len(Sim),) int64 indexed by
    `lines.Sim` (the base spin's win as the base line win, the free spins' as the feature
    win), bands and square_sum as `lines.play_rounds`'s; coins at a coin value of 1.
    work: `new_work` buffers (the tape is not written)."""
    for _ in range(n_rounds):
        result = play_anywhere_round(model, rng, work, False)
        win = result.total
        counters[Sim.ROUNDS] += 1
        counters[Sim.TOTAL_WIN] += win
        if win > 0:
            counters[Sim.HITS] += 1
        counters[Sim.BASE_LINE_WIN] += result.base_win
        counters[Sim.FEATURE_WIN] += result.free_win
        if result.triggered:
            counters[Sim.FEATURE_TRIGGERS] += 1
        counters[Sim.FEATURE_SPINS] += result.free_spins
        counters[Sim.RETRIGGERS] += result.retriggers
        counters[Sim.MAX_WIN] = max(counters[Sim.MAX_WIN], win)
        if result.guard:
            counters[Sim.GUARD_HITS] += 1
        if result.capped:
            counters[Sim.CAP_HITS] += 1
        add_win(bands, band_edges, square_sum, win)


@kernel
def sample_drawn_grids(model, rs, rng, n_grids, grid, counts, totals):
    """Draw n_grids grids of reel set rs (as a spin draws its first) and add up, in totals
    (S + 1, H*C + 1) int64, how often each symbol shows each count (rows 0..S-1), and in
    row S column 0 the coins those grids pay before any multiplier: what the exact drawn-
    grid figures (analysis/anywhere_figures.py) are checked against."""
    n_sym = counts.shape[0]
    for _ in range(n_grids):
        draw_grid(model, rs, rng, grid)
        count_symbols(grid, counts)
        for s in range(n_sym):
            totals[s, counts[s]] += 1
            totals[n_sym, 0] += model.pay[s, counts[s]]


def warmup(model: AnywhereModel) -> None:
    """Compile (or load from cache) the round and its simulation."""
    bits = np.random.PCG64(0)
    work = new_work(model, 64)
    play_anywhere_round(model, bits, work, True)
    simulate_anywhere(model, bits, 1, np.zeros(1, dtype=np.int64),
                      np.zeros(len(Sim), dtype=np.int64), np.zeros(2, dtype=np.int64),
                      np.zeros(2, dtype=np.uint64), work)
