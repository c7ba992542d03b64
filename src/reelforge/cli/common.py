"""What every `reelforge` command shares: the app, the consoles, the argument types and the
parsing of counts; errors print one line naming the bad value, exit 2."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from reelforge.errors import InvalidArgument, ReelforgeError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Slot games from math to play: define, prove, simulate, play.")
# Exit status when the reader of standard output left early (`reelforge ... | head`): what a
# shell reports for a program that SIGPIPE ended (128 + 13), as `cat` or `grep` would be. Not 0,
# which would say the whole output was written; not 1 or 2, which mean "replay differs" and
# "error". Without `set -o pipefail` a pipeline's status is the reader's anyway.
READER_GONE = 141


class _Out(Console):
    """Standard output's console: a broken pipe ends the program with READER_GONE (rich's
    own answer is exit 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        _silence_stdout()
        raise SystemExit(READER_GONE)


# Tables keep one row per line when piped (CI logs): rich would wrap them at 80 columns.
out = _Out(width=None if sys.stdout.isatty() else 140)
err = Console(stderr=True)


MAX_ROUNDS = 10**15  # a trillion rounds per core-day: more is a typo, not a plan


def _count(text: str, option: str = "--rounds") -> int:
    """Round counts like 10000000, 1e7 or 10_000_000."""
    clean = text.replace("_", "")
    try:
        value = float(clean) if any(c in clean.lower() for c in ".e") else int(clean)
    except ValueError:
        raise InvalidArgument(f"{option} = {text!r}: not a number of rounds") from None
    if not math.isfinite(value) or value != int(value) or not 1 <= value <= MAX_ROUNDS:
        raise InvalidArgument(f"{option} = {text!r}: must be a whole number 1..{MAX_ROUNDS:.0e}")
    return int(value)


def _at_least(value: int | None, option: str, low: int = 1) -> None:
    if value is not None and value < low:
        raise InvalidArgument(f"{option} = {value!r}: must be >= {low}")


def _fail(exc: ReelforgeError) -> NoReturn:
    # plain write, not rich: one line however narrow the terminal
    sys.stderr.write(f"error: {exc}\n")
    raise typer.Exit(2)


def _game(ref: str):
    from reelforge.games import make

    return make(ref)


GameArg = Annotated[str, typer.Argument(help="A shipped game id (see `reelforge games`) or a game file")]
LinesOpt = Annotated[int | None, typer.Option("--lines", help="Lines bet (default: all)")]
BplOpt = Annotated[int | None, typer.Option("--bet-per-line", help="Credits per line (default: max)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object")]
ModeOpt = Annotated[str, typer.Option("--mode", help="Way to play the base game (e.g. fortune)")]


def _figures(g) -> dict:
    """The game's RTP figures by mode (`Game.rtp()`: exact, or a published estimate)."""
    import reelforge.analysis  # noqa: F401 - importing the analysis registers its exact figures

    try:
        return {f.mode: f for f in g.rtp()}
    except ReelforgeError as exc:
        _fail(exc)


def _figure_text(f) -> str:
    """'96.1234%' (exact) or '96.0012% (stratified MC, 95% CI ±0.048 pp)' (estimate)."""
    if f.source == "exact":
        return f"{f.value:.4%}"
    return f"{f.value:.4%} (stratified MC, 95% CI ±{f.ci95 * 100:.3f} pp)"


def _check_writable(path: Path, option: str = "--out") -> None:
    """Refuse, before a long run, an output file that could not be written after it."""
    folder = path.parent
    if path.is_dir():
        raise InvalidArgument(f"{option} = {str(path)!r}: is a folder; give a file name")
    if not folder.is_dir():
        raise InvalidArgument(f"{option} = {str(path)!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InvalidArgument(f"{option} = {str(path)!r}: not writable")


def _silence_stdout() -> None:
    """Point stdout at the null device: what it still buffers cannot be written, and the
    interpreter's last flush would fail again and print its own message."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
