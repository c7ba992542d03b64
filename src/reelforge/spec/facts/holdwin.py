"""A hold-and-win game's facts (spec/holdwin.py): its ways base game's facts, and the
respins'."""

from __future__ import annotations

from typing import Any

from reelforge.spec.facts.values import Fact, Times, numeral, words
from reelforge.spec.facts.ways import ways_facts


def holdwin_facts(spec: Any) -> dict[str, Fact]:
    out = ways_facts(spec.base)
    if spec.max_win_x:
        out["max_win_x"] = Times(spec.max_win_x)
    n, d = spec.respin_odds
    out.update({"hold.trigger": numeral(spec.trigger), "hold.respins": numeral(spec.respins),
                "hold.cells": numeral(spec.cells),
                "hold.odds": f"1 in {numeral(d // n)}" if d % n == 0
                else f"{numeral(n)} in {numeral(d)}", "hold.grand_x": numeral(spec.grand_x),
                "hold.values": words([f"{numeral(v.x)}x" for v in spec.values if not v.jackpot]),
                "hold.jackpots": words([f"{v.jackpot} {numeral(v.x)}x" for v in spec.values
                                        if v.jackpot] or ["none"])})
    return out
