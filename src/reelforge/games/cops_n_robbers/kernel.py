"""Cops n Robbers' round: the generic line round (`engine.lines.play_base_game`), then the
chase bonus its paid spin triggers, then the cap; and the chase alone (the bonus wheel's
prize).

Kernels take the line `Model` and the rules' `TrailModel` (game.py); like the engine's they
validate nothing, never raise, and also run as plain Python (NUMBA_DISABLE_JIT=1). A round
returns the engine's `RoundResult`, the chase in its bonus fields; tape rows are
`engine.tape.TapeKind`s (BONUS, TRAIL, PARADE, COLLECT ...).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.counters import add_round
from reelforge.engine.jit import inline_kernel, kernel
from reelforge.engine.lines import (
    NO_ROUND,
    RoundResult,
    cap_round,
    count_symbol,
    play_base_game,
    play_spin,
    read_cash,
    write_row,
)
from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TapeKind


class ChaseResult(NamedTuple):
    """The chase bonus (`play_trail`); wins in credits."""

    line_win: int
    collected: int
    spins: int
    last_spin: int  # the index of its last spin
    tape_rows: int  # the tape rows written so far, the next row's index
    guard: bool  # the spin guard stopped it


@kernel
def play_trail(model, trail, start, lines, bet_per_line, total_bet, rng, stops, window, tape,
               pos, record, spin, room):
    """The chase bonus, decided whole: spins until the ID parade picks Bert.

    Each robber in view moves the robber one position and collects the cash values in view at
    the multiplier of his new position times the starting multiplier; then each cop moves the
    cop one position; a cop reaching the robber means the ID parade. Stops early once the
    win reaches `room` credits (the round's cap; 0 = none). Returns a `ChaseResult`.
    """
    robber = trail.robber_start
    cop = trail.cop_start
    last = trail.multiplier.shape[0] - 1
    line_win = 0
    collected = 0
    spins = 0
    guard = False
    while True:
        if spins >= model.spin_guard:
            guard = True
            break
        spins += 1
        spin += 1
        shown = play_spin(model, trail.reel_set, lines, bet_per_line, total_bet, False, 1, rng,
                          stops, window, tape, pos, record, spin, False, -1)
        pos = shown.tape_rows
        line_win += shown.line_win
        robbers, values, pos = read_cash(model, window, rng, tape, pos, record, spin)
        cops = count_symbol(model, window, trail.cop)
        gained = 0
        for _ in range(robbers):
            if robber < last:
                robber += 1
            gained += values * trail.multiplier[robber] * start
        if gained > 0:
            win = gained * total_bet
            collected += win
            pos = write_row(tape, pos, record, TapeKind.COLLECT, spin, robbers, values,
                            trail.multiplier[robber] * start, win, 0)
        cop += cops
        pos = write_row(tape, pos, record, TapeKind.TRAIL, spin, robber, min(cop, robber),
                        robbers, cops, 0)
        if room > 0 and line_win + collected >= room:
            break
        if cop >= robber:
            cop = robber
            t = draw_below(rng, trail.parade_cum[2])
            outcome = 0 if t < trail.parade_cum[0] else (1 if t < trail.parade_cum[1] else 2)
            if outcome == 2 and trail.next_higher[robber] >= 0:
                robber = trail.next_higher[robber]  # Vic: the robber runs to the next multiplier
            elif outcome >= 1:
                cop = max(robber - trail.pushback, 0)  # Sid (or Vic with none ahead)
            pos = write_row(tape, pos, record, TapeKind.PARADE, spin, outcome, robber, cop, 0,
                            0)
            if outcome == 0:
                break  # Bert: the bonus ends and pays what was collected
    return ChaseResult(line_win=line_win, collected=collected, spins=spins, last_spin=spin,
                       tape_rows=pos, guard=guard)


@inline_kernel
def play_round(model, trail, lines, bet_per_line, jackpot_eligible, rng, stops, window, tape,
               record):
    """The whole paid round: base spin and its free spins, then the chase if the paid spin
    shows a trigger count with a starting multiplier, then the cap on the round's win.
    Returns an `engine.lines.RoundResult`."""
    base = play_base_game(model, lines, bet_per_line, jackpot_eligible, rng, stops, window, tape,
                          record, trail.trigger)
    pos = base.tape_rows
    guard = base.guard
    total = base.line_win + base.scatter_win + base.collect_win + base.free_win
    bonus_win = 0
    bonus_spins = 0
    start = trail.start_multiplier[base.watched]
    if start > 0:
        pos = write_row(tape, pos, record, TapeKind.BONUS, base.played, base.watched, start, 0,
                        0, 0)
        room = 0
        if model.cap > 0:
            room = max(model.cap - total, 1)
        chase = play_trail(model, trail, start, lines, bet_per_line, lines * bet_per_line, rng,
                           stops, window, tape, pos, record, base.played, room)
        pos = chase.tape_rows
        bonus_win = chase.line_win + chase.collected
        bonus_spins = chase.spins
        guard = guard or chase.guard
        total += bonus_win
    total, win_capped = cap_round(model, total)
    return RoundResult(
        total=total, line_win=base.line_win, scatter_win=base.scatter_win,
        free_win=base.free_win, played=base.played, retriggers=base.retriggers,
        jackpots=base.jackpots, tape_rows=pos, guard=guard, spins_capped=base.spins_capped,
        collect_win=base.collect_win, bonus_win=bonus_win, bonus_spins=bonus_spins,
        win_capped=win_capped)


@kernel
def play_rounds(model, trail, lines, bet_per_line, jackpot_eligible, rng, n_rounds, record,
                band_edges, counters, bands, square_sum, stops, window, tape):
    """n_rounds of `play_round` added to the statistics arrays, as `engine.lines.play_rounds`
    adds the plain round's (same arrays, indexed by `Sim`), the last one's `RoundResult`
    returned: live play (one round, `record`: write the tape) and simulation, compiled once."""
    result = NO_ROUND
    for _ in range(n_rounds):
        result = play_round(model, trail, lines, bet_per_line, jackpot_eligible, rng, stops,
                            window, tape, record)
        add_round(counters, bands, band_edges, square_sum, result)
    return result


@kernel
def play_bonus_kernel(model, trail, start, lines, bet_per_line, rng, stops, window, tape, record):
    """The chase alone, at a starting multiplier (won on the gamble's bonus wheel).

    Returns the `RoundResult` of `play_round` with only the bonus parts set.
    """
    total_bet = lines * bet_per_line
    pos = write_row(tape, 0, record, TapeKind.BONUS, 0, 0, start, 0, 0, 0)
    chase = play_trail(model, trail, start, lines, bet_per_line, total_bet, rng, stops, window,
                       tape, pos, record, np.int64(0), model.cap)  # not a literal: jit.py
    bonus_win = chase.line_win + chase.collected
    total, win_capped = cap_round(model, bonus_win)
    return RoundResult(
        total=total, line_win=0, scatter_win=0, free_win=0, played=0, retriggers=0, jackpots=0,
        tape_rows=chase.tape_rows, guard=chase.guard, spins_capped=False, collect_win=0,
        bonus_win=bonus_win, bonus_spins=chase.spins, win_capped=win_capped)
