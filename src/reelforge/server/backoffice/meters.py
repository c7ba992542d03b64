"""The operator's meters: per operator, game, mode, currency and UTC day (the day the round
started), read from the summary rows the writer keeps in the transaction of every ledger
movement (services/meter_rows.py, which says what each kind of play meters), never from a
scan of rounds:

- the paytable: paid rounds, their stakes (turnover), what the paytable paid (wins), hold =
  turnover - wins, rtp = wins / turnover (None before any turnover);
- the gamble apart (standards.md D5): rounds gambled, the wins they staked, what it paid back;
- the wagers of the balance at a choice step (Spin Chance) and the wins of the rounds they
  funded; the meters name no kind of choice;
- house_net: the house's result of all three, equal to its ledger movements of those rounds.

A seamless wallet's rounds move money in the operator's wallet, not in this ledger, and are not
in these meters.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection, cast, func, select
from sqlalchemy.dialects.postgresql import JSONB

from reelforge.server.db.tables import (
    OPEN_STATUSES,
    accounts,
    jackpot_claims,
    jackpot_pools,
    ledger_entries,
    meter_days,
    players,
    rounds,
)
from reelforge.server.services.ledger_check import HELD_STATUSES

US_PER_DAY = 86_400 * 1_000_000
EPOCH = date(1970, 1, 1)
MAX_DAYS = 366

e, a, r, p = ledger_entries, accounts, rounds, players


def day_number(day: date) -> int:
    return (day - EPOCH).days


def period_us(first: date, last: date) -> tuple[int, int]:
    """The UTC days `first` to `last` as [since, until) in microseconds."""
    return day_number(first) * US_PER_DAY, (day_number(last) + 1) * US_PER_DAY


def bet_mode(conn: Connection) -> Any:
    """The bet's mode, from the round's bet JSON (text on both databases)."""
    if conn.dialect.name == "postgresql":
        return cast(r.c.bet, JSONB)["mode"].astext
    return func.json_extract(r.c.bet, "$.mode")


def kept_sums(conn: Connection, first: date, last: date, *kinds: str,
              by_day: bool = True) -> list[Any]:
    """The writer's meter rows (services/meter_rows.py) of the days `first` to `last`, their
    shards summed: per day (or the whole period), operator, game, mode, currency and kind."""
    m = meter_days
    keys = [m.c.operator_id, m.c.game_key, m.c.mode, m.c.currency, m.c.kind]
    if by_day:
        keys.insert(0, m.c.day)
    query = (select(*keys, func.sum(m.c.rounds).label("rounds"),
                    func.sum(m.c.turnover).label("turnover"), func.sum(m.c.wins).label("wins"),
                    func.sum(m.c.turnover_sq).label("turnover_sq"))
             .where(m.c.day >= day_number(first), m.c.day <= day_number(last))
             .group_by(*keys).order_by(*keys))
    if kinds:
        query = query.where(m.c.kind.in_(kinds))
    return list(conn.execute(query))


def daily(conn: Connection, first: date, last: date) -> list[dict[str, Any]]:
    """One row per operator, game, mode, currency and day from `first` to `last` (UTC days,
    inclusive) that has any meter, with every key in the row even where nothing moved of a
    kind: the paytable's rounds, turnover, wins, hold and RTP; the gamble's (rounds gambled,
    the wins staked, what it paid); the wagers of the balance and the wins of the rounds they
    funded; and the house's result of all three."""
    found: dict[tuple, dict[str, Any]] = {}
    for row in kept_sums(conn, first, last):
        key = (int(row.day), row.operator_id, row.game_key, row.mode, row.currency)
        out = _row(found, key)
        rounds_, turnover, wins = int(row.rounds), int(row.turnover), int(row.wins)
        names = _COLUMNS[row.kind]
        out[names[0]] += rounds_
        out[names[1]] += turnover
        out[names[2]] += wins
        out["house_net_minor"] += turnover - wins
    for key, paid, claims in _jackpots_paid(conn, first, last):
        _row(found, key)["jackpot_paid_minor"] += paid
        found[key]["jackpot_wins"] += claims
    for key, voided in _voided(conn, first, last):
        _row(found, key)["voided_rounds"] += voided
    for out in found.values():
        out["hold_minor"] = out["turnover_minor"] - out["wins_minor"]
        if out["turnover_minor"]:
            out["rtp"] = out["wins_minor"] / out["turnover_minor"]
        if out["gamble_staked_minor"]:
            out["gamble_rtp"] = out["gamble_won_minor"] / out["gamble_staked_minor"]
    return [found[k] for k in sorted(found)]


def _row(found: dict[tuple, dict[str, Any]], key: tuple) -> dict[str, Any]:
    out = found.get(key)
    if out is None:
        out = found[key] = {
            "day": (EPOCH + timedelta(days=key[0])).isoformat(), "operator": key[1],
            "game": key[2], "mode": key[3], "currency": key[4], "rounds": 0,
            "turnover_minor": 0, "wins_minor": 0, "hold_minor": 0, "rtp": None,
            "gamble_rounds": 0, "gamble_staked_minor": 0, "gamble_won_minor": 0,
            "gamble_rtp": None, "step_wagers": 0, "step_wagered_minor": 0,
            "funded_won_minor": 0, "house_net_minor": 0, "jackpot_wins": 0,
            "jackpot_paid_minor": 0, "voided_rounds": 0}
    return out


def _round_day_key(conn: Connection) -> list[Any]:
    return [(r.c.created_at // US_PER_DAY).label("day"), p.c.operator_id, r.c.game_key, bet_mode(conn).label("mode"), r.c.currency]


def _jackpots_paid(conn: Connection, first: date, last: date) -> list[tuple[tuple, int, int]]:
    """Jackpot claims per day the round started, operator, game, mode and currency: what the
    pools paid (the pools' money, not the paytable's, so apart from wins and hold; H2)."""
    since, until = period_us(first, last)
    keys = _round_day_key(conn)
    rows = conn.execute(
        select(*keys, func.sum(jackpot_claims.c.amount_minor), func.count())
        .select_from(jackpot_claims.join(r, r.c.id == jackpot_claims.c.round_id)
                     .join(p, p.c.id == r.c.player_id))
        .where(r.c.created_at >= since, r.c.created_at < until)
        .group_by(*keys)).all()
    return [((int(x[0]), x[1], x[2], str(x[3] or "base"), x[4]), int(x[5]), int(x[6]))
            for x in rows]


def _voided(conn: Connection, first: date, last: date) -> list[tuple[tuple, int]]:
    """Rounds cancelled (their stake given back: a seamless wallet's debit rolled back) per day,
    operator, game, mode and currency, through the partial index of cancelled rounds (H2)."""
    since, until = period_us(first, last)
    keys = _round_day_key(conn)
    rows = conn.execute(
        select(*keys, func.count()).select_from(r.join(p, p.c.id == r.c.player_id))
        .where(r.c.status == "cancelled", r.c.created_at >= since, r.c.created_at < until)
        .group_by(*keys)).all()
    return [((int(x[0]), x[1], x[2], str(x[3] or "base"), x[4]), int(x[5])) for x in rows]


# a meter kind's rounds, turnover and wins, as the daily row names them
_COLUMNS = {"paytable": ("rounds", "turnover_minor", "wins_minor"),
            "gamble": ("gamble_rounds", "gamble_staked_minor", "gamble_won_minor"),
            "balance_wager": ("step_wagers", "step_wagered_minor", "funded_won_minor")}


def held(conn: Connection) -> dict[str, Any]:
    """Funds in rounds not yet finished (standards.md B2): per operator and currency, the
    stakes debited by rounds that have credited nothing yet (the same rounds as `reelforge
    ledger check`'s held stakes), and every unfinished round with its id."""
    unfinished = conn.execute(
        select(r.c.id, p.c.operator_id, p.c.external_id, r.c.game_key, r.c.status,
               r.c.currency, r.c.stake_minor, r.c.funded_by, r.c.created_at)
        .join(p, p.c.id == r.c.player_id).where(r.c.status.in_(OPEN_STATUSES))
        .order_by(r.c.created_at, r.c.id)).all()
    totals: dict[tuple[str, str], dict[str, Any]] = {}
    for row in unfinished:
        total = totals.setdefault((row.operator_id, row.currency), {
            "operator": row.operator_id, "currency": row.currency, "open_rounds": 0,
            "stakes_held_minor": 0})
        total["open_rounds"] += 1
        if row.status in HELD_STATUSES and row.funded_by is None:
            total["stakes_held_minor"] += int(row.stake_minor)
    return {"totals": [totals[k] for k in sorted(totals)],
            "rounds": [{"round_id": row.id, "operator": row.operator_id,
                        "player": row.external_id, "game": row.game_key, "status": row.status,
                        "currency": row.currency, "stake_minor": int(row.stake_minor),
                        "started_at_us": row.created_at} for row in unfinished]}


def large_wins(conn: Connection, first: date, last: date, min_x: int) -> dict[str, Any]:
    """Rounds of the period that paid at least `min_x` times their stake, and every jackpot
    claim of the period, each with its round id (standards.md G9)."""
    since, until = period_us(first, last)
    wins = conn.execute(
        select(r.c.id, p.c.operator_id, p.c.external_id, r.c.game_key, r.c.currency,
               r.c.stake_minor, r.c.win_minor, r.c.created_at)
        .join(p, p.c.id == r.c.player_id)
        .where(r.c.created_at >= since, r.c.created_at < until, r.c.stake_minor > 0,
               r.c.win_minor >= r.c.stake_minor * min_x)
        .order_by(r.c.created_at, r.c.id)).all()
    claims = conn.execute(
        select(jackpot_claims, p.c.operator_id, p.c.external_id, r.c.game_key,
               jackpot_pools.c.currency)
        .join(p, p.c.id == jackpot_claims.c.player_id)
        .join(jackpot_pools, jackpot_pools.c.key == jackpot_claims.c.pool_key)
        .join(r, r.c.id == jackpot_claims.c.round_id)
        .where(jackpot_claims.c.created_at >= since, jackpot_claims.c.created_at < until)
        .order_by(jackpot_claims.c.created_at, jackpot_claims.c.id)).all()
    return {
        "min_x": min_x,
        "wins": [{"round_id": w.id, "operator": w.operator_id, "player": w.external_id,
                  "game": w.game_key, "currency": w.currency, "stake_minor": int(w.stake_minor),
                  "win_minor": int(w.win_minor), "x": w.win_minor / w.stake_minor,
                  "at_us": w.created_at} for w in wins],
        "jackpot_claims": [{"claim_id": c.id, "round_id": c.round_id, "pool": c.pool_key,
                            "operator": c.operator_id, "player": c.external_id,
                            "game": c.game_key, "currency": c.currency,
                            "amount_minor": int(c.amount_minor),
                            "status": c.status, "confirmed_by": c.verified_by,
                            "confirmed_at_us": c.verified_at, "at_us": c.created_at}
                           for c in claims]}


def as_csv(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> str:
    """The rows as CSV with a header line; numbers as written, None as an empty cell."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), extrasaction="ignore",
                            lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else row[k] for k in columns})
    return out.getvalue()


DAILY_COLUMNS = ("day", "operator", "game", "mode", "currency", "rounds", "turnover_minor",
                 "wins_minor", "hold_minor", "rtp", "gamble_rounds", "gamble_staked_minor",
                 "gamble_won_minor", "gamble_rtp", "step_wagers", "step_wagered_minor",
                 "funded_won_minor", "house_net_minor", "jackpot_wins", "jackpot_paid_minor",
                 "voided_rounds")
WIN_COLUMNS = ("round_id", "operator", "player", "game", "currency", "stake_minor",
               "win_minor", "x", "at_us")
