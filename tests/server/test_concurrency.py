"""Many requests at once against real `reelforge serve` processes: 200 concurrent bets on one
wallet that covers only some of them, one request id sent 50 times at once, and two server
processes sharing one PostgreSQL database and one progressive jackpot pool.

Each expectation is worked out here: stakes from the bet structure (lines x credits a line x
denomination 1), the jackpot's seed and contribution rate from the game file itself, the pool's
arithmetic from the seed text's rule (every eligible stake adds its rate; a win takes the whole
pool and the pool starts again at its seed). What the server answers is only compared with it.
"""

from __future__ import annotations

import threading
import tomllib
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from reelforge.server import commands
from reelforge.server.db.engine import make_engine
from reelforge.server.db.migrate import upgrade
from reelforge.server.db.tables import accounts, jackpot_claims, jackpot_pools

from .harness import Player, Server, write_config

ROOT = Path(__file__).resolve().parents[2]
CLUEDO_FILE = ROOT / "src/reelforge/games/cluedo/cluedo-v1.toml"
ALWAYS_FILE = Path(__file__).resolve().parent / "data/jackpot-always.toml"
POOL_SCALE = 10_000  # a contribution is basis points of a stake: 1/10,000 of a minor unit

# Candy Jar's only line count is 20: at 1 credit a line and denomination 1 a round costs 20.
CANDY = "candy-jar-clusters"
CANDY_BET = (20, 1)
CANDY_PRICE = 20
# 15 rounds' worth: Candy Jar's swings make a run of 200 rounds from 15 stakes end broke in
# nearly every run, so the later bets find the balance short (measured: ~95% of runs).
TIGHT_BALANCE = 300
# Cluedo's max bet (the jackpot's condition): 20 lines at 5 credits, 100 minor units.
MAX_BET = (20, 5)
MAX_PRICE = 100
ALWAYS_BALANCE = 100_000
REFUSALS = ("INSUFFICIENT_BALANCE", "ROUND_ALREADY_OPEN")


def _game_file(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _pool_key(path: Path) -> str:
    return f"{_game_file(path)['game']['name']}/EUR"


def _extra(key: Path) -> str:
    """Two operators of this module's own: a small wallet, and the always-winning test game."""
    return (f'[[operators]]\nid = "tight"\ncurrency = "EUR"\njurisdiction = "default"\n'
            f'secret_file = "{key}"\ndemo_balance_minor = {TIGHT_BALANCE}\n'
            'session_rate_per_s = 0\n'
            f'[[operators.games]]\nkey = "{CANDY}"\ngame_id = "candy-jar-clusters-v1"\n\n'
            f'[[operators]]\nid = "always"\ncurrency = "EUR"\njurisdiction = "default"\n'
            f'secret_file = "{key}"\ndemo_balance_minor = {ALWAYS_BALANCE}\n'
            'session_rate_per_s = 0\n'
            f'[[operators.games]]\nkey = "always"\ngame_file = "{ALWAYS_FILE}"\n')


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("concurrency")


@pytest.fixture(scope="module")
def config(workdir: Path) -> Path:
    # write_config writes the launch key it signs with as launch.key; the extra operators share it
    return write_config(workdir, _extra(workdir / "launch.key"))


# What is tested here is the money under 200 requests at once, not the process's admission
# limit (test_hostile.py's), which would answer most of them 503 before they reach a round.
UNLIMITED = {"REELFORGE_MAX_IN_FLIGHT": "0"}


def _start_all(servers: list[Server]) -> None:
    """Start the servers at the same moment, as a deployment's processes do."""
    errors: list[Exception] = []

    def start(server: Server) -> None:
        try:
            server.start()
        except (RuntimeError, OSError) as exc:  # reported below, with every server stopped
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(s,)) for s in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        for s in servers:
            s.stop()
        raise errors[0]


@pytest.fixture(scope="module")
def sqlite_fleet(workdir: Path, config: Path) -> Iterator[list[Server]]:
    server = Server(f"sqlite:///{workdir / 'concurrency.db'}", workdir, config, UNLIMITED)
    try:
        yield [server.start()]
    finally:
        server.stop()


@pytest.fixture(scope="module")
def pg_fleet(workdir: Path, config: Path, pg_database: str) -> Iterator[list[Server]]:
    """Two server processes on one PostgreSQL database, started together."""
    upgrade(pg_database)
    servers = [Server(pg_database, workdir, config, UNLIMITED) for _ in range(2)]
    try:
        _start_all(servers)
        yield servers
    finally:
        for s in servers:
            s.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def fleet(request: pytest.FixtureRequest) -> list[Server]:
    """The server processes of one database: SQLite's one, or PostgreSQL's two."""
    name = {"sqlite": "sqlite_fleet", "postgresql": "pg_fleet"}[request.param]
    return request.getfixturevalue(name)


def _at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run every call in its own thread, released together by a barrier; their results."""
    gate = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        gate.wait(timeout=60)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def _sessions(bases: list[str], token: str, count: int) -> list[httpx.Client]:
    """One pooled client of the player's session per server, shared by `count` threads (a
    client apiece would cost more to build than the bets take)."""
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    return [httpx.Client(base_url=b, timeout=120, limits=limits,
                         headers={"Authorization": f"Bearer {token}"}) for b in bases]


def _bets_at_once(bases: list[str], token: str, count: int, request_id: str | None = None
                  ) -> list[httpx.Response]:
    """`count` Candy Jar bets of one player at the same moment, spread over the servers."""
    clients = _sessions(bases, token, count)

    def bet(i: int) -> Callable[[], httpx.Response]:
        body = {"request_id": request_id or uuid.uuid4().hex, "lines": CANDY_BET[0],
                "bet_per_line": CANDY_BET[1], "mode": "base"}
        return lambda: clients[i % len(clients)].post(f"/api/v1/games/{CANDY}/rounds",
                                                      json=body)
    try:
        return _at_once([bet(i) for i in range(count)])
    finally:
        for c in clients:
            c.close()


def _close(players: list[Player]) -> None:
    for p in players:
        p.http.close()


def _assert_ledger_ok(url: str) -> None:
    """`reelforge ledger check` and `reelforge audit verify`, called as the CLI calls them."""
    problems, _ = commands.ledger_check(url)
    assert problems == []
    assert commands.audit_verify(url) == []


def _meter(server: Server, pool: str) -> int:
    meters = httpx.get(f"{server.base}/api/v1/jackpots", timeout=30).json()["jackpots"]
    return next(m["amount_minor"] for m in meters if m["pool"] == pool)


def test_200_concurrent_bets_on_one_wallet(fleet: list[Server]) -> None:
    bases = [s.base for s in fleet]
    owner = Player(bases[0], operator="tight")
    opening = owner.balance()
    assert opening == TIGHT_BALANCE
    answers = _bets_at_once(bases, owner.token, 200)

    won = [a.json() for a in answers if a.status_code == 200]
    refused = [a for a in answers if a.status_code != 200]
    for a in refused:
        assert a.status_code == 409, f"{a.status_code}: {a.text}"
        assert a.json()["error"]["code"] in REFUSALS, a.text
    # at least the opening's worth is always covered: a stake takes at most 20 off the balance
    assert len(won) >= min(200, TIGHT_BALANCE // CANDY_PRICE)
    assert len({v["round_id"] for v in won}) == len(won)
    for view in won:
        assert view["status"] == "closed"
        assert view["stake_minor"] == CANDY_PRICE
        # the win is the outcome's, in credits at denomination 1
        assert view["win_minor"] == view["outcome"]["total_win"]
        full = owner.http.get(f"/api/v1/rounds/{view['round_id']}").json()
        mine = [m for m in full["ledger"] if m["account"] == "player"]
        assert sorted((m["kind"], m["amount_minor"]) for m in mine) == sorted(
            [("stake", -CANDY_PRICE)] + ([("win", view["win_minor"])] if view["win_minor"]
                                          else []))

    closing = owner.balance()
    assert closing == opening - CANDY_PRICE * len(won) + sum(v["win_minor"] for v in won)
    assert closing >= 0
    if any(a.json()["error"]["code"] == "INSUFFICIENT_BALANCE" for a in refused):
        # a refusal means the balance fell below a stake, after which no bet can win it back
        assert closing < CANDY_PRICE
        for a in refused:
            assert a.json()["error"]["balance_minor"] < CANDY_PRICE
    else:
        assert len(won) == 200
    history = owner.history()
    assert sorted(r["round_id"] for r in history) == sorted(v["round_id"] for v in won)
    owner.http.close()
    _assert_ledger_ok(fleet[0].db_url)


def test_same_request_id_50_times_at_once(fleet: list[Server]) -> None:
    bases = [s.base for s in fleet]
    owner = Player(bases[0])
    opening = owner.balance()
    request_id = uuid.uuid4().hex
    answers = _bets_at_once(bases, owner.token, 50, request_id)
    assert [a.status_code for a in answers] == [200] * 50, [a.text for a in answers
                                                             if a.status_code != 200][:3]
    views = [a.json() for a in answers]
    assert {v["round_id"] for v in views} == {views[0]["round_id"]}
    assert {v["outcome"]["seed"] for v in views} == {views[0]["outcome"]["seed"]}
    history = owner.history()
    assert [r["round_id"] for r in history] == [views[0]["round_id"]]
    assert owner.balance() == opening - CANDY_PRICE + views[0]["outcome"]["total_win"]
    owner.http.close()
    _assert_ledger_ok(fleet[0].db_url)


def _play_max_bets(player: Player, rounds: int) -> list[dict]:
    """`rounds` max-bet Cluedo rounds, each collected: the closed views."""
    played = []
    for _ in range(rounds):
        answer = player.bet("cluedo", *MAX_BET)
        assert answer.status_code == 200, answer.text
        played.append(player.finish(answer.json()))
    return played


def test_jackpot_contributions_add_up_across_two_processes(pg_fleet: list[Server]) -> None:
    spec = _game_file(CLUEDO_FILE)["features"]["progressive_jackpot"]
    seed, rate = spec["seed_amount"], spec["contribution_bp"]
    pool = _pool_key(CLUEDO_FILE)
    assert _meter(pg_fleet[0], pool) == seed  # nothing in this module played Cluedo before
    # an odd number of rounds in all: 1.5 minor units a round leaves half a unit to round down
    counts = [10, 11, 12, 13, 14, 15, 16, 18]
    players = [Player(pg_fleet[i % 2].base) for i in range(len(counts))]
    try:
        results = _at_once([lambda p=p, n=n: _play_max_bets(p, n)
                            for p, n in zip(players, counts, strict=True)])
    finally:
        _close(players)
    views = [v for played in results for v in played]
    assert len(views) == sum(counts)
    assert all(v["stake_minor"] == MAX_PRICE and v["jackpot_claim"] is None for v in views)
    stakes = MAX_PRICE * len(views)
    expected = seed + stakes * rate // POOL_SCALE
    assert [_meter(s, pool) for s in pg_fleet] == [expected, expected]
    engine = make_engine(pg_fleet[0].db_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(select(jackpot_pools).where(jackpot_pools.c.key == pool)).one()
    finally:
        engine.dispose()
    # not one unit lost: the fraction below a minor unit stays in the pool
    assert row.units == seed * POOL_SCALE + stakes * rate
    assert row.contributions_units == stakes * rate
    _assert_ledger_ok(pg_fleet[0].db_url)


def _claims_in_lock_order(units: int, seed: int, contribution: int, winners: int) -> list[int]:
    """What each of `winners` simultaneous jackpot rounds claims, in the order the pool's lock
    lets them through, from a pool of `units`: each adds its contribution, takes the pool's
    whole minor units, and the pool starts again at its seed (the fraction below a unit stays)."""
    paid = []
    for _ in range(winners):
        units += contribution
        paid.append(units // POOL_SCALE)
        units = units % POOL_SCALE + seed * POOL_SCALE
    return paid


@pytest.mark.parametrize("per_process", [1, 3], ids=["two-winners", "six-winners"])
def test_one_winner_per_pool(pg_fleet: list[Server], per_process: int) -> None:
    spec = _game_file(ALWAYS_FILE)["features"]["progressive_jackpot"]
    seed, rate = spec["seed_amount"], spec["contribution_bp"]
    pool = _pool_key(ALWAYS_FILE)
    assert pool != _pool_key(CLUEDO_FILE)
    engine = make_engine(pg_fleet[0].db_url)
    try:
        with engine.connect() as conn:
            before = conn.execute(select(jackpot_pools).where(jackpot_pools.c.key == pool)).one()
        # the previous case's leftover fraction, if any, is where this one starts
        start_fraction = before.units - seed * POOL_SCALE
        assert 0 <= start_fraction < POOL_SCALE
        assert _meter(pg_fleet[0], pool) == seed
        players = [Player(s.base, operator="always") for s in pg_fleet
                   for _ in range(per_process)]
        try:
            answers = _at_once([lambda p=p: p.bet("always", *MAX_BET) for p in players])
        finally:
            _close(players)
        assert [a.status_code for a in answers] == [200] * len(players), answers[0].text
        views = [a.json() for a in answers]
        claims = [v["jackpot_claim"] for v in views]
        assert all(c is not None and c["pool"] == pool for c in claims)
        in_order = [c["amount_minor"] for c in sorted(claims, key=lambda c: c["id"])]
        contribution = MAX_PRICE * rate
        assert in_order == _claims_in_lock_order(before.units, seed, contribution,
                                                 len(players))
        if per_process == 1:
            # the first takes the whole pool, seed and its contribution; the second the reseeded
            # meter with the carried fraction and its own contribution
            assert in_order[0] == seed + (start_fraction + contribution) // POOL_SCALE
        assert _meter(pg_fleet[1], pool) == seed
        with engine.connect() as conn:
            after = conn.execute(select(jackpot_pools).where(jackpot_pools.c.key == pool)).one()
            rows = conn.execute(select(jackpot_claims.c.amount_minor)
                                .where(jackpot_claims.c.pool_key == pool)).scalars().all()
            liability = conn.execute(select(accounts.c.balance).where(
                accounts.c.kind == "jackpot_liability", accounts.c.owner == pool)).scalar_one()
        assert after.wins - before.wins == len(players)
        assert after.paid_minor - before.paid_minor == sum(in_order)
        assert sum(rows) == after.paid_minor == liability
        # the claim is pending verification, never credited: the balance got the line wins only
        for v in views:
            assert v["jackpot_claim"]["status"] == "pending_verification"
            assert v["win_minor"] == v["outcome"]["total_win"]
            assert v["balance_minor"] == ALWAYS_BALANCE - MAX_PRICE + v["win_minor"]
    finally:
        engine.dispose()
    _assert_ledger_ok(pg_fleet[0].db_url)
