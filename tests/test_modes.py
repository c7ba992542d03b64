"""Bet modes as data (issue 25): an ante bet on its own reels at an exact fractional price,
a buy mode that skips the base spin and starts the free games; each mode's RTP per its price.

The reference below is plain Python over a tiny game's own data (not the loader's spec): every
window of a three-reel, one-row game, its line and scatter pays, the free games' chain."""

import itertools
import math
import re
from fractions import Fraction

import numpy as np
import pytest

from reelforge.analysis.exact import analyze
from reelforge.analysis.moments import exact_moments
from reelforge.analysis.montecarlo import play_rounds
from reelforge.analysis.sanity import rtp_above_one
from reelforge.engine.game import LineGame
from reelforge.engine.rng import chunk_generator
from reelforge.engine.round import play_round, replay
from reelforge.errors import InvalidBet, SpecError
from reelforge.games import make
from reelforge.spec.load import parse_spec

# The tiny game's data, once, as Python: the test builds its file from it and its reference
# reads it directly.
STRIPS = {
    "base": ["A B S A B B", "B A B S A B", "A B B A S B"],
    "ante": ["A S S A B B", "B A S S A B", "A S B A S B"],
    "free": ["A A S B", "A B A S", "S A A B"],
}
LINE_PAY = {"A": {2: 1, 3: 6}, "B": {3: 2}}  # x bet per line, one line, run from reel 1
SCATTER_PAY = {2: 1, 3: 4}  # x total bet, counted per reel
AWARD = {3: 3}  # free spins for three scatters; no retrigger
FREE_MULTIPLIER = 2
BUY_SPINS, BUY_PRICE = 4, Fraction(9)
ANTE_PRICE = Fraction(3, 2)

TINY = """
[game]
id = "modes-tiny-v1"
name = "Modes tiny"
reels = 3
rows = 1
[symbols]
A = { role = "regular" }
B = { role = "regular" }
S = { role = "scatter" }
[paytable]
A = { 2 = 1, 3 = 6 }
B = { 3 = 2 }
[lines]
paylines = [[0, 0, 0]]
[scatter.S]
pays = { 2 = 1, 3 = 4 }
[bet]
max_bet_per_line = 4
[features.free_games]
trigger = "S"
award = { 3 = 3 }
retrigger = "none"
multiplier = 2
reel_set = "free"
[modes.ante]
reel_set = "ante"
price = "3/2"
[modes.buy]
title = "Buy the free spins"
price = 9
buy_spins = 4
""" + "".join(f'[reels.{name}]\nstrips = {strips!r}\n'.replace("'", '"')
              for name, strips in STRIPS.items())


def tiny(text: str = TINY) -> LineGame:
    return LineGame.from_spec(parse_spec(text, "tiny.toml"))


def spin_win(window: tuple[str, ...]) -> int:
    """Win of one spin on one line, in units of the total bet (one line, so equal)."""
    run = 1
    while run < len(window) and window[run] == window[0]:
        run += 1
    line = LINE_PAY.get(window[0], {}).get(run, 0)
    return line + SCATTER_PAY.get(window.count("S"), 0)


def windows(reel_set: str):
    """Every window of a reel set with its probability (uniform stops)."""
    strips = [s.split() for s in STRIPS[reel_set]]
    p = Fraction(1, math.prod(len(s) for s in strips))
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        yield tuple(strip[i] for strip, i in zip(strips, stops)), p


def reference_rtp(mode: str) -> Fraction:
    free_spin = sum(p * spin_win(w) * FREE_MULTIPLIER for w, p in windows("free"))
    if mode == "buy":
        return BUY_SPINS * free_spin / BUY_PRICE
    reel_set, price = {"base": ("base", 1), "ante": ("ante", ANTE_PRICE)}[mode]
    total = sum(p * (spin_win(w) + AWARD.get(w.count("S"), 0) * free_spin)
                for w, p in windows(reel_set))
    return total / price


@pytest.mark.parametrize("mode", ["base", "ante", "buy"])
def test_exact_rtp_of_each_mode_per_its_price_equals_the_plain_reference(mode):
    game = tiny()
    result = analyze(game, game.bet(mode=mode))
    assert result.rtp == pytest.approx(float(reference_rtp(mode)), rel=1e-12)
    assert result.price == {"base": 1, "ante": ANTE_PRICE, "buy": BUY_PRICE}[mode]
    assert exact_moments(game, game.bet(mode=mode)).round_mean == pytest.approx(result.rtp, rel=1e-12)


def test_the_modes_differ_as_their_data_says():
    """Guards against a reference that could not fail: the three figures are different, and
    the buy mode's has no base-game part."""
    figures = {m: reference_rtp(m) for m in ("base", "ante", "buy")}
    assert len(set(figures.values())) == 3
    buy = analyze(tiny(), tiny().bet(mode="buy"))
    assert (buy.base_lines, buy.base_scatter, buy.feature_probability) == (0.0, 0.0, 1.0)
    assert buy.mean_free_spins == BUY_SPINS


def test_buy_round_skips_the_base_spin_and_costs_its_price():
    game = tiny()
    bet = game.bet(1, 3, "buy")
    rng = np.random.Generator(np.random.PCG64(5))
    for _ in range(50):
        outcome = play_round(game, bet, rng)
        assert [s.kind for s in outcome.spins] == ["free"] * BUY_SPINS
        assert outcome.bet.cost == 3 * BUY_PRICE and outcome.bet.stake == 3
        assert outcome.breakdown["base_lines"] == outcome.breakdown["base_scatter"] == 0
        assert outcome.total_win == sum(s.win for s in outcome.spins)
        assert outcome.spins[0].events[0].type == "free_spins_award"


def test_a_buy_round_replays_from_its_seed():
    from reelforge.engine.round import play_live

    game = make("modes-example-v1")
    outcome = play_live(game, game.bet(mode="buy"))
    assert replay(game, outcome.to_dict()) == outcome


def test_ante_cost_is_exact_and_a_stake_that_makes_it_a_fraction_is_refused_naming_the_key():
    game = tiny()
    assert game.price(game.bet(1, 2, "ante")) == 3
    assert [dict(o.costs).get("ante") for o in game.bets()] == [None, 3, None, 6]
    with pytest.raises(InvalidBet, match=re.escape("modes.ante.price = '3/2'")) as err:
        game.bet(1, 3, "ante")
    assert "4.5" in str(err.value) or "9/2" in str(err.value)
    # no lines or bet per line given: the largest stake the mode can play
    assert game.bet(mode="ante").total == 4


@pytest.mark.parametrize("price,problem", [
    ("1.25", "exact fraction"), ('"1.25"', "exact fraction"), ('"0/4"', "exact fraction"),
    ("0", "exact fraction"), ('"5/7"', "whole number of credits"),
])
def test_a_mode_price_that_is_not_exact_or_never_whole_is_refused_naming_the_key(price, problem):
    text = TINY.replace('price = "3/2"', f"price = {price}")
    with pytest.raises(SpecError, match="modes.ante.price") as err:
        tiny(text)
    assert problem in str(err.value)


def test_buy_mode_keys_are_checked():
    no_free = re.sub(r"\[features.free_games\][^\[]*", "", TINY)
    with pytest.raises(SpecError, match=r"modes\.buy\.buy_spins.*no \[features.free_games\]"):
        tiny(no_free)
    with pytest.raises(SpecError, match=r"modes\.buy\.collect"):
        tiny(TINY.replace("buy_spins = 4", "buy_spins = 4\ncollect = true"))
    with pytest.raises(SpecError, match=r"modes\.buy\.reel_set"):
        tiny(TINY.replace("buy_spins = 4", 'buy_spins = 4\nreel_set = "ante"'))


def test_check_flags_a_buy_mode_that_pays_back_more_than_its_price():
    cheap = tiny(TINY.replace("price = 9", "price = 2"))
    found = rtp_above_one(cheap, rounds=10)
    assert len(found) == 1 and "modes.buy" in found[0] and "(exact)" in found[0]
    assert rtp_above_one(tiny(), rounds=10) == []


# The example game: each mode's Monte Carlo within 4 SE of its exact RTP.

@pytest.mark.parametrize("mode,seed", [("base", 20261206), ("ante", 20261207), ("buy", 20261208)])
def test_example_monte_carlo_of_each_mode_agrees_with_exact(mode, seed):
    game = make("modes-example-v1")
    bet = game.bet(mode=mode)
    exact = analyze(game, bet)
    stats = play_rounds(game, bet, chunk_generator(seed, 0), 400_000 if mode != "buy" else 100_000)
    assert stats.total_bet == game.price(bet)
    assert abs(stats.rtp - exact.rtp) < 4 * stats.rtp_standard_error, (mode, stats.rtp, exact.rtp)


def test_example_modes_are_priced_and_below_100_percent():
    game = make("modes-example-v1")
    assert [(m.name, m.price, m.buy_spins) for m in game.modes] == [
        ("base", 1, 0), ("ante", Fraction(5, 4), 0), ("buy", 36, 10)]
    figures = {f.mode: f.value for f in game.rtp()}
    assert set(figures) == {"base", "ante", "buy"} and all(0.9 < v < 1 for v in figures.values())
    assert rtp_above_one(game, rounds=10) == []


def test_par_sheet_of_a_buy_mode_reports_its_rtp_at_its_price_and_the_spins_bought():
    from reelforge.analysis.free_games import free_spin_distribution
    from reelforge.analysis.par import build_par
    from reelforge.analysis.par_html import render_html

    game = tiny()
    bet = game.bet(mode="buy")
    figures = build_par(game, bet, 2_000, 1)
    assert figures["exact"]["rtp"] == pytest.approx(float(reference_rtp("buy")), rel=1e-12)
    assert figures["exact"]["price"] == 9 and figures["bet"]["price"] == bet.total * 9
    spins = free_spin_distribution(game, bet)
    assert (spins.spins, spins.probability) == ((BUY_SPINS,), (1.0,))
    page = render_html({**figures, "command": "reelforge par x --mode buy --out y"})
    assert "4 free spins bought" in page
    ante = build_par(game, game.bet(mode="ante"), 2_000, 1)
    assert ante["exact"]["price"] == "3/2"
