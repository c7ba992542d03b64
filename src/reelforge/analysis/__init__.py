"""Analysis: exact figures, Monte Carlo statistics, reports. Imports the engine, never numba."""
