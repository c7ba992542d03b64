"""An insider's edit of any money column is found (issue 23): rounds played by the writer on
SQLite, then each column edited in the database, one at a time, by one minor unit (or one
credit); `ledger check` or `audit verify` reports it, and says nothing once it is undone.

test_db.py breaks each ledger invariant on rows it builds itself; test_money_defects.py edits
a round's win and a step's payment behind a running server. Here every money column is
edited on rounds the server's own writer wrote: the round's stake and win, a step's payment,
a ledger entry's amount, an account's balance, and each of a jackpot pool's amounts.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

from reelforge.engine.rng import live_generator
from reelforge.server.db.migrate import upgrade
from reelforge.server.main import build_context, startup
from reelforge.server.services import audit, ledger_check, sessions, tokens
from reelforge.server.services.bet_checks import touches_pool
from reelforge.server.services.bet_writer import Stepped, Written, commit
from reelforge.server.services.catalog import served_game
from reelforge.server.services.common import now_us
from reelforge.server.services.placement import Placement
from reelforge.server.services.step_decision import StepPlacement, StepRequest

from .harness import write_config


def _seed(tag: str, i: int) -> int:
    return int.from_bytes(hashlib.sha256(f"edits-{tag}-{i}".encode()).digest(), "big")


def _placement(auth: sessions.Auth, key: str, lines: int, bpl: int, rid: str,
               seed: int) -> Placement:
    served = served_game(auth.operator, key)
    bet = served.check_bet(lines, bpl, "base", auth.max_stake_minor)
    return Placement(auth, served, rid, bet, served.game.price(bet) * served.denomination,
                     seed, served.game.play(bet, live_generator(seed), seed), now_us())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    """A database holding a won round, a round of the jackpot pool and a collected gamble
    (a step that paid), all written by the writer; (context, the won round's id, the
    stepped round's id)."""
    workdir: Path = tmp_path_factory.mktemp("edits")
    url = f"sqlite:///{workdir / 'reelforge.db'}"
    upgrade(url)
    ctx = build_context(url, write_config(workdir), workdir)
    startup(ctx)
    op = ctx.operator("demo")

    def launch() -> sessions.Auth:
        claims = tokens.LaunchClaims(op.id, f"p-{secrets.token_hex(4)}",
                                     now_us() // 1_000_000 + 600, secrets.token_hex(8))
        return sessions.authenticate(ctx, sessions.open_session(
            ctx, tokens.sign_launch(op.secret, claims))[0])

    auth = launch()
    cluedo = served_game(auth.operator, "cluedo")
    spec = cluedo.game.spec.bet
    pool_bet = _placement(launch(), "cluedo", spec.max_lines, spec.max_bet_per_line, "pool",
                          _seed("pool", 0))
    assert touches_pool(cluedo, pool_bet.bet)
    won = held = None  # the held round last: open, it bars its player's other Cluedo bets
    for i in range(2000):
        p = _placement(auth, "cluedo", 20, 1, f"r{i}", _seed("round", i))
        offers = cluedo.game.offers(p.outcome, None)
        if won is None and p.outcome.total_win and not offers:
            won = p
        elif held is None and offers and offers[0].kind == "gamble" and p.outcome.total_win:
            held = p
        if won is not None and held is not None:
            break
    assert won is not None and held is not None
    [won], [pooled], [held] = (commit(ctx, [p]) for p in (won, pool_bet, held))
    assert isinstance(won, Written) and won.row.win_minor
    assert isinstance(held, Written) and held.row.status == "outcome_committed"
    assert isinstance(pooled, Written)
    [paid] = commit(ctx, [StepPlacement(auth, held.row.id, StepRequest(
        "collect", "gamble", "collect", _seed("step", 0), _seed("bonus", 0),
        _seed("funded", 0), "funded-0", now_us()))])
    assert paid == Stepped(held.row.id)
    yield ctx, won.row.id, held.row.id
    ctx.engine.dispose()


def _findings(conn: Connection) -> list[str]:
    return ledger_check.check(conn) + audit.verify(conn)


def _one(conn: Connection, sql: str, **params) -> None:
    assert conn.execute(text(sql), params).rowcount == 1, sql


def _step_paid(delta: int) -> Callable[[Connection, str, str], None]:
    def edit(conn: Connection, won: str, stepped: str) -> None:
        stored = json.loads(conn.execute(text(
            "SELECT result FROM round_steps WHERE round_id = :id AND idx = 0"),
            {"id": stepped}).scalar_one())
        stored["paid_credits"] += delta
        _one(conn, "UPDATE round_steps SET result = :r WHERE round_id = :id AND idx = 0",
             r=json.dumps(stored, separators=(",", ":"), sort_keys=True), id=stepped)
    return edit


def _sql(sql: str) -> Callable[[int], Callable[[Connection, str, str], None]]:
    """An edit by `sql`, which adds :d to one row's money column (the won round's, the
    stepped round's, or a row found by the statement itself)."""
    def by(delta: int) -> Callable[[Connection, str, str], None]:
        def edit(conn: Connection, won: str, stepped: str) -> None:
            _one(conn, sql, d=delta, won=won, stepped=stepped)
        return edit
    return by


POOL = "(SELECT key FROM jackpot_pools ORDER BY key LIMIT 1)"
EDITS = {
    "rounds.win_minor": _sql("UPDATE rounds SET win_minor = win_minor + :d WHERE id = :won"),
    "rounds.stake_minor": _sql(
        "UPDATE rounds SET stake_minor = stake_minor + :d WHERE id = :won"),
    "round_steps paid_credits": _step_paid,
    "ledger_entries.amount": _sql(
        "UPDATE ledger_entries SET amount = amount + :d WHERE id = (SELECT min(id) FROM "
        "ledger_entries WHERE round_id = :won AND kind = 'win' AND amount > 0)"),
    "accounts.balance": _sql(
        "UPDATE accounts SET balance = balance + :d WHERE id = (SELECT account_id FROM "
        "ledger_entries WHERE round_id = :won AND kind = 'win' AND amount > 0)"),
    "jackpot_pools.units": _sql(
        f"UPDATE jackpot_pools SET units = units + :d * 10000 WHERE key = {POOL}"),
    "jackpot_pools.credited_minor": _sql(
        f"UPDATE jackpot_pools SET credited_minor = credited_minor + :d WHERE key = {POOL}"),
    "jackpot_pools.contributions_units": _sql(
        "UPDATE jackpot_pools SET contributions_units = contributions_units + :d "
        f"WHERE key = {POOL}"),
    "jackpot_pools.seeded_minor": _sql(
        f"UPDATE jackpot_pools SET seeded_minor = seeded_minor + :d WHERE key = {POOL}"),
    "jackpot_pools.paid_minor": _sql(
        f"UPDATE jackpot_pools SET paid_minor = paid_minor + :d WHERE key = {POOL}"),
    "jackpot_pools.overflow_units": _sql(
        f"UPDATE jackpot_pools SET overflow_units = overflow_units + :d * 10000 "
        f"WHERE key = {POOL}"),
}


@pytest.mark.parametrize("column", sorted(EDITS))
def test_an_edit_of_a_money_column_is_found(played, column: str) -> None:
    ctx, won, stepped = played
    with ctx.read() as conn:
        assert _findings(conn) == []
    with ctx.begin() as conn:
        EDITS[column](1)(conn, won, stepped)
        found = _findings(conn)
        EDITS[column](-1)(conn, won, stepped)  # undone in the same transaction
        assert _findings(conn) == []
    assert found, f"an edit of {column} went unseen"
