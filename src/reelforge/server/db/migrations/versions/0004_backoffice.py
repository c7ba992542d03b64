"""The back office: staff accounts, their sessions, and the per-game switch.

Written out by hand, like 0001: it must keep creating this revision's tables after tables.py
moves on.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "staff",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.Text(), nullable=False),
        sa.Column("failed_sign_ins", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.BigInteger()),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staff")),
        sa.UniqueConstraint("name", name=op.f("uq_staff_name")),
        sa.CheckConstraint("role IN ('viewer', 'manager', 'auditor')",
                           name=op.f("ck_staff_role")),
    )
    op.create_table(
        "staff_sessions",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("staff_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("last_seen_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staff_sessions")),
        sa.UniqueConstraint("token_sha256", name=op.f("uq_staff_sessions_token_sha256")),
        sa.ForeignKeyConstraint(["staff_id"], ["staff.id"],
                                name=op.f("fk_staff_sessions_staff_id_staff")),
    )
    op.create_table(
        "game_switches",
        sa.Column("operator_id", sa.String(64), nullable=False),
        sa.Column("game_key", sa.String(64), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.Column("updated_by", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("operator_id", "game_key", name=op.f("pk_game_switches")),
        sa.ForeignKeyConstraint(["operator_id"], ["operators.id"],
                                name=op.f("fk_game_switches_operator_id_operators")),
    )


def downgrade() -> None:
    for table in ("game_switches", "staff_sessions", "staff"):
        op.drop_table(table)
