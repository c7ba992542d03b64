"""Debian's `dieharder` on the live generator's raw stream, where it is installed.

The stream: the 64-bit words of ChaCha20 (`live_generator(...).bit_generator.random_raw`),
a fresh 256-bit key from the operating system for every MiB, written to dieharder's standard
input (`-g 200`, stdin_input_raw). `dieharder -d` runs one test per call, so a battery is a
loop. SUBSET, at `-p 20`, is the standards note's list less marsaglia_tsang_gcd (17: 70 s
alone here) and the rgb tests that need `-n`: about 35 s in all on two cores. TEST_SUBSET,
four tests of a few seconds, is the test suite's. FULL is `-a`, every test (more than 25
minutes on two cores: a documented longer run, never in the suite). dieharder's own verdicts
are kept: PASSED, WEAK (p in the outer 0.5% of either tail: expected now and then among many
p-values; rerun with `-Y 1`), FAILED.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time

from reelforge.engine.rng import live_generator, new_live_seed

SUBSET = (0, 1, 2, 3, 8, 10, 15, 100, 101, 102)
TEST_SUBSET = (0, 8, 15, 100)
SUBSET_PSAMPLES = 20
BLOCK = 1 << 20  # bytes per fresh key
FULL_COMMAND = "reelforge rng-report --dieharder full   # dieharder -g 200 -a on the live stream"
VERDICTS = ("PASSED", "WEAK", "FAILED")


def available() -> str | None:
    """The dieharder program's path, or None."""
    return shutil.which("dieharder")


def _feed(pipe) -> None:
    try:
        while True:
            pipe.write(live_generator(new_live_seed()).bit_generator.random_raw(BLOCK // 8)
                       .tobytes())
    except (BrokenPipeError, ValueError, OSError):
        pass
    finally:
        try:
            pipe.close()
        except OSError:
            pass


def parse(text: str) -> list[dict]:
    """dieharder's result rows: test, ntup, tsamples, psamples, p-value, assessment."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 6 and cells[5] in VERDICTS:
            rows.append({"test": cells[0], "ntup": int(cells[1]), "tsamples": int(cells[2]),
                         "psamples": int(cells[3]), "p_value": float(cells[4]),
                         "assessment": cells[5]})
    return rows


def run_one(args: list[str], timeout: float) -> tuple[list[dict], str]:
    """One dieharder call on the live stream: (rows, the command)."""
    program = available()
    if program is None:
        raise FileNotFoundError("dieharder is not installed")
    command = [program, "-g", "200", *args]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    feeder = threading.Thread(target=_feed, args=(proc.stdin,), daemon=True)
    feeder.start()
    # not communicate(): it would close the standard input the feeder writes to
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        out = proc.stdout.read()  # type: ignore[union-attr]
        proc.wait()
    finally:
        timer.cancel()
    feeder.join(timeout=5)
    return parse(out.decode(errors="replace")), "dieharder " + " ".join(command[1:])


def run(tests: tuple[int, ...] | None = SUBSET, psamples: int | None = SUBSET_PSAMPLES,
        timeout: float = 600.0) -> dict:
    """A subset (one call per test id), or every test (`tests=None`: `-a`); a plain reason
    where dieharder is absent."""
    if available() is None:
        return {"skipped": "dieharder is not installed (apt-get install -y dieharder)"}
    start = time.perf_counter()
    rows, commands = [], []
    calls = [["-a"]] if tests is None else [["-d", str(d)] for d in tests]
    for args in calls:
        found, command = run_one(args + ([] if psamples is None else ["-p", str(psamples)]),
                                 timeout)
        rows += found
        commands.append(command + " < live ChaCha20 stream")
    counts = {v: sum(r["assessment"] == v for r in rows) for v in VERDICTS}
    return {"rows": rows, "counts": counts, "commands": commands,
            "seconds": time.perf_counter() - start,
            "stream": "ChaCha20 raw 64-bit words, a fresh 256-bit os.urandom key per MiB",
            "full_command": FULL_COMMAND}
