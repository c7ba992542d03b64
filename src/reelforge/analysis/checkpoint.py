"""Checkpoints of a Monte Carlo run: merged Stats, finished chunk ids and the run's identity.

A checkpoint is one JSON file, replaced atomically (written to a temporary file in the same
folder, flushed to disk, then `os.replace`d), so a run killed at any instant leaves either
the previous checkpoint or the new one, never half of one. Every Stats counter is a JSON
integer except `win_squares`, a decimal string: it can pass 2**64, which many JSON readers
(not Python's) would round.

A run resumes only under the same identity: game text (SHA-256), the whole bet, seed, chunk size,
rounds and engine version. Those fix every chunk's stream and size, so the chunks still to
play, merged into the saved Stats, give the uninterrupted run's Stats bit for bit.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from reelforge import __version__
from reelforge.analysis.stats import Stats
from reelforge.engine.outcome import Bet
from reelforge.errors import InvalidArgument

FORMAT = "reelforge-checkpoint-1"


@dataclass(frozen=True)
class RunIdentity:
    """What fixes a run's result: two runs with equal identities play the same chunks."""

    game_id: str
    game_sha256: str  # of the game file's text, as shipped to the workers
    lines: int
    bet_per_line: int
    mode: str
    denomination: int | None
    seed: int
    chunk_size: int
    rounds: int
    engine: str = __version__

    @classmethod
    def of(cls, game_id: str, game_sha256: str, bet: Bet, seed: int, chunk_size: int,
           rounds: int) -> RunIdentity:
        return cls(game_id, game_sha256, bet.lines, bet.bet_per_line, bet.mode, bet.denomination,
                   seed, chunk_size, rounds)

    @property
    def n_chunks(self) -> int:
        return -(-self.rounds // self.chunk_size)

    def chunk_rounds(self, index: int) -> int:
        """Rounds of chunk `index`: the chunk size, except a shorter last chunk."""
        return min(self.chunk_size, self.rounds - index * self.chunk_size)


class FinishedChunks:
    """A set of chunk ids kept as a watermark plus the ids finished above it.

    Chunks finish roughly in order, so memory stays about the number in flight however long
    the run; `ranges()` gives the compact half-open [start, end) form the file stores.
    """

    def __init__(self, ids: Iterable[int] = ()):
        self.below = 0  # every id < below is finished
        self.above: set[int] = set()
        for i in ids:
            self.add(i)

    def add(self, index: int) -> None:
        if index < self.below:
            return
        self.above.add(index)
        while self.below in self.above:
            self.above.remove(self.below)
            self.below += 1

    def __contains__(self, index: int) -> bool:
        return index < self.below or index in self.above

    def __len__(self) -> int:
        return self.below + len(self.above)

    def __iter__(self) -> Iterator[int]:
        yield from range(self.below)
        yield from sorted(self.above)

    def ranges(self) -> list[list[int]]:
        out = [[0, self.below]] if self.below else []
        for i in sorted(self.above):
            if out and out[-1][1] == i:
                out[-1][1] = i + 1
            else:
                out.append([i, i + 1])
        return out

    @classmethod
    def from_ranges(cls, ranges: list[list[int]], n_chunks: int) -> FinishedChunks:
        """From `ranges()`; ValueError unless they are ordered, disjoint and within n_chunks."""
        done, previous_end = cls(), 0
        for start, end in ranges:
            if not all(type(x) is int for x in (start, end)) or not previous_end <= start < end <= n_chunks:
                raise ValueError(f"finished range [{start!r}, {end!r}) out of order or outside 0..{n_chunks}")
            previous_end = end
            if start == done.below:
                done.below = end  # the common case: one leading range, no loop over its ids
            else:
                for i in range(start, end):
                    done.add(i)
        return done


@dataclass
class Checkpoint:
    identity: RunIdentity
    stats: Stats
    finished: FinishedChunks


def stats_to_json(stats: Stats) -> dict:
    data = asdict(stats)
    data["bands"] = list(stats.bands)
    data["win_squares"] = str(stats.win_squares)
    return data


def stats_from_json(data: dict) -> Stats:
    names = {f.name for f in fields(Stats)}
    if set(data) != names:
        raise ValueError(f"stats fields {sorted(set(data) ^ names)} missing or unknown")
    values = {k: v for k, v in data.items() if k not in ("bands", "win_squares")}
    if not isinstance(data["bands"], list) or len(data["bands"]) != len(Stats().bands):
        raise ValueError(f"stats bands must be a list of {len(Stats().bands)} counts")
    if not all(type(v) is int and v >= 0 for v in [*values.values(), *data["bands"]]):
        raise ValueError("stats counters must be non-negative integers")
    squares = data["win_squares"]
    if not (isinstance(squares, str) and squares.isascii() and squares.isdigit()):
        raise ValueError(f"stats win_squares = {squares!r}: must be a string of decimal digits")
    return Stats(bands=tuple(data["bands"]), win_squares=int(squares), **values)


def save_checkpoint(path: Path, checkpoint: Checkpoint) -> None:
    """Replace `path` with `checkpoint`, atomically."""
    path = Path(path)
    data = {"format": FORMAT, "identity": asdict(checkpoint.identity),
            "rounds_done": checkpoint.stats.rounds,
            "chunks_done": len(checkpoint.finished),
            "finished": checkpoint.finished.ranges(),
            "stats": stats_to_json(checkpoint.stats)}
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_checkpoint(path: Path, expected: RunIdentity) -> Checkpoint:
    """The checkpoint at `path`, refused unless it belongs to the run `expected` names."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidArgument(f"--checkpoint {str(path)!r}: no such file to resume") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InvalidArgument(f"--checkpoint {str(path)!r}: not readable JSON ({exc})") from None
    try:
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {FORMAT!r}")
        identity = RunIdentity(**data["identity"])
        stats = stats_from_json(data["stats"])
        finished = FinishedChunks.from_ranges(data["finished"], identity.n_chunks)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise InvalidArgument(f"--checkpoint {str(path)!r}: not a reelforge checkpoint ({exc})") from None
    if identity != expected:
        diff = ", ".join(f"{f.name} {getattr(identity, f.name)!r} (this run: {getattr(expected, f.name)!r})"
                         for f in fields(RunIdentity)
                         if getattr(identity, f.name) != getattr(expected, f.name))
        raise InvalidArgument(f"--checkpoint {str(path)!r}: saved by another run: {diff}")
    last = identity.n_chunks - 1
    rounds = len(finished) * identity.chunk_size \
        - (identity.chunk_size - identity.chunk_rounds(last) if last in finished else 0)
    if rounds != stats.rounds or (stats.rounds and stats.total_bet != identity.lines * identity.bet_per_line):
        raise InvalidArgument(f"--checkpoint {str(path)!r}: inconsistent: {len(finished)} chunks "
                              f"finished but {stats.rounds} rounds at total bet {stats.total_bet}")
    return Checkpoint(identity, stats, finished)
