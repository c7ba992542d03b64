"""The simulator against figures derived independently: brute force and exact analysis."""

import itertools
import math

import pytest

from reelforge.analysis.exact import analyze, scatter_count_distribution
from reelforge.analysis.montecarlo import play_rounds, simulate
from reelforge.engine.game import Game
from reelforge.engine.rng import chunk_generator
from reelforge.games import make
from reelforge.spec import parse_spec

TINY = """
[game]
id = "tiny-v1"
name = "Tiny"
reels = 3
rows = 1

[symbols]
A = { role = "regular" }
B = { role = "regular" }
W = { role = "wild" }
S = { role = "scatter" }

[paytable]
A = { 2 = 1, 3 = 5 }
B = { 3 = 10 }
W = { 3 = 20 }

[lines]
paylines = [[0, 0, 0]]

[lines.wild.W]
except = ["S"]
multiplier = 2

[scatter.S]
pays = { 2 = 2 }

[reels.base]
strips = ["A B W S", "A A B W", "A B S W B"]

[bet]
max_bet_per_line = 1

[features.free_games]
trigger = "S"
award = { 2 = 3 }
retrigger = "none"
multiplier = 2
"""
STRIPS = [s.split() for s in ["A B W S", "A A B W", "A B S W B"]]
PAY = {("A", 2): 1, ("A", 3): 5, ("B", 3): 10, ("W", 3): 20}


def tiny_spin_win(cells, multiplier):
    """The tiny game's rules written out by hand for its one line and one row."""
    best = 0
    if cells[0] == "W":
        run = next((i for i, c in enumerate(cells) if c != "W"), 3)
        best = PAY.get(("W", run), 0) * multiplier
    target = next((c for c in cells if c != "W"), None)
    if target is not None and target != "S":
        run = next((i for i, c in enumerate(cells) if c not in (target, "W")), 3)
        doubled = 2 if "W" in cells[:run] else 1
        best = max(best, PAY.get((target, run), 0) * doubled * multiplier)
    scatters = cells.count("S")
    return best + (2 * multiplier if scatters == 2 else 0), scatters


def tiny_brute_force_rtp():
    combos = list(itertools.product(*STRIPS))
    base = [tiny_spin_win(c, 1) for c in combos]
    free_spin = sum(tiny_spin_win(c, 2)[0] for c in combos) / len(combos)
    p_trigger = sum(s == 2 for _, s in base) / len(combos)
    return sum(w for w, _ in base) / len(combos) + p_trigger * 3 * free_spin


def test_tiny_game_simulation_matches_brute_force():
    game = Game.from_spec(parse_spec(TINY, "tiny"))
    rtp = tiny_brute_force_rtp()
    assert analyze(game).rtp == pytest.approx(rtp, rel=1e-12)
    stats = play_rounds(game, game.max_bet, chunk_generator(5, 0), 400_000)
    assert abs(stats.rtp - rtp) < 4 * stats.rtp_standard_error


def test_cluedo_simulation_agrees_with_exact_within_four_standard_errors():
    exact = analyze(make("cluedo-v1")).rtp
    stats = simulate("cluedo-v1", make("cluedo-v1").max_bet, 6_000_000, seed=2026, chunk_size=1_500_000)
    assert abs(stats.rtp - exact) < 4 * stats.rtp_standard_error
    # the base scatter pay, source by source: its exact distribution gives its own SE
    game = make("cluedo-v1")
    counts = scatter_count_distribution(game, game.model.base_set, 0)
    pays = game.model.scatter_pay[0]
    counts = counts[: len(pays)]  # counting by reels: no count above the number of reels
    mean, square = float(counts @ pays), float(counts @ pays**2)
    se = math.sqrt((square - mean**2) / stats.rounds)
    assert abs(stats.base_scatter_win / (stats.rounds * 100) - mean) < 4 * se
    p = analyze(game).feature_probability
    assert abs(stats.feature_frequency - p) < 4 * math.sqrt(p * (1 - p) / stats.rounds)
    # in Cluedo a round wins exactly when its base spin pays (3+ Mystery Bonus both trigger
    # the free games and pay), so the exact base-spin hit frequency is the round's
    h = analyze(game).base_hit_frequency
    assert abs(stats.hit_frequency - h) < 4 * math.sqrt(h * (1 - h) / stats.rounds)


def test_a_run_is_identical_whatever_the_number_of_workers():
    game = make("cluedo-v1")
    one = simulate("cluedo-v1", game.max_bet, 300_000, seed=9, chunk_size=50_000, workers=1)
    two = simulate("cluedo-v1", game.max_bet, 300_000, seed=9, chunk_size=50_000, workers=2)
    assert one == two
    other_seed = simulate("cluedo-v1", game.max_bet, 300_000, seed=10, chunk_size=50_000, workers=1)
    assert other_seed != one


def test_a_chunk_delivered_twice_is_merged_once(monkeypatch):
    """A backend may hand back a chunk twice (Dask reruns a lost worker's work): merged once."""
    from reelforge.analysis import montecarlo

    game = make("cluedo-v1")
    once = simulate("cluedo-v1", game.max_bet, 200_000, seed=4, chunk_size=50_000, workers=1)
    real = montecarlo._local_results

    def twice(chunks, workers):
        for index, stats in real(chunks, workers):
            yield index, stats
            yield index, stats

    monkeypatch.setattr(montecarlo, "_local_results", twice)
    steps = []
    again = simulate("cluedo-v1", game.max_bet, 200_000, seed=4, chunk_size=50_000, workers=1,
                     progress=steps.append)
    assert again == once and steps == [50_000] * 4


def count_drawn(monkeypatch) -> list[int]:
    """Patch `plan_chunks` so the returned list counts chunks taken from the plan so far."""
    from reelforge.analysis import montecarlo

    drawn, real = [0], montecarlo.plan_chunks

    def counted(*args, **kwargs):
        for chunk in real(*args, **kwargs):
            drawn[0] += 1
            yield chunk

    monkeypatch.setattr(montecarlo, "plan_chunks", counted)
    return drawn


def test_the_pool_keeps_a_bounded_number_of_chunks_in_flight(monkeypatch):
    from reelforge.analysis.montecarlo import IN_FLIGHT_PER_WORKER

    drawn = count_drawn(monkeypatch)
    finished, most = [], [0]

    def progress(rounds):
        finished.append(rounds)
        most[0] = max(most[0], drawn[0] - len(finished))

    game = make("cluedo-v1")
    stats = simulate("cluedo-v1", game.max_bet, 400_000, seed=4, chunk_size=5_000, workers=2,
                     progress=progress)
    assert stats.rounds == 400_000 and len(finished) == 80
    assert most[0] <= IN_FLIGHT_PER_WORKER * 2


def test_a_game_from_text_needs_no_file(tmp_path):
    from reelforge.analysis.montecarlo import GameText

    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    text = GameText.load(str(path))
    path.unlink()
    game = Game.from_spec(parse_spec(TINY, "tiny"))
    one = simulate(text, game.max_bet, 40_000, seed=1, chunk_size=10_000, workers=1)
    assert simulate(text, game.max_bet, 40_000, seed=1, chunk_size=10_000, workers=2) == one
    assert one.rounds == 40_000
