"""RNG evidence (`reelforge rng-report`): the ranges come from the games, the battery detects
bias, the live draws are the engine's, dieharder runs where installed, rounds do not adapt,
and every round's seed is 256 bits from the operating system."""

from __future__ import annotations

import itertools
import json
import os
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import reelforge.analysis  # noqa: F401 - the exact figures some game calls need
from reelforge.cli import app
from reelforge.engine import rng
from reelforge.evidence import adaptivity, dieharder, rng_battery, seeding, stat_tests
from reelforge.evidence.ranges import game_draws, inventory
from reelforge.games import make


# -- the ranges: derived from the models, checked here against the game files ---------------
def test_every_reel_of_a_line_game_is_one_range_read_from_its_file():
    game = make("cluedo-v1")
    found = {s.key: n for n, s in game_draws(game)}
    for rs in game.spec.reel_sets:
        for r, strip in enumerate(rs.strips):
            total = len(strip) if rs.weights is None else sum(rs.weights[r])
            kind = "strip length" if rs.weights is None else "stop weight total"
            assert found[f"[reels.{rs.name}] reel {r + 1}: {kind}"] == total
    assert found["[features.gamble] card colour (red/black)"] == 2


def test_cops_ranges_hold_its_parade_wheel_gamble_and_every_spin_chance_price():
    game = make("cops-n-robbers-v1")
    draws = game_draws(game)
    by_key = {s.key: n for n, s in draws}
    parade = dict(game.spec.features.parade)
    assert by_key["[features.trail_bonus.parade] weights (bert, sid, vic)"] == sum(
        parade[who] for who in ("bert", "sid", "vic"))
    prices = {c for option in game.bets() for _, c in option.costs}
    assert {n for n, s in draws if s.key.startswith("Spin Chance")} == prices
    assert 2**32 - 1 in {n for n, _ in draws}  # the bonus wheel's exact draw


def test_the_inventory_merges_equal_ranges_and_keeps_every_source():
    ids = ["cluedo-v1", "cluedo-94-v1"]
    ranges, _ = inventory(ids)
    assert [r.n for r in ranges] == sorted({r.n for r in ranges})
    assert sum(len(r.sources) for r in ranges) == sum(
        len(game_draws(make(i))) for i in ids)
    assert all(r.n >= 2 for r in ranges)


# -- the statistics -------------------------------------------------------------------------
@pytest.mark.parametrize("n,k", [(7, 7), (52080110, 700), (2**32 - 1, 999), (10, 3)])
def test_bins_partition_the_range_exactly(n, k):
    edges, widths = stat_tests.bins(n, k)
    assert edges[0] == 0 and edges[-1] == n and widths.sum() == n and (widths > 0).all()
    values = np.array([0, n - 1, edges[1] - 1, edges[1]], dtype=np.int64)
    assert list(stat_tests.bin_of(values, n, k)) == [0, k - 1, 0, 1]


def test_the_poker_law_equals_enumeration_over_unequal_bins():
    probs = np.array([Fraction(3, 10), Fraction(5, 10), Fraction(2, 10)])
    exact = [Fraction(0)] * 6
    for hand in itertools.product(range(3), repeat=5):
        p = Fraction(1)
        for c in hand:
            p *= probs[c]
        exact[len(set(hand))] += p
    law = stat_tests._distinct_law(probs.astype(float), 5)
    assert np.allclose(law, [float(x) for x in exact], atol=1e-12)


def _pcg(n: int, draws: int, seed: int = 3) -> np.ndarray:
    return np.random.Generator(np.random.PCG64(seed)).integers(0, n, draws)


def test_a_good_generator_passes_the_whole_battery():
    ranges, _ = inventory(["cluedo-v1"])
    report = rng_battery.run_battery(ranges, 30_000, source=lambda n, d: _pcg(n, d))
    summary = report["summary"]
    assert summary["verdict"] == "PASS", summary["failed"]
    assert summary["correction"] == "Bonferroni"
    assert summary["threshold"] == pytest.approx(0.01 / summary["tests"])
    assert summary["tests"] >= 5 * len(ranges)


def test_chi_square_fails_a_modulo_biased_generator():
    raw = np.random.Generator(np.random.PCG64(9)).integers(0, 256, 100_000)
    biased = raw % 100  # values 0..55 come up 3 times in 256, the others twice
    result = stat_tests.chi_square_uniformity(biased, 100)
    assert result.p_value < 1e-12
    unbiased = stat_tests.chi_square_uniformity(_pcg(100, 100_000), 100)
    assert unbiased.p_value > 1e-4


def test_each_test_catches_the_flaw_it_is_for():
    x = _pcg(10, 100_000)
    sticky = x.copy()
    repeat = np.random.Generator(np.random.PCG64(4)).random(x.size) < 0.2
    for i in np.flatnonzero(repeat[1:]) + 1:  # a value repeats the last one 20% of the time
        sticky[i] = sticky[i - 1]
    assert stat_tests.serial_pairs(sticky, 10).p_value < 1e-9
    assert stat_tests.runs_median(sticky, 10).p_value < 1e-9
    assert stat_tests.gaps(sticky, 10).p_value < 1e-9
    assert stat_tests.poker(sticky, 10).p_value < 1e-9
    clumped = np.sort(x.reshape(-1, 10), axis=1).ravel()  # sorted runs of ten
    assert stat_tests.runs_median(clumped, 10).p_value < 1e-9
    # birthday spacings: a generator whose low 12 bits are stuck at 0 (a coarse lattice)
    coarse = (_pcg(2**32 - 1, 3251 * 20) >> 12) << 12
    assert stat_tests.birthday_spacings(coarse, 2**32 - 1).p_value < 1e-9
    assert stat_tests.birthday_spacings(_pcg(2**32 - 1, 3251 * 20), 2**32 - 1).p_value > 1e-4


def test_the_battery_fails_a_biased_source():
    ranges, _ = inventory(["cluedo-v1"])
    def off_by_one(n, draws):
        x = _pcg(n, draws)
        x[x == n - 1] = 0  # the last stop never comes up
        return x
    assert rng_battery.run_battery(ranges[:3], 30_000, source=off_by_one)["summary"]["verdict"] == "FAIL"


# -- the live draws -------------------------------------------------------------------------
def test_live_draws_key_a_fresh_live_generator_per_block(monkeypatch):
    keys = []
    real = rng_battery.new_live_seed

    def counted():
        keys.append(real())
        return keys[-1]

    monkeypatch.setattr(rng_battery, "new_live_seed", counted)
    x = rng_battery.live_draws(37, 1000, per_key=256)
    assert len(keys) == 4 and len(set(keys)) == 4
    assert x.min() >= 0 and x.max() < 37
    # the first block is exactly the engine's draw_below on the first key
    first = rng.live_generator(keys[0])
    assert list(x[:20]) == [rng.draw_below(first.bit_generator, 37) for _ in range(20)]


def test_live_battery_gives_a_p_value_per_test():
    ranges, _ = inventory(["cluedo-v1"])
    report = rng_battery.run_battery(ranges[:2], 20_000)
    for row in report["ranges"]:
        assert {t["test"] for t in row["tests"]} >= {"chi-square uniformity", "serial pairs",
                                                      "runs above/below median", "gaps", "poker"}
        assert all(0 <= t["p_value"] <= 1 for t in row["tests"])


# -- dieharder ------------------------------------------------------------------------------
def test_dieharder_rows_are_parsed():
    text = ("#====#\n        test_name   |ntup| tsamples |psamples|  p-value |Assessment\n"
            "   diehard_birthdays|   0|       100|      20|0.51423577|  PASSED  \n"
            "         sts_serial|   5|    100000|      20|0.99700000|   WEAK   \n")
    rows = dieharder.parse(text)
    assert [r["test"] for r in rows] == ["diehard_birthdays", "sts_serial"]
    assert rows[1] == {"test": "sts_serial", "ntup": 5, "tsamples": 100000, "psamples": 20,
                       "p_value": 0.997, "assessment": "WEAK"}


@pytest.mark.skipif(dieharder.available() is None,
                    reason="dieharder is not installed (apt-get install -y dieharder)")
def test_dieharder_subset_passes_on_the_live_stream():
    result = dieharder.run(dieharder.TEST_SUBSET, 20, timeout=120)
    assert len(result["rows"]) >= len(dieharder.TEST_SUBSET)
    assert result["counts"]["FAILED"] == 0, result["rows"]


def test_dieharder_absent_is_a_plain_reason(monkeypatch):
    monkeypatch.setattr(dieharder, "available", lambda: None)
    assert "not installed" in dieharder.run()["skipped"]


# -- non-adaptivity -------------------------------------------------------------------------
def test_rounds_do_not_depend_on_balance_history_session_or_timing():
    result = adaptivity.run(["cops-n-robbers-v1"], rounds=100)
    conditions = {t["condition"] for t in result["tests"]}
    assert conditions == {"balance", "stake history", "previous result", "session",
                          "time between bets"}
    assert result["play_inputs"]["cops-n-robbers-v1"] == ["bet", "rng", "seed"]
    assert all(o["passed"] for o in result["offers"]), result["offers"]
    assert all(0 <= t["p_value"] <= 1 for t in result["tests"])


def test_homogeneity_detects_an_adaptive_game():
    fair = np.array([[500, 300, 200], [500, 300, 200]])
    adaptive = np.array([[500, 300, 200], [650, 250, 100]])  # fewer wins in the second group
    assert adaptivity.homogeneity(fair)[2] > 0.99
    assert adaptivity.homogeneity(adaptive)[2] < 1e-9


# -- seeding --------------------------------------------------------------------------------
def test_a_live_seed_is_32_bytes_of_os_urandom(monkeypatch):
    asked = []

    def fake(k):
        asked.append(k)
        return bytes(range(1, k + 1))

    monkeypatch.setattr(rng.os, "urandom", fake)
    seed = rng.new_live_seed()
    assert asked == [32]
    assert seed == int.from_bytes(bytes(range(1, 33)), "big")


def test_fresh_seeds_differ_and_fill_256_bits():
    a, b = rng.new_live_seed(), rng.new_live_seed()
    assert a != b
    sample = seeding.sample(2000)
    assert sample["distinct"] == 2000 and sample["below_2_256"]
    assert sample["largest_bit_length"] >= 250  # 2000 seeds: some reach the top bits
    assert 0.4 < sample["ones_share_min"] <= sample["ones_share_max"] < 0.6
    assert os.urandom is not None


def test_the_report_finds_the_servers_seeding_in_its_source():
    sites = seeding.call_sites()
    assert {s["file"] for s in sites} == set(seeding.SERVICES)
    assert all("new_live_seed()" in s["code"] for s in sites)


# -- the command ----------------------------------------------------------------------------
def test_rng_report_command_writes_markdown_and_json(tmp_path):
    out = tmp_path / "rng-report.md"
    result = CliRunner().invoke(app, ["rng-report", "--draws", "10000", "--rounds", "20",
                                      "--dieharder", "off", "--game", "cluedo-v1",
                                      "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    assert result.exit_code == (0 if data["verdict"] == "PASS" else 1), result.output
    text = out.read_text()
    assert "Bonferroni" in text and "Non-adaptivity" in text and "os.urandom" in text
    assert data["battery"]["draws_per_range"] == 10_000
    assert data["dieharder"]["skipped"].startswith("not asked")


def test_rng_report_refuses_an_unknown_game_and_too_few_draws():
    runner = CliRunner()
    assert runner.invoke(app, ["rng-report", "--game", "nope-v1"]).exit_code == 2
    assert runner.invoke(app, ["rng-report", "--draws", "100"]).exit_code == 2


# -- A1: the server's rounds draw from nothing but the live generator -----------------------
SEEDED = re.compile(r"\b(np\.random|numpy\.random|default_rng|PCG64|SeedSequence|"
                    r"chunk_generator|simulation_generators|keyed_generator)\b|"
                    r"^\s*(import random|from random import)", re.MULTILINE)


def test_the_server_draws_only_from_live_generators():
    server = Path(rng.__file__).resolve().parents[1] / "server"
    found = [f"{p.relative_to(server)}: {m.group(0)}" for p in sorted(server.rglob("*.py"))
             for m in SEEDED.finditer(p.read_text(encoding="utf-8"))]
    assert not found, "a seeded or non-cryptographic generator in the server:\n" + "\n".join(found)
    drawn = (server / "services" / "placement.py").read_text(encoding="utf-8")  # a bet's draw
    assert "live_generator(" in drawn and "new_live_seed()" in drawn
    assert SEEDED.search("rng = np.random.default_rng(5)")  # the check finds what it must
    assert SEEDED.search("import random\n")
