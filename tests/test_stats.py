"""Stats merge: associative, commutative, with an empty identity; figures from exact sums."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from reelforge.analysis.stats import BAND_EDGES_X, Stats

BET = 100
n_bands = len(BAND_EDGES_X) + 1


@st.composite
def stats(draw):
    wins = draw(st.lists(st.integers(0, 10**6), max_size=30))
    bands = [0] * n_bands
    for w in wins:
        bands[min(1 + sum(w >= e * BET for e in BAND_EDGES_X[1:]), n_bands - 1) if w else 0] += 1
    return Stats(
        total_bet=BET, rounds=len(wins), total_win=sum(wins), win_squares=sum(w * w for w in wins),
        hits=sum(w > 0 for w in wins), max_win=max(wins, default=0), bands=tuple(bands),
        feature_triggers=draw(st.integers(0, 5)), feature_win=draw(st.integers(0, 10**6)),
    )


@given(stats(), stats(), stats())
def test_merge_is_associative(a, b, c):
    assert a.merge(b).merge(c) == a.merge(b.merge(c))


@given(stats(), stats())
def test_merge_is_commutative(a, b):
    assert a.merge(b) == b.merge(a)


@given(stats())
def test_empty_is_the_identity(a):
    assert Stats.empty().merge(a) == a
    assert a.merge(Stats.empty()) == a


@given(st.lists(st.integers(0, 10**5), min_size=2, max_size=40))
def test_figures_match_a_direct_computation(wins):
    s = Stats(total_bet=BET, rounds=len(wins), total_win=sum(wins), win_squares=sum(w * w for w in wins))
    xs = [w / BET for w in wins]
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    assert math.isclose(s.rtp, mean, rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(s.standard_deviation, sd, rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(s.rtp_standard_error, sd / math.sqrt(len(xs)), rel_tol=1e-9, abs_tol=1e-12)


def test_stats_at_different_bets_refuse_to_merge():
    a, b = Stats(total_bet=100, rounds=1), Stats(total_bet=20, rounds=1)
    try:
        a.merge(b)
    except ValueError as exc:
        assert "100" in str(exc) and "20" in str(exc)
    else:
        raise AssertionError("merge of different bets must fail")


@settings(deadline=None)  # the first example loads or compiles the kernel: no time to hold it to
@given(st.lists(st.integers(0, 2**63 - 1), max_size=20))
def test_the_kernels_128_bit_square_sum_is_exact(wins):
    import numpy as np

    from reelforge.engine.counters import add_square

    acc = np.zeros(2, dtype=np.uint64)
    for w in wins:
        add_square(acc, w)
    assert (int(acc[1]) << 64 | int(acc[0])) == sum(w * w for w in wins) % 2**128
