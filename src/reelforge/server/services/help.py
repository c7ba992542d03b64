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
currency. The game file's facts are its family's and rules package's (`reelforge.spec.facts`);
this module adds only those of the game as served (RTP, maximum win, top prize). A missing
file, a line that is none of the above, an unknown fact or drawn part is a `SpecError` naming
the file, the line and the value, at start-up (the server describes every game before its
first request).
"""

from __future__ import annotations

import importlib
import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from reelforge.errors import SpecError
from reelforge.spec.facts import Fact, Money, Percent, Times, game_file_facts, numeral

HELP_FILE = "help.md"
# What the page draws itself from the game description, at the player's bet and currency.
DRAWN = ("paytable", "paylines", "bets", "gamble-setting", "choice-timeout", "win-cap",
         "jackpot-meter", "jurisdiction")
SECTION = re.compile(r"\A## (?P<title>\S.*?) \{#(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)\}\Z")
TOKEN = re.compile(r"\*\*(?P<strong>[^*{}]+)\*\*|\{(?P<fact>[A-Za-z0-9_.]+)\}")
STRAY = re.compile(r"[{}]|\*\*")


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


def part(value: Any) -> str | dict:
    """A fact's part as the description carries it: words, money, a percentage, or the maximum
    win's multiple of the bet, which the client says as every screen does."""
    return (value if isinstance(value, str) else
            {"minor": value.minor} if isinstance(value, Money) else
            {"times": value.value} if isinstance(value, Times) else
            {"percent": value.value})


def fill(sections: tuple[dict, ...], facts: dict[str, Fact], path: Path) -> dict:
    """The pages as the description carries them: every text a list of parts (str,
    {"strong": str}, {"minor": int}, {"percent": float}, {"times": float})."""

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
            out.extend(part(v) for v in (value if isinstance(value, tuple) else (value,)))
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
UNPUBLISHED = "not published for this build"


def facts(game: Any, rtp: tuple = (), max_win: Any = None,
          top_award: dict | None = None) -> dict[str, Fact]:
    """Every fact a help file of `game` may name: its title, symbols and modes, the RTP of each
    mode, the maximum win and the odds of the paytable's top award (`catalog.top_award`), a
    sentence of its own; and the game file's numbers and names, which its family and rules
    package state (`spec.facts`: the server knows none of them)."""
    spec = game.spec
    out: dict[str, Fact] = {"title": game.title}
    out["top_award.odds"] = "The odds of the top award are not published for this build."
    if top_award is not None and "kind" in top_award:
        out["top_award.odds"] = top_prize_sentence(spec, top_award)
    elif top_award is not None:
        name = next(s.name for s in spec.symbols if s.id == top_award["symbol"])
        out["top_award.odds"] = (
            f"The top award of the paytable, {top_award['count']} {name} on a line "
            f"({numeral(top_award['pay_per_line'])} times the bet on that line), comes on "
            f"average once in {round(top_award['one_in']):,} plays at the maximum bet, free spins "
            "included.")
    out.update({f"symbol.{s.id}": s.name for s in spec.symbols})
    for mode in game.modes:
        out[f"mode.{mode.name}.price"] = numeral(mode.price)
        out[f"mode.{mode.name}.title"] = mode.title
        if mode.buy_spins:
            out[f"mode.{mode.name}.buy_spins"] = numeral(mode.buy_spins)
        # until a figure below says otherwise: a test or uncertified build publishes none
        out[f"rtp.{mode.name}"] = UNPUBLISHED
        out[f"rtp.{mode.name}.ci95"] = UNPUBLISHED
    for figure in rtp:
        out[f"rtp.{figure.mode}"] = Percent(float(figure.value))
        if figure.ci95:
            out[f"rtp.{figure.mode}.ci95"] = Percent(float(figure.ci95))
    if max_win is not None:
        out["max_win.x"] = Times(float(max_win.x))
        out["max_win.credits"] = numeral(max_win.credits)
        out["max_win.stake"] = numeral(max_win.bet.lines * max_win.bet.bet_per_line)
    out.update(game_file_facts(spec))  # its family's and rules package's
    return out


def _once_in(x: float) -> str:
    return f"once in {round(x):,} plays"


def top_prize_sentence(spec: Any, top: dict) -> Fact:
    """The top prize (`analysis.top_prize`: its kind says which prize it is) and how rarely
    it comes: exact, or estimated with its 95% interval and the simulation's size."""
    if top["kind"] == "award":
        name = next(s.name for s in spec.symbols if s.id == top["symbol"])
        return (f"The top award of the paytable, {top['count']} {name} on a way from the "
                f"leftmost reel ({numeral(Fraction(top['pay_coins'], top['pay_unit']))} times "
                f"the bet per way), comes on average {_once_in(top['one_in'])}, at every bet "
                "(calculated exactly from the reels).")
    if top["kind"] == "grand":
        return (f"The top prize, the grand prize of {numeral(top['grand_x'])} times the bet for "
                f"coins on every position during the respins, comes on average "
                f"{_once_in(top['one_in'])}, at every bet (calculated exactly from the reels and "
                "the respins' odds).")
    sample = (f"{top['base_spins']:,} simulated rounds" if not top["feature_rounds"] else
              f"{top['base_spins']:,} simulated base game spins and {top['feature_rounds']:,} "
              "simulated bonus features")
    prize = ("The top prize is the maximum win, ", Times(float(top["cap_x"])),
             " (a round that reaches it ends there).")
    if top["one_in"] is None:
        return (*prize, f" None of {sample} reached it: with 95% confidence "
                f"it comes less often than {_once_in(top['fewer_than_one_in'])}.")
    low, high = top["ci95"]
    bounds = (f"between {_once_in(1 / high)} and {_once_in(1 / low)}" if low > 0 else
              f"no more often than {_once_in(1 / high)}")
    return (*prize, f" It comes on average {_once_in(top['one_in'])} at the highest bet, an "
            f"estimate from {sample}; with 95% confidence, {bounds}.")
