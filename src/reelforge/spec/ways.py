"""TOML -> WaysGameSpec: the ways-pays family (`family = "ways"` in [game]).

A ways game pays every symbol that shows on consecutive reels from reel 1, anywhere in each
reel's window: a symbol on the first n reels pays its pay for n times its ways, the product
over those reels of how many of its cells (its own or a wild's) each shows (3 rows x 5 reels:
up to 3**5 = 243 ways; 4 rows: 1024). Wilds stand in for the paying symbols, may carry a
multiplier that multiplies or adds, and stay off reel 1 unless the file allows them there.

Numbers: a stake is `pay_unit` coins of one coin value, and every pay is a whole number of
coins, so each pay is an exact fraction pay / pay_unit of the stake; a round's win is capped
at `max_win_x` times the stake.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reelforge.spec.limits import Bound, const, factor, largest, product, refuse_above_limit
from reelforge.spec.model import BetSpec, FixedStakeSpec, SymbolSpec
from reelforge.spec.parts import (
    count_key,
    read_coin_bet,
    read_header,
    read_name,
    read_symbols,
    roles_of,
    symbol_pays,
    wild_substitutes,
)

WAYS_SECTIONS = ("game", "symbols", "ways", "bet", "reels")
WAYS_ROLES = ("regular", "wild")
WILD_COMBINE = ("multiply", "add")


@dataclass(frozen=True)
class WaysWild:
    symbol: str
    substitutes: frozenset[str]  # the paying symbols it stands in for
    multiplier: int  # 1: none


@dataclass(frozen=True)
class WaysGameSpec(FixedStakeSpec):
    id: str
    name: str
    source: str
    description: str
    reels: int
    rows: int
    symbols: tuple[SymbolSpec, ...]
    pays: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]  # symbol -> (reels, coins per way)
    wilds: tuple[WaysWild, ...]
    wild_combine: str  # "multiply" | "add"
    wilds_on_first_reel: bool
    strips: tuple[tuple[str, ...], ...]  # the base reel set: one strip per reel
    bet: BetSpec  # lines = pay_unit, the coins of a stake (fixed); bet per line = coin value
    max_win_x: int  # cap on one round's win in multiples of the stake, 0 = none
    family: str = "ways"
    sha256: str = field(default="", compare=False)


def build_ways_spec(root, source: str, family: str = "ways",
                    allowed_roles: tuple[str, ...] = WAYS_ROLES,
                    example_id: str = "ways-example-v1") -> WaysGameSpec:
    """Build from the root `Table` of a file whose [game] says family = "ways". A family built
    on the ways base game (hold-and-win: spec/holdwin.py) names itself and its extra roles;
    its symbols of those roles pay nothing on the ways."""
    game = root.sub("game")
    game_id, name, description, reels, rows = read_header(game, example_id, (family,),
                                                          ("reels", "rows"))
    game.finish()

    symbols = read_symbols(root.sub("symbols"), allowed_roles, family)
    ids = {s.id for s in symbols}
    roles = roles_of(symbols)

    ways = root.sub("ways")
    combine = ways.choice("wild_multiplier_combine", WILD_COMBINE, "multiply")
    first_reel = ways.get("wilds_on_first_reel", bool, False)
    pays = symbol_pays(ways.sub("pays"), roles, "ways", "has no ways pays",
                       lambda entry: _ways_steps(entry, reels))
    paying = frozenset(sid for sid, _ in pays)
    wilds = [WaysWild(sid, substitutes, multiplier) for sid, substitutes, multiplier in
             wild_substitutes(ways, symbols, paying, paying, "not a paying symbol of [ways.pays]",
                              lambda entry: entry.int("multiplier", 1, low=1))]
    ways.finish()

    bet, max_win_x = read_coin_bet(root.sub("bet"), "pay_unit")

    reel_sets = root.sub("reels")
    for set_name in list(reel_sets.data):
        read_name(reel_sets, set_name, "reel set")
        if set_name != "base":
            raise reel_sets.fail(set_name, reel_sets.data[set_name],
                                 "a ways game has one reel set, named 'base'")
    base = reel_sets.sub("base")
    raw = base.get("strips", list)
    if len(raw) != reels:
        raise base.fail("strips", len(raw), f"expected one strip per reel ({reels})")
    strips = []
    for i, strip in enumerate(raw, 1):
        items = strip.split() if isinstance(strip, str) else strip
        if not isinstance(items, list) or len(items) < rows or any(x not in ids for x in items):
            raise base.fail(f"strips[{i}]", strip, f"need at least {rows} known symbol ids (a list, "
                            "or one string of ids separated by spaces)")
        if i == 1 and not first_reel:
            on_first = sorted({x for x in items if roles[x] == "wild"})
            if on_first:
                raise base.fail("strips[1]", on_first, "a wild on reel 1: set "
                                "[ways] wilds_on_first_reel = true to allow it")
        strips.append(tuple(items))
    base.finish()
    reel_sets.finish(("base",), "reel set")

    spec = WaysGameSpec(game_id, name, source, description, reels, rows, symbols, pays,
                        tuple(wilds), combine, first_reel, tuple(strips), bet, max_win_x)
    refuse_above_limit(source, ways_round_bound(spec), "credits at max bet", bet.denominations)
    return spec


def _ways_steps(entry, reels) -> list[tuple[int, int]]:
    """{3 = 5, 4 = 20, 5 = 50}: coins per way for the symbol on reels 1..n."""
    pairs = []
    for key in list(entry.data):
        count = count_key(key)
        if count is None or not 1 <= count <= reels:
            raise entry.fail(key, entry.data[key], f"a count of reels must be 1..{reels}")
        pairs.append((count, entry.int(key, low=0)))
    return sorted(pairs)


def ways_round_bound(spec: WaysGameSpec) -> Bound:
    """Most credits one round could pay at max bet: every paying symbol at its top pay on
    every way, each cell of the window a wild at the top multiplier (the cap, where set, is
    not counted: the kernel adds up a round before it cuts it)."""
    top_pay = largest([(f"ways.pays.{sid}.{c}", p) for sid, pays in spec.pays for c, p in pays],
                      const(0))
    top_mult = largest([(f"ways.wilds.{w.symbol}.multiplier", w.multiplier) for w in spec.wilds],
                       const(1))
    per_reel = product(const(spec.rows), top_mult)
    ways = product(*([per_reel] * spec.reels)) if spec.wild_combine == "multiply" else \
        product(*([const(spec.rows)] * spec.reels), const(1 + spec.reels * spec.rows), top_mult)
    # the kernel adds a round up uncapped before it applies the cap: the bound ignores it
    return product(const(len(spec.pays)), top_pay, ways,
                   factor("bet.max_coin_value", spec.bet.max_bet_per_line))
