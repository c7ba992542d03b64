"""Rounds/s of one tree's `play_rounds` on one stream at BET MAX in a mode: median and best of
5 timed runs (compile excluded), and the total win, so two trees run back to back can be
compared for speed and for identical play.
  python benchmarks/compare_trees.py GAME_ID ROUNDS MODE
  PYTHONPATH=/path/to/other/checkout/src python benchmarks/compare_trees.py GAME_ID ROUNDS MODE
"""
import statistics
import sys
import time

import reelforge
from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.rng import chunk_generator
from reelforge.games import make

game_id, n, mode = sys.argv[1], int(float(sys.argv[2])), sys.argv[3]
game = make(game_id)
bet = game.bet(mode=mode)
play_rounds(game, bet, chunk_generator(99, 0), 20_000)
times = []
for seed in range(1, 6):
    t = time.perf_counter()
    stats = play_rounds(game, bet, chunk_generator(seed, 0), n)
    times.append(time.perf_counter() - t)
print(f"{reelforge.__file__.split('/src/')[0]:11s} {game_id}/{mode} {n:.0e}: median {n / statistics.median(times) / 1e3:.0f}k/s best {n / min(times) / 1e3:.0f}k/s total_win {stats.total_win}")
