"""Exact analysis: its parts add up, and Monte Carlo of the live round code agrees with it."""

import tomllib
from pathlib import Path

import pytest

from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.game import Game
from reelforge.engine.rng import chunk_generator
from reelforge.games import make, shipped_games
from reelforge.spec import load_spec

CONFORMANCE = Path(__file__).parents[1] / "conformance"
CONFORMANCE_FILES = sorted((CONFORMANCE / e["file"]) for e in
                           tomllib.loads((CONFORMANCE / "published.toml").read_text()).values())
GAMES = [("shipped", gid) for gid, path in sorted(shipped_games().items())
         if load_spec(path).family == "lines"] + \
        [("conformance", str(p)) for p in CONFORMANCE_FILES]


def load(kind, ref):
    return make(ref) if kind == "shipped" else Game.from_spec(load_spec(ref))


@pytest.mark.parametrize("kind,ref", GAMES, ids=[Path(r).stem for _, r in GAMES])
def test_breakdown_adds_up(kind, ref):
    result = analyze(load(kind, ref))
    parts = result.base_lines + result.base_scatter + result.free_games + result.base_collect + result.bonus
    assert result.rtp == pytest.approx(parts, rel=1e-12)
    awards = result.award_table()
    assert sum(a["base_rtp"] for a in awards) / result.price == pytest.approx(result.base_lines, rel=1e-9)
    free_lines = result.free.lines * result.free_spins_per_round if result.free else 0.0
    assert sum(a["free_games_rtp"] for a in awards) == pytest.approx(free_lines, rel=1e-9, abs=1e-15)
    assert sum(result.base.scatter_rtp) == pytest.approx(result.base_scatter, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("kind,ref", GAMES, ids=[Path(r).stem for _, r in GAMES])
def test_monte_carlo_of_the_live_round_agrees_with_exact(kind, ref):
    game = load(kind, ref)
    exact = analyze(game)
    stats = play_rounds(game, game.max_bet, chunk_generator(20261129, 0), 1_500_000)
    assert abs(stats.rtp - exact.rtp) < 4 * stats.rtp_standard_error, (stats.rtp, exact.rtp)
