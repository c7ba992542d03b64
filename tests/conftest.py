"""Settings every test module shares, and the kernels compiled once before a whole-suite run."""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest
from hypothesis import settings

# A deadline measures the machine, not the code: the first example of a property often loads
# or compiles a numba kernel, and CI's two cores run two test workers and their servers.
settings.register_profile("reelforge", deadline=None)
settings.load_profile("reelforge")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Before a whole-suite run (`make test`: the arguments are pyproject's testpaths) on a
    machine whose numba cache is empty, as on a fresh CI clone, each process that meets a kernel
    first compiles it: both test workers and every `reelforge serve` and CLI child started
    meanwhile compile the same kernels side by side (Candy Jar's round alone is ~30 s of one
    core). Here, before any worker starts (xdist sets its workers up in its own, trylast,
    sessionstart), each game directory's kernels are compiled once, the directories spread
    over as many processes as the run has workers; every later process loads them from the
    cache (tenths of a second each). With a warm cache this costs the processes' start-up."""
    config = session.config
    if (hasattr(config, "workerinput") or config.option.collectonly
            or config.args_source is not pytest.Config.ArgsSource.TESTPATHS):
        return
    from kernel_warmup import warm_all  # tests/ is on sys.path: conftest's own folder

    from reelforge.errors import ReelforgeError

    # compiling is all CPU: no more processes than cores, whatever the workers
    slots = max(1, min(int(getattr(config.option, "numprocesses", None) or os.cpu_count() or 1),
                       os.cpu_count() or 1))
    started = time.monotonic()
    try:
        done, failed = warm_all(slots)
    except ReelforgeError:  # a broken game file: its tests say so, each in its own words
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"kernels compiled or loaded in {time.monotonic() - started:.0f} s, "
                            f"{slots} at a time: {', '.join(done)}")
        for line in failed:
            reporter.write_line(f"kernel warm-up failed: {line}")


# --- the order in which `--dist loadfile` hands files to the workers ---

# xdist sends whole files, most tests first (`--loadscope-reorder`, its default), so a file of
# few but long tests starts near the end and keeps one worker busy while the other has nothing
# left. These go first, in this order; the rest keep xdist's order. The seconds are the slowest
# tests of the last CI run (2 cores, before the warm-up above).
LONG_FILES = (
    "tests/server/test_recovery.py",  # 10 tests: every crash point 51 + 46 s, random kills
    "tests/test_candy.py",  # the stratified sample's set-up 87 s
    "tests/server/test_hostile.py",  # schemathesis 73 s (first anyway: 130 tests)
    # a server start (or two) each behind 1 or 2 tests: otherwise xdist's last three files
    "tests/server/test_model.py",
    "tests/server/test_backoffice_fleet.py",
    "tests/server/test_capacity.py",
)


def pytest_configure(config: pytest.Config) -> None:
    # xdist's own order (by number of tests) would undo the one set in modifyitems below
    if getattr(config.option, "dist", "no") == "loadfile":
        config.option.loadscopereorder = False


@pytest.hookimpl(optionalhook=True)  # an xdist hook: a run without xdist has no such hook
def pytest_configure_node(node) -> None:
    """Tells each worker that files are handed out whole: a worker's own `dist` is "no"."""
    node.workerinput["reelforge_loadfile"] = node.config.option.dist == "loadfile"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the workers of a `--dist loadfile` run only (a plain run keeps the files' order):
    LONG_FILES first, then the other files by their number of tests, most first (xdist's
    default). Every worker sorts the same collection the same way, as xdist requires."""
    if not getattr(config, "workerinput", {}).get("reelforge_loadfile"):
        return
    counts = Counter(item.nodeid.split("::")[0] for item in items)

    def rank(item: pytest.Item) -> tuple[int, int]:
        path = item.nodeid.split("::")[0]
        first = LONG_FILES.index(path) if path in LONG_FILES else len(LONG_FILES)
        return first, -counts[path]

    items.sort(key=rank)  # stable: a file's tests stay together and in their order
