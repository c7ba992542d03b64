"""launch_nonces.nonce holds `<operator id>:<nonce>`: up to 64 + 1 + 64 characters, not 64.

The operator id may be 64 characters (settings.py) and the nonce 64 (services/tokens.py), so
a correctly signed launch with a nonce of 60 to 64 characters overflowed VARCHAR(64) on
PostgreSQL: a 500 where the player should have had a session (issue 23). Widening a VARCHAR
rewrites no row on PostgreSQL; SQLite ignores the length and batch mode copies the table.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("launch_nonces") as batch:
        batch.alter_column("nonce", type_=sa.String(129), existing_type=sa.String(64),
                           existing_nullable=False)


def downgrade() -> None:
    # A longer nonce stored meanwhile would not fit back: downgrading loses only the replay
    # guard of launches not yet expired (at most a day), so those rows go.
    op.execute("DELETE FROM launch_nonces WHERE length(nonce) > 64")
    with op.batch_alter_table("launch_nonces") as batch:
        batch.alter_column("nonce", type_=sa.String(64), existing_type=sa.String(129),
                           existing_nullable=False)
