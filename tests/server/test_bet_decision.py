"""The bet's decision (`bet_decision.decide_bet`, pure) and its writer (`bet_writer.commit`,
one transaction for a list of bets), below the HTTP layer: the decision from a state given by
hand, the writer on a SQLite database.

Expected amounts come from the drawn outcome (its total win) and the game's price, by
arithmetic here; the refusals' codes are the API's (STYLE.md: error codes are part of it).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from reelforge.engine.rng import live_generator
from reelforge.server.db.migrate import upgrade
from reelforge.server.db.tables import rounds as rounds_table
from reelforge.server.errors import ApiError
from reelforge.server.main import build_context, startup
from reelforge.server.services import audit, ledger_check, sessions, tokens
from reelforge.server.services.bet_decision import PlayerState, decide_bet
from reelforge.server.services.bet_writer import AGAIN, Written, commit
from reelforge.server.services.catalog import served_game
from reelforge.server.services.common import now_us
from reelforge.server.services.placement import Placement
from reelforge.server.settings import load_settings

from .harness import write_config

ACCOUNT, HOUSE = 7, 8  # account ids: any two, the decision only names them
CANDY = ("candy-jar-clusters", 20, 1)  # no jackpot pool, no choice after a round


def _seed(i: int) -> int:
    return int.from_bytes(hashlib.sha256(f"decide-{i}".encode()).digest(), "big")


def _auth(operator, player_id: int = 1) -> sessions.Auth:
    return sessions.Auth(session_id=1, player_id=player_id, external_id="p", operator=operator,
                         currency=operator.currency, max_stake_minor=None, started_at=0,
                         expires_at=2**62, balance_at_start=0)


def _placement(auth, key: str, lines: int, per_line: int, seed: int, request_id: str = "r",
               now: int = 10**15) -> Placement:
    served = served_game(auth.operator, key)
    bet = served.check_bet(lines, per_line, "base", auth.max_stake_minor)
    outcome = served.game.play(bet, live_generator(seed), seed)
    return Placement(auth, served, request_id, bet, served.game.price(bet) * served.denomination,
                     seed, outcome, now)


@pytest.fixture(scope="module")
def operators(tmp_path_factory: pytest.TempPathFactory):
    workdir = tmp_path_factory.mktemp("decide")
    settings = load_settings(write_config(workdir), workdir)
    return {op.id: op for op in settings.operators}


def _closing(auth, want_win: bool) -> Placement:
    """A Candy Jar Clusters bet whose round closes at once (no choice offered), won or lost."""
    for i in range(500):
        p = _placement(auth, *CANDY, _seed(i))
        offers = p.served.game.offers(p.outcome, None)
        if not offers and (p.outcome.total_win > 0) == want_win:
            return p
    pytest.fail("500 seeds without such a round")


@pytest.mark.parametrize("won", [True, False], ids=["won", "lost"])
def test_a_bet_decided_moves_its_stake_and_win(operators, won: bool) -> None:
    auth = _auth(operators["demo"])
    p = _closing(auth, won)
    price, win = p.price_minor, p.outcome.total_win * p.served.denomination
    decision = decide_bet(p, PlayerState(1_000, None, ()), "round-1", ACCOUNT, HOUSE)
    moved = [(m.txn, m.source, m.target, m.amount, m.kind) for m in decision.moves]
    expected = [("round-1:stake", ACCOUNT, HOUSE, price, "stake")]
    if win:
        expected.append(("round-1:win", HOUSE, ACCOUNT, win, "win"))
    assert moved == expected
    assert decision.balance_after == 1_000 - price + win
    assert decision.row["status"] == "closed" and decision.transition.closed
    assert decision.row["win_minor"] == win
    assert decision.row["stake_minor"] == price
    assert decision.audit[:2] == ("player:1", "round.closed")
    assert decision.audit[2]["win_minor"] == win
    # pure: the same state and bet decide the same again
    assert decide_bet(p, PlayerState(1_000, None, ()), "round-1", ACCOUNT, HOUSE) == decision


def test_a_bet_is_refused_in_the_order_of_its_checks(operators) -> None:
    auth = _auth(operators["demo"])
    p = _closing(auth, False)
    open_here = SimpleNamespace(id="open-1", status="credited", game_key=p.served.key)
    elsewhere = SimpleNamespace(id="open-2", status="credited", game_key="cluedo")
    closed = SimpleNamespace(id="old", status="closed", game_key=p.served.key)

    def refusal(state: PlayerState, placement: Placement = p) -> ApiError:
        with pytest.raises(ApiError) as refused:
            decide_bet(placement, state, "round-1", ACCOUNT, HOUSE)
        return refused.value

    short = refusal(PlayerState(p.price_minor - 1, None, ()))
    assert short.code == "INSUFFICIENT_BALANCE" and str(p.price_minor - 1) in short.message
    # an open round of the same game goes first, then funds; another game's and closed ones
    # do not count under the default profile
    assert refusal(PlayerState(0, None, (open_here,))).code == "ROUND_ALREADY_OPEN"
    decide_bet(p, PlayerState(p.price_minor, None, (elsewhere, closed)), "r", ACCOUNT, HOUSE)
    # GB: one slot round at a time, and 2.5 s between two rounds' starts
    gb = _auth(operators["gb"])
    q = replace(_placement(gb, *CANDY, _seed(0)), now=10**15)
    assert refusal(PlayerState(10**6, None, (elsewhere,)), q).code == "ROUND_ALREADY_OPEN"
    early = refusal(PlayerState(10**6, 10**15 - 1_000_000, ()), q)
    assert early.code == "TOO_FAST" and early.details["retry_after_ms"] == 1500
    decide_bet(q, PlayerState(10**6, 10**15 - 2_500_000, ()), "r", ACCOUNT, HOUSE)


# -- the writer, on SQLite --------------------------------------------------------------------


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator:
    url = f"sqlite:///{tmp_path / 'writer.db'}"
    upgrade(url)
    context = build_context(url, write_config(tmp_path), tmp_path)
    startup(context)
    yield context
    context.engine.dispose()


def _launch(ctx, operator: str) -> sessions.Auth:
    op = ctx.operator(operator)
    claims = tokens.LaunchClaims(op.id, f"w-{secrets.token_hex(4)}",
                                 now_us() // 1_000_000 + 600, secrets.token_hex(8))
    token, _ = sessions.open_session(ctx, tokens.sign_launch(op.secret, claims))
    return sessions.authenticate(ctx, token)


def test_the_writer_applies_a_batch_in_one_transaction(ctx) -> None:
    """Two players' bets, one refused and one repeated: the others written with their moves,
    balances and audit rows; the ledger and the audit chain check clean after."""
    rich, poor = _launch(ctx, "demo"), _launch(ctx, "poor")
    start = {a.player_id: _balance(ctx, a) for a in (rich, poor)}
    closing = (p for p in (_placement(rich, *CANDY, _seed(i), request_id=f"r{i}", now=now_us())
                           for i in range(500))
               if not p.served.game.offers(p.outcome, None))  # no choice holds the round open
    bets = [next(closing) for _ in range(3)]
    bets.append(_placement(poor, "cops-n-robbers", 10, 50, _seed(9), "big"))  # 500 > 250
    bets.append(replace(bets[0]))  # the first request id again
    results = commit(ctx, bets)
    assert all(isinstance(r, Written) for r in results[:3]), results
    assert isinstance(results[3], ApiError) and results[3].code == "INSUFFICIENT_BALANCE"
    assert results[4] is AGAIN
    written = [r for r in results if isinstance(r, Written)]
    with ctx.read() as conn:
        stored = conn.execute(select(rounds_table).where(
            rounds_table.c.player_id == rich.player_id)).all()
    assert sorted(r.id for r in stored) == sorted(w.row.id for w in written)
    net = sum(-w.row.stake_minor + (w.row.win_minor or 0) for w in written)
    assert _balance(ctx, rich) == start[rich.player_id] + net
    assert _balance(ctx, poor) == start[poor.player_id]
    with ctx.read() as conn:
        assert ledger_check.check(conn) == []
        assert audit.verify(conn) == []


def _balance(ctx, auth) -> int:
    with ctx.read() as conn:
        return sessions.balance_of(conn, auth.operator, auth.player_id)
