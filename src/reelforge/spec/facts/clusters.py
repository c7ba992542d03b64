"""A cluster game's facts (spec/clusters.py): its grid, clusters, coins and random
multipliers, and a standard game's free spins and grid multipliers
(spec/cluster_features.py)."""

from __future__ import annotations

from typing import Any

from reelforge.spec.cluster_features import ClusterFeatures
from reelforge.spec.facts.values import Fact, Times, numeral, words


def cluster_facts(spec: Any) -> dict[str, Fact]:
    bet = spec.bet
    out: dict[str, Fact] = {
        "rows": numeral(spec.rows), "cols": numeral(spec.cols),
        "cells": numeral(spec.rows * spec.cols),
        "min_cluster": numeral(spec.min_size),
        "top_cluster": numeral(max(size for _s, pays in spec.pays for size, _p in pays)),
        "coins": numeral(bet.max_lines), "min_coin_value": "1",
        "max_coin_value": numeral(bet.max_bet_per_line)}
    if spec.max_win_x:
        out["max_win_x"] = Times(spec.max_win_x)
    for name, values, weights in spec.random_multipliers:
        shown = [f"{numeral(v)}x" for v, w in zip(values, weights, strict=True) if w and v > 1]
        if shown:
            out[f"random_multiplier.{name}"] = words(shown, "or")
    if isinstance(spec.features, ClusterFeatures):  # a standard game's features as data
        out.update(_cluster_feature_facts(spec.features))
    return out


def _cluster_feature_facts(f: ClusterFeatures) -> dict[str, Fact]:
    """A standard cluster game's free spins and grid multipliers (spec/cluster_features.py)."""
    out: dict[str, Fact] = {}
    if f.free_spins is not None:
        fs = f.free_spins
        out["free_spins.min_scatters"] = numeral(fs.awards[0][0])
        out["free_spins.awards"] = words([f"{numeral(c)} scatters: {numeral(n)} free spins"
                                          for c, n in fs.awards])
        out["free_spins.min_retrigger"] = numeral(fs.retrigger[0][0])
        out["free_spins.retrigger"] = words([f"{numeral(c)} scatters: {numeral(n)} more"
                                             for c, n in fs.retrigger])
        out["free_spins.max_spins"] = numeral(fs.max_spins)
    if f.grid_multipliers is not None:
        gm = f.grid_multipliers
        out["grid.start"] = numeral(gm.start)
        out["grid.growth"] = numeral(gm.growth)
        out["grid.max"] = numeral(gm.max)
    return out
