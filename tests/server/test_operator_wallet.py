"""The seamless wallet end to end: the reference operator wallet runs as a real subprocess on a
loopback port and the game server's client talks to it over real HTTP. Idempotency, tombstones,
signatures, injected faults and concurrent debits, each checked against exact balances, once
with the service on SQLite and once on PostgreSQL (skipped where none runs)."""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError

from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.server.wallets.client import SeamlessWalletClient, WalletRefused, WalletUnknown
from reelforge.server.wallets.operator_service import (
    SECRET_ENV,
    open_engine,
    read_secret,
    wallet_players,
)
from reelforge.server.wallets.protocol import (
    HTTP_STATUS,
    SIGNATURE_HEADER,
    ErrorCode,
    TransactionResponse,
    sign,
    verify,
)

SECRET = b"operator-wallet-test-secret"
STARTUP_TIMEOUT_S = 30.0
LISTENING = "operator wallet listening on "
GAME = "test-game"


def _first_line(process: subprocess.Popen[bytes], timeout_s: float) -> str:
    """The process's first stdout line; "" if none comes within `timeout_s` or it exits first."""
    lines: queue.Queue[bytes] = queue.Queue()
    stdout = process.stdout
    assert stdout is not None
    # a thread, since readline() itself has no timeout
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        return lines.get(timeout=timeout_s).decode().strip()
    except queue.Empty:
        return ""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> str:
    """The service's database: SQLite (BEGIN IMMEDIATE serializes) or PostgreSQL (row locks)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('operator_db') / 'wallet.db'}"
    # conftest.py's fixture: a PostgreSQL database of this module's own, or a skip where none runs
    url: str = request.getfixturevalue("pg_database")
    return url


@pytest.fixture(scope="module")
def operator_url(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("operator_wallet")
    secret_file = root / "secret"
    secret_file.write_bytes(SECRET + b"\n")  # as `echo` writes it: the newline is not secret
    stderr_path = root / "stderr.log"
    env = {key: value for key, value in os.environ.items() if key != "REELFORGE_OPERATOR_SECRET"}
    # port 0: the service binds a free port and prints it, so no other process can take it
    # between our choosing it and the service binding it
    command = [sys.executable, "-m", "reelforge.server.wallets.operator_service",
               "--host", "127.0.0.1", "--port", "0",
               "--database-url", database_url,
               "--secret-file", str(secret_file)]
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, env=env)
    try:
        line = _first_line(process, STARTUP_TIMEOUT_S)
        if not line.startswith(LISTENING):
            pytest.fail(f"the operator wallet did not start within {STARTUP_TIMEOUT_S} s: "
                        f"stdout {line!r}, stderr {Path(stderr_path).read_text()[-2000:]!r}")
        yield line.removeprefix(LISTENING)
    finally:
        process.kill()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture(scope="module")
def wallet(operator_url: str) -> Iterator[SeamlessWalletClient]:
    with SeamlessWalletClient(operator_url, SECRET) as client:
        yield client


@pytest.fixture(scope="module")
def admin(operator_url: str) -> Iterator[httpx.Client]:
    """Plain HTTP to the service, for admin calls and hand-made requests; one client, since
    building one costs about 50 ms."""
    with httpx.Client(base_url=operator_url, timeout=10) as client:
        yield client


@pytest.fixture(autouse=True)
def no_fault_left_armed(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "admin" in request.fixturenames:
        admin = request.getfixturevalue("admin")
        for kind in ("debit", "credit", "rollback"):
            signed_post(admin, "/admin/faults", {"kind": kind, "mode": "error_before", "count": 0})


# --- talking to the service without the client: admin calls and hand-made requests ---

def signed_post(admin: httpx.Client, path: str, payload: Any,
                secret: bytes = SECRET) -> httpx.Response:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return admin.post(path, content=body, headers={SIGNATURE_HEADER: sign(secret, body)})


def new_player(admin: httpx.Client, balance: int, currency: str = "EUR") -> str:
    player = f"player:{uuid.uuid4().hex[:12]}"
    answer = signed_post(admin, "/admin/players",
                         {"player": player, "currency": currency, "balance": balance})
    assert answer.status_code == 200, answer.text
    return player


def arm_fault(admin: httpx.Client, kind: str, mode: str, count: int = 1) -> None:
    answer = signed_post(admin, "/admin/faults", {"kind": kind, "mode": mode, "count": count})
    assert answer.status_code == 200, answer.text


def transactions(admin: httpx.Client, player: str) -> list[dict[str, Any]]:
    query = urlencode({"player": player})
    answer = admin.get(f"/admin/transactions?{query}",
                       headers={SIGNATURE_HEADER: sign(SECRET, query.encode())})
    assert answer.status_code == 200, answer.text
    listed: list[dict[str, Any]] = answer.json()["transactions"]
    return listed


def new_id(prefix: str) -> str:
    return f"{prefix}:{uuid.uuid4().hex[:16]}"


def debit_of(player: str, amount: int, transaction_id: str | None = None,
             round_id: str | None = None) -> dict[str, Any]:
    return dict(transaction_id=transaction_id or new_id("debit"), player=player,
                round_id=round_id or new_id("round"), game=GAME, amount=amount, currency="EUR")


def refusal(call: Callable[[], object]) -> WalletRefused:
    with pytest.raises(WalletRefused) as refused:
        call()
    return refused.value


def ledger_balance(opening: int, listed: list[dict[str, Any]]) -> int:
    """opening + credits - debits + rollbacks: the balance the transaction list accounts for."""
    sign_of = {"debit": -1, "credit": 1, "rollback": 1}
    return opening + sum(sign_of[row["kind"]] * row["amount"] for row in listed)


# --- the tests ---

def test_sign_and_verify() -> None:
    body = b'{"amount":5}'
    signature = sign(SECRET, body)
    assert verify(SECRET, body, signature)
    assert verify(SECRET, body, signature.upper())  # hex is hex, whatever its case
    assert not verify(SECRET, body + b" ", signature)
    assert not verify(b"another secret", body, signature)
    assert not verify(SECRET, body, None)
    assert not verify(SECRET, body, "")
    assert not verify(SECRET, body, "é" * 64)


def test_error_codes_and_statuses() -> None:
    assert HTTP_STATUS[ErrorCode.INSUFFICIENT_FUNDS] == 409
    assert HTTP_STATUS[ErrorCode.UNKNOWN_PLAYER] == 404
    assert HTTP_STATUS[ErrorCode.INVALID_SIGNATURE] == 401
    assert HTTP_STATUS[ErrorCode.INVALID_REQUEST] == 422
    assert set(HTTP_STATUS) == set(ErrorCode)
    assert issubclass(WalletRefused, ReelforgeError) and issubclass(WalletUnknown, ReelforgeError)


def test_the_database_itself_refuses_an_overdraft(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'wallet.db'}")
    try:
        with engine.begin() as conn:
            conn.execute(insert(wallet_players).values(player="p", currency="EUR", balance=5))
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(update(wallet_players).values(balance=-1))
    finally:
        engine.dispose()


def test_the_secret_comes_from_a_file_or_the_environment(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_bytes(b"  from-file\n")
    assert read_secret(str(secret_file)) == b"from-file"
    monkeypatch.setenv(SECRET_ENV, "from-env")
    assert read_secret(None) == b"from-env"
    monkeypatch.setenv(SECRET_ENV, "")
    with pytest.raises(SystemExit, match=SECRET_ENV):
        read_secret(None)


def test_debit_credit_rollback_happy_path(admin: httpx.Client,
                                          wallet: SeamlessWalletClient) -> None:
    opening, stake, win, second_stake = 1_000, 100, 250, 40
    player = new_player(admin, opening)
    assert wallet.balance(player).balance == opening

    debit = debit_of(player, stake)
    debited = wallet.debit(**debit)
    assert (debited.transaction_id, debited.balance, debited.currency) == (
        debit["transaction_id"], opening - stake, "EUR")
    credit_id = new_id("credit")
    credited = wallet.credit(transaction_id=credit_id, player=player, round_id=debit["round_id"],
                             game=GAME, amount=win, currency="EUR",
                             debit_transaction_id=debit["transaction_id"], round_closed=True)
    assert credited.balance == opening - stake + win

    # a losing round: its closing credit is 0; a voided round: its debit rolled back
    lost = debit_of(player, second_stake)
    assert wallet.debit(**lost).balance == opening - stake + win - second_stake
    zero = wallet.credit(transaction_id=new_id("credit"), player=player,
                         round_id=lost["round_id"], game=GAME, amount=0, currency="EUR",
                         debit_transaction_id=lost["transaction_id"], round_closed=True)
    assert zero.balance == opening - stake + win - second_stake
    voided = debit_of(player, second_stake)
    wallet.debit(**voided)
    rollback = dict(transaction_id=new_id("rollback"), player=player,
                    round_id=voided["round_id"], game=GAME,
                    debit_transaction_id=voided["transaction_id"])
    reversed_ = wallet.rollback(**rollback)
    assert reversed_.rolled_back
    assert reversed_.balance == opening - stake + win - second_stake
    assert wallet.rollback(**rollback) == reversed_  # the same rollback again: applied once
    assert wallet.balance(player).balance == opening - stake + win - second_stake

    listed = transactions(admin, player)
    assert [row["kind"] for row in listed] == ["debit", "credit", "debit", "credit", "debit",
                                               "rollback"]
    assert [row["status"] for row in listed if row["kind"] == "debit"] == [
        "applied", "applied", "rolled_back"]
    assert ledger_balance(opening, listed) == wallet.balance(player).balance


def test_same_debit_twenty_times_sequentially(admin: httpx.Client,
                                               wallet: SeamlessWalletClient) -> None:
    opening, stake, repeats = 300, 25, 20
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    answers = [wallet.debit(**debit) for _ in range(repeats)]
    assert answers == [answers[0]] * repeats
    assert answers[0].balance == opening - stake
    assert wallet.balance(player).balance == opening - stake
    assert [row["kind"] for row in transactions(admin, player)] == ["debit"]


def test_same_debit_twenty_times_concurrently(admin: httpx.Client,
                                               wallet: SeamlessWalletClient) -> None:
    opening, stake, repeats = 300, 25, 20
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    start = threading.Barrier(repeats)

    def send(_: int) -> TransactionResponse:
        start.wait(timeout=30)
        return wallet.debit(**debit)

    with ThreadPoolExecutor(max_workers=repeats) as pool:
        answers = list(pool.map(send, range(repeats)))
    assert answers == [answers[0]] * repeats
    assert answers[0].balance == opening - stake
    assert wallet.balance(player).balance == opening - stake
    assert [row["kind"] for row in transactions(admin, player)] == ["debit"]


def test_same_id_with_another_body_is_a_mismatch(admin: httpx.Client,
                                                  wallet: SeamlessWalletClient) -> None:
    opening, stake = 200, 30
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    wallet.debit(**debit)
    refused = refusal(lambda: wallet.debit(**{**debit, "amount": stake + 1}))
    assert refused.code == "DUPLICATE_MISMATCH"
    assert debit["transaction_id"] in str(refused)
    # the same id as a credit is another body too
    refused = refusal(lambda: wallet.credit(
        transaction_id=debit["transaction_id"], player=player, round_id=debit["round_id"],
        game=GAME, amount=stake, currency="EUR", debit_transaction_id=None, round_closed=True))
    assert refused.code == "DUPLICATE_MISMATCH"
    assert wallet.balance(player).balance == opening - stake
    assert len(transactions(admin, player)) == 1


def test_insufficient_funds_names_the_balance(admin: httpx.Client,
                                              wallet: SeamlessWalletClient) -> None:
    opening = 30
    player = new_player(admin, opening)
    refused = refusal(lambda: wallet.debit(**debit_of(player, opening + 1)))
    assert (refused.code, refused.balance) == ("INSUFFICIENT_FUNDS", opening)
    assert wallet.balance(player).balance == opening
    assert transactions(admin, player) == []
    # the whole balance can be staked: it may reach 0, never below
    assert wallet.debit(**debit_of(player, opening)).balance == 0


def test_unknown_player_and_wrong_currency(admin: httpx.Client,
                                           wallet: SeamlessWalletClient) -> None:
    opening = 50
    stranger = f"player:{uuid.uuid4().hex[:12]}"
    assert refusal(lambda: wallet.debit(**debit_of(stranger, 1))).code == "UNKNOWN_PLAYER"
    assert refusal(lambda: wallet.balance(stranger)).code == "UNKNOWN_PLAYER"
    player = new_player(admin, opening)
    refused = refusal(lambda: wallet.debit(**{**debit_of(player, 1), "currency": "USD"}))
    assert refused.code == "WRONG_CURRENCY"
    assert wallet.balance(player).balance == opening


def test_rollback_of_an_unknown_debit_leaves_a_tombstone(admin: httpx.Client,
                                                          wallet: SeamlessWalletClient) -> None:
    opening, stake = 100, 10
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    rolled = wallet.rollback(transaction_id=new_id("rollback"), player=player,
                             round_id=debit["round_id"], game=GAME,
                             debit_transaction_id=debit["transaction_id"])
    assert (rolled.rolled_back, rolled.balance) == (False, opening)
    refused = refusal(lambda: wallet.debit(**debit))
    assert refused.code == "TRANSACTION_ROLLED_BACK"
    assert refusal(lambda: wallet.debit(**debit)).code == "TRANSACTION_ROLLED_BACK"
    refused = refusal(lambda: wallet.credit(
        transaction_id=new_id("credit"), player=player, round_id=debit["round_id"], game=GAME,
        amount=stake, currency="EUR", debit_transaction_id=debit["transaction_id"],
        round_closed=True))
    assert refused.code == "DEBIT_ROLLED_BACK"
    assert wallet.balance(player).balance == opening
    assert [(row["kind"], row["status"]) for row in transactions(admin, player)] == [
        ("rollback", "tombstone")]


def test_a_debit_with_a_credit_cannot_be_rolled_back(admin: httpx.Client,
                                                     wallet: SeamlessWalletClient) -> None:
    opening, stake, win = 100, 10, 35
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    wallet.debit(**debit)
    wallet.credit(transaction_id=new_id("credit"), player=player, round_id=debit["round_id"],
                  game=GAME, amount=win, currency="EUR",
                  debit_transaction_id=debit["transaction_id"], round_closed=True)
    refused = refusal(lambda: wallet.rollback(
        transaction_id=new_id("rollback"), player=player, round_id=debit["round_id"], game=GAME,
        debit_transaction_id=debit["transaction_id"]))
    assert refused.code == "CREDIT_RECEIVED"
    assert wallet.balance(player).balance == opening - stake + win


def test_a_bad_signature_changes_nothing(operator_url: str, admin: httpx.Client,
                                         wallet: SeamlessWalletClient) -> None:
    opening, stake = 100, 10
    player = new_player(admin, opening)
    body = json.dumps(debit_of(player, stake)).encode()
    tampered = body.replace(f'"amount": {stake}'.encode(), f'"amount": {stake + 1}'.encode())
    assert tampered != body
    for sent, headers in [(tampered, {SIGNATURE_HEADER: sign(SECRET, body)}),
                          (body, {SIGNATURE_HEADER: sign(b"wrong secret", body)}),
                          (body, {})]:
        answer = admin.post("/wallet/debit", content=sent, headers=headers)
        assert (answer.status_code, answer.json()["error"]) == (401, "INVALID_SIGNATURE")

    with SeamlessWalletClient(operator_url, b"wrong secret") as impostor:
        assert refusal(lambda: impostor.debit(**debit_of(player, stake))).code == \
            "INVALID_SIGNATURE"
        assert refusal(lambda: impostor.balance(player)).code == "INVALID_SIGNATURE"
    # the admin endpoints follow the same rule
    answer = signed_post(admin, "/admin/players",
                         {"player": player, "currency": "EUR", "balance": 10**6}, b"wrong")
    assert answer.status_code == 401
    assert wallet.balance(player).balance == opening
    assert transactions(admin, player) == []


@pytest.mark.parametrize("change", [
    {"amount": 10.0}, {"amount": "10"}, {"amount": -1}, {"amount": True}, {"amount": None},
    {"surprise": 1}, {"transaction_id": "has space"}, {"transaction_id": "x" * 97},
    {"transaction_id": ""}, {"currency": "eur"}, {"player": None},
], ids=repr)
def test_malformed_requests_are_refused(admin: httpx.Client, wallet: SeamlessWalletClient,
                                        change: dict[str, Any]) -> None:
    opening = 100
    player = new_player(admin, opening)
    answer = signed_post(admin, "/wallet/debit", {**debit_of(player, 10), **change})
    assert (answer.status_code, answer.json()["error"]) == (422, "INVALID_REQUEST")
    assert set(answer.json()) == {"error", "message"}
    assert wallet.balance(player).balance == opening
    assert transactions(admin, player) == []


def test_a_body_that_is_not_json_is_refused(admin: httpx.Client) -> None:
    answer = signed_post(admin, "/wallet/credit", b"{not json")
    assert (answer.status_code, answer.json()["error"]) == (422, "INVALID_REQUEST")


def test_the_client_checks_arguments_before_sending(wallet: SeamlessWalletClient) -> None:
    with pytest.raises(InvalidArgument, match="amount"):
        wallet.debit(**debit_of("player:x", -5))


def test_error_after_a_debit_then_rollback_restores_the_balance(
        admin: httpx.Client, wallet: SeamlessWalletClient) -> None:
    opening, stake = 500, 70
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    arm_fault(admin, "debit", "error_after")
    with pytest.raises(WalletUnknown) as unknown:
        wallet.debit(**debit)
    assert debit["transaction_id"] in str(unknown.value)
    assert wallet.balance(player).balance == opening - stake  # it was applied after all
    rolled = wallet.rollback(transaction_id=new_id("rollback"), player=player,
                             round_id=debit["round_id"], game=GAME,
                             debit_transaction_id=debit["transaction_id"])
    assert (rolled.rolled_back, rolled.balance) == (True, opening)
    assert wallet.balance(player).balance == opening
    assert ledger_balance(opening, transactions(admin, player)) == opening


def test_error_before_a_debit_applies_nothing_and_a_retry_applies_once(
        admin: httpx.Client, wallet: SeamlessWalletClient) -> None:
    opening, stake = 500, 70
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    arm_fault(admin, "debit", "error_before")
    with pytest.raises(WalletUnknown):
        wallet.debit(**debit)
    assert wallet.balance(player).balance == opening
    assert wallet.debit(**debit).balance == opening - stake
    assert wallet.debit(**debit).balance == opening - stake


def test_a_credit_is_retried_until_paid_once(admin: httpx.Client,
                                             wallet: SeamlessWalletClient) -> None:
    opening, stake, win, failures = 500, 70, 200, 3
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    wallet.debit(**debit)
    credit = dict(transaction_id=new_id("credit"), player=player, round_id=debit["round_id"],
                  game=GAME, amount=win, currency="EUR",
                  debit_transaction_id=debit["transaction_id"], round_closed=True)
    arm_fault(admin, "credit", "error_after", count=failures)
    for _ in range(failures):
        with pytest.raises(WalletUnknown):
            wallet.credit(**credit)
    assert wallet.credit(**credit).balance == opening - stake + win
    assert wallet.balance(player).balance == opening - stake + win
    assert [row["kind"] for row in transactions(admin, player)] == ["debit", "credit"]


def test_a_hanging_wallet_is_an_unknown_outcome(operator_url: str, admin: httpx.Client,
                                                wallet: SeamlessWalletClient) -> None:
    opening, stake = 500, 70
    player = new_player(admin, opening)
    debit = debit_of(player, stake)
    arm_fault(admin, "debit", "hang_after")
    with SeamlessWalletClient(operator_url, SECRET, timeout_s=1.0) as impatient, \
            pytest.raises(WalletUnknown, match="no answer within 1 s"):
        impatient.debit(**debit)
    rolled = wallet.rollback(transaction_id=new_id("rollback"), player=player,
                             round_id=debit["round_id"], game=GAME,
                             debit_transaction_id=debit["transaction_id"])
    assert (rolled.rolled_back, rolled.balance) == (True, opening)


def test_an_unreachable_wallet_is_an_unknown_outcome() -> None:
    with socket.socket() as probe:  # a port nobody listens on once the probe closes
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with SeamlessWalletClient(f"http://127.0.0.1:{port}", SECRET, timeout_s=2.0) as client:
        debit = debit_of("player:nobody", 1)
        with pytest.raises(WalletUnknown, match=debit["transaction_id"]):
            client.debit(**debit)


def test_concurrent_debits_never_overdraw(admin: httpx.Client,
                                          wallet: SeamlessWalletClient) -> None:
    opening, stake, calls = 500, 7, 100
    player = new_player(admin, opening)
    start = threading.Barrier(calls)

    def send(_: int) -> TransactionResponse | WalletRefused:
        start.wait(timeout=30)
        try:
            return wallet.debit(**debit_of(player, stake))
        except WalletRefused as refused:
            return refused

    with ThreadPoolExecutor(max_workers=calls) as pool:
        answers = list(pool.map(send, range(calls)))
    applied = [a for a in answers if isinstance(a, TransactionResponse)]
    refused = [a for a in answers if isinstance(a, WalletRefused)]
    affordable = opening // stake
    assert len(applied) == affordable
    assert len(refused) == calls - affordable
    # serialized debits: each success saw the balance one stake lower than the one before
    assert sorted(a.balance for a in applied) == [opening - stake * k
                                                  for k in range(affordable, 0, -1)]
    assert {(r.code, r.balance) for r in refused} == {("INSUFFICIENT_FUNDS",
                                                       opening % stake)}
    assert wallet.balance(player).balance == opening % stake
    listed = transactions(admin, player)
    assert len(listed) == affordable
    assert min(row["balance_after"] for row in listed) >= 0
    assert ledger_balance(opening, listed) == opening % stake


def test_every_admin_endpoint_needs_the_signature(admin: httpx.Client) -> None:
    """Unsigned, or signed with another key, no admin call answers or changes anything."""
    player = new_player(admin, 100)
    for headers in ({}, {SIGNATURE_HEADER: "0" * 64}):
        for method, path, body in [
                ("POST", "/admin/players", {"player": player, "currency": "EUR",
                                            "balance": 10**6}),
                ("POST", "/admin/faults", {"kind": "debit", "mode": "error_before",
                                           "count": 5}),
                ("GET", f"/admin/transactions?{urlencode({'player': player})}", None),
                ("GET", "/admin/report?after=0", None),
                ("GET", "/admin/report", None)]:
            answer = admin.request(method, path, headers=headers,
                                   content=None if body is None else json.dumps(body).encode())
            assert (answer.status_code, answer.json()["error"]) == (401, "INVALID_SIGNATURE"), \
                (method, path, answer.text)
    query = urlencode({"player": player})
    listed = admin.get(f"/wallet/balance?{query}",
                       headers={SIGNATURE_HEADER: sign(SECRET, query.encode())})
    assert listed.json()["balance"] == 100  # the refused calls set no balance, armed no fault
    answer = signed_post(admin, "/wallet/debit", debit_of(player, 1))
    assert answer.status_code == 200, answer.text


def test_the_report_lists_every_transaction_in_pages(admin: httpx.Client,
                                                     wallet: SeamlessWalletClient) -> None:
    player = new_player(admin, 1000)
    made = [signed_post(admin, "/wallet/debit", debit_of(player, 1)).json()["transaction_id"]
            for _ in range(3)]

    def page(query: str) -> dict[str, Any]:
        answer = admin.get(f"/admin/report?{query}",
                           headers={SIGNATURE_HEADER: sign(SECRET, query.encode())})
        assert answer.status_code == 200, answer.text
        return answer.json()

    everything = wallet.report()
    mine = [t["transaction_id"] for t in everything if t["player"] == player]
    assert mine == made
    assert [t["seq"] for t in everything] == sorted(t["seq"] for t in everything)
    first = page("after=0&limit=2")
    assert len(first["transactions"]) == 2 and first["next"] == first["transactions"][-1]["seq"]
    rest = page(f"after={first['next']}&limit=1000")
    assert first["transactions"] + rest["transactions"] == everything and rest["next"] is None
    for bad in ("after=-1", "limit=0", "limit=1001", "after=x", "player=p", "after=1&after=2"):
        answer = admin.get(f"/admin/report?{bad}",
                           headers={SIGNATURE_HEADER: sign(SECRET, bad.encode())})
        assert (answer.status_code, answer.json()["error"]) == (422, "INVALID_REQUEST"), bad
