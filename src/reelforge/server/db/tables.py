"""Every table of the server, as SQLAlchemy Core (the services write SQL, not ORM objects:
the round path is a handful of statements per request and stays visible).

Money columns are integer minor units (BigInteger); the jackpot pool keeps its contributions
in 1/10,000 of a minor unit (`POOL_SCALE`) so that no fraction of a contribution is lost.
The database itself refuses a negative player balance (`ck_accounts_no_overdraft`) and a
second open round of one game for one player (`uq_rounds_open`, a partial unique index).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

# Integer primary keys: BIGINT on PostgreSQL, SQLite's rowid alias (INTEGER) there.
Id = BigInteger().with_variant(Integer, "sqlite")
Money = BigInteger  # minor units
Time = BigInteger  # microseconds since the Unix epoch, UTC, from the server's clock

POOL_SCALE = 10_000  # jackpot pool units per minor unit: a contribution in basis points is exact

OPEN_STATUSES = ("open", "debited", "outcome_committed", "credited")
ROUND_STATUSES = OPEN_STATUSES + ("closed", "cancelled")

metadata = MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

operators = Table(
    "operators", metadata,
    Column("id", String(64), primary_key=True),
    Column("name", Text, nullable=False),
    Column("wallet_mode", String(16), nullable=False),  # "ledger" or "seamless"
    Column("wallet_url", Text),
    Column("created_at", Time, nullable=False),
    CheckConstraint("wallet_mode IN ('ledger', 'seamless')", name="wallet_mode"),
)

# One row per (operator, game key): which game file plays it and the operator's settings.
game_configs = Table(
    "game_configs", metadata,
    Column("operator_id", String(64), ForeignKey("operators.id"), primary_key=True),
    Column("game_key", String(64), primary_key=True),
    Column("game_id", String(128), nullable=False),  # the RTP variant: a shipped game id
    Column("currency", String(3), nullable=False),
    Column("denomination", Integer, nullable=False),  # minor units per credit
    Column("gamble", String(8), nullable=False),  # on / 5x / off (games without a gamble: on)
    Column("win_cap_minor", Money),  # the operator's cap on one round's payment; null: none
    Column("jurisdiction", String(16), nullable=False),
    Column("enabled", Boolean, nullable=False),
    Column("updated_at", Time, nullable=False),
    # H2: when the configuration first offered the game, and when it stopped offering it
    # (migration 0007); offered again, the game is available again from then.
    Column("available_since", Time),
    Column("decommissioned_at", Time),
)

players = Table(
    "players", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("operator_id", String(64), ForeignKey("operators.id"), nullable=False),
    Column("external_id", String(128), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("jurisdiction", String(16), nullable=False),
    Column("max_stake_minor", Money),  # the operator's per-player stake limit (UK age bands)
    Column("last_round_at", Time),  # start of the player's latest round: the pace rules
    Column("created_at", Time, nullable=False),
    UniqueConstraint("operator_id", "external_id"),
)

sessions = Table(
    "sessions", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("token_sha256", String(64), nullable=False, unique=True),
    Column("player_id", BigInteger, ForeignKey("players.id"), nullable=False),
    Column("created_at", Time, nullable=False),
    Column("expires_at", Time, nullable=False),
    Column("balance_at_start", Money, nullable=False),
)

# A launch token is used once: its nonce is kept until it would have expired anyway.
launch_nonces = Table(
    "launch_nonces", metadata,
    # "<operator id>:<nonce>": 64 (settings.py) + 1 + 64 (services/tokens.py) characters
    Column("nonce", String(129), primary_key=True),
    Column("expires_at", Time, nullable=False),
)

accounts = Table(
    "accounts", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("kind", String(20), nullable=False),  # player, house, jackpot_pool, jackpot_liability
    Column("owner", String(128), nullable=False),  # player id, operator id or pool key
    Column("currency", String(3), nullable=False),
    Column("balance", Money, nullable=False),
    UniqueConstraint("kind", "owner", "currency"),
    CheckConstraint("kind IN ('player', 'house', 'jackpot_pool', 'jackpot_liability')",
                    name="kind"),
    # The house is the counterparty and may be short; nobody else can go below zero.
    CheckConstraint("kind = 'house' OR balance >= 0", name="no_overdraft"),
)

# Double entry: every movement is two rows of one `txn` whose amounts sum to zero.
ledger_entries = Table(
    "ledger_entries", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("txn", String(96), nullable=False),  # round id : step : what, unique per movement
    Column("account_id", BigInteger, ForeignKey("accounts.id"), nullable=False),
    Column("amount", Money, nullable=False),  # + into the account, - out of it
    Column("balance_after", Money, nullable=False),
    Column("kind", String(24), nullable=False),  # stake, win, contribution, seed, claim, deposit ...
    Column("round_id", String(36)),
    Column("step", Integer),
    Column("created_at", Time, nullable=False),
    UniqueConstraint("txn", "account_id"),
    CheckConstraint("amount <> 0", name="nonzero"),
)
Index("ix_ledger_entries_account", ledger_entries.c.account_id, ledger_entries.c.id)
Index("ix_ledger_entries_round", ledger_entries.c.round_id)

rounds = Table(
    "rounds", metadata,
    Column("id", String(36), primary_key=True),
    Column("player_id", BigInteger, ForeignKey("players.id"), nullable=False),
    Column("session_id", BigInteger, ForeignKey("sessions.id")),
    Column("request_id", String(64), nullable=False),
    Column("game_key", String(64), nullable=False),
    Column("game_id", String(128), nullable=False),
    Column("game_sha256", String(64), nullable=False),
    Column("status", String(20), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("denomination", Integer, nullable=False),
    # The operator's rules the round started under, pinned (migration 0002): every later step
    # reads these, never today's configuration. `gamble` null: a round from before the pin.
    Column("gamble", String(8)),
    Column("win_cap_minor", Money),  # null (with `gamble` set): no cap
    Column("bet", Text, nullable=False),  # JSON: lines, bet_per_line, mode
    Column("stake_minor", Money, nullable=False),  # what the round cost the player
    Column("win_minor", Money),  # what it paid (after the operator's cap), once credited
    Column("funded_by", String(36)),  # the round whose Spin Chance paid for this one
    Column("seed", String(64)),  # hex; the outcome is fixed by it and the bet
    Column("outcome", Text),  # JSON Outcome, committed with the debit
    Column("phase", Text),  # JSON: the offers and what the choices still wait for
    Column("jackpot_claim_id", BigInteger),
    Column("created_at", Time, nullable=False),
    Column("updated_at", Time, nullable=False),
    Column("closed_at", Time),
    UniqueConstraint("player_id", "request_id"),
    CheckConstraint(f"status IN {ROUND_STATUSES!r}", name="status"),
)
Index("ix_rounds_player_created", rounds.c.player_id, rounds.c.created_at)
# At most one unfinished round per player and game (GLI-19 4.16.3): the database says so.
Index("uq_rounds_open", rounds.c.player_id, rounds.c.game_key, unique=True,
      sqlite_where=text("status NOT IN ('closed', 'cancelled')"),
      postgresql_where=text("status NOT IN ('closed', 'cancelled')"))

# Voided rounds per game and day (H2): few, so a partial index keeps their count cheap.
Index("ix_rounds_cancelled", rounds.c.created_at,
      sqlite_where=text("status = 'cancelled'"), postgresql_where=text("status = 'cancelled'"))

# A player's choice, one row per step of a round: its seed replays it exactly.
round_steps = Table(
    "round_steps", metadata,
    Column("round_id", String(36), ForeignKey("rounds.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("request_id", String(64), nullable=False),
    Column("kind", String(24), nullable=False),  # the offer kind
    Column("choice", Text, nullable=False),  # JSON
    Column("seed", String(64), nullable=False),
    Column("result", Text, nullable=False),  # JSON: the state after the step, money moved
    Column("created_at", Time, nullable=False),
    UniqueConstraint("round_id", "request_id"),
)

jackpot_pools = Table(
    "jackpot_pools", metadata,
    Column("key", String(96), primary_key=True),  # name/currency: every variant shares it
    Column("currency", String(3), nullable=False),
    Column("units", BigInteger, nullable=False),  # the pool in POOL_SCALE units of a minor unit
    Column("credited_minor", Money, nullable=False),  # whole minor units moved into the ledger
    Column("seed_minor", Money, nullable=False),
    Column("contribution_bp", Integer, nullable=False),
    Column("contributions_units", BigInteger, nullable=False),  # every contribution, ever
    Column("seeded_minor", Money, nullable=False),  # every seed funding, ever
    Column("paid_minor", Money, nullable=False),  # every claim, ever
    Column("wins", Integer, nullable=False),
    Column("enabled", Boolean, nullable=False),
    Column("created_at", Time, nullable=False),
    Column("updated_at", Time, nullable=False),
    # The ceiling (migration 0006, standards.md G2/G8): null, none. Past it, contributions go
    # to the overflow pool, in the same units; the next reset is seeded from it first.
    Column("ceiling_minor", Money),
    Column("overflow_units", BigInteger, nullable=False, server_default="0"),
    Column("overflow_credited_minor", Money, nullable=False, server_default="0"),
    Column("overflow_seeded_minor", Money, nullable=False, server_default="0"),  # resets, ever
    Column("decommissioned_at", Time),  # G8: no configured game feeds it any more (0007)
    CheckConstraint("units >= 0", name="nonnegative"),
)

jackpot_claims = Table(
    "jackpot_claims", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("pool_key", String(96), ForeignKey("jackpot_pools.key"), nullable=False),
    Column("round_id", String(36), nullable=False, unique=True),
    Column("player_id", BigInteger, ForeignKey("players.id"), nullable=False),
    Column("amount_minor", Money, nullable=False),
    Column("instalments", Text, nullable=False),  # JSON: first, then 19 annual, in minor units
    Column("status", String(24), nullable=False),  # pending_verification, verified, paid
    Column("created_at", Time, nullable=False),
    Column("verified_by", String(64)),  # the manager who verified it (migration 0006)
    Column("verified_at", Time),
)

# Seamless wallet: the calls owed to the operator, written with the state they belong to.
outbox = Table(
    "outbox", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("transaction_id", String(96), nullable=False, unique=True),
    Column("operator_id", String(64), nullable=False),
    Column("round_id", String(36), nullable=False),
    Column("kind", String(12), nullable=False),  # debit, credit, rollback
    Column("body", Text, nullable=False),  # JSON sent, the same on every retry
    Column("status", String(12), nullable=False),  # pending, done, failed
    Column("attempts", Integer, nullable=False),
    Column("next_at", Time, nullable=False),
    Column("response", Text),
    Column("created_at", Time, nullable=False),
    Column("updated_at", Time, nullable=False),
)
Index("ix_outbox_pending", outbox.c.status, outbox.c.next_at)

# Append-only, hash-chained: each row's hash covers the previous row's hash of its chain, and
# the head table holds each chain's last hash, so an edited, inserted or deleted row shows.
audit_log = Table(
    "audit_log", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("chain", String(96), nullable=False),  # player:<id>, jackpot:<key>, operator:<id>
    Column("seq", BigInteger, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("payload", Text, nullable=False),  # canonical JSON
    Column("created_at", Time, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    UniqueConstraint("chain", "seq"),
)

# Each server process's life (H4's periods of unavailability, backoffice/events.py): its start,
# a heartbeat every services/incidents.HEARTBEAT_S and its clean stop; a process killed keeps
# no stop, and its last heartbeat says when it was last up.
server_processes = Table(
    "server_processes", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("started_at", Time, nullable=False),
    Column("last_seen_at", Time, nullable=False),
    Column("stopped_at", Time),
)

# The kinds every round or session writes, by the million: the significant-events log (H4,
# backoffice/events.py) is every other kind, read through this partial index by time.
ROUTINE_AUDIT_KINDS = ("round.opened", "round.outcome", "round.credited", "round.credit_queued",
                       "round.closed", "round.step", "round.banked", "session.opened",
                       "player.created")
_SIGNIFICANT = text("kind NOT IN (" + ", ".join(f"'{k}'" for k in ROUTINE_AUDIT_KINDS) + ")")
Index("ix_audit_log_significant", audit_log.c.created_at,
      sqlite_where=_SIGNIFICANT, postgresql_where=_SIGNIFICANT)

audit_heads = Table(
    "audit_heads", metadata,
    Column("chain", String(96), primary_key=True),
    Column("seq", BigInteger, nullable=False),
    Column("hash", String(64), nullable=False),
)

# The back office (server/backoffice/): the operator's staff, a separate door from the players'.
STAFF_ROLES = ("viewer", "manager", "auditor")

staff = Table(
    "staff", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("password_hash", Text, nullable=False),  # argon2id, in its own encoded form
    Column("failed_sign_ins", Integer, nullable=False),  # wrong passwords since the last good
    Column("locked_until", Time),  # after too many: no sign-in before this time
    Column("created_at", Time, nullable=False),
    CheckConstraint(f"role IN {STAFF_ROLES!r}", name="role"),
)

# A staff session: only the token's SHA-256 is stored, as for players' sessions.
staff_sessions = Table(
    "staff_sessions", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("token_sha256", String(64), nullable=False, unique=True),
    Column("staff_id", BigInteger, ForeignKey("staff.id"), nullable=False),
    Column("created_at", Time, nullable=False),
    Column("last_seen_at", Time, nullable=False),
)

# The back office's switch per game: a game plays new rounds only when both the configuration
# file's `enabled` and this switch (absent: on) say so.
game_switches = Table(
    "game_switches", metadata,
    Column("operator_id", String(64), ForeignKey("operators.id"), primary_key=True),
    Column("game_key", String(64), primary_key=True),
    Column("enabled", Boolean, nullable=False),
    Column("updated_at", Time, nullable=False),
    Column("updated_by", String(64), nullable=False),  # the staff member's name
)

# The back office's meters (services/meter_rows.py), kept by the writer in the transaction of
# each ledger movement: per operator, game, mode, currency, UTC day (the day the round
# started), kind of play and house shard, the rounds, turnover and wins. Sharded like the house
# accounts (the player id modulo ledger.HOUSE_SHARDS): one row per game and day would serialize
# every round of a game on PostgreSQL. Reports sum the shards.
METER_KINDS = ("paytable", "gamble", "balance_wager")

meter_days = Table(
    "meter_days", metadata,
    Column("day", Integer, primary_key=True),  # days since 1970-01-01, UTC
    Column("operator_id", String(64), primary_key=True),
    Column("game_key", String(64), primary_key=True),
    Column("mode", String(32), primary_key=True),
    Column("currency", String(3), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("shard", Integer, primary_key=True),
    Column("rounds", BigInteger, nullable=False),
    Column("turnover", Money, nullable=False),
    Column("wins", Money, nullable=False),
    Column("turnover_sq", BigInteger, nullable=False),  # sum of squared stakes (the RTP band)
    CheckConstraint(f"kind IN {METER_KINDS!r}", name="kind"),
)

# The live RTP monitor's alerts (backoffice/monitor.py): one per game, mode, currency and UTC
# day at most (the unique key: several server processes run the check, one raises the alert).
monitor_alerts = Table(
    "monitor_alerts", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("operator_id", String(64), nullable=False),
    Column("game_key", String(64), nullable=False),
    Column("mode", String(32), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("day", Integer, nullable=False),
    Column("body", Text, nullable=False),  # JSON: the arithmetic (rounds, turnover, z, band ...)
    Column("webhook", Text),  # what the webhook answered, or why it was not reached
    Column("created_at", Time, nullable=False),
    UniqueConstraint("operator_id", "game_key", "mode", "currency", "day"),
)

# A verified jackpot claim's instalments (server/backoffice/jackpot_control.py): one row each,
# due from the verification on, each paid from the jackpot liability to the player's account
# by a manager, in order, once due.
jackpot_instalments = Table(
    "jackpot_instalments", metadata,
    Column("claim_id", BigInteger, ForeignKey("jackpot_claims.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # 0: on verification, i: year i
    Column("amount_minor", Money, nullable=False),
    Column("due_at", Time, nullable=False),
    Column("paid_at", Time),
    Column("paid_by", String(64)),
    Column("txn", String(96)),  # the ledger txn that paid it
    CheckConstraint("amount_minor >= 0", name="nonnegative"),
)

# Supervised corrections of accounting data (standards.md H5, server/backoffice/corrections.py):
# one manager proposes an adjustment of a player's balance, another approves or rejects it.
CORRECTION_STATUSES = ("proposed", "applied", "rejected")

corrections = Table(
    "corrections", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("operator_id", String(64), ForeignKey("operators.id"), nullable=False),
    Column("player_id", BigInteger, ForeignKey("players.id"), nullable=False),
    Column("amount_minor", Money, nullable=False),  # + to the player, - from the player
    Column("reason", Text, nullable=False),
    Column("status", String(12), nullable=False),
    Column("proposed_by", String(64), nullable=False),
    Column("proposed_at", Time, nullable=False),
    Column("decided_by", String(64)),
    Column("decided_at", Time),
    Column("note", Text),  # the approver's or rejecter's word
    Column("balance_before", Money),  # once applied
    Column("balance_after", Money),
    Column("txn", String(96)),
    CheckConstraint("amount_minor <> 0", name="nonzero"),
    CheckConstraint(f"status IN {CORRECTION_STATUSES!r}", name="status"),
    # Two people: whoever decides is not whoever proposed (the service says so in words).
    CheckConstraint("decided_by IS NULL OR decided_by <> proposed_by", name="two_people"),
)
