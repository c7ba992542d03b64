"""Cops n Robbers' facts for its information pages (`spec.facts`): the trail bonus
(`spec.py` `TrailSpec`), beside the line game's own. Loaded by name
(`spec.rules.optional_rules_module("cops_trail", "facts")`)."""

from __future__ import annotations

import itertools
from typing import Any

from reelforge.spec.facts import Fact, numeral, words


def facts(spec: Any) -> dict[str, Fact]:
    t = spec.features
    marks = [position for position, _m in t.multipliers]
    gaps = {b - a for a, b in itertools.pairwise(marks)}
    top = max(m for _p, m in t.multipliers)
    out: dict[str, Fact] = {
        "trail.min_trigger": numeral(min(c for c, _m in t.start_multiplier)),
        "trail.length": numeral(t.length),
        "trail.head_start": numeral(t.robber_start - t.cop_start),
        "trail.multipliers": words([f"{numeral(m)}x" for _p, m in t.multipliers]),
        "trail.first_multiplier": numeral(t.multipliers[0][1]),
        "trail.first_position": numeral(t.multipliers[0][0] - t.cop_start),
        "trail.max_multiplier": numeral(top),
        "trail.max_total_multiplier": numeral(top * max(m for _c, m in t.start_multiplier)),
        "trail.sid_pushback": numeral(t.sid_pushback)}
    if len(gaps) == 1:
        out["trail.spacing"] = numeral(gaps.pop())
    for count, multiplier in t.start_multiplier:
        out[f"trail.start.{count}"] = numeral(multiplier)
    return out
