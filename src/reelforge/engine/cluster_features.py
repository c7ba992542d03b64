"""The round of a standard cluster game with features stated as data (spec/cluster_features.py):
a scatter counted on the grid the tumbles leave, paying free spins by count (retriggers cut at
`max_spins`), and grid multipliers marked by wins, kept through the round's free spins, and
cleared at the start of every round.

A cluster's grid multiplier is the sum of the multipliers on its cells (1 when none carries
one), read before the wins of that tumble mark their cells; a cell in several winning clusters
of a tumble (a shared wild) is marked once. The random multiplier of the spin's reel set, if
any, multiplies the spin's sum as in `clusters.cascade`.

Kernels follow engine/clusters.py: no allocation, no raise, plain Python under
NUMBA_DISABLE_JIT=1; wins in coins at a coin value of 1. Also the strata `analysis.stratified`
samples for these games: whole rounds in one stratum (the free spins carry the grid's marks
from the base spin, so they are not independent of it), which makes the estimate a plain
Monte Carlo mean with its CI.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.cluster_strata import BASE_EXTRA, BaseExtra, BaseField
from reelforge.engine.clusters import (
    draw_grid,
    draw_weighted,
    inline_kernel,
    join,
    kernel,
    multiplier_table,
    popcount,
    record_cluster,
    tumble,
    write_grid,
    write_row,
)
from reelforge.engine.counters import Sim, add_win
from reelforge.engine.tape import TAPE_WIDTH, TapeKind


class FeatureModel(NamedTuple):
    """The compiled `ClusterFeatures` of a game with N = n_rows * n_cols cells.

    scatter: the scatter symbol's index (-1: none); awards, retrigger: (N + 1,) int64, free
        spins by scatters on the final grid (0: none); free_set: the free spins' reel set;
    max_spins: most free spins a round plays (0: no free spins);
    grid_mult: cells carry multipliers; mark_start, mark_growth, mark_max: their rule;
    base_values, base_cum, free_values, free_cum: the random multiplier (values, cumulative
        weights) int64 of the base and free reel sets;
    cap: a round's cap in coins (0: none).
    """

    scatter: int
    awards: np.ndarray
    retrigger: np.ndarray
    free_set: int
    max_spins: int
    grid_mult: bool
    mark_start: int
    mark_growth: int
    mark_max: int
    base_values: np.ndarray
    base_cum: np.ndarray
    free_values: np.ndarray
    free_cum: np.ndarray
    cap: int


class FeatureBuffers(NamedTuple):
    """marks: (n_rows, n_cols) int64, each cell's mark (0 none, 1 won once, else its
    multiplier); applied: (N,) int64, the grid multiplier of each cluster last found."""

    marks: np.ndarray
    applied: np.ndarray


class FeatureSpin(NamedTuple):
    win: int  # coins: clusters (wild and grid multipliers applied) times the random multiplier
    tumbles: int
    tape_rows: int
    guard: bool
    multiplier: int


class FeatureRound(NamedTuple):
    """A round (`play_feature_round`): coins at a coin value of 1."""

    total: int  # capped
    base_win: int
    free_win: int
    capped: bool
    guard: bool
    triggered: bool
    played: int  # free spins played
    retriggers: int
    tape_rows: int


def by_count(pairs, cells) -> np.ndarray:
    """(cells + 1,) int64: the spins of the largest listed count at or below each count."""
    out = np.zeros(cells + 1, dtype=np.int64)
    for count, spins in pairs:
        if count <= cells:
            out[count:] = spins
    return out


def compile_features(spec, cap: int) -> FeatureModel:
    """The FeatureModel of a spec whose `features` are `ClusterFeatures`."""
    f = spec.features
    cells = spec.rows * spec.cols
    names = [rs.name for rs in spec.reel_sets]
    table = {name: (v, w) for name, v, w in spec.random_multipliers}
    base = multiplier_table(*table.get(names[0], ((1,), (1,))))
    none = np.zeros(cells + 1, dtype=np.int64)
    if f.free_spins is None:
        scatter, awards, retrigger, free_set, max_spins, free = -1, none, none, 0, 0, base
    else:
        fs = f.free_spins
        scatter = list(spec.symbol_ids).index(fs.scatter)
        awards, retrigger = by_count(fs.awards, cells), by_count(fs.retrigger, cells)
        free_set, max_spins = names.index(fs.reel_set), fs.max_spins
        free = multiplier_table(*table.get(fs.reel_set, ((1,), (1,))))
    gm = f.grid_multipliers
    return FeatureModel(scatter, awards, retrigger, free_set, max_spins, gm is not None,
                        0 if gm is None else gm.start, 1 if gm is None else gm.growth,
                        0 if gm is None else gm.max, base[0], base[1], free[0], free[1], cap)


def new_feature_buffers(cm) -> FeatureBuffers:
    n = cm.n_rows * cm.n_cols
    return FeatureBuffers(np.zeros((cm.n_rows, cm.n_cols), dtype=np.int64),
                          np.ones(n, dtype=np.int64))


@inline_kernel
def find_marked_bits(cm, fm, grid, marks, work, applied):
    """`find_marked_clusters` on bitboards (`clusters.find_clusters_bits`' layout: cell (r, c)
    is bit r * (cols + 1) + c); a cluster's grid multiplier sums the marks >= 2 under its
    mask."""
    rows = cm.n_rows
    cols = cm.n_cols
    width = np.uint64(cols + 1)
    one = np.uint64(1)
    zero = np.uint64(0)
    masks = work.masks
    for s in range(masks.shape[0]):
        masks[s] = zero
    multiplied = zero
    for r in range(rows):
        for c in range(cols):
            bit = one << np.uint64(r * (cols + 1) + c)
            masks[grid[r, c]] |= bit
            if fm.grid_mult:
                multiplied |= bit * np.uint64(marks[r, c] >= 2)  # no branch per cell
    n_symbols = masks.shape[0]
    wild_cells = zero
    for w in range(n_symbols):
        if cm.is_wild[w]:
            wild_cells |= masks[w]
    n_wild = popcount(wild_cells)
    won = zero
    found = 0
    total = 0
    for symbol in range(n_symbols):
        todo = masks[symbol]
        if not cm.can_win[symbol] or todo == zero or popcount(todo) + n_wild < cm.min_size:
            continue
        helpers = zero
        for w in range(n_symbols):
            if cm.is_wild[w] and cm.substitutes[w, symbol]:
                helpers |= masks[w]
        area = todo | helpers
        if cm.min_size >= 2:
            # a cell with no neighbour in the area is a cluster of one, which never pays:
            # not searched (the clusters found and their order are unchanged)
            todo &= (area << one) | (area >> one) | (area << width) | (area >> width)
        while todo != zero:
            x = todo & (~todo + one)
            while True:
                y = (x | (x << one) | (x >> one) | (x << width) | (x >> width)) & area
                if y == x:
                    break
                x = y
            todo &= ~x
            multiplier = 0
            if cm.has_wild_mult:
                for w in range(n_symbols):
                    if cm.wild_mult[w] > 0 and cm.substitutes[w, symbol]:
                        multiplier += cm.wild_mult[w] * popcount(x & masks[w])
            pay = record_cluster(cm, work.clusters, found, symbol, popcount(x),
                                 popcount(x & helpers), multiplier)
            if pay > 0:
                on_grid = 0
                under = x & multiplied
                while under != zero:
                    low = under & (~under + one)
                    under &= ~low
                    at = popcount(low - one)  # the bit's index
                    on_grid += marks[at // (cols + 1), at % (cols + 1)]
                on_grid = max(on_grid, 1)
                pay *= on_grid
                work.clusters[found, 3] = pay
                applied[found] = on_grid
                found += 1
                total += pay
                won |= x
    if found > 0:  # nothing reads the winners of a find that wins nothing (the spin ends)
        for r in range(rows):
            for c in range(cols):
                work.winners[r, c] = (won >> np.uint64(r * (cols + 1) + c)) & one != zero
    return found, total


@inline_kernel
def find_marked_clusters(cm, fm, grid, marks, work, applied):
    """For a grid too large for bitboards: `clusters.find_clusters` by flood fill (the same clusters, in the same order), each
    winning cluster's pay times its grid multiplier: the sum of its cells' multipliers (marks
    >= 2), 1 when none. applied[i] = the grid multiplier of cluster i. Returns (clusters,
    their total pay)."""
    rows = cm.n_rows
    cols = cm.n_cols
    counts = work.counts
    seen = work.seen
    queue = work.queue
    winners = work.winners
    for s in range(counts.shape[0]):
        counts[s] = 0
    wild_cells = 0
    for r in range(rows):
        for c in range(cols):
            s = grid[r, c]
            counts[s] += 1
            if cm.is_wild[s]:
                wild_cells += 1
            seen[r, c] = 0
            winners[r, c] = False
    found = 0
    total = 0
    stamp = 0
    for symbol in range(counts.shape[0]):
        if not cm.can_win[symbol] or counts[symbol] + wild_cells < cm.min_size:
            continue
        for r0 in range(rows):
            for c0 in range(cols):
                if grid[r0, c0] != symbol or seen[r0, c0] != 0:
                    continue
                stamp += 1
                seen[r0, c0] = stamp
                queue[0, 0] = r0
                queue[0, 1] = c0
                head = 0
                tail = 1
                wilds = 0
                multiplier = 0
                while head < tail:
                    r = queue[head, 0]
                    c = queue[head, 1]
                    head += 1
                    if cm.is_wild[grid[r, c]]:
                        wilds += 1
                        multiplier += cm.wild_mult[grid[r, c]]
                    if r > 0:
                        tail = join(cm, grid, seen, queue, tail, r - 1, c, symbol, stamp)
                    if r < rows - 1:
                        tail = join(cm, grid, seen, queue, tail, r + 1, c, symbol, stamp)
                    if c > 0:
                        tail = join(cm, grid, seen, queue, tail, r, c - 1, symbol, stamp)
                    if c < cols - 1:
                        tail = join(cm, grid, seen, queue, tail, r, c + 1, symbol, stamp)
                pay = record_cluster(cm, work.clusters, found, symbol, tail, wilds, multiplier)
                if pay > 0:
                    on_grid = 0
                    if fm.grid_mult:
                        for j in range(tail):
                            m = marks[queue[j, 0], queue[j, 1]]
                            if m >= 2:
                                on_grid += m
                    on_grid = max(on_grid, 1)
                    pay *= on_grid
                    work.clusters[found, 3] = pay
                    applied[found] = on_grid
                    found += 1
                    total += pay
                    for j in range(tail):
                        winners[queue[j, 0], queue[j, 1]] = True
    return found, total


@inline_kernel
def mark_winners(fm, marks, winners):
    """A winning cell's first win marks it (1), its second sets fm.mark_start, each later
    multiplies by fm.mark_growth up to fm.mark_max."""
    for r in range(marks.shape[0]):
        for c in range(marks.shape[1]):
            if winners[r, c]:
                m = marks[r, c]
                if m == 0:
                    marks[r, c] = 1
                elif m == 1:
                    marks[r, c] = fm.mark_start
                else:
                    marks[r, c] = min(m * fm.mark_growth, fm.mark_max)


@inline_kernel
def write_marks(tape, pos, record, tumble_index, marks):
    """Append a MARKS row (the marks row-major from column TAPE_WIDTH); the next position."""
    if record and pos < tape.shape[0]:
        write_row(tape, pos, record, TapeKind.MARKS, tumble_index, 0, 0, 0, 0, 0)
        cols = marks.shape[1]
        for r in range(marks.shape[0]):
            for c in range(cols):
                tape[pos, TAPE_WIDTH + r * cols + c] = marks[r, c]
    return pos + 1


@inline_kernel
def feature_cascade(cm, fm, rs, mult_values, mult_cum, rng, work, fb, record, pos):
    """`clusters.cascade` with grid multipliers: find -> pay -> mark -> tumble until no
    cluster wins. Tape rows per tumble: CLUSTER (+ CELL_MULTIPLIER) per winning cluster, the
    MULTIPLIER row after the first win, MARKS, then the GRID after the tumble."""
    grid = work.grid
    tape = work.tape
    win = 0
    tumbles = 0
    guard = False
    multiplier = 1
    while True:
        if cm.bitboard:
            found, pay = find_marked_bits(cm, fm, grid, fb.marks, work, fb.applied)
        else:
            found, pay = find_marked_clusters(cm, fm, grid, fb.marks, work, fb.applied)
        if found == 0:
            break
        for i in range(found):
            c = work.clusters[i]
            pos = write_row(tape, pos, record, TapeKind.CLUSTER, tumbles, c[0], c[1], c[2],
                            c[3], c[4])
            if fm.grid_mult:
                pos = write_row(tape, pos, record, TapeKind.CELL_MULTIPLIER, tumbles,
                                fb.applied[i], 0, 0, 0, 0)
        if tumbles == 0 and (mult_cum.shape[0] > 1 or mult_values[0] != 1):
            multiplier = mult_values[0]
            if mult_cum.shape[0] > 1:
                multiplier = mult_values[draw_weighted(mult_cum, rng)]
            pos = write_row(tape, pos, record, TapeKind.MULTIPLIER, tumbles, multiplier, 0, 0,
                            0, 0)
        win += pay
        if fm.grid_mult:
            mark_winners(fm, fb.marks, work.winners)
            pos = write_marks(tape, pos, record, tumbles, fb.marks)
        if tumbles >= cm.tumble_guard:
            guard = True
            break
        refilled = tumble(cm, rs, grid, work.winners, rng, work.stops)
        tumbles += 1
        pos = write_grid(tape, pos, record, tumbles, grid, refilled, rs)
    return FeatureSpin(win=win * multiplier, tumbles=tumbles, tape_rows=pos, guard=guard,
                       multiplier=multiplier)


@inline_kernel
def count_scatters(cm, work, scatter):
    """The scatters on the grid a cascade left: on bitboards, the scatter's board of the
    cascade's last search (it ends on a search of the grid as it stands); else counted."""
    if cm.bitboard:
        return popcount(work.masks[scatter])
    grid = work.grid
    n = 0
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            if grid[r, c] == scatter:
                n += 1
    return n


@kernel
def play_feature_round(cm, fm, rng, work, fb, record):
    """One round: the cells' marks cleared, the base spin (reel set 0), its scatters counted
    on the final grid, then the free spins awarded (reel set fm.free_set), each counting its
    own scatters for retriggers, until none is left, `max_spins` are played or the cap is
    reached. Returns a `FeatureRound`."""
    for r in range(fb.marks.shape[0]):
        for c in range(fb.marks.shape[1]):
            fb.marks[r, c] = 0  # every round starts clean: no mark outlives its round
    cells = cm.n_rows * cm.n_cols
    cap = fm.cap
    pos = write_row(work.tape, 0, record, TapeKind.CLUSTER_SPIN, 0, 0, 0, 0, 0, 0)
    draw_grid(cm, 0, rng, work.grid, work.stops)
    pos = write_grid(work.tape, pos, record, 0, work.grid, 0, 0)
    spin = feature_cascade(cm, fm, 0, fm.base_values, fm.base_cum, rng, work, fb, record, pos)
    pos = spin.tape_rows
    guard = spin.guard
    win = spin.win
    capped = False
    if cap > 0 and win >= cap:
        win = cap
        capped = True
    total = win
    base_win = win
    awarded = 0
    if not capped and fm.max_spins > 0:
        n = count_scatters(cm, work, fm.scatter)
        asked = fm.awards[min(n, cells)]
        if asked > 0:
            awarded = min(asked, fm.max_spins)
            pos = write_row(work.tape, pos, record, TapeKind.SCATTER_AWARD, 0, n, awarded, asked,
                            awarded, 0)
    pos = write_row(work.tape, pos, record, TapeKind.SPIN_WIN, 0, win, total,
                    1 if capped else 0, 0, 0)
    played = 0
    retriggers = 0
    free_win = 0
    rs = fm.free_set
    while played < awarded and not capped:
        played += 1
        pos = write_row(work.tape, pos, record, TapeKind.CLUSTER_SPIN, played, 1, rs, 0, 0, 0)
        draw_grid(cm, rs, rng, work.grid, work.stops)
        pos = write_grid(work.tape, pos, record, 0, work.grid, 0, rs)
        spin = feature_cascade(cm, fm, rs, fm.free_values, fm.free_cum, rng, work, fb, record,
                               pos)
        pos = spin.tape_rows
        if spin.guard:
            guard = True
        win = spin.win
        if cap > 0 and total + win >= cap:
            win = cap - total
            capped = True
        total += win
        free_win += win
        if not capped:
            n = count_scatters(cm, work, fm.scatter)
            asked = fm.retrigger[min(n, cells)]
            if asked > 0:
                added = min(asked, fm.max_spins - awarded)
                awarded += added
                retriggers += 1
                pos = write_row(work.tape, pos, record, TapeKind.SCATTER_AWARD, played, n, added,
                                asked, awarded, 0)
        pos = write_row(work.tape, pos, record, TapeKind.SPIN_WIN, played, win, total,
                        1 if capped else 0, 0, 0)
    return FeatureRound(total=total, base_win=base_win, free_win=free_win, capped=capped,
                        guard=guard, triggered=awarded > 0, played=played,
                        retriggers=retriggers, tape_rows=pos)


@kernel
def simulate_feature_rounds(cm, fm, rng, n_rounds, band_edges, counters, bands, square_sum,
                            work, fb):
    """As games' simulate_rounds: counters indexed by `counters.Sim` (the base spin's win as
    base line win, the free spins' as feature win)."""
    for _ in range(n_rounds):
        r = play_feature_round(cm, fm, rng, work, fb, np.bool_(False))  # not a literal: jit.py
        counters[Sim.ROUNDS] += 1
        counters[Sim.TOTAL_WIN] += r.total
        if r.total > 0:
            counters[Sim.HITS] += 1
        counters[Sim.BASE_LINE_WIN] += r.base_win
        counters[Sim.FEATURE_WIN] += r.free_win
        if r.triggered:
            counters[Sim.FEATURE_TRIGGERS] += 1
        counters[Sim.FEATURE_SPINS] += r.played
        counters[Sim.RETRIGGERS] += r.retriggers
        counters[Sim.MAX_WIN] = max(counters[Sim.MAX_WIN], r.total)
        if r.guard:
            counters[Sim.GUARD_HITS] += 1
        if r.capped:
            counters[Sim.CAP_HITS] += 1
        add_win(bands, band_edges, square_sum, r.total)


@kernel
def round_wins(cm, fm, rng, wins, extra, work, fb):
    """wins[i] = the i-th round's win (coins, capped); extra (len(BaseExtra),) int64 += the
    rounds stopped by the tumble guard."""
    for i in range(wins.shape[0]):
        r = play_feature_round(cm, fm, rng, work, fb, np.bool_(False))  # not a literal: jit.py
        wins[i] = r.total
        if r.guard:
            extra[BaseExtra.GUARD_HITS] += 1


# -- the strata analysis.stratified samples: whole rounds, one stratum ---------------------
def feature_classes(game) -> dict[int, str]:
    return {}


def initial_trigger_probabilities(game) -> dict[int, float]:
    return {}


def base_multiplier(game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """None to average over: the stratum's wins are whole rounds', multipliers applied."""
    return (1,), (1,)


def base_stratum(game, bits, spins, threshold, big) -> dict:
    """`spins` whole rounds in the one class 0, counted as `cluster_strata.base_stratum`
    counts base spins (raw win = the round's win)."""
    from reelforge.engine.clusters import new_buffers

    wins = np.zeros(spins, dtype=np.int64)
    extra = np.zeros(len(BaseExtra), dtype=np.int64)
    round_wins(game.model, game.features, bits, wins, extra, new_buffers(game.model),
               new_feature_buffers(game.model))
    cap = game.cap_coins
    extra[BaseExtra.MAX_WIN] = wins.max(initial=0)
    extra[BaseExtra.HITS] = np.count_nonzero(wins)
    extra[BaseExtra.BIG] = np.count_nonzero(wins >= big)
    extra[BaseExtra.CAPPED] = np.count_nonzero(wins >= cap) if cap else 0
    row = np.zeros(len(BaseField), dtype=np.int64)
    row[BaseField.SPINS] = spins
    row[BaseField.RAW_WIN] = wins.sum()
    row[BaseField.WIN_ABOVE_THRESHOLD] = wins[wins > threshold].sum()
    row[BaseField.CAP_SENSITIVE] = np.count_nonzero(wins >= cap) if cap else 0
    seen, times = np.unique(wins, return_counts=True)
    return {"spins": spins, "by_pair": {(0, 0): [int(x) for x in row]},
            "raw_hist": {int(r): int(t) for r, t in zip(seen, times)},
            **{name: int(v) for name, v in zip(BASE_EXTRA, extra)}}


def feature_stratum(game, mask, bits, rounds, near, big) -> dict:
    raise ValueError(f"{game.id}: whole rounds are one stratum; there is no feature class {mask}")
