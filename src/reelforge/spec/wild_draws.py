"""[wild_multipliers]: a line game's wilds that draw their own multiplier, per reel set.

    [wild_multipliers]
    combine = "product"            # "product" | "sum" | "max": several wilds on one paid line
    [wild_multipliers.free]        # a reel set's name: its wilds draw from this table
    weights = { 2 = 5, 3 = 2, 5 = 1 }

Every wild in view on a spin of that reel set draws its own multiplier (reel by reel, top to
bottom, integer weights); a line paid through wilds standing in is multiplied by the product
(or sum, or largest) of the multipliers of the wilds in its paid run, on top of any fixed
multiplier. Reel sets without a table draw nothing.

The free games' reel set may instead make its wilds expand and stick:

    [wild_multipliers.free]
    weights = { 2 = 5, 3 = 3, 5 = 2 }
    expand = "sticky"

A wild landing on a reel fills the reel, which stays wild for the rest of the free games; the
reel draws its multiplier once, when it expands, and keeps it (a wild landing later on a reel
already wild changes nothing). Every cell of an expanded reel carries its multiplier, so a
paid run counts one draw per wild reel in it. The free games start with no wild reel.

    sticky_multiplier = "redrawn"  # beside expand = "sticky"; default "kept"

makes every wild reel draw a fresh multiplier from the table on every free spin it shows
(reels left to right), the reel filling now and those held alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

WILD_DRAW_COMBINE = ("product", "sum", "max")
WILD_EXPAND = ("none", "sticky")
STICKY_MULTIPLIER = ("kept", "redrawn")  # a sticky reel's multiplier: drawn as it fills, or every spin
MAX_WILD_DRAW = 1000  # the largest multiplier a wild may draw
MAX_DRAW_WEIGHT_SUM = 2**32 - 1


@dataclass(frozen=True)
class WildDrawSpec:
    """The draws of every reel set that has a table."""

    combine: str  # WILD_DRAW_COMBINE
    tables: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]  # reel set -> (multiplier, weight > 0)
    sticky: tuple[str, ...] = ()  # reel sets whose wilds expand and stick (expand = "sticky")
    redrawn: tuple[str, ...] = ()  # of those, the ones whose reels draw anew each spin

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
    sticky: list[str] = []
    redrawn: list[str] = []
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
        expand = entry.choice("expand", WILD_EXPAND, "none")
        if expand == "sticky":
            sticky.append(name)
        held = entry.choice("sticky_multiplier", STICKY_MULTIPLIER, "kept")
        if "sticky_multiplier" in entry.data and expand != "sticky":
            raise entry.fail("sticky_multiplier", held, "only beside expand = \"sticky\" (it says "
                             f"what a reel that sticks does); this set has expand = {expand!r}")
        if held == "redrawn":
            redrawn.append(name)
        if not any(w for _, w in pairs) or sum(w for _, w in pairs) > MAX_DRAW_WEIGHT_SUM:
            raise entry.fail("weights", dict(pairs), f"weights must sum to 1..{MAX_DRAW_WEIGHT_SUM}")
        entry.finish()
        tables.append((name, tuple(sorted((m, w) for m, w in pairs if w > 0))))
    if not tables:
        raise table.fail("combine", combine, "[wild_multipliers] names no reel set: add "
                         "[wild_multipliers.<reel set>] weights = { 2 = 5, 3 = 1 }")
    table.finish(("combine", *(name for name, _ in tables)))
    return WildDrawSpec(combine, tuple(tables), tuple(sticky), tuple(redrawn))


def check_sticky(spec) -> None:
    """Refuse expand = "sticky" where its rules are not defined: on a reel set other than the
    free games' (the wilds stick for the rest of the free games), with retriggers (the exact
    analysis' chain follows the wild reels over a fixed number of spins), with more than one
    wild symbol (which would fill the reel?), or under a rules module (its own round)."""
    from reelforge.errors import SpecError

    draws = spec.wild_draws
    if draws is None or not draws.sticky:
        return
    fg = spec.free_games
    # every set named, not only the first: the engine expands the free games' wilds alone
    stray = [n for n in draws.sticky if fg is None or n != fg.reel_set]
    if fg is None or stray:
        where = fg.reel_set if fg else "none: no [features.free_games]"
        raise SpecError(spec.source, f"wild_multipliers.{(stray or draws.sticky)[0]}.expand",
                        "sticky", "wilds stick for the rest of the free games: only the free "
                        f"games' reel set ({where}) may expand them")
    name = fg.reel_set
    key = f"wild_multipliers.{name}.expand"
    paid = [m.reel_set for m in spec.modes] + [spec.base_reel_set]
    if name in paid:
        raise SpecError(spec.source, key, "sticky", "the paid spin of a mode plays this reel set "
                        "too: the free games need a reel set of their own")
    if fg.retrigger != "none":
        raise SpecError(spec.source, key, "sticky", "not with retriggers (features.free_games."
                        f"retrigger = {fg.retrigger!r}): use retrigger = 'none'")
    if len(spec.wilds) != 1:
        raise SpecError(spec.source, key, "sticky", "needs exactly one wild symbol to fill the "
                        f"reel with; the game has {len(spec.wilds)}")
    if spec.rules is not None:
        raise SpecError(spec.source, key, "sticky", f"not with a rules module ({spec.rules})")
