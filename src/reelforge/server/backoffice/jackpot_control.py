"""Jackpot control beyond the switch (control.py): each pool's ceiling from the configuration
(standards.md G2, G8), and a claim's verification and instalments by a manager (G9: who
confirmed it).

The ceiling is the configuration file's ([[jackpots]], policies.py), written to the pool row
at start and audited when it changes; services/jackpot.py sends what passes it to the overflow
pool. A claim (services/jackpot.claim_of_pool) waits in the jackpot liability account, pending
verification; a manager verifies it, which fixes its instalments' due dates (the first at once,
then one a year), and pays each in order once due: liability to the player's account, one
ledger txn. Every action is a row of the pool's audit chain with before and after.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from reelforge.errors import InvalidArgument
from reelforge.server.backoffice.staff import CONTROL, Staff
from reelforge.server.context import Context
from reelforge.server.db.tables import (
    jackpot_claims,
    jackpot_instalments,
    jackpot_pools,
    players,
)
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, ledger
from reelforge.server.services.common import loads, now_us


def apply_ceilings(ctx: Context) -> None:
    """Write the configuration's ceilings to the pools (none: no ceiling), each change
    audited. A ceiling for a pool that does not exist, or below its seed, is refused."""
    wanted = ctx.settings.policies.jackpot_ceilings
    now = now_us()
    with ctx.begin() as conn:
        pools = {p.key: p for p in conn.execute(select(jackpot_pools).with_for_update())}
        for key, ceiling in wanted.items():
            pool = pools.get(key)
            if pool is None:
                raise InvalidArgument(f"{ctx.settings.source}: jackpots pool = {key!r}: no such "
                                      f"pool ({', '.join(sorted(pools)) or 'none'})")
            if ceiling < pool.seed_minor:
                raise InvalidArgument(f"{ctx.settings.source}: jackpots pool {key!r} "
                                      f"ceiling_minor = {ceiling}: below the pool's seed "
                                      f"({pool.seed_minor}), to which every win resets it")
        for key, pool in pools.items():
            configured = wanted.get(key)
            if pool.ceiling_minor == configured:
                continue
            conn.execute(update(jackpot_pools).where(jackpot_pools.c.key == key)
                         .values(ceiling_minor=configured, updated_at=now))
            audit.append(conn, f"jackpot:{key}", "jackpot.ceiling_changed",
                         {"before": {"ceiling_minor": pool.ceiling_minor},
                          "after": {"ceiling_minor": configured},
                          "by": f"configuration {ctx.settings.source}"}, now)


def _year_later(at_us: int, years: int) -> int:
    """The same UTC instant `years` calendar years on (29 February: the 28th)."""
    at = datetime.fromtimestamp(at_us / 1e6, UTC)
    try:
        later = at.replace(year=at.year + years)
    except ValueError:
        later = at.replace(year=at.year + years, day=28)
    return int(later.timestamp()) * 1_000_000 + at.microsecond


def _instalments(conn: Connection, claim_id: int) -> list[dict[str, Any]]:
    rows = conn.execute(select(jackpot_instalments)
                        .where(jackpot_instalments.c.claim_id == claim_id)
                        .order_by(jackpot_instalments.c.idx)).all()
    return [{"idx": r.idx, "amount_minor": r.amount_minor, "due_at_us": r.due_at,
             "paid_at_us": r.paid_at, "paid_by": r.paid_by, "txn": r.txn} for r in rows]


def _view(conn: Connection, claim: Any) -> dict[str, Any]:
    plan = loads(claim.instalments)
    paid = _instalments(conn, claim.id)
    return {"id": claim.id, "pool": claim.pool_key, "round_id": claim.round_id,
            "player_id": claim.player_id, "amount_minor": claim.amount_minor,
            "status": claim.status, "created_at_us": claim.created_at,
            "verified_by": claim.verified_by, "verified_at_us": claim.verified_at,
            # before verification: the plan's terms; after: each with its due date and payment
            "instalments": paid or [{"idx": i, "amount_minor": p["amount_minor"], "due": p["due"],
                                     "due_at_us": None, "paid_at_us": None, "paid_by": None,
                                     "txn": None} for i, p in enumerate(plan)]}


def claims(ctx: Context) -> list[dict[str, Any]]:
    """Every jackpot claim, newest first, with its instalments."""
    with ctx.read() as conn:
        rows = conn.execute(select(jackpot_claims).order_by(jackpot_claims.c.id.desc())).all()
        return [_view(conn, row) for row in rows]


def _locked_claim(conn: Connection, claim_id: int) -> Any:
    claim = conn.execute(select(jackpot_claims).where(jackpot_claims.c.id == claim_id)
                         .with_for_update()).first()
    if claim is None:
        raise ApiError("UNKNOWN_CLAIM", f"jackpot claim {claim_id}: no such claim")
    return claim


def verify_claim(ctx: Context, who: Staff, claim_id: int) -> dict[str, Any]:
    """A manager confirms a pending claim: it becomes verified, its instalments fall due from
    now (the first at once, then one a year). Audited with before and after."""
    who.require(CONTROL)
    now = now_us()
    with ctx.begin() as conn:
        claim = _locked_claim(conn, claim_id)
        if claim.status != "pending_verification":
            raise ApiError("NOT_NOW", f"jackpot claim {claim_id} is {claim.status}: only a "
                           f"claim pending verification can be verified (by "
                           f"{claim.verified_by!r})")
        before = _view(conn, claim)
        plan = loads(claim.instalments)
        conn.execute(insert(jackpot_instalments), [
            dict(claim_id=claim_id, idx=i, amount_minor=p["amount_minor"],
                 due_at=_year_later(now, i)) for i, p in enumerate(plan)])
        conn.execute(update(jackpot_claims).where(jackpot_claims.c.id == claim_id)
                     .values(status="verified", verified_by=who.name, verified_at=now))
        after = _view(conn, _locked_claim(conn, claim_id))
        audit.append(conn, f"jackpot:{claim.pool_key}", "jackpot.claim_verified",
                     {"claim_id": claim_id, "round_id": claim.round_id,
                      "before": {"status": before["status"], "verified_by": None},
                      "after": {"status": "verified", "verified_by": who.name,
                                "first_due_at_us": now},
                      "by": who.name, "role": who.role}, now)
    return after


def pay_instalment(ctx: Context, who: Staff, claim_id: int, idx: int) -> dict[str, Any]:
    """A manager pays a verified claim's next instalment, once due: from the jackpot
    liability to the player's account, one ledger txn; the last one makes the claim paid."""
    who.require(CONTROL)
    now = now_us()
    with ctx.begin() as conn:
        claim = _locked_claim(conn, claim_id)
        if claim.status not in ("verified", "paid"):
            raise ApiError("NOT_NOW", f"jackpot claim {claim_id} is {claim.status}: a manager "
                           "verifies it before any instalment is paid")
        rows = _instalments(conn, claim_id)
        this = next((r for r in rows if r["idx"] == idx), None)
        if this is None:
            raise ApiError("UNKNOWN_CLAIM", f"jackpot claim {claim_id}: no instalment {idx} "
                           f"(0 to {len(rows) - 1})")
        if this["paid_at_us"] is not None:
            raise ApiError("NOT_NOW", f"jackpot claim {claim_id} instalment {idx}: already "
                           f"paid by {this['paid_by']!r} (txn {this['txn']})")
        first_unpaid = next(r for r in rows if r["paid_at_us"] is None)
        if first_unpaid["idx"] != idx:
            raise ApiError("NOT_NOW", f"jackpot claim {claim_id} instalment {idx}: instalment "
                           f"{first_unpaid['idx']} is unpaid: they are paid in order")
        if now < this["due_at_us"]:
            due = datetime.fromtimestamp(this["due_at_us"] / 1e6, UTC).strftime("%Y-%m-%d")
            raise ApiError("NOT_NOW", f"jackpot claim {claim_id} instalment {idx}: due on "
                           f"{due} (UTC), not before")
        operator_id = conn.execute(select(players.c.operator_id)
                                   .where(players.c.id == claim.player_id)).scalar_one()
        op = ctx.settings.operator(operator_id)
        if op is None or op.wallet != "ledger":
            raise ApiError("NOT_NOW", f"jackpot claim {claim_id}: the player's operator "
                           f"{operator_id!r} holds its players' money (a seamless wallet) or is "
                           "no longer configured: pay it through the operator")
        pool = conn.execute(select(jackpot_pools.c.currency)
                            .where(jackpot_pools.c.key == claim.pool_key)).scalar_one()
        liability = ledger.account_id(conn, "jackpot_liability", claim.pool_key, pool)
        account = ledger.account_id(conn, "player", str(claim.player_id), pool)
        before = ledger.lock_balance(conn, account)
        txn = f"jackpot_claim:{claim_id}:instalment:{idx}"
        _, after = ledger.transfer(conn, txn=txn, source=liability, target=account,
                                   amount=this["amount_minor"], kind="jackpot_instalment",
                                   now=now)
        conn.execute(update(jackpot_instalments)
                     .where(jackpot_instalments.c.claim_id == claim_id,
                            jackpot_instalments.c.idx == idx)
                     .values(paid_at=now, paid_by=who.name, txn=txn))
        last = idx == rows[-1]["idx"]
        if last:
            conn.execute(update(jackpot_claims).where(jackpot_claims.c.id == claim_id)
                         .values(status="paid"))
        audit.append(conn, f"jackpot:{claim.pool_key}", "jackpot.instalment_paid",
                     {"claim_id": claim_id, "round_id": claim.round_id, "idx": idx,
                      "amount_minor": this["amount_minor"], "txn": txn,
                      "before": {"paid": False, "player_balance_minor": before,
                                 "claim_status": claim.status},
                      "after": {"paid": True, "player_balance_minor": after,
                                "claim_status": "paid" if last else claim.status},
                      "by": who.name, "role": who.role}, now)
        return _view(conn, _locked_claim(conn, claim_id))
