"""A standard cluster game is data only: a file with no rules module plays, simulates,
replays and checks like any game, and its bad files get one clear error."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from reelforge.analysis.montecarlo import GameText, simulate
from reelforge.engine.check import check_game
from reelforge.engine.families import compile_game
from reelforge.engine.rng import live_generator
from reelforge.engine.round import play_round, replay
from reelforge.errors import SpecError
from reelforge.spec import parse_spec

PLAIN = """
[game]
id = "tiny-clusters-v1"
name = "Tiny Clusters"
family = "clusters"
rows = 4
cols = 4

[symbols]
A = { role = "regular" }
B = { role = "regular" }
C = { role = "regular" }
W = { role = "wild", multiplier = 2 }

[clusters]
min_size = 4

[clusters.pays]
A = { 4 = 10, 6 = 30 }
B = { 4 = 5, 8 = 40 }
C = { 4 = 2 }

[bet]
coins = 10
max_coin_value = 5
max_win_x = 50

[reels.base]
strips = [["A", "B", "C", "A", "W"], ["B", "A", "C"], ["C", "C", "A", "B"], ["A", "B"]]

[random_multiplier.base]
values = [1, 2, 5]
weights = [8, 1, 1]
"""


def game():
    return compile_game(parse_spec(PLAIN, "tiny.toml"))


def test_a_plain_cluster_game_plays_and_replays():
    g = game()
    assert g.family == "clusters" and g.max_bet.total == 50
    seen_win = seen_tumble = False
    for seed in range(200):
        outcome = play_round(g, g.max_bet, live_generator(seed), seed)
        assert replay(g, json.loads(outcome.to_json())) == outcome
        assert 0 <= outcome.total_win <= 50 * 50
        assert outcome.breakdown == {"base_game": outcome.total_win}
        seen_win |= outcome.total_win > 0
        seen_tumble |= len(outcome.spins[0].grids) > 1
    assert seen_win and seen_tumble


def test_a_plain_cluster_game_checks_and_simulates_the_same_as_it_plays():
    g = game()
    check_game(g, rounds=300)
    stats = simulate(GameText(PLAIN, "tiny.toml"), g.bet(bet_per_line=2), 20_000, seed=3, workers=1)
    assert stats.rounds == 20_000 and stats.total_bet == 20
    # the same chunk, round by round with the live code path
    from reelforge.engine.rng import chunk_generator

    rng = chunk_generator(3, 0)
    total = sum(play_round(g, g.bet(bet_per_line=2), rng).total_win for _ in range(20_000))
    assert total == stats.total_win


@pytest.mark.parametrize(("old", "new", "says"), [
    ('family = "clusters"', 'family = "wheels"', "game.family"),  # no such family
    ("min_size = 4", "min_size = 0", "clusters.min_size"),
    ("C = { 4 = 2 }", "C = { 3 = 2 }", "cluster size must be 4..16"),
    ("C = { 4 = 2 }", "D = { 4 = 2 }", "unknown symbol"),
    ("C = { 4 = 2 }", "W = { 4 = 2 }", "a wild symbol cannot pay"),
    ('["A", "B"]]', '["A", "X"]]', "strips[4]"),
    ("max_coin_value = 5", "max_coin_value = 0", "bet.max_coin_value"),
    ("weights = [8, 1, 1]", "weights = [8, 1]", "random_multiplier.base.weights"),
    ("[random_multiplier.base]", "[random_multiplier.free]", "not a reel set"),
    ("[clusters]", "[features]\nx = 1\n\n[clusters]", "features.x = 1: unknown feature; expected one of free_spins, grid_multipliers"),
    ('family = "clusters"', 'family = "clusters"\nrules = "cops_trail"', "not rules of a cluster game"),
])
def test_bad_cluster_files_are_one_clear_error(old, new, says):
    assert old in PLAIN
    with pytest.raises(SpecError) as err:
        parse_spec(PLAIN.replace(old, new, 1), "tiny.toml")
    text = str(err.value)
    assert says in text and text.startswith("tiny.toml: ") and "\n" not in text


def test_wild_multiplier_pays_in_the_cluster():
    g = game()
    m = g.model
    from reelforge.engine.clusters import find_clusters, new_buffers

    work = new_buffers(m)
    a, w, c = 0, 3, 2
    work.grid[:] = np.array([[a, a, w, c], [c, a, c, c], [c, c, a, c], [a, c, a, c]], dtype=np.int16)
    found, total = find_clusters(m, work.grid, work)
    # A: three A and the x2 wild, 10 x 2; C: six with the same wild, 2 x 2, and four apart, 2
    rows = sorted(tuple(int(x) for x in work.clusters[i]) for i in range(found))
    assert rows == [(a, 4, 1, 20, 2), (c, 4, 0, 2, 1), (c, 6, 1, 4, 2)]
    assert total == 26


def test_check_refuses_a_game_whose_tumbles_never_end_promptly():
    # Every refill is A, so the grid is one cluster of A after every tumble: no round ends
    # but at the engine's tumble guard. check must say so at the first round, not play
    # thousands of guard-long rounds in silence.
    from reelforge.engine.check import GameCheckFailed

    forever = PLAIN.replace(
        'strips = [["A", "B", "C", "A", "W"], ["B", "A", "C"], ["C", "C", "A", "B"], ["A", "B"]]',
        'strips = [["A"], ["A"], ["A"], ["A"]]')
    g = compile_game(parse_spec(forever, "forever.toml"))
    with pytest.raises(GameCheckFailed, match="round 0 .*guard"):
        check_game(g, rounds=2000)


def test_the_plain_base_stratum_plays_the_rounds_draws():
    # cluster_strata.base_stratum must play the round itself: on one stream it sees the hits,
    # largest win and capped rounds that whole rounds on the same stream see.
    from reelforge.engine.rng import chunk_generator

    g = game()
    seen = g.strata.base_stratum(g, chunk_generator(4, 0).bit_generator, 20_000, 10**9, 10**9)
    values, _bands, _squares = g.simulate(g.bet(bet_per_line=1), chunk_generator(4, 0), 20_000, [])
    assert seen["spins"] == values["rounds"] == 20_000
    assert (seen["hits"], seen["max_win"], seen["capped"]) == (
        values["hits"], values["max_win"], values["cap_hits"])
    assert seen["capped"] > 0 and g.strata.feature_classes(g) == {}


def test_estimate_works_on_a_plain_cluster_game_and_agrees_with_simulate(tmp_path):
    # analyze sends a cluster game file to estimate; estimate must take it. Its round is the
    # base spin, so the estimate is the base stratum's mean and CI, checked against an
    # independent plain Monte Carlo (other streams): their difference must lie within its
    # 95% CI, 1.96 sqrt(se_estimate^2 + se_simulate^2).
    from typer.testing import CliRunner

    from reelforge.cli import app

    path = tmp_path / "tiny.toml"
    path.write_text(PLAIN, encoding="utf-8")
    runner = CliRunner()
    refused = runner.invoke(app, ["analyze", str(path)])
    assert refused.exit_code == 2 and f"reelforge estimate {path}\n" in refused.output
    est = runner.invoke(app, ["estimate", str(path), "--ci", "0.03", "--seed", "5", "--workers",
                              "1", "--json"])
    assert est.exit_code == 0, est.output
    e = json.loads(est.output.strip().splitlines()[-1])
    sim = runner.invoke(app, ["simulate", str(path), "--rounds", "200000", "--seed", "6",
                              "--workers", "1", "--json"])
    assert sim.exit_code == 0, sim.output
    s = json.loads(sim.output.strip().splitlines()[-1])
    assert e["feature_rounds"] == {} and e["feature_frequency"] == 0 and e["bias_bound"] == 0
    assert e["rtp"] == e["rtp_base"]
    low, high = e["rtp_ci95"]
    assert low < e["rtp"] < high and high - low < 2 * 0.03
    combined = math.hypot(e["rtp_standard_error"], s["rtp_standard_error"])
    assert abs(e["rtp"] - s["rtp"]) <= 1.96 * combined, (e["rtp"], s["rtp"], combined)
    # the cap (50x) binds in about 1 round in 85: both must see the same share
    p = s["cap_hits"] / s["rounds"]
    assert abs(e["probability_cap"] - p) <= 1.96 * math.sqrt(p * (1 - p) / s["rounds"]
                                                             + p * (1 - p) / e["base_spins"])
    # and the table form runs too (no Free Spins row to divide by zero)
    table = runner.invoke(app, ["estimate", str(path), "--ci", "0.05", "--seed", "5",
                                "--workers", "1"])
    assert table.exit_code == 0 and "one stratum: the whole round" in table.output, table.output
