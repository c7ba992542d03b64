"""Settings every test module shares."""

from hypothesis import settings

# A deadline measures the machine, not the code: the first example of a property often loads
# or compiles a numba kernel, and CI's two cores run two test workers and their servers.
settings.register_profile("reelforge", deadline=None)
settings.load_profile("reelforge")
