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

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from reelforge.server.db.tables import POOL_SCALE, jackpot_claims, jackpot_pools
from reelforge.server.services import audit, ledger
from reelforge.server.services.common import dumps, loads
from reelforge.spec.model import JACKPOT_INSTALMENTS


def ensure_pool(engine, key: str, currency: str, seed_minor: int, contribution_bp: int,
                house_owner: str, now: int) -> None:
    """Create the pool, funded with its seed from the house, unless it exists (any process
    may try at start: the primary key makes exactly one succeed), and its liability and
    overflow accounts: created here, a round's writer never races another process to create
    them (a unique-key error, 500, the first time two processes' rounds touched the pool)."""
    _create_pool(engine, key, currency, seed_minor, contribution_bp, house_owner, now)
    for kind, owner in (("jackpot_liability", key), ("jackpot_pool", overflow_owner(key))):
        try:
            with engine.begin() as conn:
                ledger.account_id(conn, kind, owner, currency)
        except IntegrityError:
            pass  # another process created it first


def mark_decommissioned(engine, fed: set[str], now: int) -> None:
    """Pools no configured game feeds any more are decommissioned now, and a pool fed again is
    back in service (G8); each change an audit row of the pool's chain."""
    with engine.begin() as conn:
        for pool in conn.execute(select(jackpot_pools.c.key, jackpot_pools.c.decommissioned_at)
                                 .order_by(jackpot_pools.c.key).with_for_update()).all():
            gone = pool.key not in fed
            if gone == (pool.decommissioned_at is not None):
                continue
            conn.execute(update(jackpot_pools).where(jackpot_pools.c.key == pool.key)
                         .values(decommissioned_at=now if gone else None, updated_at=now))
            audit.append(conn, f"jackpot:{pool.key}",
                         "jackpot.decommissioned" if gone else "jackpot.recommissioned",
                         {"since_us": pool.decommissioned_at} if not gone else {}, now)


def _create_pool(engine, key: str, currency: str, seed_minor: int, contribution_bp: int,
                 house_owner: str, now: int) -> None:
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


@dataclass(frozen=True)
class PoolState:
    """A pool's row as read under its lock, with its ledger accounts: what a round's
    contribution and claim are decided on (`contribution`, `claim_of_pool`), in Python alone."""

    key: str
    currency: str
    units: int
    credited_minor: int
    seed_minor: int
    contribution_bp: int
    contributions_units: int
    seeded_minor: int
    paid_minor: int
    wins: int
    enabled: bool
    account: int  # the pool's ledger account
    liability: int  # the jackpot liability account its claims move to
    ceiling_minor: int | None = None  # the meter stays at it; the rest goes to the overflow
    overflow_units: int = 0
    overflow_credited_minor: int = 0
    overflow_seeded_minor: int = 0
    overflow_account: int = 0  # the overflow's ledger account (kind jackpot_pool)

    def row(self, now: int) -> dict[str, Any]:
        """The pool's row as this state leaves it (for `write_pools`)."""
        return {"key": self.key, "units": self.units, "credited_minor": self.credited_minor,
                "contributions_units": self.contributions_units,
                "seeded_minor": self.seeded_minor, "paid_minor": self.paid_minor,
                "wins": self.wins, "overflow_units": self.overflow_units,
                "overflow_credited_minor": self.overflow_credited_minor,
                "overflow_seeded_minor": self.overflow_seeded_minor, "updated_at": now}


@dataclass(frozen=True)
class Claim:
    """A claim decided: its row in jackpot_claims (the id is the database's) and audit row."""

    row: dict[str, Any]
    audit: tuple[str, str, dict, int]

    def view(self, claim_id: int) -> dict:
        """The claim as `claim_of` reads it back."""
        return {"id": claim_id, "pool": self.row["pool_key"],
                "amount_minor": self.row["amount_minor"], "status": self.row["status"],
                "instalments": loads(self.row["instalments"])}


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


def contribution(pool: PoolState, stake_minor: int, house: int, round_id: str,
                 now: int) -> tuple[PoolState, tuple[ledger.Move, ...]]:
    """A stake's contribution, decided: the pool after it and the whole minor units it moves
    from the house into the pool's account and, past its ceiling, its overflow's (none to a
    disabled pool)."""
    if not pool.enabled or not stake_minor:
        return pool, ()
    units = stake_minor * pool.contribution_bp  # bp of minor units = 1/10,000 minor units
    to_pool, to_overflow = split(pool.units, units, pool.ceiling_minor)
    total = pool.units + to_pool
    whole = total // POOL_SCALE - pool.credited_minor
    overflow = pool.overflow_units + to_overflow
    overflow_whole = overflow // POOL_SCALE - pool.overflow_credited_minor
    moves = tuple(m for m in (
        ledger.Move(f"{round_id}:contribution", house, pool.account, whole,
                    "jackpot_contribution", now, round_id),
        ledger.Move(f"{round_id}:overflow", house, pool.overflow_account, overflow_whole,
                    "jackpot_overflow", now, round_id)) if m.amount)
    return replace(pool, units=total, credited_minor=pool.credited_minor + whole,
                   overflow_units=overflow,
                   overflow_credited_minor=pool.overflow_credited_minor + overflow_whole,
                   contributions_units=pool.contributions_units + units), moves


def claim_of_pool(pool: PoolState, round_id: str, player_id: int, house: int, now: int
                  ) -> tuple[PoolState, Claim | None, tuple[ledger.Move, ...]]:
    """A round's win of the pool, decided: the pool after it, the claim, and its moves (the
    pool's whole minor units to the liability; the reset's seed from the overflow's whole
    minor units first, the rest from the house). A disabled pool cannot be won:
    (pool, None, ())."""
    if not pool.enabled:
        return pool, None, ()
    amount = pool.units // POOL_SCALE
    from_overflow = min(pool.seed_minor, pool.overflow_credited_minor)
    from_house = pool.seed_minor - from_overflow
    moves = tuple(m for m in (
        ledger.Move(f"{round_id}:jackpot_claim", pool.account, pool.liability, amount,
                    "jackpot_claim", now, round_id),
        ledger.Move(f"{round_id}:jackpot_reseed", pool.overflow_account, pool.account,
                    from_overflow, "jackpot_reseed", now, round_id),
        ledger.Move(f"{round_id}:jackpot_seed", house, pool.account, from_house,
                    "jackpot_seed", now, round_id)) if m.amount)
    units = pool.units - amount * POOL_SCALE + pool.seed_minor * POOL_SCALE
    after = replace(pool, units=units, credited_minor=units // POOL_SCALE,
                    overflow_units=pool.overflow_units - from_overflow * POOL_SCALE,
                    overflow_credited_minor=pool.overflow_credited_minor - from_overflow,
                    overflow_seeded_minor=pool.overflow_seeded_minor + from_overflow,
                    seeded_minor=pool.seeded_minor + from_house,
                    paid_minor=pool.paid_minor + amount, wins=pool.wins + 1)
    row = {"pool_key": pool.key, "round_id": round_id, "player_id": player_id,
           "amount_minor": amount, "instalments": dumps(instalments(amount)),
           "status": "pending_verification", "created_at": now}
    body = {"round_id": round_id, "player_id": player_id, "amount_minor": amount,
            "reseed_minor": pool.seed_minor, "reseed_from_overflow_minor": from_overflow}
    return after, Claim(row, (f"jackpot:{pool.key}", "jackpot.claimed", body, now)), moves


def pool_accounts(conn: Connection, key: str, currency: str) -> tuple[int, int, int]:
    """The pool's ledger accounts: (its own, its liability, its overflow)."""
    return (ledger.account_id(conn, "jackpot_pool", key, currency),
            ledger.account_id(conn, "jackpot_liability", key, currency),
            ledger.account_id(conn, "jackpot_pool", overflow_owner(key), currency))


def lock_pools(conn: Connection, keys: list[str]) -> dict[str, PoolState]:
    """The pools of `keys`, locked in key order (after the accounts: bet_writer's order)."""
    if not keys:
        return {}
    found: dict[str, PoolState] = {}
    for r in conn.execute(_LOCK_POOLS, {"keys": sorted(keys)}).all():
        account, liability, overflow = pool_accounts(conn, r.key, r.currency)
        found[r.key] = PoolState(
            r.key, r.currency, r.units, r.credited_minor, r.seed_minor, r.contribution_bp,
            r.contributions_units, r.seeded_minor, r.paid_minor, r.wins, r.enabled, account,
            liability, r.ceiling_minor, r.overflow_units, r.overflow_credited_minor,
            r.overflow_seeded_minor, overflow)
    return found


def write_pools(conn: Connection, before: dict[str, PoolState], after: dict[str, PoolState],
                now: int) -> None:
    """Each pool whose state changed, written as `after` holds it."""
    changed = [after[k].row(now) for k in sorted(after) if after[k] != before.get(k)]
    for row in changed:
        key = row.pop("key")
        conn.execute(update(jackpot_pools).where(jackpot_pools.c.key == key).values(**row))


def insert_claim(conn: Connection, claim: Claim) -> int:
    """The claim's row; its id."""
    return conn.execute(insert(jackpot_claims).values(**claim.row)
                        .returning(jackpot_claims.c.id)).scalar_one()


_LOCK_POOLS = (select(jackpot_pools).where(jackpot_pools.c.key.in_(
    bindparam("keys", expanding=True))).order_by(jackpot_pools.c.key).with_for_update())


def instalments(amount: int) -> list[dict]:
    """Equal instalments in minor units; the remainder of the division goes to the first."""
    each, rest = divmod(amount, JACKPOT_INSTALMENTS)
    return [{"due": "on verification" if i == 0 else f"year {i}",
             "amount_minor": each + (rest if i == 0 else 0)} for i in range(JACKPOT_INSTALMENTS)]


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
