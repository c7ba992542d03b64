"""TOML -> GameSpec. Strict: every key is known, every value checked, one clear error per file.

Errors are `SpecError(source, key, value, problem)`, printed by the CLI as one line
`file: key = value: problem`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any, overload

from reelforge.errors import SpecError
from reelforge.spec.limits import LINE_SPIN_GUARD, WIN_LIMIT, check_line_game
from reelforge.spec.model import (
    MULTIPLIER_COMBINE,
    PURE_WILD_RULES,
    RETRIGGER_MODES,
    ROLES,
    SCATTER_COUNTING,
    BetSpec,
    CashSpec,
    FreeGamesSpec,
    GambleSpec,
    GameSpec,
    JackpotSpec,
    MixedPaySpec,
    ModeSpec,
    ReelSetSpec,
    ScatterSpec,
    WheelGambleSpec,
    WildSpec,
)
from reelforge.spec.parts import (
    read_denominations,
    read_header,
    read_name,
    read_symbols,
    reel_set_of,
)
from reelforge.spec.wild_draws import check_sticky, parse_wild_draws

KNOWN_SECTIONS = ("game", "symbols", "paytable", "lines", "scatter", "reels", "bet", "features",
                  "cash", "modes", "wild_multipliers")
FEATURES = ("free_games", "progressive_jackpot", "gamble", "wheel_gamble")
GAMBLE_KINDS = ("red_black",)
_MISSING = object()


class Table:
    """One TOML table with its dotted path; refuses keys nobody read."""

    def __init__(self, source: str, path: str, data: Any):
        self.source, self.path = source, path
        if not isinstance(data, dict):
            raise SpecError(source, path or "<root>", data, "expected a table")
        self.data: dict = data
        self.read: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def fail(self, name: str, value: Any, problem: str) -> SpecError:
        return SpecError(self.source, self.key(name), value, problem)

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = _MISSING) -> Any:
        self.read.add(name)
        if name not in self.data:
            if default is _MISSING:
                raise self.fail(name, None, "is required")
            return default
        value = self.data[name]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(name, value, f"expected {expected}")
        return value

    def int(self, name: str, default: Any = _MISSING, low: int = 0) -> int:
        value = self.get(name, int, default)
        if value < low:
            raise self.fail(name, value, f"must be >= {low}")
        return value

    def choice(self, name: str, options: tuple[str, ...], default: Any = _MISSING) -> str:
        value = self.get(name, str, default)
        if value not in options:
            raise self.fail(name, value, f"unknown value; expected one of {', '.join(options)}")
        return value

    @overload
    def sub(self, name: str) -> Table: ...
    @overload
    def sub(self, name: str, default: dict) -> Table: ...
    @overload
    def sub(self, name: str, default: None) -> Table | None: ...

    def sub(self, name: str, default: Any = _MISSING) -> Table | None:
        """The sub-table `name`: required, or `default` ({} or None) when absent."""
        value = self.get(name, dict, default)
        return None if value is None else Table(self.source, self.key(name), value)

    def finish(self, known: tuple[str, ...] | None = None, what: str = "key") -> None:
        for name in self.data:
            if name not in self.read:
                hint = f"; expected one of {', '.join(known)}" if known else ""
                raise self.fail(name, self.data[name], f"unknown {what}{hint}")


def game_digest(text: str) -> str:
    """SHA-256 of a game file, as `sha256sum` prints it, from its text as `read_game_text`
    returns it (line ends kept, so the UTF-8 encoding is the file's bytes). The one digest
    of a game file: GameSpec.sha256, outcomes, checkpoints and published estimates."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_game_text(path: str | Path) -> str:
    """A game file's text, decoded from its bytes as they are (no newline translation:
    `Path.read_text` would turn CRLF into LF and hash other bytes than the file's)."""
    path = Path(path)
    if path.is_dir():
        raise SpecError(str(path), "<file>", str(path), "is a directory, not a game file")
    if path.exists() and not path.is_file():  # a FIFO would block the read forever
        raise SpecError(str(path), "<file>", str(path), "is not a regular file")
    try:
        return path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise SpecError(str(path), "<file>", str(path), f"cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise SpecError(str(path), "<file>", exc.object[max(exc.start - 10, 0): exc.end + 10],
                        f"not UTF-8 text (byte {exc.start})") from None


def load_spec(path: str | Path) -> GameSpec:
    """Read and validate one game file."""
    return parse_spec(read_game_text(path), str(path))


def parse_spec(text: str, source: str = "<string>"):
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise SpecError(source, "<file>", text[:80], "values nested too deeply") from None
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        lines = text.splitlines()
        at = int(found.group(1)) if found else 0
        bad = lines[at - 1].strip() if 0 < at <= len(lines) else ""
        raise SpecError(source, f"<line {at}>", bad, f"not valid TOML ({exc})") from None
    _refuse_huge_integers(source, data)
    root = Table(source, "", data)
    game = data.get("game")
    spec: Any  # GameSpec, or a Cluster-, Ways- or AnywhereGameSpec (imported only for their files)
    if isinstance(game, dict) and game.get("family") == "clusters":
        from reelforge.spec.clusters import CLUSTER_SECTIONS, build_cluster_spec

        spec = build_cluster_spec(root, source)
        root.finish(CLUSTER_SECTIONS, "section")
    elif isinstance(game, dict) and game.get("family") == "ways":
        from reelforge.spec.ways import WAYS_SECTIONS, build_ways_spec

        spec = build_ways_spec(root, source)
        root.finish(WAYS_SECTIONS, "section")
    elif isinstance(game, dict) and game.get("family") == "anywhere":
        from reelforge.spec.anywhere import ANYWHERE_SECTIONS, build_anywhere_spec

        spec = build_anywhere_spec(root, source)
        root.finish(ANYWHERE_SECTIONS, "section")
    elif isinstance(game, dict) and game.get("family") == "holdwin":
        from reelforge.spec.holdwin import HOLDWIN_SECTIONS, build_holdwin_spec

        spec = build_holdwin_spec(root, source)
        root.finish(HOLDWIN_SECTIONS, "section")
    else:
        spec = _build(root)
        root.finish(KNOWN_SECTIONS, "section")
    return dataclasses.replace(spec, sha256=game_digest(text))


def _refuse_huge_integers(source: str, data: dict) -> None:
    """No integer of a file may reach the engine's int64 arithmetic with less than a factor
    of two to spare: one walk over everything, before any key is read."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}.{k}" if path else k, v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value, 1))
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= WIN_LIMIT:
            raise SpecError(source, path, value, "integer out of range: game files keep every "
                            "integer below 2**62 in size")


def _build(root: Table) -> GameSpec:
    game = root.sub("game")
    game_id, name, description, reels, rows = read_header(
        game, "cluedo-v1", ("lines", "clusters", "ways", "anywhere", "holdwin"), ("reels", "rows"),
        "lines")
    rules, rules_spec = _rules(game)
    game.finish()

    symbols = read_symbols(root.sub("symbols"), ROLES, "line")
    ids = {s.id for s in symbols}
    roles = {s.id: s.role for s in symbols}
    lines = root.sub("lines")
    paytable = _paytable(root.sub("paytable"), ids, reels)
    wilds = _wilds(lines, ids, roles)
    combine = lines.choice("wild_multiplier_combine", MULTIPLIER_COMBINE, "max")
    pure_rule = lines.choice("pure_wild_vs_substituted", PURE_WILD_RULES, "highest")
    paylines = _paylines(lines, reels, rows)
    mixed = _mixed(lines, ids, reels)
    lines.finish()

    scatters = _scatters(root.sub("scatter", {}), ids, roles, reels, rows)
    reel_sets = _reel_sets(root.sub("reels"), ids, reels, rows)
    set_names = tuple(r.name for r in reel_sets)
    if "base" not in set_names:
        raise root.fail("reels", set_names, "needs a reel set named 'base'")
    bet = _bet(root.sub("bet"), len(paylines))
    cash = _cash(root.sub("cash", None), ids)
    modes = _modes(root.sub("modes", {}), set_names)
    wild_draws = parse_wild_draws(root.sub("wild_multipliers", None), set_names)

    features = root.sub("features", {})
    free_games = _free_games(features.sub("free_games", None), ids, scatters, set_names, reels, rows)
    jackpot = _jackpot(features.sub("progressive_jackpot", None), ids, len(paylines), reels)
    gamble = _gamble(features.sub("gamble", None))
    wheel = _wheel_gamble(features.sub("wheel_gamble", None))

    spec = GameSpec(
        id=game_id, name=name, source=root.source, reels=reels, rows=rows, symbols=symbols,
        paytable=paytable, wilds=wilds, wild_multiplier_combine=combine,
        pure_wild_vs_substituted=pure_rule, paylines=paylines, scatters=scatters,
        reel_sets=reel_sets, base_reel_set="base", bet=bet, free_games=free_games,
        jackpot=jackpot, gamble=gamble, description=description, mixed=mixed, cash=cash,
        modes=modes, rules=rules, wheel_gamble=wheel, wild_draws=wild_draws,
    )
    if rules_spec is not None:  # the rules parse their own [features] tables
        spec = dataclasses.replace(spec, features=rules_spec.parse_features(features, spec))
    features.finish(FEATURES + getattr(rules_spec, "FEATURES", ()), "feature")
    check_mode_costs(spec)
    check_sticky(spec)
    check_line_game(spec)
    return spec


def _rules(game: Table):
    """[game] rules: (the registered name, their spec part), or (None, None)."""
    from reelforge.spec.rules import RULES_PACKAGES, rules_module

    name = game.get("rules", str, None)
    if name is None:
        return None, None
    if name not in RULES_PACKAGES:
        raise game.fail("rules", name, f"unknown rules module; expected one of {', '.join(RULES_PACKAGES)}")
    module = rules_module(name, part="spec")
    if getattr(module, "FAMILY", None) != "lines":
        raise game.fail("rules", name, "not rules of a line game")
    return name, module


def _symbol(table: Table, name: str, ids: set[str], value: Any = None) -> str:
    sid = table.get(name, str) if value is None else value
    if not isinstance(sid, str):
        raise table.fail(name, sid, "expected a symbol id")
    if sid not in ids:
        raise table.fail(name, sid, "unknown symbol")
    return sid


def _counts(table: Table, name: str, high: int) -> tuple[tuple[int, int], ...]:
    """A table like {3 = 15, 4 = 20}: count -> non-negative integer."""
    sub = table.sub(name)
    pairs = []
    for key in list(sub.data):
        if not (key.isascii() and key.isdigit()) or not 1 <= int(key) <= high:
            raise sub.fail(key, sub.data[key], f"count must be an integer 1..{high}")
        pairs.append((int(key), sub.int(key)))
    return tuple(sorted(pairs))


def _paytable(table: Table, ids: set[str], reels: int) -> tuple:
    out = []
    for sid in list(table.data):
        if sid not in ids:
            raise table.fail(sid, table.data[sid], "unknown symbol")
        out.append((sid, _counts(table, sid, reels)))
    return tuple(out)


def _wilds(lines: Table, ids: set[str], roles: dict[str, str]) -> tuple[WildSpec, ...]:
    wild_table = lines.sub("wild", {})
    out = []
    for sid in list(wild_table.data):
        entry = wild_table.sub(sid)
        if sid not in ids or roles[sid] != "wild":
            raise wild_table.fail(sid, sid, "is not a symbol with role 'wild'")
        subs = entry.get("substitutes", (list, str), "all")
        excluded = entry.get("except", list, [])
        for bad in excluded:
            _symbol(entry, "except", ids, bad)
        if subs == "all":
            chosen = {s for s in ids if roles[s] in ("regular", "wild") and s != sid}
        elif isinstance(subs, str):
            raise entry.fail("substitutes", subs, "expected 'all' or a list of symbols")
        else:
            chosen = {_symbol(entry, "substitutes", ids, s) for s in subs}
        out.append(WildSpec(sid, frozenset(chosen - set(excluded)), entry.int("multiplier", 1, low=1)))
        entry.finish()
    configured = {w.symbol for w in out}
    for sid in sorted(ids):  # a wild without a [lines.wild] table substitutes for all, multiplier 1
        if roles[sid] == "wild" and sid not in configured:
            chosen = {s for s in ids if roles[s] in ("regular", "wild") and s != sid}
            out.append(WildSpec(sid, frozenset(chosen), 1))
    return tuple(out)


def _paylines(lines: Table, reels: int, rows: int) -> tuple[tuple[int, ...], ...]:
    raw = lines.get("paylines", list)
    out = []
    for i, line in enumerate(raw, start=1):
        key = f"paylines[{i}]"
        if not isinstance(line, list) or len(line) != reels:
            raise lines.fail(key, line, f"a payline lists one row per reel ({reels} values)")
        for row in line:
            if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < rows:
                raise lines.fail(key, line, f"row {row!r} out of range 0..{rows - 1}")
        out.append(tuple(line))
    if not out:
        raise lines.fail("paylines", raw, "a line game needs at least one payline")
    return tuple(out)


def _scatters(table: Table, ids, roles, reels: int, rows: int) -> tuple[ScatterSpec, ...]:
    out = []
    for sid in list(table.data):
        entry = table.sub(sid)
        if sid not in ids or roles[sid] not in ("scatter", "bonus"):
            raise table.fail(sid, sid, "is not a symbol with role 'scatter' or 'bonus'")
        counting = entry.choice("counting", SCATTER_COUNTING, "reels")
        high = reels if counting == "reels" else reels * rows
        pays = _counts(entry, "pays", high) if "pays" in entry.data else ()
        out.append(ScatterSpec(sid, counting, pays))
        entry.finish()
    return tuple(out)


def _strip(table: Table, key: str, value: Any, ids: set[str]) -> tuple[str, ...]:
    cells = value.split() if isinstance(value, str) else value
    if not isinstance(cells, list) or not cells:
        raise table.fail(key, value, "a strip is a non-empty list of symbols")
    for cell in cells:
        if not isinstance(cell, str) or cell not in ids:
            raise table.fail(key, cell, "unknown symbol on strip")
    return tuple(cells)


def _reel_sets(table: Table, ids: set[str], reels: int, rows: int) -> tuple[ReelSetSpec, ...]:
    out = []
    for name in list(table.data):
        entry = table.sub(read_name(table, name, "reel set"))
        strips_raw = entry.get("strips", list)
        if len(strips_raw) != reels:
            raise entry.fail("strips", len(strips_raw), f"expected one strip per reel ({reels})")
        strips = tuple(_strip(entry, f"strips[{i}]", s, ids) for i, s in enumerate(strips_raw, 1))
        weights = None
        if "weights" in entry.data:
            raw = entry.get("weights", list)
            if len(raw) != reels:
                raise entry.fail("weights", len(raw), f"expected one weight list per reel ({reels})")
            for i, (w, s) in enumerate(zip(raw, strips), 1):
                ok = isinstance(w, list) and len(w) == len(s)
                ok = ok and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in w)
                if not ok or sum(w) == 0 or sum(w) >= 2**32:
                    raise entry.fail(f"weights[{i}]", w, f"need {len(s)} integer weights >= 0, sum 1..2**32-1")
            weights = tuple(tuple(w) for w in raw)
        for i, s in enumerate(strips, 1):
            if len(s) >= 2**31:
                raise entry.fail(f"strips[{i}]", len(s), "strip too long")
            if len(s) < rows:  # the rule `reelforge check` applies, refused before anything runs
                raise entry.fail(f"strips[{i}]", list(s), f"{len(s)} stops, fewer than the {rows} "
                                 "rows of the window: a strip shows each stop at most once")
        out.append(ReelSetSpec(name, strips, weights))
        entry.finish()
    return tuple(out)


def _bet(table: Table, n_lines: int) -> BetSpec:
    max_lines = table.int("max_lines", n_lines, low=1)
    if max_lines > n_lines:
        raise table.fail("max_lines", max_lines, f"more than the {n_lines} paylines defined")
    min_lines = table.int("min_lines", 1, low=1)
    if min_lines > max_lines:
        raise table.fail("min_lines", min_lines, f"more than max_lines ({max_lines})")
    cap = table.int("max_win_minor", 0)
    max_bpl = table.int("max_bet_per_line", low=1)
    denoms = read_denominations(table)
    table.finish()
    return BetSpec(max_lines, max_bpl, denoms, min_lines, cap)


def _free_games(table: Table | None, ids, scatters, set_names, reels, rows) -> FreeGamesSpec | None:
    if table is None:
        return None
    trigger = _symbol(table, "trigger", ids)
    scatter = next((s for s in scatters if s.symbol == trigger), None)
    if scatter is None:
        raise table.fail("trigger", trigger, "needs a [scatter] entry for that symbol")
    high = reels if scatter.counting == "reels" else reels * rows
    award = _counts(table, "award", high)
    retrigger = table.choice("retrigger", RETRIGGER_MODES, "unlimited")
    again = _counts(table, "retrigger_award", high) if "retrigger_award" in table.data else award
    cap = table.int("max_total_spins", 0)
    if retrigger == "capped" and cap < 1:
        raise table.fail("max_total_spins", cap, "retrigger 'capped' needs max_total_spins >= 1")
    if cap > LINE_SPIN_GUARD:  # the engine would stop the bonus there, flagged as a guard hit
        raise table.fail("max_total_spins", cap, f"above the engine's spin guard ({LINE_SPIN_GUARD:,} "
                         "spins), the most free spins a round plays")
    reel_set = reel_set_of(table, "reel_set", table.get("reel_set", str, "base"), set_names)
    exempt = []
    for i, item in enumerate(table.get("exempt", list, []), 1):
        count = item.get("count") if isinstance(item, dict) else None
        if not isinstance(item, dict) or set(item) != {"symbol", "count"} or isinstance(count, bool) \
                or not isinstance(count, int) or not 1 <= count <= reels:
            raise table.fail(f"exempt[{i}]", item, f"expected {{symbol = ..., count = 1..{reels}}}")
        exempt.append((_symbol(table, f"exempt[{i}]", ids, item["symbol"]), count))
    weights: tuple[tuple[int, int], ...] = ()
    if "multiplier_weights" in table.data:
        if "multiplier" in table.data:
            raise table.fail("multiplier", table.data["multiplier"],
                             "give either a fixed multiplier or multiplier_weights, not both")
        weights = _counts(table, "multiplier_weights", 1_000_000)
        if not any(w for _, w in weights) or sum(w for _, w in weights) >= 2**32:
            raise table.fail("multiplier_weights", dict(weights), "weights must sum to 1..2**32-1")
        weights = tuple((m, w) for m, w in weights if w > 0)
    spec = FreeGamesSpec(trigger, award, again, retrigger, cap, table.int("multiplier", 1, low=1),
                         reel_set, tuple(exempt), weights)
    table.finish()
    return spec


def _jackpot(table: Table | None, ids, n_lines: int, reels: int) -> JackpotSpec | None:
    if table is None:
        return None
    symbol = _symbol(table, "symbol", ids)
    count = table.int("count", reels, low=1)
    if count > reels:
        raise table.fail("count", count, f"more than {reels} reels")
    line = table.int("line", 1, low=1)
    if line > n_lines:
        raise table.fail("line", line, f"no such payline (1..{n_lines})")
    spec = JackpotSpec(symbol, count, line, table.get("requires_max_bet", bool, True),
                       table.int("seed_amount"), table.int("contribution_bp"))
    if spec.contribution_bp > 10_000:
        raise table.fail("contribution_bp", spec.contribution_bp, "basis points must be 0..10000")
    table.finish()
    return spec


def _gamble(table: Table | None) -> GambleSpec | None:
    if table is None:
        return None
    spec = GambleSpec(table.choice("kind", GAMBLE_KINDS), table.int("limit_credits", low=1),
                      table.int("max_wins", low=1), table.int("history_length", 14, low=1),
                      table.get("take_half", bool, True))
    table.finish()
    return spec


def _symbol_list(table: Table, name: str, ids: set[str]) -> tuple[str, ...]:
    value = table.get(name, list)
    if not value:
        raise table.fail(name, value, "expected a non-empty list of symbols")
    return tuple(_symbol(table, name, ids, v) for v in value)


def _mixed(lines: Table, ids: set[str], reels: int) -> tuple[MixedPaySpec, ...]:
    groups = lines.sub("mixed", {})
    out: list[MixedPaySpec] = []
    seen: set[str] = set()
    for name in list(groups.data):
        entry = groups.sub(name)
        members = _symbol_list(entry, "symbols", ids)
        if seen & set(members):
            raise entry.fail("symbols", list(members), "a symbol can belong to one mixed group only")
        seen |= set(members)
        out.append(MixedPaySpec(name, members, _counts(entry, "pays", reels)))
        entry.finish()
    return tuple(out)


def _cash(table: Table | None, ids: set[str]) -> CashSpec | None:
    if table is None:
        return None
    symbols = _symbol_list(table, "symbols", ids)
    values = _counts(table, "values", 1_000_000)
    total = sum(w for _, w in values)
    if not 0 < total < 2**32:
        raise table.fail("values", dict(values), "weights must sum to 1..2**32-1")
    collector = _symbol(table, "collector", ids) if "collector" in table.data else None
    table.finish()
    return CashSpec(symbols, tuple((v, w) for v, w in values if w > 0), collector)


def _modes(table: Table, set_names: tuple[str, ...]) -> tuple[ModeSpec, ...]:
    out = []
    for name in list(table.data):
        entry = table.sub(read_name(table, name, "mode"))
        reel_set = reel_set_of(entry, "reel_set", entry.get("reel_set", str, "base"), set_names)
        buy = entry.int("buy_spins", 0, low=0)
        collect = entry.get("collect", bool, False)
        if buy and collect:
            raise entry.fail("collect", collect, "a buy mode plays no base spin, so nothing collects")
        if buy and "reel_set" in entry.data:
            raise entry.fail("reel_set", reel_set, "a buy mode plays no base spin: its free games "
                             "use [features.free_games] reel_set")
        if buy > LINE_SPIN_GUARD:
            raise entry.fail("buy_spins", buy, f"must be 0..{LINE_SPIN_GUARD} (the spin guard)")
        out.append(ModeSpec(name, reel_set, _mode_price(entry), collect, buy,
                            entry.get("title", str, "")))
        entry.finish()
    return tuple(out)


MODE_PRICE_PATTERN = re.compile(r"\A[1-9][0-9]{0,8}(/[1-9][0-9]{0,8})?\Z")  # "n" or "n/d"


def _mode_price(entry: Table) -> Fraction:
    """A mode's price in stakes, exact: an integer >= 1, or a string "num/den" (an ante at
    "5/4"); a float is refused, since 1.1 is no exact fraction in binary."""
    value = entry.get("price", object, 1)
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1 or \
        isinstance(value, str) and MODE_PRICE_PATTERN.fullmatch(value) is not None
    if not ok:
        hint = ""
        if isinstance(value, float) and value > 0:
            near = Fraction(value).limit_denominator(1000)
            hint = f' (for {value}: "{near.numerator}/{near.denominator}")'
        raise entry.fail("price", value, 'expected an integer >= 1 or an exact fraction '
                         f'"numerator/denominator" of stakes, like "5/4"{hint}')
    return Fraction(value)


def check_mode_costs(spec: GameSpec) -> None:
    """Refuse a mode no bet can play: a price that makes every stake's cost a fraction of a
    credit (at "5/4", only stakes that are multiples of 4 cost whole credits), or a buy
    mode without free games to buy."""
    bet = spec.bet
    for mode in spec.modes:
        key = f"modes.{mode.name}"
        if mode.buy_spins and spec.free_games is None:
            raise SpecError(spec.source, f"{key}.buy_spins", mode.buy_spins,
                            "buys the free games, but the game has no [features.free_games]")
        # stake x num/den is whole when den divides the stake = lines x per line: at `lines`,
        # the smallest such per-line bet is den / gcd(den, lines)
        den = mode.price.denominator
        if all(den // math.gcd(den, lines) > bet.max_bet_per_line
               for lines in range(bet.min_lines, bet.max_lines + 1)):
            raise SpecError(spec.source, f"{key}.price", str(mode.price),
                            f"no stake ({bet.min_lines}..{bet.max_lines * bet.max_bet_per_line} "
                            "credits) costs a whole number of credits at this price")


def _wheel_gamble(table: Table | None) -> WheelGambleSpec | None:
    if table is None:
        return None
    targets = []
    for i, item in enumerate(table.get("cash_targets", list), 1):
        ok = isinstance(item, list) and len(item) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in item)
        if not ok or item[0] <= item[1]:
            raise table.fail(f"cash_targets[{i}]", item, "expected [numerator, denominator] above 1")
        targets.append((item[0], item[1]))
    limit = table.int("limit_minor", low=1)
    if limit >= 2**32:  # the wheel draws a cash amount up to the limit below 2**32
        raise table.fail("limit_minor", limit, "must be 1..2**32-1")
    for i, (num, _den) in enumerate(targets, 1):
        if num >= 2**32:
            raise table.fail(f"cash_targets[{i}]", list(targets[i - 1]), "numbers must be below 2**32")
    spec = WheelGambleSpec(table.int("limit_stake_multiple", low=1), limit, tuple(targets),
                           _bonus_prices(table))
    table.finish()
    return spec


PRICE_PATTERN = re.compile(r"\A[1-9][0-9]{0,17}/[1-9][0-9]{0,17}\Z")  # "num/den", each < 10**18


def _bonus_prices(table: Table) -> tuple[Fraction, ...]:
    """bonus_prices = ["num/den", ...]: the bonus wheel's price of each bonus (starting
    multiplier 1, 2, ...) in stakes, exact, rising."""
    prices: list[Fraction] = []
    for i, text in enumerate(table.get("bonus_prices", list), 1):  # no bonus wheel without its prices
        if not isinstance(text, str) or PRICE_PATTERN.fullmatch(text) is None:
            raise table.fail(f"bonus_prices[{i}]", text, 'expected "numerator/denominator" in '
                             'stakes, like "70478383154/1000000000"')
        prices.append(Fraction(text))
        if len(prices) > 1 and prices[-1] <= prices[-2]:
            raise table.fail(f"bonus_prices[{i}]", text, "prices must rise with the starting multiplier")
    return tuple(prices)
