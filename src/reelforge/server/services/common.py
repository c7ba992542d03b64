"""Small things every service uses: the server clock, ids, canonical JSON, crash points."""

from __future__ import annotations

import json
import os
import signal
import time
import uuid
from datetime import UTC, date, datetime
from typing import Any

import orjson


def now_us() -> int:
    """The server's UTC clock in microseconds: every row's time comes from here (never a client)."""
    return time.time_ns() // 1000


def today_utc(at_us: int | None = None) -> date:
    """The UTC day of `at_us` (default: now) on the server's clock (`now_us`): a report's or
    an alert's day comes from the same clock as every row's time, never from a second reading
    of the system's."""
    return datetime.fromtimestamp((now_us() if at_us is None else at_us) // 1_000_000, UTC).date()


def new_round_id() -> str:
    return str(uuid.uuid4())


# A client's request id matches api/schemas.py RequestId ([A-Za-z0-9_.:-]); a "~" is outside
# it, so no bet of a player can ever take the id of a round the server opens by itself.
INTERNAL_REQUEST_ID_MARK = "~"


def internal_request_id(purpose: str, round_id: str) -> str:
    """The request id of a round the server opens for `round_id` (`purpose`: what opens it)."""
    return f"{INTERNAL_REQUEST_ID_MARK}{purpose}:{round_id}"


def dumps(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces; what the database stores and the audit hashes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def json_bytes(value: Any) -> bytes:
    """Compact JSON of a round's outcome and of the server's answers, several times faster
    than `dumps` on an outcome; not the canonical form (the audit log hashes `dumps`)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def fast_dumps(value: Any) -> str:
    return json_bytes(value).decode()


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


CRASH_ENV = "REELFORGE_CRASH_AT"


def crash_point(name: str) -> None:
    """Fault injection for the recovery tests: SIGKILL this process at `name` when the
    environment asks for it (REELFORGE_CRASH_AT=name). Costs one dict lookup otherwise."""
    if os.environ.get(CRASH_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
