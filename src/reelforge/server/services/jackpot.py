"""The progressive jackpot pool: one row per pool, shared by every player and server process.

The pool counts in 1/10,000 of a minor unit, so a contribution of `contribution_bp` basis
points of a stake is exact and nothing is ever rounded away (GLI-19 4.13.6). The ledger moves
whole minor units: the pool account always holds floor(units / POOL_SCALE), topped up from the
house as contributions cross a whole unit. A win claims the pool's whole minor units under the
pool row's lock, so of two simultaneous winners the first takes the pool and the second the
reseeded meter (the seed says so); the fraction below one minor unit stays in the pool.

A pool the back office disabled (GLI-19 4.15.2, standards.md G7) takes no contribution and pays
no claim: a round that would have won it is an ordinary round. Resumed, it carries on from the
same amount and parameters.

A pool may have a ceiling (GLI-19 4.13.2-4.13.3, standards.md G2): at it, the meter stays put
and the part of a contribution past it goes to the pool's overflow pool, in the same units,
split exactly (a contribution may straddle the ceiling). The overflow has its own ledger
account (kind jackpot_pool, owner "<key>#overflow") holding its whole minor units. After a
win, the reset takes its seed from the overflow's whole minor units first and only the rest
from the house. Every unit is accounted for (G3, ledger_check):
contributions = pool + overflow + paid - seeded from the house.

The claim is not credited to the balance: it moves to the jackpot liability account, pending
verification, payable as a first instalment and 19 annual ones (the seed's terms).
"""

from __future__ import annotations

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from reelforge.server.db.tables import POOL_SCALE, jackpot_claims, jackpot_pools
from reelforge.server.services import audit, ledger
from reelforge.server.services.common import dumps, loads

INSTALMENTS = 20  # the first upon validation, then 19 annual


def ensure_pool(engine, key: str, currency: str, seed_minor: int, contribution_bp: int,
                house_owner: str, now: int) -> None:
    """Create the pool, funded with its seed from the house, unless it exists (any process
    may try at start: the primary key makes exactly one succeed)."""
    try:
        with engine.begin() as conn:
            if conn.execute(select(jackpot_pools.c.key).where(jackpot_pools.c.key == key)
                            ).first() is not None:
                return
            conn.execute(insert(jackpot_pools).values(
                key=key, currency=currency, units=seed_minor * POOL_SCALE,
                credited_minor=seed_minor, seed_minor=seed_minor,
                contribution_bp=contribution_bp, contributions_units=0,
                seeded_minor=seed_minor, paid_minor=0, wins=0, enabled=True, created_at=now,
                updated_at=now))
            house = ledger.account_id(conn, "house", house_owner, currency)
            pool = ledger.account_id(conn, "jackpot_pool", key, currency)
            ledger.transfer(conn, txn=f"jackpot:{key}:seed:0", source=house, target=pool,
                            amount=seed_minor, kind="jackpot_seed", now=now)
            audit.append(conn, f"jackpot:{key}", "jackpot.created",
                         {"seed_minor": seed_minor, "contribution_bp": contribution_bp}, now)
    except IntegrityError:
        return  # another process created it first


def _locked(conn: Connection, key: str):
    return conn.execute(select(jackpot_pools).where(jackpot_pools.c.key == key)
                        .with_for_update()).one()


def overflow_owner(key: str) -> str:
    """The owner of a pool's overflow account (kind jackpot_pool)."""
    return f"{key}#overflow"


def split(units_now: int, contribution: int, ceiling_minor: int | None) -> tuple[int, int]:
    """A contribution (pool units) as (to the pool, to the overflow): the pool takes what
    keeps it at or below its ceiling, the overflow the rest; the two sum to the contribution."""
    if ceiling_minor is None:
        return contribution, 0
    room = max(0, ceiling_minor * POOL_SCALE - units_now)
    to_pool = min(contribution, room)
    return to_pool, contribution - to_pool


def contribute(conn: Connection, key: str, stake_minor: int, house: int, round_id: str,
               now: int) -> int:
    """Add a stake's contribution; returns it in pool units (none to a disabled pool)."""
    pool = _locked(conn, key)
    if not pool.enabled:
        return 0
    units = stake_minor * pool.contribution_bp  # bp of minor units = 1/10,000 minor units
    to_pool, to_overflow = split(pool.units, units, pool.ceiling_minor)
    total = pool.units + to_pool
    whole = total // POOL_SCALE - pool.credited_minor
    if whole:
        account = ledger.account_id(conn, "jackpot_pool", key, pool.currency)
        ledger.transfer(conn, txn=f"{round_id}:contribution", source=house, target=account,
                        amount=whole, kind="jackpot_contribution", now=now, round_id=round_id)
    overflow = pool.overflow_units + to_overflow
    overflow_whole = overflow // POOL_SCALE - pool.overflow_credited_minor
    if overflow_whole:
        account = ledger.account_id(conn, "jackpot_pool", overflow_owner(key), pool.currency)
        ledger.transfer(conn, txn=f"{round_id}:overflow", source=house, target=account,
                        amount=overflow_whole, kind="jackpot_overflow", now=now,
                        round_id=round_id)
    conn.execute(update(jackpot_pools).where(jackpot_pools.c.key == key).values(
        units=total, credited_minor=pool.credited_minor + whole,
        overflow_units=overflow,
        overflow_credited_minor=pool.overflow_credited_minor + overflow_whole,
        contributions_units=pool.contributions_units + units, updated_at=now))
    return units


def claim(conn: Connection, key: str, round_id: str, player_id: int, house: int,
          now: int) -> dict | None:
    """Award the pool to the round's winner and reseed it; returns the claim (None: the pool
    is disabled and cannot be won)."""
    pool = _locked(conn, key)
    if not pool.enabled:
        return None
    amount = pool.units // POOL_SCALE
    account = ledger.account_id(conn, "jackpot_pool", key, pool.currency)
    liability = ledger.account_id(conn, "jackpot_liability", key, pool.currency)
    ledger.transfer(conn, txn=f"{round_id}:jackpot_claim", source=account, target=liability,
                    amount=amount, kind="jackpot_claim", now=now, round_id=round_id)
    # The reset: from the overflow's whole minor units first, the rest from the house.
    from_overflow = min(pool.seed_minor, pool.overflow_credited_minor)
    from_house = pool.seed_minor - from_overflow
    if from_overflow:
        overflow = ledger.account_id(conn, "jackpot_pool", overflow_owner(key), pool.currency)
        ledger.transfer(conn, txn=f"{round_id}:jackpot_reseed", source=overflow,
                        target=account, amount=from_overflow, kind="jackpot_reseed", now=now,
                        round_id=round_id)
    ledger.transfer(conn, txn=f"{round_id}:jackpot_seed", source=house, target=account,
                    amount=from_house, kind="jackpot_seed", now=now, round_id=round_id)
    units = pool.units - amount * POOL_SCALE + pool.seed_minor * POOL_SCALE
    conn.execute(update(jackpot_pools).where(jackpot_pools.c.key == key).values(
        units=units, credited_minor=units // POOL_SCALE,
        overflow_units=pool.overflow_units - from_overflow * POOL_SCALE,
        overflow_credited_minor=pool.overflow_credited_minor - from_overflow,
        overflow_seeded_minor=pool.overflow_seeded_minor + from_overflow,
        seeded_minor=pool.seeded_minor + from_house, paid_minor=pool.paid_minor + amount,
        wins=pool.wins + 1, updated_at=now))
    plan = instalments(amount)
    claim_id = conn.execute(insert(jackpot_claims).values(
        pool_key=key, round_id=round_id, player_id=player_id, amount_minor=amount,
        instalments=dumps(plan), status="pending_verification", created_at=now)
        .returning(jackpot_claims.c.id)).scalar_one()
    found = {"id": claim_id, "pool": key, "amount_minor": amount, "currency": pool.currency,
             "status": "pending_verification", "instalments": plan}
    audit.append(conn, f"jackpot:{key}", "jackpot.claimed",
                 {"round_id": round_id, "player_id": player_id, "amount_minor": amount,
                  "reseed_minor": pool.seed_minor, "reseed_from_overflow_minor": from_overflow},
                 now)
    return found


def instalments(amount: int) -> list[dict]:
    """Equal instalments in minor units; the remainder of the division goes to the first."""
    each, rest = divmod(amount, INSTALMENTS)
    return [{"due": "on verification" if i == 0 else f"year {i}",
             "amount_minor": each + (rest if i == 0 else 0)} for i in range(INSTALMENTS)]


def meters(conn: Connection) -> list[dict]:
    rows = conn.execute(select(jackpot_pools).order_by(jackpot_pools.c.key)).all()
    return [{"pool": r.key, "currency": r.currency, "amount_minor": r.units // POOL_SCALE,
             "seed_minor": r.seed_minor, "contribution_bp": r.contribution_bp,
             "wins": r.wins, "enabled": r.enabled, "updated_at_us": r.updated_at,
             "ceiling_minor": r.ceiling_minor, "overflow_minor": r.overflow_units // POOL_SCALE}
            for r in rows]


def claim_of(conn: Connection, round_id: str) -> dict | None:
    row = conn.execute(select(jackpot_claims).where(jackpot_claims.c.round_id == round_id)).first()
    if row is None:
        return None
    return {"id": row.id, "pool": row.pool_key, "amount_minor": row.amount_minor,
            "status": row.status, "instalments": loads(row.instalments)}
