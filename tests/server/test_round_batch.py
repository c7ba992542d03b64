"""Group commit (services/round_batch.py) against the single round's path it replaces: the same
bets, with the same seeds, give the same answers, refusals, balances and rows whether they are
written one transaction each (`rounds.play` with batching off) or all in one batch.

In-process on purpose: only here can one batch be made to hold every hard case at once (a
player running out of funds in mid-batch, a request id twice, a round left open by a gamble
followed by another bet of that game, a refusal between two accepted bets). The HTTP tests
(test_api, test_recovery, test_concurrency) play through the batch on a real server.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from pathlib import Path

import pytest
from sqlalchemy import select

from reelforge.engine.rng import live_generator
from reelforge.server.db.migrate import upgrade
from reelforge.server.db.tables import rounds as rounds_table
from reelforge.server.errors import ApiError
from reelforge.server.main import build_context, startup
from reelforge.server.services import audit, ledger_check, placement, rounds, sessions, tokens
from reelforge.server.services.bet_writer import AGAIN, Written, commit
from reelforge.server.services.catalog import served_game
from reelforge.server.services.common import now_us
from reelforge.server.services.placement import Placement
from reelforge.server.services.round_views import view_of

from .harness import write_config

# (player, game, lines, bet_per_line, request id): "poor" players start with 250 minor units.
# No bet at Cluedo's BET MAX: a round that touches the jackpot pool is never batched.
BETS = [
    ("rich", "cluedo", 20, 4, "r1"), ("poor", "cops-n-robbers", 10, 10, "p1"),
    ("poor", "cops-n-robbers", 10, 10, "p2"), ("poor", "cops-n-robbers", 10, 10, "p3"),
    ("rich", "cluedo", 20, 4, "r1"), ("rich", "candy-jar-clusters", 20, 1, "r2"),
    ("poor", "candy-jar-clusters", 20, 12, "p4"), ("poor", "candy-jar-clusters", 20, 12, "p6"), ("rich", "cluedo", 20, 4, "r3"),
    ("rich", "cops-n-robbers", 10, 1, "r4"), ("poor", "cops-n-robbers", 10, 10, "p5"),
] + [(f"rich{i % 3}", "candy-jar-clusters", 20, 1, f"c{i}") for i in range(40)] + [
    ("rich1", "cluedo", 1, 1, "k1"), ("rich2", "cops-n-robbers", 10, 1, "k2")]
OPERATOR = {"rich": "demo", "rich0": "demo", "rich1": "demo", "rich2": "demo", "poor": "poor"}
# Fixed, so that every run holds the same cases (checked below); any seeds would do.
SEEDS = [int.from_bytes(hashlib.sha256(f"batch-{i}".encode()).digest(), "big")
         for i in range(len(BETS))]
# What differs between two databases for the same play: fresh ids and the server's clock.
VOLATILE = {"round_id", "created_at_us", "closed_at_us"}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _launch(ctx, name: str) -> sessions.Auth:
    op = ctx.operator(OPERATOR[name])
    claims = tokens.LaunchClaims(op.id, f"{name}-{secrets.token_hex(4)}", now_us() // 1_000_000 + 600, secrets.token_hex(8))
    token, _ = sessions.open_session(ctx, tokens.sign_launch(op.secret, claims))
    return sessions.authenticate(ctx, token)


def _answer(result) -> object:
    if isinstance(result, ApiError):  # a refusal may name a round: its id is fresh too
        return ("refused", result.code, UUID.sub("<round>", result.message))
    return {k: v for k, v in result.items() if k not in VOLATILE}


@pytest.fixture
def ctx(db_url: str, tmp_path: Path):
    upgrade(db_url)
    context = build_context(db_url, write_config(tmp_path), tmp_path)
    startup(context)
    yield context
    context.engine.dispose()


def test_one_batch_answers_as_the_single_rounds_do(ctx, monkeypatch) -> None:
    seeds = SEEDS
    players = {(side, name): _launch(ctx, name) for side in ("batch", "alone")
               for name in OPERATOR}

    placements = []
    for (name, key, lines, bpl, rid), seed in zip(BETS, seeds, strict=True):
        auth = players["batch", name]
        served = served_game(auth.operator, key)
        bet = served.check_bet(lines, bpl, "base", auth.max_stake_minor)
        outcome = served.game.play(bet, live_generator(seed), seed)
        placements.append(Placement(auth, served, rid, bet, served.game.price(bet)
                                    * served.denomination, seed, outcome, now_us()))
    batched = [view_of(p.auth, r.row, (), r.balance, None, r.outcome)
               if isinstance(r, Written) else r for p, r in zip(placements, commit(
                   ctx, placements), strict=True)]

    ctx.batch_rounds = False
    drawn = iter(seeds)
    monkeypatch.setattr(placement, "new_live_seed", lambda: next(drawn))  # draws every bet
    alone = []
    for name, key, lines, bpl, rid in BETS:
        try:
            alone.append(rounds.play(ctx, players["alone", name], key, rid, lines, bpl, "base"))
        except ApiError as exc:
            alone.append(exc)

    repeats = [i for i, (name, _, _, _, rid) in enumerate(BETS)
               if (name, rid) in {(n, r) for n, _, _, _, r in BETS[:i]}]
    assert repeats == [4]  # the test holds one repeated request id
    assert [i for i, r in enumerate(batched) if r is AGAIN] == repeats
    # the cases the batch must get right are all there: both refusals, and open rounds
    assert {r.code for r in alone if isinstance(r, ApiError)} == {"INSUFFICIENT_BALANCE",
                                                                 "ROUND_ALREADY_OPEN"}
    assert {r["status"] for r in alone if isinstance(r, dict)} >= {"closed",
                                                                   "outcome_committed"}
    assert sum(1 for r in alone if isinstance(r, dict) and r["win_minor"]) >= 5  # credited
    for i, (mine, theirs) in enumerate(zip(batched, alone, strict=True)):
        if i in repeats:
            continue
        assert _answer(mine) == _answer(theirs), BETS[i]

    with ctx.read() as conn:
        assert ledger_check.check(conn) == []
        assert audit.verify(conn) == []
        stored = {side: sorted((r.request_id, r.status, r.stake_minor, r.win_minor, r.seed)
                               for r in conn.execute(select(rounds_table).where(
                                   rounds_table.c.player_id.in_(
                                       [players[side, n].player_id for n in OPERATOR]))))
                  for side in ("batch", "alone")}
    assert stored["batch"] == stored["alone"]
    for name in OPERATOR:
        with ctx.read() as conn:
            balances = [sessions.balance_of(conn, players[side, name].operator,
                                            players[side, name].player_id)
                        for side in ("batch", "alone")]
        assert balances[0] == balances[1], name
