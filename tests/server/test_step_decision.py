"""A step's decision (`step_decision.decide_step`) as a pure function, without a database: a
Cluedo round held for its red/black gamble, decided by `decide_bet` from a state given by hand,
then its steps decided on that round's row.

Expected amounts come from the round's win and the rule sheet's gamble (take half banks
amount // 2; collect pays what is at stake and banked), by arithmetic here.
"""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

import pytest

from reelforge.engine.rng import live_generator
from reelforge.server.errors import ApiError
from reelforge.server.services import sessions
from reelforge.server.services.bet_decision import (
    LedgerFunding,
    PlayerState,
    SeamlessFunding,
    decide_bet,
)
from reelforge.server.services.catalog import served_game
from reelforge.server.services.common import loads
from reelforge.server.services.placement import Placement
from reelforge.server.services.round_views import served_for_round
from reelforge.server.services.step_decision import (
    StepRequest,
    StepState,
    decide_step,
    opens_choice,
)
from reelforge.server.settings import load_settings

from .harness import write_config

ACCOUNT, HOUSE = 7, 8
FUND = LedgerFunding(ACCOUNT, HOUSE)
NOW = 10**15


def _seed(i: int) -> int:
    return int.from_bytes(hashlib.sha256(f"step-{i}".encode()).digest(), "big")


@pytest.fixture(scope="module")
def auth(tmp_path_factory: pytest.TempPathFactory) -> sessions.Auth:
    workdir = tmp_path_factory.mktemp("steps")
    settings = load_settings(write_config(workdir), workdir)
    op = next(o for o in settings.operators if o.id == "demo")
    return sessions.Auth(session_id=1, player_id=1, external_id="p", operator=op,
                         currency=op.currency, max_stake_minor=None, started_at=0,
                         expires_at=2**62, balance_at_start=0)


@pytest.fixture(scope="module")
def held(auth) -> SimpleNamespace:
    """A Cluedo round held for its gamble, on a win of 2+ credits, as its row stands."""
    served = served_game(auth.operator, "cluedo")
    bet = served.check_bet(20, 1, "base", None)
    for i in range(2000):
        outcome = served.game.play(bet, live_generator(_seed(i)), _seed(i))
        offers = served.game.offers(outcome, None)
        if offers and offers[0].kind == "gamble" and outcome.total_win >= 2:
            p = Placement(auth, served, "r", bet, served.game.price(bet) * served.denomination,
                          _seed(i), outcome, NOW)
            decided = decide_bet(p, PlayerState(10_000, None, ()), "round-1", FUND)
            assert decided.row["status"] == "outcome_committed" and decided.moves[1:] == ()
            return SimpleNamespace(**decided.row)
    pytest.fail("2000 seeds without a gamble offered")


def _request(choice: str, kind: str = "gamble", i: int = 0) -> StepRequest:
    return StepRequest(f"s{i}", kind, choice, _seed(100 + i), _seed(200 + i), _seed(300 + i),
                       "funded-1", NOW + 1 + i)


def _state(row, steps=(), balance: int = 10_000 - 20) -> StepState:
    return StepState(row, steps, balance, NOW)


def _step_row(decision) -> SimpleNamespace:
    return SimpleNamespace(**decision.step_row)


def test_collect_pays_the_win_and_closes_the_round(auth, held) -> None:
    served = served_for_round(auth, held)
    win = loads(held.outcome)["total_win"] * held.denomination
    assert opens_choice(loads(held.phase), ())
    decision = decide_step(served, auth, _state(held), _request("collect"), FUND)
    moved = [(m.txn, m.source, m.target, m.amount, m.kind, m.step) for m in decision.moves]
    assert moved == [("round-1:win", HOUSE, ACCOUNT, win, "win", 0)]
    assert decision.round_update["status"] == "closed"
    assert decision.round_update["win_minor"] == win
    assert decision.balance_after == 10_000 - 20 + win
    assert [a[1] for a in decision.audits] == ["round.closed"]
    assert decision.step_audit is not None and decision.step_audit[1] == "round.step"
    assert decision.step_row is not None and decision.step_row["idx"] == 0
    assert loads(decision.step_row["result"])["paid_credits"] == win // held.denomination
    assert decision.funded is None and decision.refusal is None
    # collected at once: the paytable's win, no gamble (the back office's meter, D5)
    assert decision.gamble_meter == (win, win, False)
    # pure: the same state and request decide the same again
    assert decide_step(served, auth, _state(held), _request("collect"), FUND) == decision


def test_take_half_banks_now_and_collect_pays_the_rest(auth, held) -> None:
    served = served_for_round(auth, held)
    credits = loads(held.outcome)["total_win"]
    half = credits // 2
    first = decide_step(served, auth, _state(held), _request("half"), FUND)
    assert [(m.txn, m.amount, m.step) for m in first.moves] == [
        ("round-1:bank:0", half * held.denomination, 0)]
    assert first.round_update["status"] == "outcome_committed"  # still held
    assert [a[1] for a in first.audits] == ["round.banked"]
    # the round as the first step left it, then collect: the rest of the win
    row = SimpleNamespace(**{**vars(held), **first.round_update})
    second = decide_step(served, auth, _state(row, (_step_row(first),),
                                              first.balance_after),
                         _request("collect", i=1), FUND)
    assert [(m.txn, m.amount, m.step) for m in second.moves] == [
        ("round-1:win", (credits - half) * held.denomination, 1)]
    assert second.round_update["win_minor"] == credits * held.denomination
    assert second.balance_after == 10_000 - 20 + credits * held.denomination
    assert second.gamble_meter == (credits * held.denomination,) * 2 + (True,)


def test_a_seamless_rounds_step_owes_the_win_to_the_operator(auth, held) -> None:
    served = served_for_round(auth, held)
    win = loads(held.outcome)["total_win"] * held.denomination
    decision = decide_step(served, auth, _state(held, balance=0), _request("collect"),
                           SeamlessFunding(auth, held.game_key, HOUSE))
    assert decision.moves == ()
    [credit] = decision.outbox
    assert credit["transaction_id"] == "round-1:credit" and f'"amount":{win}' in credit["body"]
    assert decision.round_update["status"] == "outcome_committed"
    assert [a[1] for a in decision.audits] == ["round.credit_queued"]
    assert decision.gamble_meter is None  # the operator's money: unmetered here


def test_a_step_is_refused_before_anything_is_decided(auth, held) -> None:
    served = served_for_round(auth, held)

    def refusal(state: StepState, req: StepRequest) -> ApiError:
        with pytest.raises(ApiError) as refused:
            decide_step(served, auth, state, req, FUND)
        return refused.value

    closed = SimpleNamespace(**{**vars(held), "status": "closed"})
    assert "closed" in refusal(_state(closed), _request("collect")).message
    assert refusal(_state(held), _request("collect", kind="spin_chance")).code == \
        "STEP_NOT_ALLOWED"
    assert refusal(_state(held), _request("sideways")).code == "STEP_NOT_ALLOWED"
    many = tuple(SimpleNamespace(idx=i) for i in range(1000))
    assert "1000 steps" in refusal(_state(held, many), _request("collect")).message
