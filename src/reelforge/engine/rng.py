"""Randomness: ChaCha20 for live rounds, SeedSequence streams for simulation, unbiased draws.

Every draw in the engine goes through `draw_below`, which takes 32 uniform bits and maps them
to [0, n) with Lemire's multiply-shift and rejection, so no residue is favoured. The 32 bits
come from the bit generator's `next_double`, what numba's `Generator.random()` is: numpy's
and randomgen's bit generators build that double as `(next_uint64 >> 11) * 2**-53`, so
multiplying by 2**53 recovers 53 exact random bits (checked by `tests/test_rng.py`). We take
that path because numba's `Generator.random` is about four times faster than its
`Generator.integers`.

Kernels take the bit generator (`rng.bit_generator`), not the Generator: numba unboxes a
Generator into a reference only its refcounting runtime releases, and kernels run without it
(engine/jit.py), so each call would leak the Generator (one per live round). A bit generator
is unboxed borrowed. Python-level APIs (`play`, `simulate`, choice steps) take Generators.
"""

from __future__ import annotations

import os

import numba
import numpy as np
from numba.np.random.generator_core import next_double
from randomgen import ChaCha

TWO_POW_53 = 9007199254740992.0
SEED_BITS = 256


# numba's type stubs do not list its private `_nrt` flag (see lines.py), hence the ignores.
@numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def lemire_map(x, n, bits):
    """Map a uniform `bits`-bit integer x to [0, n): (accepted, value).

    Lemire's multiply-shift keeps x when the low word of x*n is at least 2**bits mod n; the
    kept x values fall on every output exactly floor(2**bits / n) times, so a rejected x is
    simply redrawn. `tests/test_rng.py` checks that count exhaustively at small widths.
    """
    m = np.uint64(x) * np.uint64(n)
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    low = m & mask
    if low < np.uint64(n):
        threshold = (mask + np.uint64(1) - np.uint64(n)) % np.uint64(n)
        if low < threshold:
            return False, np.int64(0)
    return True, np.int64(m >> np.uint64(bits))


@numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def draw_below(bits, n):
    """Unbiased integer in [0, n) for 1 <= n < 2**32, from a bit generator `bits`."""
    while True:
        bits53 = np.uint64(next_double(bits) * TWO_POW_53)
        accepted, value = lemire_map(bits53 >> np.uint64(21), n, 32)  # top 32 of 53 bits
        if accepted:
            return value


def draw(rng: np.random.Generator, n: int) -> int:
    """A draw in [0, n) made in Python (a choice step's: a gamble's card, a wheel, Spin
    Chance): `draw_below` on the Generator's bit generator, as kernels take it."""
    return int(draw_below(rng.bit_generator, n))


def new_live_seed() -> int:
    """256 bits from the kernel's CSPRNG: the whole key of one live round."""
    return int.from_bytes(os.urandom(SEED_BITS // 8), "big")


def live_generator(seed: int) -> np.random.Generator:
    """ChaCha20 keyed directly with the round's 256-bit seed, counter 0: replayable by seed."""
    if not 0 <= seed < 2**SEED_BITS:
        raise ValueError(f"live seed {seed!r} is not a {SEED_BITS}-bit integer")
    return np.random.Generator(ChaCha(key=seed, counter=0, rounds=20))


def simulation_generators(seed: int, n_streams: int) -> list[np.random.Generator]:
    """Independent streams for simulation chunks: SeedSequence(seed).spawn(n), one PCG64 each."""
    children = np.random.SeedSequence(seed).spawn(n_streams)
    return [np.random.Generator(np.random.PCG64(child)) for child in children]


def chunk_generator(seed: int, chunk_index: int) -> np.random.Generator:
    """The stream of one simulation chunk, identical to `simulation_generators(seed, n)[i]`."""
    return keyed_generator(seed, chunk_index)


def keyed_generator(seed: int, *key: int) -> np.random.Generator:
    """The stream of SeedSequence(seed, spawn_key=key): `chunk_generator(seed, i)` is key (i,);
    the stratified estimate's chunks use (stratum stream, i), disjoint from those."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))
