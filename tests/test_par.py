"""`reelforge par`: a self-contained PAR sheet (HTML + JSON) with exact and simulated figures."""

from __future__ import annotations

import html
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
CHICAGO = ROOT / "conformance" / "chicago" / "chicago-rtp95p080250-v1.toml"
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
    _, _, json_path = sheet
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


@pytest.mark.slow
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
    from reelforge.analysis.par import build_par
    from reelforge.analysis.par_html import render_html

    game = make(str(path))
    figures = build_par(game, game.max_bet, 5_000, 1)
    base = figures["reels"]["base"]
    assert base["weights"] == weights
    for r, w in enumerate(weights):
        assert sum(t[r] for t in base["weight_totals"].values()) == sum(w)
    page = render_html({**figures, "command": "reelforge par x --out y"})
    assert "(weight per stop)" in page and f"(w {sum(weights[0])})" in page
    assert figures["exact"]["rtp"] == analyze(game, game.max_bet).rtp


# -- the figures a test lab reads: maximum win, exact SD and VI, jackpot RTP, free spins, units --

def _leaves(data, path=""):
    """(path, value) of every number in a JSON tree; list items as `[]`."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, f"{path}.{key}" if path else key)
    elif isinstance(data, list):
        for value in data:
            yield from _leaves(value, f"{path}[]")
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        yield path, data


def _unitless(data: dict) -> list[str]:
    from reelforge.analysis.par_units import units_for

    return sorted({p for p, _ in _leaves(data) if units_for(p, data["units"]) is None})


def _rules_text(page: str) -> str:
    """The visible text of every rules section of a page."""
    import html as html_lib

    sections = re.findall(r'<section class="rules">(.*?)</section>', page, flags=re.DOTALL)
    assert sections, "the page has rules sections"
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", " ".join(sections)))


def test_new_figures_are_in_json_and_html_with_units(sheet):
    game, html_path, json_path = sheet
    data = _no_nan(json_path.read_text(encoding="utf-8"))
    page = html_path.read_text(encoding="utf-8")
    mw, mo, sim = data["max_win"], data["moments"], data["simulated"]
    assert mo["available"], mo
    assert mo["label"] == "exact" and mw["label"] == "exact"
    fg = game.spec.free_games
    if fg is not None and fg.retrigger == "unlimited":  # Chicago: no bound but the spin guard
        assert mw["theoretical_credits"] is None and mw["theoretical_x"] is None
        assert mw["theoretical_note"].startswith("unbounded (guard only)")
        top = "unbounded (guard only)"
    else:  # the exact maximum: at least what was seen, at most the loader's sound bound
        from reelforge.spec.limits import line_round_bound

        assert line_round_bound(game.spec).value >= mw["theoretical_credits"] >= mw["seen_credits"] > 0
        assert mw["theoretical_note"] == "exact"
        top = f"{mw['theoretical_credits']:,}"
    assert mo["volatility_index"] == pytest.approx(1.645 * mo["standard_deviation"])
    assert mo["round_mean"] == pytest.approx(data["exact"]["rtp"], rel=1e-9)
    low, high = sim["standard_deviation_ci95"]
    assert low < sim["standard_deviation"] < high and sim["sd_batches"] == 20
    assert low <= mo["standard_deviation"] <= high  # the check the sheet shows (seed 7: fixed)
    assert sim["volatility_index_ci95"] == pytest.approx([1.645 * low, 1.645 * high])
    assert data["free_spin_distribution"]["available"]
    assert _unitless(data) == []
    for text in ("Maximum win per round", top, "Standard deviation and "
                 "volatility index", f"{mo['standard_deviation']:.4f}", f"{mo['volatility_index']:.4f}",
                 "Free spins per trigger", "x cost", "% of cost", "unit"):
        assert html.escape(text) in page, text
    assert ("Progressive jackpot as RTP" in page) == (game.spec.jackpot is not None)


def test_jackpot_rtp_split_adds_up_from_analyze(sheet):
    """base + contribution + seed = total; the seed's share from P(jackpot) derived here from
    the strips: 5 MJ on line 1's row, base reels and every free spin at max bet."""
    game, html_path, json_path = sheet
    data = _no_nan(json_path.read_text(encoding="utf-8"))
    jr = data["jackpot_rtp"]
    if game.spec.jackpot is None:
        assert jr is None
        return
    jp, spec = game.spec.jackpot, game.spec
    result = analyze(game, game.max_bet)
    row = spec.paylines[jp.line - 1]

    def p_line(set_name):
        strips = {rs.name: rs.strips for rs in spec.reel_sets}[set_name]
        p = 1.0
        for r, strip in enumerate(strips):
            n = len(strip)
            p *= sum(strip[(t + row[r]) % n] == jp.symbol for t in range(n)) / n
        return p

    p_jackpot = p_line(spec.base_reel_set) + result.free_spins_per_round * p_line(spec.free_games.reel_set)
    assert result.jackpot_probability == pytest.approx(p_jackpot, rel=1e-12)
    stake, d = game.max_bet.total, spec.bet.denominations[0]
    assert jr["eligible"] and jr["denomination"] == d
    assert jr["base_rtp"] == result.rtp
    assert jr["contribution_rtp"] == jp.contribution_bp / 10_000
    assert jr["seed_rtp"] == pytest.approx(jp.seed_amount * p_jackpot / (stake * d), rel=1e-12)
    assert jr["total_rtp"] == pytest.approx(jr["base_rtp"] + jr["contribution_rtp"] + jr["seed_rtp"],
                                            rel=1e-15)
    for r in jr["by_denomination"]:
        assert r["total_rtp"] == pytest.approx(result.rtp + jr["contribution_rtp"]
                                               + jp.seed_amount * p_jackpot / (stake * r["denomination"]))
    page = html_path.read_text(encoding="utf-8")
    for key in ("base_rtp", "contribution_rtp", "seed_rtp", "total_rtp"):
        assert f"{100 * jr[key]:.6f}%" in page


def test_no_jackpot_rtp_below_max_bet():
    from reelforge.analysis.par import jackpot_rtp

    game = make("cluedo-v1")
    bet = game.bet(20, 1)
    jr = jackpot_rtp(game, bet, analyze(game, bet))
    assert not jr["eligible"] and jr["contribution_rtp"] == jr["seed_rtp"] == 0
    assert jr["total_rtp"] == jr["base_rtp"] == analyze(game, bet).rtp


def test_rules_are_words_and_tables_not_raw_json(sheet):
    _, html_path, _ = sheet
    text = _rules_text(html_path.read_text(encoding="utf-8"))
    for blob in ('{"', "[{", "{'", "[["):
        assert blob not in text
    assert "Free games" in text and "free spins" in text


@pytest.fixture(scope="module")
def cops_fortune():
    """Modes, cash values, the trail bonus and the wheel gamble: every other feature's rules."""
    from reelforge.analysis.par import build_par

    game = make("cops-n-robbers-v1")
    return game, build_par(game, game.bet(mode="fortune"), 20_000, 3)


@pytest.mark.slow
def test_cops_sheet_has_rules_in_words_units_and_its_figures(cops_fortune):
    from reelforge.analysis.par_html import render_html

    game, figures = cops_fortune
    data = _no_nan(json.dumps(figures))
    page = render_html({**data, "command": "reelforge par x --out y"})
    text = _rules_text(page)
    for blob in ('{"', "[{", "{'", "[["):
        assert blob not in text
    titles = [s["title"] for s in data["rules"]]
    assert titles == ["Modes", "Mixed pay: PRESENTS", "Cash values", "Trail bonus", "Wheel gamble"]
    assert "ID parade" in text and "Bert" in text and "fortune" in text
    assert _unitless(data) == []
    assert data["reproduce"][-2:] == ["--mode", "fortune"]
    assert data["jackpot_rtp"] is None and data["free_spin_distribution"] is None
    cap = game.spec.bet.max_win_minor // game.spec.bet.denominations[0]
    assert data["max_win"]["cap_credits"] == cap
    if data["moments"]["available"]:
        assert data["max_win"]["theoretical_credits"] <= cap
    else:
        assert "not available: " + data["moments"]["reason"] in html.unescape(page)


# -- the distribution of free spins per trigger ------------------------------------------------

TINY = """
[game]
id = "tiny-fs-v1"
name = "Tiny free spins"
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
pays = { 2 = 1 }

[reels.base]
strips = ["A S A", "S A A A", "A S"]

[reels.free]
strips = ["A S A A", "S A A A A", "A A S A"]

[bet]
max_bet_per_line = 1

[features.free_games]
trigger = "S"
award = { 2 = 2, 3 = 3 }
retrigger_award = { 2 = 1, 3 = 4 }
RULE
reel_set = "free"
"""
RULES = {"capped": 'retrigger = "capped"\nmax_total_spins = 9', "unlimited": 'retrigger = "unlimited"',
         "none": 'retrigger = "none"'}


def _tiny(rule: str):
    from reelforge.engine.game import LineGame
    from reelforge.spec import parse_spec

    return LineGame.from_spec(parse_spec(TINY.replace("RULE", RULES[rule]), "tiny.toml"))


def _brute_force(game, horizon: int) -> dict:
    """P(n free spins | trigger) for n <= horizon, in fractions, by enumerating every stop
    combination of every spin (tests/reference.py), along every path of the bonus."""
    from fractions import Fraction
    from functools import cache

    import reference as ref

    rules = ref.rules_from_spec(game.spec)
    _, base = ref.spin_expectation(rules, "base", 1, 1, False, 1)
    _, free = ref.spin_expectation(rules, "free", 1, 1, False, 1)

    @cache
    def ends(left: int, awarded: int) -> tuple:  # ((n, P(the bonus ends at n)), ...)
        if awarded > horizon:
            return ()
        if left == 0:
            return ((awarded, Fraction(1)),)
        out: dict = {}
        for c, p in free.items():
            again = ref.retrigger_award(rules, c, awarded)
            extra = 0 if again is None else again[1]
            for n, q in ends(left - 1 + extra, awarded + extra):
                out[n] = out.get(n, 0) + p * q
        return tuple(sorted(out.items()))

    total: dict = {}
    triggered = Fraction(0)
    for c, p in base.items():
        award = ref.first_award(rules, c)
        if award is None or award[1] == 0:
            continue
        triggered += p
        for n, q in ends(award[1], award[1]):
            total[n] = total.get(n, 0) + p * q
    return {n: q / triggered for n, q in total.items()}


@pytest.mark.parametrize("rule", ["capped", "unlimited", "none"])
def test_free_spin_distribution_equals_brute_force_on_a_tiny_game(rule):
    from reelforge.analysis.free_games import free_spin_distribution

    game = _tiny(rule)
    dist = free_spin_distribution(game)
    assert dist.rule == rule
    horizon = 40
    exact = _brute_force(game, horizon)
    got = {n: p for n, p in zip(dist.spins, dist.probability) if n <= horizon}
    assert set(got) == {n for n, q in exact.items() if q > 0}
    for n, q in exact.items():
        assert got[n] == pytest.approx(float(q), rel=1e-9, abs=1e-15), n
    assert sum(dist.probability) + dist.tail == pytest.approx(1.0, abs=1e-12)
    assert dist.tail < 1e-12
    if rule == "capped":
        assert max(dist.spins) == 9 and dist.tail == 0
    if rule == "unlimited":
        assert max(dist.spins) > horizon  # an infinite support, listed to its far tail


@pytest.mark.parametrize("ref", ["cluedo-v1", "cluedo-96-v1", str(CHICAGO),
                                 str(ROOT / "conformance" / "cleopatra" / "cleopatra-rtp95p007187-v1.toml"),
                                 str(ROOT / "conformance" / "dolphinspearl" / "dolphinspearl-rtp96p178109-v1.toml")])
def test_free_spin_distribution_sums_to_one_and_its_mean_is_expected_free_spins(ref):
    from reelforge.analysis.free_games import free_spin_distribution

    game = make(ref)
    dist = free_spin_distribution(game)
    assert sum(dist.probability) + dist.tail == pytest.approx(1.0, abs=1e-12)
    assert all(p > 0 for p in dist.probability) and list(dist.spins) == sorted(set(dist.spins))
    # `analyze` averages exact.expected_free_spins over the trigger counts
    result = analyze(game)
    assert dist.mean == pytest.approx(result.mean_free_spins, rel=1e-9)
    if ref.startswith("cluedo"):  # every trigger count awards 15 spins
        from reelforge.analysis.exact import expected_free_spins

        spins = expected_free_spins(game, result.free.trigger_distribution, 15)
        assert dist.mean == pytest.approx(spins, rel=1e-12)


def test_free_spin_distribution_matches_simulated_counts_on_a_tiny_game():
    """Played rounds land on the exact distribution: every count within 4.5 binomial SEs."""
    import numpy as np

    from reelforge.analysis.free_games import free_spin_distribution
    from reelforge.engine.round import play_round

    game = _tiny("capped")
    fsd = free_spin_distribution(game)
    dist = dict(zip(fsd.spins, fsd.probability))
    rng = np.random.Generator(np.random.PCG64(5))
    counts: dict = {}
    for _ in range(6000):
        outcome = play_round(game, game.max_bet, rng)
        if outcome.free_games_triggered:
            played = outcome.counters.free_spins_played
            counts[played] = counts.get(played, 0) + 1
    n = sum(counts.values())
    assert n > 1500 and set(counts) <= set(dist)
    for spins, p in dist.items():
        se = (p * (1 - p) / n) ** 0.5
        assert abs(counts.get(spins, 0) / n - p) <= 4.5 * se + 1e-12, (spins, counts.get(spins), p)


# -- the cluster sheet ------------------------------------------------------------------------

def test_cluster_sheet_units_rules_and_cap():
    from reelforge.analysis.par_clusters import build_cluster_par, render_cluster_html

    game = make("candy-jar-clusters-v1")
    figures = _no_nan(json.dumps(build_cluster_par(game, game.max_bet, 2_000, 1)))
    page = render_cluster_html({**figures, "command": "reelforge par x --out y"})
    text = _rules_text(page)
    for blob in ('{"', "[{", "{'", "[["):
        assert blob not in text
    assert "GRAND" in text and "Golden Wild" in text and "capped at 10,000 x the stake" in text
    assert _unitless(figures) == []
    mw = figures["max_win"]
    assert mw["cap_x"] == 10_000 and mw["cap_credits"] == 10_000 * game.max_bet.total
    assert mw["attainable"].startswith("attained")  # the published estimate has capped rounds
    assert "10,000 (the cap)" in page and "Features" not in page
