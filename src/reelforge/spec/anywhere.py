"""TOML -> AnywhereGameSpec: the pays-anywhere family (`family = "anywhere"` in [game]).

A pays-anywhere game shows a grid of `rows` x `cols` cells, each drawn on its own from its
column's integer symbol weights. A symbol pays when N or more of it show anywhere on the grid,
by the count range its count falls in (8-9, 10-11, 12+); every paying symbol is paid. Its
cells then tumble out with the multiplier symbols on that grid, the cells above fall and the
empty ones are refilled, until a grid pays nothing.

A global multiplier starts each round at `start`; the multiplier symbols on a grid that pays
add their values to it before that grid's wins are multiplied, and it grows by `per_tumble`
after each grid that pays, up to `max`. It persists from the base spin through the free spins
of the same round and is reset at the start of every round. Scatters never tumble out: their
count on a spin's final grid awards free spins (`award` in the base spin, `retrigger` in a
free spin), at most `max_spins` a round.

Numbers: a stake is `pay_unit` coins of one coin value and every pay is a whole number of
coins (pay / pay_unit of the stake); a round stops as soon as its win reaches `max_win_x`
times the stake.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from reelforge.spec.limits import (
    LINE_SPIN_GUARD,
    TUMBLE_GUARD,
    Bound,
    const,
    factor,
    largest,
    product,
    refuse_above_limit,
)
from reelforge.spec.model import BetSpec, FixedStakeSpec, SymbolSpec
from reelforge.spec.parts import (
    column_weights,
    read_coin_bet,
    read_header,
    read_max_spins,
    read_name,
    read_scatter,
    read_symbols,
    reel_set_of,
    refuse_falling,
    refuse_silent_scatter,
    roles_of,
    scatter_awards,
    symbol_pays,
)

ANYWHERE_SECTIONS = ("game", "symbols", "anywhere", "bet", "reels")
ANYWHERE_ROLES = ("regular", "scatter", "multiplier")
RANGE = re.compile(r"^(\d+)(?:-(\d+)|(\+))?$")  # "8", "8-9" or "12+"


@dataclass(frozen=True)
class AnywherePay:
    low: int  # counts low..high (cells, inclusive) pay `coins`
    high: int
    coins: int


@dataclass(frozen=True)
class AnywhereReelSet:
    name: str
    weights: tuple[tuple[str, tuple[int, ...]], ...]  # symbol -> integer weight per column


@dataclass(frozen=True)
class AnywhereGameSpec(FixedStakeSpec):
    id: str
    name: str
    source: str
    description: str
    rows: int
    cols: int
    symbols: tuple[SymbolSpec, ...]
    pays: tuple[tuple[str, tuple[AnywherePay, ...]], ...]  # symbol -> its count ranges
    multiplier_symbols: tuple[tuple[str, int], ...]  # symbol -> value added
    multiplier_start: int
    multiplier_per_tumble: int
    multiplier_max: int
    scatter: str | None
    award: tuple[tuple[int, int], ...]  # scatters on a base spin's final grid -> free spins
    retrigger: tuple[tuple[int, int], ...]  # the same in a free spin
    max_spins: int  # free spins one round plays at most
    free_reel_set: str
    reel_sets: tuple[AnywhereReelSet, ...]
    bet: BetSpec  # lines = pay_unit, the coins of a stake (fixed); bet per line = coin value
    max_win_x: int  # a round stops at this multiple of the stake, 0 = no cap
    family: str = "anywhere"
    sha256: str = field(default="", compare=False)

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def min_count(self) -> int:
        """The fewest cells of one symbol that pay."""
        return min(p.low for _sid, pays in self.pays for p in pays)


def build_anywhere_spec(root, source: str) -> AnywhereGameSpec:
    """Build from the root `Table` of a file whose [game] says family = "anywhere"."""
    game = root.sub("game")
    game_id, name, description, rows, cols = read_header(game, "anywhere-example-v1",
                                                         ("anywhere",), ("rows", "cols"))
    game.finish()
    cells = rows * cols

    # one scatter at most: [anywhere.free_spins] must name it (`read_scatter`)
    symbols = read_symbols(root.sub("symbols"), ANYWHERE_ROLES, "pays-anywhere")
    ids = {s.id for s in symbols}
    roles = roles_of(symbols)

    table = root.sub("anywhere")
    pays = symbol_pays(table.sub("pays"), roles, "pays-anywhere", "has no pays",
                       lambda entry: _count_ranges(entry, cells))

    mult = table.sub("multiplier", {})
    start = mult.int("start", 1, low=1)
    per_tumble = mult.int("per_tumble", 0)
    top = mult.int("max", low=1)
    if top < start:
        raise mult.fail("max", top, f"below the start value {start}")
    values_table = mult.sub("symbols", {})
    values = []
    for sid in list(values_table.data):
        if roles.get(sid) != "multiplier":
            raise values_table.fail(sid, values_table.data[sid], "not a symbol of role 'multiplier'")
        values.append((sid, values_table.int(sid, low=1)))
    missing = sorted(s for s, r in roles.items() if r == "multiplier" and s not in dict(values))
    if missing:
        raise values_table.fail(missing[0], None, "a multiplier symbol needs its value here")
    mult.finish()

    free = table.sub("free_spins", None)
    scatter: str | None = None
    award: tuple[tuple[int, int], ...] = ()
    retrigger: tuple[tuple[int, int], ...] = ()
    max_spins, free_set = 0, "base"
    if free is None:
        refuse_silent_scatter(table, "free_spins", roles)
    else:
        scatter = read_scatter(free, roles)
        award = scatter_awards(free, "award", required=True, cells=cells)
        retrigger = scatter_awards(free, "retrigger", required=False, cells=cells)
        max_spins = read_max_spins(free, LINE_SPIN_GUARD)
        free_set = free.get("reel_set", str, "base")
        free.finish()
    table.finish()

    reel_sets = _reel_sets(root.sub("reels"), ids, cols)
    names = [rs.name for rs in reel_sets]
    if "base" not in names:
        raise root.fail("reels", names, "a pays-anywhere game needs a reel set named 'base'")
    reel_set_of(root, "anywhere.free_spins.reel_set", free_set, names)
    if scatter is not None and not _shows(reel_sets, scatter):
        raise root.fail("anywhere.free_spins.scatter", scatter, "no reel set can show it: the "
                        "free spins can never be triggered")

    bet, max_win_x = read_coin_bet(root.sub("bet"), "pay_unit")

    spec = AnywhereGameSpec(game_id, name, source, description, rows, cols, symbols, pays,
                            tuple(values), start, per_tumble, top, scatter, award, retrigger,
                            max_spins, free_set, reel_sets, bet, max_win_x)
    refuse_above_limit(source, anywhere_round_bound(spec), "credits at max bet", bet.denominations)
    return spec


def _count_ranges(entry, cells) -> list[AnywherePay]:
    """{"8-9" = 10, "10-11" = 25, "12+" = 50}: coins for a count in each range."""
    ranges = []
    for key in list(entry.data):
        found = RANGE.match(key)
        if found is None:
            raise entry.fail(key, entry.data[key], "a count range is N, N-M or N+ (cells)")
        low = int(found.group(1))
        high = cells if found.group(3) else int(found.group(2) or low)
        if low > cells:
            raise entry.fail(key, entry.data[key], f"can never pay: the grid has {cells} cells")
        if low < 1 or high < low:
            raise entry.fail(key, entry.data[key], "a count range runs from 1 up")
        ranges.append((key, AnywherePay(low, min(high, cells), entry.int(key, low=0))))
    ranges.sort(key=lambda kp: kp[1].low)
    for (_, a), (key, b) in pairwise(ranges):
        if b.low <= a.high:
            raise entry.fail(key, entry.data, "count ranges overlap")
    refuse_falling(entry, [(key, p.coins) for key, p in ranges], "counts")
    return [p for _key, p in ranges]


def _reel_sets(table, ids, cols):
    out = []
    for name in list(table.data):
        entry = table.sub(read_name(table, name, "reel set"))
        weights = column_weights(entry.sub("weights"), ids, cols, one_for_all=True)
        entry.finish()
        out.append(AnywhereReelSet(name, weights))
    return tuple(out)


def _shows(reel_sets, sid) -> bool:
    return any(w > 0 for rs in reel_sets for s, per_col in rs.weights if s == sid for w in per_col)


def anywhere_round_bound(spec: AnywhereGameSpec) -> Bound:
    """Most credits one round could pay at max bet: every paying symbol at its top pay on
    every grid the tumble guard lets a spin pay, at the largest multiplier, on every spin the
    round may play (the cap, where set, is not counted)."""
    top_pay = largest([(f"anywhere.pays.{sid}", p.coins) for sid, pays in spec.pays for p in pays],
                      const(0))
    return product(const(len(spec.pays)), top_pay, factor("anywhere.multiplier.max",
                                                          spec.multiplier_max),
                   const(TUMBLE_GUARD + 1), factor("anywhere.free_spins.max_spins",
                                                   spec.max_spins + 1),
                   factor("bet.max_coin_value", spec.bet.max_bet_per_line))
