"""Progress bars for long work (`report`, `estimate`, `par`, `tune`, `bench`), drawn on stderr.

A bar is drawn only when stderr really is a terminal and the command was not asked for
`--json`: output piped to a file or read by a script stays byte for byte what it was. The
analysis layer never imports this module: its long functions take a plain callback, `Tasks`
(start a task with a description and a total, or None when the amount of work is not known
in advance; get back the function that advances it), so they know nothing of terminals.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn
from rich.text import Text

Advance = Callable[[float], None]
Tasks = Callable[[str, float | None], Advance]

# rich's speed (hence the time left) averages this many seconds of recent progress: long enough
# that one slow chunk does not swing the estimate, short enough to follow a real change.
SPEED_WINDOW_S = 60.0


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class _Amount(ProgressColumn):
    """The percentage when the total is known, else how many steps are done."""

    def render(self, task: Task) -> Text:
        if task.total is None:
            return Text(f"{task.completed:,.0f} {task.fields.get('unit', '')}".rstrip())
        return Text(f"{task.percentage:5.1f}%")


class _Time(ProgressColumn):
    """Time spent, and the time left where the work's total is known (rich's speed over the
    last SPEED_WINDOW_S); nothing is guessed for work of unknown size."""

    max_refresh = 1.0  # seconds: the time left would otherwise flicker

    def render(self, task: Task) -> Text:
        spent = task.finished_time if task.finished else task.elapsed
        text = _clock(spent or 0.0)
        left = task.time_remaining
        if task.total is not None and not task.finished and left is not None:
            text += f", {_clock(left)} left"
        return Text(text, style="progress.elapsed")


def _ignore(amount: float = 1) -> None:
    return None


class Bars:
    """The tasks of one display; calling it (a `Tasks`) starts a task and returns its advance.

    Without a display (quiet, or not a terminal) every call returns a function that does
    nothing, so a command's code is the same either way.
    """

    def __init__(self, progress: Progress | None) -> None:
        self._progress = progress

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def __call__(self, description: str, total: float | None = None, unit: str = "") -> Advance:
        progress = self._progress
        if progress is None:
            return _ignore
        task = progress.add_task(description, total=total, unit=unit)

        def advance(amount: float = 1) -> None:
            progress.advance(task, amount)

        return advance

    def _finish(self) -> None:
        if self._progress is None:
            return
        for task in self._progress.tasks:  # work of unknown size ends where it ended
            if task.total is None:
                self._progress.update(task.id, total=task.completed)


def _stderr_console() -> Console:
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stream
        tty = False
    # decided by the stream itself: FORCE_COLOR or TTY_COMPATIBLE in a CI job's environment
    # must not put bars into its log
    return Console(stderr=True, force_terminal=tty)


@contextmanager
def bars(quiet: bool = False, console: Console | None = None) -> Iterator[Bars]:
    """A display of progress bars on `console` (default: stderr) while the block runs.

    Drawn only when the console is a terminal and not `quiet`; erased when the block ends,
    so what the command prints afterwards (a table, a path) is all that stays.
    """
    console = console or _stderr_console()
    if quiet or not console.is_terminal:
        yield Bars(None)
        return
    progress = Progress(TextColumn("{task.description}"), BarColumn(bar_width=24), _Amount(), _Time(),
                        console=console, transient=True, speed_estimate_period=SPEED_WINDOW_S)
    with progress:
        shown = Bars(progress)
        try:
            yield shown
        finally:
            shown._finish()
