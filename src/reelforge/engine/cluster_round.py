"""The round of a standard cluster game (no rules module): one paid spin on the base reel set,
its tumbles and random multiplier, capped. Also the tape rows every cluster round shares.

Tape rows, [kind, spin, a, b, c, d, e], besides the cluster engine's:
  TAPE_SPIN     kind (0 base, 1 free, 2 super), reel set, wilds placed, golden multiplier sum
  TAPE_SPIN_WIN the spin's win (coins), the round's total so far, capped (0/1)
"""

from __future__ import annotations

from reelforge.engine.clusters import cascade, draw_grid, kernel, write_grid, write_row
from reelforge.engine.lines import add_win

TAPE_SPIN = 20
TAPE_SPIN_WIN = 25


@kernel
def play_plain_round(cm, mult_values, mult_cum, cap, rng, work, record):
    """Returns (win in coins, capped at `cap` coins unless 0; tumbles; guard; multiplier;
    capped; tape rows used)."""
    pos = write_row(work.tape, 0, record, TAPE_SPIN, 0, 0, 0, 0, 0, 0)
    draw_grid(cm, 0, rng, work.grid, work.stops)
    pos = write_grid(work.tape, pos, record, 0, work.grid, 0, 0)
    win, tumbles, pos, guard, multiplier = cascade(cm, 0, mult_values, mult_cum, rng, work,
                                                   record, pos)
    capped = False
    if cap > 0 and win >= cap:
        win = cap
        capped = True
    pos = write_row(work.tape, pos, record, TAPE_SPIN_WIN, 0, win, win, 1 if capped else 0, 0, 0)
    return win, tumbles, guard, multiplier, capped, pos


@kernel
def simulate_plain_rounds(cm, mult_values, mult_cum, cap, rng, n_rounds, band_edges, counters,
                          bands, square_sum, work):
    """As games' simulate_rounds: counters in lines.SIM_FIELDS order (base win as line win)."""
    for _ in range(n_rounds):
        win, _t, guard, _m, capped, _pos = play_plain_round(cm, mult_values, mult_cum, cap, rng,
                                                           work, False)
        counters[0] += 1
        counters[1] += win
        if win > 0:
            counters[2] += 1
        counters[3] += win
        if win > counters[11]:
            counters[11] = win
        if guard:
            counters[12] += 1
        if capped:
            counters[17] += 1
        add_win(bands, band_edges, square_sum, win)
