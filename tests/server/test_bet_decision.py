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
from reelforge.server.services.bet_checks import touches_pool
from reelforge.server.services.bet_decision import (
    LedgerFunding,
    PlayerState,
    SeamlessFunding,
    decide_bet,
    decide_open,
    settle_bet,
)
from reelforge.server.services.bet_writer import AGAIN, Written, commit
from reelforge.server.services.catalog import served_game
from reelforge.server.services.common import now_us
from reelforge.server.services.jackpot import PoolState, claim_of_pool, contribution
from reelforge.server.services.placement import Placement
from reelforge.server.settings import load_settings

from .harness import write_config

ACCOUNT, HOUSE = 7, 8  # account ids: any two, the decision only names them
FUND = LedgerFunding(ACCOUNT, HOUSE)
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
    decision = decide_bet(p, PlayerState(1_000, None, ()), "round-1", FUND)
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
    assert decide_bet(p, PlayerState(1_000, None, ()), "round-1", FUND) == decision


def test_a_bet_is_refused_in_the_order_of_its_checks(operators) -> None:
    auth = _auth(operators["demo"])
    p = _closing(auth, False)
    open_here = SimpleNamespace(id="open-1", status="credited", game_key=p.served.key)
    elsewhere = SimpleNamespace(id="open-2", status="credited", game_key="cluedo")
    closed = SimpleNamespace(id="old", status="closed", game_key=p.served.key)

    def refusal(state: PlayerState, placement: Placement = p) -> ApiError:
        with pytest.raises(ApiError) as refused:
            decide_bet(placement, state, "round-1", FUND)
        return refused.value

    short = refusal(PlayerState(p.price_minor - 1, None, ()))
    assert short.code == "INSUFFICIENT_BALANCE" and str(p.price_minor - 1) in short.message
    # an open round of the same game goes first, then funds; another game's and closed ones
    # do not count under the default profile
    assert refusal(PlayerState(0, None, (open_here,))).code == "ROUND_ALREADY_OPEN"
    decide_bet(p, PlayerState(p.price_minor, None, (elsewhere, closed)), "r", FUND)
    # GB: one slot round at a time, and 2.5 s between two rounds' starts
    gb = _auth(operators["gb"])
    q = replace(_placement(gb, *CANDY, _seed(0)), now=10**15)
    assert refusal(PlayerState(10**6, None, (elsewhere,)), q).code == "ROUND_ALREADY_OPEN"
    early = refusal(PlayerState(10**6, 10**15 - 1_000_000, ()), q)
    assert early.code == "TOO_FAST" and early.details["retry_after_ms"] == 1500
    decide_bet(q, PlayerState(10**6, 10**15 - 2_500_000, ()), "r", FUND)


def test_a_seamless_round_differs_only_by_its_funding(operators) -> None:
    """The same checks open it (the funds are the operator's to check), and the same
    settlement closes it: no ledger move of the player's, the win owed through the outbox."""
    auth = _auth(operators["demo"])
    p = _closing(auth, True)
    funding = SeamlessFunding(auth, p.served.key, HOUSE)
    debit = {"transaction_id": "round-1:debit", "amount": p.price_minor}
    opened = decide_open(auth, p.served, "r", p.bet, p.price_minor, p.now,
                         PlayerState(0, None, ()), "round-1", funding, debit)
    assert opened.row["status"] == "open" and opened.row["outcome"] is None
    assert opened.moves == () and [o["kind"] for o in opened.outbox] == ["debit"]
    assert opened.audit[1] == "round.opened"
    here = SimpleNamespace(id="open-1", status="credited", game_key=p.served.key)
    with pytest.raises(ApiError) as refused:  # the ledger bet's checks, in their order
        decide_open(auth, p.served, "r", p.bet, p.price_minor, p.now,
                    PlayerState(0, None, (here,)), "round-1", funding, debit)
    assert refused.value.code == "ROUND_ALREADY_OPEN"
    outcome = p.outcome.to_dict()
    row = {**opened.row, "seed": "00", "outcome": "{}"}
    settled = settle_bet(p.served, auth.player_id, row, p.outcome, outcome,
                         PlayerState(0, None, ()), funding, p.now + 1, existing=True)
    win = p.outcome.total_win * p.served.denomination
    assert settled.moves == () and settled.existing and settled.debit_done == "round-1:debit"
    [credit] = settled.outbox
    assert (credit["kind"], credit["transaction_id"]) == ("credit", "round-1:credit")
    assert f'"amount":{win}' in credit["body"]
    assert (settled.row["status"], settled.row["win_minor"]) == ("outcome_committed", win)
    assert settled.audit[1] == "round.credit_queued"


# -- a round of the jackpot pool: its contribution and claim are part of its decision ------------

POOL, LIABILITY = 21, 22  # the pool's account and its liability account, by hand too
CLUEDO_MAX = ("cluedo", 20, 5)  # Cluedo's BET MAX: the only bet that touches the pool


def _pool(units: int, credited: int, enabled: bool = True) -> PoolState:
    return PoolState("Cluedo/EUR", "EUR", units, credited, seed_minor=500_000,
                     contribution_bp=150, contributions_units=7, seeded_minor=500_000,
                     paid_minor=0, wins=0, enabled=enabled, account=POOL, liability=LIABILITY)


def _pool_bet(auth, jackpot: bool) -> Placement:
    for i in range(500):
        p = _placement(auth, *CLUEDO_MAX, _seed(i))
        if not p.served.game.offers(p.outcome, None):  # no gamble holds its win
            assert touches_pool(p.served, p.bet)
            if "jackpot" in p.outcome.flags:
                continue
            if jackpot:  # a jackpot is too rare to draw: the flag set by hand
                flags = (*p.outcome.flags, "jackpot")
                p = replace(p, outcome=p.outcome.model_copy(update={"flags": flags}))
            return p
    pytest.fail("500 seeds without such a round")


def test_a_pool_round_decided_contributes_in_its_own_moves(operators) -> None:
    auth = _auth(operators["demo"])
    p = _pool_bet(auth, jackpot=False)
    price = p.price_minor  # 100 minor units (20 lines x 5): 100 x 150 bp = 15,000 pool units
    assert price == 100
    # 9,999 pool units above the credited whole: 15,000 more cross two whole minor units
    pool = _pool(units=1_000_000 * 10_000 + 9_999, credited=1_000_000)
    decision = decide_bet(p, PlayerState(1_000, None, (), pool), "round-1", FUND)
    moved = [(m.txn, m.source, m.target, m.amount, m.kind) for m in decision.moves]
    assert moved[:2] == [("round-1:stake", ACCOUNT, HOUSE, 100, "stake"),
                         ("round-1:contribution", HOUSE, POOL, 2, "jackpot_contribution")]
    assert decision.pool == replace(pool, units=1_000_002 * 10_000 + 4_999,
                                    credited_minor=1_000_002, contributions_units=15_007)
    assert decision.claim is None
    # the player pays the stake alone: the contribution comes out of the house's share
    assert decision.balance_after == 900 + p.outcome.total_win * p.served.denomination
    # a disabled pool takes nothing; a pool round without its pool's state is a bug, not a bet
    off = _pool(units=10**10, credited=10**6, enabled=False)
    assert decide_bet(p, PlayerState(1_000, None, (), off), "r", FUND).pool == off
    with pytest.raises(ValueError, match="Cluedo"):
        decide_bet(p, PlayerState(1_000, None, ()), "r", FUND)


def test_a_pool_won_is_claimed_and_reseeded_in_the_rounds_decision(operators) -> None:
    auth = _auth(operators["demo"])
    p = _pool_bet(auth, jackpot=True)
    pool = _pool(units=1_234_567 * 10_000 + 42, credited=1_234_567)
    decision = decide_bet(p, PlayerState(1_000, None, (), pool), "round-1", FUND)
    moved = [(m.txn, m.source, m.target, m.amount) for m in decision.moves]
    # 100 x 150 bp = 15,000 units: 1 whole minor unit more (42 + 15,000 = 1 x 10,000 + 5,042)
    assert moved[1:4] == [("round-1:contribution", HOUSE, POOL, 1),
                          ("round-1:jackpot_claim", POOL, LIABILITY, 1_234_568),
                          ("round-1:jackpot_seed", HOUSE, POOL, 500_000)]
    assert decision.pool is not None and decision.pool.units == 500_000 * 10_000 + 5_042
    assert (decision.pool.credited_minor, decision.pool.wins,
            decision.pool.paid_minor) == (500_000, 1, 1_234_568)
    assert decision.claim is not None
    assert decision.claim.row["amount_minor"] == 1_234_568
    assert decision.claim.audit[:2] == ("jackpot:Cluedo/EUR", "jackpot.claimed")
    # the claim goes to the liability, not the balance: the player's money is stake and win
    assert decision.balance_after == 900 + p.outcome.total_win * p.served.denomination


def test_a_pool_at_its_ceiling_sends_the_rest_to_its_overflow_and_reseeds_from_it() -> None:
    """GLI-19 4.13.2-3: at the ceiling the meter stays put, the part of a contribution past it
    goes to the overflow (its own account), and a reset's seed comes from the overflow first."""
    OVERFLOW = 23
    # 5,000 units of room under a ceiling of 1,000,000: 15,000 more split 5,000 / 10,000
    pool = replace(_pool(units=999_999 * 10_000 + 5_000, credited=999_999),
                   ceiling_minor=1_000_000, overflow_units=3 * 10_000 + 500,
                   overflow_credited_minor=3, overflow_account=OVERFLOW)
    after, moves = contribution(pool, 100, HOUSE, "r", 0)
    assert after.units == 1_000_000 * 10_000 and after.credited_minor == 1_000_000
    assert after.overflow_units == 4 * 10_000 + 500 and after.overflow_credited_minor == 4
    assert after.contributions_units == pool.contributions_units + 15_000
    assert [(m.txn, m.source, m.target, m.amount) for m in moves] == [
        ("r:contribution", HOUSE, POOL, 1), ("r:overflow", HOUSE, OVERFLOW, 1)]
    # a win: the meter's 1,000,000 to the liability; of the 500,000 seed, 4 from the overflow
    won, claim, claimed = claim_of_pool(after, "r", 1, HOUSE, 0)
    assert [(m.txn, m.source, m.target, m.amount) for m in claimed] == [
        ("r:jackpot_claim", POOL, LIABILITY, 1_000_000),
        ("r:jackpot_reseed", OVERFLOW, POOL, 4), ("r:jackpot_seed", HOUSE, POOL, 499_996)]
    assert won.overflow_units == 500 and won.overflow_credited_minor == 0
    assert (won.seeded_minor, won.overflow_seeded_minor) == (500_000 + 499_996, 4)
    assert claim is not None and claim.audit[2]["reseed_from_overflow_minor"] == 4


def test_a_disabled_pool_cannot_be_won() -> None:
    pool = _pool(units=10**10, credited=10**6, enabled=False)
    assert claim_of_pool(pool, "r", 1, HOUSE, 0) == (pool, None, ())


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


def test_the_writer_applies_a_pool_rounds_contribution(ctx) -> None:
    """A round of the jackpot pool through the same writer: the pool's units grow by the
    stake's basis points, its account by the whole minor units, and the books hold."""
    from reelforge.server.db.tables import jackpot_pools

    auth = _launch(ctx, "demo")
    p = replace(_pool_bet(auth, jackpot=False), now=now_us())
    with ctx.read() as conn:
        before = conn.execute(select(jackpot_pools).where(
            jackpot_pools.c.key == p.served.pool_key())).one()
    [written] = commit(ctx, [p])
    assert isinstance(written, Written), written
    with ctx.read() as conn:
        after = conn.execute(select(jackpot_pools).where(
            jackpot_pools.c.key == p.served.pool_key())).one()
        assert ledger_check.check(conn) == []
        assert audit.verify(conn) == []
    assert after.units - before.units == p.price_minor * before.contribution_bp
    assert after.credited_minor == after.units // 10_000


def _balance(ctx, auth) -> int:
    with ctx.read() as conn:
        return sessions.balance_of(conn, auth.operator, auth.player_id)
