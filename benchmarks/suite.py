"""Benchmark suite (`make bench`): one table, one row per shipped game, plus the exact time of
the 38 conformance figures. Medians of repeats; a measurement, never a test: it fails on no
time.
  .venv/bin/python benchmarks/suite.py [--rounds 2e6] [--repeats 5] [--no-dask] [--game ID ...]

Columns:
  one core        full rounds/s of `play_rounds` on one stream (compile excluded);
  all cores       `simulate` over a process pool of one worker per core, `rounds` x cores
                  rounds in chunks of DEFAULT_CHUNK (pool start and merging included);
  efficiency      all-cores rate / (cores x one-core rate);
  Dask local      the same run on a warm Dask LocalCluster of one worker process per core;
  exact           `reelforge.analysis.exact.analyze` at max bet, warm; a cluster game has
                  none (its RTP is a stratified estimate, `reelforge estimate`): "-".
On a terminal a bar per game counts the timed runs on stderr (between timings, never inside
one); piped, the output is the table alone.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

from reelforge.analysis.capabilities import exact_available
from reelforge.analysis.distributed import local_client
from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import DEFAULT_CHUNK, play_rounds, simulate
from reelforge.engine.rng import chunk_generator
from reelforge.errors import ReelforgeError
from reelforge.games import make, shipped_games
from reelforge.progress import bars

sys.path.insert(0, str(Path(__file__).parent))
from exact_timing import ROOT as CONFORMANCE


def median_time(work: Callable[[], object], repeats: int, step: Callable[[float], None]) -> float:
    """Median seconds of `repeats` runs of `work` after one untimed (compile, cache, pool);
    `step` is told of each run after its timing has stopped."""
    work()
    step(1)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
        step(1)
    return statistics.median(times)


def conformance_games():
    import tomllib

    from reelforge.engine.game import LineGame
    from reelforge.spec import load_spec

    published = tomllib.loads((CONFORMANCE / "published.toml").read_text())
    return [LineGame.from_spec(load_spec(CONFORMANCE / e["file"])) for e in published.values()]


def measure(game_id: str, rounds: int, repeats: int, cores: int, client,
            step: Callable[[float], None]) -> dict:
    game = make(game_id)
    bet = game.max_bet
    row: dict = {"game": game_id}
    seeds = iter(range(1, 10**6))
    one = median_time(lambda: play_rounds(game, bet, chunk_generator(next(seeds), 0), rounds), repeats,
                      step)
    row["one"] = rounds / one
    total = rounds * cores
    pool = median_time(lambda: simulate(game_id, bet, total, next(seeds), DEFAULT_CHUNK, workers=cores),
                       repeats, step)
    row["all"] = total / pool
    row["efficiency"] = row["all"] / (cores * row["one"])
    if client is not None:
        dask = median_time(lambda: simulate(game_id, bet, total, next(seeds), DEFAULT_CHUNK,
                                            cluster=client), repeats, step)
        row["dask"] = total / dask
    # A cluster game has no exact analysis (tumbles refill the grid): asking for one raised
    # InvalidArgument, which this column used to print as "n/a (InvalidArgument)".
    if not exact_available(game):
        row["exact"] = "-"
        return row
    try:
        row["exact"] = f"{median_time(lambda: analyze(game, bet), repeats, step):.3f}"
    except ReelforgeError as exc:  # a line game whose analysis refuses: say why
        row["exact"] = f"n/a: {exc}"
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=float, default=2e6, help="rounds per core per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster column")
    parser.add_argument("--game", action="append", choices=sorted(shipped_games()),
                        help="only this shipped game (repeatable; default: every one)")
    args = parser.parse_args()
    rounds, repeats, cores = int(args.rounds), args.repeats, os.cpu_count() or 1
    load_before = os.getloadavg()[0]

    with contextlib.ExitStack() as stack:
        progress = stack.enter_context(bars())
        client = None if args.no_dask else stack.enter_context(local_client(cores))
        ids = args.game or list(shipped_games())
        rows = [measure(game_id, rounds, repeats, cores, client,
                        progress(f"{i}/{len(ids)} {game_id}", None, "timed runs"))
                for i, game_id in enumerate(ids, 1)]
        games = conformance_games()
        conformance = median_time(lambda: [analyze(g) for g in games], repeats,
                                  progress(f"{len(games)} conformance figures, exact", None, "timed runs"))

    print(f"reelforge benchmark suite: {cores} cores ({platform.machine()}), Python "
          f"{platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}; "
          f"max bet; median of {repeats}; {rounds:,} rounds per core per repeat; load average "
          f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after (other work shares the cores)")
    head = ["game", "one core (rounds/s)", f"all {cores} cores, pool (rounds/s)", "scaling efficiency",
            f"Dask local, {cores} workers (rounds/s)", "exact analysis (s)"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for r in rows:
        dask = f"{r['dask']:,.0f}" if "dask" in r else "-"
        print(f"| {r['game']} | {r['one']:,.0f} | {r['all']:,.0f} | {r['efficiency']:.0%} | {dask} "
              f"| {r['exact']} |")
    print(f"| {len(games)} conformance figures (exact, together) | - | - | - | - | {conformance:.3f} |")
    if any(r["exact"] == "-" for r in rows):
        print("\nexact analysis \"-\": a cluster game has none; its RTP is a stratified estimate "
              "(`reelforge estimate`, see benchmarks/RESULTS.md for its times)")


if __name__ == "__main__":
    main()
