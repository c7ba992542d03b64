"""The operator's meters, read from the ledger: per operator, game, mode, currency and UTC day
(the day the round started), the money each kind of ledger movement moved to or from the
house account, attributed to the round it belongs to.

- turnover: the stakes of paid rounds (kind "stake"); a wager of the balance made at a choice
  step (money into the house at a step) and the wins of the rounds such wagers fund are metered
  apart (standards.md D5), so the paytable's RTP is wins/turnover of paid rounds only. The meters
  name no kind of choice: whichever choice wagers the balance lands in the step columns;
- wins: what paid rounds credited the player (kind "win"; a gamble's result is already in it);
- hold: turnover - wins; rtp: wins / turnover (None before any turnover).

A seamless wallet's rounds move money in the operator's wallet, not in this ledger, and are not
in these meters. For now this is SQL over the ledger and rounds tables (a scan of the period);
the summary tables the writer keeps (issue 24 item 7) replace it without changing the answer.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection, and_, case, cast, func, select
from sqlalchemy.dialects.postgresql import JSONB

from reelforge.server.db.tables import (
    OPEN_STATUSES,
    accounts,
    jackpot_claims,
    jackpot_pools,
    ledger_entries,
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


def bet_mode(conn: Connection) -> Any:
    """The bet's mode, from the round's bet JSON (text on both databases)."""
    if conn.dialect.name == "postgresql":
        return cast(r.c.bet, JSONB)["mode"].astext
    return func.json_extract(r.c.bet, "$.mode")


def daily(conn: Connection, first: date, last: date) -> list[dict[str, Any]]:
    """One row per operator, game, mode, currency and day from `first` to `last` (UTC days,
    inclusive), with every key in the row even where nothing moved of a kind."""
    day = (r.c.created_at // US_PER_DAY).label("day")
    mode = bet_mode(conn).label("mode")
    paid, funded = r.c.funded_by.is_(None), r.c.funded_by.is_not(None)

    def moved(kind: str | None, *where: Any, sign: int = 1) -> Any:
        of_kind = () if kind is None else (e.c.kind == kind,)
        return func.coalesce(func.sum(case((and_(*of_kind, *where), sign * e.c.amount),
                                           else_=0)), 0)

    query = (
        select(p.c.operator_id, r.c.game_key, mode, r.c.currency, day,
               func.count(func.distinct(case((and_(e.c.kind == "stake", paid), r.c.id))))
               .label("rounds"),
               moved("stake", paid).label("turnover"),
               moved("win", paid, sign=-1).label("wins"),
               moved(None, e.c.step.is_not(None), e.c.amount > 0).label("step_wagered"),
               func.count(func.distinct(case((funded, r.c.id)))).label("funded_rounds"),
               moved("win", funded, sign=-1).label("funded_won"))
        .select_from(e.join(a, and_(a.c.id == e.c.account_id, a.c.kind == "house"))
                     .join(r, r.c.id == e.c.round_id).join(p, p.c.id == r.c.player_id))
        .where(r.c.created_at >= day_number(first) * US_PER_DAY,
               r.c.created_at < (day_number(last) + 1) * US_PER_DAY)
        .group_by(p.c.operator_id, r.c.game_key, mode, r.c.currency, day)
        .order_by(day, p.c.operator_id, r.c.game_key, mode, r.c.currency))
    found = []
    for row in conn.execute(query):
        turnover, wins = int(row.turnover), int(row.wins)
        found.append({
            "day": (EPOCH + timedelta(days=int(row.day))).isoformat(),
            "operator": row.operator_id, "game": row.game_key, "mode": row.mode,
            "currency": row.currency, "rounds": int(row.rounds), "turnover_minor": turnover,
            "wins_minor": wins, "hold_minor": turnover - wins,
            "rtp": wins / turnover if turnover else None,
            "step_wagered_minor": int(row.step_wagered),
            "funded_rounds": int(row.funded_rounds),
            "funded_won_minor": int(row.funded_won)})
    return found


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
    since, until = day_number(first) * US_PER_DAY, (day_number(last) + 1) * US_PER_DAY
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
                            "status": c.status, "confirmed_by": None, "at_us": c.created_at}
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
                 "wins_minor", "hold_minor", "rtp", "step_wagered_minor",
                 "funded_rounds", "funded_won_minor")
WIN_COLUMNS = ("round_id", "operator", "player", "game", "currency", "stake_minor",
               "win_minor", "x", "at_us")
