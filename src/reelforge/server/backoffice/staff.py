"""Staff accounts and their sessions.

Passwords are hashed with argon2id (argon2-cffi's defaults, RFC 9106's low-memory profile). A
session is a random token the browser keeps in an HttpOnly, SameSite=Strict cookie (the page's
script never sees it, and no other site's page can send it); the database keeps only its
SHA-256. A session ends after IDLE_S without a request or MAX_AGE_S after sign-in, whichever
comes first. Every sign-in, failed or not, is a row of the "backoffice" audit chain with the
client's address (standards.md H4). MAX_FAILURES wrong passwords in a row lock the account for
LOCK_S (a password guessed online at argon2's pace is slow; this makes it hopeless).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from reelforge.errors import InvalidArgument
from reelforge.server.context import Context
from reelforge.server.db.tables import STAFF_ROLES, staff, staff_sessions
from reelforge.server.errors import ApiError
from reelforge.server.services import audit
from reelforge.server.services.common import now_us

CHAIN = "backoffice"
IDLE_S = 30 * 60
MAX_AGE_S = 8 * 3600
MIN_PASSWORD = 12
MAX_FAILURES = 5
LOCK_S = 15 * 60
MAX_NAME = 64
# Roles and what each may do: every role reads; only a manager changes anything.
READ, CONTROL = "read", "control"
ALLOWED = {"viewer": {READ}, "auditor": {READ}, "manager": {READ, CONTROL}}
assert set(ALLOWED) == set(STAFF_ROLES)

_hasher = PasswordHasher()


@cache
def _dummy() -> str:
    """Verified against when the name is unknown, so that a wrong name costs as long as a
    wrong password and the answer's time does not tell which names exist (made on first use,
    not at import)."""
    return _hasher.hash(secrets.token_hex(16))


@dataclass(frozen=True)
class Staff:
    id: int
    name: str
    role: str
    session_id: int
    expires_at: int  # microseconds, UTC: the sooner of the idle and the absolute limit

    def require(self, action: str) -> None:
        if action not in ALLOWED[self.role]:
            raise ApiError("FORBIDDEN", f"staff {self.name!r} is a {self.role}: only a "
                           f"manager may {action} (roles: {', '.join(STAFF_ROLES)})")


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    if not (0 < len(name) <= MAX_NAME) or not name.isprintable() or name != name.strip():
        raise InvalidArgument(f"staff name {name!r}: 1 to {MAX_NAME} printable characters, "
                              "without leading or trailing spaces")
    return name


def add(ctx: Context, name: str, role: str, password: str) -> int:
    """Create a staff account; its id. The name must be new."""
    check_name(name)
    if role not in STAFF_ROLES:
        raise InvalidArgument(f"--role = {role!r}: one of {', '.join(STAFF_ROLES)}")
    if len(password) < MIN_PASSWORD:
        raise InvalidArgument(f"the password for {name!r} has {len(password)} characters: at "
                              f"least {MIN_PASSWORD}")
    now = now_us()
    try:
        with ctx.begin() as conn:
            staff_id = conn.execute(insert(staff).values(
                name=name, role=role, password_hash=_hasher.hash(password), failed_sign_ins=0,
                locked_until=None, created_at=now)
                .returning(staff.c.id)).scalar_one()
            audit.append(conn, CHAIN, "staff.added", {"name": name, "role": role}, now)
    except IntegrityError:
        raise InvalidArgument(f"staff name {name!r}: an account of that name exists") from None
    return int(staff_id)


def sign_in(ctx: Context, name: str, password: str, client: str) -> tuple[str, Staff]:
    """A new session for the named staff member (its token and who), or BAD_CREDENTIALS, or
    SIGN_IN_LOCKED while the account is locked; each a row of the audit chain with the
    client's address."""
    now = now_us()
    with ctx.read() as conn:
        row = conn.execute(select(staff).where(staff.c.name == name)).first()
    shown = name[:MAX_NAME]
    if row is not None and row.locked_until is not None and now < row.locked_until:
        until = datetime.fromtimestamp(row.locked_until / 1e6, UTC).strftime("%H:%M:%S UTC")
        with ctx.begin() as conn:
            audit.append(conn, CHAIN, "staff.sign_in_failed",
                         {"name": shown, "client": client, "reason": "locked"}, now)
        raise ApiError("SIGN_IN_LOCKED", f"staff {shown!r}: {MAX_FAILURES} wrong passwords in "
                       f"a row; sign in again after {until}")
    ok = _verified(row.password_hash if row is not None else _dummy(), password) and row is not None
    if not ok or row is None:
        with ctx.begin() as conn:
            audit.append(conn, CHAIN, "staff.sign_in_failed",
                         {"name": shown, "client": client,
                          "reason": "unknown name" if row is None else "wrong password"}, now)
            if row is not None:
                _count_failure(conn, row.id, now)
        raise ApiError("BAD_CREDENTIALS", f"staff {shown!r}: no account with this name and "
                       "password")
    token = secrets.token_urlsafe(32)
    with ctx.begin() as conn:
        conn.execute(update(staff).where(staff.c.id == row.id)
                     .values(failed_sign_ins=0, locked_until=None))
        session_id = conn.execute(insert(staff_sessions).values(
            token_sha256=_sha(token), staff_id=row.id, created_at=now, last_seen_at=now)
            .returning(staff_sessions.c.id)).scalar_one()
        audit.append(conn, CHAIN, "staff.signed_in",
                     {"name": row.name, "role": row.role, "client": client,
                      "session_id": int(session_id)}, now)
    return token, Staff(row.id, row.name, row.role, int(session_id),
                        _expiry(now, now))


def _count_failure(conn: Connection, staff_id: int, now: int) -> None:
    """One more wrong password (under the row's lock); the MAX_FAILURES-th locks the account."""
    failed = conn.execute(select(staff.c.failed_sign_ins).where(staff.c.id == staff_id)
                          .with_for_update()).scalar_one() + 1
    if failed < MAX_FAILURES:
        conn.execute(update(staff).where(staff.c.id == staff_id).values(failed_sign_ins=failed))
        return
    until = now + LOCK_S * 1_000_000
    conn.execute(update(staff).where(staff.c.id == staff_id)
                 .values(failed_sign_ins=0, locked_until=until))
    audit.append(conn, CHAIN, "staff.locked", {"staff_id": staff_id, "failures": failed,
                                                "until_us": until}, now)


def _verified(encoded: str, password: str) -> bool:
    try:
        return _hasher.verify(encoded, password)
    except (VerificationError, InvalidHashError):
        return False


def _expiry(created_at: int, last_seen_at: int) -> int:
    return min(created_at + MAX_AGE_S * 1_000_000, last_seen_at + IDLE_S * 1_000_000)


def authenticate(ctx: Context, token: str | None) -> Staff:
    """The staff member whose live session `token` is (and the session kept alive), or 401."""
    if not token:
        raise ApiError("UNAUTHORIZED", "back office: not signed in (no staff session cookie)")
    now = now_us()
    with ctx.begin() as conn:
        row = conn.execute(
            select(staff_sessions.c.id, staff_sessions.c.created_at,
                   staff_sessions.c.last_seen_at, staff.c.id.label("staff_id"), staff.c.name,
                   staff.c.role)
            .join(staff, staff.c.id == staff_sessions.c.staff_id)
            .where(staff_sessions.c.token_sha256 == _sha(token))).first()
        if row is None:
            raise ApiError("UNAUTHORIZED", "back office: this staff session is unknown or was "
                           "signed out: sign in")
        if now >= _expiry(row.created_at, row.last_seen_at):
            conn.execute(delete(staff_sessions).where(staff_sessions.c.id == row.id))
            raise ApiError("SESSION_EXPIRED", f"back office: the session of {row.name!r} has "
                           f"expired ({IDLE_S // 60} minutes idle or {MAX_AGE_S // 3600} hours "
                           "since sign-in): sign in again")
        conn.execute(update(staff_sessions).where(staff_sessions.c.id == row.id)
                     .values(last_seen_at=now))
    return Staff(row.staff_id, row.name, row.role, row.id, _expiry(row.created_at, now))


def sign_out(ctx: Context, who: Staff) -> None:
    now = now_us()
    with ctx.begin() as conn:
        conn.execute(delete(staff_sessions).where(staff_sessions.c.id == who.session_id))
        audit.append(conn, CHAIN, "staff.signed_out",
                     {"name": who.name, "session_id": who.session_id}, now)

