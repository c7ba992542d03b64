"""Full rounds per CPU-second of one game, for a crowded machine where wall-clock rates
(`reelforge bench`) mostly measure the queue for a core.

    PYTHONPATH=src .venv/bin/python benchmarks/cpu_rate.py GAME_ID [ROUNDS]

Loads the kernels with 1,000 rounds, then times 3 x ROUNDS (default 1e6) rounds at max bet
on chunk streams 1..3 by `time.process_time()` (and, beside it, the wall clock); prints the
medians and the three CPU-time rates. Time a reference game in the same minute: contention
for caches still slows the CPU-time rate a little.
"""

import statistics
import sys
import time

from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.rng import chunk_generator
from reelforge.games import make


def main() -> None:
    game = make(sys.argv[1])
    bet = game.bet()
    n = int(float(sys.argv[2])) if len(sys.argv) > 2 else 1_000_000
    play_rounds(game, bet, chunk_generator(0, 0), 1000)
    rates = []
    for i in range(3):
        rng = chunk_generator(i + 1, 0)
        cpu, wall = time.process_time(), time.perf_counter()
        play_rounds(game, bet, rng, n)
        rates.append((n / (time.process_time() - cpu), n / (time.perf_counter() - wall)))
    print(f"{game.id}: {statistics.median(r[0] for r in rates):,.0f} rounds per CPU-second, "
          f"{statistics.median(r[1] for r in rates):,.0f} per wall-clock second (medians of 3 x "
          f"{n:,}); CPU: {' / '.join(f'{r[0]:,.0f}' for r in rates)}")


if __name__ == "__main__":
    main()
