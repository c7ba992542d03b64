"""The compilation flags every line-family and ways kernel uses (`kernel`, `inline_kernel`)."""

from __future__ import annotations

import numba

# Kernels compile without numba's reference-counting runtime (`_nrt=False`): with it, every
# read of an array field of the Model inside a branchy loop costs an atomic incref/decref
# pair, which made a round about 9x slower. So kernels never allocate: callers pass every
# buffer. The per-spin helpers are also inlined at numba's IR level: a call that is not
# inlined copies the whole Model struct (about 200 words), which cost more than drawing the
# window. Figures in benchmarks/RESULTS.md. `_nrt` is private, so numba's type stubs do not
# list it: hence the narrow ignores.
#
# A call from one kernel to another that is not inlined compiles the callee for the argument
# types of that call, and numba types a constant argument (`0`, `False`) as a literal of its own
# value: each distinct constant compiles the whole callee again (tens of CPU seconds for a
# round). Such calls pass `np.int64(0)`, `np.bool_(False)`: the types a call from Python has.
kernel = numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]
inline_kernel = numba.njit(cache=True, _nrt=False, inline="always")  # type: ignore[call-overload]

