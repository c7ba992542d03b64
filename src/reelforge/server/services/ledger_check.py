"""The ledger's invariants, proved over the whole database (`reelforge ledger check`).

Each check is one SQL aggregate that returns only the rows breaking it, so a healthy ledger of
millions of entries costs a few scans and no Python loop over its rows. A broken one is
reported as sentences naming the txn, account, round or pool and the amounts involved; each
check lists at most `LISTED` of its findings, since one systematic bug can break them all.

Run it in one snapshot (engine.snapshot): the checks compare tables that every round changes
together, and must all see the same moment.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    Connection,
    Select,
    String,
    and_,
    case,
    cast,
    distinct,
    func,
    literal,
    or_,
    select,
    text,
)

from reelforge.server.db.tables import (
    OPEN_STATUSES,
    POOL_SCALE,
    ROUND_STATUSES,
    accounts,
    jackpot_pools,
    ledger_entries,
    operators,
    players,
    rounds,
)

LISTED = 50

# Accounts that hold someone's money: the house alone is a counterparty that may go short.
GUARDED_KINDS = ("player", "jackpot_pool", "jackpot_liability")
JACKPOT_KINDS = ("jackpot_pool", "jackpot_liability")
# Statuses past the debit: the stake has left the player's account by then.
DEBITED_STATUSES = ("debited", "outcome_committed", "credited", "closed")
# Debited and not yet paid: the stakes the server holds for rounds still in play.
HELD_STATUSES = ("debited", "outcome_committed")

e, a, r, p = ledger_entries, accounts, rounds, jackpot_pools


def check(conn: Connection) -> list[str]:
    """Every broken ledger invariant, one sentence each; [] when all hold."""
    problems: list[str] = []
    with _whole_table_plans(conn):
        for one in (_txns_balance, _balances_match_entries, _running_balances, _no_overdraft,
                    _rounds_balance, _round_players, _pools, _closed_rounds_have_outcomes,
                    _debited_rounds_have_stakes, _round_wins_match_entries):
            problems.extend(one(conn))
    return problems


# PostgreSQL settings for the checks' queries, set for them only (then back as they were):
PG_CHECK_SETTINGS = {
    # Every check reads whole tables, where hash joins win; but PostgreSQL without statistics
    # (a restored database before its first ANALYZE) estimates a handful of rows and picks
    # nested loops: a million entries times thousands of accounts, minutes for one check.
    "enable_nestloop": "off",
    # Grouping a million entries by txn or round spills the default 4 MB to disk.
    "work_mem": "64MB",
}


@contextmanager
def _whole_table_plans(conn: Connection) -> Iterator[None]:
    if conn.dialect.name != "postgresql":
        yield
        return
    before = {name: conn.scalar(text("SELECT current_setting(:name)"), {"name": name})
              for name in PG_CHECK_SETTINGS}
    set_local = text("SELECT set_config(:name, :value, true)")  # true: to the end of the txn
    for name, value in PG_CHECK_SETTINGS.items():
        conn.execute(set_local, {"name": name, "value": value})
    yield
    # No `finally`: after a failed query PostgreSQL accepts no statement in the transaction,
    # and its rollback undoes these settings anyway.
    for name, value in before.items():
        conn.execute(set_local, {"name": name, "value": value})


def summary(conn: Connection) -> dict[str, Any]:
    """How much the check covered: counts, and the stakes held by rounds still in play."""
    by_status = dict.fromkeys(ROUND_STATUSES, 0)
    by_status.update(conn.execute(select(r.c.status, func.count()).group_by(r.c.status))
                     .all())
    held = conn.execute(
        select(r.c.currency, func.sum(r.c.stake_minor))
        .where(r.c.status.in_(HELD_STATUSES), r.c.funded_by.is_(None))
        .group_by(r.c.currency).order_by(r.c.currency)
    ).all()
    return {
        "accounts": conn.scalar(select(func.count()).select_from(a)),
        "entries": conn.scalar(select(func.count()).select_from(e)),
        "rounds": by_status,
        "open_rounds": sum(by_status[status] for status in OPEN_STATUSES),
        "held_stakes_minor": {currency: int(total) for currency, total in held},
    }


def _listed(conn: Connection, query: Select[Any], sentence: Callable[[Any], str],
            what: str) -> list[str]:
    # The count over the whole result makes the first row cost the whole scan, so the planner
    # chooses the plan fastest to finish: with a bare LIMIT under an ORDER BY that an index
    # provides, PostgreSQL bets on finding rows early (a nested loop in index order) and loses
    # that bet on a healthy ledger, where no row is ever found (minutes on a million entries).
    rows = conn.execute(query.add_columns(func.count().over().label("found"))
                        .limit(LISTED)).all()
    found = [sentence(row) for row in rows]
    if rows and rows[0].found > LISTED:
        found.append(f"... and {rows[0].found - LISTED} more {what}")
    return found


def _account(row: Any) -> str:
    return f"account {row.account_id} ({row.kind} {row.owner!r} {row.currency})"


def _txns_balance(conn: Connection) -> list[str]:
    """(a) Double entry: a txn's entries sum to zero, are two or more, in one currency."""
    total, count = func.sum(e.c.amount), func.count()
    currencies = func.count(distinct(a.c.currency))
    query = (select(e.c.txn, total.label("total"), count.label("n"),
                    currencies.label("currencies"))
             .select_from(e.join(a, a.c.id == e.c.account_id))
             .group_by(e.c.txn)
             .having(or_(total != 0, count < 2, currencies > 1))
             .order_by(e.c.txn))

    def sentence(row: Any) -> str:
        faults = []
        if row.total != 0:
            faults.append(f"its entries sum to {row.total}, not 0")
        if row.n < 2:
            faults.append("it has a single entry (double entry needs two or more)")
        if row.currencies > 1:
            faults.append(f"it moves {row.currencies} currencies")
        return f"txn {row.txn!r}: " + "; ".join(faults)

    return _listed(conn, query, sentence, "unbalanced txns")


def _balances_match_entries(conn: Connection) -> list[str]:
    """(b) An account's balance is the sum of its entries."""
    sums = (select(e.c.account_id, func.sum(e.c.amount).label("total"))
            .group_by(e.c.account_id).subquery("sums"))
    total = func.coalesce(sums.c.total, 0)
    query = (select(a.c.id.label("account_id"), a.c.kind, a.c.owner, a.c.currency, a.c.balance,
                    total.label("total"))
             .select_from(a.outerjoin(sums, sums.c.account_id == a.c.id))
             .where(a.c.balance != total)
             .order_by(a.c.id))
    return _listed(conn, query, lambda row: (
        f"{_account(row)}: balance {row.balance} but its entries sum to {row.total}"),
        "accounts off their entries")


def _running_balances(conn: Connection) -> list[str]:
    """(b) Each entry's balance_after is the running sum of its account's entries, by id."""
    running = select(
        e.c.id, e.c.account_id, e.c.balance_after,
        func.sum(e.c.amount).over(partition_by=e.c.account_id, order_by=e.c.id,
                                  rows=(None, 0)).label("running"),
    ).subquery("running")
    bad = select(
        running, func.row_number().over(partition_by=running.c.account_id,
                                        order_by=running.c.id).label("nth"),
    ).where(running.c.balance_after != running.c.running).subquery("bad")
    query = (select(bad.c.id, bad.c.account_id, bad.c.balance_after, bad.c.running,
                    a.c.kind, a.c.owner, a.c.currency)
             .select_from(bad.join(a, a.c.id == bad.c.account_id))
             .where(bad.c.nth == 1)
             .order_by(bad.c.account_id))
    return _listed(conn, query, lambda row: (
        f"{_account(row)}: entry {row.id} has balance_after {row.balance_after} but the "
        f"running sum of the account's entries up to it is {row.running} (first bad entry)"),
        "accounts with a broken running balance")


def _no_overdraft(conn: Connection) -> list[str]:
    """(c) Nobody but the house is ever short (the database's check constraint says so too;
    this catches a database restored or edited without it)."""
    query = (select(a.c.id.label("account_id"), a.c.kind, a.c.owner, a.c.currency, a.c.balance)
             .where(a.c.kind.in_(GUARDED_KINDS), a.c.balance < 0)
             .order_by(a.c.id))
    return _listed(conn, query, lambda row: (
        f"{_account(row)}: balance {row.balance} is negative"), "negative accounts")


def _rounds_balance(conn: Connection) -> list[str]:
    """(d) A round's money balances: what the player paid in net went to the house and the
    jackpot, to the minor unit. (Each txn balancing does not imply it: a txn's entries could
    be filed under different rounds.)"""
    def side(kinds: tuple[str, ...]) -> Any:
        return func.sum(case((a.c.kind.in_(kinds), e.c.amount), else_=literal(0)))

    query = (select(e.c.round_id, side(("player",)).label("player"),
                    side(("house",)).label("house"), side(JACKPOT_KINDS).label("jackpot"),
                    func.sum(e.c.amount).label("total"))
             .select_from(e.join(a, a.c.id == e.c.account_id))
             .where(e.c.round_id.is_not(None))
             .group_by(e.c.round_id)
             .having(func.sum(e.c.amount) != 0)
             .order_by(e.c.round_id))
    return _listed(conn, query, lambda row: (
        f"round {row.round_id!r}: the player's entries sum to {row.player}, the house's to "
        f"{row.house} and the jackpot accounts' to {row.jackpot}: {row.total} in all, not 0"),
        "unbalanced rounds")


def _round_players(conn: Connection) -> list[str]:
    """(d) A round moves money only on its own player's account."""
    query = (select(e.c.id, e.c.round_id, a.c.owner, r.c.player_id)
             .select_from(e.join(a, a.c.id == e.c.account_id).join(r, r.c.id == e.c.round_id))
             .where(a.c.kind == "player", a.c.owner != cast(r.c.player_id, String))
             .order_by(e.c.id))
    return _listed(conn, query, lambda row: (
        f"round {row.round_id!r}: entry {row.id} is on the account of player {row.owner!r}, "
        f"but the round is player {row.player_id}'s"), "entries on another player's account")


def _pools(conn: Connection) -> list[str]:
    """(e) G2, G3, contributions are never lost: every contribution is in the pool or its
    overflow pool or was paid out, less the house's seed money; and the pool's and the
    overflow's ledger accounts hold their whole minor units."""
    o = a.alias("overflow")
    balance = func.coalesce(a.c.balance, 0)
    overflow_balance = func.coalesce(o.c.balance, 0)
    remainder = p.c.units - p.c.credited_minor * POOL_SCALE
    overflow_remainder = p.c.overflow_units - p.c.overflow_credited_minor * POOL_SCALE
    accounted = (p.c.units + p.c.overflow_units
                 + (p.c.paid_minor - p.c.seeded_minor) * POOL_SCALE)
    query = (select(p.c.key, p.c.units, p.c.credited_minor, p.c.contributions_units,
                    p.c.seeded_minor, p.c.paid_minor, p.c.overflow_units,
                    p.c.overflow_credited_minor, balance.label("balance"),
                    overflow_balance.label("overflow_balance"),
                    accounted.label("accounted"), remainder.label("remainder"),
                    overflow_remainder.label("overflow_remainder"))
             .select_from(p.outerjoin(a, and_(a.c.kind == "jackpot_pool", a.c.owner == p.c.key,
                                              a.c.currency == p.c.currency))
                          .outerjoin(o, and_(o.c.kind == "jackpot_pool",
                                             o.c.owner == p.c.key + "#overflow",
                                             o.c.currency == p.c.currency)))
             .where(or_(p.c.contributions_units != accounted, p.c.credited_minor != balance,
                        p.c.overflow_credited_minor != overflow_balance,
                        remainder < 0, remainder >= POOL_SCALE,
                        overflow_remainder < 0, overflow_remainder >= POOL_SCALE))
             .order_by(p.c.key))
    found = []
    for row in conn.execute(query):
        pool = f"jackpot pool {row.key!r}"
        if row.contributions_units != row.accounted:
            found.append(
                f"{pool}: contributions {row.contributions_units} units, but the pool "
                f"({row.units} units) plus its overflow ({row.overflow_units} units) plus paid "
                f"({row.paid_minor} minor) less seeded ({row.seeded_minor} minor) is "
                f"{row.accounted} units (G3)")
        if row.credited_minor != row.balance:
            found.append(f"{pool}: credited_minor {row.credited_minor} but its jackpot_pool "
                         f"account's balance is {row.balance}")
        if row.overflow_credited_minor != row.overflow_balance:
            found.append(f"{pool}: overflow_credited_minor {row.overflow_credited_minor} but "
                         f"its overflow account's balance is {row.overflow_balance}")
        for what, units, left in (("units", row.units, row.remainder),
                                  ("overflow units", row.overflow_units,
                                   row.overflow_remainder)):
            if not 0 <= left < POOL_SCALE:
                found.append(f"{pool}: {units} {what} less their credited minor units leave "
                             f"{left} units, not 0 to {POOL_SCALE - 1}")
    return found


def _closed_rounds_have_outcomes(conn: Connection) -> list[str]:
    """(f) A closed round can be replayed: its outcome is stored."""
    query = (select(r.c.id).where(r.c.status == "closed", r.c.outcome.is_(None))
             .order_by(r.c.id))
    return _listed(conn, query, lambda row: f"round {row.id!r}: closed without an outcome",
                   "closed rounds without an outcome")


def _debited_rounds_have_stakes(conn: Connection) -> list[str]:
    """(f) A round past its debit took its stake from the player, unless another round's Spin
    Chance paid for it, or the operator's seamless wallet holds the player's money (its debit
    is the operator's, never a ledger entry)."""
    stakes = (select(e.c.round_id, func.sum(e.c.amount).label("total"))
              .select_from(e.join(a, a.c.id == e.c.account_id))
              .where(e.c.kind == "stake", a.c.kind == "player", e.c.round_id.is_not(None))
              .group_by(e.c.round_id)
              .subquery("stakes"))
    seamless = (select(players.c.id)
                .join(operators, operators.c.id == players.c.operator_id)
                .where(operators.c.wallet_mode == "seamless"))
    query = (select(r.c.id, r.c.status, r.c.stake_minor, stakes.c.total)
             .select_from(r.outerjoin(stakes, stakes.c.round_id == r.c.id))
             .where(r.c.status.in_(DEBITED_STATUSES), r.c.stake_minor > 0,
                    r.c.funded_by.is_(None), r.c.player_id.not_in(seamless),
                    or_(stakes.c.total.is_(None), stakes.c.total != -r.c.stake_minor))
             .order_by(r.c.id))

    def sentence(row: Any) -> str:
        if row.total is None:
            return (f"round {row.id!r} ({row.status}, stake {row.stake_minor}): no stake entry "
                    f"on the player's account")
        return (f"round {row.id!r} ({row.status}, stake {row.stake_minor}): its stake entries "
                f"on the player's account sum to {row.total}, not {-row.stake_minor}")

    return _listed(conn, query, sentence, "debited rounds without their stake")


# Past the credit: the round's win_minor is final and its win entries are written.
CREDITED_STATUSES = ("credited", "closed")


def _round_wins_match_entries(conn: Connection) -> list[str]:
    """(g) A credited round's win_minor is what its win entries paid the player, to the minor
    unit: an edit of either shows (the seamless wallet's wins are the operator's, not here)."""
    # The round's own player's account alone: an entry on another's is (d)'s finding.
    wins = (select(e.c.round_id, func.sum(e.c.amount).label("total"))
            .select_from(e.join(a, a.c.id == e.c.account_id).join(r, r.c.id == e.c.round_id))
            .where(e.c.kind == "win", a.c.kind == "player",
                   a.c.owner == cast(r.c.player_id, String))
            .group_by(e.c.round_id)
            .subquery("wins"))
    seamless = (select(players.c.id)
                .join(operators, operators.c.id == players.c.operator_id)
                .where(operators.c.wallet_mode == "seamless"))
    paid = func.coalesce(wins.c.total, 0)
    query = (select(r.c.id, r.c.status, r.c.win_minor, paid.label("paid"))
             .select_from(r.outerjoin(wins, wins.c.round_id == r.c.id))
             .where(r.c.status.in_(CREDITED_STATUSES), r.c.player_id.not_in(seamless),
                    func.coalesce(r.c.win_minor, 0) != paid)
             .order_by(r.c.id))
    return _listed(conn, query, lambda row: (
        f"round {row.id!r} ({row.status}): win_minor {row.win_minor} but its win entries on "
        f"the player's account sum to {row.paid}"), "rounds whose win is off their entries")
