"""The Candy Jar Clusters round, compiled: base spin, jars, Free Spins with modifiers, super
spins, fixed jackpots and the 10,000x cap.

`base_spin`, `free_spins` and `play_round` are compiled once each and called (not inlined)
by every simulator: inlining the whole round into each of four top-level kernels made a cold
compile take minutes; the call costs a few percent at most (a round is microseconds). Live play, replay and every simulation (whole
rounds and the stratified estimate's base-spin and Free-Spins strata) run these functions.

Amounts are coins at one coin per coin of the stake (the stake is `coins` coins, 20 here);
the caller multiplies by the coin value. Every draw goes through the cluster engine's
`draw_below`/`draw_weighted`, in the order the code below makes them.

Tape rows (besides the cluster engine's TAPE_GRID / TAPE_CLUSTER / TAPE_MULTIPLIER and
cluster_round's TAPE_SPIN / TAPE_SPIN_WIN), as [kind, spin, a, b, c, d, e] where spin 0 is
the base spin and 1, 2, ... the free and super spins in play order:
  TAPE_CANDIES  candies collected into the wild, free-spins and jackpots jars, triggered (0/1)
  TAPE_TRIGGER  modifier mask (1 wild, 2 free spins, 4 jackpots), spins awarded, extra start
  TAPE_EXTRA    EXTRA symbols collected this spin, spins now awarded, toward the next super
                spin, super spins awarded now
  TAPE_JACKPOT  jackpot index (0 MINI .. 4 GRAND), its pay (coins), multiplier, win
A spin's TAPE_SPIN_WIN win is what it added to the round: the spin that reaches the cap
shows only the part up to the cap (its clusters and jackpots show what they paid).
"""

from __future__ import annotations

import numpy as np

from reelforge.engine.cluster_round import TAPE_SPIN, TAPE_SPIN_WIN
from reelforge.engine.clusters import (
    cascade,
    draw_grid,
    draw_weighted,
    inline_kernel,
    kernel,
    write_grid,
    write_row,
)
from reelforge.engine.lines import add_square, add_win
from reelforge.engine.rng import draw_below

TAPE_CANDIES = 21
TAPE_TRIGGER = 22
TAPE_EXTRA = 23
TAPE_JACKPOT = 24

SPIN_BASE, SPIN_FREE, SPIN_SUPER = 0, 1, 2
N_MASKS = 8  # modifier masks 0..7; 0 = no Free Spins

# Base stratum counters (`simulate_base_spins`), per (drawn-grid mask, final mask).
BASE_FIELDS = ("spins", "raw_win", "win_above_threshold", "cap_sensitive")
# Per-round counters of a Free Spins stratum (`simulate_free_rounds`).
FREE_FIELDS = ("rounds", "win", "capped", "near_cap", "spins", "super_spins", "jackpot_win",
               "jackpots", "max_win", "guard_hits", "big")
# Base-stratum totals over every spin (`simulate_base_spins`' extra).
BASE_EXTRA = ("max_win", "hits", "tumbles", "multiplied", "guard_hits", "big", "capped")


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
    """The base spin and its jars. Returns (win in coins, capped at the cap; modifier mask,
    0 when Free Spins are not triggered; tape position; tumble guard reached; random
    multiplier; tumbles; cap reached; the mask the drawn grid's candies alone would trigger,
    when `initial`, else 0; the win before the random multiplier and the cap)."""
    tape = work.tape
    counts = work.counts
    pos = write_row(tape, pos, record, TAPE_SPIN, 0, SPIN_BASE, 0, 0, 0, 0)
    draw_grid(cm, 0, rng, work.grid, work.stops)
    first = 0
    if initial:
        count_symbols(work.grid, counts)
        first = jar_mask(cj, counts)
    pos = write_grid(tape, pos, record, 0, work.grid, 0, 0)
    win, tumbles, pos, guard, multiplier = cascade(cm, 0, cj.base_mult_values,
                                                   cj.base_mult_cum, rng, work, record, pos)
    raw = win // multiplier
    capped = False
    if cj.cap > 0 and win >= cj.cap:
        win = cj.cap
        capped = True
    pos = write_row(tape, pos, record, TAPE_SPIN_WIN, 0, win, win, 1 if capped else 0, 0, 0)
    count_symbols(work.grid, counts)
    mask = jar_mask(cj, counts)
    if capped:
        mask = 0  # the cap ends the round
    pos = write_row(tape, pos, record, TAPE_CANDIES, 0, counts[cj.candy_symbols[0]],
                    counts[cj.candy_symbols[1]], counts[cj.candy_symbols[2]],
                    1 if mask else 0, 0)
    return win, mask, pos, guard, multiplier, tumbles, capped, first, raw


@kernel
def free_spins(cm, cj, mask, headroom, base, rng, work, cells, meters, record, pos):
    """A Free Spins round with the modifiers of `mask`, ending when its spins (and super
    spins) are played, or at once when its win reaches `headroom` coins (the cap less the
    base spin's win `base`, which the tape's running totals include), which it then pays.

    Returns (win, at most headroom; jackpot part of it (before the cap); free spins played;
    super spins played; EXTRA symbols collected; jackpots won; capped; guard reached;
    tape position)."""
    tape = work.tape
    counts = work.counts
    awarded = cj.free_spins
    start = 0
    if mask & 2:
        start = cj.extra_start_values[draw_weighted(cj.extra_start_cum, rng)]
        awarded += start
    pos = write_row(tape, pos, record, TAPE_TRIGGER, 0, mask, awarded, start, 0, 0)
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
        pos = write_row(tape, pos, record, TAPE_SPIN, index, kind, rs, placed, golden, 0)
        pos = write_grid(tape, pos, record, 0, work.grid, 0, rs)
        mult_values = cj.super_mult_values if kind == SPIN_SUPER else cj.free_mult_values
        mult_cum = cj.super_mult_cum if kind == SPIN_SUPER else cj.free_mult_cum
        win, _t, pos, spin_guard, multiplier = cascade(cm, rs, mult_values, mult_cum, rng, work,
                                                       record, pos)
        guard = guard or spin_guard
        count_symbols(work.grid, counts)
        e = counts[cj.extra_symbol]
        if e > 0:
            extras += e
            awarded += e
            toward += e
            new_supers = toward // cj.extra_per_super
            toward -= new_supers * cj.extra_per_super
            pending += new_supers
            pos = write_row(tape, pos, record, TAPE_EXTRA, index, e, awarded, toward,
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
                pos = write_row(tape, pos, record, TAPE_JACKPOT, index, j, cj.jackpot_pays[j],
                                times, jw, 0)
        total += win
        if total >= headroom:
            # the spin shows what it added up to the cap, so the spins add up to the round
            win -= total - headroom
            total = headroom
            capped = True
        pos = write_row(tape, pos, record, TAPE_SPIN_WIN, index, win, base + total,
                        1 if capped else 0, 0, 0)
        if capped:
            break
    return total, jackpot_win, played, supers, extras, jackpots, capped, guard, pos


@kernel
def play_round(cm, cj, rng, work, cells, meters, record):
    """One paid round. Returns (total, base win, free-spins win (total - base), jackpot win,
    modifier mask, free spins, super spins, EXTRA symbols, jackpots won, capped, guard,
    tape rows used). Amounts in coins at a coin value of 1."""
    base, mask, pos, guard, _m, _t, capped, _f, _r = base_spin(cm, cj, rng, work, record, 0,
                                                               False)
    free = 0
    jackpot_win = 0
    played = 0
    supers = 0
    extras = 0
    jackpots = 0
    if mask > 0:
        headroom = cj.cap - base if cj.cap > 0 else np.int64(2**62)
        free, jackpot_win, played, supers, extras, jackpots, capped, fguard, pos = free_spins(
            cm, cj, mask, headroom, base, rng, work, cells, meters, record, pos)
        guard = guard or fguard
    return (base + free, base, free, jackpot_win, mask, played, supers, extras, jackpots,
            capped, guard, pos)


@kernel
def simulate_rounds(cm, cj, rng, n_rounds, band_edges, counters, bands, square_sum, work,
                    cells, meters):
    """Whole rounds into counters in lines.SIM_FIELDS order (base cluster wins as its line
    wins, Free Spins as its feature, super spins as its bonus spins), win bands and the 128-bit square sum
    (as lines.simulate_kernel, so one Stats serves every game)."""
    for _ in range(n_rounds):
        (total, base, free, _jw, mask, played, supers, extras, jackpots, capped,
         guard) = play_round(cm, cj, rng, work, cells, meters, False)[:11]
        counters[0] += 1
        counters[1] += total
        if total > 0:
            counters[2] += 1
        counters[3] += base
        counters[5] += free
        if mask > 0:
            counters[6] += 1
        counters[7] += played
        counters[8] += extras
        counters[9] += jackpots
        if jackpots > 0:
            counters[10] += 1
        if total > counters[11]:
            counters[11] = total
        if guard:
            counters[12] += 1
        if supers > 0:
            counters[15] += 1
        counters[16] += supers
        if capped:
            counters[17] += 1
        add_win(bands, band_edges, square_sum, total)


@kernel
def simulate_base_spins(cm, cj, rng, n_spins, threshold, big, by_pair, raw_hist, extra, work):
    """The base stratum: base spins alone.

    by_pair (N_MASKS, N_MASKS, len(BASE_FIELDS)) int64, by (mask of the drawn grid's candies,
    mask after the tumbles): spins; sum of the wins before the random multiplier ("raw");
    sum of the wins above `threshold` coins; spins whose raw win times the largest multiplier
    reaches the cap (only there can the multiplier change the mask, by ending the round).
    raw_hist (cap + 1,) int64: spins by raw win, raw wins >= cap counted at cap.
    extra (len(BASE_EXTRA),) int64: max win, hits, tumbles, spins with a random multiplier,
    guard hits, wins >= `big` coins, wins cut to the cap."""
    top = raw_hist.shape[0] - 1
    v_max = 1
    for i in range(cj.base_mult_values.shape[0]):
        v_max = max(v_max, cj.base_mult_values[i])
    for _ in range(n_spins):
        win, mask, _pos, guard, multiplier, tumbles, capped, first, raw = base_spin(
            cm, cj, rng, work, False, 0, True)
        row = by_pair[first, mask]
        row[0] += 1
        row[1] += raw
        if win > threshold:
            row[2] += win
        if raw * v_max >= top:
            row[3] += 1
        raw_hist[min(raw, top)] += 1
        if win > extra[0]:
            extra[0] = win
        if win > 0:
            extra[1] += 1
        extra[2] += tumbles
        if multiplier > 1:
            extra[3] += 1
        if guard:
            extra[4] += 1
        if win >= big:
            extra[5] += 1
        if capped:
            extra[6] += 1


@kernel
def simulate_free_rounds(cm, cj, mask, rng, n_rounds, near, big, counters, squares, work, cells,
                         meters):
    """A Free Spins stratum: rounds with modifier mask `mask` played from their trigger with
    the whole cap as headroom. counters in FREE_FIELDS order (near_cap: wins >= `near`
    coins; big: wins >= `big` coins); squares (2,) uint64, the 128-bit sum of squared wins."""
    for _ in range(n_rounds):
        win, jw, played, supers, _e, jackpots, capped, guard, _pos = free_spins(
            cm, cj, mask, cj.cap if cj.cap > 0 else np.int64(2**62), 0, rng, work, cells,
            meters, False, 0)
        counters[0] += 1
        counters[1] += win
        if capped:
            counters[2] += 1
        if win >= near:
            counters[3] += 1
        counters[4] += played
        counters[5] += supers
        counters[6] += jw
        counters[7] += jackpots
        if win > counters[8]:
            counters[8] = win
        if guard:
            counters[9] += 1
        if win >= big:
            counters[10] += 1
        add_square(squares, win)
