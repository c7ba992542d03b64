"""Supervised corrections of accounting data (GLI-19 App. B.3.2, standards.md H5): a change of
a player's balance outside play is a two-person action.

One manager proposes it (the player, a signed amount in minor units, a reason); a different
manager approves it, and only then is it applied: one ledger txn between the player's account
and the operator's house, `correction:<id>`, in the transaction that marks it applied. A manager
may instead reject it. The proposer can do neither (refused here in words, and by the table's
CHECK). Every proposal, approval and rejection is a row of the operator's audit chain naming the
correction's id, the element changed, its value before and after, who and when. Viewers and
auditors read the list; they change nothing.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert, select, update

from reelforge.server.backoffice.staff import CONTROL, Staff
from reelforge.server.context import Context
from reelforge.server.db.tables import corrections, players
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, ledger
from reelforge.server.services.common import now_us

MAX_AMOUNT = 2**53  # minor units either way: far beyond any balance, within JSON's integers
MIN_REASON = 10


def _view(row: Any, external_id: str) -> dict[str, Any]:
    return {"id": row.id, "operator": row.operator_id, "player": external_id,
            "player_id": row.player_id, "amount_minor": row.amount_minor, "reason": row.reason,
            "status": row.status, "proposed_by": row.proposed_by,
            "proposed_at_us": row.proposed_at, "decided_by": row.decided_by,
            "decided_at_us": row.decided_at, "note": row.note,
            "balance_before_minor": row.balance_before, "balance_after_minor": row.balance_after,
            "txn": row.txn}


def _query():  # type: ignore[no-untyped-def]
    return (select(corrections, players.c.external_id)
            .join(players, players.c.id == corrections.c.player_id))


def listed(ctx: Context) -> list[dict[str, Any]]:
    """Every correction, newest first."""
    with ctx.read() as conn:
        rows = conn.execute(_query().order_by(corrections.c.id.desc())).all()
    return [_view(r, r.external_id) for r in rows]


def propose(ctx: Context, who: Staff, operator_id: str, player: str, amount_minor: int,
            reason: str) -> dict[str, Any]:
    """A manager proposes a change of a player's balance; nothing moves yet."""
    who.require(CONTROL)
    op = ctx.settings.operator(operator_id)
    if op is None:
        raise ApiError("UNKNOWN_OPERATOR", f"operator {operator_id!r}: not configured here")
    if op.wallet != "ledger":
        raise ApiError("NOT_NOW", f"operator {operator_id!r} holds its players' money (a "
                       "seamless wallet): correct the balance in the operator's wallet")
    if amount_minor == 0 or abs(amount_minor) >= MAX_AMOUNT:
        raise ApiError("INVALID_REQUEST", f"amount_minor = {amount_minor}: a nonzero whole "
                       "number of minor units (+ to the player, - from the player)")
    if len(reason.strip()) < MIN_REASON:
        raise ApiError("INVALID_REQUEST", f"reason = {reason!r}: say why, in at least "
                       f"{MIN_REASON} characters")
    now = now_us()
    with ctx.begin() as conn:
        player_id = conn.execute(select(players.c.id).where(
            players.c.operator_id == operator_id, players.c.external_id == player)
        ).scalar_one_or_none()
        if player_id is None:
            raise ApiError("UNKNOWN_PLAYER", f"player {player!r}: no such player of operator "
                           f"{operator_id!r}")
        correction_id = conn.execute(insert(corrections).values(
            operator_id=operator_id, player_id=player_id, amount_minor=amount_minor,
            reason=reason.strip(), status="proposed", proposed_by=who.name, proposed_at=now)
            .returning(corrections.c.id)).scalar_one()
        audit.append(conn, f"operator:{operator_id}", "correction.proposed",
                     {"correction_id": int(correction_id), "player_id": int(player_id),
                      "element": f"balance of player {player!r}",
                      "amount_minor": amount_minor, "reason": reason.strip(),
                      "before": None, "after": {"status": "proposed"},
                      "by": who.name, "role": who.role}, now)
        row = conn.execute(_query().where(corrections.c.id == correction_id)).one()
    return _view(row, row.external_id)


def _locked(conn: Connection, correction_id: int, who: Staff, action: str) -> Any:
    row = conn.execute(_query().where(corrections.c.id == correction_id)
                       .with_for_update(of=corrections)).first()
    if row is None:
        raise ApiError("UNKNOWN_CORRECTION", f"correction {correction_id}: no such correction")
    if row.status != "proposed":
        raise ApiError("NOT_NOW", f"correction {correction_id} is already {row.status} (by "
                       f"{row.decided_by!r}): only a proposed correction can be {action}")
    if row.proposed_by == who.name:
        raise ApiError("FORBIDDEN", f"correction {correction_id}: staff {who.name!r} proposed "
                       f"it, so another manager must approve or reject it (two people)")
    return row


def approve(ctx: Context, who: Staff, correction_id: int, note: str | None) -> dict[str, Any]:
    """A second manager approves: the ledger txn is written in the same transaction."""
    who.require(CONTROL)
    now = now_us()
    with ctx.begin() as conn:
        row = _locked(conn, correction_id, who, "approved")
        op = ctx.settings.operator(row.operator_id)
        if op is None:
            raise ApiError("UNKNOWN_OPERATOR", f"operator {row.operator_id!r}: not configured "
                           "here any more")
        account = ledger.account_id(conn, "player", str(row.player_id), op.currency)
        house = ledger.account_id(conn, "house", ledger.house_owner(op.id, row.player_id),
                                  op.currency)
        before = ledger.lock_balance(conn, account)
        if before + row.amount_minor < 0:
            raise ApiError("NOT_NOW", f"correction {correction_id}: the player's balance is "
                           f"{before}; {row.amount_minor} would take it below zero")
        txn = f"correction:{correction_id}"
        if row.amount_minor > 0:
            _, after = ledger.transfer(conn, txn=txn, source=house, target=account,
                                       amount=row.amount_minor, kind="correction", now=now)
        else:
            after, _ = ledger.transfer(conn, txn=txn, source=account, target=house,
                                       amount=-row.amount_minor, kind="correction", now=now)
        conn.execute(update(corrections).where(corrections.c.id == correction_id).values(
            status="applied", decided_by=who.name, decided_at=now, note=note,
            balance_before=before, balance_after=after, txn=txn))
        audit.append(conn, f"operator:{row.operator_id}", "correction.applied",
                     {"correction_id": correction_id, "player_id": row.player_id,
                      "element": f"balance of player {row.external_id!r}",
                      "amount_minor": row.amount_minor, "txn": txn,
                      "before": {"status": "proposed", "balance_minor": before},
                      "after": {"status": "applied", "balance_minor": after},
                      "proposed_by": row.proposed_by, "by": who.name, "role": who.role,
                      "note": note}, now)
        done = conn.execute(_query().where(corrections.c.id == correction_id)).one()
    return _view(done, done.external_id)


def reject(ctx: Context, who: Staff, correction_id: int, note: str | None) -> dict[str, Any]:
    """A second manager rejects: nothing moves."""
    who.require(CONTROL)
    now = now_us()
    with ctx.begin() as conn:
        row = _locked(conn, correction_id, who, "rejected")
        conn.execute(update(corrections).where(corrections.c.id == correction_id).values(
            status="rejected", decided_by=who.name, decided_at=now, note=note))
        audit.append(conn, f"operator:{row.operator_id}", "correction.rejected",
                     {"correction_id": correction_id, "player_id": row.player_id,
                      "element": f"balance of player {row.external_id!r}",
                      "amount_minor": row.amount_minor,
                      "before": {"status": "proposed"}, "after": {"status": "rejected"},
                      "proposed_by": row.proposed_by, "by": who.name, "role": who.role,
                      "note": note}, now)
        done = conn.execute(_query().where(corrections.c.id == correction_id)).one()
    return _view(done, done.external_id)
