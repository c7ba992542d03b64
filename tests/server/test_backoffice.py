"""The back office end to end, against a real `reelforge serve` on SQLite and PostgreSQL: staff
accounts made with `reelforge staff add`, the door (its cookie, its expiry, its log, and that
neither a player's token nor a staff token opens the other's routes), the meters after real
rounds, and the game and jackpot switches.

Expected sums come from the players' own round histories (the players' API), never from the
back office's code; the database is read only to check what the log recorded.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, update

from reelforge.server.db.tables import audit_log, staff_sessions

from .harness import Player, Server, write_config

PASSWORD = "correct horse battery"  # 21 characters: above the minimum of 12


@pytest.fixture(scope="module", params=[
    "sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                 ) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('office_db') / 'reelforge.db'}"
    url: str = request.getfixturevalue("pg_database")  # conftest: this module's own, or a skip
    return url


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("office")
    served = Server(database_url, workdir, write_config(workdir))
    try:
        served.start()
        warm = Player(served.base)
        warm.http.timeout = httpx.Timeout(600)
        assert warm.http.get("/api/v1/games").status_code == 200
        for name, role in (("mia", "manager"), ("val", "viewer"), ("ada", "auditor")):
            done = staff_add(database_url, name, role, PASSWORD)
            assert done.returncode == 0, done.stderr
        yield served
    finally:
        served.stop()


def staff_add(url: str, name: str, role: str, password: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from reelforge.cli import main; main()",
                           "staff", "add", "--role", role, "--database-url", url, name],
                          check=False, input=password + "\n", capture_output=True, text=True,
                          timeout=120)


class Staff:
    """A browser of the back office: its own cookie jar, never an Authorization header."""

    def __init__(self, base: str, name: str, password: str = PASSWORD) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        self.signed = self.http.post("/backoffice/api/session",
                                     json={"name": name, "password": password})

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.http.get(f"/backoffice/api{path}", params=params)

    def put(self, path: str, body: dict) -> httpx.Response:
        return self.http.put(f"/backoffice/api{path}", json=body)


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, f"{response.status_code}: {response.text}"
    return response.json()


def refused(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    error = response.json()["error"]
    assert error["code"] == code, error
    return str(error["message"])


def audit_rows(url: str, kind: str) -> list[dict]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(audit_log.c.chain, audit_log.c.payload)
                                .where(audit_log.c.kind == kind)
                                .order_by(audit_log.c.id)).all()
    finally:
        engine.dispose()
    return [{"chain": r.chain, **json.loads(r.payload)} for r in rows]


# -- the door -----------------------------------------------------------------------------------


def test_staff_add_refuses_a_short_password_a_bad_role_and_a_taken_name(server: Server,
                                                                         database_url: str):
    short = staff_add(database_url, "sam", "viewer", "short")
    assert short.returncode != 0 and "at least 12" in short.stderr, short.stderr
    role = staff_add(database_url, "sam", "owner", PASSWORD)
    assert role.returncode != 0 and "'owner'" in role.stderr, role.stderr
    taken = staff_add(database_url, "mia", "viewer", PASSWORD)
    assert taken.returncode != 0 and "'mia'" in taken.stderr, taken.stderr


def test_sign_in_sets_a_strict_httponly_cookie_and_logs_it(server: Server, database_url: str):
    mia = Staff(server.base, "mia")
    me = ok(mia.signed)
    assert (me["name"], me["role"], me["may"]) == ("mia", "manager", ["control", "read"])
    cookie = mia.signed.headers["set-cookie"].lower()
    for attribute in ("httponly", "samesite=strict", "path=/backoffice"):
        assert attribute in cookie, cookie
    assert ok(mia.get("/session"))["name"] == "mia"
    signed = [r for r in audit_rows(database_url, "staff.signed_in") if r["name"] == "mia"]
    assert signed and signed[-1]["chain"] == "backoffice" and signed[-1]["client"] == "127.0.0.1"


def test_a_wrong_password_or_name_is_refused_and_logged(server: Server, database_url: str):
    before = len(audit_rows(database_url, "staff.sign_in_failed"))
    wrong = Staff(server.base, "mia", "not the password")
    refused(wrong.signed, 401, "BAD_CREDENTIALS")
    assert "set-cookie" not in wrong.signed.headers
    refused(Staff(server.base, "nobody").signed, 401, "BAD_CREDENTIALS")
    failed = audit_rows(database_url, "staff.sign_in_failed")[before:]
    assert [(f["name"], f["reason"]) for f in failed] == [("mia", "wrong password"),
                                                          ("nobody", "unknown name")]
    refused(wrong.get("/session"), 401, "UNAUTHORIZED")


def test_a_players_token_never_opens_the_back_office(server: Server):
    player = Player(server.base)
    as_bearer = httpx.get(f"{server.base}/backoffice/api/session",
                          headers={"Authorization": f"Bearer {player.token}"})
    refused(as_bearer, 401, "UNAUTHORIZED")
    as_cookie = httpx.get(f"{server.base}/backoffice/api/session",
                          cookies={"rf_staff": player.token})
    refused(as_cookie, 401, "UNAUTHORIZED")


def test_a_staff_token_never_opens_a_players_route(server: Server):
    mia = Staff(server.base, "mia")
    token = mia.http.cookies["rf_staff"]
    assert ok(mia.get("/session"))["name"] == "mia"  # the token is live
    for path in ("/api/v1/session", "/api/v1/games", "/api/v1/rounds"):
        refused(httpx.get(f"{server.base}{path}", headers={"Authorization": f"Bearer {token}"}),
                401, "UNAUTHORIZED")
    refused(httpx.post(f"{server.base}/api/v1/games/cluedo/rounds",
                       headers={"Authorization": f"Bearer {token}"},
                       json={"request_id": uuid.uuid4().hex, "lines": 1, "bet_per_line": 1}),
            401, "UNAUTHORIZED")


def test_a_session_expires_when_idle_and_ends_at_sign_out(server: Server, database_url: str):
    val = Staff(server.base, "val")
    token = val.http.cookies["rf_staff"]
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:  # 31 minutes without a request (the idle limit is 30)
            conn.execute(update(staff_sessions).where(
                staff_sessions.c.token_sha256 == hashlib.sha256(token.encode()).hexdigest())
                .values(last_seen_at=staff_sessions.c.last_seen_at - 31 * 60 * 1_000_000))
    finally:
        engine.dispose()
    refused(val.get("/session"), 401, "SESSION_EXPIRED")
    again = Staff(server.base, "val")
    token = again.http.cookies["rf_staff"]
    assert ok(again.http.delete("/backoffice/api/session"))["signed_out"] is True
    again.http.cookies.set("rf_staff", token)  # what the browser had before sign-out
    refused(again.get("/session"), 401, "UNAUTHORIZED")

