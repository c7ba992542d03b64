"""The strata `analysis.stratified` samples, for a pays-anywhere game: the whole round.

The free spins start from the global multiplier the base spin left, so they are not
independent of the base spin given a small class of triggers (the stratified method's
premise): the round, base spin and free spins together, is the one stratum, and the estimate
is the plain Monte Carlo mean of whole rounds with its 95% CI. `feature_classes` is empty, so
`analysis.stratified` asks for no feature stratum.
"""

from __future__ import annotations

import numpy as np

from reelforge.engine import anywhere as ak
from reelforge.engine.cluster_strata import BASE_EXTRA, BaseExtra, BaseField
from reelforge.engine.jit import kernel


@kernel
def round_wins(model, rng, wins, extra, work):
    """Play len(wins) rounds: wins[i] the i-th round's win in coins (after the cap); extra
    (len(BaseExtra),) int64 += the rounds stopped by the tumble guard."""
    for i in range(wins.shape[0]):
        result = ak.play_anywhere_round(model, rng, work, False)
        wins[i] = result.total
        if result.guard:
            extra[BaseExtra.GUARD_HITS] += 1


def feature_classes(game) -> dict[int, str]:
    return {}


def initial_trigger_probabilities(game) -> dict[int, float]:
    return {}


def base_multiplier(game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """No random multiplier drawn apart from the round: the table [1]."""
    return (1,), (1,)


def base_stratum(game, bits, spins, threshold, big) -> dict:
    """`spins` whole rounds, counted as `engine.cluster_strata.base_stratum` counts base
    spins (all in class 0; `threshold` and `big` in coins)."""
    wins = np.zeros(spins, dtype=np.int64)
    extra = np.zeros(len(BaseExtra), dtype=np.int64)
    round_wins(game.model, bits, wins, extra, ak.new_work(game.model))
    cap = game.cap_coins
    extra[BaseExtra.MAX_WIN] = wins.max(initial=0)
    extra[BaseExtra.HITS] = np.count_nonzero(wins)
    extra[BaseExtra.BIG] = np.count_nonzero(wins >= big)
    extra[BaseExtra.CAPPED] = np.count_nonzero(wins >= cap) if cap else 0
    row = np.zeros(len(BaseField), dtype=np.int64)
    row[BaseField.SPINS] = spins
    row[BaseField.RAW_WIN] = wins.sum()
    row[BaseField.WIN_ABOVE_THRESHOLD] = wins[wins > threshold].sum()
    seen, times = np.unique(wins, return_counts=True)
    return {"spins": spins, "by_pair": {(0, 0): [int(x) for x in row]},
            "raw_hist": {int(r): int(t) for r, t in zip(seen, times)},
            **{name: int(v) for name, v in zip(BASE_EXTRA, extra)}}


def feature_stratum(game, mask, bits, rounds, near, big) -> dict:
    raise ValueError(f"{game.id}: a pays-anywhere round is one stratum; no feature class {mask}")
