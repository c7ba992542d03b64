"""A ways game's facts (spec/ways.py): its window, ways, coins and wilds."""

from __future__ import annotations

from typing import Any

from reelforge.spec.facts.values import Fact, Times, numeral


def ways_facts(spec: Any) -> dict[str, Fact]:
    bet = spec.bet
    out: dict[str, Fact] = {
        "reels": numeral(spec.reels), "rows": numeral(spec.rows),
        "ways": numeral(spec.rows ** spec.reels),
        "coins": numeral(spec.pay_unit), "min_coin_value": "1",
        "max_coin_value": numeral(bet.max_bet_per_line),
        "max_bet": numeral(spec.pay_unit * bet.max_bet_per_line),
        "wild_multiplier_combine": "multiply" if spec.wild_combine == "multiply" else "add up",
        "wild.reels": f"2 to {spec.reels}" if not spec.wilds_on_first_reel
        else f"1 to {spec.reels}"}
    if spec.max_win_x:
        out["max_win_x"] = Times(spec.max_win_x)
    for w in spec.wilds:
        out[f"wild.{w.symbol}.multiplier"] = numeral(w.multiplier)
    return out
