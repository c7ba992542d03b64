"""Capacity that protects players: a per-process admission limit, and a per-session rate.

Admission (`Admission`, plain ASGI): at most `max_in_flight` requests of this process are
being served at once; one more is answered 503 SERVER_BUSY with Retry-After at once, instead
of waiting in a queue that would add its wait to every player's latency. Little's law sizes
it: requests in flight = throughput x time in the server, so a process serving 400-600
rounds a second (a quiet 2-core machine, benchmarks/RESULTS.md) with 64 in flight holds each
for 100-160 ms at saturation, and far less below it, where few requests are ever in flight.
64 is also the round writer's largest batch (services/round_batch.py), so a full batch can
still form; 32 and 16 served no better in the benchmark. REELFORGE_MAX_IN_FLIGHT sets it per
process (0: no limit); /health is never refused, so a load balancer sees a busy process as
alive.

Per-session rate (`SessionLimiter`): a token bucket per session, in this process's memory.

Each authenticated request takes a token from its session's bucket, which refills at the
operator's `session_rate_per_s` up to `session_burst`; an empty bucket refuses the request
(RATE_LIMITED, 429, with the wait in retry_after_ms) before it touches a round. It bounds what
one session (a runaway client, a stolen token replayed in a loop) can take of the server's
capacity. With several worker processes each keeps its own buckets, so a session's ceiling is
the limit times the workers its requests reach. Requests without a session (launch, demo) are
for the reverse proxy's per-address limits.
"""

from __future__ import annotations

import json
import os
import threading
import time

from reelforge.errors import InvalidArgument
from reelforge.server.errors import ApiError

ENV_MAX_IN_FLIGHT = "REELFORGE_MAX_IN_FLIGHT"
DEFAULT_MAX_IN_FLIGHT = 64
# Not admitted or refused: a liveness probe must not read "busy" as "dead".
UNLIMITED_PATHS = frozenset({"/health"})

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


def max_in_flight() -> int:
    """REELFORGE_MAX_IN_FLIGHT, checked: a whole number of requests, 0 for no limit."""
    raw = os.environ.get(ENV_MAX_IN_FLIGHT)
    if raw is None:
        return DEFAULT_MAX_IN_FLIGHT
    if not raw.strip().isdigit() or int(raw) > 1_000_000:
        raise InvalidArgument(f"{ENV_MAX_IN_FLIGHT} = {raw!r}: expected 0..1000000 requests "
                              "in flight per server process (0: no limit)")
    return int(raw)


class Admission:
    """At most `limit` HTTP requests in flight in this process; past it, 503 SERVER_BUSY with
    Retry-After, before the request is read. The count lives in the event loop's thread
    (ASGI calls start there), so it needs no lock."""

    def __init__(self, app, limit: int) -> None:
        self.app, self.limit, self.in_flight = app, limit, 0

    async def __call__(self, scope, receive, send) -> None:
        if (scope["type"] != "http" or self.limit <= 0
                or scope["path"] in UNLIMITED_PATHS):
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            await _busy(send, self.limit)
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1


async def _busy(send, limit: int) -> None:
    body = json.dumps(ApiError("SERVER_BUSY", f"this server process is serving its limit of "
                               f"{limit} requests at once: retry after 1 s",
                               retry_after_ms=1000).body()).encode()
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"retry-after", b"1")]})
    await send({"type": "http.response.body", "body": body})
