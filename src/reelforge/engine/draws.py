"""Many bounded draws at once, for the RNG evidence (`reelforge rng-report`).

`fill_below` calls the engine's own `rng.draw_below` in a loop, so the battery tests the very
mapping a round uses (Lemire's multiply-shift with rejection over 32 of the 53 bits of
`next_double`), not a re-implementation of it.
"""

from __future__ import annotations

import numba

from reelforge.engine.rng import draw_below


@numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def fill_below(bits, n, out):
    """out: (k,) int64 filled with k successive draw_below(bits, n), 1 <= n < 2**32."""
    for i in range(out.shape[0]):
        out[i] = draw_below(bits, n)
