"""The round of a standard cluster game (no rules module): one paid spin on the base reel set,
its tumbles and random multiplier, capped. Also the tape rows every cluster round shares
(`TapeKind.CLUSTER_SPIN` opens each spin, `TapeKind.SPIN_WIN` closes it).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.clusters import cascade, draw_grid, kernel, write_grid, write_row
from reelforge.engine.counters import Sim, add_win
from reelforge.engine.tape import TapeKind


class PlainRoundResult(NamedTuple):
    """A standard cluster game's round (`play_plain_round`)."""

    win: int  # coins, capped at `cap` coins unless 0
    tumbles: int
    guard: bool
    multiplier: int
    capped: bool
    tape_rows: int  # the tape rows written


@kernel
def play_plain_round(cm, mult_values, mult_cum, cap, rng, work, record):
    """Returns a `PlainRoundResult`."""
    pos = write_row(work.tape, 0, record, TapeKind.CLUSTER_SPIN, 0, 0, 0, 0, 0, 0)
    draw_grid(cm, 0, rng, work.grid, work.stops)
    pos = write_grid(work.tape, pos, record, 0, work.grid, 0, 0)
    spin = cascade(cm, 0, mult_values, mult_cum, rng, work, record, pos)
    win = spin.win
    capped = False
    if cap > 0 and win >= cap:
        win = cap
        capped = True
    pos = write_row(work.tape, spin.tape_rows, record, TapeKind.SPIN_WIN, 0, win, win,
                    1 if capped else 0, 0, 0)
    return PlainRoundResult(win=win, tumbles=spin.tumbles, guard=spin.guard,
                            multiplier=spin.multiplier, capped=capped, tape_rows=pos)


@kernel
def simulate_plain_rounds(cm, mult_values, mult_cum, cap, rng, n_rounds, band_edges, counters,
                          bands, square_sum, work):
    """As games' simulate_rounds: counters indexed by `lines.Sim` (base win as line win)."""
    for _ in range(n_rounds):
        result = play_plain_round(cm, mult_values, mult_cum, cap, rng, work, np.bool_(False))  # jit.py
        win = result.win
        counters[Sim.ROUNDS] += 1
        counters[Sim.TOTAL_WIN] += win
        if win > 0:
            counters[Sim.HITS] += 1
        counters[Sim.BASE_LINE_WIN] += win
        counters[Sim.MAX_WIN] = max(counters[Sim.MAX_WIN], win)
        if result.guard:
            counters[Sim.GUARD_HITS] += 1
        if result.capped:
            counters[Sim.CAP_HITS] += 1
        add_win(bands, band_edges, square_sum, win)
