"""Monte Carlo: chunks of rounds on independent streams, over processes, merged exactly.

Chunk i of a run with seed S always plays on `chunk_generator(S, i)` (SeedSequence spawn key
i), so a run is reproducible from (seed, chunk size) whatever the number of workers: the
merge of integer Stats is exact. Workers receive the game reference (an id or a file path),
load and compile it themselves, and return Stats.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from reelforge.analysis.stats import BAND_EDGES_X, Stats
from reelforge.engine.lines import SIM_FIELDS, TAPE_WIDTH, simulate_kernel
from reelforge.engine.outcome import Bet
from reelforge.engine.rng import chunk_generator
from reelforge.engine.round import check_bet, jackpot_eligible
from reelforge.errors import InvalidArgument

# Small enough that every core gets work and the progress bar moves on 1e6-round runs; fixed,
# because a run repeats exactly only for the same seed and chunk size.
DEFAULT_CHUNK = 100_000


@dataclass(frozen=True)
class Chunk:
    game: str  # shipped id or path: data, never a compiled function
    bet: Bet
    seed: int
    index: int
    rounds: int


@lru_cache(maxsize=8)
def _game(ref: str):
    from reelforge.games import make

    return make(ref)


def play_rounds(game, bet: Bet, rng: np.random.Generator, rounds: int) -> Stats:
    """Play `rounds` full rounds on one stream and return their Stats."""
    check_bet(game, bet)
    m = game.model
    edges = np.array([x * bet.total for x in BAND_EDGES_X], dtype=np.int64)
    counters = np.zeros(len(SIM_FIELDS), dtype=np.int64)
    bands = np.zeros(len(edges) + 1, dtype=np.int64)
    squares = np.zeros(2, dtype=np.uint64)
    stops = np.zeros(m.n_reels, dtype=np.int64)
    window = np.zeros((m.n_reels, m.n_rows), dtype=np.int16)
    tape = np.zeros((1, TAPE_WIDTH + m.n_reels), dtype=np.int64)
    simulate_kernel(m, bet.lines, bet.bet_per_line, jackpot_eligible(game, bet), rng, rounds,
                    edges, counters, bands, squares, stops, window, tape)
    values = {name: int(v) for name, v in zip(SIM_FIELDS, counters)}
    return Stats(total_bet=bet.total, win_squares=int(squares[1]) << 64 | int(squares[0]),
                 bands=tuple(int(b) for b in bands), **values)


def run_chunk(chunk: Chunk) -> Stats:
    return play_rounds(_game(chunk.game), chunk.bet, chunk_generator(chunk.seed, chunk.index),
                       chunk.rounds)


def plan_chunks(game: str, bet: Bet, rounds: int, seed: int, chunk_size: int) -> list[Chunk]:
    if rounds < 1 or chunk_size < 1:
        raise InvalidArgument(f"rounds ({rounds}) and chunk size ({chunk_size}) must be positive")
    full, rest = divmod(rounds, chunk_size)
    sizes = [chunk_size] * full + ([rest] if rest else [])
    return [Chunk(game, bet, seed, i, n) for i, n in enumerate(sizes)]


def simulate(game: str, bet: Bet, rounds: int, seed: int, chunk_size: int = DEFAULT_CHUNK,
             workers: int | None = None,
             progress: Callable[[int], None] | None = None) -> Stats:
    """Merged Stats of `rounds` rounds; `progress(n)` is told each finished chunk's size."""
    check_bet(_game(game), bet)
    chunks = plan_chunks(game, bet, rounds, seed, chunk_size)
    workers = min(workers or os.cpu_count() or 1, len(chunks))
    total = Stats.empty()
    for stats in _results(chunks, workers):
        total = total.merge(stats)
        if progress:
            progress(stats.rounds)
    return total


def _results(chunks: list[Chunk], workers: int) -> Iterator[Stats]:
    if workers <= 1:
        yield from map(run_chunk, chunks)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(run_chunk, chunks)
