"""The features a standard cluster game (no rules module) states as data in `[features]`.

* `[features.free_spins]`: the game's `scatter` symbol (role "scatter", exactly one) is
  counted on the grid the tumbles leave (after the last tumble of a spin, never before), and
  `awards` pays free spins by that count: `{3 = 10, 4 = 12}` gives the spins of the largest
  listed count at or below it. Free spins refill from `reel_set`; scatters there retrigger by
  `retrigger` (default: `awards`). A round plays at most `max_spins` free spins: an award
  past it is cut (the bound the loader wants of every feature that can repeat).
* `[features.grid_multipliers]`: a cell's first win marks it (value 1, no multiplier yet); its
  second win sets its multiplier to `start`, each later win multiplies it by `growth`, up to
  `max`. A winning cluster pays its table pay (wild multipliers applied) times the SUM of the
  multipliers of its cells that carry one (1 when none does), read before the wins of that
  tumble mark their cells. The cells keep their marks through the tumbles of a spin and the
  free spins of the round, and every round starts with none: nothing leaks into the next.

Plain Python: the engine compiles this into `engine.cluster_features.FeatureModel`.
"""

from __future__ import annotations

from dataclasses import dataclass

from reelforge.spec.limits import (
    Bound,
    cascade_bound,
    const,
    factor,
    product,
    random_multiplier_top,
    smaller,
    total,
)
from reelforge.spec.parts import (
    read_max_spins,
    read_scatter,
    reel_set_of,
    refuse_silent_scatter,
    roles_of,
    scatter_awards,
)

FEATURE_TABLES = ("free_spins", "grid_multipliers")
MAX_FREE_SPINS = 10_000  # the most `max_spins` may be: a round stays a round


@dataclass(frozen=True)
class FreeSpinsFeature:
    scatter: str  # the scatter symbol's id
    awards: tuple[tuple[int, int], ...]  # (scatters on the final grid, free spins), ascending
    retrigger: tuple[tuple[int, int], ...]  # the same, counted after each free spin
    reel_set: str  # the free spins' refill set
    max_spins: int  # most free spins one round plays


@dataclass(frozen=True)
class GridMultipliersFeature:
    start: int  # a cell's multiplier on its second win (>= 2)
    growth: int  # each later win multiplies it by this (>= 1)
    max: int  # and never beyond this (>= start)


@dataclass(frozen=True)
class ClusterFeatures:
    free_spins: FreeSpinsFeature | None
    grid_multipliers: GridMultipliersFeature | None


def parse_cluster_features(table, spec) -> ClusterFeatures:
    """The `[features]` table of a standard cluster game; SpecError naming the key."""
    roles = roles_of(spec.symbols)
    free = table.sub("free_spins", None)
    free_spins = None if free is None else _free_spins(free, spec, roles)
    grid = table.sub("grid_multipliers", None)
    grid_multipliers = None if grid is None else _grid_multipliers(grid)
    table.finish(FEATURE_TABLES, "feature")
    if free_spins is None:
        refuse_silent_scatter(table, "free_spins", roles)
    return ClusterFeatures(free_spins, grid_multipliers)


def _free_spins(table, spec, roles) -> FreeSpinsFeature:
    """The scatter and its awards (counts >= 1: a count above the grid's cells loads, and
    `reelforge check` warns of it; spins 1..MAX_FREE_SPINS)."""
    scatter = read_scatter(table, roles)
    awards = scatter_awards(table, "awards", required=True, most=MAX_FREE_SPINS)
    retrigger = scatter_awards(table, "retrigger", required=True, most=MAX_FREE_SPINS) \
        if "retrigger" in table.data else awards
    reel_set = reel_set_of(table, "reel_set", table.get("reel_set", str),
                           (rs.name for rs in spec.reel_sets))
    max_spins = read_max_spins(table, MAX_FREE_SPINS)
    table.finish()
    return FreeSpinsFeature(scatter, awards, retrigger, reel_set, max_spins)


def _grid_multipliers(table) -> GridMultipliersFeature:
    start = table.int("start", low=2)
    growth = table.int("growth", low=1)
    top = table.int("max", low=start)
    if top > 1_000_000:
        raise table.fail("max", top, "must be <= 1000000")
    table.finish()
    return GridMultipliersFeature(start, growth, top)


def feature_warnings(spec) -> list[str]:
    """What `reelforge check` warns of: a scatter count that a grid of rows x cols cannot
    show (its award can never be paid)."""
    f = spec.features
    if not isinstance(f, ClusterFeatures) or f.free_spins is None:
        return []
    cells = spec.rows * spec.cols
    out = []
    for name in ("awards", "retrigger"):
        for count, _spins in getattr(f.free_spins, name):
            if count > cells:
                out.append(f"{spec.source}: features.free_spins.{name}.{count}: a grid of "
                           f"{spec.rows} x {spec.cols} shows at most {cells} scatters: this "
                           "award can never be paid")
    return out


def feature_round_bound(spec) -> Bound:
    """Coins one round adds up at a coin value of 1 (`engine.cluster_features.play_round`):
    the base spin and at most `max_spins` free spins, each a cascade whose clusters carry a
    grid multiplier of at most `max` per cell; a cap stops the spins, one spin past it."""
    f = spec.features
    grid = const(1) if f.grid_multipliers is None else product(
        factor("features.grid_multipliers.max", f.grid_multipliers.max), const(spec.rows * spec.cols))
    spin = product(cascade_bound(spec, random_multiplier_top(spec)), grid)
    if f.free_spins is None:
        return spin
    free = product(factor("features.free_spins.max_spins", f.free_spins.max_spins), spin)
    if spec.max_win_x:
        free = smaller(free, total(product(factor("bet.max_win_x", spec.max_win_x),
                                           factor("bet.coins", spec.bet.max_lines)), spin))
    return total(spin, free)
