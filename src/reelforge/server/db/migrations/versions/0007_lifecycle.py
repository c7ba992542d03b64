"""The lives of games and pools and the significant-events log (standards.md G8, H2, H4):
when the configuration first offered a game and when it stopped offering it, when a jackpot
pool lost its last game, each server process's life (its periods of
unavailability), a partial index over the audit log's significant kinds and one over
voided rounds.

Written out by hand, like 0006: it must keep creating this revision's schema after tables.py
moves on. A game configured before this revision is taken as available since its last
configuration change (the earliest date this database still knows).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# As tables.ROUTINE_AUDIT_KINDS was at this revision.
ROUTINE = ("round.opened", "round.outcome", "round.credited", "round.credit_queued",
           "round.closed", "round.step", "round.banked", "session.opened", "player.created")
SIGNIFICANT = "kind NOT IN (" + ", ".join(f"'{k}'" for k in ROUTINE) + ")"
CANCELLED = "status = 'cancelled'"
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column("game_configs", sa.Column("available_since", sa.BigInteger()))
    op.add_column("game_configs", sa.Column("decommissioned_at", sa.BigInteger()))
    op.execute("UPDATE game_configs SET available_since = updated_at")
    op.add_column("jackpot_pools", sa.Column("decommissioned_at", sa.BigInteger()))
    op.create_table(
        "server_processes",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.BigInteger(), nullable=False),
        sa.Column("last_seen_at", sa.BigInteger(), nullable=False),
        sa.Column("stopped_at", sa.BigInteger()),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_server_processes")),
    )
    op.create_index("ix_audit_log_significant", "audit_log", ["created_at"],
                    sqlite_where=sa.text(SIGNIFICANT), postgresql_where=sa.text(SIGNIFICANT))
    op.create_index("ix_rounds_cancelled", "rounds", ["created_at"],
                    sqlite_where=sa.text(CANCELLED), postgresql_where=sa.text(CANCELLED))


def downgrade() -> None:
    op.drop_index("ix_rounds_cancelled", table_name="rounds")
    op.drop_index("ix_audit_log_significant", table_name="audit_log")
    op.drop_table("server_processes")
    with op.batch_alter_table("jackpot_pools") as batch:
        batch.drop_column("decommissioned_at")
    with op.batch_alter_table("game_configs") as batch:
        batch.drop_column("decommissioned_at")
        batch.drop_column("available_since")
