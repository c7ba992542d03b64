"""What every request handler holds: the database engine, the settings and the wallet clients."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine

from reelforge.server.db.engine import is_postgres, reading
from reelforge.server.errors import ApiError
from reelforge.server.settings import OperatorSettings, Settings


@dataclass
class Context:
    engine: Engine
    settings: Settings
    wallets: dict[str, Any] = field(default_factory=dict)  # operator id -> seamless client
    # Bets of many players committed together by one writer thread (services/round_batch.py);
    # off, every bet is its own transaction (REELFORGE_BATCH_ROUNDS=0: to compare the two).
    batch_rounds: bool = True
    extensions: dict[str, Any] = field(default_factory=dict)  # per-process helpers, lazily
    # SQLite has one writer at a time: within a process, writers queue on this lock instead of
    # polling SQLite's busy handler (which sleeps up to 100 ms between tries: seconds of p99).
    _writer: threading.Lock | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.engine is not None and not is_postgres(self.engine):
            self._writer = threading.Lock()

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """A transaction that may write: committed when the block ends, rolled back on error."""
        if self._writer is None:
            with self.engine.begin() as conn:
                yield conn
            return
        with self._writer, self.engine.begin() as conn:
            yield conn

    def read(self, single: bool = False):
        """A transaction that only reads (`single`: one statement)."""
        return reading(self.engine, single)

    def operator(self, operator_id: str) -> OperatorSettings:
        found = self.settings.operator(operator_id)
        if found is None:
            raise ApiError("UNKNOWN_OPERATOR", f"operator {operator_id!r}: not configured here")
        return found
