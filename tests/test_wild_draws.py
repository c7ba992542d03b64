"""Wilds that draw their own multiplier ([wild_multipliers], line games): the round against a
plain-Python reference, the exact RTP against brute force over every window and every draw,
Monte Carlo against exact, and the loader's refusals."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import reference as ref

from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.families import compile_game
from reelforge.engine.rng import chunk_generator
from reelforge.errors import SpecError
from reelforge.games import make
from reelforge.spec import parse_spec

# Three reels of two rows, two lines; the wild pays on its own (a pure-wild run draws too),
# substitutes for A and B, lands on every reel; the free reel set draws nothing.
TINY = """
[game]
id = "tiny-draws-v1"
name = "Tiny draws"
reels = 3
rows = 2
[symbols]
W = {{ role = "wild" }}
A = {{ role = "regular" }}
B = {{ role = "regular" }}
[paytable]
W = {{ 3 = 7 }}
A = {{ 2 = 1, 3 = 4 }}
B = {{ 3 = 9 }}
[lines]
pure_wild_vs_substituted = "{rule}"
paylines = [[0, 0, 0], [1, 0, 1]]
[wild_multipliers]
combine = "{combine}"
[wild_multipliers.base]
weights = {{ 2 = 3, 3 = 1, 7 = 2 }}
[reels.base]
strips = ["W A B A", "A W B B A", "B A W"]
[bet]
max_lines = 2
max_bet_per_line = 1
"""

TABLE = ((2, 3), (3, 1), (7, 2))


def reference_line_win(rules, window, cell_draws, line: int, combine: str) -> int:
    """A line's win, the award picked before the draws (the reference's own evaluation, the
    wilds' fixed multiplier 1), then times the draws of the wilds in its paid run."""
    award = ref.evaluate_line(rules, window, line, 1, False)
    if award.value == 0:
        return 0
    rows = rules.paylines[line]
    drawn = [cell_draws[(r, rows[r])] for r in range(award.count) if window[r][rows[r]] in rules.wilds]
    return award.value * ref.combined_multiplier(drawn, combine)


def brute_force_rtp(rules, combine: str) -> Fraction:
    """E[line wins] / total bet over every stop combination and every draw of every wild in
    view, weights as the table says: no formula of the engine's used."""
    strips = rules.reel_sets["base"][0]
    total_weight = sum(w for _, w in TABLE)
    expected = Fraction(0)
    stops_all = list(itertools.product(*(range(len(s)) for s in strips)))
    for stops in stops_all:
        window = ref.window_at(rules, "base", stops)
        wild_cells = [(r, h) for r in range(rules.reels) for h in range(rules.rows) if window[r][h] == "W"]
        for draw in itertools.product(TABLE, repeat=len(wild_cells)):
            p = Fraction(1)
            for _, w in draw:
                p *= Fraction(w, total_weight)
            cell_draws = {cell: m for cell, (m, _) in zip(wild_cells, draw)}
            win = sum(reference_line_win(rules, window, cell_draws, line, combine) for line in range(2))
            expected += p * win
    return expected / len(stops_all) / 2


@pytest.mark.parametrize("combine", ["product", "sum", "max"])
@pytest.mark.parametrize("rule", ["highest", "substituted"])
def test_exact_rtp_equals_brute_force_over_windows_and_draws(combine, rule):
    spec = parse_spec(TINY.format(combine=combine, rule=rule), "tiny.toml")
    game = compile_game(spec)
    exact = analyze(game, game.max_bet).rtp
    expected = brute_force_rtp(ref.rules_from_spec(spec), combine)
    assert exact == pytest.approx(float(expected), rel=1e-12)
    assert expected > Fraction(0)


def test_each_round_pays_its_lines_times_the_draws_it_shows():
    """The example game's rounds, base and free spins: every line win equals the reference's
    award times the combined multipliers of the wild_multiplier events on its run."""
    game = make("wildmult-example-v1")
    rules = ref.rules_from_spec(game.spec)
    rules.wilds = {w: (subs, 1) for w, (subs, _) in rules.wilds.items()}
    combine = game.spec.wild_draws.combine
    seen_draws = 0
    for seed in range(400):
        outcome = game.play(game.max_bet, np.random.Generator(np.random.PCG64(seed)))
        for spin in outcome.spins:
            window = [list(col) for col in spin.window]
            draws = {(e.reel, e.row): e.value for e in spin.events_of("wild_multiplier")}
            wild_cells = {(r, h) for r in range(5) for h in range(3) if window[r][h] == "WILD"}
            assert set(draws) == wild_cells  # every wild in view drew, nothing else did
            seen_draws += len(draws)
            table = dict(game.spec.wild_draws.weights(spin.reel_set))
            assert all(v in table for v in draws.values())
            paid = {e.line - 1: e.win for e in spin.line_wins}
            bet_per_line = outcome.bet.bet_per_line
            for line in range(game.max_bet.lines):
                win = reference_line_win(rules, window, draws, line, combine) * spin.multiplier
                assert paid.get(line, 0) == win * bet_per_line
    assert seen_draws > 100


def test_simulation_agrees_with_exact_within_four_standard_errors():
    game = make("wildmult-example-v1")
    exact = analyze(game).rtp
    stats = play_rounds(game, game.max_bet, chunk_generator(2026, 0), 2_000_000)
    assert abs(stats.rtp - exact) < 4 * stats.rtp_standard_error


def test_replay_reproduces_the_draws():
    from reelforge.engine.round import play_live, replay

    game = make("wildmult-example-v1")
    for _ in range(20):
        outcome = play_live(game, game.max_bet)
        assert replay(game, outcome.to_dict()) == outcome


@pytest.mark.parametrize("table, problem", [
    ('[wild_multipliers.bonus]\nweights = { 2 = 1 }', "not a reel set"),
    ('[wild_multipliers.base]\nweights = { 0 = 1 }', "a multiplier must be an integer"),
    ('[wild_multipliers.base]\nweights = { 2 = 0 }', "weights must sum"),
    ('[wild_multipliers]\ncombine = "mean"\n[wild_multipliers.base]\nweights = { 2 = 1 }',
     "unknown value"),
    ('[wild_multipliers]\ncombine = "sum"', "names no reel set"),
])
def test_the_loader_refuses_a_malformed_table(table, problem):
    text = TINY.format(combine="product", rule="highest").split("[wild_multipliers]")[0]
    text += table + '\n[reels.base]\nstrips = ["W A B A", "A W B B A", "B A W"]\n[bet]\nmax_lines = 2\nmax_bet_per_line = 1\n'
    with pytest.raises(SpecError, match=problem):
        parse_spec(text, "tiny.toml")


def test_the_rng_inventory_lists_each_reel_sets_draw_weights():
    from reelforge.evidence.ranges import game_draws

    draws = {src.key: n for n, src in game_draws(make("wildmult-example-v1"))}
    assert draws["[wild_multipliers.base] weights"] == 6 + 3 + 1
    assert draws["[wild_multipliers.free] weights"] == 5 + 3 + 2


def test_the_exact_moments_decline_drawn_multipliers_and_say_why():
    from reelforge.analysis.moments import NotExact, exact_moments, max_round_win

    game = make("wildmult-example-v1")
    for figure in (exact_moments, max_round_win):
        with pytest.raises(NotExact, match=r"\[wild_multipliers\]"):
            figure(game, game.max_bet)
    # so the maximum win falls back to the engine's bound: every line at its top pay times
    # the top draw on every reel (product), every scatter, every free spin
    assert game.max_win().enforced == "bound"
