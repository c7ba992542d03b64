"""Times the exact analyser: Cluedo (base, capped free games, jackpot) and all 38 conformance
figures. Median of 5 warm runs each, after one run that loads numba's cache.
  .venv/bin/python benchmarks/exact_timing.py
"""

import statistics
import time
import tomllib
from pathlib import Path

from reelforge.analysis.exact import analyze
from reelforge.engine.game import LineGame
from reelforge.games import make
from reelforge.spec import load_spec

ROOT = Path(__file__).parents[1] / "conformance"


def median_seconds(work, repeats=5):
    work()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    cluedo = make("cluedo-v1")
    published = tomllib.loads((ROOT / "published.toml").read_text())
    games = [LineGame.from_spec(load_spec(ROOT / e["file"])) for e in published.values()]
    print(f"cluedo-v1 exact analysis: {median_seconds(lambda: analyze(cluedo)):.3f} s (median of 5)")
    total = median_seconds(lambda: [analyze(g) for g in games])
    print(f"38 conformance figures: {total:.3f} s together (median of 5; game files parsed once)")


if __name__ == "__main__":
    main()
