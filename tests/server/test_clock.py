"""One clock time-stamps everything (standards.md H1, GLI-19 2.2.1-2.2.2, 2.8.1(a)): every time
the server writes comes from `services/common.now_us` (UTC microseconds) or a day derived from
it (`today_utc`); no other server module reads the wall clock, and no request a client sends
carries a time the server could store. A clock set back or forward while the server runs is
itself an event (tests/server/test_incidents.py).

Read from the source (ast), in process: no server is started.
"""

from __future__ import annotations

import ast
from datetime import UTC, date, datetime
from pathlib import Path

from pydantic import BaseModel

from reelforge.server.api import schemas
from reelforge.server.services import common

SERVER = Path(__file__).resolve().parents[2] / "src" / "reelforge" / "server"
THE_CLOCK = "services/common.py"
# Modules allowed their own wall clock, each for a reason that is not the server's records.
OWN_CLOCK = {
    # the reference operator wallet: the operator's process (a test double of another party),
    # which stamps the operator's own transactions, never the game server's
    "wallets/operator_service.py": "the operator's wallet, another party's clock",
}
# (module, attribute) pairs that read the wall clock
WALL_CLOCK = {("time", "time"), ("time", "time_ns"), ("datetime", "now"),
              ("datetime", "utcnow"), ("datetime", "today"), ("date", "today"),
              ("time", "localtime"), ("time", "gmtime"), ("time", "ctime")}


def wall_clock_reads(source: str) -> list[str]:
    """Each place in `source` that reads the wall clock: `time.time()`, `datetime.now()`,
    `date.today()` ..., and `from time import time` (a bare call then hides it)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and (node.value.id, node.attr) in WALL_CLOCK:
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module in ("time", "datetime"):
            for alias in node.names:
                if (node.module, alias.name) in WALL_CLOCK:
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
    return found


def test_no_server_module_but_the_clock_reads_the_wall_clock() -> None:
    modules = sorted(SERVER.rglob("*.py"))
    assert len(modules) > 50  # the whole server, not an empty glob
    readers = {}
    for path in modules:
        name = path.relative_to(SERVER).as_posix()
        found = wall_clock_reads(path.read_text(encoding="utf-8"))
        if found and name != THE_CLOCK and name not in OWN_CLOCK:
            readers[name] = found
    assert readers == {}, f"read the wall clock instead of services/common.now_us: {readers}"
    assert wall_clock_reads((SERVER / THE_CLOCK).read_text(encoding="utf-8")), \
        "services/common.py no longer reads the clock: where does now_us come from?"


def test_the_scan_finds_each_way_of_reading_the_clock() -> None:
    source = ("import time\nfrom datetime import datetime, date\nfrom time import time_ns\n"
              "a = time.time()\nb = datetime.now()\nc = date.today()\nd = time.monotonic()\n")
    assert sorted(wall_clock_reads(source)) == [
        "line 3: from time import time_ns", "line 4: time.time", "line 5: datetime.now",
        "line 6: date.today"]
    assert wall_clock_reads("import time\nt = time.monotonic()\n") == []  # a duration, no time


def test_no_request_of_a_client_carries_a_time() -> None:
    """The server never stores a client's time: no field of a request body names one."""
    requests = [m for m in vars(schemas).values()
                if isinstance(m, type) and issubclass(m, BaseModel) and m is not schemas.Strict
                and m.__module__ == schemas.__name__]
    assert {m.__name__ for m in requests} >= {"LaunchRequest", "BetRequest", "StepRequest"}
    timely = ("time", "_at", "_us", "date", "day", "clock", "when")
    for model in requests:
        for field in model.model_fields:
            assert not any(part in field for part in timely), f"{model.__name__}.{field}"
        assert model.model_config.get("extra") == "forbid", model  # no field slips in unnamed


def test_the_day_of_reports_and_alerts_is_the_clocks(monkeypatch) -> None:
    """today_utc is now_us's day: a clock moved for a test (or by an operator) moves both."""
    at = int(datetime(2031, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC).timestamp()) * 1_000_000
    monkeypatch.setattr(common, "now_us", lambda: at + 999_999)
    assert common.today_utc() == date(2031, 12, 31)
    assert common.today_utc(at + 1_000_000) == date(2032, 1, 1)
