"""The server's first schema: every table of tables.py as it stood at release 0.1.

Written out by hand, not `metadata.create_all`: a migration must keep creating the schema of
its own revision after tables.py has moved on. Every constraint is named explicitly (op.f marks
a name as final, so the naming convention is not applied twice); the names are those the
convention of tables.py produces, which later migrations rely on to drop or alter them.

Revision ID: 0001
Revises: none
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Integer primary keys: BIGINT on PostgreSQL; on SQLite only INTEGER is the rowid alias.
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

OPEN_ROUNDS = "status NOT IN ('closed', 'cancelled')"


def upgrade() -> None:
    op.create_table(
        "operators",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("wallet_mode", sa.String(16), nullable=False),
        sa.Column("wallet_url", sa.Text()),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operators")),
        sa.CheckConstraint("wallet_mode IN ('ledger', 'seamless')",
                           name=op.f("ck_operators_wallet_mode")),
    )
    op.create_table(
        "game_configs",
        sa.Column("operator_id", sa.String(64), nullable=False),
        sa.Column("game_key", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(128), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("denomination", sa.Integer(), nullable=False),
        sa.Column("gamble", sa.String(8), nullable=False),
        sa.Column("win_cap_minor", sa.BigInteger()),
        sa.Column("jurisdiction", sa.String(16), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("operator_id", "game_key", name=op.f("pk_game_configs")),
        sa.ForeignKeyConstraint(["operator_id"], ["operators.id"],
                                name=op.f("fk_game_configs_operator_id_operators")),
    )
    op.create_table(
        "players",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("operator_id", sa.String(64), nullable=False),
        sa.Column("external_id", sa.String(128), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("jurisdiction", sa.String(16), nullable=False),
        sa.Column("max_stake_minor", sa.BigInteger()),
        sa.Column("last_round_at", sa.BigInteger()),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.ForeignKeyConstraint(["operator_id"], ["operators.id"],
                                name=op.f("fk_players_operator_id_operators")),
        sa.UniqueConstraint("operator_id", "external_id", name=op.f("uq_players_operator_id")),
    )
    op.create_table(
        "sessions",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.Column("balance_at_start", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_sessions_player_id_players")),
        sa.UniqueConstraint("token_sha256", name=op.f("uq_sessions_token_sha256")),
    )
    op.create_table(
        "launch_nonces",
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("nonce", name=op.f("pk_launch_nonces")),
    )
    op.create_table(
        "accounts",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("owner", sa.String(128), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("kind", "owner", "currency", name=op.f("uq_accounts_kind")),
        sa.CheckConstraint("kind IN ('player', 'house', 'jackpot_pool', 'jackpot_liability')",
                           name=op.f("ck_accounts_kind")),
        sa.CheckConstraint("kind = 'house' OR balance >= 0",
                           name=op.f("ck_accounts_no_overdraft")),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("txn", sa.String(96), nullable=False),
        sa.Column("account_id", sa.BigInteger(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("round_id", sa.String(36)),
        sa.Column("step", sa.Integer()),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name=op.f("fk_ledger_entries_account_id_accounts")),
        sa.UniqueConstraint("txn", "account_id", name=op.f("uq_ledger_entries_txn")),
        sa.CheckConstraint("amount <> 0", name=op.f("ck_ledger_entries_nonzero")),
    )
    op.create_index(op.f("ix_ledger_entries_account"), "ledger_entries", ["account_id", "id"])
    op.create_index(op.f("ix_ledger_entries_round"), "ledger_entries", ["round_id"])
    op.create_table(
        "rounds",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("session_id", sa.BigInteger()),
        sa.Column("request_id", sa.String(64), nullable=False),
        sa.Column("game_key", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(128), nullable=False),
        sa.Column("game_sha256", sa.String(64), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("denomination", sa.Integer(), nullable=False),
        sa.Column("bet", sa.Text(), nullable=False),
        sa.Column("stake_minor", sa.BigInteger(), nullable=False),
        sa.Column("win_minor", sa.BigInteger()),
        sa.Column("funded_by", sa.String(36)),
        sa.Column("seed", sa.String(64)),
        sa.Column("outcome", sa.Text()),
        sa.Column("phase", sa.Text()),
        sa.Column("jackpot_claim_id", sa.BigInteger()),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.Column("closed_at", sa.BigInteger()),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_rounds_player_id_players")),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"],
                                name=op.f("fk_rounds_session_id_sessions")),
        sa.UniqueConstraint("player_id", "request_id", name=op.f("uq_rounds_player_id")),
        sa.CheckConstraint(
            "status IN ('open', 'debited', 'outcome_committed', 'credited', 'closed', "
            "'cancelled')",
            name=op.f("ck_rounds_status")),
    )
    op.create_index(op.f("ix_rounds_player_created"), "rounds", ["player_id", "created_at"])
    # At most one unfinished round per player and game (GLI-19 4.16.3).
    op.create_index(op.f("uq_rounds_open"), "rounds", ["player_id", "game_key"], unique=True,
                    sqlite_where=sa.text(OPEN_ROUNDS), postgresql_where=sa.text(OPEN_ROUNDS))
    op.create_table(
        "round_steps",
        sa.Column("round_id", sa.String(36), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("choice", sa.Text(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("round_id", "idx", name=op.f("pk_round_steps")),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"],
                                name=op.f("fk_round_steps_round_id_rounds")),
        sa.UniqueConstraint("round_id", "request_id", name=op.f("uq_round_steps_round_id")),
    )
    op.create_table(
        "jackpot_pools",
        sa.Column("key", sa.String(96), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("units", sa.BigInteger(), nullable=False),
        sa.Column("credited_minor", sa.BigInteger(), nullable=False),
        sa.Column("seed_minor", sa.BigInteger(), nullable=False),
        sa.Column("contribution_bp", sa.Integer(), nullable=False),
        sa.Column("contributions_units", sa.BigInteger(), nullable=False),
        sa.Column("seeded_minor", sa.BigInteger(), nullable=False),
        sa.Column("paid_minor", sa.BigInteger(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_jackpot_pools")),
        sa.CheckConstraint("units >= 0", name=op.f("ck_jackpot_pools_nonnegative")),
    )
    op.create_table(
        "jackpot_claims",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("pool_key", sa.String(96), nullable=False),
        sa.Column("round_id", sa.String(36), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("instalments", sa.Text(), nullable=False),
        sa.Column("status", sa.String(24), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_jackpot_claims")),
        sa.ForeignKeyConstraint(["pool_key"], ["jackpot_pools.key"],
                                name=op.f("fk_jackpot_claims_pool_key_jackpot_pools")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_jackpot_claims_player_id_players")),
        sa.UniqueConstraint("round_id", name=op.f("uq_jackpot_claims_round_id")),
    )
    op.create_table(
        "outbox",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("transaction_id", sa.String(96), nullable=False),
        sa.Column("operator_id", sa.String(64), nullable=False),
        sa.Column("round_id", sa.String(36), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.BigInteger(), nullable=False),
        sa.Column("response", sa.Text()),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("transaction_id", name=op.f("uq_outbox_transaction_id")),
    )
    op.create_index(op.f("ix_outbox_pending"), "outbox", ["status", "next_at"])
    op.create_table(
        "audit_log",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("chain", sa.String(96), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
        sa.UniqueConstraint("chain", "seq", name=op.f("uq_audit_log_chain")),
    )
    op.create_table(
        "audit_heads",
        sa.Column("chain", sa.String(96), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("chain", name=op.f("pk_audit_heads")),
    )


def downgrade() -> None:
    # Children before the tables they reference.
    for index, table in (("ix_outbox_pending", "outbox"), ("uq_rounds_open", "rounds"),
                         ("ix_rounds_player_created", "rounds"),
                         ("ix_ledger_entries_round", "ledger_entries"),
                         ("ix_ledger_entries_account", "ledger_entries")):
        op.drop_index(op.f(index), table_name=table)
    for table in ("audit_heads", "audit_log", "outbox", "jackpot_claims", "jackpot_pools",
                  "round_steps", "rounds", "ledger_entries", "accounts", "launch_nonces",
                  "sessions", "players", "game_configs", "operators"):
        op.drop_table(table)
