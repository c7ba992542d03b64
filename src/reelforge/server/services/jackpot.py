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


@dataclass(frozen=True)
class PoolState:
    """A pool's row as read under its lock, with its two ledger accounts: what a round's
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

    def row(self, now: int) -> dict[str, Any]:
        """The pool's row as this state leaves it (for `write_pools`)."""
        return {"key": self.key, "units": self.units, "credited_minor": self.credited_minor,
                "contributions_units": self.contributions_units,
                "seeded_minor": self.seeded_minor, "paid_minor": self.paid_minor,
                "wins": self.wins, "updated_at": now}


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


def contribution(pool: PoolState, stake_minor: int, house: int, round_id: str,
                 now: int) -> tuple[PoolState, tuple[ledger.Move, ...]]:
    """A stake's contribution, decided: the pool after it and the whole minor units it moves
    from the house into the pool's account (none to a disabled pool)."""
    if not pool.enabled or not stake_minor:
        return pool, ()
    units = stake_minor * pool.contribution_bp  # bp of minor units = 1/10,000 minor units
    total = pool.units + units
    whole = total // POOL_SCALE - pool.credited_minor
    moves = (ledger.Move(f"{round_id}:contribution", house, pool.account, whole,
                         "jackpot_contribution", now, round_id),) if whole else ()
    return replace(pool, units=total, credited_minor=pool.credited_minor + whole,
                   contributions_units=pool.contributions_units + units), moves


def claim_of_pool(pool: PoolState, round_id: str, player_id: int, house: int, now: int
                  ) -> tuple[PoolState, Claim | None, tuple[ledger.Move, ...]]:
    """A round's win of the pool, decided: the pool after it (reseeded from the house), the
    claim, and its moves (the pool's whole minor units to the liability, the seed from the
    house). A disabled pool cannot be won: (pool, None, ())."""
    if not pool.enabled:
        return pool, None, ()
    amount = pool.units // POOL_SCALE
    moves = tuple(m for m in (
        ledger.Move(f"{round_id}:jackpot_claim", pool.account, pool.liability, amount,
                    "jackpot_claim", now, round_id),
        ledger.Move(f"{round_id}:jackpot_seed", house, pool.account, pool.seed_minor,
                    "jackpot_seed", now, round_id)) if m.amount)
    units = pool.units - amount * POOL_SCALE + pool.seed_minor * POOL_SCALE
    after = replace(pool, units=units, credited_minor=units // POOL_SCALE,
                    seeded_minor=pool.seeded_minor + pool.seed_minor,
                    paid_minor=pool.paid_minor + amount, wins=pool.wins + 1)
    row = {"pool_key": pool.key, "round_id": round_id, "player_id": player_id,
           "amount_minor": amount, "instalments": dumps(instalments(amount)),
           "status": "pending_verification", "created_at": now}
    body = {"round_id": round_id, "player_id": player_id, "amount_minor": amount,
            "reseed_minor": pool.seed_minor}
    return after, Claim(row, (f"jackpot:{pool.key}", "jackpot.claimed", body, now)), moves


def lock_pools(conn: Connection, keys: list[str]) -> dict[str, PoolState]:
    """The pools of `keys`, locked in key order (after the accounts: bet_writer's order)."""
    if not keys:
        return {}
    found: dict[str, PoolState] = {}
    for r in conn.execute(_LOCK_POOLS, {"keys": sorted(keys)}).all():
        found[r.key] = PoolState(
            r.key, r.currency, r.units, r.credited_minor, r.seed_minor, r.contribution_bp,
            r.contributions_units, r.seeded_minor, r.paid_minor, r.wins, r.enabled,
            ledger.account_id(conn, "jackpot_pool", r.key, r.currency),
            ledger.account_id(conn, "jackpot_liability", r.key, r.currency))
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
    each, rest = divmod(amount, INSTALMENTS)
    return [{"due": "on verification" if i == 0 else f"year {i}",
             "amount_minor": each + (rest if i == 0 else 0)} for i in range(INSTALMENTS)]


def meters(conn: Connection) -> list[dict]:
    rows = conn.execute(select(jackpot_pools).order_by(jackpot_pools.c.key)).all()
    return [{"pool": r.key, "currency": r.currency, "amount_minor": r.units // POOL_SCALE,
             "seed_minor": r.seed_minor, "contribution_bp": r.contribution_bp,
             "wins": r.wins, "enabled": r.enabled, "updated_at_us": r.updated_at} for r in rows]


def claim_of(conn: Connection, round_id: str) -> dict | None:
    row = conn.execute(select(jackpot_claims).where(jackpot_claims.c.round_id == round_id)).first()
    if row is None:
        return None
    return {"id": row.id, "pool": row.pool_key, "amount_minor": row.amount_minor,
            "status": row.status, "instalments": loads(row.instalments)}
