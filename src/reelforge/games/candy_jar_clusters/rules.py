"""Candy Jar Clusters' rules compiled: [features] (parsed by `spec`) into `CandyModel`, the
arrays the kernels read. (`CandyModel` stays in a module of this name: numba's cache keys
name its class by module, and a renamed module breaks a warm cache.)

The file's reel sets named by `free_spins_reel_set` and `super_spin_reel_set` hold the paying
symbols and wilds of a free spin and of a super spin; this module composes from them the reel
sets a spin actually uses, adding the EXTRA FREE SPIN symbol's weights when the FREE SPINS
modifier is active and the five jackpot symbols' weights when the JACKPOTS modifier is:

    0 base   1 free   2 free+extra   3 free+jackpots   4 free+extra+jackpots   5 super(+all)

A super spin has every modifier active, so its set always carries both.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.cluster_game import reel_set_weights, refill_set
from reelforge.engine.clusters import multiplier_table
from reelforge.errors import SpecError
from reelforge.games.candy_jar_clusters.spec import MODIFIERS


class CandyModel(NamedTuple):
    """The compiled rules (numba reads it). Reel set indices as in the module docstring."""

    free_sets: np.ndarray  # (4,) int64: [extra? + 2 * jackpots?] -> reel set of a free spin
    super_set: int
    base_mult_values: np.ndarray
    base_mult_cum: np.ndarray
    free_mult_values: np.ndarray
    free_mult_cum: np.ndarray
    super_mult_values: np.ndarray
    super_mult_cum: np.ndarray
    candy_symbols: np.ndarray  # (3,) int64: the candy of the wild, free-spins, jackpots jar
    trigger_candies: int
    free_spins: int
    wild_count_values: np.ndarray
    wild_count_cum: np.ndarray
    wild_symbols: np.ndarray
    wild_symbol_cum: np.ndarray
    extra_start_values: np.ndarray
    extra_start_cum: np.ndarray
    extra_symbol: int
    extra_per_super: int
    jackpot_symbols: np.ndarray  # (5,) int64
    jackpot_collect: np.ndarray  # (5,) int64
    jackpot_pays: np.ndarray  # (5,) int64, coins
    cap: int  # coins; 0 = none
    spin_guard: int


def compose_sets(spec) -> list[tuple[str, object]]:
    """The refill sets of `build_cluster_model` (see the module docstring), by symbol index."""
    f = spec.features
    ids = list(spec.symbol_ids)
    by_name = {rs.name: rs for rs in spec.reel_sets}

    def weights(rs, extra=False, jackpots=False):
        w = reel_set_weights(spec, rs)
        if extra:
            w[:, ids.index(f.extra_symbol)] += f.extra_weights
        if jackpots:
            for jp in f.jackpots:
                w[:, ids.index(jp.name)] += jp.weights
        return w

    sets = [refill_set(spec, spec.reel_sets[0])]
    free = by_name[f.free_set]
    for extra, jackpots in ((False, False), (True, False), (False, True), (True, True)):
        sets.append(("weights", weights(free, extra, jackpots)))
    sets.append(("weights", weights(by_name[f.super_set], True, True)))
    return sets


def check_composition(spec) -> None:
    """Refuse reel sets that show a symbol where the rules give it no meaning."""
    f = spec.features
    special = {f.extra_symbol} | {jp.name for jp in f.jackpots}
    candies = {c for c, _m in f.jars}
    for rs in spec.reel_sets:
        shown = ({sid for sid, w in rs.weights if any(w)} if rs.weights is not None else
                 {s for strip in rs.strips for s in strip})
        wrong = shown & (special | (candies if rs.name != spec.reel_sets[0].name else set()))
        if wrong:
            raise SpecError(spec.source, f"reels.{rs.name}", sorted(wrong),
                            "extra-spin and jackpot symbols come from [features]; candies only "
                            "in the base game's reel set")


def compile_candy(spec) -> CandyModel:
    f = spec.features
    ids = list(spec.symbol_ids)
    check_composition(spec)
    multipliers = {name: (values, weights) for name, values, weights in spec.random_multipliers}

    def mult(name):
        return multiplier_table(*multipliers.get(name, ((1,), (1,))))

    base_mv, base_mc = mult(spec.reel_sets[0].name)
    free_mv, free_mc = mult(f.free_set)
    super_mv, super_mc = mult(f.super_set)
    jar = {m: c for c, m in f.jars}
    coins = spec.bet.max_lines

    def arr(x):
        return np.asarray(x, dtype=np.int64)

    return CandyModel(
        free_sets=arr([1, 2, 3, 4]), super_set=5,
        base_mult_values=base_mv, base_mult_cum=base_mc, free_mult_values=free_mv,
        free_mult_cum=free_mc, super_mult_values=super_mv, super_mult_cum=super_mc,
        candy_symbols=arr([ids.index(jar[m]) for m in MODIFIERS]),
        trigger_candies=f.trigger_candies, free_spins=f.free_spins,
        wild_count_values=arr(f.wild_count.values), wild_count_cum=np.cumsum(arr(f.wild_count.weights)),
        wild_symbols=arr([ids.index(s) for s in f.wild_symbols]),
        wild_symbol_cum=np.cumsum(arr(f.wild_symbol_weights)),
        extra_start_values=arr(f.extra_start.values),
        extra_start_cum=np.cumsum(arr(f.extra_start.weights)),
        extra_symbol=ids.index(f.extra_symbol), extra_per_super=f.extra_per_super_spin,
        jackpot_symbols=arr([ids.index(jp.name) for jp in f.jackpots]),
        jackpot_collect=arr([jp.collect for jp in f.jackpots]),
        jackpot_pays=arr([jp.pays_x * coins for jp in f.jackpots]),
        cap=spec.max_win_x * coins, spin_guard=f.spin_guard)
