"""Recovery: a `reelforge serve` process killed (SIGKILL, no clean-up) at every crash point of a
round, of a choice step and of the seamless wallet's outbox, then at random moments while
players play as fast as they can; each time restarted on the same database. Afterwards no money
is lost or created, no round is duplicated, and every round resumes with its outcome.

The crash points are the server's own (services/common.py `crash_point`, armed by the
environment variable REELFORGE_CRASH_AT): the process kills itself at exactly that line. One
server restarts many times here, and a restart costs ~10-15 s, so the crash points are chained:
the restart that checks one point is the start armed for the next, ordered so that what the
check sets off (a retried request, the outbox worker's rollbacks and credits) never reaches the
point armed next.

The seamless wallet's operator side is the reference operator wallet, a real process on its own
SQLite file that outlives every restart of the game server. Each player's money is accounted
for from what the test itself knows: the opening balance it gave the player, and the stakes and
wins of the player's rounds (`/api/v1/rounds`); the operator's own transaction list says how
many times each debit, credit and rollback was applied.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from reelforge.server import commands
from reelforge.server.wallets.protocol import SIGNATURE_HEADER, sign

from .harness import Player, Server, write_config

CRASH_ENV = "REELFORGE_CRASH_AT"
# The outbox worker rolls back the debit of a round left "open" this long; the default (30 s)
# would make each such check wait half a minute.
STALE_OPEN_S = 3
SECRET = b"recovery-operator-wallet-secret"
LISTENING = "operator wallet listening on "
SETTLE_S = 60  # the outbox's retries back off 1, 2, 4 s...: a minute covers several
DEMO_BALANCE = 100_000  # write_config's demo operator, and ours
WALLET_OPENING = 50_000  # what the operator's wallet holds for each seamless player
# Cluedo at 20 lines x 1 credit (20 minor units): a win offers the red/black gamble, a step.
CLUEDO = ("cluedo", 20, 1)
CLUEDO_PRICE = 20
# Candy Jar (20 lines x 1 credit): no choices, so a seamless round is debit, outcome, credit.
CANDY = ("candy-jar-clusters", 20, 1)
CANDY_PRICE = 20
CLOSED = ("closed", "cancelled")
# The random-kill loop's length, per database: each kill costs a restart (~7-15 s), and the
# suite's time is shared (4 per database here); REELFORGE_RECOVERY_KILLS=10 gives 20 kills.
KILLS = int(os.environ.get("REELFORGE_RECOVERY_KILLS", "4"))


# --- the operator's wallet service ---

def _signed_post(http: httpx.Client, path: str, payload: dict) -> httpx.Response:
    body = json.dumps(payload).encode()
    return http.post(path, content=body, headers={SIGNATURE_HEADER: sign(SECRET, body)})


def _signed_get(http: httpx.Client, path: str, player: str) -> httpx.Response:
    query = urlencode({"player": player})
    return http.get(f"{path}?{query}", headers={SIGNATURE_HEADER: sign(SECRET, query.encode())})


@dataclass
class Wallet:
    url: str
    http: httpx.Client

    def add_player(self, player: str, balance: int) -> None:
        answer = _signed_post(self.http, "/admin/players",
                              {"player": player, "currency": "EUR", "balance": balance})
        assert answer.status_code == 200, answer.text

    def balance(self, player: str) -> int:
        answer = _signed_get(self.http, "/wallet/balance", player)
        assert answer.status_code == 200, answer.text
        return answer.json()["balance"]

    def transactions(self, player: str) -> list[dict]:
        answer = _signed_get(self.http, "/admin/transactions", player)
        assert answer.status_code == 200, answer.text
        return answer.json()["transactions"]

    def fault(self, kind: str, mode: str, count: int) -> None:
        answer = _signed_post(self.http, "/admin/faults",
                              {"kind": kind, "mode": mode, "count": count})
        assert answer.status_code == 200, answer.text


def _first_line(process: subprocess.Popen, timeout_s: float) -> str:
    lines: queue.Queue[bytes] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        return lines.get(timeout=timeout_s).decode().strip()
    except queue.Empty:
        return ""


@pytest.fixture(scope="module")
def wallet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Wallet]:
    root = tmp_path_factory.mktemp("operator_wallet")
    secret = root / "secret"
    secret.write_bytes(SECRET)
    log = root / "stderr.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "reelforge.server.wallets.operator_service", "--host",
             "127.0.0.1", "--port", "0", "--database-url", f"sqlite:///{root / 'wallet.db'}",
             "--secret-file", str(secret)], stdout=subprocess.PIPE, stderr=err)
    try:
        line = _first_line(process, 60)
        if not line.startswith(LISTENING):
            pytest.fail(f"the operator wallet did not start: {line!r} {log.read_text()[-2000:]}")
        with httpx.Client(base_url=line.removeprefix(LISTENING), timeout=30) as http:
            yield Wallet(line.removeprefix(LISTENING), http)
    finally:
        process.kill()
        process.wait(30)
        assert process.stdout is not None
        process.stdout.close()


@pytest.fixture(autouse=True)
def no_fault_left_armed(wallet: Wallet) -> Iterator[None]:
    """A test that fails before its armed fault fires must not hand it to the next test."""
    yield
    for kind in ("debit", "credit", "rollback"):
        wallet.fault(kind, "error_before", 0)


# --- the game server, restarted on one database ---

@dataclass
class Seamless:
    player: Player
    external: str  # the operator's name for the player
    opening: int


@dataclass
class Rig:
    """One database, one game server (restarted many times, on one port), the operator's
    wallet, and the players whose money the checks account for."""

    server: Server
    wallet: Wallet
    ledger_players: list[Player] = field(default_factory=list)
    seamless_players: list[Seamless] = field(default_factory=list)
    armed: str | None = None  # the crash point the running server was started with

    @property
    def url(self) -> str:
        return self.server.db_url

    def restart(self, crash: str | None = None) -> None:
        """Kill the server if it still runs, start it again (armed at `crash`, if given), and
        give every player a fresh connection pool."""
        assert self.server.process is not None
        if self.server.process.poll() is None:
            self.server.kill()
        self.server.start(env={CRASH_ENV: crash} if crash else None)
        self.armed = crash
        for p in self.ledger_players + [s.player for s in self.seamless_players]:
            _reconnect(p)

    def new_ledger_player(self) -> Player:
        player = Player(self.server.base)
        self.ledger_players.append(player)
        return player

    def new_seamless_player(self) -> Seamless:
        player = Player(self.server.base, operator="seamless")
        external = player.session()["player"]
        self.wallet.add_player(external, WALLET_OPENING)
        found = Seamless(player, external, WALLET_OPENING)
        self.seamless_players.append(found)
        return found

    def dies(self, call: Callable[[], httpx.Response]) -> None:
        """`call` is cut off by the armed crash point: the process killed itself by SIGKILL."""
        with pytest.raises(httpx.TransportError):
            answer = call()
            pytest.fail(f"the request was answered ({answer.status_code}: {answer.text[:300]})")
        assert self.server.wait_dead(60) == -signal.SIGKILL


def _reconnect(player: Player) -> None:
    player.http.close()
    player.http = httpx.Client(base_url=player.base, timeout=60,
                               headers={"Authorization": f"Bearer {player.token}"})


def _seamless_extra(key: Path, wallet: Wallet, secret: Path) -> str:
    return (f'[[operators]]\nid = "seamless"\ncurrency = "EUR"\njurisdiction = "default"\n'
            f'secret_file = "{key}"\ndemo_balance_minor = {DEMO_BALANCE}\nwallet = "seamless"\n'
            'session_rate_per_s = 0\n'  # hundreds of bets in a loop: faster than a player
            f'wallet_url = "{wallet.url}"\nwallet_secret_file = "{secret}"\n'
            f'[[operators.games]]\nkey = "{CANDY[0]}"\ngame_id = "candy-jar-clusters-v1"\n')


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def rig(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
        wallet: Wallet) -> Iterator[Rig]:
    workdir = tmp_path_factory.mktemp(f"recovery_{request.param}")
    if request.param == "sqlite":
        url = f"sqlite:///{workdir / 'recovery.db'}"
    else:
        url = request.getfixturevalue("pg_database")
    secret = workdir / "wallet.secret"
    secret.write_bytes(SECRET)
    config = write_config(workdir, _seamless_extra(workdir / "launch.key", wallet, secret))
    server = Server(url, workdir, config, env={"REELFORGE_STALE_OPEN_S": str(STALE_OPEN_S)})
    try:
        server.start()
        yield Rig(server, wallet)
    finally:
        server.stop()


# --- what every restart must leave true ---

def _round(player: Player, round_id: str) -> dict:
    answer = player.http.get(f"/api/v1/rounds/{round_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def _check_ledger_player(player: Player) -> None:
    """Closed, or open at a committed step waiting for the player's choice; and the balance is
    the demo balance less every stake plus every win."""
    session = player.session()
    waiting = {v["round_id"]: v for v in session["open_rounds"]}
    rounds = player.history()
    for r in rounds:
        if r["status"] not in CLOSED:
            # the ledger wallet commits a round's whole start in one transaction: an open
            # round is one whose outcome offers a choice
            assert r["status"] in ("outcome_committed", "credited"), r
            assert r["round_id"] in waiting, r
            assert waiting[r["round_id"]]["choice"] is not None, waiting[r["round_id"]]
    assert set(waiting) <= {r["round_id"] for r in rounds}
    paid = [r for r in rounds if r["status"] != "cancelled"]
    # what a gamble still open banked (TAKE HALF) is paid already; a settled round's win holds it
    banked = sum(s["result"].get("banked_minor", 0) for v in waiting.values()
                 if v["win_minor"] is None for s in v["steps"])
    assert session["balance_minor"] == DEMO_BALANCE - sum(r["stake_minor"] for r in paid) + sum(
        r["win_minor"] or 0 for r in paid) + banked


def _settle(seamless: Seamless) -> list[dict]:
    return seamless.player.settled(SETTLE_S)


def _check_seamless_player(rig: Rig, seamless: Seamless) -> None:
    """Each closed round: its debit applied once and one credit of its win; each cancelled
    one: no credit, its debit never made or rolled back; the operator's balance is the opening
    less the closed rounds' stakes plus their wins."""
    rounds = _settle(seamless)
    listed = rig.wallet.transactions(seamless.external)
    by_round: dict[str, list[dict]] = {}
    for t in listed:
        by_round.setdefault(t["round_id"], []).append(t)
    assert set(by_round) <= {r["round_id"] for r in rounds}
    for r in rounds:
        calls = by_round.get(r["round_id"], [])
        kinds = sorted(t["kind"] for t in calls)
        if r["status"] == "closed":
            assert kinds == ["credit", "debit"], (r, calls)
            debit = next(t for t in calls if t["kind"] == "debit")
            credit = next(t for t in calls if t["kind"] == "credit")
            assert (debit["status"], debit["amount"]) == ("applied", r["stake_minor"]), calls
            assert credit["amount"] == r["win_minor"], (r, calls)
        else:
            assert "credit" not in kinds, (r, calls)
            assert kinds.count("rollback") <= 1 and kinds.count("debit") <= 1, calls
            for t in calls:
                if t["kind"] == "debit":
                    assert t["status"] == "rolled_back", (r, calls)
                    assert "rollback" in kinds, (r, calls)
    closed = [r for r in rounds if r["status"] == "closed"]
    assert rig.wallet.balance(seamless.external) == seamless.opening - sum(
        r["stake_minor"] for r in closed) + sum(r["win_minor"] for r in closed)


def _check_invariants(rig: Rig) -> None:
    problems, _ = commands.ledger_check(rig.url)
    assert problems == []
    assert commands.audit_verify(rig.url) == []
    for player in rig.ledger_players:
        _check_ledger_player(player)
    for seamless in rig.seamless_players:
        _check_seamless_player(rig, seamless)


def _cli_checks(url: str) -> None:
    """`reelforge ledger check` and `reelforge audit verify`, as an operator runs them."""
    runs = [subprocess.Popen([sys.executable, "-c", "from reelforge.cli import main; main()",
                              *args, "--database-url", url], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
            for args in (("ledger", "check"), ("audit", "verify"))]
    for run in runs:
        out, _ = run.communicate(timeout=300)
        assert run.returncode == 0, out


# --- the seamless wallet, healthy and faulty (one server start per database) ---

def test_seamless_round_debits_and_credits_once(rig: Rig) -> None:
    seamless = rig.new_seamless_player()
    answer = seamless.player.bet(*CANDY)
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["status"] == "closed"
    assert (view["stake_minor"], view["win_minor"]) == (CANDY_PRICE,
                                                        view["outcome"]["total_win"])
    calls = rig.wallet.transactions(seamless.external)
    assert [(t["kind"], t["amount"]) for t in calls] == [
        ("debit", CANDY_PRICE), ("credit", view["win_minor"])]
    assert rig.wallet.balance(seamless.external) == WALLET_OPENING - CANDY_PRICE + view[
        "win_minor"]
    _check_invariants(rig)


def test_seamless_debit_failure_is_rolled_back(rig: Rig) -> None:
    seamless = rig.new_seamless_player()
    # the operator applies the debit, then answers 503: the server cannot know it was applied
    rig.wallet.fault("debit", "error_after", 1)
    answer = seamless.player.bet(*CANDY)
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "WALLET_UNAVAILABLE"
    assert rig.wallet.balance(seamless.external) == WALLET_OPENING
    calls = rig.wallet.transactions(seamless.external)
    assert [(t["kind"], t["status"]) for t in calls] == [("debit", "rolled_back"),
                                                         ("rollback", "applied")]
    [voided] = seamless.player.history()
    assert voided["status"] == "cancelled"
    # nothing is left open: the next round plays
    again = seamless.player.bet(*CANDY)
    assert again.status_code == 200, again.text
    _check_invariants(rig)


def test_seamless_credit_failure_is_retried_until_acknowledged(rig: Rig) -> None:
    seamless = rig.new_seamless_player()
    # applied but unacknowledged, twice: the inline try and the worker's first retry fail
    rig.wallet.fault("credit", "error_after", 2)
    answer = seamless.player.bet(*CANDY)
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["status"] == "outcome_committed"
    blocked = seamless.player.bet(*CANDY)
    assert blocked.status_code == 409 and blocked.json()["error"]["code"] == "ROUND_ALREADY_OPEN"
    [closed] = _settle(seamless)
    assert closed["status"] == "closed" and closed["win_minor"] == view["outcome"]["total_win"]
    credits = [t for t in rig.wallet.transactions(seamless.external) if t["kind"] == "credit"]
    assert [(t["round_id"], t["amount"]) for t in credits] == [
        (view["round_id"], view["outcome"]["total_win"])]
    assert rig.wallet.balance(seamless.external) == (WALLET_OPENING - CANDY_PRICE
                                                      + view["outcome"]["total_win"])
    _check_invariants(rig)


# --- every crash point, chained ---

@dataclass
class Chain:
    """What one stage provoked, for the next stage's restart to check."""

    rig: Rig
    ledger: Player
    seamless: Seamless
    notes: dict[str, Any] = field(default_factory=dict)


def _gamble_offered(player: Player) -> dict:
    """Cluedo rounds until one wins and offers the gamble (the round stays open at it)."""
    for _ in range(200):
        answer = player.bet(*CLUEDO)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        if view["status"] not in CLOSED:
            assert view["choice"]["choices"]["gamble"], view["choice"]
            return view
    pytest.fail("200 Cluedo rounds without one win")


def _provoke_round_before_commit(c: Chain) -> None:
    c.notes.update(balance=c.ledger.balance(), rounds=len(c.ledger.history()),
                   rid=uuid.uuid4().hex)
    c.rig.dies(lambda: c.ledger.bet(*CLUEDO, request_id=c.notes["rid"]))


def _verify_round_before_commit(c: Chain) -> None:
    # nothing of the round was committed: no round, the balance untouched
    assert len(c.ledger.history()) == c.notes["rounds"]
    assert c.ledger.session()["open_rounds"] == []
    assert c.ledger.balance() == c.notes["balance"]
    retried = c.ledger.bet(*CLUEDO, request_id=c.notes["rid"])
    assert retried.status_code == 200, retried.text
    view = retried.json()
    again = c.ledger.bet(*CLUEDO, request_id=c.notes["rid"]).json()
    assert (again["round_id"], again["outcome"]["seed"]) == (view["round_id"],
                                                              view["outcome"]["seed"])
    assert len(c.ledger.history()) == c.notes["rounds"] + 1
    c.ledger.finish(view)
    _check_ledger_player(c.ledger)


def _provoke_outbox_after_credit(c: Chain) -> None:
    c.notes.update(rid=uuid.uuid4().hex)
    c.rig.dies(lambda: c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]))


def _verify_outbox_after_credit(c: Chain) -> None:
    # the credit reached the operator; the worker sends it again (the same transaction id)
    # until the server has it acknowledged: the operator applies it once
    rounds = _settle(c.seamless)
    view = c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]).json()
    assert view["status"] == "closed" and view["round_id"] == rounds[0]["round_id"]
    credits = [t for t in c.rig.wallet.transactions(c.seamless.external)
               if t["round_id"] == view["round_id"] and t["kind"] == "credit"]
    assert [t["amount"] for t in credits] == [view["outcome"]["total_win"]]
    _check_seamless_player(c.rig, c.seamless)


def _provoke_step_before_commit(c: Chain) -> None:
    view = _gamble_offered(c.ledger)
    c.notes.update(view=view, balance=c.ledger.balance(), rid=uuid.uuid4().hex)
    c.rig.dies(lambda: c.ledger.step(view["round_id"], "gamble", "collect",
                                     request_id=c.notes["rid"]))


def _verify_step_before_commit(c: Chain) -> None:
    before = c.notes["view"]
    [waiting] = c.ledger.session()["open_rounds"]
    # the round is where its last committed step left it: no step, the win still held
    assert waiting["round_id"] == before["round_id"] and waiting["steps"] == []
    assert waiting["outcome"] == before["outcome"]
    assert waiting["pending_win_credits"] == before["outcome"]["total_win"]
    assert c.ledger.balance() == c.notes["balance"]
    retried = c.ledger.step(before["round_id"], "gamble", "collect", request_id=c.notes["rid"])
    assert retried.status_code == 200, retried.text
    assert retried.json()["status"] == "closed"
    # collect pays the held win, once, however often the step is sent
    paid = c.notes["balance"] + before["outcome"]["total_win"]
    assert c.ledger.balance() == paid
    again = c.ledger.step(before["round_id"], "gamble", "collect", request_id=c.notes["rid"])
    assert again.json()["steps"] == retried.json()["steps"]
    assert c.ledger.balance() == paid
    _check_ledger_player(c.ledger)


def _provoke_seamless_after_open(c: Chain) -> None:
    c.notes.update(rid=uuid.uuid4().hex)
    c.rig.dies(lambda: c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]))


def _verify_seamless_after_open(c: Chain) -> None:
    # the debit was never sent; the stale round's rollback leaves a tombstone for it
    rounds = _settle(c.seamless)
    view = c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]).json()
    assert view["status"] == "cancelled" and view["round_id"] == rounds[0]["round_id"]
    calls = [t for t in c.rig.wallet.transactions(c.seamless.external)
             if t["round_id"] == view["round_id"]]
    assert [(t["kind"], t["status"], t["amount"]) for t in calls] == [
        ("rollback", "tombstone", 0)]
    _check_seamless_player(c.rig, c.seamless)


def _provoke_round_after_commit(c: Chain) -> None:
    c.notes.update(balance=c.ledger.balance(), rounds=len(c.ledger.history()),
                   rid=uuid.uuid4().hex)
    c.rig.dies(lambda: c.ledger.bet(*CLUEDO, request_id=c.notes["rid"]))


def _verify_round_after_commit(c: Chain) -> None:
    rounds = c.ledger.history()
    assert len(rounds) == c.notes["rounds"] + 1
    stored = _round(c.ledger, rounds[0]["round_id"])
    assert stored["request_id"] == c.notes["rid"]
    waiting = c.ledger.session()["open_rounds"]
    if stored["status"] not in CLOSED:  # it won: the session resumes it at the gamble offered
        [resumed] = waiting
        assert (resumed["round_id"], resumed["outcome"]) == (stored["round_id"],
                                                             stored["outcome"])
    else:
        assert waiting == []
    retried = c.ledger.bet(*CLUEDO, request_id=c.notes["rid"])
    assert retried.status_code == 200, retried.text
    view = retried.json()
    assert view["round_id"] == stored["round_id"]
    assert view["outcome"]["seed"] == stored["outcome"]["seed"]
    assert view["outcome"] == stored["outcome"]
    # debited once: the stake, and the win if the round closed (no gamble offered)
    win = stored["outcome"]["total_win"] if stored["status"] == "closed" else 0
    assert c.ledger.balance() == c.notes["balance"] - CLUEDO_PRICE + win
    assert len(c.ledger.history()) == c.notes["rounds"] + 1
    verified = c.ledger.http.get(f"/api/v1/rounds/{view['round_id']}/verify").json()
    assert verified["matches"], verified
    c.ledger.finish(view)
    _check_ledger_player(c.ledger)


def _provoke_seamless_after_debit(c: Chain) -> None:
    c.notes.update(rid=uuid.uuid4().hex)
    c.rig.dies(lambda: c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]))


def _verify_seamless_after_debit(c: Chain) -> None:
    # the debit was applied, its answer lost with the process: the stale round's debit is
    # rolled back and the round cancelled
    rounds = _settle(c.seamless)
    view = c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]).json()
    assert view["status"] == "cancelled" and view["round_id"] == rounds[0]["round_id"]
    calls = [t for t in c.rig.wallet.transactions(c.seamless.external)
             if t["round_id"] == view["round_id"]]
    assert [(t["kind"], t["status"]) for t in calls] == [("debit", "rolled_back"),
                                                         ("rollback", "applied")]
    _check_seamless_player(c.rig, c.seamless)


def _provoke_step_after_commit(c: Chain) -> None:
    view = _gamble_offered(c.ledger)
    c.notes.update(view=view, balance=c.ledger.balance(), rid=uuid.uuid4().hex)
    c.rig.dies(lambda: c.ledger.step(view["round_id"], "gamble", "red",
                                     request_id=c.notes["rid"]))


def _verify_step_after_commit(c: Chain) -> None:
    before = c.notes["view"]
    stored = _round(c.ledger, before["round_id"])
    # the step is done: it is the round's step 0, with its seed, and the outcome unchanged
    assert [s["request_id"] for s in stored["steps"]] == [c.notes["rid"]]
    assert stored["outcome"] == before["outcome"]
    retried = c.ledger.step(before["round_id"], "gamble", "red", request_id=c.notes["rid"])
    assert retried.status_code == 200, retried.text
    assert retried.json()["steps"] == stored["steps"]
    assert retried.json()["status"] == stored["status"]
    # a lost red gamble closes the round paying nothing; a won one holds the doubled win
    assert c.ledger.balance() == c.notes["balance"] + (stored["win_minor"] or 0)
    verified = c.ledger.http.get(f"/api/v1/rounds/{before['round_id']}/verify").json()
    assert verified["matches"], verified
    c.ledger.finish(retried.json())
    _check_ledger_player(c.ledger)


def _provoke_seamless_after_outcome(c: Chain) -> None:
    c.notes.update(rid=uuid.uuid4().hex)
    c.rig.dies(lambda: c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]))


def _verify_seamless_after_outcome(c: Chain) -> None:
    # the outcome was committed with its credit owed: the worker pays it, and the round
    # keeps the outcome it had
    rounds = _settle(c.seamless)
    view = c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]).json()
    assert view["status"] == "closed" and view["round_id"] == rounds[0]["round_id"]
    assert view["win_minor"] == view["outcome"]["total_win"]
    verified = c.seamless.player.http.get(f"/api/v1/rounds/{view['round_id']}/verify").json()
    assert verified["matches"], verified
    _check_seamless_player(c.rig, c.seamless)


def _provoke_outbox_after_rollback(c: Chain) -> None:
    c.notes.update(rid=uuid.uuid4().hex)
    # the debit is applied but answered 503: the server rolls it back, and dies right after
    # the operator applied the rollback
    c.rig.wallet.fault("debit", "error_after", 1)
    c.rig.dies(lambda: c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]))


def _verify_outbox_after_rollback(c: Chain) -> None:
    rounds = _settle(c.seamless)
    view = c.seamless.player.bet(*CANDY, request_id=c.notes["rid"]).json()
    assert view["status"] == "cancelled" and view["round_id"] == rounds[0]["round_id"]
    calls = [t for t in c.rig.wallet.transactions(c.seamless.external)
             if t["round_id"] == view["round_id"]]
    # sent again after the restart, applied once
    assert [(t["kind"], t["status"]) for t in calls] == [("debit", "rolled_back"),
                                                         ("rollback", "applied")]
    _check_seamless_player(c.rig, c.seamless)


# (crash point, what sets it off, what the restart after it checks). The order matters: a
# check (a retried request, the outbox worker's recovery) must not pass the point armed next.
STAGES: list[tuple[str, Callable[[Chain], None], Callable[[Chain], None]]] = [
    ("round.before_commit", _provoke_round_before_commit, _verify_round_before_commit),
    ("outbox.after_credit", _provoke_outbox_after_credit, _verify_outbox_after_credit),
    ("step.before_commit", _provoke_step_before_commit, _verify_step_before_commit),
    ("seamless.after_open", _provoke_seamless_after_open, _verify_seamless_after_open),
    ("round.after_commit", _provoke_round_after_commit, _verify_round_after_commit),
    ("seamless.after_debit", _provoke_seamless_after_debit, _verify_seamless_after_debit),
    ("step.after_commit", _provoke_step_after_commit, _verify_step_after_commit),
    ("seamless.after_outcome", _provoke_seamless_after_outcome,
     _verify_seamless_after_outcome),
    ("outbox.after_rollback", _provoke_outbox_after_rollback, _verify_outbox_after_rollback),
]


@pytest.mark.slow
def test_every_crash_point(rig: Rig) -> None:
    chain = Chain(rig, rig.new_ledger_player(), rig.new_seamless_player())
    verify: tuple[str, Callable[[Chain], None]] | None = None
    for point, provoke, check in [*STAGES, (None, None, None)]:
        rig.restart(crash=point)
        if verify is not None:
            name, verify_call = verify
            try:
                verify_call(chain)
                _check_invariants(rig)
            except AssertionError as exc:
                raise AssertionError(f"after a kill at {name}: {exc}") from exc
        if provoke is None:
            break
        chain.notes.clear()
        provoke(chain)
        verify = (point, check)
    _cli_checks(rig.url)


# --- SIGKILL at random moments while players play as fast as they can ---

@dataclass
class Driver:
    """One player playing in a loop until the server dies under it; the request it had in
    flight then is left for the test to send again."""

    player: Player
    game: tuple[str, int, int]
    rng: random.Random
    inflight: tuple | None = None
    seen: dict[str, str] = field(default_factory=dict)  # round id -> outcome seed, as answered
    errors: list[str] = field(default_factory=list)

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                self._one()
        except httpx.TransportError:
            return
        except AssertionError as exc:  # an answer other than 200, reported by the test
            self.errors.append(str(exc)[:500])

    def _send(self, request: tuple) -> httpx.Response:
        self.inflight = request
        answer = self.send(request)
        self.inflight = None
        return answer

    def send(self, request: tuple) -> httpx.Response:
        if request[0] == "bet":
            return self.player.bet(*self.game, request_id=request[1])
        _, round_id, rid, kind, choice = request
        return self.player.step(round_id, kind, choice, request_id=rid)

    def _one(self) -> None:
        waiting = self.player.session()["open_rounds"]
        if waiting:
            view = waiting[0]
            if not view.get("choice"):  # the outbox still owes the operator a call for it
                time.sleep(0.05)
                return
        else:
            answer = self._send(("bet", uuid.uuid4().hex))
            if answer.status_code != 200:
                self.errors.append(f"bet: {answer.status_code} {answer.text[:300]}")
                return
            view = answer.json()
            self.seen[view["round_id"]] = view["outcome"]["seed"]
        while view["status"] not in CLOSED and view.get("choice"):
            choice = view["choice"]
            kind = choice["active"] or next(iter(choice["choices"]))
            options = choice["choices"][kind]
            pick = self.rng.choice(options) if isinstance(options, list) else "collect"
            answer = self._send(("step", view["round_id"], uuid.uuid4().hex, kind, pick))
            if answer.status_code != 200:
                self.errors.append(f"step {kind} {pick}: {answer.status_code} "
                                   f"{answer.text[:300]}")
                return
            view = answer.json()


def _resend(driver: Driver) -> None:
    """The request the kill cut off, sent again twice: answered, and the same both times."""
    if driver.inflight is None:
        return
    first = driver.send(driver.inflight)
    second = driver.send(driver.inflight)
    assert first.status_code == 200, (driver.inflight, first.text)
    assert second.status_code == 200, (driver.inflight, second.text)
    a, b = first.json(), second.json()
    assert a["round_id"] == b["round_id"] and a["steps"] == b["steps"]
    if a["outcome"] is not None:
        assert a["outcome"] == b["outcome"]
        driver.seen[a["round_id"]] = a["outcome"]["seed"]
    driver.inflight = None


@pytest.mark.slow
def test_random_kills(rig: Rig, request: pytest.FixtureRequest) -> None:
    if rig.armed is not None:  # left so by a crash-point test that failed half-way
        rig.restart()
    rng = random.Random(f"recovery-{request.node.callspec.id}")
    resent = 0
    drivers = [Driver(rig.new_ledger_player(), CLUEDO, random.Random(rng.random())),
               Driver(rig.new_seamless_player().player, CANDY, random.Random(rng.random()))]
    for kill in range(KILLS):
        stop = threading.Event()
        threads = [threading.Thread(target=d.run, args=(stop,), daemon=True) for d in drivers]
        for t in threads:
            t.start()
        time.sleep(rng.uniform(0.2, 2.5))
        rig.server.kill()
        stop.set()
        for t in threads:
            t.join(60)
            assert not t.is_alive()
        rig.restart()
        try:
            for d in drivers:
                assert d.errors == []
                resent += d.inflight is not None
                _resend(d)
                # every round answered before the kill kept its outcome
                for round_id, seed in d.seen.items():
                    assert _round(d.player, round_id)["outcome"]["seed"] == seed
                d.seen.clear()
            _check_invariants(rig)
        except AssertionError as exc:
            raise AssertionError(f"after kill {kill + 1} of {KILLS}: {exc}") from exc
    # the players never stop between requests, so a kill nearly always cuts one off
    assert KILLS < 3 or resent > 0
    _cli_checks(rig.url)
