"""Jackpot control, supervised corrections and retention, end to end against a real `reelforge
serve` on SQLite and PostgreSQL: a pool's ceiling and its overflow pool (G2, G8), a claim's
verification and instalments (G9), two-person corrections of a balance (H5), and `reelforge
retention` (J9).

Expected amounts come from the game files and the players' own round histories (the players'
API), never from the back office's code; the database is read to check the ledger and the log,
and written only to stand in for time passing (a year for an instalment, months for retention).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select, update

from reelforge.errors import InvalidArgument
from reelforge.server.db.tables import (
    accounts,
    audit_log,
    jackpot_instalments,
    jackpot_pools,
    ledger_entries,
    rounds,
)
from reelforge.server.policies import REQUIRED_DAYS, parse_policies
from reelforge.server.services.jackpot import split

from .harness import Player, Server, assert_books_hold, write_config
from .test_backoffice import PASSWORD, Staff, ok, refused, staff_add

DATA = Path(__file__).resolve().parent / "data"
OPERATOR = "ctl"
# The always-winning test build of Cluedo (test_concurrency's too): every max-bet round wins the
# pool, so each round contributes, then claims and resets it.
ALWAYS_FILE = DATA / "jackpot-always.toml"
ALWAYS = tomllib.loads(ALWAYS_FILE.read_text())
POOL = f"{ALWAYS['game']['name']}/EUR"  # the pool key is "<game name>/<currency>"
SEED = int(ALWAYS["features"]["progressive_jackpot"]["seed_amount"])
BP = int(ALWAYS["features"]["progressive_jackpot"]["contribution_bp"])
CEILING = SEED + 1  # one minor unit of room: the first contribution straddles it
SCALE = 10_000  # pool units per minor unit (the pool counts contributions in bp of a stake)
DAY_US = 86_400 * 1_000_000
RETENTION = {"default": 150, "GB": 400}  # days, above the floors (123)


@pytest.fixture(scope="module")
def setup(database_url: str, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[tuple[Server, Path]]:
    workdir = tmp_path_factory.mktemp("control")
    key = workdir / "launch.key"  # write_config's
    extra = (f'[[operators]]\nid = "{OPERATOR}"\ncurrency = "EUR"\njurisdiction = "default"\n'
             f'secret_file = "{key}"\ndemo_balance_minor = 100000\nsession_rate_per_s = 0\n'
             f'[[operators.games]]\nkey = "always"\ngame_file = "{ALWAYS_FILE}"\n'
             f'[[jackpots]]\npool = "{POOL}"\nceiling_minor = {CEILING}\n'
             "[retention]\n" + "".join(f"{k} = {v}\n" for k, v in RETENTION.items()))
    config = write_config(workdir, extra)
    served = Server(database_url, workdir, config)
    try:
        served.start()
        served.warm()
        for name, role in (("mia", "manager"), ("max", "manager"), ("val", "viewer"),
                           ("ada", "auditor")):
            done = staff_add(database_url, name, role, PASSWORD)
            assert done.returncode == 0, done.stderr
        yield served, config
    finally:
        served.stop()


@pytest.fixture(scope="module")
def server(setup: tuple[Server, Path]) -> Server:
    return setup[0]


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from reelforge.cli import main; main()", *args],
                          check=False, capture_output=True, text=True, timeout=300)


def signed_in(base: str, name: str) -> Staff:
    staff = Staff(base, name)
    assert staff.signed.status_code == 200, staff.signed.text
    return staff


def _engine(url: str):  # type: ignore[no-untyped-def]
    return create_engine(url)


def audit_rows(url: str, kind: str) -> list[dict]:
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(audit_log.c.chain, audit_log.c.payload)
                                .where(audit_log.c.kind == kind).order_by(audit_log.c.id)).all()
    finally:
        engine.dispose()
    return [{"chain": r.chain, **json.loads(r.payload)} for r in rows]


def _max_bet(player: Player, game: str) -> dict:
    bets = ok(player.http.get(f"/api/v1/games/{game}"))["bets"]
    return max((b for b in bets if b["jackpot_eligible"]), key=lambda b: b["cost_minor"]["base"])


# Every jackpot claim this module's players saw in their own rounds, per server (one per
# database): (day, amount), what the back office's daily meters must count as the pools'
# payments (H2).
CLAIMED: dict[str, list[tuple[str, int]]] = defaultdict(list)


def _play_max(player: Player, game: str, n: int) -> list[dict]:
    bet = _max_bet(player, game)
    views = []
    for _ in range(n):
        views.append(player.finish(ok(player.bet(game, bet["lines"], bet["bet_per_line"]))))
        claim = views[-1]["jackpot_claim"]
        if claim is not None:
            day = datetime.fromtimestamp(views[-1]["created_at_us"] / 1e6, UTC).date()
            CLAIMED[player.base].append((day.isoformat(), claim["amount_minor"]))
    return views


def _history_jackpot(player: Player, round_id: str) -> tuple[int | None, str | None]:
    """The jackpot the player's own history names beside the round."""
    item = next(r for r in player.history() if r["round_id"] == round_id)
    return item["jackpot_minor"], item["jackpot_status"]


def _pool_state(url: str) -> dict[str, Any]:
    """The pool row and, from the ledger, its two accounts' balances and the house's seeds."""
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            pool = conn.execute(select(jackpot_pools).where(jackpot_pools.c.key == POOL)).one()
            balances = {owner: int(balance) for owner, balance in conn.execute(
                select(accounts.c.owner, accounts.c.balance).where(
                    accounts.c.kind == "jackpot_pool",
                    accounts.c.owner.in_((POOL, f"{POOL}#overflow"))))}
            house = select(accounts.c.id).where(accounts.c.kind == "house")
            target = select(accounts.c.id).where(accounts.c.owner == POOL,
                                                 accounts.c.kind == "jackpot_pool")
            seeds = conn.scalar(select(func.coalesce(func.sum(ledger_entries.c.amount), 0))
                                .where(ledger_entries.c.kind == "jackpot_seed",
                                       ledger_entries.c.account_id.in_(target),
                                       ledger_entries.c.txn.in_(
                                           select(ledger_entries.c.txn).where(
                                               ledger_entries.c.account_id.in_(house)))))
            reseeds = conn.execute(select(ledger_entries.c.txn, ledger_entries.c.amount)
                                   .where(ledger_entries.c.kind == "jackpot_reseed",
                                          ledger_entries.c.account_id.in_(target))).all()
    finally:
        engine.dispose()
    return {"pool": pool, "balances": balances, "house_seeds": int(seeds),
            "reseeds": [tuple(r) for r in reseeds]}


# -- G2, G8: the ceiling and the overflow pool --------------------------------------------------


def test_contributions_past_the_ceiling_go_to_the_overflow_which_seeds_the_reset(
        server: Server, database_url: str):
    mia = signed_in(server.base, "mia")
    listed = {p["pool"]: p for p in ok(mia.get("/jackpots"))["jackpots"]}
    assert (listed[POOL]["ceiling_minor"], listed[POOL]["amount_minor"],
            listed[POOL]["overflow_minor"]) == (CEILING, SEED, 0)
    player = Player(server.base, OPERATOR)
    # The rules, played by hand in pool units: a contribution fills the pool up to its ceiling,
    # the rest goes to the overflow; a win pays the pool's whole minor units, and the reset
    # takes the seed from the overflow's whole minor units first, the rest from the house.
    pool, overflow, contributions, paid, house_seeds = SEED * SCALE, 0, 0, 0, SEED
    for n in range(2):
        won = _play_max(player, "always", 1)[0]
        c = won["stake_minor"] * BP
        contributions += c
        to_pool = min(c, CEILING * SCALE - pool)
        pool, overflow = pool + to_pool, overflow + c - to_pool
        assert 0 < to_pool < c or n > 0  # the first contribution straddles the ceiling
        amount = pool // SCALE
        assert won["jackpot_claim"]["amount_minor"] == amount == CEILING, won
        from_overflow = min(SEED, overflow // SCALE)
        pool += (SEED - amount) * SCALE
        overflow -= from_overflow * SCALE
        paid += amount
        house_seeds += SEED - from_overflow
        state = _pool_state(database_url)
        row = state["pool"]
        assert (row.units, row.overflow_units, row.contributions_units, row.paid_minor) == (
            pool, overflow, contributions, paid), n
        assert (state["balances"][POOL], state["balances"].get(f"{POOL}#overflow", 0)) == (
            pool // SCALE, overflow // SCALE)
        assert state["house_seeds"] == house_seeds  # from the house's own ledger entries
        # the sum of the pools and what was paid equals the contributions and the seeds
        assert row.units + row.overflow_units + paid * SCALE == \
            contributions + house_seeds * SCALE
        reseeds = [(f"{won['round_id']}:jackpot_reseed", from_overflow)] if from_overflow else []
        assert [r for r in state["reseeds"] if r[0].startswith(won["round_id"])] == reseeds
    assert house_seeds < 3 * SEED, "the second reset took part of its seed from the overflow"
    meter = next(p for p in ok(player.http.get("/api/v1/jackpots"))["jackpots"]
                 if p["pool"] == POOL)  # the players' meter shows the ceiling and overflow
    assert (meter["amount_minor"], meter["ceiling_minor"], meter["overflow_minor"]) == (
        pool // SCALE, CEILING, overflow // SCALE)
    shown = next(p for p in ok(mia.get("/jackpots"))["jackpots"] if p["pool"] == POOL)
    assert (shown["amount_minor"], shown["overflow_minor"]) == (pool // SCALE, overflow // SCALE)
    changed = [r for r in audit_rows(database_url, "jackpot.ceiling_changed")
               if r["chain"] == f"jackpot:{POOL}"]
    assert [(r["before"], r["after"]) for r in changed] == [
        ({"ceiling_minor": None}, {"ceiling_minor": CEILING})]


def test_a_contribution_splits_exactly_at_the_ceiling():
    for units_now, contribution, ceiling in ((995_000, 15_000, 100), (1_000_000, 15_000, 100),
                                              (10, 7, None), (0, 3, 0), (2_000_000, 5, 100)):
        to_pool, to_overflow = split(units_now, contribution, ceiling)
        assert to_pool + to_overflow == contribution and min(to_pool, to_overflow) >= 0
        if ceiling is not None:
            assert units_now + to_pool <= max(units_now, ceiling * SCALE)
            assert to_overflow == 0 or units_now + to_pool >= ceiling * SCALE
    assert split(995_000, 15_000, 100) == (5_000, 10_000)


def test_the_policies_refuse_a_bad_ceiling_or_a_retention_below_the_jurisdictions():
    with pytest.raises(InvalidArgument, match=r"ceiling_minor = -5"):
        parse_policies("ops.toml", {"jackpots": [{"pool": POOL, "ceiling_minor": -5}]})
    with pytest.raises(InvalidArgument, match=r"retention.GB = 30: expected whole days from 123"):
        parse_policies("ops.toml", {"retention": {"GB": 30}})
    with pytest.raises(InvalidArgument, match=r"retention.XX: not a jurisdiction"):
        parse_policies("ops.toml", {"retention": {"XX": 400}})
    found = parse_policies("ops.toml", {"retention": {"GB": 400}})
    assert found.days("GB") == 400 and found.days("default") == REQUIRED_DAYS["default"]


# -- G9: a claim's verification and instalments -------------------------------------------------


def test_a_manager_verifies_a_claim_and_pays_its_instalments_in_order_once_due(
        server: Server, database_url: str):
    player = Player(server.base, OPERATOR)
    won = _play_max(player, "always", 1)[0]
    claim_id = won["jackpot_claim"]["id"]
    amount = won["jackpot_claim"]["amount_minor"]
    each, rest = divmod(amount, 20)  # the rules: 20 instalments, the remainder in the first
    mia, val, ada = (signed_in(server.base, n) for n in ("mia", "val", "ada"))
    for someone in (val, ada):
        refused(someone.post(f"/jackpots/claims/{claim_id}/verify"), 403, "FORBIDDEN")
        refused(someone.post(f"/jackpots/claims/{claim_id}/instalments/0/pay"), 403, "FORBIDDEN")
    message = refused(mia.post(f"/jackpots/claims/{claim_id}/instalments/0/pay"), 409, "NOT_NOW")
    assert "verifies it before" in message
    listed = next(c for c in ok(ada.get("/jackpots/claims"))["claims"] if c["id"] == claim_id)
    assert (listed["status"], listed["round_id"], listed["verified_by"]) == (
        "pending_verification", won["round_id"], None)
    assert _history_jackpot(player, won["round_id"]) == (amount, "pending_verification")

    verified = ok(mia.post(f"/jackpots/claims/{claim_id}/verify"))
    assert (verified["status"], verified["verified_by"]) == ("verified", "mia")
    assert _history_jackpot(player, won["round_id"]) == (amount, "verified")
    # a round that won no jackpot says none
    lost = player.finish(ok(player.bet("always", 1, 1)))
    assert lost["jackpot_claim"] is None
    assert _history_jackpot(player, lost["round_id"]) == (None, None)
    plan = verified["instalments"]
    assert [p["amount_minor"] for p in plan] == [each + rest] + [each] * 19
    assert sum(p["amount_minor"] for p in plan) == amount
    assert plan[0]["due_at_us"] == verified["verified_at_us"]
    assert all(later["due_at_us"] - earlier["due_at_us"] >= 365 * DAY_US
               for earlier, later in pairwise(plan))
    refused(mia.post(f"/jackpots/claims/{claim_id}/verify"), 409, "NOT_NOW")

    assert "in order" in refused(mia.post(f"/jackpots/claims/{claim_id}/instalments/1/pay"),
                                 409, "NOT_NOW")
    before = player.balance()
    paid = ok(mia.post(f"/jackpots/claims/{claim_id}/instalments/0/pay"))
    assert player.balance() == before + each + rest
    assert (paid["instalments"][0]["paid_by"], paid["status"]) == ("mia", "verified")
    refused(mia.post(f"/jackpots/claims/{claim_id}/instalments/0/pay"), 409, "NOT_NOW")
    assert "due on" in refused(mia.post(f"/jackpots/claims/{claim_id}/instalments/1/pay"),
                               409, "NOT_NOW")
    engine = _engine(database_url)
    try:
        with engine.begin() as conn:  # a year passes for the second instalment
            conn.execute(update(jackpot_instalments).where(
                jackpot_instalments.c.claim_id == claim_id, jackpot_instalments.c.idx == 1)
                .values(due_at=jackpot_instalments.c.due_at - 366 * DAY_US))
    finally:
        engine.dispose()
    max_ = signed_in(server.base, "max")  # a second manager pays the next one
    ok(max_.post(f"/jackpots/claims/{claim_id}/instalments/1/pay"))
    assert player.balance() == before + each + rest + each
    verified_rows = [r for r in audit_rows(database_url, "jackpot.claim_verified")
                     if r["claim_id"] == claim_id]
    assert [(r["chain"], r["before"]["status"], r["after"]["status"], r["by"])
            for r in verified_rows] == [(f"jackpot:{POOL}", "pending_verification", "verified",
                                         "mia")]
    paid_rows = [r for r in audit_rows(database_url, "jackpot.instalment_paid")
                 if r["claim_id"] == claim_id]
    assert [(r["idx"], r["by"], r["before"]["player_balance_minor"],
             r["after"]["player_balance_minor"]) for r in paid_rows] == [
        (0, "mia", before, before + each + rest),
        (1, "max", before + each + rest, before + each + rest + each)]


def test_a_verified_claim_is_reported_with_who_confirmed_it(server: Server):
    """G9: jackpot id, player, game, game-cycle (round) id, trigger time, amount, and who
    confirmed it, by name."""
    player = Player(server.base, OPERATOR)
    won = _play_max(player, "always", 1)[0]
    claim_id = won["jackpot_claim"]["id"]
    mia = signed_in(server.base, "mia")
    ok(mia.post(f"/jackpots/claims/{claim_id}/verify"))
    day = datetime.fromtimestamp(won["created_at_us"] / 1e6, UTC).date().isoformat()
    listed = ok(signed_in(server.base, "ada").get("/large-wins", **{"from": day, "to": day}))
    (claim,) = [c for c in listed["jackpot_claims"] if c["claim_id"] == claim_id]
    assert (claim["pool"], claim["player"], claim["game"], claim["round_id"],
            claim["amount_minor"], claim["confirmed_by"]) == (
        POOL, str(player.session()["player"]), "always", won["round_id"],
        won["jackpot_claim"]["amount_minor"], "mia")
    assert claim["at_us"] >= won["created_at_us"] and claim["confirmed_at_us"] >= claim["at_us"]


def test_the_pool_is_reported_with_every_persisted_field(server: Server):
    """G8: id, start date, participating games, current value, overflow (diversion), reset
    and start-up values, increment, ceiling, secondary and hidden increments, odds, time
    limit, status, decommission date."""
    (pool,) = [p for p in ok(signed_in(server.base, "val").get("/jackpots"))["jackpots"]
               if p["pool"] == POOL]
    assert (pool["reset_minor"], pool["startup_minor"], pool["increment_bp"],
            pool["ceiling_minor"]) == (SEED, SEED, BP, CEILING)
    assert pool["diverted_minor"] == pool["overflow_minor"] >= 0
    assert pool["amount_minor"] >= SEED and pool["started_at_us"] > 0
    assert (pool["secondary_increment_bp"], pool["hidden_increment_bp"], pool["time_limit"]) \
        == (0, 0, None)
    assert (pool["status"], pool["decommissioned_at_us"]) == ("enabled", None)
    # the test build shows five MegaJackpots on line 1 on every spin: every max-bet round wins
    (game,) = pool["games"]
    assert (game["operator"], game["game"], game["game_id"]) == (
        OPERATOR, "always", ALWAYS["game"]["id"])
    assert (game["win_probability"], game["one_in_rounds"]) == (1.0, 1)


def test_the_days_meters_count_the_jackpots_paid(server: Server):
    """H2: the pools' payments per game and day equal the claims the players saw."""
    claimed = CLAIMED[server.base]
    assert claimed, "the tests above won no jackpot"
    viewer = signed_in(server.base, "val")
    for day in sorted({d for d, _ in claimed}):
        rows = [r for r in ok(viewer.get("/meters", **{"from": day, "to": day}))["meters"]
                if (r["operator"], r["game"]) == (OPERATOR, "always")]
        assert sum(r["jackpot_paid_minor"] for r in rows) == sum(a for d, a in claimed
                                                                 if d == day)
        assert sum(r["jackpot_wins"] for r in rows) == sum(1 for d, _ in claimed if d == day)
        assert all(r["voided_rounds"] == 0 for r in rows)


# -- H5: supervised corrections -----------------------------------------------------------------


def test_a_correction_needs_a_second_manager_and_is_logged(server: Server, database_url: str):
    player = Player(server.base, OPERATOR)
    external = str(player.session()["player"])
    start = player.balance()
    mia, max_, val, ada = (signed_in(server.base, n) for n in ("mia", "max", "val", "ada"))
    proposal = {"operator": OPERATOR, "player": external, "amount_minor": 250,
                "reason": "refund of a round voided by the operator's support"}
    for someone in (val, ada):
        refused(someone.post("/corrections", proposal), 403, "FORBIDDEN")
    proposed = ok(mia.post("/corrections", proposal))
    cid = proposed["id"]
    assert (proposed["status"], proposed["proposed_by"]) == ("proposed", "mia")
    assert player.balance() == start  # nothing moves on a proposal
    for someone in (val, ada):
        refused(someone.post(f"/corrections/{cid}/approve", {}), 403, "FORBIDDEN")
    message = refused(mia.post(f"/corrections/{cid}/approve", {}), 403, "FORBIDDEN")
    assert "another manager" in message
    refused(mia.post(f"/corrections/{cid}/reject", {}), 403, "FORBIDDEN")
    assert player.balance() == start
    applied = ok(max_.post(f"/corrections/{cid}/approve", {"note": "checked the ticket"}))
    assert (applied["status"], applied["decided_by"], applied["balance_before_minor"],
            applied["balance_after_minor"]) == ("applied", "max", start, start + 250)
    assert player.balance() == start + 250
    refused(max_.post(f"/corrections/{cid}/approve", {}), 409, "NOT_NOW")

    too_much = ok(max_.post("/corrections", {**proposal, "amount_minor": -(start + 251),
                                             "reason": "reverse a duplicated deposit"}))
    assert "below zero" in refused(mia.post(f"/corrections/{too_much['id']}/approve", {}),
                                   409, "NOT_NOW")
    rejected = ok(mia.post(f"/corrections/{too_much['id']}/reject", {"note": "too much"}))
    assert (rejected["status"], rejected["decided_by"]) == ("rejected", "mia")
    assert player.balance() == start + 250
    refused(mia.post("/corrections", {**proposal, "player": "nobody"}), 404, "UNKNOWN_PLAYER")
    refused(mia.post("/corrections", {**proposal, "reason": "x"}), 422, "INVALID_REQUEST")
    listed = {c["id"]: c for c in ok(ada.get("/corrections"))["corrections"]}
    assert (listed[cid]["status"], listed[too_much["id"]]["status"]) == ("applied", "rejected")

    def mine(kind: str) -> list[dict]:
        return [r for r in audit_rows(database_url, kind)
                if r["correction_id"] in (cid, too_much["id"])]

    assert [(r["chain"], r["correction_id"], r["by"]) for r in mine("correction.proposed")] == [
        (f"operator:{OPERATOR}", cid, "mia"), (f"operator:{OPERATOR}", too_much["id"], "max")]
    [done] = mine("correction.applied")
    assert (done["before"], done["after"], done["proposed_by"], done["by"], done["element"]) == (
        {"status": "proposed", "balance_minor": start},
        {"status": "applied", "balance_minor": start + 250}, "mia", "max",
        f"balance of player {external!r}")
    [no] = mine("correction.rejected")
    assert (no["before"], no["after"], no["by"]) == (
        {"status": "proposed"}, {"status": "rejected"}, "mia")


# -- J9: retention ------------------------------------------------------------------------------


def _round_ids(url: str) -> set[str]:
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            return set(conn.execute(select(rounds.c.id)).scalars())
    finally:
        engine.dispose()


def _entries(url: str) -> int:
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.scalar(select(func.count()).select_from(ledger_entries)) or 0)
    finally:
        engine.dispose()


def _age(url: str, days: int) -> None:
    """Everything in the ledger and the rounds happened `days` earlier (time passing)."""
    engine = _engine(url)
    try:
        with engine.begin() as conn:
            shift = days * DAY_US
            conn.execute(update(ledger_entries).values(
                created_at=ledger_entries.c.created_at - shift))
            conn.execute(update(rounds).values(created_at=rounds.c.created_at - shift,
                                               updated_at=rounds.c.updated_at - shift,
                                               closed_at=rounds.c.closed_at - shift))
    finally:
        engine.dispose()


def test_retention_removes_only_what_every_jurisdiction_lets_go(
        setup: tuple[Server, Path], database_url: str):
    server, config = setup
    old_default = _round_ids(database_url)  # every round so far: default-jurisdiction players
    assert old_default
    _age(database_url, 300)
    gb = Player(server.base, "gb")
    gb_round = gb.finish(ok(gb.bet("cluedo", 20, 1)))["round_id"]
    _age(database_url, 200)  # the first rounds are 500 days old, the GB round 200
    young = Player(server.base, OPERATOR)
    young_rounds = {v["round_id"] for v in _play_max(young, "always", 2)}
    every, entries = _round_ids(database_url), _entries(database_url)
    gb_balance, young_balance = gb.balance(), young.balance()

    dry = _cli("retention", "--config", str(config), "--database-url", database_url)
    assert dry.returncode == 0, dry.stderr
    assert "dry run" in dry.stdout and f"{len(old_default)} rounds" in dry.stdout, dry.stdout
    assert (_round_ids(database_url), _entries(database_url)) == (every, entries)

    done = _cli("retention", "--apply", "--config", str(config), "--database-url", database_url)
    assert done.returncode == 0, done.stderr
    left = _round_ids(database_url)
    # default keeps 150 days: its 500-day-old rounds went. GB keeps 400: its 200-day-old round
    # stayed (default's 150 would have let it go), and its player's deposit before it, where
    # the run stopped; the young rounds stayed.
    assert left == every - old_default, done.stdout
    assert gb_round in left and young_rounds <= left
    assert "stopped_at: entry" in done.stdout and "'deposit:" in done.stdout, done.stdout
    [row] = audit_rows(database_url, "retention.applied")
    assert row["chain"] == "retention" and row["rounds"] == len(old_default)
    assert (gb.balance(), young.balance()) == (gb_balance, young_balance)
    assert len(gb.history()) == 1
    again = _cli("retention", "--config", str(config), "--database-url", database_url)
    assert again.returncode == 0 and ", 0 rounds" in again.stdout, again.stdout


def test_ledger_and_audit_invariants_hold(server: Server, database_url: str) -> None:
    """Last: the ceiling, the claims, the corrections and the retention run kept the books and
    the audit chains whole (`reelforge ledger check`, `audit verify`)."""
    assert_books_hold(server, database_url)
