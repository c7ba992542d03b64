"""Randomness: exact uniformity of the bounded mapping, 53 exact bits, streams, live seeds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from randomgen import ChaCha

from reelforge.engine.rng import (
    SEED_BITS,
    chunk_generator,
    draw_below,
    lemire_map,
    live_generator,
    new_live_seed,
    simulation_generators,
)


@pytest.mark.slow
@pytest.mark.parametrize("bits", [4, 8, 12])
def test_bounded_mapping_is_exactly_uniform_over_every_input(bits):
    # Enumerate every `bits`-bit input: each output must be hit by the same number of
    # accepted inputs, for every bound n the width allows.
    for n in range(1, 2**bits):
        hits = np.zeros(n, dtype=np.int64)
        for x in range(2**bits):
            accepted, value = lemire_map(x, n, bits)
            if accepted:
                hits[value] += 1
        assert (hits == hits[0]).all(), (bits, n, hits)
        assert hits[0] == 2**bits // n


@pytest.mark.parametrize("make", [lambda: np.random.Generator(np.random.PCG64(7)),
                                  lambda: np.random.Generator(ChaCha(key=12345, rounds=20))])
def test_random_doubles_carry_53_exact_bits(make):
    x = make().random(200_000) * 2.0**53
    assert (x == np.floor(x)).all()
    # the low bit is a fair coin: a float-scaled or truncated source would pin it
    low = (x.astype(np.uint64) & np.uint64(1)).mean()
    assert abs(low - 0.5) < 5 * 0.5 / np.sqrt(len(x))


@pytest.mark.slow
def test_draw_below_chi_square_on_a_reel_length():
    n, draws = 37, 370_000
    bits = chunk_generator(11, 0).bit_generator
    counts = np.bincount([draw_below(bits, n) for _ in range(draws)], minlength=n)
    expected = draws / n
    chi2 = ((counts - expected) ** 2 / expected).sum()
    # 36 degrees of freedom: the 99.9% quantile is 67.99
    assert chi2 < 67.99


@given(st.integers(0, 2**SEED_BITS - 1))
@settings(max_examples=25, deadline=None)
def test_live_seed_replays_the_same_stream(seed):
    a, b = live_generator(seed).bit_generator, live_generator(seed).bit_generator
    assert [draw_below(a, 1000) for _ in range(20)] == [draw_below(b, 1000) for _ in range(20)]


def test_live_seeds_are_256_bits_and_fresh():
    seeds = {new_live_seed() for _ in range(64)}
    assert len(seeds) == 64
    assert all(0 <= s < 2**SEED_BITS for s in seeds)
    with pytest.raises(ValueError, match="256-bit"):
        live_generator(2**SEED_BITS)


def test_chunk_streams_equal_spawned_streams_and_differ_from_each_other():
    spawned = simulation_generators(99, 4)
    for i, g in enumerate(spawned):
        assert g.random() == chunk_generator(99, i).random()
    firsts = {chunk_generator(99, i).random() for i in range(50)}
    assert len(firsts) == 50
