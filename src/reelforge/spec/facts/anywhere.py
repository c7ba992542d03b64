"""A pays-anywhere game's facts (spec/anywhere.py): its grid, counts, multiplier and free
spins."""

from __future__ import annotations

from typing import Any

from reelforge.spec.facts.values import Fact, Times, numeral, words


def anywhere_facts(spec: Any) -> dict[str, Fact]:
    bet = spec.bet
    out: dict[str, Fact] = {
        "rows": numeral(spec.rows), "cols": numeral(spec.cols), "cells": numeral(spec.cells),
        "min_count": numeral(spec.min_count), "coins": numeral(spec.pay_unit),
        "min_coin_value": "1",
        "max_coin_value": numeral(bet.max_bet_per_line),
        "max_bet": numeral(spec.pay_unit * bet.max_bet_per_line),
        "multiplier.start": numeral(spec.multiplier_start),
        "multiplier.per_tumble": numeral(spec.multiplier_per_tumble),
        "multiplier.max": numeral(spec.multiplier_max),
        "multiplier.symbols": words([f"x{numeral(v)}" for _s, v in spec.multiplier_symbols]
                                    or ["none"])}
    if spec.max_win_x:
        out["max_win_x"] = Times(spec.max_win_x)
    if spec.scatter is not None:
        out["free_spins.min_trigger"] = numeral(min(c for c, _s in spec.award))
        out["free_spins.award"] = words([f"{numeral(c)} scatters: {numeral(s)} free spins"
                                         for c, s in spec.award])
        out["free_spins.retrigger"] = words([f"{numeral(c)} scatters: {numeral(s)} more"
                                             for c, s in spec.retrigger] or ["none"])
        out["free_spins.max_spins"] = numeral(spec.max_spins)
    return out
