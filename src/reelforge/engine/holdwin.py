"""Kernels of the hold-and-win game (`family = "holdwin"`): the ways base spin, then the
respins (spec/holdwin.py says the rules).

Draws, in this order: the window (a stop per reel, engine/ways.py), then, when the window
shows `trigger` or more prizes, a value per prize in the window (reel by reel, top row first);
then per respin, per empty cell in the same order, one draw below d (below n: a prize lands)
and, where one lands, its value. A value is one draw below the table's total weight.

Everything here is `@njit` and also runs as plain Python (NUMBA_DISABLE_JIT=1). Kernels take a
`HoldWinModel` and a numpy `Generator`, validate nothing and never raise or allocate.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.counters import Sim, add_win
from reelforge.engine.jit import inline_kernel, kernel
from reelforge.engine.lines import write_row
from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TAPE_WIDTH, TapeKind
from reelforge.engine.ways import WaysModel, compile_ways, draw_ways_window, evaluate_symbol


class HoldWinModel(NamedTuple):
    """Compiled hold-and-win game. V prize values; the window is the ways model's R x H."""

    ways: WaysModel  # the base game (its cap 0: the round's cap is `cap` here)
    prize: int  # symbol index of the prize symbol
    trigger: int  # prizes in the window that start the respins
    respins: int  # respins at the start and after each respin that lands a prize
    odds_n: int  # an empty cell lands a prize when a draw below odds_d is below odds_n
    odds_d: int
    value_x: np.ndarray  # (V,) int64 each value in stakes
    value_cum: np.ndarray  # (V,) int64 cumulative weights; value_cum[-1] the total
    value_jackpot: np.ndarray  # (V,) bool: the value is a named jackpot
    grand_x: int  # paid on top for a full screen, stakes
    pay_unit: int  # coins in a stake
    cap: int  # most coins one round pays at a coin value of 1, 0 = no cap


class HoldWinResult(NamedTuple):
    """A whole round (`play_holdwin_round`); wins in credits."""

    total: int  # after the cap
    uncapped: int
    win_capped: bool
    ways_win: int
    feature_win: int  # the respins' prizes and grand prize, uncapped
    triggered: bool
    respins: int  # respins played
    locked: int  # prizes locked at the end (0: not triggered)
    grand: bool
    jackpots: int  # named jackpot prizes among them
    tape_rows: int


def compile_holdwin(spec) -> HoldWinModel:
    """The spec's arrays as the kernels read them."""
    ids = list(spec.symbol_ids)
    weights = np.array([v.weight for v in spec.values], dtype=np.int64)
    return HoldWinModel(
        ways=compile_ways(spec.base), prize=ids.index(spec.prize), trigger=spec.trigger,
        respins=spec.respins, odds_n=spec.respin_odds[0], odds_d=spec.respin_odds[1],
        value_x=np.array([v.x for v in spec.values], dtype=np.int64),
        value_cum=np.cumsum(weights), value_jackpot=np.array([bool(v.jackpot) for v in spec.values]),
        grand_x=spec.grand_x, pay_unit=spec.pay_unit, cap=spec.max_win_x * spec.pay_unit)


@inline_kernel
def draw_value(model, rng):
    """A prize value's index into model.value_x: one draw below the total weight."""
    at = draw_below(rng, model.value_cum[model.value_cum.shape[0] - 1])
    v = 0
    while model.value_cum[v] <= at:
        v += 1
    return v


@inline_kernel
def play_holdwin_round(model, coin_value, rng, stops, window, locked, tape, record):
    """One round: the ways spin, then the respins where it shows `trigger` prizes.

    stops (R,) int64, window (R, H) int16 and locked (R, H) int64 (the value index locked on a
    cell, -1 empty) are work buffers. Tape (when `record`): a SPIN row (stops from column
    TAPE_WIDTH) and a WAYS row per paying symbol that wins; on a trigger a HOLD_PRIZE row per
    prize (spin 0 for the window's), a HOLD_RESPIN row per respin and a HOLD_END row. Returns
    a `HoldWinResult`."""
    wm = model.ways
    draw_ways_window(wm, rng, stops, window)
    if record and tape.shape[0] > 0:
        for r in range(wm.n_reels):
            tape[0, TAPE_WIDTH + r] = stops[r]
    pos = write_row(tape, 0, record, TapeKind.SPIN, 0, 0, 1, 0, 0, 0)
    ways_win = 0
    for p in range(wm.paying.shape[0]):
        award = evaluate_symbol(wm, window, p)
        coins = wm.pay[p, award.reels]
        if award.reels > 0 and coins > 0:
            win = coins * award.paid_ways * coin_value
            ways_win += win
            pos = write_row(tape, pos, record, TapeKind.WAYS, 0, wm.paying[p], award.reels,
                            award.ways, award.paid_ways, win)
    count = 0
    for r in range(wm.n_reels):
        for h in range(wm.n_rows):
            if window[r, h] == model.prize:
                count += 1
    feature = 0
    respin = 0
    jackpots = 0
    grand = False
    triggered = count >= model.trigger
    if triggered:
        cells = wm.n_reels * wm.n_rows
        stake_x = 0  # the locked values, stakes
        for r in range(wm.n_reels):
            for h in range(wm.n_rows):
                locked[r, h] = -1
                if window[r, h] == model.prize:
                    v = draw_value(model, rng)
                    locked[r, h] = v
                    stake_x += model.value_x[v]
                    if model.value_jackpot[v]:
                        jackpots += 1
                    pos = write_row(tape, pos, record, TapeKind.HOLD_PRIZE, 0, r, h, v,
                                    model.value_x[v], 0)
        lives = model.respins
        while lives > 0 and count < cells:
            respin += 1
            landed = 0
            for r in range(wm.n_reels):
                for h in range(wm.n_rows):
                    if locked[r, h] < 0 and draw_below(rng, model.odds_d) < model.odds_n:
                        v = draw_value(model, rng)
                        locked[r, h] = v
                        stake_x += model.value_x[v]
                        if model.value_jackpot[v]:
                            jackpots += 1
                        landed += 1
                        pos = write_row(tape, pos, record, TapeKind.HOLD_PRIZE, respin, r, h, v,
                                        model.value_x[v], 0)
            count += landed
            lives = model.respins if landed > 0 else lives - 1
            pos = write_row(tape, pos, record, TapeKind.HOLD_RESPIN, respin, landed, lives,
                            count, 0, 0)
        grand = count == cells
        if grand:
            stake_x += model.grand_x
        feature = stake_x * model.pay_unit * coin_value
        pos = write_row(tape, pos, record, TapeKind.HOLD_END, respin, count, stake_x,
                        1 if grand else 0, jackpots, feature)
    total = ways_win + feature
    cap = model.cap * coin_value
    capped = cap > 0 and total > cap
    return HoldWinResult(total=cap if capped else total, uncapped=total, win_capped=capped,
                         ways_win=ways_win, feature_win=feature, triggered=triggered,
                         respins=respin, locked=count if triggered else 0, grand=grand,
                         jackpots=jackpots, tape_rows=pos)


@kernel
def simulate_holdwin(model, coin_value, rng, n_rounds, band_edges, counters, bands, square_sum,
                     stops, window, locked, tape):
    """Play n_rounds and add their statistics: counters (len(Sim),) int64 indexed by `Sim`
    (the ways win as the base game's line win, the respins as the bonus, a full screen as a
    jackpot hit), bands and square_sum as `lines.play_rounds`'s; stops, window, locked and
    tape (1, TAPE_WIDTH + R) are `play_holdwin_round`'s work buffers (the tape not written)."""
    for _ in range(n_rounds):
        result = play_holdwin_round(model, coin_value, rng, stops, window, locked, tape, False)
        win = result.total
        counters[Sim.ROUNDS] += 1
        counters[Sim.TOTAL_WIN] += win
        if win > 0:
            counters[Sim.HITS] += 1
        counters[Sim.BASE_LINE_WIN] += result.ways_win
        if result.triggered:
            counters[Sim.BONUS_TRIGGERS] += 1
            counters[Sim.BONUS_SPINS] += result.respins
            # a capped round's bonus is what the cap left after the ways
            counters[Sim.BONUS_WIN] += max(0, win - result.ways_win) if result.win_capped \
                else result.feature_win
        if result.grand:
            counters[Sim.JACKPOT_HITS] += 1
            counters[Sim.JACKPOT_ROUNDS] += 1
        counters[Sim.MAX_WIN] = max(counters[Sim.MAX_WIN], win)
        if result.win_capped:
            counters[Sim.CAP_HITS] += 1
        add_win(bands, band_edges, square_sum, win)
