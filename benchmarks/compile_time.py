"""CPU seconds to compile one game's round kernels from an empty numba cache.

    NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=src .venv/bin/python benchmarks/compile_time.py GAME_ID

`make` the game, then `engine.round.warmup` (the round, and the bonus a gamble can win), timed
by `time.process_time()`. With an empty cache this is the compile a fresh CI clone pays for
that game's round; with a warm one, the load from the cache. A measurement: it fails on no time.
"""

import sys
import time


def main() -> None:
    started = time.process_time()
    from reelforge.engine.round import warmup
    from reelforge.games import make

    game = make(sys.argv[1])
    made = time.process_time()
    warmup(game)
    print(f"{sys.argv[1]}: import and make {made - started:.1f} CPU s, "
          f"round kernels {time.process_time() - made:.1f} CPU s", flush=True)


if __name__ == "__main__":
    main()
