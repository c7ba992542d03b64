"""The back office's summary meters (kept by the writer from now on) and the live RTP
monitor's alerts.

Written out by hand, like 0001. The meters of rounds played before this revision are filled
from the ledger here, by the writer's own rule (`meter_rows.classify`); a gamble's result
played before it stays inside the paytable's wins (the outcome it would be split from is not
read here), which the back office's meters then show as they did before.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import json
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
US_PER_DAY = 86_400 * 1_000_000
SHARDS = 16


def upgrade() -> None:
    op.create_table(
        "meter_days",
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("operator_id", sa.String(64), nullable=False),
        sa.Column("game_key", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(32), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("shard", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.BigInteger(), nullable=False),
        sa.Column("turnover", sa.BigInteger(), nullable=False),
        sa.Column("wins", sa.BigInteger(), nullable=False),
        sa.Column("turnover_sq", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("day", "operator_id", "game_key", "mode", "currency", "kind",
                                "shard", name=op.f("pk_meter_days")),
        sa.CheckConstraint("kind IN ('paytable', 'gamble', 'balance_wager')",
                           name=op.f("ck_meter_days_kind")),
    )
    op.create_table(
        "monitor_alerts",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("operator_id", sa.String(64), nullable=False),
        sa.Column("game_key", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(32), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("webhook", sa.Text()),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_monitor_alerts")),
        sa.UniqueConstraint("operator_id", "game_key", "mode", "currency", "day",
                            name=op.f("uq_monitor_alerts_operator_id")),
    )
    _backfill()


def _backfill() -> None:
    """The meters of the rounds already in the ledger: one grouped scan, classified and
    summed here (per group: entries, their amounts and squared amounts)."""
    from reelforge.server.services.meter_rows import classify

    conn = op.get_bind()
    groups = conn.execute(sa.text(
        "SELECT p.operator_id, r.game_key, r.bet, r.currency, r.created_at / :day AS day, "
        "r.player_id % :shards AS shard, e.kind, e.amount > 0 AS into_house, "
        "e.step IS NOT NULL AS stepped, r.funded_by IS NOT NULL AS funded, "
        "count(*) AS n, sum(e.amount) AS total, sum(e.amount * e.amount) AS total_sq "
        "FROM ledger_entries e JOIN accounts a ON a.id = e.account_id AND a.kind = 'house' "
        "JOIN rounds r ON r.id = e.round_id JOIN players p ON p.id = r.player_id "
        "GROUP BY p.operator_id, r.game_key, r.bet, r.currency, r.created_at / :day, "
        "r.player_id % :shards, e.kind, e.amount > 0, e.step IS NOT NULL, "
        "r.funded_by IS NOT NULL"), {"day": US_PER_DAY, "shards": SHARDS}).all()
    sums: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for g in groups:
        found = classify(g.kind, bool(g.into_house), bool(g.stepped), bool(g.funded))
        if found is None:
            continue
        meter, column = found
        mode = str(json.loads(g.bet).get("mode", "base"))
        row = sums[(int(g.day), g.operator_id, g.game_key, mode, g.currency, meter,
                    int(g.shard))]
        if column == "turnover":
            row[0] += int(g.n)
            row[1] += int(g.total)
            row[3] += int(g.total_sq)
        else:
            row[2] -= int(g.total)  # out of the house: negative amounts
    if sums:
        table = sa.table("meter_days", *(sa.column(c) for c in (
            "day", "operator_id", "game_key", "mode", "currency", "kind", "shard", "rounds",
            "turnover", "wins", "turnover_sq")))
        conn.execute(sa.insert(table), [
            dict(day=k[0], operator_id=k[1], game_key=k[2], mode=k[3], currency=k[4],
                 kind=k[5], shard=k[6], rounds=v[0], turnover=v[1], wins=v[2],
                 turnover_sq=v[3]) for k, v in sorted(sums.items())])


def downgrade() -> None:
    for table in ("monitor_alerts", "meter_days"):
        op.drop_table(table)
