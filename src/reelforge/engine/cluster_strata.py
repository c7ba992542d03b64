"""The strata `analysis.stratified` samples, for a standard cluster game (no rules module).

Its round is one spin on the base reel set, so the base stratum is the whole round and there
are no feature classes: the estimate is the base stratum's mean with its CI. A rules module's
game part offers the same functions for its own round (games/candy_jar_clusters/game.py):
`feature_classes`, `initial_trigger_probabilities`, `base_multiplier`, `base_stratum`,
`feature_stratum`.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from reelforge.engine.clusters import kernel, new_buffers, play_cluster_spin


# The counters a base stratum and a feature stratum report, as `analysis.stratified` reads
# them; a rules module's kernels index their arrays by these.
class BaseField(IntEnum):
    """A row of a base stratum's `by_pair`: sums over the base spins of one (drawn-grid
    class, final class) pair."""

    SPINS = 0
    RAW_WIN = 1  # wins before the random multiplier
    WIN_ABOVE_THRESHOLD = 2  # wins above the threshold (after the multiplier)
    CAP_SENSITIVE = 3  # spins whose raw win times the largest multiplier reaches the cap


class BaseExtra(IntEnum):
    """A base stratum's totals over every spin."""

    MAX_WIN = 0  # a maximum
    HITS = 1
    TUMBLES = 2
    MULTIPLIED = 3  # spins with a random multiplier above 1
    GUARD_HITS = 4
    BIG = 5  # wins of at least `big` coins
    CAPPED = 6  # wins cut to the cap


class FreeField(IntEnum):
    """A feature stratum's per-round counters (`analysis.stratified.FeatureStratum`)."""

    ROUNDS = 0
    WIN = 1
    CAPPED = 2
    NEAR_CAP = 3  # rounds winning at least `near` coins
    SPINS = 4
    SUPER_SPINS = 5
    JACKPOT_WIN = 6
    JACKPOTS = 7
    MAX_WIN = 8  # a maximum
    GUARD_HITS = 9
    BIG = 10  # rounds winning at least `big` coins


BASE_FIELDS = tuple(f.name.lower() for f in BaseField)
BASE_EXTRA = tuple(f.name.lower() for f in BaseExtra)
FREE_FIELDS = tuple(f.name.lower() for f in FreeField)


@kernel
def base_spins(cm, mult_values, mult_cum, rng, raws, wins, extra, work):
    """Play len(raws) base spins as `cluster_round.play_plain_round` does (the same draws):
    raws[i] the i-th spin's win before its random multiplier, wins[i] after it (uncapped);
    extra (len(BaseExtra),) int64 += tumbles, spins with a multiplier above 1 and spins
    stopped by the tumble guard (the other totals are the caller's, from the wins)."""
    for i in range(raws.shape[0]):
        spin = play_cluster_spin(cm, 0, mult_values, mult_cum, rng, work, False)
        raws[i] = spin.win // spin.multiplier
        wins[i] = spin.win
        extra[BaseExtra.TUMBLES] += spin.tumbles
        if spin.multiplier > 1:
            extra[BaseExtra.MULTIPLIED] += 1
        if spin.guard:
            extra[BaseExtra.GUARD_HITS] += 1


def feature_classes(game) -> dict[int, str]:
    return {}


def initial_trigger_probabilities(game) -> dict[int, float]:
    return {}


def base_multiplier(game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(values, weights) of the base game's random multiplier."""
    values, cum = game.mult
    cum = [int(x) for x in cum]
    return tuple(int(v) for v in values), tuple(b - a for a, b in zip([0] + cum, cum))


def base_stratum(game, bits, spins, threshold, big) -> dict:
    """`spins` rounds, counted as a rules module's base stratum counts its base spins (all
    in the one class 0): by_pair {(0, 0): its row, by `BaseField` (`threshold` in coins)},
    raw_hist {raw win: spins} (uncut: a game may have no cap), and the totals BASE_EXTRA
    names (`big` in coins)."""
    raws = np.zeros(spins, dtype=np.int64)
    wins = np.zeros(spins, dtype=np.int64)
    extra = np.zeros(len(BaseExtra), dtype=np.int64)
    values, cum = game.mult
    base_spins(game.model, values, cum, bits, raws, wins, extra, new_buffers(game.model))
    cap = game.cap_coins
    paid = np.minimum(wins, cap) if cap else wins
    extra[BaseExtra.MAX_WIN] = paid.max(initial=0)
    extra[BaseExtra.HITS] = np.count_nonzero(paid)
    extra[BaseExtra.BIG] = np.count_nonzero(paid >= big)
    extra[BaseExtra.CAPPED] = np.count_nonzero(wins >= cap) if cap else 0
    row = np.zeros(len(BaseField), dtype=np.int64)
    row[BaseField.SPINS] = spins
    row[BaseField.RAW_WIN] = raws.sum()
    row[BaseField.WIN_ABOVE_THRESHOLD] = paid[paid > threshold].sum()
    row[BaseField.CAP_SENSITIVE] = np.count_nonzero(raws * int(values.max()) >= cap) if cap else 0
    seen, times = np.unique(raws, return_counts=True)
    return {"spins": spins, "by_pair": {(0, 0): [int(x) for x in row]},
            "raw_hist": {int(r): int(t) for r, t in zip(seen, times)},
            **{name: int(v) for name, v in zip(BASE_EXTRA, extra)}}


def feature_stratum(game, mask, bits, rounds, near, big) -> dict:
    raise ValueError(f"{game.id}: a standard cluster game has no feature class {mask}")
