"""Reconciliation with a seamless operator's wallet (`reelforge ledger reconcile`): the server's
rounds and outbox against the operator's own transaction records, transaction by transaction,
to the minor unit (standards.md section 3, rule 7; J1-J4).

Every call the server owes an operator has a transaction id (<round>:debit, <round>:credit,
<round>:rollback) and an outbox row saying what the server believes happened to it; the
operator's report says what it applied. For each id of either side:

- both sides know it: the same kind, player, round and amount; a debit the wallet rolled back
  belongs to a round the server cancelled, and a credit is the round's win;
- only the server knows it: fine for a refused debit (the wallet records no refusal) or an
  unknown one that was rolled back; a call still owed (outbox "pending") is *pending*, not a
  mismatch; anything the server marked delivered is a mismatch, and so is a credit or a
  rollback the operator refused (it needs a person);
- only the wallet knows it: a mismatch (money moved that the server never asked for).

Then per round: a closed round was debited its stake once and credited its win once; a
cancelled round kept no stake and got no credit. And per player: the wallet's net movement
equals the server's closed rounds' wins less their stakes. Rounds still in play (and their
calls) are reported as pending.

The operator's wallet may serve other game providers: only its transactions of players this
server knows for the operator, or with ids this server sent, are compared (the others are
counted, as `ignored`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from reelforge.server.db.tables import OPEN_STATUSES, outbox, players, rounds
from reelforge.server.services.common import loads


@dataclass
class Reconciliation:
    mismatches: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def reconcile(conn: Connection, operator_id: str, wallet_rows: Iterable[dict]) -> Reconciliation:
    """Compare the server's records of `operator_id` (in `conn`, one snapshot) with the
    operator's transactions `wallet_rows` (its report: transaction_id, kind, player, round_id,
    amount, status)."""
    out = Reconciliation()
    known = dict(conn.execute(select(players.c.id, players.c.external_id)
                              .where(players.c.operator_id == operator_id)).all())
    externals = set(known.values())
    round_rows = {r.id: r for r in conn.execute(
        select(rounds.c.id, rounds.c.player_id, rounds.c.status, rounds.c.stake_minor,
               rounds.c.win_minor, rounds.c.funded_by)
        .join(players, players.c.id == rounds.c.player_id)
        .where(players.c.operator_id == operator_id))}
    sent = {o.transaction_id: o for o in conn.execute(
        select(outbox).where(outbox.c.operator_id == operator_id))}
    wallet: dict[str, dict] = {}
    ignored = 0
    for row in wallet_rows:
        if row["player"] not in externals and row["transaction_id"] not in sent:
            ignored += 1
            continue
        if row["transaction_id"] in wallet:
            out.mismatches.append(f"wallet transaction {row['transaction_id']}: listed twice")
        wallet[row["transaction_id"]] = row

    def bad(what: str) -> None:
        out.mismatches.append(what)

    in_play = {rid for rid, r in round_rows.items() if r.status in OPEN_STATUSES}
    banked: dict[str, int] = defaultdict(int)  # what a round's gamble credited before its end
    for owed in sent.values():
        if owed.kind == "credit" and ":bank:" in owed.transaction_id:
            banked[owed.round_id] += loads(owed.body)["amount"]
    for tid in sorted(set(sent) | set(wallet)):
        o, w = sent.get(tid), wallet.get(tid)
        if o is None:
            assert w is not None
            bad(f"{tid}: the wallet applied a {w['kind']} of {w['amount']} for player "
                f"{w['player']!r} ({w['status']}) that the server never sent")
            continue
        body = loads(o.body)
        r = round_rows.get(o.round_id)
        where = f"{tid} ({o.kind}, round {o.round_id})"
        if r is None:
            bad(f"{where}: the outbox names a round the server does not have")
            continue
        player = known[r.player_id]
        if w is None:
            if o.status == "pending":
                out.pending.append(f"{where}: owed to the wallet, not yet delivered "
                                   f"(attempts {o.attempts})")
            elif o.kind == "debit" and o.status in ("failed", "unknown"):
                pass  # refused (never recorded), or never arrived and rolled back
            elif o.status == "failed":
                bad(f"{where}: the wallet refused it ({_why(o.response)}); "
                    f"{body.get('amount', 0)} minor units need a person")
            else:
                bad(f"{where}: the server marked it {o.status}, the wallet has no record of it")
            continue
        if w["kind"] != o.kind:
            bad(f"{where}: the wallet recorded it as a {w['kind']}")
        if (w["player"], w["round_id"]) != (player, o.round_id):
            bad(f"{where}: the wallet recorded it for player {w['player']!r}, round "
                f"{w['round_id']}; the server for {player!r}")
        if o.kind == "debit":
            if w["amount"] != body["amount"] or w["amount"] != r.stake_minor:
                bad(f"{where}: the wallet debited {w['amount']}, the server asked "
                    f"{body['amount']} for a stake of {r.stake_minor}")
            if o.status == "failed":
                bad(f"{where}: the server took it as refused, the wallet applied it "
                    f"({w['status']})")
            if w["status"] == "rolled_back" and r.status not in ("cancelled", *OPEN_STATUSES):
                bad(f"{where}: the wallet rolled the stake back, yet the round is {r.status}")
            if w["status"] == "applied" and r.status == "cancelled":
                rolled = sent.get(f"{o.round_id}:rollback")
                if rolled is not None and rolled.status == "pending":
                    out.pending.append(f"{where}: the round is cancelled, its rollback owed")
                else:
                    bad(f"{where}: the round is cancelled, the wallet kept the stake of "
                        f"{w['amount']}")
        elif o.kind == "credit":
            if w["amount"] != body["amount"]:
                bad(f"{where}: the wallet credited {w['amount']}, the server sent "
                    f"{body['amount']}")
            rest = None if r.win_minor is None else r.win_minor - banked.get(o.round_id, 0)
            if ":bank:" not in o.transaction_id and rest is not None and w["amount"] != rest:
                bad(f"{where}: the wallet credited {w['amount']}, the round won {r.win_minor}"
                    + (f" of which {banked[o.round_id]} was banked by its gamble before"
                       if banked.get(o.round_id) else ""))
            if r.status == "cancelled":
                bad(f"{where}: a credit of {w['amount']} for a cancelled round")
            if o.status == "pending":
                out.pending.append(f"{where}: applied by the wallet, the acknowledgement owed")
            elif o.status == "failed":
                bad(f"{where}: the server took it as refused, the wallet applied it")
        else:  # rollback
            debit = wallet.get(f"{o.round_id}:debit")
            returned = debit["amount"] if debit is not None else 0
            if w["amount"] != returned:
                bad(f"{where}: the wallet gave back {w['amount']}, its debit was {returned}")
            if w["status"] == "tombstone" and debit is not None:
                bad(f"{where}: a tombstone, yet the wallet holds the debit")
            if r.status not in ("cancelled", *OPEN_STATUSES):
                bad(f"{where}: a rollback for a round that is {r.status}")
            if o.status == "pending":
                out.pending.append(f"{where}: applied by the wallet, the acknowledgement owed")

    net_server: dict[str, int] = defaultdict(int)
    for rid, r in round_rows.items():
        player = known[r.player_id]
        if rid in in_play:
            out.pending.append(f"round {rid} of {player!r}: still {r.status}")
            continue
        debit, credit = wallet.get(f"{rid}:debit"), wallet.get(f"{rid}:credit")
        if r.status == "closed":
            net_server[player] += (r.win_minor or 0) - r.stake_minor
            if r.stake_minor and (debit is None or debit["status"] != "applied"):
                bad(f"round {rid} of {player!r}: closed, but the wallet holds no debit of its "
                    f"stake {r.stake_minor}")
            if credit is None and f"{rid}:credit" not in sent:
                bad(f"round {rid} of {player!r}: closed without a credit")
        elif credit is not None:
            pass  # named above, transaction by transaction
    net_wallet: dict[str, int] = defaultdict(int)
    for w in wallet.values():
        sign = {"debit": -1, "credit": 1, "rollback": 1}.get(w["kind"], 0)
        net_wallet[w["player"]] += sign * w["amount"]
    # rounds still in play move money the server has not settled yet: leave their players out
    busy = {known[round_rows[rid].player_id] for rid in in_play}
    for player in sorted((set(net_server) | set(net_wallet)) - busy):
        if net_server[player] != net_wallet[player]:
            bad(f"player {player!r}: the wallet's net movement is {net_wallet[player]}, the "
                f"server's closed rounds net {net_server[player]}")
    out.summary = {
        "operator": operator_id, "players": len(known), "rounds": len(round_rows),
        "rounds_in_play": len(in_play), "server_transactions": len(sent),
        "wallet_transactions": len(wallet), "wallet_transactions_ignored": ignored,
        "net_minor": sum(net_wallet.values()),
    }
    return out


def _why(response: str | None) -> str:
    found = loads(response) or {}
    return str(found.get("code") or found.get("why") or found.get("last_error") or "no reason")
