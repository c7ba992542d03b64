"""Candy Jar's facts for its information pages (`spec.facts`): its jars, modifiers and
jackpots (`spec.py`), beside the cluster game's own. Loaded by name
(`spec.rules.optional_rules_module("candy_jar", "facts")`)."""

from __future__ import annotations

from typing import Any

from reelforge.spec.facts import Fact, numeral, words


def facts(spec: Any) -> dict[str, Fact]:
    f = spec.features
    names = {s.id: s.name for s in spec.symbols}
    golden = dict(spec.wild_multipliers)
    extra = f.extra_start.values
    out: dict[str, Fact] = {
        "trigger_candies": numeral(f.trigger_candies), "free_spins": numeral(f.free_spins),
        "extra_start.min": numeral(min(extra)), "extra_start.max": numeral(max(extra)),
        "free_spins.with_extra.min": numeral(f.free_spins + min(extra)),
        "free_spins.with_extra.max": numeral(f.free_spins + max(extra)),
        "wild.count.min": numeral(min(f.wild_count.values)),
        "wild.count.max": numeral(max(f.wild_count.values)),
        "golden_wild.multipliers": words([f"x{numeral(golden[s])}" for s in f.wild_symbols
                                          if s in golden], "or"),
        "extra.symbol": names[f.extra_symbol],
        "extra.per_super_spin": numeral(f.extra_per_super_spin)}
    for candy, modifier in f.jars:
        out[f"jar.{modifier}"] = names[candy]
    for jp in f.jackpots:
        out[f"jackpot.{jp.name}.collect"] = numeral(jp.collect)
        out[f"jackpot.{jp.name}.x"] = numeral(jp.pays_x)
    return out
