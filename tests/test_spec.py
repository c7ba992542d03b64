"""Game files: the shipped cluedo-v1 loads as written; every bad file is one clear SpecError line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reelforge.errors import SpecError
from reelforge.games import shipped_games
from reelforge.spec import load_spec, parse_spec

CLUEDO_PATH = Path(__file__).resolve().parents[1] / "src" / "reelforge" / "games" / "cluedo" / "cluedo-v1.toml"
CLUEDO = CLUEDO_PATH.read_text(encoding="utf-8")
SOURCE = "bad-cluedo.toml"


def mutate(old: str, new: str, text: str = CLUEDO) -> str:
    """The valid cluedo text with exactly one targeted change."""
    assert text.count(old) >= 1, f"fixture text not found: {old!r}"
    return text.replace(old, new, 1)


# ---------------------------------------------------------------- the shipped game


@pytest.fixture(scope="module")
def cluedo():
    return load_spec(CLUEDO_PATH)


def test_shipped_file_is_the_one_the_registry_finds():
    assert shipped_games()["cluedo-v1"].resolve() == CLUEDO_PATH


def test_cluedo_loads_with_its_figures(cluedo):
    assert cluedo.id == "cluedo-v1"
    assert cluedo.name == "Cluedo MegaJackpots"
    assert cluedo.source == str(CLUEDO_PATH)
    assert (cluedo.reels, cluedo.rows) == (5, 3)
    assert len(cluedo.symbols) == 12
    roles = {s.id: s.role for s in cluedo.symbols}
    assert roles["MJ"] == "wild" and roles["BONUS"] == "scatter"
    assert sum(r == "regular" for r in roles.values()) == 10


def test_cluedo_paylines(cluedo):
    assert len(cluedo.paylines) == 20
    assert cluedo.paylines[0] == (1, 1, 1, 1, 1)  # line 1 is the centre row
    assert cluedo.paylines[1] == (0, 0, 0, 0, 0)
    assert cluedo.paylines[2] == (2, 2, 2, 2, 2)
    assert len(set(cluedo.paylines)) == 20
    assert all(len(line) == 5 and all(0 <= r < 3 for r in line) for line in cluedo.paylines)


def test_cluedo_bet(cluedo):
    assert cluedo.bet.max_lines == 20
    assert cluedo.bet.max_bet_per_line == 5
    assert cluedo.bet.denominations == (1, 2, 5, 10, 25, 50, 100)


def test_cluedo_paytable(cluedo):
    pays = dict(cluedo.paytable)
    assert pays["MJ"] == ((2, 10), (3, 250), (4, 2500), (5, 10000))
    assert pays["SCARLET"] == ((2, 2), (3, 40), (4, 200), (5, 1000))
    assert pays["WRENCH"] == ((3, 5), (4, 20), (5, 100))
    assert "BONUS" not in pays


def test_cluedo_wild(cluedo):
    (wild,) = cluedo.wilds
    assert wild.symbol == "MJ"
    assert wild.multiplier == 2
    regular = {s.id for s in cluedo.symbols if s.role == "regular"}
    assert wild.substitutes == frozenset(regular)  # everything except BONUS (and itself)
    assert "BONUS" not in wild.substitutes
    assert cluedo.wild_multiplier_combine == "max"
    assert cluedo.pure_wild_vs_substituted == "highest"


def test_cluedo_scatter(cluedo):
    (scatter,) = cluedo.scatters
    assert scatter.symbol == "BONUS"
    assert scatter.counting == "reels"
    assert scatter.pays == ((2, 1), (3, 3), (4, 20), (5, 100))


def test_cluedo_free_games(cluedo):
    fg = cluedo.free_games
    assert fg is not None
    assert fg.trigger == "BONUS"
    assert fg.award == ((3, 15), (4, 15), (5, 15))
    assert fg.retrigger_award == fg.award
    assert fg.retrigger == "capped"
    assert fg.max_total_spins == 180
    assert fg.multiplier == 3
    assert fg.reel_set == "golden"
    assert fg.exempt == (("MJ", 5),)


def test_cluedo_jackpot_gamble_and_reels(cluedo):
    jp = cluedo.jackpot
    assert (jp.symbol, jp.count, jp.line, jp.requires_max_bet) == ("MJ", 5, 1, True)
    assert (jp.seed_amount, jp.contribution_bp) == (100_000_000, 150)
    g = cluedo.gamble
    assert (g.kind, g.limit_credits, g.max_wins, g.history_length, g.take_half) == (
        "red_black", 3000, 5, 14, True)
    assert [r.name for r in cluedo.reel_sets] == ["base", "golden"]
    assert cluedo.base_reel_set == "base"
    for reel_set in cluedo.reel_sets:
        assert len(reel_set.strips) == 5 and reel_set.weights is None
        assert all(set(strip) <= set(cluedo.symbol_ids) for strip in reel_set.strips)


def test_parse_spec_equals_load_spec(cluedo):
    assert parse_spec(CLUEDO, str(CLUEDO_PATH)) == cluedo


# ---------------------------------------------------------------- bad files

WEIGHTS_WRONG_LENGTH = "\nweights = [[1, 2, 3], [1], [1], [1], [1]]\n"

BAD_FILES = [
    # id, old, new, dotted key, bad value as it must appear
    ("unknown-symbol-on-strip", '"CANDLESTICK ROPE ROPE WRENCH', '"CANDLESTICK ZORRO ROPE WRENCH',
     "reels.base.strips[1]", "ZORRO"),
    ("payline-row-out-of-range", "[1, 1, 1, 1, 1], [0, 0, 0, 0, 0]", "[1, 1, 1, 1, 3], [0, 0, 0, 0, 0]",
     "lines.paylines[1]", "[1, 1, 1, 1, 3]"),
    ("payline-wrong-length", "[0, 1, 2, 1, 0], [2, 1, 0, 1, 2]", "[0, 1, 2, 1], [2, 1, 0, 1, 2]",
     "lines.paylines[4]", "[0, 1, 2, 1]"),
    ("negative-pay", "PLUM = { 3 = 25,", "PLUM = { 3 = -25,", "paytable.PLUM.3", "-25"),
    ("unknown-feature", "[features.gamble]", "[features.gambel]", "features.gambel", "red_black"),
    ("unknown-section", "[bet]\n", "[bets]\nmax_lines = 20\n\n[bet]\n", "bets", "max_lines"),
    ("unknown-key-in-table", "max_bet_per_line = 5", "max_bet_per_line = 5\nmin_bet = 7",
     "bet.min_bet", "7"),
    ("string-for-int", "reels = 5", 'reels = "five"', "game.reels", "five"),
    ("wild-not-a-wild", "[lines.wild.MJ]", "[lines.wild.SCARLET]", "lines.wild.SCARLET", "SCARLET"),
    ("scatter-trigger-without-scatter",
     '[scatter.BONUS]\ncounting = "reels"\npays = { 2 = 1, 3 = 3, 4 = 20, 5 = 100 }\n', "",
     "features.free_games.trigger", "BONUS"),
    ("unknown-reel-set", 'reel_set = "golden"', 'reel_set = "platinum"',
     "features.free_games.reel_set", "platinum"),
    ("game-id-without-version", 'id = "cluedo-v1"', 'id = "cluedo"', "game.id", "cluedo"),
    ("missing-required-key", "max_bet_per_line = 5\n", "", "bet.max_bet_per_line", "None"),
    ("weights-wrong-length", "# --- reels: written by tools/design_cluedo.py ---\n[reels.base]\nstrips = [",
     "[reels.base]" + WEIGHTS_WRONG_LENGTH + "strips = [", "reels.base.weights[1]", "[1, 2, 3]"),
]


def _one_line(message: str) -> None:
    assert message and "\n" not in message and "\r" not in message, repr(message)


@pytest.mark.parametrize(("old", "new", "key", "value"),
                         [case[1:] for case in BAD_FILES], ids=[case[0] for case in BAD_FILES])
def test_bad_file_is_one_clear_spec_error(old, new, key, value):
    text = mutate(old, new)
    with pytest.raises(SpecError) as info:
        parse_spec(text, SOURCE)
    message = str(info.value)
    _one_line(message)
    assert message.startswith(f"{SOURCE}: ")
    assert key in message
    assert value in message
    assert info.value.source == SOURCE
    assert info.value.key == key


def test_invalid_toml_is_one_line_naming_the_file_and_the_bad_text():
    text = mutate("max_lines = 20", "max_lines = = 20")
    with pytest.raises(SpecError) as info:
        parse_spec(text, SOURCE)
    message = str(info.value)
    _one_line(message)
    assert message.startswith(f"{SOURCE}: ")
    assert "not valid TOML" in message
    lineno = text.splitlines().index("max_lines = = 20") + 1
    assert f"line {lineno}" in message  # where it is
    # what it is: the offending text, not some other line of the file
    assert "max_lines = = 20" in message, message


# Files with a wrong type nested where the loader reads symbols or counts: still one SpecError
# line naming file, table and value, never a bare ValueError/TypeError.
GOLDEN_FIRST_STRIP = CLUEDO.split("[reels.golden]\nstrips = [\n")[1].split("\n")[0]
MORE_BAD_FILES = [
    ("exempt-count-not-int", 'exempt = [{ symbol = "MJ", count = 5 }]',
     'exempt = [{ symbol = "MJ", count = "five" }]', "features.free_games.exempt[1]", "five"),
    ("exempt-count-negative", 'exempt = [{ symbol = "MJ", count = 5 }]',
     'exempt = [{ symbol = "MJ", count = -3 }]', "features.free_games.exempt[1]", "-3"),
    ("exempt-symbol-list", 'exempt = [{ symbol = "MJ", count = 5 }]',
     'exempt = [{ symbol = ["MJ"], count = 5 }]', "features.free_games.exempt[1]", "['MJ']"),
    ("wild-except-nested-list", 'except = ["BONUS"]', 'except = [["BONUS"]]',
     "lines.wild.MJ.except", "['BONUS']"),
    ("wild-substitutes-nested-list", 'substitutes = "all"', 'substitutes = [["SCARLET"]]',
     "lines.wild.MJ.substitutes", "['SCARLET']"),
    ("strip-cell-is-a-list", GOLDEN_FIRST_STRIP, '  ["MJ", ["ROPE"]],',
     "reels.golden.strips[1]", "['ROPE']"),
    ("pay-count-not-ascii-digit", "MJ = { 2 = 10,", 'MJ = { "\u00b2" = 10,', "paytable.MJ", "\u00b2"),
]


@pytest.mark.parametrize(("old", "new", "key", "value"),
                         [case[1:] for case in MORE_BAD_FILES], ids=[case[0] for case in MORE_BAD_FILES])
def test_wrongly_typed_nested_value_is_a_spec_error_not_a_crash(old, new, key, value):
    text = mutate(old, new)
    try:
        parse_spec(text, SOURCE)
    except SpecError as exc:
        message = str(exc)
    except Exception as exc:  # noqa: BLE001 - the point: nothing else may escape
        pytest.fail(f"{type(exc).__name__} instead of SpecError: {exc}")
    else:
        pytest.fail("accepted a bad file")
    _one_line(message)
    assert message.startswith(f"{SOURCE}: ")
    assert key in message
    assert value in message


def test_unreadable_file_is_one_line(tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(SpecError) as info:
        load_spec(missing)
    _one_line(str(info.value))
    assert str(missing) in str(info.value)


def test_load_spec_names_the_path(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(mutate("PLUM = { 3 = 25,", "PLUM = { 3 = -25,"), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(bad)
    _one_line(str(info.value))
    assert str(info.value).startswith(f"{bad}: paytable.PLUM.3 = -25: ")


# ---------------------------------------------------------------- property: any negative pay

_PAYTABLE = tomllib.loads(CLUEDO)["paytable"]
PAY_ENTRIES = [(sym, count) for sym, pays in _PAYTABLE.items() for count in pays]
_SECTION = re.search(r"^\[paytable\]\n(.*?)\n\n", CLUEDO, re.DOTALL | re.MULTILINE)


def with_pay(symbol: str, count: str, value: int) -> str:
    start, end = _SECTION.span(1)
    section = _SECTION.group(1)
    line_re = re.compile(rf"^({re.escape(symbol)} = \{{.*?\b{count} = )(\d+)", re.MULTILINE)
    new_section, n = line_re.subn(lambda m: f"{m.group(1)}{value}", section, count=1)
    assert n == 1, (symbol, count)
    return CLUEDO[:start] + new_section + CLUEDO[end:]


def test_with_pay_changes_only_that_value():
    text = with_pay("GREEN", "4", 7)
    data = tomllib.loads(text)
    assert data["paytable"]["GREEN"]["4"] == 7
    data["paytable"]["GREEN"]["4"] = 100
    assert data == tomllib.loads(CLUEDO)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entry=st.sampled_from(PAY_ENTRIES), value=st.integers(max_value=-1, min_value=-(2**63)))
def test_any_negative_pay_is_refused_naming_its_key(entry, value):
    symbol, count = entry
    with pytest.raises(SpecError) as info:
        parse_spec(with_pay(symbol, count, value), SOURCE)
    message = str(info.value)
    _one_line(message)
    assert info.value.key == f"paytable.{symbol}.{count}"
    assert info.value.value == value
    assert f"paytable.{symbol}.{count} = {value}" in message


CELLS_GAME = """
[game]
id = "cells-v1"
name = "Cells"
reels = 3
rows = 1

[symbols]
A = { role = "regular" }
W = { role = "wild" }
S = { role = "scatter" }

[paytable]
A = { 3 = 5 }
W = { 3 = 50 }

[lines]
paylines = [[0, 0, 0]]

[scatter.S]
counting = "cells"

[reels.base]
strips = ["A S W", "A S W", "A S W"]

[bet]
max_bet_per_line = 1

[features.free_games]
trigger = "S"
award = { AWARD = 3 }
"""


def test_award_count_above_the_cells_in_view_is_refused():
    from reelforge.errors import SpecError
    from reelforge.spec import parse_spec

    assert parse_spec(CELLS_GAME.replace("AWARD", "3"), "cells.toml").free_games.award == ((3, 3),)
    with pytest.raises(SpecError) as info:
        parse_spec(CELLS_GAME.replace("AWARD", "4"), "cells.toml")
    assert "features.free_games.award.4" in str(info.value)


def test_a_wild_without_a_wild_table_substitutes_for_all_at_multiplier_one():
    from reelforge.spec import parse_spec

    spec = parse_spec(CELLS_GAME.replace("AWARD", "3"), "cells.toml")
    (wild,) = spec.wilds
    assert wild.symbol == "W" and wild.multiplier == 1 and wild.substitutes == {"A"}
