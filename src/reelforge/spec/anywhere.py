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
from fractions import Fraction
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
from reelforge.spec.model import BetSpec, ModeSpec, SymbolSpec

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
class AnywhereGameSpec:
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
    rules: None = None
    modes: tuple = ()
    jackpot: None = None
    gamble: None = None
    base_reel_set: str = "base"
    sha256: str = field(default="", compare=False)

    @property
    def symbol_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.symbols)

    @property
    def pay_unit(self) -> int:
        """Coins in a stake: every pay is a whole number of them."""
        return self.bet.max_lines

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def min_count(self) -> int:
        """The fewest cells of one symbol that pay."""
        return min(p.low for _sid, pays in self.pays for p in pays)

    def mode(self, name: str) -> ModeSpec:
        """One way to play: "base", price 1."""
        if name == "base":
            return ModeSpec("base", "base", Fraction(1), False)
        raise KeyError(name)


def build_anywhere_spec(root, source: str) -> AnywhereGameSpec:
    """Build from the root `Table` of a file whose [game] says family = "anywhere"."""
    from reelforge.spec.load import grid_side, read_game_id

    game = root.sub("game")
    game_id = read_game_id(game, "anywhere-example-v1")
    name = game.get("name", str)
    description = game.get("description", str, "")
    game.choice("family", ("anywhere",))
    rows, cols = grid_side(game, "rows"), grid_side(game, "cols")
    game.finish()
    cells = rows * cols

    symbols = _symbols(root.sub("symbols"))
    ids = {s.id for s in symbols}
    roles = {s.id: s.role for s in symbols}

    table = root.sub("anywhere")
    pays = _pays(table.sub("pays"), roles, cells)

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

    scatters = [s for s, r in roles.items() if r == "scatter"]
    free = table.sub("free_spins", None)
    scatter: str | None = None
    award: tuple[tuple[int, int], ...] = ()
    retrigger: tuple[tuple[int, int], ...] = ()
    max_spins, free_set = 0, "base"
    if free is None:
        if scatters:
            raise table.fail("free_spins", None, f"scatter {scatters[0]} shows but nothing says "
                             "what it awards: add [anywhere.free_spins]")
    else:
        scatter = free.get("scatter", str)
        if roles.get(scatter) != "scatter":
            raise free.fail("scatter", scatter, "not a symbol of role 'scatter'")
        award = _award(free, "award", cells, required=True)
        retrigger = _award(free, "retrigger", cells, required=False)
        max_spins = free.int("max_spins", low=1)
        if max_spins > LINE_SPIN_GUARD:
            raise free.fail("max_spins", max_spins, f"at most {LINE_SPIN_GUARD:,} free spins a round")
        free_set = free.get("reel_set", str, "base")
        free.finish()
    table.finish()

    reel_sets = _reel_sets(root.sub("reels"), ids, cols)
    names = [rs.name for rs in reel_sets]
    if "base" not in names:
        raise root.fail("reels", names, "a pays-anywhere game needs a reel set named 'base'")
    if free_set not in names:
        raise root.fail("anywhere.free_spins.reel_set", free_set,
                        f"no such reel set (one of {', '.join(names)})")
    if scatter is not None and not _shows(reel_sets, scatter):
        raise root.fail("anywhere.free_spins.scatter", scatter, "no reel set can show it: the "
                        "free spins can never be triggered")

    bet_table = root.sub("bet")
    pay_unit = bet_table.int("pay_unit", low=1)
    max_coin = bet_table.int("max_coin_value", low=1)
    denoms = bet_table.get("denominations", list, [1])
    if not denoms or any(isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in denoms):
        raise bet_table.fail("denominations", denoms, "expected positive integers (minor units per credit)")
    max_win_x = bet_table.int("max_win_x", 0)
    bet_table.finish()
    bet = BetSpec(pay_unit, max_coin, tuple(denoms), pay_unit, 0)

    spec = AnywhereGameSpec(game_id, name, source, description, rows, cols, symbols, pays,
                            tuple(values), start, per_tumble, top, scatter, award, retrigger,
                            max_spins, free_set, reel_sets, bet, max_win_x)
    refuse_above_limit(source, anywhere_round_bound(spec), "credits at max bet", bet.denominations)
    return spec


def _symbols(table) -> tuple[SymbolSpec, ...]:
    from reelforge.spec.limits import MAX_SYMBOLS

    out = []
    for sid in list(table.data):
        entry = table.sub(sid)
        role = entry.choice("role", ANYWHERE_ROLES)
        out.append(SymbolSpec(sid, entry.get("name", str, sid), role))
        entry.finish()
    if not out:
        raise table.fail("", {}, "a game needs at least one symbol")
    if len(out) > MAX_SYMBOLS:
        raise table.fail("", len(out), f"at most {MAX_SYMBOLS} symbols")
    if sum(s.role == "scatter" for s in out) > 1:
        raise table.fail("", [s.id for s in out if s.role == "scatter"], "at most one scatter")
    return tuple(out)


def _pays(table, roles, cells) -> tuple[tuple[str, tuple[AnywherePay, ...]], ...]:
    """{SYMBOL = {"8-9" = 10, "10-11" = 25, "12+" = 50}}: coins for a count in each range."""
    out = []
    for sid in list(table.data):
        if sid not in roles:
            raise table.fail(sid, table.data[sid], "unknown symbol")
        if roles[sid] != "regular":
            raise table.fail(sid, table.data[sid], f"a {roles[sid]} symbol has no pays")
        entry = table.sub(sid)
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
            ranges.append(AnywherePay(low, min(high, cells), entry.int(key, low=0)))
        if not ranges:
            raise table.fail(sid, {}, "no pays")
        ranges.sort(key=lambda p: p.low)
        for a, b in pairwise(ranges):
            if b.low <= a.high:
                raise entry.fail(f"{b.low}", entry.data, "count ranges overlap")
            if b.coins < a.coins:
                raise entry.fail(f"{b.low}", b.coins, "pays must not fall as counts grow")
        entry.finish()
        out.append((sid, tuple(ranges)))
    if not out:
        raise table.fail("", {}, "a pays-anywhere game needs pays")
    return tuple(out)


def _award(table, key, cells, required) -> tuple[tuple[int, int], ...]:
    """{4 = 10, 5 = 12}: scatters -> free spins (a count above the largest key awards its)."""
    entry = table.sub(key) if required else table.sub(key, {})
    out = []
    for count in list(entry.data):
        if not count.isdigit() or int(count) < 1:
            raise entry.fail(count, entry.data[count], "a scatter count is a whole number >= 1")
        if int(count) > cells:
            raise entry.fail(count, entry.data[count],
                             f"can never happen: the grid has {cells} cells")
        out.append((int(count), entry.int(count, low=1)))
    if required and not out:
        raise table.fail(key, {}, "no award: the free spins can never be triggered")
    entry.finish()
    return tuple(sorted(out))


def _reel_sets(table, ids, cols):
    from reelforge.spec.load import read_name

    out = []
    for name in list(table.data):
        entry = table.sub(read_name(table, name, "reel set"))
        w = entry.sub("weights")
        pairs = []
        for sid in list(w.data):
            if sid not in ids:
                raise w.fail(sid, w.data[sid], "unknown symbol")
            raw = w.data[sid]
            per_col = [raw] * cols if isinstance(raw, int) and not isinstance(raw, bool) else raw
            if not isinstance(per_col, list) or len(per_col) != cols or any(
                    isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in per_col):
                raise w.fail(sid, raw, f"need one integer weight >= 0, or {cols}, one per column")
            pairs.append((sid, tuple(per_col)))
        for c in range(cols):
            total = sum(p[1][c] for p in pairs)
            if not 0 < total < 2**32:
                raise w.fail(f"<column {c + 1}>", total, "weights of a column must sum to 1..2**32-1")
        entry.finish()
        out.append(AnywhereReelSet(name, tuple(pairs)))
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
