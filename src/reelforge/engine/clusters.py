"""Kernels of the cluster game: grid draw, cluster search, the tumble, the whole paid spin.

A cluster game shows a grid of `n_rows x n_cols` cells, row 0 on top (`grid[row, col]`).
A cluster of symbol s is a group of cells joined horizontally or vertically (never
diagonally), each showing s or a wild that stands in for s, with at least one cell showing s
itself: wilds alone never form a cluster. It wins when its size (wilds included) is at least
`min_size` and `pays[s, size]` is positive; a size beyond the table's last column pays the
last column. Every winning cluster is paid; their wins add up (the seed's "only the highest
win is paid per winning combination" holds trivially: a cluster has one size, so one pay).

Wild sharing: one wild may serve clusters of several symbols. A wild joins every cluster it
touches (through cells of that symbol or other wilds standing in for it) and counts in the
size of each, so "A A W B B" with a minimum of 3 is an A cluster of 3 and a B cluster of 3,
both paid. This is the common reading of "the wild substitutes for all symbols"; a player
sees every cluster the wild completes paid, and no rule has to pick one of them.

The tumble: the cells of every winning cluster (shared wilds included) disappear, the
remaining symbols of each column fall to the bottom in their order, and the empty cells on
top are refilled, either

* from the column's reel strip: the column continues along its strip, so the k new cells are
  the k strip positions before the current top (`stops[c]` is the position shown on row 0;
  it moves back by k, wrapping), shown in strip order top to bottom; or
* from the column's integer symbol weights, each new cell an independent weighted draw,
  top to bottom.

A game may have several refill sources ("reel sets": base game, free spins, super spin...),
each strips or weights; every draw names the set it uses.

Wild multipliers: a wild symbol may carry a multiplier (`wild_mult[w] > 0`, Candy Jar's Golden
Wilds). A winning cluster holding such wilds pays its table pay times the sum of their
multipliers; a cluster without one pays the table pay.

Random multiplier: a spin may be given integer weights over multiplier values (value 1 = no
multiplier). Once, right after the first find that wins, one value is drawn; it multiplies the
sum of every win of the spin, earlier and later tumbles alike. A spin that never wins draws
nothing, and a table with one value draws nothing either: its value applies without a draw
(a game without random multipliers, the table [1], keeps its draw stream and writes no row).

The initial grid comes from the same source: a uniform stop per column (strips) or a draw per
cell (weights); columns left to right, cells top to bottom. Every draw goes through
`rng.draw_below`. A paid spin repeats find -> pay -> tumble until no cluster wins, and pays
the sum of all its wins once, after the last tumble.

Like `lines.py` (the flags of `engine/jit.py`): every kernel compiles without numba's
reference-counting runtime and never allocates (callers pass every buffer; `new_buffers` makes them), validates nothing
(`build_cluster_model` did), never raises, and also runs as plain Python under
NUMBA_DISABLE_JIT=1. Wins are integers in multiples of the bet (the game picks the bet unit).

The spin writes an event tape when `record` is true: one int64 row per event, TAPE_WIDTH +
n_rows * n_cols columns, `[kind, tumble, ...]`; simulation skips it.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from reelforge.engine.jit import inline_kernel, kernel
from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TAPE_WIDTH, TapeKind
from reelforge.errors import InvalidArgument

# No random multiplier: one value, 1 (no draw is made).
NO_MULTIPLIER = (np.ones(1, dtype=np.int64), np.ones(1, dtype=np.int64))

# A spin ends after this many tumbles even if the grid still wins (its win is paid, the flag
# set). Reachable only by degenerate refills (one symbol always refilled, say); reported.
TUMBLE_GUARD = 1_000


class ClusterSim(IntEnum):
    """Index of each counter `simulate_cluster_spins` accumulates (SIM_FIELDS names them)."""

    SPINS = 0
    TOTAL_WIN = 1
    HITS = 2
    TUMBLES = 3
    MAX_WIN = 4  # a maximum
    MAX_TUMBLES = 5  # a maximum
    GUARD_HITS = 6
    MULTIPLIED = 7  # spins with a random multiplier above 1


SIM_FIELDS = tuple(f.name.lower() for f in ClusterSim)


class CascadeResult(NamedTuple):
    """One paid spin (`cascade`, `play_cluster_spin`)."""

    win: int  # the spin's cluster wins added, times the random multiplier (multiples of the bet)
    tumbles: int
    tape_rows: int  # the tape rows written so far, the next row's index
    guard: bool  # the grid after `tumble_guard` tumbles still won, was paid, and the spin stopped
    multiplier: int  # the random multiplier, 1 when none


class ClusterModel(NamedTuple):
    """A compiled cluster game. S symbols, C = n_cols columns, K reel sets, cells row 0 on top.

    n_rows, n_cols: grid size (7 x 7 in Candy Jar Clusters; any size >= 1 x 1).
    min_size: smallest cluster that can win (>= 1); pays below it are ignored.
    pays: (S, P) int64, pay of a cluster of symbol s and size n in multiples of the bet;
        sizes >= P pay pays[s, P - 1]. Wild rows are ignored (wilds alone never pay).
    is_wild: (S,) bool, wild symbols: they never start a cluster.
    substitutes: (S, S) bool, [w, s] True when wild w stands in for symbol s.
    wild_mult: (S,) int64, a wild's multiplier (0: none); has_wild_mult: any is positive.
    from_weights: (K,) bool, set k refills (and draws) from `weights_cum[k]`, else `strips[k]`.
    strips: (K, C, max_len) int16, -1 padded: the reel strip of each column (strip sets).
    strip_len: (K, C) int64, >= 1.
    weights_cum: (K, C, S) int64, cumulative integer symbol weights per column, last > 0
        (weight sets).
    can_win: (S,) bool, non-wild symbols with a positive pay at some size >= min_size: the
        only ones whose cells start a cluster search.
    bitboard: search clusters on 64-bit boards (needs n_rows * (n_cols + 1) <= 64), else by
        flood fill; the same answer either way, the boards several times faster.
    tumble_guard: most tumbles in one spin (TUMBLE_GUARD).
    """

    n_rows: int
    n_cols: int
    min_size: int
    pays: np.ndarray
    is_wild: np.ndarray
    substitutes: np.ndarray
    wild_mult: np.ndarray
    has_wild_mult: bool
    from_weights: np.ndarray
    strips: np.ndarray
    strip_len: np.ndarray
    weights_cum: np.ndarray
    can_win: np.ndarray
    bitboard: bool
    tumble_guard: int


class ClusterBuffers(NamedTuple):
    """Work buffers of one spin (`new_buffers`); N = n_rows * n_cols, S symbols.

    grid: (n_rows, n_cols) int16, the symbol in each cell, row 0 on top;
    stops: (n_cols,) int64, the strip position shown on row 0 of each column (strip sets);
    counts: (S,) int64, masks: (S,) uint64, seen: (n_rows, n_cols) int64, queue: (N, 2) int64:
        cluster-search work;
    winners: (n_rows, n_cols) bool, the cells of the winning clusters last found;
    clusters: (N, 5) int64, rows [symbol, size, wilds in it, pay, wild multiplier] of the
        clusters last found (a cluster holds at least one non-wild cell of its own, so there
        are at most N);
    tape: (T, TAPE_WIDTH + N) int64, event rows.
    """

    grid: np.ndarray
    stops: np.ndarray
    counts: np.ndarray
    masks: np.ndarray
    seen: np.ndarray
    queue: np.ndarray
    winners: np.ndarray
    clusters: np.ndarray
    tape: np.ndarray


def _refill_set(kind, data, n_cols, n_symbols, index):
    """(from_weights, strips as lists or None, weights array or None) of one checked set."""
    where = f"cluster reel set {index}"
    if kind == "strips":
        strips = [list(s) for s in data]
        if len(strips) != n_cols or any(
                len(s) < 1 or any(not 0 <= int(x) < n_symbols for x in s) for s in strips):
            raise InvalidArgument(f"{where} strips {strips!r}: need {n_cols} non-empty lists "
                                  f"of symbol indices 0..{n_symbols - 1}")
        return False, strips, None
    if kind == "weights":
        w = np.asarray(data, dtype=np.int64)
        if w.shape != (n_cols, n_symbols) or (w < 0).any() or (w.sum(axis=1) <= 0).any() or (
                w.sum(axis=1) >= 2**32).any():
            raise InvalidArgument(f"{where} weights {w.tolist()!r}: need ({n_cols}, "
                                  f"{n_symbols}) integers >= 0, each column summing to "
                                  "1..2**32-1")
        return True, None, w
    raise InvalidArgument(f"{where} kind {kind!r}: must be 'strips' or 'weights'")


def build_cluster_model(n_rows, n_cols, pays, is_wild, min_size, *, substitutes=None,
                        strips=None, weights=None, sets=None, wild_multipliers=None,
                        tumble_guard=TUMBLE_GUARD, bitboard=None) -> ClusterModel:
    """Validate plain data and compile it into a `ClusterModel`.

    pays: (S, P) integers >= 0, by cluster size; is_wild: S booleans; substitutes: (S, S)
    booleans, default: every wild stands in for every non-wild symbol with a positive pay;
    the refill: exactly one of strips (n_cols sequences of symbol indices), weights
    ((n_cols, S) integers >= 0, a positive sum per column) or sets (a list of ("strips",
    strips) and ("weights", weights) pairs, reel set k being the k-th); wild_multipliers: S
    integers >= 0 (a multiplier on wilds only); bitboard: None picks the boards whenever
    the grid fits them. Raises InvalidArgument naming the bad value.
    """
    pays = np.asarray(pays, dtype=np.int64)
    if pays.ndim != 2 or pays.shape[0] < 1 or pays.shape[1] < 1 or (pays < 0).any():
        raise InvalidArgument(f"cluster pays {pays.tolist()!r}: need an (S, P) table of "
                              "integers >= 0")
    n_symbols = pays.shape[0]
    for name, value in (("n_rows", n_rows), ("n_cols", n_cols), ("min_size", min_size),
                        ("tumble_guard", tumble_guard)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise InvalidArgument(f"cluster {name} = {value!r}: must be an integer >= 1")
    is_wild = np.asarray(is_wild, dtype=bool)
    if is_wild.shape != (n_symbols,):
        raise InvalidArgument(f"cluster is_wild {is_wild.tolist()!r}: need {n_symbols} flags")
    if substitutes is None:
        paying = (pays > 0).any(axis=1) & ~is_wild
        substitutes = is_wild[:, None] & paying[None, :]
    substitutes = np.asarray(substitutes, dtype=bool)
    if substitutes.shape != (n_symbols, n_symbols):
        raise InvalidArgument(f"cluster substitutes: shape {substitutes.shape}, need "
                              f"({n_symbols}, {n_symbols})")
    wild_mult = np.zeros(n_symbols, dtype=np.int64)
    if wild_multipliers is not None:
        wild_mult = np.asarray(wild_multipliers, dtype=np.int64)
        if wild_mult.shape != (n_symbols,) or (wild_mult < 0).any() or (
                wild_mult[~is_wild] != 0).any():
            raise InvalidArgument(f"cluster wild multipliers {wild_mult.tolist()!r}: need "
                                  f"{n_symbols} integers >= 0, zero on non-wild symbols")
    given = [x for x in (strips, weights, sets) if x is not None]
    if len(given) != 1:
        raise InvalidArgument("cluster refill: give exactly one of strips, weights and sets")
    if sets is None:
        sets = [("strips", strips)] if strips is not None else [("weights", weights)]
    if len(sets) < 1:
        raise InvalidArgument("cluster refill: sets is empty")
    checked = [_refill_set(kind, data, n_cols, n_symbols, k)
               for k, (kind, data) in enumerate(sets)]
    longest = max([len(s) for _f, st, _w in checked if st for s in st] or [1])
    strip_array = np.full((len(sets), n_cols, longest), -1, dtype=np.int16)
    strip_len = np.ones((len(sets), n_cols), dtype=np.int64)
    weights_cum = np.zeros((len(sets), n_cols, n_symbols), dtype=np.int64)
    for k, (_from_w, st, w) in enumerate(checked):
        if st is not None:
            for c, strip in enumerate(st):
                strip_array[k, c, :len(strip)] = strip
                strip_len[k, c] = len(strip)
        else:
            weights_cum[k] = np.cumsum(w, axis=1)
    from_weights = np.array([f for f, _s, _w in checked], dtype=bool)
    fits = n_rows * (n_cols + 1) <= 64
    if bitboard is None:
        bitboard = fits
    elif bitboard and not fits:
        raise InvalidArgument(f"cluster grid {n_rows} x {n_cols}: too large for bitboards")
    can_win = ~is_wild & (pays[:, min_size:] > 0).any(axis=1)
    return ClusterModel(int(n_rows), int(n_cols), int(min_size), pays, is_wild, substitutes,
                        wild_mult, bool((wild_mult > 0).any()), from_weights, strip_array,
                        strip_len, weights_cum, can_win, bool(bitboard), int(tumble_guard))


def multiplier_table(values, weights) -> tuple[np.ndarray, np.ndarray]:
    """(values, cumulative weights) int64 arrays of a random multiplier, checked: values >= 1,
    weights >= 0 with a positive sum below 2**32."""
    v = np.asarray(values, dtype=np.int64)
    w = np.asarray(weights, dtype=np.int64)
    if v.ndim != 1 or v.shape != w.shape or len(v) < 1 or (v < 1).any() or (w < 0).any() or \
            not 0 < w.sum() < 2**32:
        raise InvalidArgument(f"random multiplier values {v.tolist()!r} weights {w.tolist()!r}: "
                              "need equal lists, values >= 1, weights >= 0 summing to "
                              "1..2**32-1")
    return v, np.cumsum(w)


def new_buffers(model: ClusterModel, tape_rows: int = 1) -> ClusterBuffers:
    """Fresh work buffers for `model`; a tape of `tape_rows` rows (1 when not recording)."""
    n = model.n_rows * model.n_cols
    n_symbols = model.pays.shape[0]
    return ClusterBuffers(
        grid=np.zeros((model.n_rows, model.n_cols), dtype=np.int16),
        stops=np.zeros(model.n_cols, dtype=np.int64),
        counts=np.zeros(n_symbols, dtype=np.int64),
        masks=np.zeros(n_symbols, dtype=np.uint64),
        seen=np.zeros((model.n_rows, model.n_cols), dtype=np.int64),
        queue=np.zeros((n, 2), dtype=np.int64),
        winners=np.zeros((model.n_rows, model.n_cols), dtype=np.bool_),
        clusters=np.zeros((n, 5), dtype=np.int64),
        tape=np.zeros((max(tape_rows, 1), TAPE_WIDTH + n), dtype=np.int64),
    )


@inline_kernel
def draw_weighted(cum, rng):
    """Index i drawn with probability (cum[i] - cum[i-1]) / cum[-1] (integer weights).

    The first index whose cumulative weight exceeds the draw t is the number of cumulative
    weights at or below t (they never fall); counted without a branch per entry, because a
    search loop's unpredictable exit cost more than the draw itself (a 7 x 7 grid of weighted
    cells: 850 -> 330 ns; benchmarks/RESULTS.md)."""
    last = cum.shape[0] - 1
    t = draw_below(rng, cum[last])
    i = 0
    for j in range(last):
        i += cum[j] <= t
    return i


@inline_kernel
def draw_cell(model, rs, col, rng):
    """One symbol for a cell of column `col`, by reel set rs's integer weights."""
    return draw_weighted(model.weights_cum[rs, col], rng)


@inline_kernel
def draw_grid(model, rs, rng, grid, stops):
    """Fill grid (n_rows, n_cols) int16 from reel set rs and, for strips, stops (n_cols,).

    Columns left to right; a uniform stop per column (row h shows strip[(stop + h) % len]),
    or a weighted draw per cell, top to bottom.
    """
    for c in range(model.n_cols):
        if model.from_weights[rs]:
            for h in range(model.n_rows):
                grid[h, c] = draw_cell(model, rs, c, rng)
        else:
            n = model.strip_len[rs, c]
            at = draw_below(rng, n)
            stops[c] = at
            for h in range(model.n_rows):
                grid[h, c] = model.strips[rs, c, at]
                at += 1
                if at == n:
                    at = 0


@inline_kernel
def popcount(x):
    """Set bits of a uint64 (SWAR, no overflowing product: also exact as plain Python)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    x = x + (x >> np.uint64(8))
    x = x + (x >> np.uint64(16))
    x = x + (x >> np.uint64(32))
    return np.int64(x & np.uint64(0x7F))


@inline_kernel
def record_cluster(model, clusters, found, symbol, size, wilds, multiplier):
    """Write clusters[found] = [symbol, size, wilds, pay, multiplier] if the cluster wins,
    the pay times the wild multiplier (0: none, pays once); returns the pay (0: it does not
    win, nothing written)."""
    if size < model.min_size:
        return 0
    top = model.pays.shape[1] - 1
    pay = model.pays[symbol, min(size, top)]
    if pay > 0:
        multiplier = max(multiplier, 1)
        pay *= multiplier
        clusters[found, 0] = symbol
        clusters[found, 1] = size
        clusters[found, 2] = wilds
        clusters[found, 3] = pay
        clusters[found, 4] = multiplier
    return pay


@inline_kernel
def find_clusters_bits(model, grid, masks, winners, clusters):
    """`find_clusters` on bitboards (rows * (cols + 1) <= 64): cell (r, c) is bit
    r * (cols + 1) + c, and the always-empty bit c = cols of each row stops a horizontal
    shift from wrapping into the next row. A cluster grows from its first cell by repeated
    shifts in the four directions, masked by the cells it may hold, until it stops growing."""
    rows = model.n_rows
    cols = model.n_cols
    width = np.uint64(cols + 1)
    one = np.uint64(1)
    zero = np.uint64(0)
    for s in range(masks.shape[0]):
        masks[s] = zero
    for r in range(rows):
        for c in range(cols):
            s = grid[r, c]
            masks[s] |= one << np.uint64(r * (cols + 1) + c)
    n_symbols = masks.shape[0]
    wild_cells = zero
    for w in range(n_symbols):
        if model.is_wild[w]:
            wild_cells |= masks[w]
    n_wild = popcount(wild_cells)
    won = zero
    found = 0
    total = 0
    for symbol in range(n_symbols):
        todo = masks[symbol]
        if not model.can_win[symbol] or todo == zero or popcount(todo) + n_wild < model.min_size:
            continue  # a wild, absent, or no cluster of it can be large enough to pay
        helpers = zero
        for w in range(n_symbols):
            if model.is_wild[w] and model.substitutes[w, symbol]:
                helpers |= masks[w]
        area = todo | helpers
        while todo != zero:
            x = todo & (~todo + one)  # the first cell, row-major, not yet in a cluster
            while True:
                y = (x | (x << one) | (x >> one) | (x << width) | (x >> width)) & area
                if y == x:
                    break
                x = y
            todo &= ~x
            multiplier = 0
            if model.has_wild_mult:
                for w in range(n_symbols):
                    if model.wild_mult[w] > 0 and model.substitutes[w, symbol]:
                        multiplier += model.wild_mult[w] * popcount(x & masks[w])
            pay = record_cluster(model, clusters, found, symbol, popcount(x),
                                 popcount(x & helpers), multiplier)
            if pay > 0:
                found += 1
                total += pay
                won |= x
    for r in range(rows):
        for c in range(cols):
            winners[r, c] = (won >> np.uint64(r * (cols + 1) + c)) & one != zero
    return found, total


@inline_kernel
def join(model, grid, seen, queue, tail, row, col, symbol, stamp):
    """Queue cell (row, col) in the fill of `symbol` marked `stamp` if it is new to this fill
    and shows the symbol or a wild standing in for it; returns the new queue tail."""
    if seen[row, col] == stamp:
        return tail
    s = grid[row, col]
    if s == symbol or (model.is_wild[s] and model.substitutes[s, symbol]):
        seen[row, col] = stamp
        queue[tail, 0] = row
        queue[tail, 1] = col
        return tail + 1
    return tail


@inline_kernel
def find_clusters_fill(model, grid, counts, seen, queue, winners, clusters):
    """`find_clusters` for any grid size: a breadth-first flood fill from each cell."""
    rows = model.n_rows
    cols = model.n_cols
    for s in range(counts.shape[0]):
        counts[s] = 0
    wild_cells = 0
    for r in range(rows):
        for c in range(cols):
            s = grid[r, c]
            counts[s] += 1
            if model.is_wild[s]:
                wild_cells += 1
            seen[r, c] = 0
            winners[r, c] = False
    found = 0
    total = 0
    stamp = 0
    for symbol in range(counts.shape[0]):
        if not model.can_win[symbol] or counts[symbol] + wild_cells < model.min_size:
            continue  # a wild, or no cluster of it can be large enough to pay
        for r0 in range(rows):
            for c0 in range(cols):
                if grid[r0, c0] != symbol or seen[r0, c0] != 0:
                    continue  # a non-wild cell is only ever marked by a fill of its symbol
                stamp += 1  # a fresh mark: wilds seen by earlier fills may join this one too
                seen[r0, c0] = stamp
                queue[0, 0] = r0
                queue[0, 1] = c0
                head = 0
                tail = 1
                wilds = 0
                multiplier = 0
                while head < tail:  # breadth first; queue[:tail] ends up holding the cluster
                    r = queue[head, 0]
                    c = queue[head, 1]
                    head += 1
                    if model.is_wild[grid[r, c]]:
                        wilds += 1
                        multiplier += model.wild_mult[grid[r, c]]
                    if r > 0:
                        tail = join(model, grid, seen, queue, tail, r - 1, c, symbol, stamp)
                    if r < rows - 1:
                        tail = join(model, grid, seen, queue, tail, r + 1, c, symbol, stamp)
                    if c > 0:
                        tail = join(model, grid, seen, queue, tail, r, c - 1, symbol, stamp)
                    if c < cols - 1:
                        tail = join(model, grid, seen, queue, tail, r, c + 1, symbol, stamp)
                pay = record_cluster(model, clusters, found, symbol, tail, wilds, multiplier)
                if pay > 0:
                    found += 1
                    total += pay
                    for j in range(tail):
                        winners[queue[j, 0], queue[j, 1]] = True
    return found, total


@inline_kernel
def find_clusters(model, grid, work):
    """Every winning cluster of grid (n_rows, n_cols) int16, by symbol index, then by the
    first cell (row-major) of the cluster that shows the symbol itself.

    Writes work.clusters[i] = [symbol, size (wilds included), wilds in it, pay in multiples
    of the bet (wild multiplier applied), wild multiplier (1: none)] for each winning
    cluster i, and work.winners (n_rows, n_cols) bool: True on
    the cells of every winning cluster, wilds shared by several clusters included. Uses the
    bitboard search when the model allows it (`model.bitboard`), else the flood fill; both
    give the same answer. Returns (number of winning clusters, their total pay).
    """
    if model.bitboard:
        return find_clusters_bits(model, grid, work.masks, work.winners, work.clusters)
    return find_clusters_fill(model, grid, work.counts, work.seen, work.queue, work.winners,
                              work.clusters)


@inline_kernel
def tumble(model, rs, grid, winners, rng, stops):
    """Remove the winners (n_rows, n_cols) bool from grid (n_rows, n_cols) int16, let each
    column's remaining symbols fall to the bottom in order, and refill the empty cells on top
    from reel set rs: from the strip (stops (n_cols,) int64 moves back by the cells removed,
    wrapping, and the new cells show the strip from there, top to bottom) or by weighted
    draws (top to bottom), columns left to right. Returns the number of cells refilled."""
    rows = model.n_rows
    refilled = 0
    for c in range(model.n_cols):
        write = rows - 1
        for r in range(rows - 1, -1, -1):
            if not winners[r, c]:
                if write != r:
                    grid[write, c] = grid[r, c]
                write -= 1
        k = write + 1  # rows 0..k-1 are empty
        if k == 0:
            continue
        refilled += k
        if model.from_weights[rs]:
            for h in range(k):
                grid[h, c] = draw_cell(model, rs, c, rng)
        else:
            n = model.strip_len[rs, c]
            at = (stops[c] - k) % n
            stops[c] = at
            for h in range(k):
                grid[h, c] = model.strips[rs, c, at]
                at += 1
                if at == n:
                    at = 0
    return refilled


@inline_kernel
def write_row(tape, pos, record, kind, tumble_index, a, b, c, d, e):
    """Append a [kind, tumble, a, b, c, d, e, 0...] row if recording and there is room;
    returns the next position."""
    if record and pos < tape.shape[0]:
        tape[pos, 0] = kind
        tape[pos, 1] = tumble_index
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
    """Append a GRID row (the grid row-major from column TAPE_WIDTH) if recording and
    there is room; returns the next position."""
    if record and pos < tape.shape[0]:
        write_row(tape, pos, record, TapeKind.GRID, tumble_index, refilled, rs, 0, 0, 0)
        cols = grid.shape[1]
        for r in range(grid.shape[0]):
            for c in range(cols):
                tape[pos, TAPE_WIDTH + r * cols + c] = grid[r, c]
    return pos + 1


@inline_kernel
def cascade(model, rs, mult_values, mult_cum, rng, work, record, pos):
    """Pay the grid in work.grid: find -> pay -> tumble (refills from reel set rs) until no
    cluster wins, with the random multiplier drawn from (mult_values, mult_cum) right after
    the first win (no draw for a one-value table). The tape gets, from row `pos`, a
    CLUSTER row per winning cluster of the grid of tumble t, the MULTIPLIER row, and a GRID
    row after each tumble t (1, 2, ...). Returns a `CascadeResult`.
    """
    grid = work.grid
    tape = work.tape
    win = 0
    tumbles = 0
    guard = False
    multiplier = 1
    while True:
        found, pay = find_clusters(model, grid, work)
        if found == 0:
            break
        for i in range(found):
            c = work.clusters[i]
            pos = write_row(tape, pos, record, TapeKind.CLUSTER, tumbles, c[0], c[1], c[2],
                            c[3], c[4])
        if tumbles == 0 and (mult_cum.shape[0] > 1 or mult_values[0] != 1):
            # a one-value table is certain: applied without a draw (the stream is unchanged)
            multiplier = mult_values[0]
            if mult_cum.shape[0] > 1:
                multiplier = mult_values[draw_weighted(mult_cum, rng)]
            pos = write_row(tape, pos, record, TapeKind.MULTIPLIER, tumbles, multiplier, 0, 0,
                            0, 0)
        win += pay
        if tumbles >= model.tumble_guard:
            guard = True
            break
        refilled = tumble(model, rs, grid, work.winners, rng, work.stops)
        tumbles += 1
        pos = write_grid(tape, pos, record, tumbles, grid, refilled, rs)
    return CascadeResult(win=win * multiplier, tumbles=tumbles, tape_rows=pos, guard=guard,
                         multiplier=multiplier)


@inline_kernel
def play_cluster_spin(model, rs, mult_values, mult_cum, rng, work, record):
    """One paid spin on reel set rs: draw the grid, then `cascade`.

    work: `ClusterBuffers`; the spin ends with the last grid in work.grid. The tape (if
    `record`) starts with a GRID row for the drawn grid (tumble 0). Returns `cascade`'s
    `CascadeResult`. A tape shorter than its `tape_rows` means the caller must replay with a
    longer one.
    """
    draw_grid(model, rs, rng, work.grid, work.stops)
    pos = write_grid(work.tape, 0, record, 0, work.grid, 0, rs)
    return cascade(model, rs, mult_values, mult_cum, rng, work, record, pos)


@kernel
def simulate_cluster_spins(model, rs, mult_values, mult_cum, rng, n_spins, work, counters):
    """Play n_spins with `play_cluster_spin` (no tape) and add to counters (len(ClusterSim),)
    int64, indexed by `ClusterSim`: wins in multiples of the bet."""
    for _ in range(n_spins):
        spin = play_cluster_spin(model, rs, mult_values, mult_cum, rng, work, False)
        counters[ClusterSim.SPINS] += 1
        counters[ClusterSim.TOTAL_WIN] += spin.win
        if spin.win > 0:
            counters[ClusterSim.HITS] += 1
        counters[ClusterSim.TUMBLES] += spin.tumbles
        counters[ClusterSim.MAX_WIN] = max(counters[ClusterSim.MAX_WIN], spin.win)
        counters[ClusterSim.MAX_TUMBLES] = max(counters[ClusterSim.MAX_TUMBLES], spin.tumbles)
        if spin.guard:
            counters[ClusterSim.GUARD_HITS] += 1
        if spin.multiplier > 1:
            counters[ClusterSim.MULTIPLIED] += 1


def warmup() -> None:
    """Compile (or load from cache) the cluster kernels, so a server pays it at start."""
    model = build_cluster_model(1, 1, [[0, 1], [0, 0]], [False, True], 1,
                                sets=[("strips", [[0, 1]]), ("weights", [[1, 1]])])
    b = new_buffers(model, 4)
    bits = np.random.PCG64(0)
    values, cum = multiplier_table([1, 2], [1, 1])
    for rs in (0, 1):
        play_cluster_spin(model, rs, values, cum, bits, b, True)
        simulate_cluster_spins(model, rs, values, cum, bits, 1, b,
                               np.zeros(len(ClusterSim), dtype=np.int64))
