"""`reelforge par`: a self-contained PAR sheet (HTML + JSON) with exact and simulated figures."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import simulate
from reelforge.cli import app
from reelforge.games import make

ROOT = Path(__file__).resolve().parents[1]
CHICAGO = ROOT / "conformance" / "chicago" / "chicago-rtp95_080250-v1.toml"
IMG = '<img src="data:image/png;base64,'

runner = CliRunner()


def _no_nan(text: str):
    def refuse(name):
        raise AssertionError(f"non-finite {name} in JSON")
    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module", params=["cluedo-v1", str(CHICAGO)], ids=["cluedo", "chicago"])
def sheet(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("par")
    ref = request.param
    result = runner.invoke(app, ["par", ref, "--out", str(out), "--rounds", "200000", "--seed", "7"],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.output
    game = make(ref)
    html_path, json_path = out / f"{game.id}-par.html", out / f"{game.id}-par.json"
    return game, html_path, json_path


def test_files_exist_and_html_is_self_contained(sheet):
    _, html_path, json_path = sheet
    assert html_path.is_file() and json_path.is_file()
    page = html_path.read_text(encoding="utf-8")
    for bad in ("http://", "https://", "<script src", "<link"):
        assert bad not in page
    assert page.count(IMG) == 3
    for src in re.findall(r'<img src="([^"]*)"', page):
        assert src.startswith("data:image/png;base64,iVBOR")  # a PNG header
    assert "exact" in page and "simulated" in page
    assert "reelforge par " in page and "--out" in page


def test_json_exact_matches_analyze(sheet):
    game, _, json_path = sheet
    data = _no_nan(json_path.read_text(encoding="utf-8"))
    bet = game.bet(data["bet"]["lines"], data["bet"]["bet_per_line"])
    assert data["game_id"] == game.id
    assert data["exact"]["rtp"] == analyze(game, bet).rtp
    assert data["exact"]["label"] == "exact" and data["simulated"]["label"].startswith("simulated")
    assert data["simulated"]["rounds"] == 200_000
    assert data["volatility_index"] == pytest.approx(1.645 * data["simulated"]["standard_deviation"])
    for key in ("reels", "paytable", "paylines", "convergence"):
        assert data[key]


def test_symbol_counts_sum_to_strip_lengths(sheet):
    game, _, json_path = sheet
    reels = _no_nan(json_path.read_text(encoding="utf-8"))["reels"]
    assert set(reels) == {rs.name for rs in game.spec.reel_sets}
    for rs in game.spec.reel_sets:
        sheet_set = reels[rs.name]
        assert sheet_set["strips"] == [list(s) for s in rs.strips]
        for r, strip in enumerate(rs.strips):
            assert sum(c[r] for c in sheet_set["counts"].values()) == len(strip)
            assert sheet_set["lengths"][r] == len(strip)


def test_convergence_ends_at_the_simulated_run(sheet):
    game, _, json_path = sheet
    data = _no_nan(json_path.read_text(encoding="utf-8"))
    curve = data["convergence"]
    assert [n for n, _ in curve] == sorted({n for n, _ in curve})
    assert curve[-1] == [200_000, data["simulated"]["rtp"]]
    assert 30 <= len(curve) <= 40


def test_simulated_figures_equal_simulate():
    """The checkpointed run plays the same streams as `simulate`: identical Stats."""
    from reelforge.analysis.par import run_with_checkpoints

    game = make("cluedo-v1")
    stats, _ = run_with_checkpoints(game, game.max_bet, 50_000, 11)
    assert stats == simulate("cluedo-v1", game.max_bet, 50_000, 11, workers=1)


@pytest.mark.parametrize("args", [["no-such-game"], ["cluedo-v1", "--bet-per-line", "99"],
                                  ["cluedo-v1", "--rounds", "0"]])
def test_errors_are_one_line_exit_2(args, tmp_path):
    result = runner.invoke(app, ["par", *args[:1], "--out", str(tmp_path), *args[1:]])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert not list(tmp_path.iterdir())


def test_weighted_reels_show_weights(tmp_path):
    """A weighted reel set: strips carry their weights and counts their weight totals."""
    import tomllib

    text = (ROOT / "src" / "reelforge" / "games" / "cluedo" / "cluedo-v1.toml").read_text("utf-8")
    strips = tomllib.loads(text)["reels"]["base"]["strips"]
    weights = [[1 + i % 3 for i in range(len(s.split()))] for s in strips]
    head, tail = text.split("[reels.golden]")
    path = tmp_path / "weighted.toml"
    path.write_text(f"{head}weights = {weights}\n\n[reels.golden]{tail}".replace(
        'id = "cluedo-v1"', 'id = "cluedo-weighted-v1"'), encoding="utf-8")
    from reelforge.analysis.par import build_par, render_html

    game = make(str(path))
    figures = build_par(game, game.max_bet, 5_000, 1)
    base = figures["reels"]["base"]
    assert base["weights"] == weights
    for r, w in enumerate(weights):
        assert sum(t[r] for t in base["weight_totals"].values()) == sum(w)
    page = render_html({**figures, "command": "reelforge par x --out y"})
    assert "(weight per stop)" in page and f"(w {sum(weights[0])})" in page
    assert figures["exact"]["rtp"] == analyze(game, game.max_bet).rtp
