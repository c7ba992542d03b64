"""The information pages (server/services/help.py): every game's help file is found, read and
filled with the game's own numbers; a missing or malformed file, or a fact the game does not
have, is one clear error naming the file, at start-up; and the pages name every section of the
game's rule sheet."""

from __future__ import annotations

import importlib
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from reelforge.engine.protocol import MaxWin, RtpFigure
from reelforge.errors import SpecError
from reelforge.games import make, shipped_games
from reelforge.server.services import help as pages

ROOT = Path(__file__).resolve().parents[1]
SEED_COPY = ROOT / "web" / "tests" / "e2e" / "seed-sections.json"
SEEDS = Path(os.environ.get("REELFORGE_SEEDS") or ROOT.parent / "shared" / "seeds")
E2E_GAMES = sorted((ROOT / "web" / "tests" / "e2e" / "games").glob("*.toml"))
# A game of its own title, with no help file beside it (docs/game-format.md's minimal example).
TINY = """
[game]
id = "tiny-lines-v1"
name = "Tiny Lines"
reels = 3
rows = 3
[symbols]
A = { role = "regular" }
W = { role = "wild" }
[paytable]
A = { 3 = 12 }
W = { 3 = 25 }
[lines]
paylines = [[1, 1, 1]]
[reels.base]
strips = ["A W A A", "A A W A", "W A A A"]
[bet]
max_bet_per_line = 5
"""


def figures(game) -> tuple[tuple, MaxWin]:
    """Stand-in RTP figures and maximum win (their real values cost seconds to compute and are
    the catalog's; these tests are about the words and the game file's facts)."""
    rtp = tuple(RtpFigure(m.name, 0.9, "estimate", 0.001, "test") for m in game.modes)
    return rtp, MaxWin(game.max_bet, 12_345, Fraction(123), "exact")


def text_of(filled: dict) -> str:
    """All the words of the filled pages, facts formatted as the test reads them."""
    def run(parts: list) -> str:
        return "".join(p if isinstance(p, str) else p.get("strong") or
                       (f"<{p['minor']} minor>" if "minor" in p else
                        f"<{p['times']} x>" if "times" in p else f"<{p['percent']} %>")
                       for p in parts)

    out = []
    for s in filled["sections"]:
        out.append(s["title"])
        for b in s["blocks"]:
            if b["kind"] in ("p", "h3"):
                out.append(run(b["parts"]))
            elif b["kind"] == "ul":
                out.extend(run(i) for i in b["items"])
    return "\n".join(out)


def seed_sections(text: str) -> list[str]:
    """A rule sheet's section headings: its short lines (five words at most) that are neither
    a list item nor a sentence."""
    found = []
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith(("•", "-", "*")) and s[-1] not in ".!?:)" and len(s.split()) <= 5:
            found.append(s)
    return found


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_every_shipped_game_has_its_pages_filled(game_id):
    game = make(game_id)
    filled = pages.help_pages(game, *figures(game))
    assert filled["sections"], game_id
    words = text_of(filled)
    assert "{" not in words and "}" not in words and "**" not in words
    drawn = [b["kind"] for s in filled["sections"] for b in s["blocks"]]
    assert "paytable" in drawn  # every game shows its pays
    assert ("paylines" in drawn) == (game.family == "lines")  # and its lines, where it has them


def test_variants_and_test_copies_use_their_familys_words():
    games = shipped_games()
    folder = {gid: path.parent / pages.HELP_FILE for gid, path in games.items()}
    for gid, path in games.items():
        assert pages.help_file(make(gid).spec) == folder[gid]  # beside the file: every variant
    # one file per game (its folder), whatever its variants
    # cluedo, cops, candy and the ways, anywhere, hold-and-win, cluster-multiplier,
    # wild-multiplier, modes, sticky-wild and sticky-redraw examples
    assert len(set(folder.values())) == len({path.parent for path in games.values()}) == 11
    for path in E2E_GAMES:  # the tests' copies ("cluedo-e2e-fs-v1" of "cluedo-v1"), elsewhere
        spec = make(str(path)).spec
        shipped = spec.id.split("-e2e-")[0] + "-v1"
        assert pages.help_file(spec) == folder[shipped], path.name


def test_the_facts_are_the_game_files_numbers():
    cluedo = make("cluedo-v1")
    spec = cluedo.spec
    facts = pages.facts(cluedo, *figures(cluedo))
    assert facts["gamble.limit"] == f"{spec.gamble.limit_credits:,}"
    assert facts["lines"] == str(len(spec.paylines))
    assert facts["max_bet"] == str(spec.bet.max_lines * spec.bet.max_bet_per_line)
    assert facts["free_games.spins"] == str(spec.free_games.award[0][1])
    assert facts["jackpot.seed"] == pages.Money(spec.jackpot.seed_amount)
    assert facts["jackpot.contribution"] == pages.Percent(spec.jackpot.contribution_bp / 10_000)
    filled = text_of(pages.help_pages(cluedo, *figures(cluedo)))
    assert f"less than {spec.gamble.limit_credits:,} credits" in filled
    assert f"after {spec.gamble.max_wins} wins in a row" in filled

    cops = make("cops-n-robbers-v1")
    facts = pages.facts(cops, *figures(cops))
    lines = cops.spec.bet.max_lines
    for count, pay in cops.spec.mixed[0].pays:  # mixed pays in line bets -> stakes
        assert facts[f"mixed.PRESENTS.{count}.stakes"] == str(pay // lines)
    assert facts["mode.fortune.price"] == str(cops.spec.mode("fortune").price)
    trail = cops.spec.features
    assert facts["trail.multipliers"].split(", ")[0] == f"{trail.multipliers[0][1]}x"

    candy = make("candy-jar-clusters-v1")
    facts = pages.facts(candy, *figures(candy))
    f = candy.spec.features
    assert facts["free_spins.with_extra.max"] == str(f.free_spins + max(f.extra_start.values))
    for jp in f.jackpots:
        assert facts[f"jackpot.{jp.name}.x"] == f"{jp.pays_x:,}"


def test_every_family_states_its_own_facts_and_the_server_asks_the_registry(monkeypatch):
    """The game file's facts come from its family's module (spec.facts), not from the server:
    every family has one, and a family the registry does not know has no pages."""
    from reelforge.engine.families import FAMILIES
    from reelforge.spec import facts as registry

    assert set(registry.FAMILY_FACTS) == set(FAMILIES)
    for ref in registry.FAMILY_FACTS.values():
        module, name = ref.split(":")
        assert callable(getattr(importlib.import_module(module), name)), ref
    ways = make("ways-example-v1")
    assert pages.facts(ways)["ways"] == f"{ways.spec.rows ** ways.spec.reels:,}"
    monkeypatch.delitem(registry.FAMILY_FACTS, "ways")
    with pytest.raises(ValueError, match="no help facts for game files of family 'ways'"):
        pages.facts(ways)


def test_the_pages_carry_money_and_percentages_for_the_client_to_format():
    game = make("cluedo-v1")
    filled = pages.help_pages(game, *figures(game))
    parts = [p for s in filled["sections"] for b in s["blocks"]
             for p in (b.get("parts") or [q for item in b.get("items", []) for q in item])]
    assert {"minor": game.spec.jackpot.seed_amount} in parts
    assert {"percent": 0.9} in parts  # the RTP of its one mode
    # the maximum win as a multiple the client says as every screen does ("123× the bet"), never
    # a numeral of the server's: a new player read "240,118.40 times" here, "240,118×" elsewhere
    assert {"times": 123.0} in parts
    drawn = {b["kind"] for s in filled["sections"] for b in s["blocks"]}
    assert {"paytable", "paylines", "jackpot-meter"} <= drawn


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / pages.HELP_FILE
    path.write_text(text, encoding="utf-8")
    pages.read_help.cache_clear()
    return path


@pytest.mark.parametrize(("text", "says"), [
    ("Words before any section.\n\n## A {#a}\n\nText.\n", "line 1"),
    ("## A {#a}\n\nText.\n\n## B\n\nText.\n", "line 5"),
    ("## A {#a}\n\nText.\n\n## B {#a}\n\nText.\n", "given twice"),
    ("## A {#a}\n\n## B {#b}\n\nText.\n", "section 'a' before it is empty"),
    ("## A {#a}\n\n{{pay-table}}\n", "a drawn part is one of"),
    ("## A {#a}\n\nText.\n<!-- never closed\n", "never closed"),
    ("# Title\n\n## A {#a}\n\nText.\n", "line 1"),
    ("<!-- only a comment -->\n", "no section"),
    ("## A {#a}\n\nText.\n\n## B {#b}\n", "the last section is empty"),
])
def test_a_malformed_help_file_is_one_error_naming_it(tmp_path, text, says):
    path = write(tmp_path, text)
    with pytest.raises(SpecError) as err:
        pages.read_help(path)
    assert str(path) in str(err.value) and says in str(err.value)


@pytest.mark.parametrize(("text", "says"), [
    ("## A {#a}\n\nThe {no_such_fact} pays.\n", "{no_such_fact}"),
    ("## A {#a}\n\n- An item with { a stray brace.\n", "unmatched"),
    ("## A {#a}\n\nBold **never closed.\n", "unmatched"),
])
def test_a_fact_the_game_does_not_have_is_one_error_naming_the_file(tmp_path, text, says):
    path = write(tmp_path, text)
    game = make("cluedo-v1")
    with pytest.raises(SpecError) as err:
        pages.fill(pages.read_help(path), pages.facts(game, *figures(game)), path)
    assert str(path) in str(err.value) and says in str(err.value) and "section a" in str(err.value)


def test_the_format_reads_lists_subheadings_and_bold(tmp_path):
    path = write(tmp_path, "<!--\nnotes\n-->\n## A title {#a-b}\n\nOne line\nand the next with "
                 "**BOLD** and {lines}.\n\n- item one\n  continued\n- item two\n\n### Sub\n\n"
                 "{{paylines}}\n")
    game = make("cluedo-v1")
    filled = pages.fill(pages.read_help(path), pages.facts(game, *figures(game)), path)
    assert filled == {"sections": [{"id": "a-b", "title": "A title", "blocks": [
        {"kind": "p", "parts": ["One line and the next with ", {"strong": "BOLD"},
                                f" and {len(game.spec.paylines)}."]},
        {"kind": "ul", "items": [["item one continued"], ["item two"]]},
        {"kind": "h3", "parts": ["Sub"]}, {"kind": "paylines"}]}]}


def test_a_game_without_words_stops_the_server_at_start_up(tmp_path):
    game_file = tmp_path / "tiny-lines-v1.toml"
    game_file.write_text(TINY, encoding="utf-8")
    key = tmp_path / "op.key"
    key.write_text("k" * 32, encoding="utf-8")
    config = tmp_path / "operators.toml"
    config.write_text(f'[[operators]]\nid = "op"\ncurrency = "EUR"\nsecret_file = "{key}"\n'
                      f'[[operators.games]]\nkey = "hang"\ngame_file = "{game_file}"\n',
                      encoding="utf-8")
    from reelforge.server.main import _warm_up
    from reelforge.server.settings import load_settings

    with pytest.raises(SpecError) as err:
        _warm_up(load_settings(config, tmp_path))
    message = str(err.value)
    assert str(game_file) in message and "information pages" in message and "help.md" in message


def test_every_section_of_the_rule_sheet_is_a_section_of_the_pages():
    copy = json.loads(SEED_COPY.read_text(encoding="utf-8"))["games"]
    games_dir = ROOT / "src" / "reelforge" / "games"
    for entry in copy:
        rules = (games_dir / entry["folder"] / "RULES.md").read_text(encoding="utf-8")
        assert f"shared/seeds/{entry['seed']}" in rules  # the sheet the game was built from
        sections = pages.read_help(games_dir / entry["folder"] / pages.HELP_FILE)
        titles = {s["title"].casefold() for s in sections} | {
            b["text"].casefold() for s in sections for b in s["blocks"] if b["kind"] == "h3"}
        missing = [t for t in entry["sections"] if t.casefold() not in titles]
        assert not missing, f"{entry['folder']}/help.md lacks the sheet's sections {missing}"


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"{SEEDS} is absent (a clean clone): the "
                    "committed copy of the sheets' sections is checked above")
def test_the_copy_of_the_sheets_sections_is_the_sheets():
    copy = json.loads(SEED_COPY.read_text(encoding="utf-8"))["games"]
    for entry in copy:
        text = (SEEDS / entry["seed"]).read_text(encoding="utf-8")
        assert seed_sections(text) == entry["sections"], entry["seed"]
    named = {e["seed"] for e in copy}
    assert named == {p.name for p in SEEDS.glob("*.txt")}, "a sheet without its game's pages"


def test_a_build_without_a_published_rtp_says_so():
    """A test or uncertified build of a family (no RTP figure) still serves its family's pages:
    the RTP reads as not published, never a number nobody computed."""
    from reelforge.server.services.catalog import game_help
    from reelforge.server.services.help import UNPUBLISHED

    game = make(str(ROOT / "web/tests/e2e/games/candy-jar-clusters-e2e-fs-v1.toml"))
    assert game.rtp() == ()
    text = json.dumps(game_help(game))
    assert UNPUBLISHED in text
