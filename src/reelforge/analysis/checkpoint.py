"""Checkpoints of a Monte Carlo run: merged Stats, finished chunk ids and the run's identity.

A checkpoint is one JSON file, replaced atomically (written to a temporary file in the same
folder, flushed to disk, then `os.replace`d), so a run killed at any instant leaves either
the previous checkpoint or the new one, never half of one. Every Stats counter is a JSON
integer except `win_squares`, a decimal string: it can pass 2**64, which many JSON readers
(not Python's) would round.

A run resumes only under the same identity: game file (SHA-256 of its bytes), the whole bet
and what a round costs in its mode, seed, chunk size, rounds and engine version. Those fix
every chunk's stream and size, so the chunks still to play, merged into the saved Stats, give
the uninterrupted run's Stats bit for bit.

The file records the SHA-256 of its own content (canonical JSON: sorted keys, no spaces), so
an edited or damaged file is refused; it is no signature (anyone can recompute it), so a file
whose digest matches is still checked for internal consistency: its rounds are its finished
chunks' rounds, every round cost what this mode costs, its wins lie within what that many
rounds can win, and its counters agree with one another.
"""

from __future__ import annotations

import hashlib
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

FORMAT = "reelforge-checkpoint-2"  # 2: the content's digest and the round's price
# A checkpoint is a few kilobytes (finished chunks are kept as ranges); reading is capped so
# that a device or a huge file given as --checkpoint (/dev/zero never ends) is refused, not read.
MAX_BYTES = 64 * 2**20


@dataclass(frozen=True)
class RunIdentity:
    """What fixes a run's result: two runs with equal identities play the same chunks."""

    game_id: str
    game_sha256: str  # of the game file (spec.game_digest), as shipped to the workers
    lines: int
    bet_per_line: int
    mode: str
    denomination: int | None
    seed: int
    chunk_size: int
    rounds: int
    price: int  # credits one round costs in this mode (stake x mode price): Stats.total_bet
    engine: str = __version__

    @classmethod
    def of(cls, game_id: str, game_sha256: str, bet: Bet, seed: int, chunk_size: int,
           rounds: int, price: int) -> RunIdentity:
        return cls(game_id=game_id, game_sha256=game_sha256, lines=bet.lines,
                   bet_per_line=bet.bet_per_line, mode=bet.mode, denomination=bet.denomination,
                   seed=seed, chunk_size=chunk_size, rounds=rounds, price=price)

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


def content_digest(data: dict) -> str:
    """SHA-256 of a checkpoint's content (every key but "sha256") as canonical JSON."""
    content = {k: v for k, v in data.items() if k != "sha256"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def save_checkpoint(path: Path, checkpoint: Checkpoint) -> None:
    """Replace `path` with `checkpoint`, atomically."""
    path = Path(path)
    data = {"format": FORMAT, "identity": asdict(checkpoint.identity),
            "rounds_done": checkpoint.stats.rounds,
            "chunks_done": len(checkpoint.finished),
            "finished": checkpoint.finished.ranges(),
            "stats": stats_to_json(checkpoint.stats)}
    data["sha256"] = content_digest(data)
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


def read_json(path: Path, where: str, max_bytes: int = MAX_BYTES) -> object:
    """The JSON value in the regular file `path`, at most `max_bytes` long; every failure
    (missing, a device or folder, too large, not UTF-8, not JSON, nested too deep) is one
    InvalidArgument line starting with `where`."""
    try:
        if not path.is_file():
            raise InvalidArgument(f"{where}: no such file" if not path.exists() else
                                  f"{where}: not a regular file")
        with path.open("rb") as f:
            raw = f.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise InvalidArgument(f"{where}: larger than {max_bytes:,} bytes: not what was expected")
        return json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InvalidArgument(f"{where}: not readable JSON ({exc})") from None
    except RecursionError:
        raise InvalidArgument(f"{where}: not readable JSON (nested too deep)") from None


def load_checkpoint(path: Path, expected: RunIdentity, max_round_win: int | None = None,
                    max_round_spins: int | None = None) -> Checkpoint:
    """The checkpoint at `path`, refused unless it belongs to the run `expected` names, its
    digest matches its content and its figures are consistent (`max_round_win`: a bound on one
    round's win in credits, `max_round_spins` on the free (or bonus) spins of one round, when
    known)."""
    path = Path(path)
    where = f"--checkpoint {str(path)!r}"
    data = read_json(path, where)
    if not isinstance(data, dict):
        raise InvalidArgument(f"{where}: not a reelforge checkpoint (a JSON {type(data).__name__}, "
                              "not an object)")
    if data.get("format") != FORMAT:
        raise InvalidArgument(f"{where}: format {data.get('format')!r}, expected {FORMAT!r} "
                              "(a file of another reelforge version, or not a checkpoint)")
    recorded = data.get("sha256")
    if recorded != content_digest(data):
        raise InvalidArgument(f"{where}: edited or corrupt: its content's SHA-256 does not match "
                              f"the recorded {recorded!r}")
    try:
        identity = RunIdentity(**data["identity"])
        stats = stats_from_json(data["stats"])
        finished = FinishedChunks.from_ranges(data["finished"], identity.n_chunks)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise InvalidArgument(f"{where}: not a reelforge checkpoint ({exc})") from None
    if identity != expected:
        diff = ", ".join(f"{f.name} {getattr(identity, f.name)!r} (this run: {getattr(expected, f.name)!r})"
                         for f in fields(RunIdentity)
                         if getattr(identity, f.name) != getattr(expected, f.name))
        raise InvalidArgument(f"{where}: saved by another run: {diff}")
    problem = inconsistency(identity, stats, finished, max_round_win, max_round_spins)
    if problem is None and (data.get("rounds_done"), data.get("chunks_done")) != (stats.rounds, len(finished)):
        problem = (f"rounds_done {data.get('rounds_done')!r} and chunks_done {data.get('chunks_done')!r} "
                   f"but the stats hold {stats.rounds} rounds of {len(finished)} chunks")
    if problem is not None:
        raise InvalidArgument(f"{where}: inconsistent: {problem}")
    return Checkpoint(identity, stats, finished)


def inconsistency(identity: RunIdentity, stats: Stats, finished: FinishedChunks,
                  max_round_win: int | None = None, max_round_spins: int | None = None) -> str | None:
    """Why these Stats cannot be the merged result of these finished chunks, or None.

    Each check is a fact of any merge of played chunks: a chunk's rounds are fixed by its id,
    every round costs the mode's price, a round wins at most `max_round_win`, and a sum of
    squares lies between what the largest win and the total allow (Cauchy-Schwarz below).
    The round's total is the sum of its parts unless the cap cut it; a round that counts a
    trigger plays 1 to `max_round_spins` spins of it, and retriggers and jackpots come only
    with what plays them.
    """
    last = identity.n_chunks - 1
    rounds = len(finished) * identity.chunk_size \
        - (identity.chunk_size - identity.chunk_rounds(last) if last in finished else 0)
    n = stats.rounds
    if rounds != n:
        return f"{len(finished)} chunks finished ({rounds} rounds) but the stats hold {n} rounds"
    if n == 0:
        return None if stats == Stats.empty() else "counters set but no chunk finished"
    if stats.total_bet != identity.price:
        return (f"{n} rounds at total bet {stats.total_bet}, but a round of this run costs "
                f"{identity.price}")
    if sum(stats.bands) != n:
        return f"win bands count {sum(stats.bands)} rounds, not {n}"
    for name in ("hits", "feature_triggers", "jackpot_rounds", "guard_hits", "bonus_triggers", "cap_hits"):
        if getattr(stats, name) > n:
            return f"{name} {getattr(stats, name)} in {n} rounds"
    top, total, squares = stats.max_win, stats.total_win, stats.win_squares
    if max_round_win is not None and top > max_round_win:
        return f"largest win {top} above the most a round can win ({max_round_win})"
    if not top <= total <= n * top:
        return f"total win {total} outside [{top}, {n} x largest win {top}]"
    if not (top * top <= squares <= top * total and total * total <= n * squares):
        return f"sum of squared wins {squares} impossible for total win {total} and largest win {top}"
    parts = (stats.base_line_win + stats.base_scatter_win + stats.base_collect_win
             + stats.feature_win + stats.bonus_win)
    if stats.cap_hits == 0 and total != parts:
        return (f"total win {total} is not the sum of its parts {parts} (lines, scatters, "
                "collections, free games, bonus) though no round was capped")
    if total > parts:  # the cap only ever cuts a round's win
        return f"total win {total} above the sum of its parts {parts}"
    return _spin_counters(stats, max_round_spins)


def _spin_counters(stats: Stats, max_round_spins: int | None) -> str | None:
    """Why the trigger, spin, retrigger and jackpot counters cannot come from whole rounds."""
    for triggers, spins in (("feature_triggers", "feature_spins"), ("bonus_triggers", "bonus_spins")):
        t, s = getattr(stats, triggers), getattr(stats, spins)
        high = None if max_round_spins is None else t * max_round_spins
        if s < t or (high is not None and s > high):
            bound = "" if high is None else f" and at most {max_round_spins:,} each"
            return f"{spins} {s} in the {t} rounds of {triggers}: at least 1{bound}"
    if stats.retriggers and not stats.feature_spins:
        return f"retriggers {stats.retriggers} but no free spin played"
    if stats.jackpot_rounds > stats.jackpot_hits or bool(stats.jackpot_rounds) != bool(stats.jackpot_hits):
        return f"jackpot_hits {stats.jackpot_hits} in jackpot_rounds {stats.jackpot_rounds}"
    return None
