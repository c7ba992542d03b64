"""Monte Carlo: chunks of rounds on independent streams, over processes or a Dask cluster.

Chunk i of a run with seed S always plays on `chunk_generator(S, i)` (SeedSequence spawn key
i), so a run is reproducible from (seed, chunk size) whatever runs it: one process, a local
pool, or any number of Dask workers. Results arrive in any order and merge into integer
Stats, exactly, each chunk id counted once. A chunk carries its game as data (the TOML text
and the name errors cite), never a compiled function; each process compiles a game once,
cached by the text's SHA-256.
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from reelforge.analysis.checkpoint import (
    Checkpoint,
    FinishedChunks,
    RunIdentity,
    load_checkpoint,
    save_checkpoint,
)
from reelforge.analysis.stats import BAND_EDGES_X, Stats
from reelforge.engine.families import compile_game
from reelforge.engine.outcome import Bet
from reelforge.engine.rng import chunk_generator
from reelforge.errors import InvalidArgument, UnboundedFeature
from reelforge.spec import game_digest, parse_spec, read_game_text

# Small enough that every core gets work and the progress bar moves on 1e6-round runs; fixed,
# because a run repeats exactly only for the same seed and chunk size.
DEFAULT_CHUNK = 100_000
# Chunks submitted but not yet merged, per worker: keeps every worker fed while a 1e10-round
# run holds a few dozen chunks in memory, not 1e5.
IN_FLIGHT_PER_WORKER = 2
# A checkpoint is saved after this many finished chunks or seconds, whichever comes first.
CHECKPOINT_CHUNKS = 1000
CHECKPOINT_SECONDS = 30.0
# Chunks are CPU-bound, so workers beyond the cores only queue; each is a process of about
# 55 MB (numpy, numba, the compiled game), and 1000 of them filled this machine's memory.
# A few per core leave room to share a node with other work; more is refused, not trimmed.
WORKERS_PER_CPU = 4


def max_workers() -> int:
    return WORKERS_PER_CPU * (os.cpu_count() or 1)


def check_workers(workers: int | None, option: str = "--workers") -> None:
    """Refuse a worker count below 1 or above `max_workers()`, naming the limit and why."""
    if workers is None:
        return
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgument(f"{option} = {workers!r}: must be a whole number >= 1")
    if workers > max_workers():
        raise InvalidArgument(f"{option} = {workers}: at most {max_workers()} ({WORKERS_PER_CPU} per core "
                              f"on this machine's {os.cpu_count() or 1}): chunks are CPU-bound, more "
                              "processes only take memory")


@dataclass(frozen=True)
class GameText:
    """A game as data: the game file's TOML text and the name its errors cite."""

    text: str = field(repr=False)
    source: str
    digest: str = field(init=False)  # the file's SHA-256 (game_digest): the compile cache's key

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", game_digest(self.text))

    @classmethod
    def load(cls, ref: str) -> GameText:
        """A shipped game id or a game file path, read as text; errors as `make(ref)` gives them."""
        from reelforge.games import make, shipped_games

        make(ref)  # one-line errors: unknown id, unreadable, non-UTF-8 or invalid file
        path = shipped_games().get(ref) or Path(ref)
        return cls(read_game_text(path), str(path))


_COMPILED: dict[str, object] = {}  # digest -> Game, in this process only
_COMPILED_MAX = 8


def compiled(game: GameText):
    """The game of `game`'s text, compiled once per process."""
    found = _COMPILED.get(game.digest)
    if found is None:
        found = compile_game(parse_spec(game.text, game.source))
        if len(_COMPILED) >= _COMPILED_MAX:
            del _COMPILED[next(iter(_COMPILED))]
        _COMPILED[game.digest] = found
    return found


@dataclass(frozen=True)
class Chunk:
    game: GameText  # data, never a compiled function
    bet: Bet
    seed: int
    index: int
    rounds: int


def play_rounds(game, bet: Bet, rng: np.random.Generator, rounds: int) -> Stats:
    """Play `rounds` full rounds on one stream and return their Stats (RTP and win bands
    relative to what a round costs)."""
    game.check_bet(bet)
    values, bands, square_sum = game.simulate(bet, rng, rounds, BAND_EDGES_X)
    return Stats(total_bet=game.price(bet), win_squares=square_sum, bands=bands, **values)


def run_chunk(chunk: Chunk) -> Stats:
    """Play one chunk on its own stream; what every backend runs on its workers."""
    return play_rounds(compiled(chunk.game), chunk.bet, chunk_generator(chunk.seed, chunk.index),
                       chunk.rounds)


def plan_chunks(game: GameText, bet: Bet, rounds: int, seed: int, chunk_size: int,
                skip: FinishedChunks | None = None) -> Iterator[Chunk]:
    """The run's chunks in index order, made lazily; ids in `skip` are left out."""
    _check_sizes(rounds, chunk_size)
    n_chunks = -(-rounds // chunk_size)
    return (Chunk(game, bet, seed, i, min(chunk_size, rounds - i * chunk_size))
            for i in range(n_chunks) if skip is None or i not in skip)


def _check_sizes(rounds: int, chunk_size: int) -> None:
    if rounds < 1 or chunk_size < 1:
        raise InvalidArgument(f"rounds ({rounds}) and chunk size ({chunk_size}) must be positive")


def simulate(game: str | GameText, bet: Bet, rounds: int, seed: int, chunk_size: int = DEFAULT_CHUNK,
             workers: int | None = None, progress: Callable[[int], None] | None = None, *,
             cluster: object = None, checkpoint: str | Path | None = None, resume: bool = False,
             checkpoint_chunks: int = CHECKPOINT_CHUNKS,
             checkpoint_seconds: float = CHECKPOINT_SECONDS) -> Stats:
    """Merged Stats of `rounds` rounds in chunks of `chunk_size`, chunk i on stream (seed, i).

    Where the chunks run; the Stats are the same, bit for bit, in every case:
      cluster=None                 a local process pool of `workers` (default: one per core;
                                   1 plays in this process);
      cluster="local"              a Dask LocalCluster of `workers` processes (default: one
                                   per core), started and closed here;
      cluster="tcp://host:8786"    an existing Dask cluster, by its scheduler's address;
      cluster=distributed.Client   that client, left open.
    `progress(n)` is told the rounds of each chunk as it finishes (and first, on a resume,
    the rounds already done). `checkpoint`: a file saved atomically at the start, every
    `checkpoint_chunks` chunks or `checkpoint_seconds`, at the end, and when the run stops on
    an exception (Ctrl-C included); it must not exist unless `resume`, which continues the
    run it holds (refused if it belongs to another run, edited or inconsistent) and plays only
    the missing chunks. A chunk with a round cut at the spin guard ends the run with
    UnboundedFeature: such a round's win is not the game's, so neither is any figure. The
    chunk is not merged, so a resume plays it again on the same stream and stops again.
    """
    text = game if isinstance(game, GameText) else GameText.load(game)
    g = compiled(text)
    g.check_bet(bet)
    _check_sizes(rounds, chunk_size)
    if cluster is None or cluster == "local":  # a cluster given by address has its own workers
        check_workers(workers)
    identity = RunIdentity.of(g.id, text.digest, bet, seed, chunk_size, rounds, g.price(bet))
    state = _start(identity, checkpoint, resume, g.max_round_win(bet), g.max_round_spins(bet))
    saver = _Saver(checkpoint, state, checkpoint_chunks, checkpoint_seconds)
    saver.save()  # an unwritable path fails now, not after an hour of work
    if progress and state.stats.rounds:
        progress(state.stats.rounds)
    todo = identity.n_chunks - len(state.finished)
    chunks = plan_chunks(text, bet, rounds, seed, chunk_size, skip=state.finished)
    if cluster is None or todo == 0:  # nothing left to play: no cluster to start
        results = _local_results(chunks, min(workers or os.cpu_count() or 1, todo))
    else:
        from reelforge.analysis.distributed import dask_results

        results = dask_results(chunks, cluster, workers)
    try:
        for index, stats in results:
            if index in state.finished:
                continue  # recomputed after a lost worker, or already in the checkpoint
            if stats.guard_hits:  # not merged: the checkpoint keeps only figures of the game
                raise UnboundedFeature(
                    f"{g.id}: the {g.labels.endless} did not end: {stats.guard_hits:,} of chunk {index}'s "
                    f"{stats.rounds:,} rounds reached the spin guard and were cut off, so no RTP "
                    "or other figure of this game can be reported; the run stops at the first such "
                    "chunk, and --resume replays it on the same stream and stops again: the game "
                    "needs a cap on the feature (or rarer retriggers)")
            state.stats = state.stats.merge(stats)
            state.finished.add(index)
            if progress:
                progress(stats.rounds)
            saver.tick()
    except BaseException:
        saver.save()  # merged Stats and finished ids agree at every instant: resume plays the rest
        raise
    finally:
        results.close()
    saver.save()
    return state.stats


def _start(identity: RunIdentity, checkpoint: str | Path | None, resume: bool,
           round_bound: int, spin_bound: int) -> Checkpoint:
    if checkpoint is None:
        if resume:
            raise InvalidArgument("--resume needs --checkpoint FILE: the run to continue")
    elif resume:
        return load_checkpoint(Path(checkpoint), identity, round_bound, spin_bound)
    elif Path(checkpoint).exists():
        raise InvalidArgument(f"--checkpoint {str(checkpoint)!r}: file exists; add --resume to "
                              "continue its run, or remove it to start a new one")
    return Checkpoint(identity, Stats.empty(), FinishedChunks())


class _Saver:
    """Saves `state` to `path` after `every_chunks` ticks or `every_seconds`; no-op without a path."""

    def __init__(self, path: str | Path | None, state: Checkpoint, every_chunks: int,
                 every_seconds: float):
        self.path, self.state = path, state
        self.every_chunks, self.every_seconds = every_chunks, every_seconds
        self.ticks, self.last = 0, time.monotonic()

    def tick(self) -> None:
        self.ticks += 1
        if self.ticks >= self.every_chunks or time.monotonic() - self.last >= self.every_seconds:
            self.save()

    def save(self) -> None:
        if self.path is None:
            return
        try:
            save_checkpoint(Path(self.path), self.state)
        except OSError as exc:
            raise InvalidArgument(f"--checkpoint {str(self.path)!r}: cannot write "
                                  f"({exc.strerror or exc})") from None
        self.ticks, self.last = 0, time.monotonic()


def ignore_ctrl_c() -> None:
    """In a worker process: Ctrl-C is the parent's to handle (save, shut the workers down)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local_results(chunks: Iterator[Chunk], workers: int) -> Generator[tuple[int, Stats], None, None]:
    """(chunk id, Stats) as chunks finish: in this process, or a pool with bounded work queued."""
    if workers <= 1:
        for chunk in chunks:
            yield chunk.index, run_chunk(chunk)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_ctrl_c)
    try:
        running = {pool.submit(run_chunk, c): c.index
                   for c in itertools.islice(chunks, IN_FLIGHT_PER_WORKER * workers)}
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                index = running.pop(future)
                for c in itertools.islice(chunks, 1):  # refill before yielding: workers stay busy
                    running[pool.submit(run_chunk, c)] = c.index
                yield index, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
