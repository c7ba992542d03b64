"""Exact analysis: its parts add up, and Monte Carlo of the live round code agrees with it."""

import tomllib
from pathlib import Path

import pytest
from tiny_games import ALWAYS_RETRIGGER

from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.game import LineGame
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
    return make(ref) if kind == "shipped" else LineGame.from_spec(load_spec(ref))


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


@pytest.mark.slow
@pytest.mark.parametrize("kind,ref", GAMES, ids=[Path(r).stem for _, r in GAMES])
def test_monte_carlo_of_the_live_round_agrees_with_exact(kind, ref):
    game = load(kind, ref)
    exact = analyze(game)
    stats = play_rounds(game, game.max_bet, chunk_generator(20261129, 0), 1_500_000)
    assert abs(stats.rtp - exact.rtp) < 4 * stats.rtp_standard_error, (stats.rtp, exact.rtp)


# Issue 11, "Hang" and "Accepted nonsense": analyses that could not end refuse in one line.

HANG = ALWAYS_RETRIGGER


def _analyze_cli(tmp_path, text: str) -> str:
    import subprocess
    import sys

    path = tmp_path / "hang.toml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "reelforge.cli", "analyze", str(path)],
                          check=False, capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2 and len(lines) == 1, (done.returncode, done.stderr)
    return lines[0]


def test_analyze_refuses_a_capped_chain_too_large_to_solve(tmp_path):
    """A cap of 100,000 spins (the most the loader accepts: the engine's spin guard) with
    free reels that always retrigger: the chain would have 5,000,150,001 states. Refused by
    the chain limit before the chain is built, in one line naming the key, its value and the
    count against the limit (no timing: what is checked is that the refusal is this one)."""
    line = _analyze_cli(tmp_path, HANG + 'retrigger = "capped"\nmax_total_spins = 100000\n')
    assert line.startswith("error: ") and "hang.toml: features.free_games.max_total_spins = 100000: " in line, line
    assert "5,000,150,001 states, above its limit of 20,000,000" in line, line


def test_analyze_refuses_a_never_ending_retrigger(tmp_path):
    """Free reels that always retrigger 10 spins: refused, by the loader (exact fractions) or
    by the analysis, in the same words."""
    line = _analyze_cli(tmp_path, HANG + 'retrigger = "unlimited"\n')
    assert "features.free_games.retrigger = 'unlimited': the free reels (free) award 10.0000 spins per " \
        "free spin on average, so a bonus never ends on average" in line, line


def test_the_never_ending_check_is_the_loaders_wording():
    """`exact.refuse_never_ending` (the analyses' check, for a model built without the loader)
    says what `spec.limits.check_line_game` says."""
    from reelforge.analysis.exact import refuse_never_ending
    from reelforge.errors import ReelforgeError, UnboundedFeature
    from reelforge.spec import parse_spec

    text = HANG + 'retrigger = "unlimited"\n'
    with pytest.raises(ReelforgeError) as loader:
        parse_spec(text, "hang.toml")
    game = LineGame.from_spec(parse_spec(HANG + 'retrigger = "none"\n', "hang.toml"))
    with pytest.raises(UnboundedFeature) as analysis:
        refuse_never_ending(game, 10.0)
    assert str(analysis.value) == str(loader.value)


def test_the_capped_chain_below_the_limit_is_exact():
    """The refusal's limit leaves ordinary caps alone: a cap of 2,000 spins that every free
    spin retriggers (10 spins each) plays exactly 2,000 spins."""
    from reelforge.spec import parse_spec

    game = LineGame.from_spec(parse_spec(HANG + 'retrigger = "capped"\nmax_total_spins = 2000\n', "cap.toml"))
    result = analyze(game)
    assert result.mean_free_spins == pytest.approx(2000, rel=1e-12)
