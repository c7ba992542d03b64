"""Jackpot control and supervised corrections: a pool's ceiling and overflow pool (G2, G8),
who verified a claim and its instalments, and the two-person corrections of a balance (H5).

Written out by hand, like 0004: it must keep creating this revision's schema after tables.py
moves on. Only `down_revision` names the revision before it: re-chained, nothing else changes.

Revision ID: 0006
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    # Plain ADD COLUMNs (nullable, or NOT NULL with a default): in place on both databases.
    op.add_column("jackpot_pools", sa.Column("ceiling_minor", sa.BigInteger()))
    for name in ("overflow_units", "overflow_credited_minor", "overflow_seeded_minor"):
        op.add_column("jackpot_pools", sa.Column(name, sa.BigInteger(), nullable=False,
                                                 server_default="0"))
    op.add_column("jackpot_claims", sa.Column("verified_by", sa.String(64)))
    op.add_column("jackpot_claims", sa.Column("verified_at", sa.BigInteger()))
    op.create_table(
        "jackpot_instalments",
        sa.Column("claim_id", sa.BigInteger(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("due_at", sa.BigInteger(), nullable=False),
        sa.Column("paid_at", sa.BigInteger()),
        sa.Column("paid_by", sa.String(64)),
        sa.Column("txn", sa.String(96)),
        sa.PrimaryKeyConstraint("claim_id", "idx", name=op.f("pk_jackpot_instalments")),
        sa.ForeignKeyConstraint(["claim_id"], ["jackpot_claims.id"],
                                name=op.f("fk_jackpot_instalments_claim_id_jackpot_claims")),
        sa.CheckConstraint("amount_minor >= 0", name=op.f("ck_jackpot_instalments_nonnegative")),
    )
    op.create_table(
        "corrections",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("operator_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("proposed_by", sa.String(64), nullable=False),
        sa.Column("proposed_at", sa.BigInteger(), nullable=False),
        sa.Column("decided_by", sa.String(64)),
        sa.Column("decided_at", sa.BigInteger()),
        sa.Column("note", sa.Text()),
        sa.Column("balance_before", sa.BigInteger()),
        sa.Column("balance_after", sa.BigInteger()),
        sa.Column("txn", sa.String(96)),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_corrections")),
        sa.ForeignKeyConstraint(["operator_id"], ["operators.id"],
                                name=op.f("fk_corrections_operator_id_operators")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_corrections_player_id_players")),
        sa.CheckConstraint("amount_minor <> 0", name=op.f("ck_corrections_nonzero")),
        sa.CheckConstraint("status IN ('proposed', 'applied', 'rejected')",
                           name=op.f("ck_corrections_status")),
        sa.CheckConstraint("decided_by IS NULL OR decided_by <> proposed_by",
                           name=op.f("ck_corrections_two_people")),
    )


def downgrade() -> None:
    op.drop_table("corrections")
    op.drop_table("jackpot_instalments")
    with op.batch_alter_table("jackpot_claims") as batch:
        batch.drop_column("verified_at")
        batch.drop_column("verified_by")
    with op.batch_alter_table("jackpot_pools") as batch:
        for name in ("overflow_seeded_minor", "overflow_credited_minor", "overflow_units",
                     "ceiling_minor"):
            batch.drop_column(name)
