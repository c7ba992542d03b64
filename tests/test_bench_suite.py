"""`make bench`'s Candy rows (issue 11): they printed "n/a (InvalidArgument)" in the exact
column, because a cluster game has no exact analysis. The row function itself, on a tiny
workload: every column measured, the exact column "-" and no "n/a (...)" anywhere."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[1] / "benchmarks" / "suite.py"


@pytest.fixture(scope="module")
def suite():
    spec = importlib.util.spec_from_file_location("bench_suite", SUITE)
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)  # it puts benchmarks/ on sys.path for exact_timing
    finally:
        sys.path[:] = saved
    return module


@pytest.mark.parametrize("game_id", ["candy-jar-clusters-v1", "candy-jar-clusters-94-v1"])
def test_a_candy_row_measures_every_column_and_prints_no_n_a(suite, game_id):
    steps = []
    row = suite.measure(game_id, 2000, 1, 1, None, steps.append)
    assert row["exact"] == "-"
    assert not any("n/a" in str(v) for v in row.values()), row
    assert row["one"] > 0 and row["all"] > 0 and row["efficiency"] > 0
    assert len(steps) == 4  # one untimed and one timed run, on one core and on the pool
