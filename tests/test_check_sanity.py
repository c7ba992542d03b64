"""`reelforge check` calls out a game that cannot be what its designer meant: a mode that pays
back more than it takes (exact where the analysis has a figure, sampled where it has none),
and the loader refuses a Candy Jar trigger beyond the grid or free spins without a bound (those
refusals are in test_candy.py's table of bad files)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_cluster_games import PLAIN as TINY_CLUSTERS
from test_montecarlo import TINY as TINY_LINES
from typer.testing import CliRunner

from reelforge.cli import app

runner = CliRunner()


def check(tmp_path, text: str, *args: str):
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    return runner.invoke(app, ["check", str(path), *args], catch_exceptions=False)


def a_a_lower_bound(pay_a2: int) -> Fraction:
    """A lower bound on TINY_LINES' base-game RTP by hand when A's two of a kind pays
    `pay_a2`: the line shows A, A and then neither A nor a wild (B, S or B: 3 of reel 3's 5
    stops) on 1/4 x 2/4 x 3/5 of the spins, each paying `pay_a2` on a 1-credit stake; every
    other pay only adds to it."""
    return Fraction(1, 4) * Fraction(2, 4) * Fraction(3, 5) * pay_a2


# TINY_LINES pays back 572% (a test game for the simulator); this one pays a little
FAIR_LINES = TINY_LINES.replace("A = { 2 = 1, 3 = 5 }", "A = { 3 = 1 }").replace(
    "B = { 3 = 10 }", "B = { 3 = 1 }").replace("W = { 3 = 20 }", "W = { 3 = 2 }").replace(
    "pays = { 2 = 2 }", "pays = { 2 = 1 }")


def test_a_fair_line_game_passes(tmp_path):
    result = check(tmp_path, FAIR_LINES, "--rounds", "200")
    assert result.exit_code == 0, result.output
    assert "no mode pays back more than it takes" in result.stdout


def test_a_line_game_paying_more_than_it_takes_fails_on_its_exact_rtp(tmp_path):
    rigged = FAIR_LINES.replace("A = { 3 = 1 }", "A = { 2 = 40, 3 = 50 }")
    assert rigged != FAIR_LINES
    assert a_a_lower_bound(40) > 1  # A A alone gives back three times the stake
    result = check(tmp_path, rigged, "--rounds", "200")
    assert result.exit_code == 1, result.output
    assert "base game: RTP" in result.stderr and "(exact) is above 100%" in result.stderr


def test_a_cluster_game_paying_more_than_it_takes_fails_on_its_sample(tmp_path):
    result = check(tmp_path, TINY_CLUSTERS, "--rounds", "1e3")
    assert result.exit_code == 1, result.output
    assert "sampled rounds, more than 4 SE above 100%" in result.stderr


def test_a_fair_cluster_game_passes(tmp_path):
    # the same grid paying a tenth as much: well under 100%
    fair = TINY_CLUSTERS.replace("A = { 4 = 10, 6 = 30 }", "A = { 4 = 1, 6 = 3 }").replace(
        "B = { 4 = 5, 8 = 40 }", "B = { 4 = 1, 8 = 4 }").replace("C = { 4 = 2 }", "C = { 4 = 1 }")
    result = check(tmp_path, fair, "--rounds", "1e3")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("rounds", ["1e3", "1_000", "1000"])
def test_check_counts_rounds_as_simulate_does(tmp_path, rounds):
    result = check(tmp_path, FAIR_LINES, "--rounds", rounds)
    assert result.exit_code == 0, result.output
    assert "1,000 rounds" in result.stdout


def test_check_refuses_a_count_that_is_no_count(tmp_path):
    result = check(tmp_path, FAIR_LINES, "--rounds", "many")
    assert result.exit_code == 2 and "--rounds = 'many'" in result.stderr
