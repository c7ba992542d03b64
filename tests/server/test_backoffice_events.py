"""The significant-events log (standards.md H4) and the lives of games (H2), end to end against
a real `reelforge serve` on SQLite and PostgreSQL: each event type the server writes is in the
back office's log, the periods when no server process was up are derived from a clean stop and
from a kill, and a game the configuration drops is decommissioned with its dates, then offered
again.

The server runs with a heartbeat of 1 s and counts flushed every second
(REELFORGE_EVENTS_HEARTBEAT_S, REELFORGE_EVENTS_FLUSH_S), so a test waits seconds for what a
production server writes every 15 and 60 s.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from .harness import Player, Server, assert_books_hold
from .test_backoffice import PASSWORD, Staff, ok, refused, staff_add

OPERATOR = "events"
ENV = {"REELFORGE_EVENTS_FLUSH_S": "1", "REELFORGE_EVENTS_HEARTBEAT_S": "1"}


def _config(workdir: Path, games: tuple[str, ...]) -> Path:
    """One operator alone (each restart below warms only its games: seconds less each)."""
    key = workdir / "launch.key"
    if not key.exists():
        key.write_text(secrets.token_hex(32))
    body = "".join(f'[[operators.games]]\nkey = "{g}"\ngame_id = "{g}-v1"\n' for g in games)
    path = workdir / "operators.toml"
    path.write_text(f'[[operators]]\nid = "{OPERATOR}"\ncurrency = "EUR"\n'
                    f'jurisdiction = "default"\nsecret_file = "{key}"\n'
                    'demo_balance_minor = 100000\nsession_rate_per_s = 0\n' + body)
    return path


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("events")
    served = Server(database_url, workdir, _config(workdir, ("candy-jar-clusters", "cluedo")),
                    env=ENV)
    try:
        served.start()
        player = Player(served.base, OPERATOR)  # every game loaded before a test's timeout
        player.http.timeout = httpx.Timeout(600)
        assert player.http.get("/api/v1/games").status_code == 200
        done = staff_add(database_url, "eve", "auditor", PASSWORD)
        assert done.returncode == 0, done.stderr
        done = staff_add(database_url, "moe", "manager", PASSWORD)
        assert done.returncode == 0, done.stderr
        yield served
    finally:
        served.stop()


def _signed_in(server: Server, name: str) -> Staff:
    who = Staff(server.base, name)
    assert who.signed.status_code == 200, who.signed.text
    return who


def _events(server: Server, **params: Any) -> dict[str, Any]:
    return ok(_signed_in(server, "eve").get("/events", **params))


def _kinds(found: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in found["events"]]


def _until(found, timeout_s: float = 30.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout_s
    while True:
        value = found()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.25)


def test_each_event_type_is_in_the_significant_events_log(server: Server):
    t0 = time.time_ns() // 1000
    assert _kinds(_events(server)).count("server.started") >= 1
    # a failed sign-in, with the client's address
    refused(Staff(server.base, "eve", "not the password").signed, 401, "BAD_CREDENTIALS")
    # three requests with tokens the server does not know: counted, then one row
    for i in range(3):
        answer = httpx.get(f"{server.base}/api/v1/session",
                           headers={"Authorization": f"Bearer forged-{i}"})
        assert answer.status_code == 401, answer.text
    # a game switched off and on again by a manager
    moe = _signed_in(server, "moe")
    for enabled in (False, True):
        ok(moe.put("/games", {"operator": OPERATOR, "game": "cluedo", "enabled": enabled}))

    def refused_rows() -> list[dict[str, Any]]:
        """The rows once all three are counted: a flush (every second) may fall between two of
        the requests on a loaded machine, and then the count is split over two rows."""
        rows = [e for e in _events(server)["events"]
                if e["kind"] == "auth.refused" and e["at_us"] >= t0]
        return rows if sum(r["payload"]["count"] for r in rows) >= 3 else []

    rows = _until(refused_rows)
    assert rows, "fewer than three refusals in the auth.refused rows 30 s after three tokens"
    assert sum(r["payload"]["codes"].get("UNAUTHORIZED", 0) for r in rows) >= 3
    assert any("127.0.0.1" in r["payload"]["addresses"] for r in rows)
    found = _events(server)
    mine = [e for e in found["events"] if e["at_us"] >= t0]
    failed = [e for e in mine if e["kind"] == "staff.sign_in_failed"]
    assert failed and failed[-1]["payload"]["name"] == "eve", failed
    switched = [e["payload"]["after"]["enabled"] for e in mine if e["kind"] == "game.switched"
                and e["payload"]["game"] == "cluedo"]
    assert switched == [False, True], switched
    # the routine rows of rounds and sessions are not in it
    assert not {"round.opened", "round.closed", "session.opened"} & set(_kinds(found))
    assert [e["at_us"] for e in found["events"]] == sorted(e["at_us"] for e in found["events"])


def test_large_wins_in_the_log_are_the_rounds_the_players_saw_win(server: Server):
    player = Player(server.base, OPERATOR)
    for _ in range(12):
        player.finish(ok(player.bet("candy-jar-clusters", 20, 1)))
    mine = player.history()
    expected = sorted(r["round_id"] for r in mine if r["win_minor"] >= r["stake_minor"])
    me = str(player.session()["player"])
    listed = sorted(w["round_id"] for w in _events(server, min_x=1)["large_wins"]
                    if w["player"] == me)
    assert listed == expected


def _stopped(server: Server, how: str) -> tuple[int, int]:
    """Stop the server cleanly or kill it; (just before, just after) in µs."""
    before = time.time_ns() // 1000
    if how == "stop":
        server.stop()
    else:
        server.kill()
    return before, time.time_ns() // 1000


def _cluedo(server: Server) -> dict[str, Any]:
    return next(g for g in ok(_signed_in(server, "moe").get("/games"))["games"]
                if (g["operator"], g["game"]) == (OPERATOR, "cluedo"))


def test_restarts_give_periods_of_unavailability_and_a_dropped_game_its_dates(
        server: Server, database_url: str):
    """A clean stop, then a start whose configuration drops Cluedo (decommissioned); a kill,
    then a start that offers it again. Three starts serve both checks (each start costs CI
    seconds)."""
    first = _cluedo(server)
    assert first["status"] == "enabled" and first["decommissioned_at_us"] is None
    since = first["available_since_us"]
    assert since is not None and since <= time.time_ns() // 1000

    before, after = _stopped(server, "stop")
    time.sleep(1.5)
    server.config = _config(server.workdir, ("candy-jar-clusters",))
    server.start()
    gaps = _events(server)["unavailable"]
    clean = [g for g in gaps if g["from_us"] >= before - 1_000_000]
    assert len(clean) == 1, gaps
    assert clean[0]["ended_by"] == "a clean stop"
    assert before <= clean[0]["from_us"] <= after
    assert clean[0]["seconds"] >= 1.5
    found = _events(server)
    assert [e["kind"] for e in found["events"] if e["at_us"] >= before].count(
        "server.stopped") == 1
    gone = _cluedo(server)
    assert gone["status"] == "decommissioned" and gone["enabled"] is False
    assert gone["available_since_us"] == since and gone["decommissioned_at_us"] >= after
    assert [e["payload"]["game"] for e in found["events"]
            if e["kind"] == "game.decommissioned" and e["at_us"] >= after] == ["cluedo"]
    refused(Player(server.base, OPERATOR).bet("cluedo", 20, 1), 404, "UNKNOWN_GAME")

    time.sleep(2.5)  # a heartbeat or two before the kill
    before, after = _stopped(server, "kill")
    time.sleep(4)  # past the killed process's last heartbeat by more than 3 heartbeats
    server.config = _config(server.workdir, ("candy-jar-clusters", "cluedo"))
    server.start()
    gaps = [g for g in _events(server)["unavailable"] if g["from_us"] >= clean[0]["to_us"]]
    assert len(gaps) == 1, gaps
    assert gaps[0]["ended_by"].startswith("no clean stop")
    # from the last heartbeat: at most one heartbeat (1 s) before the kill, never after it
    assert before - 1_500_000 <= gaps[0]["from_us"] <= after
    assert gaps[0]["to_us"] > after
    back = _cluedo(server)
    assert back["status"] == "enabled" and back["decommissioned_at_us"] is None
    assert back["available_since_us"] > after
    assert_books_hold(server, database_url)


def test_the_day_asked_must_be_a_date(server: Server):
    refused(_signed_in(server, "eve").get("/events", **{"from": "yesterday"}), 422,
            "INVALID_REQUEST")
    assert datetime.now(UTC).date().isoformat() == _events(server)["to"]
