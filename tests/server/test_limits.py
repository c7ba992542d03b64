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


# -- the process's admission limit, on a plain ASGI application held open by the test ----------


def _request(path: str = "/api/v1/session") -> dict:
    return {"type": "http", "path": path, "method": "GET", "headers": []}


async def _call(app, path: str = "/api/v1/session") -> tuple[int, dict[bytes, bytes], bytes]:
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await app(_request(path), receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


def test_admission_refuses_past_its_limit_and_admits_again() -> None:
    import asyncio
    import json

    release = asyncio.Event()
    entered = 0

    async def held(scope, receive, send) -> None:  # every request waits for the test
        nonlocal entered
        entered += 1
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def scenario() -> None:
        app = limits.Admission(held, limit=3)
        first = [asyncio.create_task(_call(app)) for _ in range(3)]
        while entered < 3:
            await asyncio.sleep(0)
        status, headers, body = await _call(app)  # the fourth: refused at once
        assert status == 503 and headers[b"retry-after"] == b"1"
        error = json.loads(body)["error"]
        assert error["code"] == "SERVER_BUSY" and "3 requests at once" in error["message"]
        assert entered == 3  # the refused request never reached the application
        health = asyncio.create_task(_call(app, "/health"))  # never refused
        while entered < 4:
            await asyncio.sleep(0)
        release.set()
        assert [s for s, _, _ in await asyncio.gather(*first, health)] == [200] * 4
        assert app.in_flight == 0
        assert (await _call(app))[0] == 200  # room again

    asyncio.run(scenario())


@pytest.mark.parametrize(("raw", "limit"), [(None, limits.DEFAULT_MAX_IN_FLIGHT), ("0", 0),
                                            ("128", 128)])
def test_max_in_flight_from_the_environment(monkeypatch: pytest.MonkeyPatch, raw: str | None,
                                            limit: int) -> None:
    if raw is None:
        monkeypatch.delenv(limits.ENV_MAX_IN_FLIGHT, raising=False)
    else:
        monkeypatch.setenv(limits.ENV_MAX_IN_FLIGHT, raw)
    assert limits.max_in_flight() == limit


@pytest.mark.parametrize("raw", ["-1", "many", "1.5", "", "10000000"])
def test_a_bad_max_in_flight_is_named(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    from reelforge.errors import InvalidArgument

    monkeypatch.setenv(limits.ENV_MAX_IN_FLIGHT, raw)
    with pytest.raises(InvalidArgument, match=f"REELFORGE_MAX_IN_FLIGHT = {raw!r}"):
        limits.max_in_flight()
