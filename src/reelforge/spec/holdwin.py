"""TOML -> HoldWinGameSpec: the hold-and-win family (`family = "holdwin"` in [game]).

The base game is a ways game (spec/ways.py: the same [symbols], [ways], [bet] and [reels]
keys). Its prize symbol (role "bonus") pays nothing on the ways; `trigger` or more of them in
the window start the respins: the prizes lock, each with a value drawn from [hold.values] and
[hold.jackpots], and every empty cell shows the blank symbol. Each respin, every empty cell
independently lands a prize with chance `respin_prize_odds`; a respin that lands one resets
the respins to `respins`, one that lands none uses one up. The feature ends when they are used
up or every cell is locked; then every locked prize pays its value, and a full screen pays
`grand_x` more.

Numbers: prize values and the grand prize are whole multiples of the stake (pay_unit coins),
so each is an exact fraction of it; the round's win is capped at `max_win_x` stakes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from reelforge.spec.limits import Bound, const, factor, largest, product, refuse_above_limit, total
from reelforge.spec.model import BetSpec, FixedStakeSpec, SymbolSpec
from reelforge.spec.ways import WAYS_ROLES, WaysGameSpec, build_ways_spec, ways_round_bound

HOLDWIN_SECTIONS = ("game", "symbols", "ways", "hold", "bet", "reels")
HOLDWIN_ROLES = (*WAYS_ROLES, "bonus")
JACKPOT_NAME = re.compile(r"[A-Z][A-Z0-9_]{0,15}")
MAX_ODDS = 2**31  # draw_below takes n < 2**32


@dataclass(frozen=True)
class PrizeValue:
    """One entry of the prize table: a value in stakes, its weight, and its jackpot name
    ("" for a plain value)."""

    x: int
    weight: int
    jackpot: str = ""


@dataclass(frozen=True)
class HoldWinGameSpec(FixedStakeSpec):
    id: str
    name: str
    source: str
    description: str
    base: WaysGameSpec  # the ways base game (uncapped: the round's cap is applied here)
    prize: str  # the prize symbol
    blank: str  # what an empty cell shows during the respins
    trigger: int  # prizes in the base window that start the respins
    respins: int  # respins at the start and after each respin that lands a prize
    respin_odds: tuple[int, int]  # (n, d): an empty cell lands a prize with chance n / d
    values: tuple[PrizeValue, ...]  # plain values, then the jackpots, as the file lists them
    grand_x: int  # paid on top when every cell is locked, stakes
    max_win_x: int  # cap on one round's win in stakes, 0 = none
    family: str = "holdwin"
    sha256: str = field(default="", compare=False)

    # the base game's parts, read through (the bet, window and symbols are the ways game's)
    @property
    def reels(self) -> int:
        return self.base.reels

    @property
    def rows(self) -> int:
        return self.base.rows

    @property
    def cells(self) -> int:
        return self.base.reels * self.base.rows

    @property
    def symbols(self) -> tuple[SymbolSpec, ...]:
        return self.base.symbols

    @property
    def bet(self) -> BetSpec:
        return self.base.bet


def build_holdwin_spec(root, source: str) -> HoldWinGameSpec:
    """Build from the root `Table` of a file whose [game] says family = "holdwin"."""
    import dataclasses

    ways = build_ways_spec(root, source, "holdwin", HOLDWIN_ROLES, "holdwin-example-v1")
    roles = {s.id: s.role for s in ways.symbols}
    hold = root.sub("hold")
    prize = hold.get("prize", str)
    if roles.get(prize) != "bonus":
        raise hold.fail("prize", prize, "not a symbol of role 'bonus' in [symbols]")
    blank = hold.get("blank", str)
    if roles.get(blank) != "regular" or any(sid == blank for sid, _ in ways.pays):
        raise hold.fail("blank", blank, "not a regular symbol without pays in [symbols]")
    cells = ways.reels * ways.rows
    trigger = hold.int("trigger", low=1)
    if trigger > cells:
        raise hold.fail("trigger", trigger, f"more prizes than the window's {cells} cells: the "
                        "respins can never start")
    most = sum(max(_windows(strip, ways.rows, prize)) for strip in ways.strips)
    if trigger > most:
        raise hold.fail("trigger", trigger, f"the reels show at most {most} {prize} at once: the "
                        "respins can never start")
    respins = hold.int("respins", low=1)
    odds = hold.get("respin_prize_odds", list)
    if (len(odds) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in odds)
            or not 0 < odds[0] <= odds[1] or odds[1] >= MAX_ODDS):
        raise hold.fail("respin_prize_odds", odds, f"expected [n, d], whole numbers with "
                        f"0 < n <= d < {MAX_ODDS} (a chance of n in d per empty cell)")
    if odds[0] == odds[1]:
        raise hold.fail("respin_prize_odds", odds, "a certain prize on every cell: the feature "
                        "always fills the screen; use a chance below 1")
    values = _values(hold.sub("values"), hold.sub("jackpots", {}))
    grand_x = hold.int("grand_x", 0)
    hold.finish()
    spec = HoldWinGameSpec(ways.id, ways.name, source, ways.description,
                           dataclasses.replace(ways, max_win_x=0), prize, blank, trigger, respins,
                           (odds[0], odds[1]), values, grand_x, ways.max_win_x)
    refuse_above_limit(source, holdwin_round_bound(spec), "credits at max bet",
                       ways.bet.denominations)
    return spec


def _windows(strip: tuple[str, ...], rows: int, symbol: str) -> list[int]:
    """Per stop of `strip`, how many of the `rows` cells it shows are `symbol`."""
    n = len(strip)
    return [sum(1 for h in range(rows) if strip[(s + h) % n] == symbol)
            for s in range(n)]


def _values(table, jackpots) -> tuple[PrizeValue, ...]:
    """[hold.values] {x = weight} and [hold.jackpots] {NAME = {x, weight}}, in file order."""
    out = []
    for key in list(table.data):
        if not key.isdigit() or int(key) < 1:
            raise table.fail(key, table.data[key], "a prize value is a whole number of stakes >= 1")
        out.append(PrizeValue(int(key), table.int(key, low=1)))
    table.finish()
    for name in list(jackpots.data):
        if not JACKPOT_NAME.fullmatch(name):
            raise jackpots.fail(name, jackpots.data[name], "a jackpot name is A-Z, 0-9 and _, "
                                "1 to 16 characters, starting with a letter")
        entry = jackpots.sub(name)
        out.append(PrizeValue(entry.int("x", low=1), entry.int("weight", low=1), name))
        entry.finish()
    jackpots.finish()
    if not out:
        raise table.fail("", {}, "a hold-and-win game needs prize values")
    if sum(v.weight for v in out) >= MAX_ODDS:
        raise table.fail("", {v.jackpot or str(v.x): v.weight for v in out},
                         f"weights add up to {MAX_ODDS} or more")
    return tuple(out)


def holdwin_round_bound(spec: HoldWinGameSpec) -> Bound:
    """Most credits one round could pay at max bet: the ways base game's bound, plus every
    cell locked at the top prize value and the grand prize (the cap not counted)."""
    top = largest([(f"hold.values.{v.jackpot or v.x}", v.x) for v in spec.values], const(0))
    feature = total(product(const(spec.cells), top), const(spec.grand_x))
    stake = product(const(spec.pay_unit), factor("bet.max_coin_value", spec.bet.max_bet_per_line))
    return total(ways_round_bound(spec.base), product(feature, stake))
