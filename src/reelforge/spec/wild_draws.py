"""[wild_multipliers]: a line game's wilds that draw their own multiplier, per reel set.

    [wild_multipliers]
    combine = "product"            # "product" | "sum" | "max": several wilds on one paid line
    [wild_multipliers.free]        # a reel set's name: its wilds draw from this table
    weights = { 2 = 5, 3 = 2, 5 = 1 }

Every wild in view on a spin of that reel set draws its own multiplier (reel by reel, top to
bottom, integer weights); a line paid through wilds standing in is multiplied by the product
(or sum, or largest) of the multipliers of the wilds in its paid run, on top of any fixed
multiplier. Reel sets without a table draw nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

WILD_DRAW_COMBINE = ("product", "sum", "max")
MAX_WILD_DRAW = 1000  # the largest multiplier a wild may draw
MAX_DRAW_WEIGHT_SUM = 2**32 - 1


@dataclass(frozen=True)
class WildDrawSpec:
    """The draws of every reel set that has a table."""

    combine: str  # WILD_DRAW_COMBINE
    tables: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]  # reel set -> (multiplier, weight > 0)

    def weights(self, reel_set: str) -> tuple[tuple[int, int], ...]:
        """(multiplier, weight) of the reel set's table; () where its wilds draw nothing."""
        return dict(self.tables).get(reel_set, ())

    def top(self) -> int:
        """The largest multiplier any wild can draw."""
        return max(m for _, table in self.tables for m, _ in table)


def combined_mean(weights: tuple[tuple[int, int], ...], combine: str, wilds: int) -> Fraction:
    """E[the combined multiplier of `wilds` independent draws from `weights`], exactly; 1 for
    no wild. Product: E[m]**k; sum: k E[m]; max: sum over v of v (F(v)**k - F(v-)**k)."""
    if wilds == 0 or not weights:
        return Fraction(1)
    total = sum(w for _, w in weights)
    if combine == "product":
        return Fraction(sum(m * w for m, w in weights), total) ** wilds
    if combine == "sum":
        return wilds * Fraction(sum(m * w for m, w in weights), total)
    mean, below = Fraction(0), Fraction(0)
    for m, w in sorted(weights):
        upto = below + Fraction(w, total)
        mean += m * (upto ** wilds - below ** wilds)
        below = upto
    return mean


def combined_top(top: int, combine: str, wilds: int) -> int:
    """The largest combined multiplier of `wilds` draws, each at most `top`."""
    if wilds == 0:
        return 1
    return top ** wilds if combine == "product" else (wilds * top if combine == "sum" else top)


def parse_wild_draws(table: Any, set_names: tuple[str, ...]) -> WildDrawSpec | None:
    """The [wild_multipliers] table (a `spec.load.Table`, or None where the file has none)."""
    if table is None:
        return None
    combine = table.choice("combine", WILD_DRAW_COMBINE, "product")
    tables = []
    for name in [k for k in table.data if k != "combine"]:
        if name not in set_names:
            raise table.fail(name, table.data[name],
                             f"not a reel set; defined: {', '.join(set_names)}")
        entry = table.sub(name)
        weights = entry.sub("weights")
        pairs = []
        for key in list(weights.data):
            if not (key.isascii() and key.isdigit()) or not 1 <= int(key) <= MAX_WILD_DRAW:
                raise weights.fail(key, weights.data[key],
                                   f"a multiplier must be an integer 1..{MAX_WILD_DRAW}")
            pairs.append((int(key), weights.int(key)))
        weights.finish()
        if not any(w for _, w in pairs) or sum(w for _, w in pairs) > MAX_DRAW_WEIGHT_SUM:
            raise entry.fail("weights", dict(pairs), f"weights must sum to 1..{MAX_DRAW_WEIGHT_SUM}")
        entry.finish()
        tables.append((name, tuple(sorted((m, w) for m, w in pairs if w > 0))))
    if not tables:
        raise table.fail("combine", combine, "[wild_multipliers] names no reel set: add "
                         "[wild_multipliers.<reel set>] weights = { 2 = 5, 3 = 1 }")
    table.finish(("combine", *(name for name, _ in tables)))
    return WildDrawSpec(combine, tuple(tables))
