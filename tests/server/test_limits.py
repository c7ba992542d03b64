"""The per-session token bucket (server/api/limits.py) on a clock the test moves."""

from __future__ import annotations

import pytest

from reelforge.server.api import limits
from reelforge.server.api.limits import SessionLimiter
from reelforge.server.errors import ApiError


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: now[0])
    return now


def test_a_burst_then_the_rate(clock: list[float]) -> None:
    limiter = SessionLimiter()
    for _ in range(5):
        limiter.take(1, 2.0, 5)
    with pytest.raises(ApiError) as refused:
        limiter.take(1, 2.0, 5)
    assert refused.value.code == "RATE_LIMITED" and refused.value.status == 429
    assert refused.value.details["retry_after_ms"] == 501  # half a second for one token
    limiter.take(2, 2.0, 5)  # another session has its own bucket
    clock[0] += 0.5
    limiter.take(1, 2.0, 5)  # one token back
    with pytest.raises(ApiError):
        limiter.take(1, 2.0, 5)
    clock[0] += 3600
    for _ in range(5):  # refilled to the burst, never beyond it
        limiter.take(1, 2.0, 5)
    with pytest.raises(ApiError):
        limiter.take(1, 2.0, 5)


def test_rate_zero_is_no_limit(clock: list[float]) -> None:
    limiter = SessionLimiter()
    for _ in range(10_000):
        limiter.take(1, 0.0, 1)


def test_idle_buckets_are_forgotten(clock: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "SWEEP_EVERY", 10)
    limiter = SessionLimiter()
    for session in range(9):
        limiter.take(session, 1.0, 1)
    clock[0] += limits.IDLE_S + 1
    limiter.take(100, 1.0, 1)  # the tenth: a sweep
    assert set(limiter._buckets) == {100}
