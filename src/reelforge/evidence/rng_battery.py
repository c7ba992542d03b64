"""The scaled-output battery: every bounded range of the shipped games, drawn live, tested.

Draws come from the live generator exactly as a round makes them: ChaCha20 keyed by a fresh
256-bit seed from the operating system (`rng.new_live_seed`, `rng.live_generator`), then the
engine's own `draw_below` (`engine.draws.fill_below`). Each key gives `per_key` draws (a
round's worth, from counter 0) before the next fresh key, so the stream tested is the one live
rounds see: the first draws of many independently keyed streams.

The battery's level: 99% collectively (GLI-19 §3.2.2). The correction is Bonferroni: each of
the T p-values is compared with 0.01 / T, so the chance that a perfect generator fails any
test is at most 1%. A biased source fails it (tests/test_rng_report.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from reelforge.engine.draws import fill_below
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.evidence.ranges import DrawRange
from reelforge.evidence.stat_tests import TestResult, battery

CONFIDENCE = 0.99
PER_KEY = 256  # draws per fresh key: about what one round draws
DEFAULT_DRAWS = 200_000


def live_draws(n: int, draws: int, per_key: int = PER_KEY) -> np.ndarray:
    """`draws` values of draw_below(rng, n), a fresh live seed every `per_key` draws."""
    out = np.empty(draws, dtype=np.int64)
    for start in range(0, draws, per_key):
        fill_below(live_generator(new_live_seed()).bit_generator, n, out[start:start + per_key])
    return out


def bonferroni(results: list[TestResult], confidence: float = CONFIDENCE) -> dict:
    """The battery's verdict: PASS unless some p-value is below (1 - confidence) / T."""
    count = len(results)
    threshold = (1 - confidence) / count if count else 0.0
    failed = [r for r in results if r.p_value < threshold]
    low = min(results, key=lambda r: r.p_value) if results else None
    return {"tests": count, "confidence": confidence, "correction": "Bonferroni",
            "threshold": threshold, "verdict": "FAIL" if failed else "PASS",
            "failed": [r.to_dict() for r in failed],
            "smallest_p": None if low is None else low.p_value,
            "below_0.01": sum(r.p_value < 0.01 for r in results)}


def run_battery(ranges: list[DrawRange], draws: int = DEFAULT_DRAWS, per_key: int = PER_KEY,
                source: Callable[[int, int], np.ndarray] | None = None,
                advance: Callable[[float], None] | None = None) -> dict:
    """Every test on every range; `source(n, draws)` replaces the live draws (tests give it
    a biased generator)."""
    start = time.perf_counter()
    rows, every = [], []
    for r in ranges:
        x = source(r.n, draws) if source is not None else live_draws(r.n, draws, per_key)
        results = battery(x, r.n)
        every += results
        rows.append({**r.to_dict(), "tests": [t.to_dict() for t in results]})
        if advance is not None:
            advance(1)
    return {"draws_per_range": draws, "per_key": per_key, "ranges": rows,
            "summary": bonferroni(every), "seconds": time.perf_counter() - start}
