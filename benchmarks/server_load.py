"""Server benchmark (`make bench-server`): real `reelforge serve` processes on loopback, played
by a bounded load generator of demo players; a measurement, never a test: it fails on no time.
  .venv/bin/python benchmarks/server_load.py [--seconds 20] [--warmup 3] [--players 32]
      [--game candy-jar-clusters ...] [--database sqlite --database postgresql]
      [--workers 1 --workers 2] [--client raw|httpx] [--json]
      [--mode closed|open|both|steps] [--rate 100 --rate 300 --rate 600] [--rate-seconds 10]

Two loads (`--mode`, default both):
  closed   `--players` players, each betting again as soon as its round closes: the
           saturation throughput, and the latency at it;
  open     rounds arriving at a fixed rate (`--rate`, rounds a second, evenly spaced), each
           taken by an idle player of a pool large enough for half a second of arrivals:
           the latency at an offered load. A bet's latency runs from its scheduled arrival,
           not from when it was sent, so a server that falls behind is charged for the
           wait (no coordinated omission). An arrival that finds no idle player is counted
           as dropped. The rates run one after another on one server per configuration.
  steps    choice steps driven for themselves, not only as a round's tail: each player holds
           a round whose win is offered a gamble (`--step-game`: Cops n Robbers' wheels, the
           amount lowered an arrow at a time, each step banking money, then collected; or
           Cluedo's red/black, guessed red until it ends) and plays it step by step, then
           bets again until another win holds one. First the closed loop
           of bets (the bet rate), then the closed loop of steps (`--players` players, each
           stepping again as soon as answered: the step rate), then steps arriving at each
           `--rate` (steps a second, open loop: a step's latency from its scheduled arrival;
           an arrival that finds no player holding a gamble is dropped). The bets that find
           the held rounds are counted as bets, apart from the steps.

Each configuration (database x server processes x game) gets a fresh database (a new SQLite
file; a new PostgreSQL database on postgresql+psycopg://postgres@127.0.0.1:5432, created from
`test` and dropped afterwards; skipped with the reason where unreachable) and a fresh server.
Every player is a demo player of the unrestricted "demo" operator (no pace rules), playing
sequentially on its own keep-alive connection: bet, then collect or decline whatever the round
offers until it closes. After the run, `reelforge ledger check` (must say "ledger OK": zero
drift) and `reelforge audit verify` on the database, and the rounds left open (must be 0).

Columns:
  rounds/s    rounds closed inside the timed window / its length (warm-up excluded);
  steps/s     the choice-step requests answered in the window (collect, decline; under
              `--mode steps` the gamble's guesses);
  bet p50..   latency of the bet request alone, client side (send to last byte read; in the
              open loop, scheduled arrival to last byte read);
  step p50..  latency of each choice-step request (send to last byte read);
  CPU         CPU milliseconds per closed round inside the window: the server's processes,
              the PostgreSQL backends serving its database, the load generator (this process);
  busy        the machine's busy share of all cores in the window, with the load average
              before and after it (other jobs share the machine: read the figures with it).
The load generator runs on the same machine as the server (2 cores here, shared with other
jobs): the output says so, and its own CPU is in the table.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import importlib.util
import itertools
import json
import os
import platform
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx

ROOT = Path(__file__).resolve().parent.parent
PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
PG_ADMIN_DB = "test"
GAMES = {  # the lowest bet of each: the server's cost per round, not the game's, is measured
    "cluedo": ("cluedo-v1", 1, 1),
    "cops-n-robbers": ("cops-n-robbers-v1", 10, 1),
    "candy-jar-clusters": ("candy-jar-clusters-v1", 20, 1),
}
# Large enough that no player runs dry (and is offered Spin Chance) during a run.
DEMO_BALANCE = 10**12
DECISIONS = {"gamble": "collect", "wheel_gamble": ["collect"], "spin_chance": "decline"}
OPEN_STATUSES = ("open", "debited", "outcome_committed", "credited")
# Refusals before the request touched a round (admission, a session's rate): nothing to
# recover, and asking the overloaded server for the session would only add to its load.
REFUSED_UNTOUCHED = ("503 SERVER_BUSY", "429 RATE_LIMITED")


def _harness():
    """tests/server/harness.py's Server: the same start, readiness wait and stop as the tests."""
    spec = importlib.util.spec_from_file_location("server_harness",
                                                  ROOT / "tests" / "server" / "harness.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_config(directory: Path) -> Path:
    key = directory / "launch.key"
    key.write_text(secrets.token_hex(32))
    games = "".join(f'[[operators.games]]\nkey = "{k}"\ngame_id = "{gid}"\n'
                    for k, (gid, _, _) in GAMES.items())
    path = directory / "operators.toml"
    # No per-session rate: the load generator's players bet as fast as the server answers
    # (dozens of rounds a second each in the closed loop), which no player's client does.
    path.write_text(f'[[operators]]\nid = "demo"\ncurrency = "EUR"\njurisdiction = "default"\n'
                    f'secret_file = "{key}"\ndemo_balance_minor = {DEMO_BALANCE}\n'
                    f'session_rate_per_s = 0\n{games}')
    return path


# --- databases -------------------------------------------------------------------------------

@contextlib.contextmanager
def sqlite_database(workdir: Path) -> Iterator[str]:
    yield f"sqlite:///{workdir / 'bench.db'}"


def pg_unreachable() -> str | None:
    from sqlalchemy import create_engine, pool
    from sqlalchemy.exc import OperationalError

    engine = create_engine(f"{PG_SERVER}/{PG_ADMIN_DB}", poolclass=pool.NullPool,
                           connect_args={"connect_timeout": 5})
    try:
        with engine.connect():
            return None
    except OperationalError:
        return f"PostgreSQL is not reachable at 127.0.0.1:5432 (database {PG_ADMIN_DB})"
    finally:
        engine.dispose()


@contextlib.contextmanager
def pg_database() -> Iterator[str]:
    from sqlalchemy import create_engine, pool

    name = f"rf_bench_{secrets.token_hex(5)}"
    admin = create_engine(f"{PG_SERVER}/{PG_ADMIN_DB}", isolation_level="AUTOCOMMIT",
                          poolclass=pool.NullPool)
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


def open_rounds_left(url: str) -> int:
    from sqlalchemy import create_engine, pool, text

    engine = create_engine(url, poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            marks = ", ".join(f"'{s}'" for s in OPEN_STATUSES)
            return conn.execute(text(f"SELECT count(*) FROM rounds WHERE status IN ({marks})")
                                ).scalar_one()
    finally:
        engine.dispose()


def cli_check(url: str, *command: str) -> str:
    """`reelforge ledger check` or `reelforge audit verify` as a user runs them: the verdict
    line (and the exit status when it is not 0)."""
    done = subprocess.run([sys.executable, "-c", "from reelforge.cli import main; main()",
                           *command, "--database-url", url],
                          check=False, capture_output=True, text=True, timeout=600)
    said = (done.stdout + done.stderr).strip().splitlines() or ["no output"]
    verdict = next((line for line in said if line.startswith(command[0])), said[-1])
    return verdict if done.returncode == 0 else f"{verdict} (exit {done.returncode})"


# --- CPU accounting (Linux /proc; zeros elsewhere) -------------------------------------------

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()  # fields from "state" on: comm may hold spaces


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and its descendants still alive (uvicorn's worker processes)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _proc_stat(int(entry.name))
        if fields is not None:
            parents[int(entry.name)] = int(fields[1])
            times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICK
    members, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in members:
                members.add(child)
                frontier.append(child)
    return sum(times.get(pid, 0.0) for pid in members)


def postgres_cpu(database: str) -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend serving `database` (its title names it)."""
    found: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if title.startswith("postgres:") and f" {database} " in title:
                fields = _proc_stat(int(entry.name))
                if fields is not None:
                    found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICK
    return found


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all cores since boot."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = values[3] + values[4]
    return float(sum(values) - idle), float(sum(values))


# --- the load generator ----------------------------------------------------------------------

class RawClient:
    """A minimal HTTP/1.1 keep-alive client on one connection: a fraction of httpx's CPU per
    request, which matters when the load generator shares the server's two cores."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.head = (f"Host: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
                     "Content-Type: application/json\r\n")
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        self.writer.write(f"{method} {path} HTTP/1.1\r\n{self.head}Content-Length: {len(data)}"
                          f"\r\n\r\n".encode() + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {k.strip().lower(): v.strip()
                   for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        if "content-length" not in headers:
            raise RuntimeError(f"{method} {path}: response without Content-Length: {headers}")
        payload = await self.reader.readexactly(int(headers["content-length"]))
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return status, json.loads(payload) if payload else None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await self.writer.wait_closed()
            self.writer = None


class HttpxClient:
    def __init__(self, shared: httpx.AsyncClient, token: str) -> None:
        self.http, self.auth = shared, {"Authorization": f"Bearer {token}"}

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        response = await self.http.request(method, path, json=body, headers=self.auth)
        return response.status_code, response.json() if response.content else None

    async def close(self) -> None:
        return None


@dataclass
class Tally:
    """What the players did inside the timed window (from `start` to `stop`)."""

    start: float
    stop: float
    rounds: int = 0
    steps: int = 0
    bets: int = 0
    latencies: list[float] = field(default_factory=list)
    step_latencies: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    dropped: int = 0  # open loop: arrivals that found no idle player

    def inside(self, t: float) -> bool:
        return self.start <= t < self.stop


def error_code(status: int, body: Any) -> str:
    try:
        return f"{status} {body['error']['code']}"
    except (TypeError, KeyError):
        return f"{status}"


async def finish(client, view: dict, tally: Tally) -> None:
    """Collect or decline until the round closes, as a player who never gambles."""
    while view["status"] not in ("closed", "cancelled"):
        choice = view["choice"]
        kind = choice["active"] or next(iter(choice["choices"]))
        sent = time.perf_counter()
        status, body = await client.request("POST", f"/api/v1/rounds/{view['round_id']}/steps", {
            "request_id": uuid.uuid4().hex, "kind": kind, "choice": DECISIONS[kind]})
        got = time.perf_counter()
        if tally.inside(got):
            tally.steps += 1
            tally.step_latencies.append(got - sent)
        if status != 200:
            raise StepFailed(error_code(status, body))
        view = body
        if view.get("next_round_id"):  # a won Spin Chance: its round is played the same way
            status, view = await client.request("GET", f"/api/v1/rounds/{view['next_round_id']}")


class StepFailed(Exception):
    pass


async def player(client, game: str, lines: int, bet_per_line: int, tally: Tally) -> None:
    path = f"/api/v1/games/{game}/rounds"
    while time.perf_counter() < tally.stop:
        sent = time.perf_counter()
        try:
            status, view = await client.request("POST", path, {
                "request_id": uuid.uuid4().hex, "lines": lines, "bet_per_line": bet_per_line,
                "mode": "base"})
            got = time.perf_counter()
            if tally.inside(got):
                tally.bets += 1
                tally.latencies.append(got - sent)
            if status != 200:
                if tally.inside(got):
                    tally.errors[error_code(status, view)] += 1
                await recover(client, tally)
                continue
            await finish(client, view, tally)
            if tally.inside(time.perf_counter()):
                tally.rounds += 1
        except (StepFailed, OSError, asyncio.IncompleteReadError, httpx.HTTPError,
                ValueError, RuntimeError) as exc:
            if tally.inside(time.perf_counter()):
                tally.errors[str(exc) if isinstance(exc, StepFailed)
                             else f"client {type(exc).__name__}"] += 1
            await client.close()
            await asyncio.sleep(0.05)
            await recover(client, tally)


async def recover(client, tally: Tally) -> None:
    """Finish whatever round the error left open (as a client recovers after a failure)."""
    with contextlib.suppress(Exception):
        status, session = await client.request("GET", "/api/v1/session")
        for view in session.get("open_rounds", []) if status == 200 else []:
            await finish(client, view, tally)


async def arrivals(clients: list, game: str, rate: float, tally: Tally) -> None:
    """The open loop: a round every 1/rate s from now until the window closes, each on an
    idle player; a bet's latency counts from its scheduled time."""
    _, lines, bet_per_line = GAMES[game]
    path = f"/api/v1/games/{game}/rounds"
    idle = collections.deque(clients)
    running: set[asyncio.Task] = set()

    async def one_round(client, scheduled: float) -> None:
        try:
            status, view = await client.request("POST", path, {
                "request_id": uuid.uuid4().hex, "lines": lines, "bet_per_line": bet_per_line,
                "mode": "base"})
            got = time.perf_counter()
            counted = tally.inside(scheduled)
            if counted:
                tally.bets += 1
                tally.latencies.append(got - scheduled)
            if status != 200:
                if counted:
                    tally.errors[error_code(status, view)] += 1
                if error_code(status, view) not in REFUSED_UNTOUCHED:
                    await recover(client, tally)
                return
            await finish(client, view, tally)
            if counted:
                tally.rounds += 1
        except (StepFailed, OSError, asyncio.IncompleteReadError, httpx.HTTPError,
                ValueError, RuntimeError) as exc:
            if tally.inside(scheduled):
                tally.errors[str(exc) if isinstance(exc, StepFailed)
                             else f"client {type(exc).__name__}"] += 1
            await client.close()
            await recover(client, tally)
        finally:
            idle.append(client)

    begin = time.perf_counter()
    for i in itertools.count():
        scheduled = begin + i / rate
        if scheduled >= tally.stop:
            break
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if not idle:
            tally.dropped += tally.inside(scheduled)
            continue
        task = asyncio.create_task(one_round(idle.popleft(), scheduled))
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running)


# The games whose wins are offered a gamble, and its kind: Cluedo's red/black (guessed red
# until lost or at its limit: about two steps a gamble) or Cops n Robbers' wheels (the amount
# lowered an arrow at a time, each step banking the difference to the balance, then
# collected at 1 credit: about ten steps a gamble, each moving money).
STEP_GAMES = {"cluedo": "gamble", "cops-n-robbers": "wheel_gamble"}
STEP_GAME = "cops-n-robbers"  # --step-game


def next_choice(view: dict) -> Any:
    """The step the load plays next in the held gamble."""
    choice = view["choice"]
    if STEP_GAMES[STEP_GAME] == "gamble":
        return "red"
    amounts = sorted((int(a) for a in (choice.get("odds") or {})), reverse=True)
    return ["amount", amounts[1]] if len(amounts) > 1 else ["collect"]


async def hold_gamble(client, tally: Tally) -> dict:
    """Bet the step game's lowest bet until a round holds its win for the gamble; that
    round."""
    _, lines, bet_per_line = GAMES[STEP_GAME]
    path = f"/api/v1/games/{STEP_GAME}/rounds"
    while True:
        sent = time.perf_counter()
        status, view = await client.request("POST", path, {
            "request_id": uuid.uuid4().hex, "lines": lines, "bet_per_line": bet_per_line,
            "mode": "base"})
        got = time.perf_counter()
        if tally.inside(got):
            tally.bets += 1
            tally.latencies.append(got - sent)
        if status != 200:
            raise StepFailed(error_code(status, view))
        if view["status"] in ("closed", "cancelled"):
            if tally.inside(got):
                tally.rounds += 1
            continue
        if view["choice"] is not None and STEP_GAMES[STEP_GAME] in view["choice"]["choices"]:
            return view
        await finish(client, view, tally)  # anything else offered: declined


async def guess(client, view: dict, tally: Tally, scheduled: float | None = None
                ) -> dict | None:
    """One step of the held gamble (`next_choice`); the round after it, or None once closed.
    Its latency from `scheduled` where given (the open loop), else from its sending."""
    sent = time.perf_counter()
    status, body = await client.request("POST", f"/api/v1/rounds/{view['round_id']}/steps", {
        "request_id": uuid.uuid4().hex, "kind": STEP_GAMES[STEP_GAME],
        "choice": next_choice(view)})
    got = time.perf_counter()
    start = sent if scheduled is None else scheduled
    if tally.inside(start):
        tally.steps += 1
        tally.step_latencies.append(got - start)
    if status != 200:
        raise StepFailed(error_code(status, body))
    if body["status"] in ("closed", "cancelled"):
        if tally.inside(got):
            tally.rounds += 1
        return None
    return body


async def stepper(client, tally: Tally) -> None:
    """The closed loop of steps: guess again as soon as answered, bet again when lost."""
    held = None
    while time.perf_counter() < tally.stop:
        try:
            held = held or await hold_gamble(client, tally)
            held = await guess(client, held, tally)
        except (StepFailed, OSError, asyncio.IncompleteReadError, httpx.HTTPError,
                ValueError, RuntimeError) as exc:
            if tally.inside(time.perf_counter()):
                tally.errors[str(exc) if isinstance(exc, StepFailed)
                             else f"client {type(exc).__name__}"] += 1
            held = None
            await client.close()
            await recover(client, tally)
    if held is not None:  # collected after the window: no round is left open
        await collect_after(client, held, tally)


async def step_arrivals(clients: list, rate: float, tally: Tally) -> None:
    """The open loop of steps: a guess every 1/rate s, each by a player holding a gamble;
    a player whose gamble ended bets until it holds another, then waits to be asked."""
    ready: collections.deque = collections.deque()
    running: set[asyncio.Task] = set()

    def spawn(coro) -> None:
        task = asyncio.create_task(coro)
        running.add(task)
        task.add_done_callback(running.discard)

    async def refill(client) -> None:
        while time.perf_counter() < tally.stop:
            try:
                ready.append((client, await hold_gamble(client, tally)))
                return
            except (StepFailed, OSError, asyncio.IncompleteReadError, httpx.HTTPError,
                    ValueError, RuntimeError):
                await client.close()
                await recover(client, tally)

    async def one_step(client, view: dict, scheduled: float) -> None:
        try:
            after = await guess(client, view, tally, scheduled)
        except (StepFailed, OSError, asyncio.IncompleteReadError, httpx.HTTPError,
                ValueError, RuntimeError) as exc:
            if tally.inside(scheduled):
                tally.errors[str(exc) if isinstance(exc, StepFailed)
                             else f"client {type(exc).__name__}"] += 1
            await client.close()
            await recover(client, tally)
            after = None
        if after is None:
            await refill(client)
        else:
            ready.append((client, after))

    for client in clients:
        spawn(refill(client))
    begin = max(time.perf_counter(), tally.start - 1.0)  # the pool fills during the warm-up
    await asyncio.sleep(max(0.0, begin - time.perf_counter()))
    for i in itertools.count():
        scheduled = begin + i / rate
        if scheduled >= tally.stop:
            break
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if not ready:
            tally.dropped += tally.inside(scheduled)
            continue
        client, view = ready.popleft()
        spawn(one_step(client, view, scheduled))
    await asyncio.gather(*running)
    for client, view in ready:  # collected after the window: no round is left open
        await collect_after(client, view, tally)


async def collect_after(client, view: dict, tally: Tally) -> None:
    """Finish a held round once the window closed. A player kept waiting for an arrival may
    find its idle keep-alive connection closed by the server (IncompleteReadError): it
    reconnects and finishes what its session has open, as after any failure."""
    try:
        await finish(client, view, tally)
    except (StepFailed, OSError, asyncio.IncompleteReadError, httpx.HTTPError, ValueError,
            RuntimeError):
        await client.close()
        await recover(client, tally)


def launch_players(base: str, count: int) -> list[str]:
    """Session tokens of `count` new demo players (launched as the tests' Player does)."""
    tokens = []
    with httpx.Client(base_url=base, timeout=60) as http:
        for _ in range(count):
            redirect = http.get("/demo?operator=demo", follow_redirects=False)
            launch = parse_qs(urlparse(redirect.headers["location"]).query)["launch"][0]
            opened = http.post("/api/v1/sessions", json={"launch_token": launch})
            opened.raise_for_status()
            tokens.append(opened.json()["session_token"])
    return tokens


async def load(port: int, tokens: list[str], game: str, warmup: float, seconds: float,
               client_kind: str, server_pid: int, pg_name: str | None,
               rate: float | None = None, steps: bool = False) -> dict:
    """The closed loop (`rate` None: every player bets again at once), or the open loop at
    `rate` rounds a second; `steps`: the same of gamble steps (`stepper`, `step_arrivals`)."""
    _, lines, bet_per_line = GAMES[game]
    now = time.perf_counter()
    tally = Tally(now + warmup, now + warmup + seconds)
    shared = None
    if client_kind == "httpx":
        shared = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                                   limits=httpx.Limits(max_connections=len(tokens)))
        clients: list = [HttpxClient(shared, t) for t in tokens]
    else:
        clients = [RawClient(port, t) for t in tokens]
    cpu: dict[str, float] = {}

    async def sample_cpu() -> None:
        await asyncio.sleep(max(0.0, tally.start - time.perf_counter()))
        before = (time.process_time(), tree_cpu(server_pid),
                  postgres_cpu(pg_name) if pg_name else {}, machine_busy(), os.getloadavg()[0])
        await asyncio.sleep(max(0.0, tally.stop - time.perf_counter()))
        after = (time.process_time(), tree_cpu(server_pid),
                 postgres_cpu(pg_name) if pg_name else {}, machine_busy(), os.getloadavg()[0])
        busy = after[3][0] - before[3][0]
        total = after[3][1] - before[3][1]
        cpu.update(client_s=after[0] - before[0], server_s=after[1] - before[1],
                   postgres_s=sum(t - before[2].get(pid, 0.0) for pid, t in after[2].items()),
                   machine_busy_pct=100 * busy / total if total else 0.0,
                   load_before=before[4], load_after=after[4])

    try:
        if steps and rate is None:
            await asyncio.gather(sample_cpu(), *(stepper(c, tally) for c in clients))
        elif steps:
            await asyncio.gather(sample_cpu(), step_arrivals(clients, rate, tally))
        elif rate is None:
            await asyncio.gather(sample_cpu(),
                                 *(player(c, game, lines, bet_per_line, tally) for c in clients))
        else:
            await asyncio.gather(sample_cpu(), arrivals(clients, game, rate, tally))
    finally:
        for c in clients:
            await c.close()
        if shared is not None:
            await shared.aclose()
    return {"tally": tally, "cpu": cpu}


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _latency_ms(values: list[float]) -> dict[str, float | None]:
    return {name: (None if percentile(values, q) is None else 1000 * percentile(values, q))
            for name, q in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99))} \
        | {"mean": 1000 * statistics.fmean(values) if values else None}


def run_one(harness, database: str, url: str, workdir: Path, workers: int, game: str,
            args: argparse.Namespace, rates: list[tuple[float | None, bool]]) -> list[dict]:
    """One server; a row for each load in `rates` ((rate or None: the closed loop, whether
    it drives steps)), one after another, then the ledger check, the audit and the open
    rounds of all of them."""
    config = write_config(workdir)
    server = harness.Server(url, workdir, config, workers=workers)
    started = time.perf_counter()
    rows = []
    try:
        server.start()
        start_s = time.perf_counter() - started
        # the open loop's pool: half a second of arrivals at the fastest rate
        pool = max([args.players] + [int(r / 2) for r, _ in rates if r is not None])
        tokens = launch_players(server.base, pool)
        runner = asyncio.run
        if args.client == "raw":
            with contextlib.suppress(ImportError):
                import uvloop

                runner = uvloop.run
        for rate, steps in rates:
            seconds = args.seconds if rate is None else args.rate_seconds
            used = tokens[:args.players] if rate is None else tokens
            played = STEP_GAME if steps else game
            result = runner(load(server.port, used, played, args.warmup, seconds, args.client,
                                 server.process.pid,
                                 url.rsplit("/", 1)[1] if database == "postgresql" else None,
                                 rate, steps))
            tally: Tally = result["tally"]
            rows.append({
                "database": database, "workers": workers, "game": played,
                "game_id": GAMES[played][0],
                "bet": {"lines": GAMES[played][1], "bet_per_line": GAMES[played][2]},
                "load": ("closed" if rate is None else "open") + (" steps" if steps else ""),
                "offered_per_s": rate, "bets_per_s": tally.bets / seconds,
                "players": len(used), "seconds": seconds, "client": args.client,
                "server_start_s": round(start_s, 1),
                "rounds": tally.rounds, "rounds_per_s": tally.rounds / seconds,
                "steps": tally.steps, "steps_per_s": tally.steps / seconds,
                "bets": tally.bets, "dropped": tally.dropped,
                "bet_latency_ms": _latency_ms(tally.latencies),
                "step_latency_ms": _latency_ms(tally.step_latencies),
                "errors": dict(tally.errors), "cpu_s": result["cpu"]})
        verdict = cli_check(url, "ledger", "check")
        audit = cli_check(url, "audit", "verify")
        left = open_rounds_left(url)
    finally:
        server.stop()
    for row in rows:
        row.update(ledger_check=verdict, audit_verify=audit, open_rounds_left=left)
    return rows


def machine_line() -> str:
    return (f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
            f"load average {os.getloadavg()[0]:.2f}; the load generator runs on the same "
            f"machine as the server, sharing its cores")


def _shown(lat: dict) -> str:
    return " / ".join("-" if lat[k] is None else f"{lat[k]:.0f}" for k in ("p50", "p95", "p99"))


def table(rows: list[dict], skipped: list[str]) -> str:
    head = ("| database | workers | game | load | rounds/s | steps/s | bet p50 / p95 / p99 (ms) "
            "| step p50 / p95 / p99 (ms) | errors, dropped arrivals "
            "| ledger check, audit verify | open rounds left | CPU ms per round: server / PostgreSQL / load "
            "generator | machine busy (load avg) |")
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        lat, cpu, n = r["bet_latency_ms"], r["cpu_s"], max(r["rounds"], 1)
        shown = _shown(lat)
        errors = ", ".join(f"{k}: {v}" for k, v in sorted(r["errors"].items())) or "0"
        if r["dropped"]:
            errors += f"; {r['dropped']} dropped"
        drives = " of steps" if r["load"].endswith("steps") else ""
        load = (f"closed{drives}, {r['players']} players" if r["offered_per_s"] is None
                else f"open{drives}, {r['offered_per_s']:g}/s offered")
        if drives:
            load += f" ({r['bets_per_s']:,.0f} bets/s)"
        per_round = " / ".join("-" if k == "postgres_s" and r["database"] != "postgresql"
                               else f"{1000 * cpu.get(k, 0.0) / n:.1f}"
                               for k in ("server_s", "postgres_s", "client_s"))
        out.append(f"| {r['database']} | {r['workers']} | {r['game']} | {load} "
                   f"| {r['rounds_per_s']:,.0f} "
                   f"| {r['steps_per_s']:,.0f} | {shown} | {_shown(r['step_latency_ms'])} "
                   f"| {errors} "
                   f"| {r['ledger_check']}, {r['audit_verify']} "
                   f"| {r['open_rounds_left']} | {per_round} "
                   f"| {cpu.get('machine_busy_pct', 0):.0f}% ({cpu.get('load_before', 0):.1f}"
                   f"-{cpu.get('load_after', 0):.1f}) |")
    out += [f"skipped: {line}" for line in skipped]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    global STEP_GAME  # set once from --step-game, before any load runs
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="timed window (s)")
    parser.add_argument("--warmup", type=float, default=3.0, help="untimed start (s)")
    parser.add_argument("--players", type=int, default=32, help="concurrent demo players")
    parser.add_argument("--game", action="append", choices=sorted(GAMES),
                        help="game key, repeatable (default candy-jar-clusters)")
    parser.add_argument("--database", action="append", choices=("sqlite", "postgresql"),
                        help="repeatable (default both)")
    parser.add_argument("--workers", action="append", type=int,
                        help="server processes, repeatable (default 1 and 2)")
    parser.add_argument("--client", choices=("raw", "httpx"), default="raw",
                        help="raw: a minimal keep-alive HTTP/1.1 client (default); "
                        "httpx: httpx.AsyncClient, limited to one connection per player")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--mode", choices=("closed", "open", "both", "steps"), default="both",
                        help="closed loop (saturation), open loop (fixed arrival rates), both, "
                        "or steps (the bet closed loop, then gamble steps closed and open)")
    parser.add_argument("--step-game", choices=sorted(STEP_GAMES), default=STEP_GAME,
                        help="--mode steps: the game whose gamble the steps play")
    parser.add_argument("--rate", action="append", type=float,
                        help="open loop: rounds a second offered, repeatable (default 100, "
                        "300, 600)")
    parser.add_argument("--rate-seconds", type=float, default=10.0,
                        help="open loop: timed window per rate (s)")
    args = parser.parse_args(argv)
    STEP_GAME = args.step_game  # the step loads' game, read by the coroutines above
    if any(r <= 0 for r in args.rate or []):
        parser.error(f"--rate {args.rate}: rounds a second must be positive")
    rates: list[tuple[float | None, bool]] = [] if args.mode == "open" else [(None, False)]
    if args.mode == "steps":
        rates += [(None, True)] + [(r, True) for r in args.rate or [100.0, 300.0]]
    elif args.mode != "closed":
        rates += [(r, False) for r in args.rate or [100.0, 300.0, 600.0]]
    games = args.game or ["candy-jar-clusters"]
    databases = args.database or ["sqlite", "postgresql"]
    workers = args.workers or [1, 2]
    harness = _harness()
    skipped: list[str] = []
    if "postgresql" in databases:
        reason = pg_unreachable()
        if reason is not None:
            skipped.append(f"postgresql: {reason}")
            databases = [d for d in databases if d != "postgresql"]
    note = machine_line()
    log = sys.stderr
    print(f"bench-server: {note}", file=log, flush=True)
    rows = []
    for database in databases:
        for n in workers:
            for game in games:
                print(f"bench-server: {database}, {n} worker(s), {game}, {args.players} players, "
                      f"{args.warmup:g} s warm-up + {args.seconds:g} s ...", file=log, flush=True)
                with tempfile.TemporaryDirectory(prefix="rf-bench-") as tmp:
                    db = sqlite_database(Path(tmp)) if database == "sqlite" else pg_database()
                    with db as url:
                        done = run_one(harness, database, url, Path(tmp), n, game, args, rates)
                rows += done
                for r in done:
                    print(f"  {r['load']} {r['offered_per_s'] or ''}: {r['rounds_per_s']:,.0f} "
                          f"rounds/s, {r['bets_per_s']:,.0f} bets/s, {r['steps_per_s']:,.0f} "
                          f"steps/s, bet p99 {r['bet_latency_ms']['p99'] or 0:.1f} ms, step "
                          f"p99 {r['step_latency_ms']['p99'] or 0:.1f} ms, {r['ledger_check']}",
                          file=log, flush=True)
    if args.json:
        print(json.dumps({"machine": note, "command": " ".join(sys.argv), "results": rows,
                          "skipped": skipped}, indent=2))
    else:
        print(f"Machine: {note}.")
        print(table(rows, skipped))
    bad = [r for r in rows if r["ledger_check"] != "ledger OK"
           or r["audit_verify"] != "audit log OK" or r["open_rounds_left"]]
    if bad:
        print(f"bench-server: {len(bad)} run(s) left ledger drift, a broken audit log or open "
              "rounds: see the table", file=log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
