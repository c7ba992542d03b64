"""`reelforge ...`: the one entry point. Errors print one line naming the bad value, exit 2.

The commands live in modules by purpose (`analysis`, `rounds`, `figures`, `evidence`, `ops`);
importing them registers them on `app`, in the order `reelforge --help` lists them.
"""

from __future__ import annotations

import sys

from reelforge.cli.common import READER_GONE, _silence_stdout, app

# Imported for their commands, in `--help` order (so not sorted).
# isort: off
from reelforge.cli import analysis  # noqa: F401
from reelforge.cli import rounds  # noqa: F401
from reelforge.cli import figures  # noqa: F401
from reelforge.cli import evidence  # noqa: F401
from reelforge.cli import ops  # noqa: F401
# isort: on

__all__ = ["app", "main"]


def main() -> None:
    """The `reelforge` program: `app`, and one line instead of a traceback when the output
    cannot be written (a full disk, a closed device) or another file operation fails. A
    reader that left (a broken pipe) is no error: the program ends quietly, READER_GONE."""
    stdout = sys.stdout
    try:
        try:
            app()
        finally:
            sys.stdout.flush()  # a full disk shows here, while it can still be told
    except SystemExit:
        # typer answers a broken pipe met inside a command by swapping stdout for a wrapper
        # that ignores it and exiting 1: the same event, so the same status
        if sys.stdout is not stdout:
            sys.stdout = stdout
            _silence_stdout()
            raise SystemExit(READER_GONE) from None
        raise
    except BrokenPipeError:
        _silence_stdout()
        raise SystemExit(READER_GONE) from None
    except OSError as exc:
        what = exc.filename if exc.filename is not None else "standard output"
        sys.stderr.write(f"error: {what}: {exc.strerror or exc}\n")
        _silence_stdout()
        raise SystemExit(2) from None
