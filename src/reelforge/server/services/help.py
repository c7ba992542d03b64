"""A game's information pages: the words of its `help.md`, with the numbers filled in by the
server from the game itself, as the game description's `info.help`.

The words live with the game: `help.md` beside the game file, shared by every RTP variant in
that folder. A game file kept elsewhere (an operator's or a test's copy) uses the words of the
shipped game it derives from: the package of its `[game] rules`, else the folder of the
shipped game with the same title. Where it is found is decided by the game file, never by a
request.

The file's format (docs/game-format.md, "Information pages"):

    <!-- a comment, ignored; it may span lines -->
    ## Winning the Jackpot {#jackpot}        a section: its title and id
    Paragraph text, lines joined until a blank line, with **bold** and {facts}.
    - a list item
      continued when indented
    ### A sub-heading
    {{paytable}}                              a part the page draws from the description

A fact (`{jackpot.count}`) is one of `facts(game)`: counts and names as text, money as
`{"minor": n}` and percentages as `{"percent": x}`, which the client formats in the player's
currency. A missing file, a line that is none of the above, an unknown fact or drawn part is
a `SpecError` naming the file, the line and the value, at start-up (the server describes every
game before its first request).
"""

from __future__ import annotations

import importlib
import itertools
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from reelforge.errors import SpecError
from reelforge.spec.cluster_features import ClusterFeatures

HELP_FILE = "help.md"
# What the page draws itself from the game description, at the player's bet and currency.
DRAWN = ("paytable", "paylines", "bets", "gamble-setting", "choice-timeout", "win-cap",
         "jackpot-meter", "jurisdiction")
SECTION = re.compile(r"\A## (?P<title>\S.*?) \{#(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)\}\Z")
TOKEN = re.compile(r"\*\*(?P<strong>[^*{}]+)\*\*|\{(?P<fact>[A-Za-z0-9_.]+)\}")
STRAY = re.compile(r"[{}]|\*\*")


@dataclass(frozen=True)
class Money:
    """An amount in the currency's minor units (the page formats it in the player's currency)."""

    minor: int


@dataclass(frozen=True)
class Percent:
    value: float


Fact = str | Money | Percent


# -- the file ---------------------------------------------------------------------------------
def help_file(spec: Any) -> Path:
    """The `help.md` of the game `spec` (see the module's docstring for where it is looked for)."""
    source = Path(spec.source)
    looked = [source.parent / HELP_FILE]
    if spec.rules is not None:
        from reelforge.spec.rules import RULES_PACKAGES

        package = importlib.import_module(RULES_PACKAGES[spec.rules])
        looked.append(Path(next(iter(package.__path__))) / HELP_FILE)
    for path in looked:
        if path.is_file():
            return path
    from reelforge.games import shipped_games
    from reelforge.spec import load_spec

    for shipped in shipped_games().values():
        if shipped.parent != source.parent and load_spec(shipped).name == spec.name:
            looked.append(shipped.parent / HELP_FILE)
            if looked[-1].is_file():
                return looked[-1]
            break
    raise SpecError(str(source), "information pages", HELP_FILE,
                    f"no such file for {spec.id!r}: looked for " + ", ".join(map(str, looked))
                    + " (beside the game file, in its rules package, with the shipped game of "
                    "the same title)")


@lru_cache(maxsize=16)
def read_help(path: Path) -> tuple[dict, ...]:
    """The sections of a help file, their texts still holding `{fact}` placeholders: a tuple
    of {"id", "title", "blocks"}, a block {"kind": "p" | "h3", "text"}, {"kind": "ul",
    "items"} or {"kind": <a DRAWN part>}."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(str(path), "information pages", HELP_FILE, f"unreadable: {exc}") from None
    sections: list[dict] = []
    paragraph: list[str] = []
    open_list: dict | None = None  # the list the next "- " item or indented line continues
    in_comment = False
    began = 0  # the line the paragraph began on

    def fail(number: int, line: str, problem: str) -> SpecError:
        return SpecError(str(path), f"line {number}", line, problem)

    def add(block: dict, number: int, line: str) -> None:
        if not sections:
            raise fail(number, line, "text before the first section (a line '## Title {#id}')")
        sections[-1]["blocks"].append(block)

    def flush() -> None:
        if paragraph:
            add({"kind": "p", "text": " ".join(paragraph)}, began, paragraph[0])
            paragraph.clear()

    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if in_comment:
            in_comment = "-->" not in line
            continue
        if line.startswith("<!--") or not line:
            flush()
            open_list = None
            in_comment = line.startswith("<!--") and "-->" not in line
            continue
        if line.startswith("- "):
            flush()
            if open_list is None:
                open_list = {"kind": "ul", "items": []}
                add(open_list, number, line)
            open_list["items"].append(line[2:].strip())
            continue
        if line.startswith("  ") and open_list is not None:
            open_list["items"][-1] += " " + line.strip()
            continue
        open_list = None
        if line.startswith("#"):
            flush()
            found = SECTION.fullmatch(line)
            if found:
                if any(s["id"] == found["id"] for s in sections):
                    raise fail(number, line, f"section id {found['id']!r} is given twice")
                if sections and not sections[-1]["blocks"]:
                    raise fail(number, line, f"section {sections[-1]['id']!r} before it is empty")
                sections.append({"id": found["id"], "title": found["title"], "blocks": []})
            elif line.startswith("### ") and line[4:].strip():
                add({"kind": "h3", "text": line[4:].strip()}, number, line)
            else:
                raise fail(number, line, "a heading is '## Title {#id}' (id: lowercase words "
                           "joined by hyphens) or '### Sub-heading'")
        elif line.startswith("{{"):
            flush()
            name = line[2:-2] if line.endswith("}}") else ""
            if name not in DRAWN:
                raise fail(number, line, f"a drawn part is one of {', '.join(DRAWN)}, alone on "
                           "its line, as {{paytable}}")
            add({"kind": name}, number, line)
        else:
            if not paragraph:
                began = number
            paragraph.append(line.strip())
    if in_comment:
        raise fail(len(lines), "<!--", "a comment is never closed (-->)")
    flush()
    if not sections:
        raise SpecError(str(path), "information pages", HELP_FILE, "no section ('## Title {#id}')")
    if not sections[-1]["blocks"]:
        raise SpecError(str(path), "information pages", sections[-1]["id"],
                        "the last section is empty")
    return tuple(sections)


def fill(sections: tuple[dict, ...], facts: dict[str, Fact], path: Path) -> dict:
    """The pages as the description carries them: every text a list of parts (str,
    {"strong": str}, {"minor": int}, {"percent": float})."""

    def parts(text: str, section: dict) -> list:
        out: list = []
        at = 0
        for m in TOKEN.finditer(text):
            out.append(text[at:m.start()])
            at = m.end()
            if m["strong"] is not None:
                out.append({"strong": m["strong"]})
                continue
            name = m["fact"]
            if name not in facts:
                known = ", ".join(sorted(facts))
                raise SpecError(str(path), f"section {section['id']}", "{" + name + "}",
                                f"not a fact of this game (its facts: {known})")
            value = facts[name]
            out.append(value if isinstance(value, str) else
                       {"minor": value.minor} if isinstance(value, Money) else
                       {"percent": value.value})
        out.append(text[at:])
        for piece in out:
            if isinstance(piece, str) and STRAY.search(piece):
                raise SpecError(str(path), f"section {section['id']}", text,
                                "an unmatched '{', '}' or '**' (a fact is {name}, bold is **text**)")
        merged: list = []
        for piece in out:
            if isinstance(piece, str) and merged and isinstance(merged[-1], str):
                merged[-1] += piece
            elif piece != "":
                merged.append(piece)
        return merged

    pages = []
    for s in sections:
        blocks = []
        for b in s["blocks"]:
            if b["kind"] == "p":
                blocks.append({"kind": "p", "parts": parts(b["text"], s)})
            elif b["kind"] == "ul":
                blocks.append({"kind": "ul", "items": [parts(i, s) for i in b["items"]]})
            elif b["kind"] == "h3":
                blocks.append({"kind": "h3", "parts": parts(b["text"], s)})
            else:
                blocks.append({"kind": b["kind"]})
        pages.append({"id": s["id"], "title": s["title"], "blocks": blocks})
    return {"sections": pages}


def help_pages(game: Any, rtp: tuple, max_win: Any, top_award: dict | None = None,
               barred: tuple[tuple[str, str], ...] = ()) -> dict:
    """`info.help` of the game description: its help file filled with its facts, less the
    modes the jurisdiction does not offer (`barred`: (mode, why), `without_modes`)."""
    path = help_file(game.spec)
    sections = without_modes(read_help(path), game, dict(barred))
    return fill(sections, facts(game, rtp, max_win, top_award), path)


def without_modes(sections: tuple[dict, ...], game: Any, barred: dict[str, str]) -> tuple:
    """The pages without a mode the player cannot play here: every paragraph or list item that
    names one of its facts ({mode.NAME.x}, {rtp.NAME}) is left out, and the section named
    after it (its id the mode's name, alone or followed by "-words": fortune-spins) says only
    that it is not offered here, and why."""
    if not barred:
        return sections
    modes = [m.name for m in game.modes if m.name in barred]
    names = re.compile(r"\{(?:mode|rtp)\.(?:" + "|".join(map(re.escape, modes)) + r")[.}]")
    out = []
    for s in sections:
        mode = next((n for n in modes if s["id"] == n or s["id"].startswith(n + "-")), None)
        if mode is not None:
            text = f"{s['title']} is not offered here: {barred[mode]}."
            out.append({**s, "blocks": [{"kind": "p", "text": text}]})
            continue
        blocks = []
        for b in s["blocks"]:
            if b["kind"] == "ul":
                items = [i for i in b["items"] if not names.search(i)]
                if items:
                    blocks.append({**b, "items": items})
            elif "text" not in b or not names.search(b["text"]):
                blocks.append(b)
        out.append({**s, "blocks": blocks})
    return tuple(out)


# -- the facts --------------------------------------------------------------------------------
def _n(value: float | Fraction) -> str:
    """12345 -> "12,345"; 4/3 -> "1.33"."""
    if isinstance(value, Fraction) and value.denominator == 1 or float(value).is_integer():
        return f"{int(value):,}"
    return f"{float(value):,.2f}"


def _words(items: list[str], last: str = "and") -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def _uniform(pairs: tuple[tuple[int, int], ...]) -> int | None:
    values = {v for _k, v in pairs}
    return values.pop() if len(values) == 1 else None


UNPUBLISHED = "not published for this build"


def facts(game: Any, rtp: tuple = (), max_win: Any = None,
          top_award: dict | None = None) -> dict[str, Fact]:
    """Every fact a help file of `game` may name: the game file's numbers and names, the
    server's terms (the jackpot's instalments), the RTP of each mode, the maximum win and the
    odds of the paytable's top award (`catalog.top_award`), a sentence of its own."""
    spec = game.spec
    out: dict[str, Fact] = {"title": game.title}
    out["top_award.odds"] = "The odds of the top award are not published for this build."
    if top_award is not None and "kind" in top_award:
        out["top_award.odds"] = top_prize_sentence(spec, top_award)
    elif top_award is not None:
        name = next(s.name for s in spec.symbols if s.id == top_award["symbol"])
        out["top_award.odds"] = (
            f"The top award of the paytable, {top_award['count']} {name} on a line "
            f"({_n(top_award['pay_per_line'])} times the bet on that line), comes on average once "
            f"in {round(top_award['one_in']):,} plays at the maximum bet, free spins included.")
    out.update({f"symbol.{s.id}": s.name for s in spec.symbols})
    for mode in game.modes:
        out[f"mode.{mode.name}.price"] = _n(mode.price)
        out[f"mode.{mode.name}.title"] = mode.title
        if mode.buy_spins:
            out[f"mode.{mode.name}.buy_spins"] = _n(mode.buy_spins)
        # until a figure below says otherwise: a test or uncertified build publishes none
        out[f"rtp.{mode.name}"] = UNPUBLISHED
        out[f"rtp.{mode.name}.ci95"] = UNPUBLISHED
    for figure in rtp:
        out[f"rtp.{figure.mode}"] = Percent(float(figure.value))
        if figure.ci95:
            out[f"rtp.{figure.mode}.ci95"] = Percent(float(figure.ci95))
    if max_win is not None:
        out["max_win.x"] = _n(max_win.x)
        out["max_win.credits"] = _n(max_win.credits)
        out["max_win.stake"] = _n(max_win.bet.lines * max_win.bet.bet_per_line)
    family_facts = FAMILY_FACTS.get(spec.family)
    if family_facts is None:
        raise ValueError(f"{game.title}: no help facts for game files of family {spec.family!r}"
                         f" (add them to FAMILY_FACTS in {__name__})")
    out.update(family_facts(spec))
    if spec.rules in RULES_FACTS:
        out.update(RULES_FACTS[spec.rules](spec))
    return out


def _once_in(x: float) -> str:
    return f"once in {round(x):,} plays"


def top_prize_sentence(spec: Any, top: dict) -> str:
    """The top prize (`analysis.top_prize`: its kind says which prize it is) and how rarely
    it comes: exact, or estimated with its 95% interval and the simulation's size."""
    if top["kind"] == "award":
        name = next(s.name for s in spec.symbols if s.id == top["symbol"])
        return (f"The top award of the paytable, {top['count']} {name} on a way from the "
                f"leftmost reel ({_n(Fraction(top['pay_coins'], top['pay_unit']))} times the bet "
                f"per way), comes on average {_once_in(top['one_in'])}, at every bet "
                "(calculated exactly from the reels).")
    if top["kind"] == "grand":
        return (f"The top prize, the grand prize of {_n(top['grand_x'])} times the bet for coins "
                f"on every position during the respins, comes on average "
                f"{_once_in(top['one_in'])}, at every bet (calculated exactly from the reels and "
                "the respins' odds).")
    sample = (f"{top['base_spins']:,} simulated rounds" if not top["feature_rounds"] else
              f"{top['base_spins']:,} simulated base game spins and {top['feature_rounds']:,} "
              "simulated bonus features")
    prize = (f"The top prize is the maximum win, {_n(top['cap_x'])} times the bet (a round that "
             "reaches it ends there).")
    if top["one_in"] is None:
        return (f"{prize} None of {sample} reached it: with 95% confidence "
                f"it comes less often than {_once_in(top['fewer_than_one_in'])}.")
    low, high = top["ci95"]
    bounds = (f"between {_once_in(1 / high)} and {_once_in(1 / low)}" if low > 0 else
              f"no more often than {_once_in(1 / high)}")
    return (f"{prize} It comes on average {_once_in(top['one_in'])} at the highest bet, an "
            f"estimate from {sample}; with 95% confidence, {bounds}.")


def _line_facts(spec: Any) -> dict[str, Fact]:
    names = {s.id: s.name for s in spec.symbols}
    bet = spec.bet
    out: dict[str, Fact] = {
        "reels": _n(spec.reels), "rows": _n(spec.rows), "lines": _n(len(spec.paylines)),
        "min_lines": _n(bet.min_lines), "max_lines": _n(bet.max_lines),
        "min_bet_per_line": "1", "max_bet_per_line": _n(bet.max_bet_per_line),
        "max_bet": _n(bet.max_lines * bet.max_bet_per_line)}
    if bet.max_win_minor:
        out["round_cap"] = Money(bet.max_win_minor)
    for w in spec.wilds:
        out[f"wild.{w.symbol}.multiplier"] = _n(w.multiplier)
    for s in spec.scatters:
        if s.pays:
            out[f"scatter.{s.symbol}.min_pay"] = _n(min(c for c, _p in s.pays))
    for m in spec.mixed:
        out[f"mixed.{m.name}.symbols"] = _words([names[s] for s in m.symbols])
        for count, pay in m.pays:
            out[f"mixed.{m.name}.{count}"] = _n(pay)
            if bet.min_lines == bet.max_lines and pay % bet.max_lines == 0:
                out[f"mixed.{m.name}.{count}.stakes"] = _n(pay // bet.max_lines)
    fg = spec.free_games
    if fg is not None:
        out.update({
            "free_games.trigger": names[fg.trigger],
            "free_games.min_trigger": _n(min(c for c, _s in fg.award)),
            "free_games.max_total_spins": _n(fg.max_total_spins),
            "free_games.multiplier": _n(fg.multiplier),
            "free_games.exempt": _words([f"{count} {names[sym]}" for sym, count in fg.exempt])
            if fg.exempt else "nothing"})
        for count, spins in fg.award:
            out[f"free_games.award.{count}"] = _n(spins)
        if (spins := _uniform(fg.award)) is not None:
            out["free_games.spins"] = _n(spins)
        if fg.retrigger != "none" and (spins := _uniform(fg.retrigger_award)) is not None:
            out["free_games.retrigger_spins"] = _n(spins)
    jp = spec.jackpot
    if jp is not None:
        from reelforge.server.services.jackpot import INSTALMENTS

        out.update({
            "jackpot.symbol": names[jp.symbol], "jackpot.count": _n(jp.count),
            "jackpot.line": _n(jp.line), "jackpot.seed": Money(jp.seed_amount),
            "jackpot.contribution": Percent(jp.contribution_bp / 10_000),
            "jackpot.instalments": _n(INSTALMENTS),
            "jackpot.later_instalments": _n(INSTALMENTS - 1)})
    g = spec.gamble
    if g is not None:
        out.update({"gamble.limit": _n(g.limit_credits), "gamble.max_wins": _n(g.max_wins),
                    "gamble.history": _n(g.history_length)})
    if spec.cash is not None:
        out["cash.values"] = _words([f"{_n(v)}x" for v, w in spec.cash.values if w], "or")
        if spec.cash.collector:
            out["cash.collector"] = names[spec.cash.collector]
    draws = spec.wild_draws
    if draws is not None:  # [wild_multipliers]: the draws by reel set, and how they combine
        out["wild_multipliers.combine"] = {"product": "multiply", "sum": "add up",
                                           "max": "count once, the largest"}[draws.combine]
        for name, table in draws.tables:
            out[f"wild_multipliers.{name}"] = _words([f"x{_n(m)}" for m, _w in table], "or")
            if name in draws.sticky:  # the reels a sticky wild can fill, from the strips
                reels = [r + 1 for r, strip in enumerate(spec.reel_set(name).strips)
                         if spec.wilds[0].symbol in strip]
                out[f"wild_multipliers.{name}.reels"] = _words([_n(r) for r in reels], "and")
    wheel = spec.wheel_gamble
    if wheel is not None:
        out["wheel_gamble.limit_stakes"] = _n(wheel.limit_stake_multiple)
        out["wheel_gamble.limit"] = Money(wheel.limit_minor)
        out["wheel_gamble.targets"] = _words([f"x{_n(Fraction(a, b))}" for a, b in
                                              wheel.cash_targets], "or")
    return out


def _cluster_facts(spec: Any) -> dict[str, Fact]:
    bet = spec.bet
    out: dict[str, Fact] = {
        "rows": _n(spec.rows), "cols": _n(spec.cols), "cells": _n(spec.rows * spec.cols),
        "min_cluster": _n(spec.min_size),
        "top_cluster": _n(max(size for _s, pays in spec.pays for size, _p in pays)),
        "coins": _n(bet.max_lines), "min_coin_value": "1",
        "max_coin_value": _n(bet.max_bet_per_line)}
    if spec.max_win_x:
        out["max_win_x"] = _n(spec.max_win_x)
    for name, values, weights in spec.random_multipliers:
        shown = [f"{_n(v)}x" for v, w in zip(values, weights, strict=True) if w and v > 1]
        if shown:
            out[f"random_multiplier.{name}"] = _words(shown, "or")
    if isinstance(spec.features, ClusterFeatures):  # a standard game's features as data
        out.update(_cluster_feature_facts(spec.features))
    return out


def _cluster_feature_facts(f: ClusterFeatures) -> dict[str, Fact]:
    """A standard cluster game's free spins and grid multipliers (spec/cluster_features.py)."""
    out: dict[str, Fact] = {}
    if f.free_spins is not None:
        fs = f.free_spins
        out["free_spins.min_scatters"] = _n(fs.awards[0][0])
        out["free_spins.awards"] = _words([f"{_n(c)} scatters: {_n(n)} free spins" for c, n in fs.awards])
        out["free_spins.min_retrigger"] = _n(fs.retrigger[0][0])
        out["free_spins.retrigger"] = _words([f"{_n(c)} scatters: {_n(n)} more" for c, n in fs.retrigger])
        out["free_spins.max_spins"] = _n(fs.max_spins)
    if f.grid_multipliers is not None:
        gm = f.grid_multipliers
        out["grid.start"] = _n(gm.start)
        out["grid.growth"] = _n(gm.growth)
        out["grid.max"] = _n(gm.max)
    return out


def _ways_facts(spec: Any) -> dict[str, Fact]:
    """A ways game (spec/ways.py): its window, ways, coins and wilds."""
    bet = spec.bet
    out: dict[str, Fact] = {
        "reels": _n(spec.reels), "rows": _n(spec.rows), "ways": _n(spec.rows ** spec.reels),
        "coins": _n(spec.pay_unit), "min_coin_value": "1",
        "max_coin_value": _n(bet.max_bet_per_line),
        "max_bet": _n(spec.pay_unit * bet.max_bet_per_line),
        "wild_multiplier_combine": "multiply" if spec.wild_combine == "multiply" else "add up",
        "wild.reels": f"2 to {spec.reels}" if not spec.wilds_on_first_reel else f"1 to {spec.reels}"}
    if spec.max_win_x:
        out["max_win_x"] = _n(spec.max_win_x)
    for w in spec.wilds:
        out[f"wild.{w.symbol}.multiplier"] = _n(w.multiplier)
    return out


def _trail_facts(spec: Any) -> dict[str, Fact]:
    """Cops n Robbers' trail bonus (games/cops_n_robbers/spec.py `TrailSpec`)."""
    t = spec.features
    marks = [position for position, _m in t.multipliers]
    gaps = {b - a for a, b in itertools.pairwise(marks)}
    top = max(m for _p, m in t.multipliers)
    out: dict[str, Fact] = {
        "trail.min_trigger": _n(min(c for c, _m in t.start_multiplier)),
        "trail.length": _n(t.length), "trail.head_start": _n(t.robber_start - t.cop_start),
        "trail.multipliers": _words([f"{_n(m)}x" for _p, m in t.multipliers]),
        "trail.first_multiplier": _n(t.multipliers[0][1]),
        "trail.first_position": _n(t.multipliers[0][0] - t.cop_start),
        "trail.max_multiplier": _n(top),
        "trail.max_total_multiplier": _n(top * max(m for _c, m in t.start_multiplier)),
        "trail.sid_pushback": _n(t.sid_pushback)}
    if len(gaps) == 1:
        out["trail.spacing"] = _n(gaps.pop())
    for count, multiplier in t.start_multiplier:
        out[f"trail.start.{count}"] = _n(multiplier)
    return out


def _candy_facts(spec: Any) -> dict[str, Fact]:
    """Candy Jar's jars, modifiers and jackpots (games/candy_jar_clusters/spec.py)."""
    f = spec.features
    names = {s.id: s.name for s in spec.symbols}
    golden = dict(spec.wild_multipliers)
    extra = f.extra_start.values
    out: dict[str, Fact] = {
        "trigger_candies": _n(f.trigger_candies), "free_spins": _n(f.free_spins),
        "extra_start.min": _n(min(extra)), "extra_start.max": _n(max(extra)),
        "free_spins.with_extra.min": _n(f.free_spins + min(extra)),
        "free_spins.with_extra.max": _n(f.free_spins + max(extra)),
        "wild.count.min": _n(min(f.wild_count.values)),
        "wild.count.max": _n(max(f.wild_count.values)),
        "golden_wild.multipliers": _words([f"x{_n(golden[s])}" for s in f.wild_symbols
                                           if s in golden], "or"),
        "extra.symbol": names[f.extra_symbol], "extra.per_super_spin": _n(f.extra_per_super_spin)}
    for candy, modifier in f.jars:
        out[f"jar.{modifier}"] = names[candy]
    for jp in f.jackpots:
        out[f"jackpot.{jp.name}.collect"] = _n(jp.collect)
        out[f"jackpot.{jp.name}.x"] = _n(jp.pays_x)
    return out


def _anywhere_facts(spec: Any) -> dict[str, Fact]:
    """A pays-anywhere game (spec/anywhere.py): its grid, counts, multiplier and free spins."""
    bet = spec.bet
    out: dict[str, Fact] = {
        "rows": _n(spec.rows), "cols": _n(spec.cols), "cells": _n(spec.cells),
        "min_count": _n(spec.min_count), "coins": _n(spec.pay_unit), "min_coin_value": "1",
        "max_coin_value": _n(bet.max_bet_per_line),
        "max_bet": _n(spec.pay_unit * bet.max_bet_per_line),
        "multiplier.start": _n(spec.multiplier_start),
        "multiplier.per_tumble": _n(spec.multiplier_per_tumble),
        "multiplier.max": _n(spec.multiplier_max),
        "multiplier.symbols": _words([f"x{_n(v)}" for _s, v in spec.multiplier_symbols] or ["none"])}
    if spec.max_win_x:
        out["max_win_x"] = _n(spec.max_win_x)
    if spec.scatter is not None:
        out["free_spins.min_trigger"] = _n(min(c for c, _s in spec.award))
        out["free_spins.award"] = _words([f"{_n(c)} scatters: {_n(s)} free spins"
                                          for c, s in spec.award])
        out["free_spins.retrigger"] = _words([f"{_n(c)} scatters: {_n(s)} more"
                                              for c, s in spec.retrigger] or ["none"])
        out["free_spins.max_spins"] = _n(spec.max_spins)
    return out


def _holdwin_facts(spec: Any) -> dict[str, Fact]:
    """A hold-and-win game (spec/holdwin.py): its ways base game's facts, and the respins'."""
    out = _ways_facts(spec.base)
    if spec.max_win_x:
        out["max_win_x"] = _n(spec.max_win_x)
    n, d = spec.respin_odds
    out.update({"hold.trigger": _n(spec.trigger), "hold.respins": _n(spec.respins),
                "hold.cells": _n(spec.cells), "hold.odds": f"1 in {_n(d // n)}" if d % n == 0
                else f"{_n(n)} in {_n(d)}", "hold.grand_x": _n(spec.grand_x),
                "hold.values": _words([f"{_n(v.x)}x" for v in spec.values if not v.jackpot]),
                "hold.jackpots": _words([f"{v.jackpot} {_n(v.x)}x" for v in spec.values
                                         if v.jackpot] or ["none"])})
    return out


# What each family of game file has to say about its grid and its pays.
FAMILY_FACTS = {"lines": _line_facts, "clusters": _cluster_facts, "ways": _ways_facts,
                "anywhere": _anywhere_facts,
                "holdwin": _holdwin_facts}
# The facts of each registered rules package (spec.rules.RULES_PACKAGES): a new one adds its own.
RULES_FACTS = {"cops_trail": _trail_facts, "candy_jar": _candy_facts}
