"""CPU seconds to compile one game's kernels from an empty numba cache.

    NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=src .venv/bin/python benchmarks/compile_time.py GAME_ID

`make` the game, then time by `time.process_time()`, each in turn: its round (live play), the
bonus a gamble can win (where it has one) and the simulation loop (`play_rounds`). With an empty
cache this is the compile a fresh CI clone pays for that game; with a warm one, the load from
the cache. A measurement: it fails on no time.
"""

import sys
import time

import numpy as np


def main() -> None:
    started = time.process_time()
    from reelforge.analysis.montecarlo import play_rounds
    from reelforge.engine.rng import chunk_generator
    from reelforge.engine.round import bonus_starts, play_bonus, play_round
    from reelforge.games import make

    game = make(sys.argv[1])
    laps = [("import and make", time.process_time() - started)]

    def lap(name, run) -> None:
        begun = time.process_time()
        run()
        laps.append((name, time.process_time() - begun))

    lap("round", lambda: play_round(game, game.max_bet, np.random.Generator(np.random.PCG64(0))))
    starts = bonus_starts(game)
    if starts:
        lap("bonus", lambda: play_bonus(game, game.max_bet, starts[0],
                                        np.random.Generator(np.random.PCG64(0))))
    lap("simulation", lambda: play_rounds(game, game.bet(), chunk_generator(0, 0), 100))
    print(f"{sys.argv[1]}: " + ", ".join(f"{name} {s:.1f}" for name, s in laps) + " CPU s",
          flush=True)


if __name__ == "__main__":
    main()
