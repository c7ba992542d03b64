"""The parts of a game file that every family reads alike, read by one implementation each.

The line loader (spec/load.py) and the family builders (clusters, ways, hold-and-win,
pays-anywhere) take from here the [game] header, the [symbols] table, a coin bet, a pays
table's frame, wild exclusions, column weights and a scatter's free spins; what is the
family's own (the keys of a pays entry, strips, features) stays in its module. Every error is
the `Table`'s `file: key = value: problem` line, naming the key as it stands in the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from reelforge.errors import SpecError
from reelforge.spec.limits import MAX_GRID_SIDE, MAX_SYMBOLS
from reelforge.spec.model import (
    GAME_ID_RULE,
    NAME_RULE,
    BetSpec,
    SymbolSpec,
    valid_game_id,
    valid_name,
)

if TYPE_CHECKING:
    from reelforge.spec.load import Table

# every role some family knows: a role outside a family's own is "not a <family>-game role"
KNOWN_ROLES = ("regular", "wild", "scatter", "bonus", "multiplier")


# ---------------------------------------------------------------- [game]


def read_game_id(game: Table, example: str) -> str:
    """[game] id, checked against the one pattern every id follows (`valid_game_id`)."""
    value = game.get("id", str)
    if not valid_game_id(value):
        raise game.fail("id", value, f"a game id is {GAME_ID_RULE}, like {example!r}")
    return value


def read_name(table: Table, name: str, what: str) -> str:
    """The key `name` of `table`, refused unless it is a valid name (`valid_name`): mode and
    reel-set names reach file names and command lines."""
    if not valid_name(name):
        raise table.fail(name, name, f"a {what} name is {NAME_RULE}, like 'base' or 'free'")
    return name


def grid_side(game: Table, name: str) -> int:
    value = game.int(name, low=1)
    if value > MAX_GRID_SIDE:
        raise game.fail(name, value, f"must be 1..{MAX_GRID_SIDE}")
    return value


def read_header(game: Table, example: str, families: tuple[str, ...], sides: tuple[str, str],
                default_family: str | None = None) -> tuple[str, str, str, int, int]:
    """[game] id, name, description, family (one of `families`) and the two sides of the
    window, in that order: (id, name, description, side, side). The caller reads what else
    its family keeps in [game] and finishes the table."""
    game_id = read_game_id(game, example)
    name = game.get("name", str)
    description = game.get("description", str, "")
    if default_family is None:
        game.choice("family", families)
    else:
        game.choice("family", families, default_family)
    return game_id, name, description, grid_side(game, sides[0]), grid_side(game, sides[1])


# ---------------------------------------------------------------- [symbols]


def read_symbols(table: Table, roles: tuple[str, ...], what: str) -> tuple[SymbolSpec, ...]:
    """[symbols] {ID = {role, name}}: each role one of `roles` (a `what` game's)."""
    out = []
    for sid in list(table.data):
        entry = table.sub(sid)
        role = entry.get("role", str)
        if role not in roles:
            problem = f"not a {what}-game role" if role in KNOWN_ROLES else "unknown value"
            raise entry.fail("role", role, f"{problem}; expected one of {', '.join(roles)}")
        out.append(SymbolSpec(sid, entry.get("name", str, sid), role))
        entry.finish()
    if not out:
        raise SpecError(table.source, table.path, {}, "a game needs at least one symbol")
    if len(out) > MAX_SYMBOLS:
        raise SpecError(table.source, table.path, len(out), f"at most {MAX_SYMBOLS} symbols")
    return tuple(out)


def roles_of(symbols: Iterable[SymbolSpec]) -> dict[str, str]:
    return {s.id: s.role for s in symbols}


# ---------------------------------------------------------------- [bet]


def read_denominations(table: Table) -> tuple[int, ...]:
    denoms = table.get("denominations", list, [1])
    if not denoms or any(isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in denoms):
        raise table.fail("denominations", denoms, "expected positive integers (minor units per credit)")
    return tuple(denoms)


def read_coin_bet(table: Table, coins_key: str) -> tuple[BetSpec, int]:
    """A stake of `coins_key` coins (fixed) of a value 1..max_coin_value credits: BetSpec's
    lines are the coins, its bet per line the coin value. And max_win_x, the cap on a round
    in stakes (0: none)."""
    coins = table.int(coins_key, low=1)
    max_coin = table.int("max_coin_value", low=1)
    denoms = read_denominations(table)
    cap = table.int("max_win_x", 0)
    table.finish()
    return BetSpec(coins, max_coin, denoms, coins, 0), cap


# ---------------------------------------------------------------- pays


def count_key(key: str) -> int | None:
    """A table key that is a whole number written in ASCII digits ("12"), as an int; else None
    ("²" is a digit to str.isdigit, but no count)."""
    return int(key) if key.isascii() and key.isdigit() else None


def symbol_pays(table: Table, roles: dict[str, str], what: str, no_pays: str,
                read_steps: Callable[[Table], list]) -> tuple[tuple[str, tuple], ...]:
    """{SYMBOL = {...}}: each regular symbol's pays, `read_steps(entry)` reading one symbol's
    table (sorted and checked); a symbol of another role `no_pays` ("has no ways pays")."""
    out = []
    for sid in list(table.data):
        if sid not in roles:
            raise table.fail(sid, table.data[sid], "unknown symbol")
        if roles[sid] != "regular":
            raise table.fail(sid, table.data[sid], f"a {roles[sid]} symbol {no_pays}")
        entry = table.sub(sid)
        steps = read_steps(entry)
        if not steps:
            raise table.fail(sid, {}, "no pays")
        entry.finish()
        out.append((sid, tuple(steps)))
    if not out:
        raise SpecError(table.source, table.path, {}, f"a {what} game needs pays")
    return tuple(out)


def refuse_falling(entry: Table, steps: list[tuple[str, int]], grows: str) -> None:
    """`steps` (key, coins) in the order their counts grow: no pay below the one before it."""
    for (_key, before), (key, coins) in pairwise(steps):
        if coins < before:
            raise entry.fail(key, coins, f"pays must not fall as {grows} grow")


def wild_substitutes(section: Table, symbols: tuple[SymbolSpec, ...], paying: frozenset[str],
                     known: Iterable[str], problem: str,
                     read_more: Callable[[Table], Any] | None = None) -> list[tuple[str, frozenset[str], Any]]:
    """[<section>.wilds.<W>] of each wild W: `except`, the symbols of `known` it does not stand
    in for (another is `problem`), and what `read_more(entry)` reads there. Per wild:
    (id, the paying symbols it substitutes, what read_more returned or None)."""
    allowed = set(known)
    table = section.sub("wilds", {})
    out = []
    for s in symbols:
        if s.role != "wild":
            continue
        entry = table.sub(s.id, {})
        excluded = entry.get("except", list, [])
        for x in excluded:
            if x not in allowed:
                raise entry.fail("except", x, problem)
        more = None if read_more is None else read_more(entry)
        entry.finish()
        out.append((s.id, paying - set(excluded), more))
    table.finish(tuple(s.id for s in symbols if s.role == "wild"), "wild")
    return out


# ---------------------------------------------------------------- [reels]


def column_weights(w: Table, ids: Iterable[str], cols: int,
                   one_for_all: bool) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """{SYMBOL = [w1, ..., w_cols]}: integer weights per column of a grid's refill, each column
    summing to 1..2**32-1; `one_for_all` also takes one integer for every column."""
    known = set(ids)
    pairs = []
    for sid in list(w.data):
        if sid not in known:
            raise w.fail(sid, w.data[sid], "unknown symbol")
        raw = w.data[sid]
        one = one_for_all and isinstance(raw, int) and not isinstance(raw, bool)
        per_col = [raw] * cols if one else raw
        if not isinstance(per_col, list) or len(per_col) != cols or any(
                isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in per_col):
            need = f"one integer weight >= 0, or {cols}" if one_for_all else f"{cols} integer weights >= 0"
            raise w.fail(sid, raw, f"need {need}, one per column")
        pairs.append((sid, tuple(per_col)))
    for c in range(cols):
        total = sum(p[1][c] for p in pairs)
        if not 0 < total < 2**32:
            raise w.fail(f"<column {c + 1}>", total, "weights of a column must sum to 1..2**32-1")
    return tuple(pairs)


def reel_set_of(table: Table, name: str, value: str, names: Iterable[str]) -> str:
    """`value`, the reel set that key `name` of `table` names, refused unless it is one of
    `names` (the file's reel sets)."""
    names = list(names)
    if value not in names:
        raise table.fail(name, value, f"unknown reel set; defined: {', '.join(names)}")
    return value


# ---------------------------------------------------------------- a scatter's free spins


def scatters_of(roles: dict[str, str]) -> list[str]:
    return [sid for sid, role in roles.items() if role == "scatter"]


def refuse_silent_scatter(table: Table, name: str, roles: dict[str, str]) -> None:
    """A scatter must say what it awards: refused where `name` of `table`, its free spins
    table, is absent."""
    scatters = scatters_of(roles)
    if scatters:
        raise table.fail(name, None, f"the scatter {scatters[0]} needs [{table.key(name)}] to "
                         "say what it awards")


def read_scatter(free: Table, roles: dict[str, str]) -> str:
    """The free spins table's `scatter`: the game's one symbol of role 'scatter'."""
    scatter = free.get("scatter", str)
    scatters = scatters_of(roles)
    if scatter not in scatters:
        raise free.fail("scatter", scatter, "not a symbol of role 'scatter'"
                        + (f" (scatters: {', '.join(scatters)})" if scatters else ""))
    if len(scatters) > 1:
        raise free.fail("scatter", scatter, f"one scatter symbol per game; found {', '.join(scatters)}")
    return scatter


def scatter_awards(free: Table, name: str, required: bool, cells: int | None = None,
                   most: int | None = None) -> tuple[tuple[int, int], ...]:
    """{count = spins, ...}: scatters counted -> free spins, ascending; counts >= 1 (above
    `cells`, the grid's, refused where given), spins 1..`most`. Absent and not `required`: ()."""
    entry = free.sub(name) if required else free.sub(name, {})
    pairs = []
    for key in list(entry.data):
        count = count_key(key)
        if count is None or count < 1:
            raise entry.fail(key, entry.data[key], "a scatter count is a whole number >= 1")
        if cells is not None and count > cells:
            raise entry.fail(key, entry.data[key], f"can never happen: the grid has {cells} cells")
        spins = entry.int(key, low=1)
        if most is not None and spins > most:
            raise entry.fail(key, spins, f"at most {most:,} free spins")
        pairs.append((count, spins))
    if required and not pairs:
        raise free.fail(name, {}, "needs at least one scatter count: without one it awards no "
                        "free spins")
    entry.finish()
    return tuple(sorted(pairs))


def read_max_spins(free: Table, most: int) -> int:
    """`max_spins`: the most free spins one round plays, 1..`most` (the family's guard)."""
    value = free.int("max_spins", low=1)
    if value > most:
        raise free.fail("max_spins", value, f"at most {most:,} free spins a round")
    return value
