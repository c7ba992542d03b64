"""compile(spec) -> Model: the game as a NamedTuple of arrays that numba kernels read.

Symbols become indices in the spec's order; reel sets become indices in the spec's order.
Pays are integers: line pays in multiples of the bet per line, scatter pays in multiples of
the total bet.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.spec.limits import LINE_SPIN_GUARD
from reelforge.spec.model import GameSpec

RETRIGGER_CODES = {"none": 0, "unlimited": 1, "capped": 2}
WILD_DRAW_CODES = {"product": 0, "sum": 1, "max": 2}
# Unlimited retriggers have a finite mean but no bound: this guard ends a pathological bonus
# and is flagged on the outcome; the analysis reports how often it is reached. Defined in
# spec.limits, where the loader refuses a max_total_spins above it.
SPIN_GUARD = LINE_SPIN_GUARD


class Model(NamedTuple):
    """Compiled line game. Shapes: S symbols, R reels, H rows, L paylines, K reel sets."""

    n_reels: int
    n_rows: int
    strips: np.ndarray  # (K, R, max_len) int16, -1 padded: symbol index per stop
    strip_len: np.ndarray  # (K, R) int64
    cum_weights: np.ndarray  # (K, R, max_len) int64 cumulative stop weights; unused when uniform
    weighted: np.ndarray  # (K,) bool
    paylines: np.ndarray  # (L, R) int64: row per reel
    line_pay: np.ndarray  # (S, R+1) int64: pay by count, multiples of the bet per line
    is_wild: np.ndarray  # (S,) bool
    substitutes: np.ndarray  # (S, S) bool: [w, s] is True when wild w stands in for s
    wild_multiplier: np.ndarray  # (S,) int64, 1 for non-wilds
    multiplier_product: bool  # several wilds on a line: multiply (True) or take the largest
    pure_wild_rule: int  # 0 pay the higher, 1 always the pure-wild run, 2 always the substituted
    scatter_symbol: np.ndarray  # (C,) int64
    scatter_by_cells: np.ndarray  # (C,) bool
    scatter_pay: np.ndarray  # (C, max_count+1) int64, multiples of the total bet
    base_set: int
    fg_scatter: int  # index into scatter_symbol of the trigger, -1: no free games
    fg_award: np.ndarray  # (max_count+1,) int64 spins by trigger count
    fg_retrigger_award: np.ndarray  # (max_count+1,) int64
    fg_retrigger_mode: int  # RETRIGGER_CODES
    fg_max_total: int
    fg_multiplier: int  # fixed free-spin multiplier, used when fg_multipliers has one entry
    fg_multipliers: np.ndarray  # (M,) int64 multipliers drawn per free spin
    fg_multiplier_cum: np.ndarray  # (M,) int64 cumulative integer weights
    fg_set: int
    fg_exempt: np.ndarray  # (S, R+1) bool: line awards the free-game multiplier skips
    jackpot_symbol: int  # -1: no jackpot
    jackpot_count: int
    jackpot_line: int  # 0-based payline index
    spin_guard: int
    mixed_group: np.ndarray  # (S,) int64: mixed-pay group of each symbol, -1 none
    mixed_pay: np.ndarray  # (G, R+1) int64: group pay by count, multiples of the bet per line
    has_mixed: bool  # any mixed-pay group: lets games without one skip the group checks
    is_cash: np.ndarray  # (S,) bool: symbol carries a cash value
    cash_values: np.ndarray  # (V,) int64 values in multiples of the total stake
    cash_cum: np.ndarray  # (V,) int64 cumulative integer weights
    collector: int  # symbol that collects cash values in view, -1 none
    collect: bool  # collectors collect in the base game of the current mode
    cap: int  # most credits one round pays, 0 = no cap (set per bet by Game.model_for)
    # [wild_multipliers]: wilds in view draw their own multiplier on reel sets with a table
    wild_draw_count: np.ndarray  # (K,) int64 entries of reel set k's table, 0: draws none
    wild_draw_values: np.ndarray  # (K, D) int64 multipliers, first wild_draw_count[k]
    wild_draw_cum: np.ndarray  # (K, D) int64 cumulative integer weights
    wild_draw_combine: int  # WILD_DRAW_CODES: how the draws of a paid run's wilds combine
    # (R, H) int64 work buffer: the multipliers the wilds in view drew this spin. Kernels never
    # allocate (engine/jit.py) and the rules' round signatures carry no buffer for it; they
    # hold the GIL (no nogil), so one spin at a time per process writes it
    wild_cells: np.ndarray
    # expand = "sticky": the free games' wilds fill their reel and stay ([wild_multipliers])
    sticky_set: int  # the reel set whose wilds expand and stick, -1: none
    sticky_wild: int  # the wild symbol an expanded reel shows, -1: none
    sticky_redraw: bool  # sticky_multiplier = "redrawn": every wild reel draws anew each spin
    # (R,) int64 round state, a work buffer like wild_cells: the multiplier of each wild reel
    # of the free games under way, 0 where the reel is not wild; cleared as the free games start
    sticky_reels: np.ndarray
    # > 0: a buy mode's round: no base spin, the free games started with this many spins
    # (set per mode by Game.model_for)
    buy_spins: int = 0


def compile_model(spec: GameSpec) -> Model:
    index = {sid: i for i, sid in enumerate(spec.symbol_ids)}
    n_sym, n_reels = len(index), spec.reels
    sets = spec.reel_sets
    max_len = max(len(s) for rs in sets for s in rs.strips)
    strips = np.full((len(sets), n_reels, max_len), -1, dtype=np.int16)
    strip_len = np.zeros((len(sets), n_reels), dtype=np.int64)
    cum = np.zeros((len(sets), n_reels, max_len), dtype=np.int64)
    weighted = np.zeros(len(sets), dtype=np.bool_)
    for k, rs in enumerate(sets):
        weighted[k] = rs.weights is not None
        for r, strip in enumerate(rs.strips):
            strips[k, r, : len(strip)] = [index[s] for s in strip]
            strip_len[k, r] = len(strip)
            if rs.weights is not None:
                cum[k, r, : len(strip)] = np.cumsum(rs.weights[r])

    line_pay = np.zeros((n_sym, n_reels + 1), dtype=np.int64)
    for sid, pays in spec.paytable:
        for count, pay in pays:
            line_pay[index[sid], count] = pay
    is_wild = np.zeros(n_sym, dtype=np.bool_)
    subst = np.zeros((n_sym, n_sym), dtype=np.bool_)
    wild_mult = np.ones(n_sym, dtype=np.int64)
    for w in spec.wilds:
        is_wild[index[w.symbol]] = True
        wild_mult[index[w.symbol]] = w.multiplier
        for s in w.substitutes:
            subst[index[w.symbol], index[s]] = True

    max_count = max([n_reels] + [n_reels * spec.rows for s in spec.scatters if s.counting == "cells"])
    scatter_symbol = np.array([index[s.symbol] for s in spec.scatters], dtype=np.int64)
    scatter_cells = np.array([s.counting == "cells" for s in spec.scatters], dtype=np.bool_)
    scatter_pay = np.zeros((len(spec.scatters), max_count + 1), dtype=np.int64)
    for c, scatter in enumerate(spec.scatters):
        for count, pay in scatter.pays:
            scatter_pay[c, count] = pay

    fg = spec.free_games
    fg_award = np.zeros(max_count + 1, dtype=np.int64)
    fg_again = np.zeros(max_count + 1, dtype=np.int64)
    fg_exempt = np.zeros((n_sym, n_reels + 1), dtype=np.bool_)
    set_index = {rs.name: k for k, rs in enumerate(sets)}
    if fg is not None:
        for count, spins in fg.award:
            fg_award[count] = spins
        for count, spins in fg.retrigger_award:
            fg_again[count] = spins
        for sid, count in fg.exempt:
            fg_exempt[index[sid], count] = True
    if fg is not None and fg.multiplier_weights:
        fg_mults = np.array([m for m, _ in fg.multiplier_weights], dtype=np.int64)
        fg_cum = np.cumsum([w for _, w in fg.multiplier_weights]).astype(np.int64)
    else:
        fg_mults = np.array([1 if fg is None else fg.multiplier], dtype=np.int64)
        fg_cum = np.ones(1, dtype=np.int64)
    jp = spec.jackpot
    groups = spec.mixed
    mixed_group = np.full(n_sym, -1, dtype=np.int64)
    mixed_pay = np.zeros((max(len(groups), 1), n_reels + 1), dtype=np.int64)
    for g, group in enumerate(groups):
        for sid in group.symbols:
            mixed_group[index[sid]] = g
        for count, pay in group.pays:
            mixed_pay[g, count] = pay
    cash = spec.cash
    is_cash = np.zeros(n_sym, dtype=np.bool_)
    if cash is not None:
        for sid in cash.symbols:
            is_cash[index[sid]] = True
    cash_values = np.array([v for v, _ in cash.values] if cash else [0], dtype=np.int64)
    cash_cum = np.cumsum([w for _, w in cash.values] if cash else [1]).astype(np.int64)
    draws = spec.wild_draws
    tables = [draws.weights(rs.name) if draws else () for rs in sets]
    width = max([1] + [len(t) for t in tables])
    draw_count = np.array([len(t) for t in tables], dtype=np.int64)
    draw_values = np.ones((len(sets), width), dtype=np.int64)
    draw_cum = np.ones((len(sets), width), dtype=np.int64)
    for k, table in enumerate(tables):
        if table:
            draw_values[k, : len(table)] = [m for m, _ in table]
            draw_cum[k, : len(table)] = np.cumsum([w for _, w in table])
    return Model(
        n_reels=n_reels, n_rows=spec.rows, strips=strips, strip_len=strip_len, cum_weights=cum,
        weighted=weighted, paylines=np.array(spec.paylines, dtype=np.int64), line_pay=line_pay,
        is_wild=is_wild, substitutes=subst, wild_multiplier=wild_mult,
        multiplier_product=spec.wild_multiplier_combine == "product",
        pure_wild_rule=("highest", "wild", "substituted").index(spec.pure_wild_vs_substituted),
        scatter_symbol=scatter_symbol, scatter_by_cells=scatter_cells, scatter_pay=scatter_pay,
        base_set=set_index[spec.base_reel_set],
        fg_scatter=-1 if fg is None else [s.symbol for s in spec.scatters].index(fg.trigger),
        fg_award=fg_award, fg_retrigger_award=fg_again,
        fg_retrigger_mode=RETRIGGER_CODES["none" if fg is None else fg.retrigger],
        fg_max_total=0 if fg is None else fg.max_total_spins,
        fg_multiplier=1 if fg is None else fg.multiplier,
        fg_multipliers=fg_mults, fg_multiplier_cum=fg_cum,
        fg_set=set_index[spec.base_reel_set if fg is None else fg.reel_set], fg_exempt=fg_exempt,
        jackpot_symbol=-1 if jp is None else index[jp.symbol],
        jackpot_count=0 if jp is None else jp.count,
        jackpot_line=0 if jp is None else jp.line - 1, spin_guard=SPIN_GUARD,
        mixed_group=mixed_group, mixed_pay=mixed_pay,
        has_mixed=bool(groups), is_cash=is_cash, cash_values=cash_values,
        cash_cum=cash_cum,
        collector=-1 if cash is None or cash.collector is None else index[cash.collector],
        collect=False, cap=0, wild_draw_count=draw_count, wild_draw_values=draw_values,
        wild_draw_cum=draw_cum, wild_cells=np.ones((n_reels, spec.rows), dtype=np.int64),
        wild_draw_combine=WILD_DRAW_CODES[draws.combine if draws else "product"],
        sticky_set=[rs.name for rs in sets].index(draws.sticky[0]) if draws and draws.sticky else -1,
        sticky_wild=index[spec.wilds[0].symbol] if draws and draws.sticky else -1,
        sticky_redraw=bool(draws and draws.redrawn),
        sticky_reels=np.zeros(n_reels, dtype=np.int64),
    )
