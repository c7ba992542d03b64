"""Candy Jar Clusters' [features] table, parsed into `CandyJarSpec`, and the bound on a
round's win: what the spec loader needs (`spec.rules.rules_module("candy_jar", "spec")`).

Plain Python: reading a game file loads neither numba nor the engine. `rules.py` compiles
the parsed table for the kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

from reelforge.errors import SpecError
from reelforge.spec.limits import (
    LINE_SPIN_GUARD,
    Bound,
    cascade_bound,
    const,
    factor,
    largest,
    product,
    random_multiplier_top,
    smaller,
    total,
)

FAMILY = "clusters"  # a cluster game's rules: the cluster loader refuses any other family's
MODIFIERS = ("wild", "free_spins", "jackpots")  # bit 1, 2, 4 of a round's modifier mask
JACKPOTS = ("MINI", "MINOR", "MAJOR", "MAXI", "GRAND")
SPIN_GUARD = 1_000  # most free and super spins in one round; reported, never reached by design


@dataclass(frozen=True)
class Weighted:
    values: tuple[int, ...]
    weights: tuple[int, ...]


@dataclass(frozen=True)
class JackpotSpec:
    name: str  # MINI .. GRAND: also the symbol collected for it
    collect: int  # symbols collected in one Free Spins round to win it
    pays_x: int  # multiples of the total bet
    weights: tuple[int, ...]  # per column, added to free (and super) reel sets with JACKPOTS


@dataclass(frozen=True)
class CandyJarSpec:
    trigger_candies: int  # bonus candies collected in one base spin that trigger Free Spins
    jars: tuple[tuple[str, str], ...]  # candy symbol -> the modifier its jar activates
    free_spins: int
    free_set: str
    super_set: str
    wild_count: Weighted  # WILD modifier: wilds placed on each spin
    wild_symbols: tuple[str, ...]  # what a placed wild is (WILD or a Golden Wild)
    wild_symbol_weights: tuple[int, ...]
    extra_start: Weighted  # FREE SPINS modifier: spins added at the start
    extra_symbol: str
    extra_weights: tuple[int, ...]  # per column
    extra_per_super_spin: int
    jackpots: tuple[JackpotSpec, ...]
    spin_guard: int


def round_win_bound(spec):
    """An upper bound (`spec.limits.Bound`) on the coins one round adds up at a coin value of
    1, as `kernel.play_round` adds them: the base spin, then at most `spin_guard` free and
    super spins, each a cascade (placed wilds are wild symbols, so `cascade_bound` covers
    them) plus every jackpot at once times the random multiplier and the placed wilds'
    multiplier sum; a cap stops the spins once reached, one spin's win past it at most."""
    f = spec.features
    multiplier = random_multiplier_top(spec)
    base = cascade_bound(spec, multiplier)
    wild = largest([(f"symbols.{sid}.multiplier", m) for sid, m in spec.wild_multipliers], const(0))
    placed = max(f.wild_count.values)
    golden = Bound(max(1, placed * wild.value), wild.key, wild.key_value)
    coins = factor("bet.coins", spec.bet.max_lines)
    jackpots = product(total(*(factor(f"features.jackpots.{jp.name}.pays_x", jp.pays_x)
                               for jp in f.jackpots)), coins, multiplier, golden)
    spin = total(base, jackpots)
    free = product(factor("features.spin_guard", f.spin_guard), spin)
    if spec.max_win_x:
        free = smaller(free, total(product(factor("bet.max_win_x", spec.max_win_x), coins), spin))
    return total(base, free)


def _weighted(table, name, low=1) -> Weighted:
    sub = table.sub(name)
    values, weights = sub.get("values", list), sub.get("weights", list)
    ints = all(isinstance(x, int) and not isinstance(x, bool) for x in values + weights)
    if not ints or len(values) != len(weights) or not values or min(values) < low or \
            min(weights) < 0 or not 0 < sum(weights) < 2**32:
        raise sub.fail("weights", weights, f"need as many integer weights >= 0 as values "
                       f"(integers >= {low}), summing to 1..2**32-1")
    sub.finish()
    return Weighted(tuple(values), tuple(weights))


def _columns(table, name, cols) -> tuple[int, ...]:
    w = table.get(name, list)
    if len(w) != cols or any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in w):
        raise table.fail(name, w, f"need {cols} integer weights >= 0, one per column")
    return tuple(w)


def parse_features(table, spec) -> CandyJarSpec:
    """Read and check [features]; `spec` is the rest of the game, already checked."""
    roles = {s.id: s.role for s in spec.symbols}
    set_names = [rs.name for rs in spec.reel_sets]

    def symbol(t, name, role, value=None):
        sid = t.get(name, str) if value is None else value
        if roles.get(sid) != role:
            raise t.fail(name, sid, f"must be a {role} symbol of this game")
        return sid

    def reel_set(name):
        value = table.get(name, str)
        if value == set_names[0]:
            raise table.fail(name, value, "is the first reel set, which the base game plays: "
                             "name another one (or put [reels.base] first)")
        if value not in set_names[1:]:
            raise table.fail(name, value, f"must name a reel set other than the base game's ({', '.join(set_names[1:])})")
        if spec.reel_sets[set_names.index(value)].weights is None:
            raise table.fail(name, value, "must be a weights reel set (modifiers add weights to it)")
        return value

    cells = spec.rows * spec.cols
    trigger = table.int("trigger_candies", low=1)
    if trigger > cells:
        # candies never win, so they stay through the tumbles: one spin holds at most a grid
        raise table.fail("trigger_candies", trigger, f"more candies than the {cells} cells of "
                         "the grid: Free Spins could never trigger")
    spins = table.int("spins", low=1)
    free_set, super_set = reel_set("free_spins_reel_set"), reel_set("super_spin_reel_set")
    guard = table.int("spin_guard", SPIN_GUARD, low=1)
    if guard > LINE_SPIN_GUARD:
        raise table.fail("spin_guard", guard, f"above the engine's {LINE_SPIN_GUARD:,} spins "
                         "a round may play")
    if spins > guard:
        raise table.fail("spins", spins, f"more than the spin_guard of {guard:,}: every Free "
                         "Spins round would stop at the guard, not by its rules")
    jar_table = table.sub("jars")
    jars = []
    for candy in list(jar_table.data):
        symbol(jar_table, candy, "bonus", candy)
        jars.append((candy, jar_table.choice(candy, MODIFIERS)))
    if sorted(m for _c, m in jars) != sorted(MODIFIERS):
        raise jar_table.fail("", dict(jars), f"need one candy per modifier ({', '.join(MODIFIERS)})")
    jar_table.finish()

    wild = table.sub("wild")
    count = _weighted(wild, "count")
    placed = wild.get("symbols", list)
    for i, sid in enumerate(placed):
        symbol(wild, f"symbols[{i + 1}]", "wild", sid)
    placed_weights = _columns(wild, "symbol_weights", len(placed))
    if not placed or not 0 < sum(placed_weights) < 2**32:
        raise wild.fail("symbol_weights", placed_weights, "weights must sum to 1..2**32-1")
    if max(count.values) > spec.rows * spec.cols:
        raise wild.fail("count", count.values, f"more wilds than the {spec.rows * spec.cols} cells")
    wild.finish()

    free = table.sub("free_spins")
    extra_start = _weighted(free, "extra_start")
    if spins + max(extra_start.values) > guard:
        raise free.fail("extra_start", extra_start.values, f"with the {spins} spins, beyond the "
                        f"spin_guard of {guard:,}: such a round would stop at the guard, not by "
                        "its rules")
    extra_symbol = symbol(free, "symbol", "bonus")
    extra_weights = _columns(free, "weights", spec.cols)
    per_super = free.int("per_super_spin", low=1)
    free.finish()

    jp_table = table.sub("jackpots")
    jackpots = []
    for name in JACKPOTS:
        entry = jp_table.sub(name)
        symbol(jp_table, name, "bonus", name)
        jackpots.append(JackpotSpec(name, entry.int("collect", low=1), entry.int("pays_x", low=1),
                                    _columns(entry, "weights", spec.cols)))
        entry.finish()
    jp_table.finish(JACKPOTS, "jackpot")
    # compose_sets adds the EXTRA and jackpot weights to the free and super sets' columns
    added = [extra_weights[c] + sum(jp.weights[c] for jp in jackpots) for c in range(spec.cols)]
    for name in (free_set, super_set):
        rs = spec.reel_sets[set_names.index(name)]
        for c in range(spec.cols):
            column = sum(w[c] for _sid, w in rs.weights) + added[c]
            if column >= 2**32:
                raise SpecError(table.source, f"reels.{name}.weights", column,
                                f"column {c + 1}, with the EXTRA and jackpot weights of "
                                "[features] added, sums beyond 2**32-1")
    return CandyJarSpec(trigger, tuple(jars), spins, free_set, super_set, count, tuple(placed),
                        placed_weights, extra_start, extra_symbol, extra_weights, per_super,
                        tuple(jackpots), guard)
