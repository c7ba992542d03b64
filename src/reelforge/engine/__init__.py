"""Mechanism: compiled models, numba kernels, the round function. Only this package imports numba."""
