"""The loader refuses what cannot be played (issue 11): integers past 64-bit room, ids that
could be paths, nonsense grids and strips, features that never end. Every refusal is one
short line naming the file, the key and the bad value."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from reelforge.errors import SpecError
from reelforge.games import make, shipped_games
from reelforge.spec import GAME_ID_PATTERN, load_spec, parse_spec, valid_game_id, valid_name
from reelforge.spec.limits import (
    LINE_SPIN_GUARD,
    TUMBLE_GUARD,
    WIN_LIMIT,
    cluster_round_bound,
    line_round_bound,
)

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "src" / "reelforge" / "games"
CLUEDO = (GAMES / "cluedo" / "cluedo-v1.toml").read_text(encoding="utf-8")
COPS = (GAMES / "cops_n_robbers" / "cops-n-robbers-v1.toml").read_text(encoding="utf-8")
CANDY = (GAMES / "candy_jar_clusters" / "candy-jar-clusters-v1.toml").read_text(encoding="utf-8")
CONFORMANCE = sorted((ROOT / "conformance").glob("*/*.toml"))


def mutate(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, f"fixture text not found: {old!r}"
    return text.replace(old, new, 1)


def refused(tmp_path: Path, text: str) -> SpecError:
    """Write `text` as a game file, load it, return the SpecError after checking it is one
    short line that starts with the file's path."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message, message
    assert len(message) < 600, len(message)
    assert message.startswith(f"{path}: "), message
    return info.value


def names(error: SpecError, key: str, value: str) -> None:
    message = str(error)
    assert error.key == key, message
    assert f"{key} = {value}" in message, message


# ---------------------------------------------------------------- 1. integer bounds


@pytest.mark.parametrize("pay", [2**63 - 1, 10**29, 2**62])
def test_a_pay_past_64_bit_room_is_refused_at_load(tmp_path, pay):
    error = refused(tmp_path, mutate(CLUEDO, "MJ = { 2 = 10, 3 = 250, 4 = 2500, 5 = 10000 }",
                                     f"MJ = {{ 2 = 10, 3 = 250, 4 = 2500, 5 = {pay} }}"))
    names(error, "paytable.MJ.5", str(pay))
    assert "2**62" in str(error)


def test_the_largest_integer_allowed_anywhere_is_just_below_2_62(tmp_path):
    # an unknown key is refused either way; the range check speaks first, by its own key
    error = refused(tmp_path, mutate(CLUEDO, "[bet]\n", f"[bet]\nnonsense = {2**62}\n"))
    names(error, "bet.nonsense", str(2**62))
    error = refused(tmp_path, mutate(CLUEDO, "[bet]\n", f"[bet]\nnonsense = {2**62 - 1}\n"))
    assert "unknown key" in str(error)


def test_an_integer_inside_a_list_is_checked_with_its_place(tmp_path):
    error = refused(tmp_path, mutate(COPS, "weights = [\n  [101089, 101089, 101089,",
                                     f"weights = [\n  [101089, 101089, {10**20},"))
    names(error, "reels.fortune.weights[1][3]", str(10**20))


@pytest.mark.parametrize(("old", "new", "key", "value"), [
    ("max_win_x = 10000", f"max_win_x = {10**29}", "bet.max_win_x", str(10**29)),
    ("values = [1, 2, 3, 4, 5, 10, 25, 50, 100]\nweights = [8549002",
     f"values = [1, 2, 3, 4, 5, 10, 25, 50, {10**23}]\nweights = [8549002",
     "random_multiplier.base.values[9]", str(10**23)),
    ('GOLDEN_WILD_5 = { role = "wild", name = "Golden Wild x5", multiplier = 5 }',
     f'GOLDEN_WILD_5 = {{ role = "wild", name = "Golden Wild x5", multiplier = {10**23} }}',
     "symbols.GOLDEN_WILD_5.multiplier", str(10**23)),
])
def test_candy_integers_past_64_bit_room_are_refused(tmp_path, old, new, key, value):
    names(refused(tmp_path, mutate(CANDY, old, new)), key, value)


# Each value below is itself < 2**62 but makes the round's bound pass it: the bound names it.
LINE_BOUND_CASES = [
    ("MJ = { 2 = 10, 3 = 250, 4 = 2500, 5 = 10000 }",
     f"MJ = {{ 2 = 10, 3 = 250, 4 = 2500, 5 = {2**55} }}", "paytable.MJ.5", 2**55),
    ("max_bet_per_line = 5", f"max_bet_per_line = {2**50}", "bet.max_bet_per_line", 2**50),
    ("multiplier = 2\n", f"multiplier = {2**50}\n", "lines.wild.MJ.multiplier", 2**50),
    ("seed_amount = 100000000", f"seed_amount = {2**61}", "features.progressive_jackpot.seed_amount",
     2**61),
    ("pays = { 2 = 1, 3 = 3, 4 = 20, 5 = 100 }", f"pays = {{ 2 = 1, 3 = 3, 4 = 20, 5 = {2**58} }}",
     "scatter.BONUS.pays.5", 2**58),
]


@pytest.mark.parametrize(("old", "new", "key", "value"), LINE_BOUND_CASES,
                         ids=[c[2] for c in LINE_BOUND_CASES])
def test_a_line_game_whose_round_could_pass_2_62_is_refused_naming_the_key(tmp_path, old, new, key,
                                                                            value):
    error = refused(tmp_path, mutate(CLUEDO, old, new))
    names(error, key, str(value))
    assert "beyond 2**62" in str(error)


def test_a_denomination_that_makes_the_win_in_currency_too_large_is_refused(tmp_path):
    # cluedo's bound is about 1.9e10 credits: a denomination of 2**40 minor units per credit
    # takes it past 2**62 currency units, 2**20 does not
    assert line_round_bound(parse_spec(CLUEDO, "c.toml")).value * 2**20 < WIN_LIMIT
    error = refused(tmp_path, mutate(CLUEDO, "denominations = [1, 2,", f"denominations = [{2**40}, 2,"))
    names(error, "bet.denominations", f"[{2**40}, 2, 5,")
    load_spec_text(tmp_path, mutate(CLUEDO, "denominations = [1, 2,", f"denominations = [{2**20}, 2,"))


def test_cops_trail_values_past_the_bound_are_refused(tmp_path):
    # uncapped (no max_win_minor), the chase may last LINE_SPIN_GUARD spins
    text = mutate(COPS, "max_win_minor = 25000000  # 250,000.00 in pence\n", "")
    assert load_spec_text(tmp_path, text).bet.max_win_minor == 0
    error = refused(tmp_path, mutate(text, "multipliers = { 6 = 2, 9 = 3,",
                                     f"multipliers = {{ 6 = {2**40}, 9 = {2**40},"))
    names(error, "features.trail_bonus.multipliers.6", str(2**40))


def load_spec_text(tmp_path: Path, text: str):
    path = tmp_path / "good.toml"
    path.write_text(text, encoding="utf-8")
    return load_spec(path)


@pytest.mark.parametrize(("old", "new", "key", "value"), [
    ("max_win_x = 10000", f"max_win_x = {2**58}", "bet.max_win_x", 2**58),
    ("GRAND = { collect = 5, pays_x = 2000,", f"GRAND = {{ collect = 5, pays_x = {2**50},",
     "features.jackpots.GRAND.pays_x", 2**50),
    ("30 = 17500, 35 = 35000 }", f"30 = 17500, 35 = {2**40} }}", "clusters.pays.CUPCAKE.35", 2**40),
])
def test_a_candy_round_that_could_pass_2_62_is_refused_naming_the_key(tmp_path, old, new, key, value):
    names(refused(tmp_path, mutate(CANDY, old, new)), key, str(value))


def test_composed_candy_weights_must_stay_below_2_32(tmp_path):
    # a Free Spins column is the free set's weights plus the EXTRA and jackpot weights
    text = mutate(CANDY, "MINI = { collect = 2, pays_x = 10, weights = [8,",
                  f"MINI = {{ collect = 2, pays_x = 10, weights = [{2**32},")
    error = refused(tmp_path, text)
    assert error.key == "reels.free.weights" and "column 1" in str(error)


TINY = """
[game]
id = "tiny-v1"
name = "Tiny"
reels = 5
rows = 1

[symbols]
A = { role = "regular" }
W = { role = "wild" }

[paytable]
A = { 5 = 5 }

[lines]
paylines = [[0, 0, 0, 0, 0]]
wild_multiplier_combine = "product"

[lines.wild.W]
multiplier = 3

[reels.base]
strips = ["A", "W", "W", "W", "W"]

[bet]
max_bet_per_line = 2
"""


def test_the_bound_is_reached_by_a_game_that_always_pays_its_top_win():
    # every spin shows A W W W W: A's 5-pay times the four wilds' product, 5 * 3**4, per credit
    spec = parse_spec(TINY, "tiny.toml")
    assert line_round_bound(spec).value == 5 * 3**4 * 2
    import numpy as np

    from reelforge.engine.families import compile_game
    from reelforge.engine.round import play_round

    game = compile_game(spec)
    outcome = play_round(game, game.max_bet, np.random.Generator(np.random.PCG64(1)))
    assert outcome.total_win == 5 * 3**4 * 2


ENDLESS_TUMBLES = """
[game]
id = "one-cell-v1"
name = "One cell"
family = "clusters"
rows = 1
cols = 1

[symbols]
A = { role = "regular" }

[clusters]
min_size = 1

[clusters.pays]
A = { 1 = 3 }

[bet]
coins = 1
max_coin_value = 2

[reels.base.weights]
A = [1]

[random_multiplier.base]
values = [1, 7]
weights = [0, 1]
"""


def test_the_cluster_bound_is_reached_by_a_spin_that_tumbles_to_the_guard():
    # one cell, always A, a cluster of 1 pays 3: every refill wins again, so the spin pays
    # TUMBLE_GUARD + 1 grids, times the multiplier 7 (always drawn), at a coin value of 2
    spec = parse_spec(ENDLESS_TUMBLES, "one.toml")
    expected = (1_000 + 1) * 3 * 7 * 2
    assert cluster_round_bound(spec).value == expected
    import numpy as np

    from reelforge.engine.families import compile_game
    from reelforge.engine.round import play_round

    game = compile_game(spec)
    outcome = play_round(game, game.max_bet, np.random.Generator(np.random.PCG64(1)))
    assert outcome.total_win == expected


def test_the_engine_guards_the_bound_assumes_are_the_engine_s():
    from reelforge.engine import clusters, model

    assert LINE_SPIN_GUARD == model.SPIN_GUARD
    assert TUMBLE_GUARD == clusters.TUMBLE_GUARD


def test_every_shipped_and_conformance_game_loads_within_the_bound():
    paths = list(shipped_games().values()) + CONFORMANCE
    assert len(CONFORMANCE) == 38
    for path in paths:
        spec = load_spec(path)
        if spec.family == "lines":
            assert line_round_bound(spec).value <= WIN_LIMIT


# ---------------------------------------------------------------- 2. game ids

BAD_IDS = ["../../etc/passwd-v1", "Cluedo-v1", "cluedo v1", "cluedo.v1", "cluedo", "cluedo-v",
           "cluedo-v1\n", "-cluedo-v1", "cluedo--v1", "cluedo-v1/x-v1", "", "clu\u00e9do-v1",
           "a" * 98 + "-v1", "cluedo-v\u0661", "cluedo_94-v1"]


@pytest.mark.parametrize("bad", BAD_IDS, ids=range(len(BAD_IDS)))
def test_an_id_outside_the_one_pattern_is_refused(tmp_path, bad):
    assert not valid_game_id(bad)
    toml_id = bad.replace("\\", "\\\\").replace("\n", "\\n")
    error = refused(tmp_path, mutate(CLUEDO, 'id = "cluedo-v1"', f'id = "{toml_id}"'))
    assert error.key == "game.id" and error.value == bad


def test_a_cluster_game_id_follows_the_same_pattern(tmp_path):
    error = refused(tmp_path, mutate(CANDY, 'id = "candy-jar-clusters-v1"', 'id = "../candy-v1"'))
    names(error, "game.id", "'../candy-v1'")


def test_every_shipped_and_conformance_id_is_valid():
    ids = list(shipped_games()) + [load_spec(p).id for p in CONFORMANCE]
    # the 10th to 17th: ways-, anywhere-, holdwin-, cluster-mult-, wildmult-, modes-,
    # sticky- and sticky-redraw-example-v1
    assert len(ids) == len(set(ids)) == 17 + 38
    assert all(valid_game_id(i) for i in ids)
    assert valid_game_id("a" * 97 + "-v1") and not valid_game_id(None)
    assert GAME_ID_PATTERN.fullmatch("cleopatra-rtp95p007187-v1")
    assert not GAME_ID_PATTERN.fullmatch("cleopatra-rtp95_007187-v1")  # hyphens only
    assert not GAME_ID_PATTERN.match("cluedo-v1\n") and not GAME_ID_PATTERN.search("x/cluedo-v1")


BAD_NAMES = ["../../x", "Fortune", "free games", "a/b", "x.y", "", "-x", "x-", "a--b", "fr\u00e9e",
             "a" * 41, "x\n"]


@pytest.mark.parametrize("bad", BAD_NAMES, ids=range(len(BAD_NAMES)))
def test_a_mode_name_outside_the_name_pattern_is_refused(tmp_path, bad):
    """A mode name becomes part of a PAR sheet's file name (`<id>-<mode>-par.html`)."""
    assert not valid_name(bad)
    key = bad.replace("\n", "\\n")
    error = refused(tmp_path, mutate(COPS, "[modes.fortune]", f'[modes."{key}"]'))
    assert error.key == f"modes.{bad}" and error.value == bad
    assert "a mode name is lowercase letters, digits and hyphens" in str(error)


@pytest.mark.parametrize("bad", ["../golden", "Golden", "gold en"])
def test_a_reel_set_name_outside_the_name_pattern_is_refused(tmp_path, bad):
    error = refused(tmp_path, mutate(CLUEDO, "[reels.golden]", f'[reels."{bad}"]'))
    assert error.key == f"reels.{bad}" and "a reel set name is" in str(error)


def test_a_cluster_reel_set_name_follows_the_same_pattern(tmp_path):
    error = refused(tmp_path, mutate(CANDY, "[reels.super.weights]", '[reels."../super".weights]'))
    names(error, "reels.../super", "'../super'")


def test_every_shipped_and_conformance_name_is_valid():
    specs = [load_spec(p) for p in [*shipped_games().values(), *CONFORMANCE]]
    # a ways game has one unnamed reel set and no named modes: it has no names to check
    found = ({m.name for s in specs for m in s.modes}
             | {r.name for s in specs for r in getattr(s, "reel_sets", ())})
    assert {"base", "free", "fortune", "bonus", "golden", "super"} <= found
    assert all(valid_name(n) for n in found)
    assert valid_name("a" * 40) and valid_name("free-2") and not valid_name(None)


# ---------------------------------------------------------------- 3. accepted nonsense


@pytest.mark.parametrize(("old", "new", "key", "value"), [
    ("rows = 3", "rows = 1000", "game.rows", "1000"),
    ("reels = 5", "reels = 0", "game.reels", "0"),
])
def test_a_grid_outside_1_to_12_is_refused(tmp_path, old, new, key, value):
    names(refused(tmp_path, mutate(CLUEDO, old, new)), key, value)


def test_a_cluster_grid_outside_1_to_12_is_refused(tmp_path):
    names(refused(tmp_path, mutate(CANDY, "cols = 7", "cols = 13")), "game.cols", "13")


def test_a_strip_shorter_than_the_window_is_refused_at_load(tmp_path):
    text = mutate(CLUEDO, "[reels.golden]\nstrips = [\n", '[reels.golden]\nstrips = [\n  "MJ BONUS",\n')
    text = re.sub(r'(\[reels\.golden\]\nstrips = \[\n  "MJ BONUS",\n)  "[^"]*",\n', r"\1", text)
    error = refused(tmp_path, text)
    names(error, "reels.golden.strips[1]", "['MJ', 'BONUS']")
    assert "2 stops, fewer than the 3 rows" in str(error)


def fortune_stops() -> int:
    return len(COPS.split("[reels.fortune]\nstrips = [\n  ")[1].split('"')[1].split())


def test_all_zero_weights_are_refused(tmp_path):
    zeros = "[" + ", ".join(["0"] * fortune_stops()) + "]"
    text = re.sub(r"weights = \[\n  \[[^\]]*\]", lambda m: f"weights = [\n  {zeros}", COPS, count=1)
    error = refused(tmp_path, text)
    assert error.key == "reels.fortune.weights[1]" and "sum 1..2**32-1" in str(error)


def test_more_symbols_than_int16_strips_hold_comfortably_are_refused(tmp_path):
    many = "".join(f'X{i} = {{ role = "regular" }}\n' for i in range(990))
    error = refused(tmp_path, mutate(CLUEDO, "[symbols]\n", "[symbols]\n" + many))
    assert error.key == "symbols" and error.value == 1002 and "at most 1000 symbols" in str(error)


def test_the_wheel_gamble_limit_is_refused_at_load_not_at_gamble_time(tmp_path):
    # WheelConfig raises ValueError for a limit >= 2**32, when the gamble starts
    error = refused(tmp_path, mutate(COPS, "limit_minor = 25000000", f"limit_minor = {2**32}"))
    names(error, "features.wheel_gamble.limit_minor", str(2**32))


@pytest.mark.parametrize(("old", "new", "key", "says"), [
    ('free_spins_reel_set = "free"', 'free_spins_reel_set = "base"',
     "features.free_spins_reel_set", "is the first reel set, which the base game plays"),
    ("symbol_weights = [188, 8, 3, 1]", f"symbol_weights = [{2**32}, 8, 3, 1]",
     "features.wild.symbol_weights", "sum to 1..2**32-1"),
])
def test_candy_rules_refusals_say_what_is_wrong(tmp_path, old, new, key, says):
    error = refused(tmp_path, mutate(CANDY, old, new))
    assert error.key == key and says in str(error), str(error)


def test_a_huge_weights_list_gives_a_short_line(tmp_path):
    # the 10**6 zero weights printed a 3,000,118-byte line; 2 * 10**5 shows the same
    stops = fortune_stops()
    zeros = "[" + ", ".join(["0"] * 200_000) + "]"
    text = re.sub(r"weights = \[\n  \[[^\]]*\]", lambda m: f"weights = [\n  {zeros}", COPS, count=1)
    error = refused(tmp_path, text)
    assert error.key == "reels.fortune.weights[1]"
    assert str(error).endswith(f" = [{'0, ' * 26}0... (200,000 items): need {stops} integer weights "
                               ">= 0, sum 1..2**32-1"), str(error)


def test_a_long_key_and_a_control_character_stay_on_one_short_line(tmp_path):
    long_key = "K" * 100_000
    error = refused(tmp_path, mutate(CLUEDO, "[bet]\n", f'[bet]\n"{long_key}" = 1\n"a\\nb" = 2\n'))
    assert "characters)" in str(error)
    error = refused(tmp_path, mutate(CLUEDO, "[bet]\n", '[bet]\n"a\\nb" = 2\n'))
    assert "a\\nb" in str(error)


def test_nesting_too_deep_for_the_toml_reader_is_one_line(tmp_path):
    error = refused(tmp_path, CLUEDO + "\n[extra]\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert "nested too deeply" in str(error)


# ---------------------------------------------------------------- 4. unclear messages


def test_a_directory_given_as_a_game_is_said_to_be_one(tmp_path):
    with pytest.raises(SpecError) as info:
        make(str(tmp_path))
    assert "is a directory" in str(info.value) and str(tmp_path) in str(info.value)


def test_the_cli_reports_a_directory_in_one_line_exit_2(tmp_path):
    from typer.testing import CliRunner

    from reelforge.cli import app

    result = CliRunner().invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "is a directory" in result.output and "Traceback" not in result.output


def test_min_size_above_the_cells_names_the_grid(tmp_path):
    error = refused(tmp_path, mutate(CANDY, "min_size = 6", "min_size = 100"))
    names(error, "clusters.min_size", "100")
    assert "only 49 cells" in str(error)


def test_a_missing_base_reel_set_is_blamed_not_its_multiplier(tmp_path):
    text = re.sub(r"\[reels\.base\.weights\]\n(.+\n)+?\n", "", CANDY, count=1)
    assert "[reels.base.weights]" not in text
    error = refused(tmp_path, text)
    assert error.key == "reels.base" and "(missing), but [random_multiplier.base]" in str(error)


def test_a_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(CLUEDO.encode("utf-8").replace(b"Cluedo MegaJackpots", b"Cluedo \xff\xfe"))
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert "not UTF-8" in str(info.value) and "\n" not in str(info.value)


def test_a_file_that_cannot_be_read_is_one_line(tmp_path, monkeypatch):
    path = tmp_path / "locked.toml"
    path.write_text(CLUEDO, encoding="utf-8")

    def denied(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", denied)  # tests run as root: chmod would not stop it
    with pytest.raises(SpecError) as info:
        load_spec(path)
    # the quoted value is shortened past 80 characters, as every quoted value is: how much of
    # it shows depends on the temporary folder's length (longer under pytest-xdist)
    message = str(info.value)
    assert message.startswith(f"{path}: <file> = '{str(path)[:40]}")
    assert message.endswith(": cannot be read (Permission denied)") and "\n" not in message


# ---------------------------------------------------------------- 5. features that never end

RETRIGGER = """
[game]
id = "retrigger-v1"
name = "Retrigger"
reels = 3
rows = 1

[symbols]
A = { role = "regular" }
S = { role = "scatter" }

[paytable]
A = { 3 = 5 }

[lines]
paylines = [[0, 0, 0]]

[scatter.S]
counting = "reels"
pays = { 3 = 2 }

[reels.base]
strips = ["A A A S", "A A A S", "A A A S"]

[reels.free]
strips = ["S A", "S A", "S A"]

[bet]
max_bet_per_line = 1

[features.free_games]
trigger = "S"
award = { 3 = 10 }
retrigger = "unlimited"
retrigger_award = { 3 = AGAIN }
reel_set = "free"
"""


def test_an_unlimited_retrigger_that_never_ends_on_average_is_refused(tmp_path):
    # free reels show S with probability 1/2 each: 3 of them 1/8 of spins; 8 spins per
    # retrigger is one spin per spin on average, the least that never ends
    error = refused(tmp_path, RETRIGGER.replace("AGAIN", "8"))
    names(error, "features.free_games.retrigger", "'unlimited'")
    assert "1.0000 spins per free spin" in str(error)
    spec = parse_spec(RETRIGGER.replace("AGAIN", "7"), "ok.toml")  # 7/8 per spin: ends
    assert spec.free_games.retrigger == "unlimited"


@pytest.mark.parametrize("path", [CONFORMANCE[0], CONFORMANCE[11], CONFORMANCE[-1]],
                         ids=lambda p: p.stem)
def test_the_loader_s_exact_retrigger_rate_agrees_with_the_exact_analysis(path):
    # the analysis convolves float scatter-count distributions from the compiled model
    from reelforge.analysis.exact import scatter_count_distribution
    from reelforge.spec.limits import expected_retrigger

    spec = load_spec(path)
    assert spec.free_games.retrigger == "unlimited"
    m = make(str(path)).model
    dist = scatter_count_distribution(make(str(path)), m.fg_set, m.fg_scatter)
    rate = sum(p * m.fg_retrigger_award[c] for c, p in enumerate(dist) if c < len(m.fg_retrigger_award))
    assert 0 < rate < 1
    assert float(expected_retrigger(spec)) == pytest.approx(rate, rel=1e-12)


def test_weights_count_in_the_retrigger_odds(tmp_path):
    text = RETRIGGER.replace("AGAIN", "7").replace(
        '[reels.free]\nstrips = ["S A", "S A", "S A"]',
        '[reels.free]\nstrips = ["S A", "S A", "S A"]\nweights = [[3, 1], [1, 1], [1, 1]]')
    # 3/4 * 1/2 * 1/2 = 3/16 of spins retrigger 7: 21/16 per spin
    error = refused(tmp_path, text)
    assert "1.3125 spins per free spin" in str(error)


CAPPED = RETRIGGER.replace('retrigger = "unlimited"\nretrigger_award = { 3 = AGAIN }',
                           'retrigger = "capped"\nmax_total_spins = CAP')


def test_max_total_spins_above_the_spin_guard_is_refused_naming_the_guard(tmp_path):
    """The engine would cut such a bonus at its guard: a cap it never applies is refused."""
    from reelforge.engine.model import SPIN_GUARD

    error = refused(tmp_path, CAPPED.replace("CAP", str(SPIN_GUARD + 1)))
    names(error, "features.free_games.max_total_spins", str(SPIN_GUARD + 1))
    assert f"spin guard ({SPIN_GUARD:,} spins)" in str(error)
    error = refused(tmp_path, CAPPED.replace("CAP", "1000000000"))  # the hanging file
    names(error, "features.free_games.max_total_spins", "1000000000")
    spec = parse_spec(CAPPED.replace("CAP", str(SPIN_GUARD)), "ok.toml")  # the guard itself: fine
    assert spec.free_games.max_total_spins == SPIN_GUARD


def test_the_card_gamble_limit_counts_in_the_round_bound(tmp_path):
    """A win below limit_credits may be doubled once more: up to twice the limit."""
    limit = WIN_LIMIT // 2 + 1  # below 2**62 itself, but doubled past it
    error = refused(tmp_path, mutate(CLUEDO, "limit_credits = 3000", f"limit_credits = {limit}"))
    names(error, "features.gamble.limit_credits", str(limit))
    assert "too large" in str(error)
    fits = mutate(mutate(CLUEDO, "limit_credits = 3000", f"limit_credits = {WIN_LIMIT // 2}"),
                  "denominations = [1, 2, 5, 10, 25, 50, 100]", "denominations = [1]")
    assert parse_spec(fits, "ok.toml").gamble.limit_credits == WIN_LIMIT // 2


def test_the_game_digest_is_sha256sum_of_the_file_s_bytes(tmp_path):
    """CRLF line ends are kept: the digest an outcome and a checkpoint record is the one
    `sha256sum` prints, whatever the file's line ends (Path.read_text would turn CRLF to LF)."""
    import hashlib

    from reelforge.analysis.montecarlo import GameText

    lf, crlf = tmp_path / "lf.toml", tmp_path / "crlf.toml"
    lf.write_bytes(CLUEDO.encode("utf-8"))
    crlf.write_bytes(CLUEDO.replace("\n", "\r\n").encode("utf-8"))
    for path in (lf, crlf):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert load_spec(path).sha256 == digest == GameText.load(str(path)).digest
    assert load_spec(lf).sha256 != load_spec(crlf).sha256
    from dataclasses import replace

    assert load_spec(lf) == replace(load_spec(crlf), source=str(lf))  # the same game either way


def test_every_shipped_game_s_digest_is_its_file_s():
    import hashlib

    for path in shipped_games().values():
        assert load_spec(path).sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_chase_whose_reels_show_no_cop_is_refused(tmp_path):
    bonus = COPS.split("[reels.bonus]\nstrips = [\n")[1].split("]")[0]
    error = refused(tmp_path, COPS.replace(bonus, bonus.replace(" COP", " TEN")))
    names(error, "features.trail_bonus.reel_set", "'bonus'")


RULES_LINE = 'rules = "cops_trail"  # the trail bonus: games/cops_n_robbers/spec.py, game.py\n'


@pytest.mark.parametrize(("new", "problem"), [
    ('rules = "heist"\n', "unknown rules module"),
    ('rules = "candy_jar"\n', "not rules of a line game"),
])
def test_a_line_game_names_registered_line_rules(tmp_path, new, problem):
    error = refused(tmp_path, mutate(COPS, RULES_LINE, new))
    names(error, "game.rules", repr(new.split('"')[1]))
    assert problem in str(error)


def test_the_trail_bonus_is_read_only_by_its_rules(tmp_path):
    """Without `rules = "cops_trail"` the generic loader knows no [features.trail_bonus]; with
    it, the rules need the table."""
    error = refused(tmp_path, mutate(COPS, RULES_LINE, ""))
    assert error.key == "features.trail_bonus" and "unknown feature" in str(error)
    start = COPS.index("[features.trail_bonus]\n")
    end = COPS.index("[features.wheel_gamble]")
    parade = COPS.index("[features.trail_bonus.parade]")
    text = COPS[:start] + COPS[end:parade]
    error = refused(tmp_path, text)
    names(error, "features.trail_bonus", "None")
    assert "is required" in str(error)


@pytest.mark.parametrize("cop", ["ROBBER", "PRESENT_RED"])
def test_a_cop_that_collects_or_carries_cash_is_refused(tmp_path, cop):
    # the engine's cash collection counts collectors and values only: the cop is neither
    error = refused(tmp_path, mutate(COPS, 'cop = "COP"\n', f'cop = "{cop}"\n'))
    names(error, "features.trail_bonus.cop", repr(cop))


def test_loading_cops_reads_its_rules_spec_part_without_numba():
    script = ("import sys; from reelforge.spec import load_spec; "
              f"s = load_spec({str(GAMES / 'cops_n_robbers' / 'cops-n-robbers-v1.toml')!r}); "
              "print(s.rules, type(s.features).__module__, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.stdout.split() == ["cops_trail", "reelforge.games.cops_n_robbers.spec", "False"], \
        out.stderr


def test_reading_a_line_game_imports_no_numba():
    script = ("import sys; from reelforge.spec import load_spec; "
              f"load_spec({str(GAMES / 'cluedo' / 'cluedo-v1.toml')!r}); print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.stdout.strip() == "False", out.stderr
