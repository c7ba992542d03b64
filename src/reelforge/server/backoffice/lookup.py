"""Looking up one player or one round, as staff answer a player's question or a dispute.

A player: the account, balance and totals, each of the latest sessions with its elapsed time
and net position (standards.md C6, the figures a UK player is shown: what the session's rounds
won less what they staked, from the ledger), open rounds and the latest rounds. A round: its
row, bet, outcome, every step (choice, seed, result) and every ledger movement it made.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, and_, func, select

from reelforge.server.db.tables import (
    OPEN_STATUSES,
    accounts,
    jackpot_claims,
    ledger_entries,
    players,
    round_steps,
    rounds,
    sessions,
)
from reelforge.server.errors import ApiError

RECENT = 20
SESSIONS = 10
e, a, r, p, s = ledger_entries, accounts, rounds, players, sessions


def player(conn: Connection, operator_id: str, external_id: str, now: int) -> dict[str, Any]:
    """The player `external_id` of `operator_id`, or PLAYER_NOT_FOUND."""
    row = conn.execute(select(p).where(p.c.operator_id == operator_id,
                                       p.c.external_id == external_id)).first()
    if row is None:
        raise ApiError("PLAYER_NOT_FOUND", f"player {external_id!r} of operator "
                       f"{operator_id!r}: no such player")
    account = conn.execute(select(a.c.id, a.c.balance).where(
        a.c.kind == "player", a.c.owner == str(row.id), a.c.currency == row.currency)).first()
    mine = e.c.account_id == (account.id if account is not None else -1)
    # per session: the player's own ledger movements of that session's rounds (- staked, + won)
    net = dict(conn.execute(
        select(r.c.session_id, func.coalesce(func.sum(e.c.amount), 0))
        .select_from(e.join(r, r.c.id == e.c.round_id))
        .where(mine, r.c.player_id == row.id).group_by(r.c.session_id)).tuples().all())
    counts: dict[Any, int] = dict(conn.execute(select(r.c.session_id, func.count())
                               .where(r.c.player_id == row.id)
                               .group_by(r.c.session_id)).tuples().all())
    listed = conn.execute(select(s).where(s.c.player_id == row.id)
                          .order_by(s.c.created_at.desc(), s.c.id.desc()).limit(SESSIONS)).all()
    totals = conn.execute(
        select(func.count(), func.coalesce(func.sum(r.c.stake_minor), 0),
               func.coalesce(func.sum(r.c.win_minor), 0))
        .where(r.c.player_id == row.id)).one()
    recent = conn.execute(select(r.c.id, r.c.game_key, r.c.status, r.c.stake_minor,
                                 r.c.win_minor, r.c.funded_by, r.c.created_at, r.c.session_id)
                          .where(r.c.player_id == row.id)
                          .order_by(r.c.created_at.desc(), r.c.id.desc()).limit(RECENT)).all()
    open_ = conn.execute(select(r.c.id, r.c.game_key, r.c.status, r.c.stake_minor)
                         .where(r.c.player_id == row.id, r.c.status.in_(OPEN_STATUSES))).all()
    return {
        "player_id": int(row.id), "operator": row.operator_id, "player": row.external_id,
        "currency": row.currency, "jurisdiction": row.jurisdiction,
        "created_at_us": row.created_at, "last_round_at_us": row.last_round_at,
        "balance_minor": None if account is None else int(account.balance),
        "rounds": int(totals[0]), "staked_minor": int(totals[1]), "won_minor": int(totals[2]),
        "sessions": [{
            "session_id": int(x.id), "started_at_us": x.created_at,
            "expires_at_us": x.expires_at, "live": now < x.expires_at,
            "elapsed_s": (min(now, x.expires_at) - x.created_at) // 1_000_000,
            "balance_at_start_minor": int(x.balance_at_start),
            "rounds": int(counts.get(x.id, 0)), "net_minor": int(net.get(x.id, 0))}
            for x in listed],
        "open_rounds": [{"round_id": o.id, "game": o.game_key, "status": o.status,
                         "stake_minor": int(o.stake_minor)} for o in open_],
        "recent_rounds": [{"round_id": x.id, "game": x.game_key, "status": x.status,
                           "stake_minor": int(x.stake_minor),
                           "win_minor": None if x.win_minor is None else int(x.win_minor),
                           "funded_by": x.funded_by, "session_id": x.session_id,
                           "at_us": x.created_at} for x in recent]}


def round_detail(conn: Connection, round_id: str) -> dict[str, Any]:
    """One round in full, or ROUND_NOT_FOUND."""
    row = conn.execute(select(r, p.c.operator_id, p.c.external_id)
                       .join(p, p.c.id == r.c.player_id).where(r.c.id == round_id)).first()
    if row is None:
        raise ApiError("ROUND_NOT_FOUND", f"round {round_id!r}: no such round")
    steps = conn.execute(select(round_steps).where(round_steps.c.round_id == round_id)
                         .order_by(round_steps.c.idx)).all()
    moves = conn.execute(select(e.c.txn, e.c.amount, e.c.balance_after, e.c.kind, e.c.step,
                                e.c.created_at, a.c.kind.label("account_kind"),
                                a.c.owner.label("account_owner"))
                         .join(a, a.c.id == e.c.account_id).where(e.c.round_id == round_id)
                         .order_by(e.c.id)).all()
    claim = conn.execute(select(jackpot_claims).where(
        and_(jackpot_claims.c.round_id == round_id))).first()

    def parsed(text: str | None) -> Any:
        return None if text is None else json.loads(text)

    return {
        "round_id": row.id, "operator": row.operator_id, "player": row.external_id,
        "game": row.game_key, "game_id": row.game_id, "game_sha256": row.game_sha256,
        "status": row.status, "currency": row.currency, "denomination": row.denomination,
        "bet": parsed(row.bet), "stake_minor": int(row.stake_minor),
        "win_minor": None if row.win_minor is None else int(row.win_minor),
        "funded_by": row.funded_by, "seed": row.seed, "outcome": parsed(row.outcome),
        "phase": parsed(row.phase), "session_id": row.session_id,
        "created_at_us": row.created_at, "closed_at_us": row.closed_at,
        "steps": [{"step": x.idx, "kind": x.kind, "choice": parsed(x.choice), "seed": x.seed,
                   "result": parsed(x.result), "at_us": x.created_at} for x in steps],
        "ledger": [{"txn": m.txn, "account": f"{m.account_kind}:{m.account_owner}",
                    "amount_minor": int(m.amount), "balance_after_minor": int(m.balance_after),
                    "kind": m.kind, "step": m.step, "at_us": m.created_at} for m in moves],
        "jackpot_claim": None if claim is None else {
            "claim_id": int(claim.id), "pool": claim.pool_key,
            "amount_minor": int(claim.amount_minor), "status": claim.status}}
