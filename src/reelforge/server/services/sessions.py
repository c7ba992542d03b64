"""Players and sessions: an operator's signed launch becomes a session; a session token
authenticates every later request and acts only on its own player's money and rounds."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from reelforge.server.context import Context
from reelforge.server.db.tables import launch_nonces, ledger_entries, players, rounds, sessions
from reelforge.server.errors import ApiError
from reelforge.server.services import audit, ledger, tokens
from reelforge.server.services.common import now_us
from reelforge.server.settings import OperatorSettings

US = 1_000_000


@dataclass(frozen=True)
class Auth:
    session_id: int
    player_id: int
    external_id: str
    operator: OperatorSettings
    currency: str
    max_stake_minor: int | None
    started_at: int
    expires_at: int
    balance_at_start: int


def player_account(conn: Connection, auth_or_op: OperatorSettings, player_id: int) -> int:
    return ledger.account_id(conn, "player", str(player_id), auth_or_op.currency)


def house_account(conn: Connection, op: OperatorSettings, player_id: int) -> int:
    return ledger.account_id(conn, "house", ledger.house_owner(op.id, player_id), op.currency)


def _player(conn: Connection, op: OperatorSettings, external_id: str, max_stake: int | None,
            now: int) -> int:
    """The player's id, created (with a demo balance where the operator gives one) on first
    launch. Races between two first launches: the unique key lets one insert win."""
    row = conn.execute(select(players.c.id, players.c.currency).where(
        players.c.operator_id == op.id, players.c.external_id == external_id)).first()
    if row is not None:
        if row.currency != op.currency:
            raise ApiError("CURRENCY_MISMATCH", f"player {external_id!r}: plays in "
                           f"{row.currency}, operator {op.id!r} launches in {op.currency}")
        conn.execute(update(players).where(players.c.id == row.id)
                     .values(max_stake_minor=max_stake))
        return row.id
    player_id = conn.execute(insert(players).values(
        operator_id=op.id, external_id=external_id, currency=op.currency,
        jurisdiction=op.jurisdiction, max_stake_minor=max_stake, created_at=now)
        .returning(players.c.id)).scalar_one()
    if op.wallet == "ledger":
        account = player_account(conn, op, player_id)
        if op.demo_balance_minor:
            ledger.transfer(conn, txn=f"deposit:{player_id}:demo", source=house_account(
                conn, op, player_id), target=account, amount=op.demo_balance_minor,
                kind="deposit", now=now)
    audit.append(conn, f"player:{player_id}", "player.created",
                 {"operator": op.id, "external_id": external_id,
                  "demo_balance_minor": op.demo_balance_minor if op.wallet == "ledger" else None},
                 now)
    return player_id


def open_session(ctx: Context, launch_token: str) -> tuple[str, Auth]:
    """A new session from a launch token (used once); returns the session token."""
    claimed = tokens.launch_operator(launch_token)
    try:
        op = ctx.operator(claimed)
    except ApiError:  # the same answer as a bad signature: which operators exist is no hint
        raise ApiError("INVALID_LAUNCH_TOKEN", "launch token: not signed by an operator of "
                       "this server") from None
    now = now_us()
    claims = tokens.verify_launch(op.secret, launch_token, now // US)
    token = tokens.new_session_token()
    for attempt in range(2):
        try:
            with ctx.begin() as conn:
                conn.execute(insert(launch_nonces).values(nonce=f"{op.id}:{claims.nonce}",
                                                          expires_at=claims.exp * US))
                player_id = _player(conn, op, claims.player, claims.max_stake_minor, now)
                start = balance_of(conn, op, player_id)
                session_id = conn.execute(insert(sessions).values(
                    token_sha256=tokens.token_hash(token), player_id=player_id, created_at=now,
                    expires_at=now + op.session_ttl_s * US, balance_at_start=start)
                    .returning(sessions.c.id)).scalar_one()
                audit.append(conn, f"player:{player_id}", "session.opened",
                             {"session_id": session_id, "operator": op.id}, now)
            break
        except IntegrityError:
            with ctx.begin() as conn:
                used = conn.execute(select(launch_nonces.c.nonce).where(
                    launch_nonces.c.nonce == f"{op.id}:{claims.nonce}")).first()
            if used is not None:
                raise ApiError("INVALID_LAUNCH_TOKEN", f"launch token: nonce {claims.nonce!r} "
                               "was already used") from None
            if attempt:
                raise
    return token, Auth(session_id, player_id, claims.player, op, op.currency,
                       claims.max_stake_minor, now, now + op.session_ttl_s * US, start)


def balance_of(conn: Connection, op: OperatorSettings, player_id: int) -> int:
    if op.wallet != "ledger":
        return 0
    return ledger.balance(conn, player_account(conn, op, player_id))


def net_by_session(conn: Connection, account_id: int, player_id: int,
                   session_id: int | None = None, since_us: int = 0) -> dict[int, int]:
    """Net position per session (standards.md C6), in minor units: what the session's rounds
    moved in and out of the player's account `account_id` in the ledger (stakes -, wins +;
    a win still held by an open gamble is not yet won). Every session of `player_id` with a
    round, or only `session_id` (its rounds were made from `since_us`, its start: the range
    reads the rounds' (player, created) index, so the player API can ask after each round).
    The back office's player lookup and the player's own session view both read this."""
    r, e = rounds, ledger_entries
    query = (select(r.c.session_id, func.coalesce(func.sum(e.c.amount), 0))
             .select_from(e.join(r, r.c.id == e.c.round_id))
             .where(e.c.account_id == account_id, r.c.player_id == player_id)
             .group_by(r.c.session_id))
    if session_id is not None:
        query = query.where(r.c.session_id == session_id, r.c.created_at >= since_us)
    return {int(k): int(v) for k, v in conn.execute(query).tuples().all() if k is not None}


# Built once: every request authenticates, and building a statement costs more than running it.
_SESSIONS = (select(sessions, players.c.operator_id, players.c.external_id, players.c.currency,
                    players.c.max_stake_minor)
             .join(players, players.c.id == sessions.c.player_id)
             .where(sessions.c.token_sha256.in_(bindparam("tokens", expanding=True))))


def authenticate(ctx: Context, token: str | None) -> Auth:
    answer = authenticate_many(ctx, [token])[0]
    if isinstance(answer, ApiError):
        raise answer
    return answer


def authenticate_many(ctx: Context, presented: list[str | None]) -> list[Auth | ApiError]:
    """Each token's session, or the refusal it gets, read in one statement (a batch of bets
    authenticates together: services/round_batch.py)."""
    now = now_us()
    hashes = {t: tokens.token_hash(t) for t in presented if t}
    found: dict[str, Any] = {}
    if hashes:
        with ctx.read(single=True) as conn:
            found = {r.token_sha256: r for r in conn.execute(
                _SESSIONS, {"tokens": sorted(set(hashes.values()))})}
    answers: list[Auth | ApiError] = []
    for token in presented:
        try:
            answers.append(_admit(ctx, found.get(hashes[token]) if token else None, token, now))
        except ApiError as exc:
            answers.append(exc)
    return answers


def _admit(ctx: Context, row: Any, token: str | None, now: int) -> Auth:
    if not token:
        raise ApiError("UNAUTHORIZED", "no session: send Authorization: Bearer <session token>")
    if row is None:
        raise ApiError("UNAUTHORIZED", "session token: not a session of this server")
    if row.expires_at <= now:
        raise ApiError("SESSION_EXPIRED", f"session {row.id}: expired; launch the game again")
    op = ctx.operator(row.operator_id)
    expires = row.expires_at
    if expires - now < op.session_ttl_s * US // 2:  # sliding, written at most twice a TTL
        expires = now + op.session_ttl_s * US
        with ctx.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.id == row.id)
                         .values(expires_at=expires))
    return Auth(row.id, row.player_id, row.external_id, op, row.currency, row.max_stake_minor,
                row.created_at, expires, row.balance_at_start)


def demo_launch(ctx: Context, operator_id: str, ttl_s: int = 600) -> str:
    """A launch token for a new demo player of a demo operator (what `make run` links to)."""
    op = ctx.operator(operator_id)
    if not op.demo_balance_minor:
        raise ApiError("DEMO_DISABLED", f"operator {operator_id!r}: has no demo players")
    claims = tokens.LaunchClaims(op.id, f"demo-{secrets.token_hex(6)}",
                                 now_us() // US + ttl_s, secrets.token_hex(16))
    return tokens.sign_launch(op.secret, claims)


def session_count(conn: Connection) -> int:
    return conn.execute(select(func.count()).select_from(sessions)).scalar_one()
