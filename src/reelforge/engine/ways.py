"""Kernels of the ways game (`family = "ways"`): window draw, ways evaluation, the round and
its simulation.

A paying symbol s pays when it shows on reels 1..n (its own cells, or wilds that stand in for
it), n the first reels in a row that show it. Its ways are the product over those reels of
the cells showing it; with wild multipliers, "multiply" weighs each way by the product of its
wilds' multipliers (a reel then counts a wild cell as its multiplier), "add" by their sum (1
for a way without a wild). Both come out of per-reel sums (`count_reel`):

    multiply: paid ways = prod_r x_r, x_r = own cells + sum of the wild cells' multipliers
    add:      paid ways = prod_r n_r + sum_r w_r * prod_{q != r} c_q
              (n_r own cells, w_r sum of wild multipliers, c_r = n_r + wild cells)

so play and the exact analysis (analysis/ways_exact.py) share one definition. The win is
pay[s, n] x paid ways x the coin value, in credits.

Everything here is `@njit` and also runs as plain Python (NUMBA_DISABLE_JIT=1). Kernels take a
`WaysModel` and a numpy `Generator`, validate nothing and never raise or allocate.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.counters import Sim, add_win
from reelforge.engine.jit import inline_kernel, kernel
from reelforge.engine.lines import write_row
from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TAPE_WIDTH, TapeKind


class WaysModel(NamedTuple):
    """Compiled ways game. S symbols, P paying symbols, R reels, H rows."""

    n_reels: int
    n_rows: int
    strips: np.ndarray  # (R, max_len) int16 symbol index per stop, -1 padded
    strip_len: np.ndarray  # (R,) int64
    paying: np.ndarray  # (P,) int64 symbol index of each paying symbol
    pay: np.ndarray  # (P, R+1) int64 coins per way by reels counted
    own: np.ndarray  # (P, S) bool: cell symbol c is paying symbol p itself
    wild_weight: np.ndarray  # (P, S) int64: the multiplier of wild c standing in for p, 0 if not
    add: bool  # wild multipliers add on a way (True) or multiply (False)
    cap: int  # most coins one round pays at a coin value of 1, 0 = no cap


class WaysAward(NamedTuple):
    """One paying symbol's result on a window (`evaluate_symbol`)."""

    reels: int  # reels from reel 1 showing it (0: not on reel 1)
    ways: int  # product of the cells showing it on those reels
    paid_ways: int  # the ways with wild multipliers applied


class WaysResult(NamedTuple):
    """A whole ways round (`play_ways_round`); wins in credits."""

    total: int  # after the cap
    uncapped: int
    win_capped: bool
    tape_rows: int


def compile_ways(spec) -> WaysModel:
    """The spec's arrays as the kernels read them."""
    ids = list(spec.symbol_ids)
    n_sym, n_reels = len(ids), spec.reels
    max_len = max(len(s) for s in spec.strips)
    strips = np.full((n_reels, max_len), -1, dtype=np.int16)
    strip_len = np.zeros(n_reels, dtype=np.int64)
    for r, strip in enumerate(spec.strips):
        strips[r, : len(strip)] = [ids.index(s) for s in strip]
        strip_len[r] = len(strip)
    paying = np.array([ids.index(sid) for sid, _ in spec.pays], dtype=np.int64)
    pay = np.zeros((len(paying), n_reels + 1), dtype=np.int64)
    own = np.zeros((len(paying), n_sym), dtype=np.bool_)
    wild_weight = np.zeros((len(paying), n_sym), dtype=np.int64)
    for p, (sid, pays) in enumerate(spec.pays):
        for count, coins in pays:
            pay[p, count] = coins
        own[p, ids.index(sid)] = True
        for w in spec.wilds:
            if sid in w.substitutes:
                wild_weight[p, ids.index(w.symbol)] = w.multiplier
    return WaysModel(n_reels=n_reels, n_rows=spec.rows, strips=strips, strip_len=strip_len,
                     paying=paying, pay=pay, own=own, wild_weight=wild_weight,
                     add=spec.wild_combine == "add", cap=spec.max_win_x * spec.pay_unit)


@inline_kernel
def draw_ways_window(model, rng, stops, window):
    """Fill stops (R,) and window (R, H) int16 symbol indices: a uniform stop per reel, reels
    left to right; the window shows H consecutive stops from it, wrapping."""
    for r in range(model.n_reels):
        n = model.strip_len[r]
        stop = draw_below(rng, n)
        stops[r] = stop
        at = stop
        for h in range(model.n_rows):
            window[r, h] = model.strips[r, at]
            at += 1
            if at == n:
                at = 0


@inline_kernel
def count_reel(model, window, p, r):
    """Reel r's cells for paying symbol p: (own cells, wild cells, sum of the wild cells'
    multipliers)."""
    own = 0
    wilds = 0
    weight = 0
    for h in range(model.n_rows):
        c = window[r, h]
        if model.own[p, c]:
            own += 1
        elif model.wild_weight[p, c] > 0:
            wilds += 1
            weight += model.wild_weight[p, c]
    return own, wilds, weight


@inline_kernel
def evaluate_symbol(model, window, p):
    """Paying symbol p on `window` (R, H): a `WaysAward` (reels 0 where reel 1 lacks it)."""
    count = 0
    ways = 1
    plain = 1  # multiply: prod of x_r; add: prod of own cells n_r
    added = 0  # add: sum_r w_r * prod_{q != r} c_q over the reels so far
    for r in range(model.n_reels):
        own, wilds, weight = count_reel(model, window, p, r)
        cells = own + wilds
        if cells == 0:
            break
        if model.add:
            added = added * cells + weight * ways
            plain *= own
        else:
            plain *= own + weight
        ways *= cells
        count += 1
    if count == 0:
        return WaysAward(reels=0, ways=0, paid_ways=0)
    return WaysAward(reels=count, ways=ways, paid_ways=plain + added)


@inline_kernel
def play_ways_round(model, coin_value, rng, stops, window, tape, record):
    """One round: draw the window, pay every symbol on its ways, cap the round's win.

    Tape (when `record`): a SPIN row (reel set 0, multiplier 1, stops from column
    TAPE_WIDTH), then a WAYS row per paying symbol that wins. Returns a `WaysResult`."""
    draw_ways_window(model, rng, stops, window)
    if record and tape.shape[0] > 0:
        for r in range(model.n_reels):
            tape[0, TAPE_WIDTH + r] = stops[r]
    pos = write_row(tape, 0, record, TapeKind.SPIN, 0, 0, 1, 0, 0, 0)
    total = 0
    for p in range(model.paying.shape[0]):
        award = evaluate_symbol(model, window, p)
        coins = model.pay[p, award.reels]
        if award.reels > 0 and coins > 0:
            win = coins * award.paid_ways * coin_value
            total += win
            pos = write_row(tape, pos, record, TapeKind.WAYS, 0, model.paying[p], award.reels,
                            award.ways, award.paid_ways, win)
    cap = model.cap * coin_value
    if cap > 0 and total > cap:
        return WaysResult(total=cap, uncapped=total, win_capped=True, tape_rows=pos)
    return WaysResult(total=total, uncapped=total, win_capped=False, tape_rows=pos)


@kernel
def simulate_ways(model, coin_value, rng, n_rounds, band_edges, counters, bands, square_sum,
                  stops, window, tape):
    """Play n_rounds and add their statistics: counters (len(Sim),) int64 indexed by
    `lines.Sim` (the ways win counted as the base game's line win), bands and square_sum as
    `lines.play_rounds`'s; stops (R,), window (R, H) int16 and tape (1, TAPE_WIDTH + R)
    are work buffers (the tape is not written)."""
    for _ in range(n_rounds):
        result = play_ways_round(model, coin_value, rng, stops, window, tape, False)
        win = result.total
        counters[Sim.ROUNDS] += 1
        counters[Sim.TOTAL_WIN] += win
        if win > 0:
            counters[Sim.HITS] += 1
        counters[Sim.BASE_LINE_WIN] += win
        counters[Sim.MAX_WIN] = max(counters[Sim.MAX_WIN], win)
        if result.win_capped:
            counters[Sim.CAP_HITS] += 1
        add_win(bands, band_edges, square_sum, win)


class WaysTotals(NamedTuple):
    """What `enumerate_ways` adds up over every window, each weighted by how many stop
    combinations show it; wins in coins at a coin value of 1, uncapped unless named."""

    combinations: int  # stop combinations visited (the product of the strip lengths)
    hits: int  # combinations that win
    win: int  # sum of wins
    capped_win: int  # sum of wins cut at the cap
    square: float  # sum of squared wins (float64: relative error below 1e-15 per term)
    top: int  # the largest win


@inline_kernel
def advance_reel(model, table, index, state, wins, r):
    """Carry every paying symbol's run from reel r-1's state to reel r's (reel r showing its
    window index[r]): state (R, P, 4) int64 holds per reel and symbol (reels counted, ways,
    plain part, added part; count -1 once the run has ended), wins (R,) int64 the coins of
    the runs ended by reel r. The parts are `evaluate_symbol`'s."""
    ended = 0 if r == 0 else wins[r - 1]
    for p in range(model.paying.shape[0]):
        if r == 0:
            count, ways, plain, added = 0, 1, 1, 0
        else:
            count, ways, plain, added = (state[r - 1, p, 0], state[r - 1, p, 1],
                                         state[r - 1, p, 2], state[r - 1, p, 3])
        if count >= 0:
            own = table[r, index[r], p, 0]
            wilds = table[r, index[r], p, 1]
            weight = table[r, index[r], p, 2]
            cells = own + wilds
            if cells == 0:
                if count > 0:
                    ended += model.pay[p, count] * (plain + added)
                count = -1
            else:
                if model.add:
                    added = added * cells + weight * ways
                    plain *= own
                else:
                    plain *= own + weight
                ways *= cells
                count += 1
        state[r, p, 0] = count
        state[r, p, 1] = ways
        state[r, p, 2] = plain
        state[r, p, 3] = added
    wins[r] = ended


@kernel
def enumerate_ways(model, table, n_windows, weights, index, state, wins):
    """Every window the reels can show, by the distinct windows of each reel: table
    (R, U, P, 3) int64 the (own cells, wild cells, wild multiplier sum) of window u of reel r
    for paying symbol p (`count_reel`), n_windows (R,) how many reel r has, weights (R, U)
    int64 the stops showing each; index (R,), state (R, P, 4) and wins (R,) int64 are work
    buffers. Returns `WaysTotals`. Runs are carried reel by reel (`advance_reel`), so a
    combination costs one reel's work."""
    n = model.n_reels
    for r in range(n):
        index[r] = 0
        advance_reel(model, table, index, state, wins, r)
    combos = 0
    hits = 0
    total = 0
    capped = 0
    square = 0.0
    top = 0
    while True:
        weight = 1
        for r in range(n):
            weight *= weights[r, index[r]]
        win = wins[n - 1]
        for p in range(model.paying.shape[0]):
            count = state[n - 1, p, 0]
            if count > 0:
                win += model.pay[p, count] * (state[n - 1, p, 2] + state[n - 1, p, 3])
        combos += weight
        if win > 0:
            hits += weight
        total += weight * win
        capped += weight * (win if model.cap == 0 or win <= model.cap else model.cap)
        square += weight * float(win) * float(win)
        top = max(top, win)
        r = n - 1  # the odometer: the last reel turns fastest
        while r >= 0:
            index[r] += 1
            if index[r] < n_windows[r]:
                break
            index[r] = 0
            r -= 1
        if r < 0:
            break
        for q in range(r, n):
            advance_reel(model, table, index, state, wins, q)
    return WaysTotals(combinations=combos, hits=hits, win=total, capped_win=capped,
                      square=square, top=top)
