"""Faults beyond the game server's own process (standards 4.3, J3-J4; issue 15 item 1): the
operator's wallet (seamless mode) killed, slow past the server's timeout, answering 503 or a
bare 500, delivering a call twice, or losing its reply after committing; a private PostgreSQL
killed (`pg_ctl -m immediate`, a crash) and restarted in the middle of a load; the disk under
a SQLite database full, then freed.

Each fault runs REPEAT times (REELFORGE_FAULT_REPEAT, default 2), and after every run: the
rounds settle (closed, or cancelled with any debit rolled back), `reelforge ledger check`'s
invariants hold, the server and the operator's wallet reconcile to the minor unit
(`reelforge ledger reconcile`, services/reconcile.py), every request cut off by the fault
gets its round (or its refusal) when sent again, and no transaction was applied twice. The
counts of kills, restarts and wallet faults run are printed at the end of each test.

The shared PostgreSQL at 127.0.0.1:5432 is never touched: the restart test starts its own
(initdb from /usr/lib/postgresql/15/bin, as the postgres user when run as root) and skips with
one plain reason where the binaries are absent. The disk-full test mounts a small tmpfs and
fills it where it may (root); elsewhere it lowers the server process's file-size limit
(prlimit RLIMIT_FSIZE) under its files, which fails their growth the same way.

    REELFORGE_FAULT_REPEAT=10 .venv/bin/python -m pytest tests/server/test_faults.py -s
"""

from __future__ import annotations

import json
import os
import pwd
import queue
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self
from urllib.parse import urlencode

import httpx
import pytest

from reelforge.server import commands
from reelforge.server.wallets.protocol import SIGNATURE_HEADER, sign

from .harness import Player, Server, free_port, write_config

REPEAT = int(os.environ.get("REELFORGE_FAULT_REPEAT", "2"))
SECRET = b"faults-operator-wallet-secret-0123"
LISTENING = "operator wallet listening on "
STALE_OPEN_S = 2  # a round left "open" this long has its debit rolled back (the default: 30)
SETTLE_S = 60
WALLET_OPENING = 1_000_000
CANDY = ("candy-jar-clusters", 20, 1)  # no choices: a seamless round is debit, outcome, credit
CANDY_PRICE = 20
CLUEDO = ("cluedo", 20, 1)
CLOSED = ("closed", "cancelled")
PG_BIN = Path("/usr/lib/postgresql/15/bin")

COUNTS: Counter[str] = Counter()  # what was run, for the closing lines of each test


def _report(capsys: pytest.CaptureFixture[str], test: str) -> None:
    with capsys.disabled():
        shown = ", ".join(f"{k} {v}" for k, v in sorted(COUNTS.items()))
        print(f"\n[faults] {test}: {shown}", flush=True)


# --- the operator's wallet, a process that can be killed and started again on its port ---

class WalletProcess:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.secret = root / "wallet.secret"
        self.secret.write_bytes(SECRET)
        self.db = root / "wallet.db"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.http = httpx.Client(base_url=self.url, timeout=30)

    def start(self) -> WalletProcess:
        with (self.root / "wallet.log").open("ab") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "reelforge.server.wallets.operator_service", "--host",
                 "127.0.0.1", "--port", str(self.port), "--database-url",
                 f"sqlite:///{self.db}", "--secret-file", str(self.secret)],
                stdout=subprocess.PIPE, stderr=err)
        lines: queue.Queue[bytes] = queue.Queue()
        out = self.process.stdout
        assert out is not None
        threading.Thread(target=lambda: lines.put(out.readline()), daemon=True).start()
        try:
            line = lines.get(timeout=60).decode()
        except queue.Empty:
            line = ""
        if not line.startswith(LISTENING):
            pytest.fail(f"the operator wallet did not start: {line!r}")
        return self

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(30)
        assert self.process.stdout is not None
        self.process.stdout.close()

    def post(self, path: str, payload: dict) -> httpx.Response:
        body = json.dumps(payload).encode()
        return self.http.post(path, content=body, headers={SIGNATURE_HEADER: sign(SECRET, body)})

    def get(self, path: str, **query: str) -> httpx.Response:
        text = urlencode(query)
        return self.http.get(f"{path}?{text}",
                             headers={SIGNATURE_HEADER: sign(SECRET, text.encode())})

    def add_player(self, player: str) -> None:
        answer = self.post("/admin/players", {"player": player, "currency": "EUR",
                                              "balance": WALLET_OPENING})
        assert answer.status_code == 200, answer.text

    def fault(self, kind: str, mode: str, count: int = 1, delay_s: float | None = None) -> None:
        body: dict = {"kind": kind, "mode": mode, "count": count}
        if delay_s is not None:
            body["delay_s"] = delay_s
        answer = self.post("/admin/faults", body)
        assert answer.status_code == 200, answer.text
        if count:
            COUNTS["wallet faults"] += count

    def balance(self, player: str) -> int:
        answer = self.get("/wallet/balance", player=player)
        assert answer.status_code == 200, answer.text
        return answer.json()["balance"]

    def transactions(self, player: str) -> list[dict]:
        answer = self.get("/admin/transactions", player=player)
        assert answer.status_code == 200, answer.text
        return answer.json()["transactions"]


def _seamless_operator(workdir: Path, wallet: WalletProcess) -> Path:
    """`seamless`, and `race` on the same wallet (its rounds kept apart from the checks')."""
    extra = "".join(
        f'[[operators]]\nid = "{op}"\ncurrency = "EUR"\njurisdiction = "default"\n'
        f'secret_file = "{workdir / "launch.key"}"\ndemo_balance_minor = 100000\n'
        'session_rate_per_s = 0\n'  # hundreds of bets in a loop: faster than a player
        f'wallet = "seamless"\nwallet_url = "{wallet.url}"\n'
        f'wallet_secret_file = "{wallet.secret}"\n'
        f'[[operators.games]]\nkey = "{CANDY[0]}"\ngame_id = "candy-jar-clusters-v1"\n'
        f'[[operators.games]]\nkey = "cluedo"\ngame_id = "cluedo-v1"\n'
        for op in ("seamless", "race", "gamble"))
    return write_config(workdir, extra)


@dataclass
class Seamless:
    player: Player
    external: str
    # request id -> the round it must be (None: refused, no round of its own)
    asked: dict[str, str | None] = field(default_factory=dict)


@dataclass
class WalletRig:
    server: Server
    wallet: WalletProcess
    config: Path
    players: list[Seamless] = field(default_factory=list)

    def new_player(self) -> Seamless:
        player = Player(self.server.base, operator="seamless")
        external = player.session()["player"]
        self.wallet.add_player(external)
        found = Seamless(player, external)
        self.players.append(found)
        return found


@pytest.fixture(scope="module")
def wallet_rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WalletRig]:
    workdir = tmp_path_factory.mktemp("faults_wallet")
    wallet = WalletProcess(workdir).start()
    config = _seamless_operator(workdir, wallet)
    server = Server(f"sqlite:///{workdir / 'server.db'}", workdir, config,
                    env={"REELFORGE_STALE_OPEN_S": str(STALE_OPEN_S)})
    try:
        server.start()
        yield WalletRig(server, wallet, config)
    finally:
        server.stop()
        wallet.kill()
        wallet.http.close()


def _settle(seamless: Seamless) -> list[dict]:
    return seamless.player.settled(SETTLE_S)


def _check_wallet_rig(rig: WalletRig) -> None:
    """Settled; the invariants; the reconciliation; each round debited and credited at most
    once (the wallet's own list); every request asked again finds its round."""
    for s in rig.players:
        rounds = _settle(s)
        by_round: dict[str, list[dict]] = {}
        for t in rig.wallet.transactions(s.external):
            by_round.setdefault(t["round_id"], []).append(t)
        for r in rounds:
            kinds = Counter(t["kind"] for t in by_round.get(r["round_id"], []))
            assert max(kinds.values(), default=0) <= 1, (r, by_round[r["round_id"]])
            if r["status"] == "closed":
                assert kinds == Counter(debit=1, credit=1), (r, by_round.get(r["round_id"]))
            else:
                assert kinds["credit"] == 0, (r, by_round[r["round_id"]])
        closed = [r for r in rounds if r["status"] == "closed"]
        assert rig.wallet.balance(s.external) == WALLET_OPENING - sum(
            r["stake_minor"] for r in closed) + sum(r["win_minor"] for r in closed)
        for request_id, round_id in s.asked.items():
            again = s.player.bet(*CANDY, request_id=request_id)
            if round_id is not None:
                assert again.status_code == 200, again.text
                assert again.json()["round_id"] == round_id
        s.asked.clear()
    problems, _ = commands.ledger_check(rig.server.db_url)
    assert problems == []
    assert commands.audit_verify(rig.server.db_url) == []
    found = commands.ledger_reconcile(rig.server.db_url, "seamless", rig.config)
    assert found.mismatches == []
    assert found.pending == []
    COUNTS["reconciliations"] += 1


def _bet(s: Seamless, expect: int, code: str | None = None) -> dict:
    request_id = uuid.uuid4().hex
    answer = s.player.bet(*CANDY, request_id=request_id)
    assert answer.status_code == expect, answer.text
    if code is not None:
        assert answer.json()["error"]["code"] == code, answer.text
        s.asked[request_id] = None
        return answer.json()
    view = answer.json()
    s.asked[request_id] = view["round_id"]
    return view


# (kind, mode, delay, what the bet answers, what the round ends as)
WALLET_FAULTS = [
    ("debit", "error_before", None, 503, "cancelled"),  # not applied: a tombstone rollback
    ("debit", "error_after", None, 503, "cancelled"),  # applied, reply lost: rolled back
    ("debit", "http500_after", None, 503, "cancelled"),  # applied, a bare 500: rolled back
    ("debit", "slow_before", 6.0, 503, "cancelled"),  # past the 5 s timeout: the late debit
    # meets the rollback's tombstone and is refused
    ("debit", "duplicate", None, 200, "closed"),  # delivered twice: applied once
    ("credit", "error_after", None, 200, "closed"),  # applied, reply lost: retried, once
    ("credit", "http500_after", None, 200, "closed"),
    ("credit", "error_before", None, 200, "closed"),  # not applied: retried until paid
    ("credit", "hang_after", None, 200, "closed"),  # applied, the reply held past the timeout
    ("credit", "duplicate", None, 200, "closed"),
]


@pytest.mark.parametrize(("kind", "mode", "delay", "answer", "ends"), WALLET_FAULTS,
                         ids=[f"{k}-{m}" for k, m, *_ in WALLET_FAULTS])
def test_wallet_fault(wallet_rig: WalletRig, capsys: pytest.CaptureFixture[str], kind: str,
                      mode: str, delay: float | None, answer: int, ends: str) -> None:
    for run in range(REPEAT):
        s = wallet_rig.new_player()
        wallet_rig.wallet.fault(kind, mode, 1, delay)
        if kind == "debit" and mode in ("error_after", "http500_after") and run % 2:
            # and the rollback that follows fails once too: the outbox retries it
            wallet_rig.wallet.fault("rollback", "error_before", 1)
        view = _bet(s, answer, "WALLET_UNAVAILABLE" if answer == 503 else None)
        if answer == 200:
            assert view["status"] in ("closed", "outcome_committed"), view
        [r] = _settle(s)
        assert r["status"] == ends, r
        calls = wallet_rig.wallet.transactions(s.external)
        if ends == "cancelled":
            assert "credit" not in {t["kind"] for t in calls}
            assert wallet_rig.wallet.balance(s.external) == WALLET_OPENING
            debits = [t for t in calls if t["kind"] == "debit"]
            assert all(t["status"] == "rolled_back" for t in debits), calls
        # the round after the fault plays as usual
        _bet(s, 200)
        try:
            _check_wallet_rig(wallet_rig)
        except AssertionError as exc:
            raise AssertionError(f"{kind} {mode}, run {run + 1} of {REPEAT}: {exc}") from exc
    _report(capsys, f"{kind} {mode}")


def test_duplicate_delivery_by_the_server_side(wallet_rig: WalletRig,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Each call the server sent, delivered again later (a proxy's retry, a replayed
    request): answered with the original response, applied once, balance unchanged."""
    s = wallet_rig.new_player()
    for _ in range(REPEAT):
        _bet(s, 200)
    _settle(s)
    before = wallet_rig.wallet.balance(s.external)
    calls = wallet_rig.wallet.transactions(s.external)
    for t in calls:
        body = {"transaction_id": t["transaction_id"], "player": t["player"],
                "round_id": t["round_id"], "game": t["game"], "amount": t["amount"],
                "currency": t["currency"]}
        if t["kind"] == "credit":
            body.update(debit_transaction_id=t["debit_transaction_id"],
                        round_closed=t["round_closed"])
        again = wallet_rig.wallet.post(f"/wallet/{t['kind']}", body)
        assert again.status_code == 200, again.text
        assert again.json()["transaction_id"] == t["transaction_id"]
        COUNTS["duplicate deliveries"] += 1
    assert wallet_rig.wallet.balance(s.external) == before
    assert wallet_rig.wallet.transactions(s.external) == calls
    _check_wallet_rig(wallet_rig)
    _report(capsys, "duplicate deliveries")


class Load:
    """Players betting in threads until stopped; every answer is a round (200) or one of the
    `tolerated` refusals, whose request ids are kept to be asked again afterwards."""

    def __init__(self, players: list, game: tuple, tolerated: set[str]) -> None:
        self.players, self.game, self.tolerated = players, game, tolerated
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.seen: dict[str, tuple[Player, str, str]] = {}  # request id -> player, round, seed
        self.cut: list[tuple[Player, str]] = []  # (player, request id) answered by a fault
        self.answered = Counter[str]()
        self._threads: list[threading.Thread] = []
        self._blocked: dict[int, bool] = {}

    def _run(self, player: Player) -> None:
        while not self.stop.is_set():
            if self.answered and self._blocked.get(id(player)):
                self._finish_open(player)
            request_id = uuid.uuid4().hex
            try:
                answer = player.bet(*self.game, request_id=request_id)
            except httpx.TransportError as exc:
                self.errors.append(f"transport: {exc}")
                return
            code = answer.json().get("error", {}).get("code") if answer.status_code != 200 \
                else "200"
            self.answered[str(code)] += 1
            if answer.status_code == 200:
                view = answer.json()
                self.seen[request_id] = (player, view["round_id"], view["outcome"]["seed"])
                if view["status"] not in CLOSED and view.get("choice"):
                    try:
                        player.finish(view)
                    except AssertionError:
                        self.cut.append((player, request_id))
                        time.sleep(0.1)
            elif code in self.tolerated:
                self.cut.append((player, request_id))
                time.sleep(0.1)
            elif code == "ROUND_ALREADY_OPEN":  # a round whose finish a fault cut off, or
                self._blocked[id(player)] = True  # a seamless one whose call is owed
                time.sleep(0.1)
            else:
                self.errors.append(f"{answer.status_code} {answer.text[:300]}")
                return

    def _finish_open(self, player: Player) -> None:
        self._blocked[id(player)] = False
        try:
            session = player.session()
            for view in session["open_rounds"]:
                if view.get("choice"):
                    player.finish(view)
        except AssertionError:  # the fault again: the next try
            self._blocked[id(player)] = True
            time.sleep(0.1)

    def __enter__(self) -> Self:
        for p in self.players:
            t = threading.Thread(target=self._run, args=(p,), daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for t in self._threads:
            t.join(120)


def test_wallet_killed_mid_load(wallet_rig: WalletRig, capsys: pytest.CaptureFixture[str]
                                ) -> None:
    """SIGKILL the operator's wallet while players bet, start it again on its port and its
    database: debits in flight are rolled back, credits owed are paid, once."""
    rng = random.Random("wallet-kills")
    players = [wallet_rig.new_player() for _ in range(2)]
    for run in range(REPEAT):
        with Load([s.player for s in players], CANDY, {"WALLET_UNAVAILABLE"}) as load:
            time.sleep(rng.uniform(0.3, 1.5))
            wallet_rig.wallet.kill()
            COUNTS["wallet kills"] += 1
            time.sleep(rng.uniform(0.2, 1.0))
            wallet_rig.wallet.start()
            time.sleep(0.3)
        assert load.errors == [], load.errors
        for player, request_id in load.cut:
            s = next(x for x in players if x.player is player)
            s.asked.setdefault(request_id, None)
        try:
            _check_wallet_rig(wallet_rig)
        except AssertionError as exc:
            raise AssertionError(f"wallet kill {run + 1} of {REPEAT}: {exc}") from exc
    _cli_reconcile(wallet_rig)
    _report(capsys, "wallet kills")


def _cli_reconcile(rig: WalletRig) -> None:
    """`reelforge ledger reconcile` as an operator runs it: exit 0, and exit 1 naming the
    transaction once the wallet holds one the server never sent."""
    command = [sys.executable, "-c", "from reelforge.cli import main; main()", "ledger",
               "reconcile", "--operator", "seamless", "--config", str(rig.config),
               "--database-url", rig.server.db_url]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "reconciled OK" in run.stdout
    s = rig.players[0]
    stray = f"{uuid.uuid4()}:debit"
    answer = rig.wallet.post("/wallet/debit", {
        "transaction_id": stray, "player": s.external, "round_id": stray.split(":")[0],
        "game": CANDY[0], "amount": 7, "currency": "EUR"})
    assert answer.status_code == 200, answer.text
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 1, run.stdout
    assert f"MISMATCH {stray}" in run.stdout and "never sent" in run.stdout, run.stdout
    assert "net movement" in run.stdout, run.stdout
    # undone for the checks after: rolled back (the 7 returned), then both records struck
    # from the wallet's own database, as if they had never been
    back = rig.wallet.post("/wallet/rollback", {
        "transaction_id": f"{stray}:undo", "player": s.external,
        "round_id": stray.split(":")[0], "game": CANDY[0], "debit_transaction_id": stray})
    assert back.status_code == 200, back.text
    with sqlite3.connect(rig.wallet.db, timeout=30) as conn:
        conn.execute("DELETE FROM operator_wallet_transactions WHERE transaction_id IN (?, ?)",
                     (stray, f"{stray}:undo"))
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_take_half_is_credited_to_a_seamless_wallet_at_once(wallet_rig: WalletRig) -> None:
    """TAKE HALF moves the banked half to the operator's wallet in a credit of its own
    (`<round>:bank:<step>`, round not closed) while the gamble goes on; the round's own credit
    then carries only the rest, and the reconciliation agrees to the minor unit."""
    rig = wallet_rig
    player = Player(rig.server.base, operator="gamble")
    external = player.session()["player"]
    rig.wallet.add_player(external)
    for _ in range(200):
        answer = player.bet("cluedo", 20, 1)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        offer = next((o for o in view["offers"] if o["kind"] == "gamble"), None)
        if offer is not None and offer["amount"] >= 2:
            break
        player.finish(view)
    else:
        pytest.fail("no Cluedo win of 2+ credits in 200 rounds")
    rid, denomination = view["round_id"], view["denomination"]
    before = rig.wallet.balance(external)
    halved = player.step(rid, "gamble", "half")
    assert halved.status_code == 200, halved.text
    banked = halved.json()["choice"]["state"]["banked"]
    assert banked == offer["amount"] // 2
    owed = {t["transaction_id"]: t for t in rig.wallet.transactions(external)}
    assert owed[f"{rid}:bank:0"]["amount"] == banked * denomination
    assert rig.wallet.balance(external) == before + banked * denomination
    closed = player.step(rid, "gamble", "collect")
    assert closed.status_code == 200, closed.text
    rounds = player.settled(SETTLE_S)
    mine = next(r for r in rounds if r["round_id"] == rid)
    assert mine["status"] == "closed" and mine["win_minor"] == offer["amount"] * denomination
    assert rig.wallet.balance(external) == before + offer["amount"] * denomination
    owed = {t["transaction_id"]: t for t in rig.wallet.transactions(external)}
    assert owed[f"{rid}:credit"]["amount"] == (offer["amount"] - banked) * denomination
    found = commands.ledger_reconcile(rig.server.db_url, "gamble", rig.config)
    assert found.mismatches == []
    assert found.pending == []


def _expire_session(server: Server, token: str) -> None:
    """The session of `token` ends now, as if its TTL had passed (the server reads expiry from
    its row on every request)."""
    from sqlalchemy import create_engine, update

    from reelforge.server.db.tables import sessions
    from reelforge.server.services.tokens import token_hash

    engine = create_engine(server.db_url)
    try:
        with engine.begin() as conn:
            ended = conn.execute(update(sessions).where(
                sessions.c.token_sha256 == token_hash(token)).values(expires_at=0)).rowcount
    finally:
        engine.dispose()
    assert ended == 1


def _round_status(server: Server, round_id: str) -> str | None:
    from sqlalchemy import create_engine, select

    from reelforge.server.db.tables import rounds

    engine = create_engine(server.db_url)
    try:
        with engine.connect() as conn:
            return conn.execute(select(rounds.c.status).where(rounds.c.id == round_id)).scalar()
    finally:
        engine.dispose()


def _until(what: str, found, timeout_s: float = SETTLE_S):
    deadline = time.monotonic() + timeout_s
    while not (answer := found()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout_s} s")
        time.sleep(0.2)
    return answer


def test_wins_and_rollbacks_reach_the_wallet_after_the_session_expired(
        wallet_rig: WalletRig) -> None:
    """J6 (Hub88: "token validity must not be validated in case of wins and rollbacks"): a
    credit and a rollback the wallet could not take at first are delivered by the outbox after
    the player's session has expired, and applied: they carry no session token (the wallet
    protocol has no field for one), and nothing on the server's side waits for the session."""
    from reelforge.server.wallets.protocol import CreditRequest, RollbackRequest

    for request in (CreditRequest, RollbackRequest):  # nothing a wallet could check a token by
        assert not [f for f in request.model_fields if "token" in f or "session" in f]
    rig = wallet_rig
    player = Player(rig.server.base, operator="seamless")  # not rig.players: its session ends
    external = player.session()["player"]
    rig.wallet.add_player(external)

    def calls(round_id: str | None = None) -> list[dict]:
        return [t for t in rig.wallet.transactions(external)
                if round_id is None or t["round_id"] == round_id]

    # A win: the credit's first three deliveries fail (1 + 2 s of the outbox's backoff)
    rig.wallet.fault("credit", "error_before", 3)
    answer = player.bet(*CANDY)
    assert answer.status_code == 200, answer.text
    view = answer.json()
    rid = view["round_id"]
    _expire_session(rig.server, player.token)
    gone = player.http.get("/api/v1/session")
    assert gone.status_code == 401 and gone.json()["error"]["code"] == "SESSION_EXPIRED"
    assert "credit" not in {t["kind"] for t in calls(rid)}, "paid before the session ended"
    credit = _until("the credit after expiry",
                    lambda: next((t for t in calls(rid) if t["kind"] == "credit"), None))
    win = view["outcome"]["total_win"] * view["denomination"]
    assert credit["amount"] == win
    _until("the round closed", lambda: _round_status(rig.server, rid) == "closed")
    after_win = WALLET_OPENING - view["stake_minor"] + win
    assert rig.wallet.balance(external) == after_win

    # A rollback: the debit's reply is lost, and the rollback's first three deliveries fail
    player = Player(rig.server.base, operator="seamless")
    rig.wallet.add_player(second := player.session()["player"])
    external = second
    rig.wallet.fault("debit", "error_after", 1)
    rig.wallet.fault("rollback", "error_before", 3)
    answer = player.bet(*CANDY)
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "WALLET_UNAVAILABLE"
    _expire_session(rig.server, player.token)
    assert player.http.get("/api/v1/session").status_code == 401
    [debit] = [t for t in calls() if t["kind"] == "debit"]
    assert debit["status"] != "rolled_back", "rolled back before the session ended"
    _until("the rollback after expiry", lambda: any(
        t["kind"] == "debit" and t["status"] == "rolled_back" for t in calls()))
    assert rig.wallet.balance(external) == WALLET_OPENING
    _until("the round cancelled", lambda: _round_status(rig.server, debit["round_id"])
           == "cancelled")


def test_reconcile_names_each_mismatch(wallet_rig: WalletRig) -> None:
    """The reconciliation of the rig's rounds with the wallet's records, each record altered
    in turn as a faulty or dishonest wallet would hold it: every change is named."""
    from reelforge.server.db.engine import make_engine, snapshot
    from reelforge.server.services.reconcile import reconcile

    s = wallet_rig.new_player()
    view = _bet(s, 200)
    _settle(s)
    rows = wallet_rig.wallet.get("/admin/report").json()["transactions"]
    mine = [r for r in rows if r["round_id"] == view["round_id"]]
    debit = next(r for r in mine if r["kind"] == "debit")
    credit = next(r for r in mine if r["kind"] == "credit")
    engine = make_engine(wallet_rig.server.db_url)

    def found(changed: list[dict]) -> list[str]:
        with snapshot(engine) as conn:
            return reconcile(conn, "seamless", changed).mismatches

    def altered(row: dict, **change: object) -> list[dict]:
        return [({**r, **change} if r is row else r) for r in rows]

    try:
        assert found(rows) == []
        cases = [
            (altered(credit, amount=credit["amount"] + 1), [credit["transaction_id"],
                                                            "credited"]),
            (altered(debit, amount=debit["amount"] - 1), [debit["transaction_id"], "debited"]),
            (altered(debit, status="rolled_back"), [debit["transaction_id"], "rolled the stake"]),
            (altered(credit, player="someone-else"), [credit["transaction_id"],
                                                      "'someone-else'"]),
            ([r for r in rows if r is not credit], [credit["transaction_id"], "no record"]),
            (rows + [{**credit, "transaction_id": f"{view['round_id']}:bonus"}],
             ["never sent"]),
            (rows + [credit], ["listed twice"]),
        ]
        for changed, named in cases:
            problems = found(changed)
            assert problems, named
            text = " ".join(problems)
            for part in named:
                assert part in text, (named, problems)
    finally:
        engine.dispose()


# Not strict: it depends on the outbox worker's pass falling between 2 s and 3 s, which a
# loaded machine may miss (then the round closes as it should, and this passes).
def test_reconcile_refuses_what_it_cannot_compare(tmp_path: Path) -> None:
    """An unknown operator, one whose wallet is the server's own ledger, and a wallet that
    does not answer: each one sentence, no comparison pretended."""
    from reelforge.errors import InvalidArgument

    secret = tmp_path / "wallet.secret"
    secret.write_bytes(SECRET)
    down = f"http://127.0.0.1:{free_port()}"
    config = write_config(tmp_path, (
        f'[[operators]]\nid = "gone"\ncurrency = "EUR"\njurisdiction = "default"\n'
        f'secret_file = "{tmp_path / "launch.key"}"\nwallet = "seamless"\n'
        f'wallet_url = "{down}"\nwallet_secret_file = "{secret}"\n'
        f'[[operators.games]]\nkey = "{CANDY[0]}"\ngame_id = "candy-jar-clusters-v1"\n'))
    url = f"sqlite:///{tmp_path / 'none.db'}"
    for operator, named in [("nobody", "not in"), ("demo", "only a seamless operator"),
                            ("gone", "did not report")]:
        with pytest.raises(InvalidArgument, match=named):
            commands.ledger_reconcile(url, operator, config)


def test_a_debit_answered_while_its_rollback_is_in_flight(wallet_rig: WalletRig) -> None:
    """The debit applied at once but answered 3 s later (inside the 5 s timeout, past the
    2 s after which the outbox worker rolls back an open round's debit), the rollback applied
    at once and answered 2 s later: the round must end closed (debit and credit) or cancelled
    (debit rolled back), and reconcile. Needs a debit slower than REELFORGE_STALE_OPEN_S
    (30 s by default, so a request stalled that long in the server, e.g. queued writers)."""
    player = Player(wallet_rig.server.base, operator="race")
    external = player.session()["player"]
    wallet_rig.wallet.add_player(external)
    wallet_rig.wallet.fault("debit", "slow_after", 1, 3.0)
    wallet_rig.wallet.fault("rollback", "slow_after", 1, 2.0)
    answer = player.bet(*CANDY)
    assert answer.status_code in (200, 503), answer.text
    deadline = time.monotonic() + 6  # the rollback's answer is in by 5 s
    while time.monotonic() < deadline:
        [r] = player.history()
        if r["status"] in CLOSED:
            break
        time.sleep(0.25)
    found = commands.ledger_reconcile(wallet_rig.server.db_url, "race", wallet_rig.config)
    assert r["status"] in CLOSED, (r, found.mismatches, found.pending)
    assert found.mismatches == [] and found.pending == []


# --- PostgreSQL of our own, crashed and restarted under load ---

@dataclass
class PrivatePostgres:
    root: Path
    port: int
    user: str | None  # run as this user (root may not run postgres)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(PG_BIN / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              check=False)
        if check and done.returncode != 0:
            log = self.root / "pg.log"
            raise AssertionError(f"{args[0]} {args[-1]}: exit {done.returncode}: "
                                 f"{done.stdout}{done.stderr}"
                                 + (log.read_text()[-1500:] if log.exists() else ""))
        return done

    def init(self) -> None:
        self._run("initdb", "-D", str(self.root / "data"), "-U", "postgres", "-A", "trust",
                  "--no-sync", "-E", "UTF8")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.root / "data"), "-l", str(self.root / "pg.log"),
                  "-w", "-t", "60", "-o",
                  f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                  "-c fsync=on -c max_connections=200", "start")

    def crash(self) -> None:
        """Immediate shutdown: no checkpoint, the next start replays the WAL (a crash)."""
        self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop",
                  check=False)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"


@pytest.fixture
def private_pg() -> Iterator[PrivatePostgres]:
    if not (PG_BIN / "initdb").exists() or not (PG_BIN / "pg_ctl").exists():
        pytest.skip(f"no PostgreSQL 15 binaries at {PG_BIN} (initdb, pg_ctl)")
    user = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root without a postgres user to run PostgreSQL as")
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser to run PostgreSQL as postgres")
        user = "postgres"
    # Not under pytest's temporary folder: every pytest session that starts (another
    # worker's, another checkout's) sets that folder's mode back to 0700, cutting the
    # postgres user off from its data.
    root = Path(tempfile.mkdtemp(prefix="reelforge-pg-"))
    if user is not None:
        shutil.chown(root, user, user)
    pg = PrivatePostgres(root, free_port(), user)
    try:
        pg.init()
        pg.start()
        yield pg
    finally:
        pg.stop()
        shutil.rmtree(root, ignore_errors=True)


def test_postgres_restarted_under_load(private_pg: PrivatePostgres, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Players bet as fast as they can while PostgreSQL crashes and comes back: requests meet
    503 DATABASE_UNAVAILABLE meanwhile, never a 500; every round answered before the crash is
    there after it with its seed; every request cut off, sent again, gets its round once."""
    rng = random.Random("pg-restarts")
    server = Server(private_pg.url, tmp_path, write_config(tmp_path))
    server.start()
    try:
        players = [Player(server.base) for _ in range(3)]
        games = [CLUEDO, ("candy-jar-clusters", 20, 1), ("cops-n-robbers", 10, 1)]
        loads = []
        for run in range(max(REPEAT, 3)):
            with Load(players, games[run % len(games)], {"DATABASE_UNAVAILABLE"}) as load:
                time.sleep(rng.uniform(0.5, 1.5))
                private_pg.crash()
                COUNTS["postgres crashes"] += 1
                time.sleep(rng.uniform(0.3, 1.0))
                private_pg.start()
                COUNTS["postgres restarts"] += 1
                time.sleep(1.0)
            loads.append(load)
            assert load.errors == [], load.errors
            try:
                _check_after_db_fault(server, players, load)
            except AssertionError as exc:
                raise AssertionError(f"PostgreSQL crash {run + 1}: {exc}") from exc
        assert sum(load.answered["DATABASE_UNAVAILABLE"] for load in loads) > 0, \
            [load.answered for load in loads]
        # a 500 is logged as an internal error: none, whatever the database did
        assert "internal error" not in server.log.read_text()
    finally:
        server.stop()
    _report(capsys, "postgres restarts")


def _check_after_db_fault(server: Server, players: list[Player], load: Load) -> None:
    for player, request_id in load.cut:  # cut off: its round, or none, never two
        again = player.bet(*load.game, request_id=request_id)
        if again.status_code == 409 and again.json()["error"]["code"] == "ROUND_ALREADY_OPEN":
            for view in player.session()["open_rounds"]:
                player.finish(view)
            again = player.bet(*load.game, request_id=request_id)
        assert again.status_code == 200, again.text
        player.finish(again.json())
    for player in players:
        for view in player.session()["open_rounds"]:
            player.finish(view)
    # every round answered before the crash is in the history (below); the last ones answered
    # before it, and a few earlier, are read back whole with the seed they were answered with
    answered = list(load.seen.values())
    for player, round_id, seed in answered[-12:] + random.Random(len(answered)).sample(
            answered[:-12], min(6, max(0, len(answered) - 12))):
        stored = player.http.get(f"/api/v1/rounds/{round_id}")
        assert stored.status_code == 200, stored.text
        assert stored.json()["outcome"]["seed"] == seed
    listed = {p: {r["round_id"] for r in p.history()} for p in players}
    for player, round_id, _seed in answered:
        assert round_id in listed[player], round_id
    for player in players:
        rounds = player.history()
        assert len({r["round_id"] for r in rounds}) == len(rounds)
        paid = [r for r in rounds if r["status"] != "cancelled"]
        assert all(r["status"] == "closed" for r in paid), [r for r in paid
                                                            if r["status"] != "closed"]
        assert player.balance() == 100_000 - sum(r["stake_minor"] for r in paid) + sum(
            r["win_minor"] or 0 for r in paid)
    problems, _ = commands.ledger_check(server.db_url)
    assert problems == []
    assert commands.audit_verify(server.db_url) == []


# --- the disk under SQLite full, then freed ---

class Disk:
    """Where the server's SQLite files live, and a way to take away and give back the space."""

    def __init__(self, directory: Path, how: str) -> None:
        self.directory, self.how = directory, how
        self._filler = directory / "filler"

    def fill(self, server: Server) -> None:
        if self.how == "tmpfs":  # every free byte of the small filesystem taken by one file
            fd = os.open(self._filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                for size in (1 << 16, 512):
                    try:
                        while os.write(fd, b"\0" * size) == size:
                            pass
                    except OSError:
                        pass
            finally:
                os.close(fd)
        else:  # no file of the server's may grow past the largest it has (EFBIG, like ENOSPC)
            assert server.process is not None
            largest = max(f.stat().st_size for f in self.directory.iterdir())
            _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (largest, hard))

    def free(self, server: Server) -> None:
        if self.how == "tmpfs":
            self._filler.unlink()
        else:
            assert server.process is not None
            _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (hard, hard))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Disk]:
    """A 16 MB tmpfs where root may mount one; else (or with REELFORGE_DISK_FULL=fsize) the
    server's file-size limit lowered under it (Linux prlimit), which fails its writes alike."""
    directory = tmp_path / "disk"
    directory.mkdir()
    forced = os.environ.get("REELFORGE_DISK_FULL")
    if forced != "fsize" and os.geteuid() == 0 and shutil.which("mount") is not None:
        made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs",
                               str(directory)], capture_output=True, text=True, check=False)
        if made.returncode == 0:
            try:
                yield Disk(directory, "tmpfs")
            finally:
                subprocess.run(["umount", "-l", str(directory)], capture_output=True,
                               check=False)
            return
    if not hasattr(resource, "prlimit"):
        pytest.skip("neither a tmpfs to fill (root) nor prlimit (Linux) here")
    yield Disk(directory, "fsize")


def test_sqlite_disk_full(small_disk: Disk, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    """No space left: bets and steps answer 503 DATABASE_UNAVAILABLE (never a 500, never half
    applied: the balance is always the opening less the stakes plus the wins of the rounds
    the history shows); open rounds stay recoverable; when space returns, the same request ids
    play once."""
    db_url = f"sqlite:///{small_disk.directory / 'server.db'}"
    server = Server(db_url, tmp_path, write_config(tmp_path))
    server.start()
    try:
        players = [Player(server.base) for _ in range(2)]
        for run in range(REPEAT):
            small_disk.fill(server)
            COUNTS[f"disk full ({small_disk.how})"] += 1
            refused: list[tuple[Player, str]] = []
            for i in range(400):
                player = players[i % 2]
                for view in player.session()["open_rounds"]:
                    player.finish(view)
                request_id = uuid.uuid4().hex
                answer = player.bet(*CLUEDO, request_id=request_id)
                if answer.status_code == 503:
                    assert answer.json()["error"]["code"] == "DATABASE_UNAVAILABLE", answer.text
                    refused.append((player, request_id))
                    if len(refused) >= 6:
                        break
                else:
                    assert answer.status_code == 200, answer.text
                    player.finish(answer.json())
            assert refused, "400 rounds played on a full disk"
            COUNTS["refused on a full disk"] += len(refused)
            for player in players:  # nothing half-applied while full
                _balance_identity(player)
            small_disk.free(server)
            for player, request_id in refused:
                again = player.bet(*CLUEDO, request_id=request_id)
                assert again.status_code == 200, again.text
                player.finish(again.json())
                assert player.bet(*CLUEDO, request_id=request_id).json()["round_id"] == \
                    again.json()["round_id"]
            for player in players:
                _balance_identity(player)
            problems, _ = commands.ledger_check(db_url)
            assert problems == [], f"disk full {run + 1}: {problems}"
            assert commands.audit_verify(db_url) == []
        assert "internal error" not in server.log.read_text()
    finally:
        server.stop()
    _report(capsys, "disk full")


def _balance_identity(player: Player) -> None:
    session = player.session()
    rounds = player.history()
    paid = [r for r in rounds if r["status"] != "cancelled"]
    held = {v["round_id"] for v in session["open_rounds"]}
    assert {r["round_id"] for r in paid if r["status"] != "closed"} <= held
    assert session["balance_minor"] == 100_000 - sum(r["stake_minor"] for r in paid) + sum(
        r["win_minor"] or 0 for r in paid)

