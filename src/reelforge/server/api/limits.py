"""Per-session request-rate limits: a token bucket per session, in this process's memory.

Each authenticated request takes a token from its session's bucket, which refills at the
operator's `session_rate_per_s` up to `session_burst`; an empty bucket refuses the request
(RATE_LIMITED, 429, with the wait in retry_after_ms) before it touches a round. It bounds what
one session (a runaway client, a stolen token replayed in a loop) can take of the server's
capacity. With several worker processes each keeps its own buckets, so a session's ceiling is
the limit times the workers its requests reach. Requests without a session (launch, demo) are
for the reverse proxy's per-address limits.
"""

from __future__ import annotations

import threading
import time

from reelforge.server.errors import ApiError

# Buckets untouched this long are full again by any sane setting: forgotten, so a stream of
# new sessions cannot grow the table without bound.
IDLE_S = 600.0
SWEEP_EVERY = 10_000


class SessionLimiter:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buckets: dict[int, tuple[float, float]] = {}  # session -> (tokens, at)
        self._taken = 0

    def take(self, session_id: int, rate_per_s: float, burst: int) -> None:
        """One request of `session_id`, or RATE_LIMITED."""
        if rate_per_s <= 0:
            return
        now = time.monotonic()
        with self._lock:
            tokens, at = self._buckets.get(session_id, (float(burst), now))
            tokens = min(float(burst), tokens + (now - at) * rate_per_s)
            if tokens < 1.0:
                self._buckets[session_id] = (tokens, now)
                wait_ms = int((1.0 - tokens) / rate_per_s * 1000) + 1
                raise ApiError("RATE_LIMITED", f"session {session_id}: more than "
                               f"{rate_per_s:g} requests a second (bursts of {burst}); retry "
                               f"in {wait_ms} ms", retry_after_ms=wait_ms)
            self._buckets[session_id] = (tokens - 1.0, now)
            self._taken += 1
            if self._taken % SWEEP_EVERY == 0:
                self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < IDLE_S}
