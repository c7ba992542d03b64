"""The meters the writer keeps (issue 24 items 2 and 7): every ledger movement of a round with
the house is added to its row of `meter_days` in the movement's own transaction, so the back
office's daily meters and RTP read a few summary rows instead of scanning rounds.

A row is per operator, game, mode, currency, UTC day (the day the round started), kind of play
and house shard (the player id modulo ledger.HOUSE_SHARDS, as the house accounts are split:
every upsert of a shard's rows comes after the lock on that shard's house account in the same
transaction, so the meter rows add no lock order of their own). The kinds of play
(standards.md D5):

- paytable: the paid rounds (their stakes: rounds, turnover) and what the paytable paid them
  (wins), the win of a round held for a gamble included once the gamble ends;
- gamble: a choice on the round's win (Cluedo's red/black, Cops' wheel gamble) that changed
  it: rounds gambled, the win staked (turnover), what the gamble paid back (wins, its banked
  parts included). A choice collected at its first step without changing the win is no
  gamble;
- balance_wager: a choice that wagers the player's balance (Spin Chance): the wagers (rounds,
  turnover) and the wins of the rounds they fund.

So a day's house result, sum(turnover - wins) over the kinds, equals the house's ledger
movements of that day's rounds (stakes, wagers, wins; jackpot movements are the pool's, not
here), and tests/server/test_backoffice_reports.py checks it against a scan of the ledger.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from reelforge.server.db.tables import meter_days, players, rounds

US_PER_DAY = 86_400 * 1_000_000
SHARDS = 16  # ledger.HOUSE_SHARDS (asserted there: one number)
KEY = ("day", "operator_id", "game_key", "mode", "currency", "kind", "shard")
SUMS = ("rounds", "turnover", "wins", "turnover_sq")


@dataclass(frozen=True)
class RoundKey:
    """What a round's meter rows are keyed by, read once per transaction."""

    day: int
    operator_id: str
    game_key: str
    mode: str
    currency: str
    shard: int
    funded: bool

    def row(self, kind: str) -> tuple:
        return (self.day, self.operator_id, self.game_key, self.mode, self.currency, kind,
                self.shard)


def classify(kind: str, into_house: bool, stepped: bool, funded: bool) -> tuple[str, str] | None:
    """The meter (kind of play) and column a movement of a round with the house lands in:
    `kind` the ledger entry's kind, `into_house` its direction, `stepped` whether a choice
    step moved it, `funded` whether its round was paid for by a wager of the balance. None:
    not metered here (a jackpot contribution, a seed)."""
    if into_house:
        if kind == "stake":
            return "paytable", "turnover"
        return ("balance_wager", "turnover") if stepped else None
    if kind != "win":
        return None
    if funded:
        return "balance_wager", "wins"
    return ("gamble", "wins") if stepped else ("paytable", "wins")


class Deltas:
    """Sums to add to meter rows, keyed as `meter_days`'s primary key."""

    def __init__(self) -> None:
        self.rows: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0, 0])

    def add(self, key: tuple, column: str, amount: int, counted: bool = False) -> None:
        row = self.rows[key]
        if column == "turnover":
            row[1] += amount
            row[3] += amount * amount
            row[0] += 1 if counted else 0
        else:
            row[2] += amount

    def count(self, key: tuple) -> None:
        self.rows[key][0] += 1


def round_keys(conn: Connection, round_ids: Iterable[str]) -> dict[str, RoundKey]:
    """Each round's meter key: remembered for the rest of the transaction (a round's key
    never changes; its row may have been inserted by this very transaction)."""
    txn = conn.get_transaction()
    held = conn.info.get("meter_rounds")
    if held is None or held[0] is not txn:
        held = conn.info["meter_rounds"] = (txn, {})
    known: dict[str, RoundKey] = held[1]
    missing = sorted({r for r in round_ids if r not in known})
    if missing:
        for row in conn.execute(_ROUNDS, {"ids": missing}):
            mode = json.loads(row.bet).get("mode", "base")
            known[row.id] = RoundKey(row.created_at // US_PER_DAY, row.operator_id,
                                     row.game_key, str(mode), row.currency,
                                     row.player_id % SHARDS, row.funded_by is not None)
    return known


_ROUNDS = (select(rounds.c.id, rounds.c.player_id, rounds.c.game_key, rounds.c.bet,
                  rounds.c.currency, rounds.c.created_at, rounds.c.funded_by,
                  players.c.operator_id)
           .join(players, players.c.id == rounds.c.player_id)
           .where(rounds.c.id.in_(bindparam("ids", expanding=True))))


def record_moves(conn: Connection, moves: Iterable[Any], houses: set[int]) -> None:
    """Add `moves` (ledger.Move-like: source, target, amount, kind, round_id, step) to their
    meter rows; `houses`: which of their accounts are house accounts."""
    with_round = [m for m in moves if m.round_id is not None
                  and (m.source in houses) != (m.target in houses)]
    if not with_round:
        return
    keys = round_keys(conn, (m.round_id for m in with_round))
    deltas = Deltas()
    for m in with_round:
        key = keys[m.round_id]
        found = classify(m.kind, m.target in houses, m.step is not None, key.funded)
        if found is not None:
            meter, column = found
            deltas.add(key.row(meter), column, m.amount, counted=True)
    write(conn, deltas)


def gamble_settled(conn: Connection, round_id: str, paytable_minor: int, paid_minor: int,
                   gambled: bool) -> None:
    """A choice on a round's win has ended: the paytable's win `paytable_minor` (capped, as
    it would have been credited) is the paytable's; a gamble (`gambled`) staked it and paid
    `paid_minor` in all (its credits already metered as the gamble's wins by the ledger);
    a choice that changed nothing moves those credits back from the gamble to the paytable.
    The caller holds the round's house shard locked."""
    key = round_keys(conn, [round_id])[round_id]
    if key.funded:  # a funded round's wins, gambled or not, are the balance wager's
        return
    deltas = Deltas()
    deltas.add(key.row("paytable"), "wins", paytable_minor)
    if gambled:
        deltas.add(key.row("gamble"), "turnover", paytable_minor, counted=True)
    else:
        deltas.add(key.row("gamble"), "wins", -paid_minor)
    write(conn, deltas)


def write(conn: Connection, deltas: Deltas) -> None:
    """Upsert the rows, in key order (rows whose sums are all zero: none), as one statement
    executed for many rows: built and compiled once per dialect (a VALUES list of the batch's
    rows was compiled again by SQLAlchemy on every batch: a seventh of a round's CPU)."""
    values = [dict(zip(KEY, key, strict=True), **dict(zip(SUMS, sums, strict=True)))
              for key, sums in sorted(deltas.rows.items()) if any(sums)]
    if values:
        conn.execute(_upsert(conn.dialect.name), values)


@lru_cache(maxsize=4)
def _upsert(dialect: str) -> Any:
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(meter_days)
    return statement.on_conflict_do_update(
        index_elements=list(KEY),
        set_={c: getattr(meter_days.c, c) + getattr(statement.excluded, c) for c in SUMS})
