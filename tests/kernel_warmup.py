"""Compile (or load from numba's cache) the kernels of the shipped games in one directory:
`python tests/kernel_warmup.py cluedo`; or of every shipped game, one process per game
directory, as many at a time as there are cores: `python tests/kernel_warmup.py --all` (`make
test` runs it beside the client's install and build; conftest.py's `pytest_sessionstart` runs
`warm_all` before a whole-suite run, loading what is already compiled in seconds).

What a game server does at start (`engine.round.warmup`: the round and the bonus a gamble can
win), the simulation loop (`play_rounds`: Monte Carlo runs, the CLI's simulate), then the
game's exact analysis figures where it has them (its maximum win, its RTP), whose
kernels the analysis tests and every server's first lobby request use, and a cluster game's
stratified estimate of one spin per stratum (the estimate tests' kernels).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def warm(directory: str) -> None:
    from reelforge.analysis.montecarlo import play_rounds
    from reelforge.analysis.stratified import estimate
    from reelforge.engine.rng import chunk_generator
    from reelforge.engine.round import warmup
    from reelforge.errors import ReelforgeError
    from reelforge.games import make, shipped_games

    first = time.process_time()
    ids = [game_id for game_id, path in shipped_games().items() if path.parent.name == directory]
    for game_id in ids:
        started = time.process_time()
        game = make(game_id)
        warmup(game)
        # a directory's variants share their kernels: the figures once, for their kernels
        for figure in (game.max_win, game.rtp) if game_id == ids[0] else ():
            try:
                figure()
            except ReelforgeError:  # a game without that figure (no exact analysis)
                pass
        if game_id == ids[0]:  # the simulation loop, its own kernel (play_rounds, simulate)
            play_rounds(game, game.max_bet, chunk_generator(1, 0), 10)
        strata = getattr(game, "strata", None)
        if strata is not None and game_id == ids[0]:  # a cluster game's stratified estimate
            estimate(game_id, base_spins=1, workers=1,
                     feature_rounds=dict.fromkeys(strata.feature_classes(game), 1))
        print(f"{game_id}: {time.process_time() - started:.1f} s CPU", flush=True)
    print(f"{directory} {time.process_time() - first:.0f} s CPU")  # conftest shows this line


def warm_all(slots: int) -> tuple[list[str], list[str]]:
    """Every shipped game directory warmed in its own process, `slots` at a time, the game
    packages with kernels of their own first (the longest compiles start first). Returns each
    directory's summary line and each failure (a broken game: its own tests say what is wrong)."""
    from reelforge.games import shipped_games

    directories = sorted({p.parent for p in shipped_games().values()},
                         key=lambda d: (not (d / "kernel.py").is_file(), d.name))
    waiting = [d.name for d in directories]
    running: list[tuple[str, subprocess.Popen]] = []
    failed: list[str] = []
    done: list[str] = []
    while waiting or running:
        while waiting and len(running) < slots:
            name = waiting.pop(0)
            running.append((name, subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), name], stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True)))
        time.sleep(0.2)  # a few lines of output each: no pipe fills meanwhile
        for name, process in [r for r in running if r[1].poll() is not None]:
            running.remove((name, process))
            output, _ = process.communicate()
            if process.returncode != 0:
                failed.append(f"{name}: {output.strip()[-500:]}")
            else:
                done.append(output.strip().splitlines()[-1])
    return done, failed


if __name__ == "__main__":
    if sys.argv[1:] == ["--all"]:
        started = time.monotonic()
        done, failed = warm_all(os.cpu_count() or 1)
        print(f"kernels compiled or loaded in {time.monotonic() - started:.0f} s: "
              f"{', '.join(done)}")
        for line in failed:  # not fatal here: the suite's tests of that game say what is wrong
            print(f"kernel warm-up failed: {line}")
    else:
        for name in sys.argv[1:]:
            warm(name)
