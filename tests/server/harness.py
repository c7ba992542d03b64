"""A real `reelforge serve` process for the server's tests, and a player that talks to it over
HTTP on loopback. Nothing here imports the server's code: the tests see only what a client
sees (and the database, where a test checks the ledger itself)."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx

START_TIMEOUT_S = 900  # a fresh machine compiles every kernel on the first start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(directory: Path, extra: str = "") -> Path:
    """Operators for the tests: one per jurisdiction profile and gamble setting."""
    key = directory / "launch.key"
    key.write_text(secrets.token_hex(32))
    games = ('[[operators.games]]\nkey = "cluedo"\ngame_id = "cluedo-v1"\n'
             '[[operators.games]]\nkey = "cops-n-robbers"\ngame_id = "cops-n-robbers-v1"\n'
             '[[operators.games]]\nkey = "candy-jar-clusters"\ngame_id = '
             '"candy-jar-clusters-v1"\n')

    def operator(op_id: str, currency: str, jurisdiction: str, body: str = games,
                 balance: int = 100_000) -> str:
        # No per-session rate: these tests drive one session far faster than a player's
        # client (hundreds of bets in a loop, 200 at once); the limit's own tests
        # (test_hostile.py) configure operators of their own, with the defaults among them.
        return (f'[[operators]]\nid = "{op_id}"\ncurrency = "{currency}"\njurisdiction = '
                f'"{jurisdiction}"\nsecret_file = "{key}"\ndemo_balance_minor = {balance}\n'
                'session_rate_per_s = 0\n' + body)

    five_x = games.replace('game_id = "cops-n-robbers-v1"\n',
                           'game_id = "cops-n-robbers-v1"\ngamble = "5x"\n')
    capped = games.replace('game_id = "cluedo-v1"\n',
                           'game_id = "cluedo-v1"\nwin_cap_minor = 150\n')
    text = "\n".join([operator("demo", "EUR", "default"), operator("gb", "GBP", "GB"),
                      operator("de", "EUR", "DE"), operator("fivex", "EUR", "default", five_x),
                      operator("capped", "EUR", "default", capped),
                      operator("poor", "EUR", "default", games, balance=250), extra])
    path = directory / "operators.toml"
    path.write_text(text)
    return path


class Server:
    """`reelforge serve` as a child process on a free loopback port."""

    def __init__(self, db_url: str, workdir: Path, config: Path | None = None,
                 env: dict[str, str] | None = None, port: int | None = None,
                 workers: int = 1) -> None:
        self.db_url, self.workdir, self.config = db_url, workdir, config
        self.env = env or {}
        self.port = port or free_port()
        self.workers = workers
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.log = workdir / f"server-{self.port}.log"

    def start(self, env: dict[str, str] | None = None) -> Server:
        command = [sys.executable, "-c", "from reelforge.cli import main; main()", "serve",
                   "--port", str(self.port), "--database-url", self.db_url,
                   "--workers", str(self.workers)]
        if self.config is not None:
            command += ["--config", str(self.config)]
        full_env = {**os.environ, **self.env, **(env or {})}
        full_env.pop("REELFORGE_CRASH_AT", None) if env is None or \
            "REELFORGE_CRASH_AT" not in env else None
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, cwd=self.workdir, env=full_env,
                                            stdout=out, stderr=subprocess.STDOUT)
        self.wait_ready()
        return self

    def warm(self) -> Server:
        """One unhurried request that loads every game (seconds on a first start): paid here,
        so that no test's own 60 s client timeout pays it."""
        player = Player(self.base)
        player.http.timeout = httpx.Timeout(600)
        response = player.http.get("/api/v1/games")
        assert response.status_code == 200, response.text
        return self

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited {self.process.returncode}:\n"
                                   + self.log.read_text()[-3000:])
            try:
                if httpx.get(f"{self.base}/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"server not ready after {START_TIMEOUT_S} s")

    def kill(self) -> int:
        """SIGKILL: no clean-up runs, as in a power cut of the process."""
        assert self.process is not None
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL) if False else self.process.kill()
        return self.process.wait(30)

    def wait_dead(self, timeout: float = 60) -> int:
        assert self.process is not None
        return self.process.wait(timeout)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(20)


class Player:
    """A demo player launched through the operator's signed launch, then its session."""

    def __init__(self, base: str, operator: str = "demo", token: str | None = None) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=60)
        if token is None:
            redirect = self.http.get(f"/demo?operator={operator}", follow_redirects=False)
            assert redirect.status_code == 303, redirect.text
            launch = parse_qs(urlparse(redirect.headers["location"]).query)["launch"][0]
            self.launch_token = launch
            opened = self.http.post("/api/v1/sessions", json={"launch_token": launch})
            assert opened.status_code == 200, opened.text
            token = opened.json()["session_token"]
        self.token = token
        self.http.headers["Authorization"] = f"Bearer {token}"

    def session(self) -> dict:
        response = self.http.get("/api/v1/session")
        assert response.status_code == 200, response.text
        return response.json()

    def balance(self) -> int:
        return self.session()["balance_minor"]

    def history(self) -> list[dict]:
        """Every round of the player, through the paged history."""
        found: list[dict] = []
        before = None
        while True:
            params: dict = {"limit": 100}
            if before is not None:
                params["before"] = before
            page = self.http.get("/api/v1/rounds", params=params)
            assert page.status_code == 200, page.text
            found += page.json()["rounds"]
            before = page.json()["next"]
            if before is None:
                return found

    def settled(self, timeout_s: float, poll_s: float = 0.25) -> list[dict]:
        """The player's rounds once every one is closed (credited) or cancelled (its debit, if
        any, rolled back): a seamless wallet's outbox settles them in the background."""
        deadline = time.monotonic() + timeout_s
        while True:
            rounds = self.history()
            still = [r for r in rounds if r["status"] not in ("closed", "cancelled")]
            if not still:
                return rounds
            if time.monotonic() > deadline:
                raise AssertionError(f"rounds still open after {timeout_s} s: {still}")
            time.sleep(poll_s)

    def bet(self, game: str, lines: int, bet_per_line: int, mode: str = "base",
            request_id: str | None = None) -> httpx.Response:
        return self.http.post(f"/api/v1/games/{game}/rounds", json={
            "request_id": request_id or uuid.uuid4().hex, "lines": lines,
            "bet_per_line": bet_per_line, "mode": mode})

    def step(self, round_id: str, kind: str, choice, request_id: str | None = None
             ) -> httpx.Response:
        return self.http.post(f"/api/v1/rounds/{round_id}/steps", json={
            "request_id": request_id or uuid.uuid4().hex, "kind": kind, "choice": choice})

    def finish(self, view: dict) -> dict:
        """Decline or collect whatever the round offers until it closes; the last view."""
        while view["status"] not in ("closed", "cancelled"):
            choice = view["choice"]
            kind = choice["active"] or next(iter(choice["choices"]))
            decision = {"gamble": "collect", "wheel_gamble": ["collect"],
                        "spin_chance": "decline"}[kind]
            response = self.step(view["round_id"], kind, decision)
            assert response.status_code == 200, response.text
            view = response.json()
            if view.get("next_round_id"):
                view = self.http.get(f"/api/v1/rounds/{view['next_round_id']}").json()
        return view


def assert_books_hold(server: Server, database_url: str) -> None:
    """`reelforge ledger check` and `audit verify` pass on the server's database, both at once
    (each command's start-up, its imports, is most of its time), and the server logged no
    traceback."""
    running = {what: subprocess.Popen([sys.executable, "-c",
                                       "from reelforge.cli import main; main()", *what.split(),
                                       "--database-url", database_url],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True)
               for what in ("ledger check", "audit verify")}
    for what, process in running.items():
        try:
            output, _ = process.communicate(timeout=300)
        finally:
            process.kill()
        assert process.returncode == 0, f"reelforge {what}:\n{output}"
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
