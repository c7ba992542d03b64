"""A round's own rules pinned in its row: the operator's gamble setting and win cap when the
round started (its denomination already is), so a round held open across a change of
configuration and a restart finishes under the rules it started with (issue 23).

Rows from before this revision keep both columns null: `gamble` null marks a round whose
rules were not pinned (its gamble setting is in its phase, its cap is read from the
configuration, as before).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain nullable ADD COLUMN: SQLite and PostgreSQL both add it in place, no table copy.
    op.add_column("rounds", sa.Column("gamble", sa.String(8)))
    op.add_column("rounds", sa.Column("win_cap_minor", sa.BigInteger()))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("win_cap_minor")
        batch.drop_column("gamble")
