"""The writer of money (services/bet_writer.py) on SQLite, in-process: a batch that mixes bets
and steps is written in one transaction, gives each item the answer it gets alone, and a
refused or failing item never leaves part of itself, or of the others, behind.

The HTTP tests (test_api, test_recovery, test_concurrency) play the same writer through a real
server; only here can one batch be made to hold a bet and a step of two players at once.
"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select

from reelforge.engine.rng import live_generator
from reelforge.server.db.migrate import upgrade
from reelforge.server.db.tables import audit_log, ledger_entries, round_steps, rounds
from reelforge.server.errors import ApiError
from reelforge.server.main import build_context, startup
from reelforge.server.services import audit, bet_writer, ledger_check, sessions, tokens
from reelforge.server.services.bet_writer import AGAIN, Stepped, Written, commit
from reelforge.server.services.catalog import served_game
from reelforge.server.services.common import loads, now_us
from reelforge.server.services.placement import Placement
from reelforge.server.services.step_decision import StepPlacement, StepRequest

from .harness import write_config


def _seed(tag: str, i: int) -> int:
    return int.from_bytes(hashlib.sha256(f"writer-{tag}-{i}".encode()).digest(), "big")


@pytest.fixture
def ctx(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'reelforge.db'}"
    upgrade(url)
    context = build_context(url, write_config(tmp_path), tmp_path)
    startup(context)
    yield context
    context.engine.dispose()


def _launch(ctx, operator: str = "demo") -> sessions.Auth:
    op = ctx.operator(operator)
    claims = tokens.LaunchClaims(op.id, f"p-{secrets.token_hex(4)}",
                                 now_us() // 1_000_000 + 600, secrets.token_hex(8))
    token, _ = sessions.open_session(ctx, tokens.sign_launch(op.secret, claims))
    return sessions.authenticate(ctx, token)


def _bet(auth: sessions.Auth, key: str, lines: int, bpl: int, rid: str, seed: int) -> Placement:
    served = served_game(auth.operator, key)
    bet = served.check_bet(lines, bpl, "base", auth.max_stake_minor)
    return Placement(auth, served, rid, bet, served.game.price(bet) * served.denomination,
                     seed, served.game.play(bet, live_generator(seed), seed), now_us())


def _gamble_seed(auth: sessions.Auth) -> int:
    """A seed whose Cluedo round (20 lines at 1) wins and is held for the gamble."""
    served = served_game(auth.operator, "cluedo")
    bet = served.check_bet(20, 1, "base", None)
    for i in range(2000):
        outcome = served.game.play(bet, live_generator(_seed("held", i)), _seed("held", i))
        offers = served.game.offers(outcome, None)
        if offers and offers[0].kind == "gamble" and outcome.total_win >= 2:
            return _seed("held", i)
    pytest.fail("2000 seeds without a gamble offered")


def _held_round(ctx, auth: sessions.Auth, seed: int) -> SimpleNamespace:
    [done] = commit(ctx, [_bet(auth, "cluedo", 20, 1, "held", seed)])
    assert isinstance(done, Written) and done.row.status == "outcome_committed"
    return done.row


def _step(auth: sessions.Auth, round_id: str, choice: str, rid: str = "s0",
          kind: str = "gamble") -> StepPlacement:
    return StepPlacement(auth, round_id, StepRequest(
        rid, kind, choice, _seed("step", 0), _seed("bonus", 0), _seed("funded", 0),
        f"funded-{secrets.token_hex(4)}", now_us()))


def _balance(ctx, auth: sessions.Auth) -> int:
    with ctx.read() as conn:
        return sessions.balance_of(conn, auth.operator, auth.player_id)


def _rows(ctx, auth: sessions.Auth) -> list[tuple]:
    """The player's rounds and steps, as the writer left them (ids and clocks aside)."""
    with ctx.read() as conn:
        found = conn.execute(select(rounds).where(rounds.c.player_id == auth.player_id)
                             .order_by(rounds.c.request_id)).all()
        steps = conn.execute(select(round_steps.c.idx, round_steps.c.kind, round_steps.c.choice,
                                    round_steps.c.seed, round_steps.c.result)
                             .join(rounds, rounds.c.id == round_steps.c.round_id)
                             .where(rounds.c.player_id == auth.player_id)
                             .order_by(round_steps.c.idx)).all()
    return [(r.request_id, r.status, r.stake_minor, r.win_minor, r.seed) for r in found] + [
        tuple(s) for s in steps]


def _clean(ctx) -> None:
    with ctx.read() as conn:
        assert ledger_check.check(conn) == []
        assert audit.verify(conn) == []


def _counts(ctx) -> tuple[int, int, int, int]:
    with ctx.read() as conn:
        return tuple(conn.execute(select(func.count()).select_from(t)).scalar_one()
                     for t in (rounds, round_steps, ledger_entries, audit_log))


def test_a_mixed_batch_answers_and_writes_as_each_alone(ctx) -> None:
    """Bets of one player and a step (collect) of another in one batch: the same answers,
    rows and balances as the same items written one transaction each."""
    seed = _gamble_seed(_launch(ctx))
    sides = {}
    for side in ("batch", "alone"):
        stepper, bettor = _launch(ctx), _launch(ctx)
        held = _held_round(ctx, stepper, seed)
        items = [_bet(bettor, "candy-jar-clusters", 20, 1, "b0", _seed("bet", 0)),
                 _step(stepper, held.id, "collect"),
                 _bet(bettor, "cops-n-robbers", 10, 1, "b1", _seed("bet", 1))]
        results = (commit(ctx, items) if side == "batch"
                   else [commit(ctx, [item])[0] for item in items])
        sides[side] = SimpleNamespace(stepper=stepper, bettor=bettor, held=held,
                                      results=results)

    batch, alone = sides["batch"], sides["alone"]
    assert [type(r) for r in batch.results] == [Written, Stepped, Written]
    assert batch.results[1] == Stepped(batch.held.id)
    for mine, theirs in zip(batch.results[::2], alone.results[::2], strict=True):
        assert (mine.row.status, mine.row.win_minor, mine.balance, mine.outcome) == (
            theirs.row.status, theirs.row.win_minor, theirs.balance, theirs.outcome)
    for who in ("stepper", "bettor"):
        assert _rows(ctx, getattr(batch, who)) == _rows(ctx, getattr(alone, who)), who
        assert _balance(ctx, getattr(batch, who)) == _balance(ctx, getattr(alone, who)), who
    # the step collected the held win: the round is closed, paid what its outcome won
    with ctx.read() as conn:
        row = conn.execute(select(rounds).where(rounds.c.id == batch.held.id)).one()
    win = loads(row.outcome)["total_win"] * row.denomination
    assert row.status == "closed" and row.win_minor == win
    assert _balance(ctx, batch.stepper) == 100_000 - row.stake_minor + win
    _clean(ctx)


def test_a_step_is_its_players_only_item_in_a_batch(ctx) -> None:
    """A bet and a step of one player in one batch: the later is held back (AGAIN) and writes
    nothing; alone, it is then played as usual."""
    player = _launch(ctx)
    held = _held_round(ctx, player, _gamble_seed(player))
    bet = _bet(player, "candy-jar-clusters", 20, 1, "b0", _seed("bet", 0))
    step = _step(player, held.id, "collect")
    first = commit(ctx, [step, bet])
    assert first[0] == Stepped(held.id) and first[1] is AGAIN
    assert [r[0] for r in _rows(ctx, player) if isinstance(r[0], str)] == ["held"]
    assert isinstance(commit(ctx, [bet])[0], Written)
    _clean(ctx)


def test_a_refused_item_leaves_nothing_and_the_others_are_written(ctx) -> None:
    """A step refused by its decision (a choice the game does not offer) and a bet refused
    (funds short) write nothing of themselves; the batch's other bet is written whole."""
    stepper, bettor, poor = _launch(ctx), _launch(ctx), _launch(ctx, "poor")
    held = _held_round(ctx, stepper, _gamble_seed(stepper))
    before_held, before_poor = _rows(ctx, stepper), _balance(ctx, poor)
    stepper_balance = _balance(ctx, stepper)
    results = commit(ctx, [_step(stepper, held.id, "sideways"),
                           _bet(bettor, "candy-jar-clusters", 20, 1, "b0", _seed("bet", 0)),
                           _bet(poor, "cops-n-robbers", 10, 50, "p0", _seed("bet", 1))])
    assert isinstance(results[0], ApiError) and results[0].code == "STEP_NOT_ALLOWED"
    assert isinstance(results[1], Written)
    assert isinstance(results[2], ApiError) and results[2].code == "INSUFFICIENT_BALANCE"
    assert _rows(ctx, stepper) == before_held and _balance(ctx, stepper) == stepper_balance
    assert _rows(ctx, poor) == [] and _balance(ctx, poor) == before_poor
    assert _balance(ctx, bettor) == results[1].balance
    _clean(ctx)


def test_a_batch_that_fails_while_written_leaves_nothing(ctx, monkeypatch) -> None:
    """A failure after some of a mixed batch's rows are written (here the audit rows, the
    last statement) rolls the whole batch back: no round, step, entry or balance of any of
    its items moves."""
    stepper, bettor = _launch(ctx), _launch(ctx)
    held = _held_round(ctx, stepper, _gamble_seed(stepper))
    counts = _counts(ctx)
    balances = _balance(ctx, stepper), _balance(ctx, bettor)

    def broken(conn, entries):
        raise RuntimeError("the audit chain is unreachable")

    monkeypatch.setattr(bet_writer.audit, "append_many", broken)
    with pytest.raises(RuntimeError):
        commit(ctx, [_bet(bettor, "candy-jar-clusters", 20, 1, "b0", _seed("bet", 0)),
                     _step(stepper, held.id, "collect")])
    monkeypatch.undo()
    assert _counts(ctx) == counts
    assert (_balance(ctx, stepper), _balance(ctx, bettor)) == balances
    with ctx.read() as conn:
        assert conn.execute(select(rounds.c.status).where(
            rounds.c.id == held.id)).scalar_one() == "outcome_committed"
    _clean(ctx)
