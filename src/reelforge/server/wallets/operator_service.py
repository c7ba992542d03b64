"""The reference operator wallet: the other side of the seamless wallet contract (`protocol`),
small enough to read, strict enough to test the game server against. A test double and a demo,
not the game server's schema: it keeps its own tables, created at start.

Every wallet call checks, applies and records in ONE database transaction that first locks the
player's row (BEGIN IMMEDIATE on SQLite, SELECT ... FOR UPDATE on PostgreSQL), so that
concurrent calls for one player serialize and a transaction id is applied at most once (its
unique index backs that up). Refusals are not recorded: a refused debit may be retried.

Admin endpoints (signed like the rest) set balances, list transactions and inject faults:

    POST /admin/players       {player, currency, balance}    create, or set balance and currency
    POST /admin/faults        {kind, mode, count[, delay_s]} the next `count` calls of `kind` fail
    GET  /admin/transactions?player=..                       the player's transactions, in order
    GET  /admin/report?after=SEQ&limit=N                     every transaction, in order, paged:
                                                             what `reelforge ledger reconcile` reads

Fault modes (`/admin/faults`), each for the next `count` calls of one kind:
    error_before   503, nothing applied          error_after    applied, then 503
    hang_after     applied, the reply held 30 s  http500_after  applied, then a bare 500 (no JSON)
    slow_before    held `delay_s` (default 8 s), then applied and answered: after the caller's
                   timeout, so its rollback may arrive first
    slow_after     applied, then answered `delay_s` later (within the caller's timeout, or not)
    duplicate      delivered twice (as by a retrying proxy): applied once, answered twice

    python -m reelforge.server.wallets.operator_service --host 127.0.0.1 --port 8100 \\
        --database-url sqlite:///var/operator.db --secret-file var/operator.secret
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Connection,
    Engine,
    Index,
    Integer,
    MetaData,
    RowMapping,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from reelforge.server.wallets.protocol import (
    HTTP_STATUS,
    MAX_MONEY,
    SIGNATURE_HEADER,
    BalanceResponse,
    CreditRequest,
    Currency,
    DebitRequest,
    ErrorCode,
    ErrorResponse,
    Money,
    RollbackRequest,
    RollbackResponse,
    StrictModel,
    TransactionId,
    TransactionResponse,
    verify,
)

HANG_S = 30.0  # a hang_after fault's delay: longer than any sane client timeout
SLOW_S = 8.0  # a slow_before fault's default delay: past the game server's 5 s timeout
REPORT_LIMIT = 1000  # the most transactions one /admin/report page holds
SECRET_ENV = "REELFORGE_OPERATOR_SECRET"

metadata = MetaData()

wallet_players = Table(
    "operator_wallet_players", metadata,
    Column("player", String(96), primary_key=True),
    Column("currency", String(3), nullable=False),
    Column("balance", BigInteger, nullable=False),
    CheckConstraint("balance >= 0", name="ck_operator_wallet_no_overdraft"),
)

wallet_transactions = Table(
    "operator_wallet_transactions", metadata,
    # seq orders the listing; SQLite autoincrements only an INTEGER primary key
    Column("seq", BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
           autoincrement=True),
    Column("transaction_id", String(96), nullable=False, unique=True),
    Column("kind", String(8), nullable=False),  # debit / credit / rollback
    Column("player", String(96), nullable=False),
    Column("round_id", String(96), nullable=False),
    Column("game", String(96), nullable=False),
    Column("amount", BigInteger, nullable=False),  # a rollback's: what it gave back (0 or stake)
    Column("currency", String(3), nullable=False),
    Column("debit_transaction_id", String(96)),  # a credit's or a rollback's debit
    Column("round_closed", Boolean),
    # a debit: applied / rolled_back; a rollback: applied / tombstone (its debit was unknown)
    Column("status", String(16), nullable=False),
    Column("balance_after", BigInteger, nullable=False),
    Column("request_sha256", String(64), nullable=False),  # tells a replay from a mismatch
    Column("response", Text, nullable=False),  # replayed verbatim to a duplicate
    Column("created_at", BigInteger, nullable=False),  # microseconds since the epoch, UTC
    Index("ix_operator_wallet_transactions_debit", "debit_transaction_id"),
    Index("ix_operator_wallet_transactions_player", "player"),
)


class AdminPlayer(StrictModel):
    player: TransactionId
    currency: Currency
    balance: Money


class AdminPlayerQuery(StrictModel):
    player: TransactionId


class AdminFault(StrictModel):
    kind: Literal["debit", "credit", "rollback"]
    mode: Literal["error_before", "error_after", "hang_after", "http500_after", "slow_before",
                  "slow_after", "duplicate"]
    count: Money  # 0 clears the kind's fault
    delay_s: Annotated[float, Field(gt=0, le=120)] | None = None  # slow_*'s delay


class AdminReportQuery(StrictModel):
    after: Annotated[int, Field(ge=0, le=MAX_MONEY)] = 0
    limit: Annotated[int, Field(ge=1, le=REPORT_LIMIT)] = REPORT_LIMIT


class Refusal(Exception):
    """A definite "no", answered as an ErrorResponse; raised inside a transaction, it undoes it."""

    def __init__(self, code: ErrorCode, message: str, balance: int | None = None):
        super().__init__(message)
        self.code, self.message, self.balance = code, message, balance

    def response(self) -> JSONResponse:
        body = ErrorResponse(error=self.code.value, message=self.message, balance=self.balance)
        return JSONResponse(body.model_dump(exclude_none=True),
                            status_code=HTTP_STATUS[self.code])


Parsed = TypeVar("Parsed", bound=BaseModel)


def parse(model: type[Parsed], raw: bytes | dict[str, Any]) -> Parsed:
    try:
        if isinstance(raw, bytes):
            return model.model_validate_json(raw)
        return model.model_validate(raw)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "body"
        raise Refusal(ErrorCode.INVALID_REQUEST, f"{where}: {problem['msg']}") from None


def now_us() -> int:
    return time.time_ns() // 1000


def open_engine(database_url: str) -> Engine:
    """An engine whose every transaction takes the write lock at BEGIN (SQLite) or is ready for
    row locks (PostgreSQL), with the tables created."""
    if database_url.startswith("sqlite"):
        engine = create_engine(database_url, connect_args={"check_same_thread": False,
                                                           "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_setup(dbapi_connection: Any, _record: Any) -> None:
            # sqlite3's own BEGIN is deferred: two calls that both read the balance and then
            # write fail with "database is locked" (a stale read cannot wait its turn).
            # SQLAlchemy's begin hook below takes the write lock first, so calls queue instead.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection: Connection) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        engine = create_engine(database_url, pool_pre_ping=True)
    metadata.create_all(engine)
    return engine


class OperatorWallet:
    """The wallet's rules over its two tables; each public method is one database transaction."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def debit(self, request: DebitRequest) -> dict[str, Any]:
        return self._apply("debit", request, self._debit)

    def credit(self, request: CreditRequest) -> dict[str, Any]:
        return self._apply("credit", request, self._credit)

    def rollback(self, request: RollbackRequest) -> dict[str, Any]:
        return self._apply("rollback", request, self._rollback)

    def balance(self, player: str) -> dict[str, Any]:
        with self.engine.begin() as conn:
            row = self._known(self._player(conn, player), player, None)
        return BalanceResponse(balance=row["balance"], currency=row["currency"]).model_dump()

    def set_player(self, request: AdminPlayer) -> dict[str, Any]:
        with self.engine.begin() as conn:
            if self._player(conn, request.player) is None:
                conn.execute(insert(wallet_players).values(request.model_dump()))
            else:
                conn.execute(update(wallet_players)
                             .where(wallet_players.c.player == request.player)
                             .values(currency=request.currency, balance=request.balance))
        return BalanceResponse(balance=request.balance, currency=request.currency).model_dump()

    def transactions(self, player: str) -> dict[str, Any]:
        shown = [c for c in wallet_transactions.c if c.name not in ("request_sha256", "response")]
        with self.engine.begin() as conn:
            rows = conn.execute(select(*shown).where(wallet_transactions.c.player == player)
                                .order_by(wallet_transactions.c.seq)).mappings().all()
        return {"transactions": [dict(row) for row in rows]}

    def report(self, after: int, limit: int) -> dict[str, Any]:
        """Every transaction after `seq` `after`, in order, `limit` at most; `next` is the
        cursor for the page after (None on the last page)."""
        shown = [c for c in wallet_transactions.c if c.name not in ("request_sha256", "response")]
        with self.engine.begin() as conn:
            rows = conn.execute(select(*shown).where(wallet_transactions.c.seq > after)
                                .order_by(wallet_transactions.c.seq)
                                .limit(limit + 1)).mappings().all()
        page = [dict(row) for row in rows[:limit]]
        return {"transactions": page,
                "next": page[-1]["seq"] if len(rows) > limit else None}

    def _apply(self, kind: str, request: BaseModel,
               work: Callable[[Connection, Any, str], dict[str, Any]]) -> dict[str, Any]:
        digest = hashlib.sha256(f"{kind}\n{request.model_dump_json()}".encode()).hexdigest()
        try:
            with self.engine.begin() as conn:
                return work(conn, request, digest)
        except IntegrityError:
            # PostgreSQL locks only the player's row: two players' calls can race to one new
            # transaction id, and the unique index stops the second. Run it again: it now
            # finds the first and answers as a duplicate (a mismatch, or the stored response).
            with self.engine.begin() as conn:
                return work(conn, request, digest)

    def _debit(self, conn: Connection, request: DebitRequest, digest: str) -> dict[str, Any]:
        player = self._player(conn, request.player)
        replay = self._replay(conn, request.transaction_id, digest)
        if replay is not None:
            return replay
        player = self._known(player, request.player, request.currency)
        if self._rollback_of(conn, request.transaction_id) is not None:
            raise Refusal(ErrorCode.TRANSACTION_ROLLED_BACK,
                          f"debit {request.transaction_id} was rolled back before it arrived")
        if player["balance"] < request.amount:
            raise Refusal(ErrorCode.INSUFFICIENT_FUNDS,
                          f"debit {request.transaction_id} of {request.amount} exceeds the "
                          f"balance", balance=player["balance"])
        balance = player["balance"] - request.amount
        response = TransactionResponse(transaction_id=request.transaction_id, balance=balance,
                                       currency=player["currency"]).model_dump()
        self._record(conn, request, "debit", request.amount, balance, response, digest,
                     status="applied")
        return response

    def _credit(self, conn: Connection, request: CreditRequest, digest: str) -> dict[str, Any]:
        player = self._player(conn, request.player)
        replay = self._replay(conn, request.transaction_id, digest)
        if replay is not None:
            return replay
        player = self._known(player, request.player, request.currency)
        debit_id = request.debit_transaction_id
        if debit_id is not None:
            # a credit for a debit this wallet never saw is still paid: credits must get
            # through, and the round's debit, should it arrive late, is then applied as usual
            self._check_debit(conn, debit_id, request.player, request.round_id,
                              f"credit {request.transaction_id}")
            if self._rollback_of(conn, debit_id) is not None:
                raise Refusal(ErrorCode.DEBIT_ROLLED_BACK,
                              f"credit {request.transaction_id}: debit {debit_id} was rolled "
                              f"back")
        balance = player["balance"] + request.amount
        if balance > MAX_MONEY:
            raise Refusal(ErrorCode.INVALID_REQUEST,
                          f"credit {request.transaction_id} would take the balance past "
                          f"{MAX_MONEY}")
        response = TransactionResponse(transaction_id=request.transaction_id, balance=balance,
                                       currency=player["currency"]).model_dump()
        self._record(conn, request, "credit", request.amount, balance, response, digest,
                     debit_transaction_id=debit_id, round_closed=request.round_closed)
        return response

    def _rollback(self, conn: Connection, request: RollbackRequest,
                  digest: str) -> dict[str, Any]:
        player = self._player(conn, request.player)
        replay = self._replay(conn, request.transaction_id, digest)
        if replay is not None:
            return replay
        player = self._known(player, request.player, None)
        debit_id = request.debit_transaction_id
        debit = self._check_debit(conn, debit_id, request.player, request.round_id,
                                  f"rollback {request.transaction_id}")
        balance, returned = player["balance"], 0
        if debit is not None:
            if self._credit_for(conn, debit_id):
                raise Refusal(ErrorCode.CREDIT_RECEIVED,
                              f"rollback {request.transaction_id}: a credit for debit "
                              f"{debit_id} was received; it can no longer be rolled back")
            if debit["status"] == "applied":
                returned = debit["amount"]
                balance += returned
                conn.execute(update(wallet_transactions)
                             .where(wallet_transactions.c.transaction_id == debit_id)
                             .values(status="rolled_back"))
        # an unknown debit gets this row as its tombstone: a late debit with its id is refused
        response = RollbackResponse(transaction_id=request.transaction_id, balance=balance,
                                    currency=player["currency"],
                                    rolled_back=debit is not None).model_dump()
        self._record(conn, request, "rollback", returned, balance, response, digest,
                     status="applied" if debit is not None else "tombstone",
                     currency=player["currency"], debit_transaction_id=debit_id)
        return response

    # --- the steps the rules share ---

    @staticmethod
    def _player(conn: Connection, player: str) -> RowMapping | None:
        """The player's row, locked until the transaction ends (a no-op under SQLite's
        BEGIN IMMEDIATE, which already holds the database's write lock)."""
        return conn.execute(select(wallet_players).where(wallet_players.c.player == player)
                            .with_for_update()).mappings().first()

    @staticmethod
    def _known(row: RowMapping | None, player: str, currency: str | None) -> RowMapping:
        if row is None:
            raise Refusal(ErrorCode.UNKNOWN_PLAYER, f"player {player!r} is unknown")
        if currency is not None and currency != row["currency"]:
            raise Refusal(ErrorCode.WRONG_CURRENCY,
                          f"player {player!r} plays in {row['currency']}, not {currency}")
        return row

    @staticmethod
    def _replay(conn: Connection, transaction_id: str, digest: str) -> dict[str, Any] | None:
        row = conn.execute(select(wallet_transactions.c.request_sha256,
                                  wallet_transactions.c.response)
                           .where(wallet_transactions.c.transaction_id == transaction_id)
                           ).first()
        if row is None:
            return None
        if row.request_sha256 != digest:
            raise Refusal(ErrorCode.DUPLICATE_MISMATCH,
                          f"transaction {transaction_id} was already received with a "
                          f"different body")
        stored: dict[str, Any] = json.loads(row.response)
        return stored

    @staticmethod
    def _check_debit(conn: Connection, debit_id: str, player: str, round_id: str,
                     who: str) -> RowMapping | None:
        """The debit `debit_id` if this wallet has it (None if not), refused if it is not a
        debit of this player's round."""
        debit = conn.execute(select(wallet_transactions)
                             .where(wallet_transactions.c.transaction_id == debit_id)
                             ).mappings().first()
        if debit is None:
            return None
        if debit["kind"] != "debit":
            raise Refusal(ErrorCode.INVALID_REQUEST,
                          f"{who}: transaction {debit_id} is a {debit['kind']}, not a debit")
        if (debit["player"], debit["round_id"]) != (player, round_id):
            raise Refusal(ErrorCode.INVALID_REQUEST,
                          f"{who}: debit {debit_id} belongs to another player or round")
        return debit

    @staticmethod
    def _rollback_of(conn: Connection, debit_id: str) -> str | None:
        return conn.execute(select(wallet_transactions.c.transaction_id)
                            .where(wallet_transactions.c.kind == "rollback",
                                   wallet_transactions.c.debit_transaction_id == debit_id)
                            .limit(1)).scalar()

    @staticmethod
    def _credit_for(conn: Connection, debit_id: str) -> bool:
        return conn.execute(select(wallet_transactions.c.seq)
                            .where(wallet_transactions.c.kind == "credit",
                                   wallet_transactions.c.debit_transaction_id == debit_id)
                            .limit(1)).first() is not None

    @staticmethod
    def _record(conn: Connection, request: Any, kind: str, amount: int, balance: int,
                response: dict[str, Any], digest: str, *, status: str = "applied",
                currency: str | None = None, debit_transaction_id: str | None = None,
                round_closed: bool | None = None) -> None:
        # the Python checks above already keep the balance >= 0; the CHECK constraint is the
        # database's own guarantee should a later change get them wrong
        conn.execute(update(wallet_players).where(wallet_players.c.player == request.player)
                     .values(balance=balance))
        conn.execute(insert(wallet_transactions).values(
            transaction_id=request.transaction_id, kind=kind, player=request.player,
            round_id=request.round_id, game=request.game, amount=amount,
            currency=currency or request.currency, debit_transaction_id=debit_transaction_id,
            round_closed=round_closed, status=status, balance_after=balance,
            request_sha256=digest, response=json.dumps(response, separators=(",", ":")),
            created_at=now_us()))


class Faults:
    """The armed faults, per kind of call; shared by the server's threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: dict[str, tuple[str, int, float]] = {}

    def arm(self, fault: AdminFault) -> None:
        with self._lock:
            if fault.count:
                self._armed[fault.kind] = (fault.mode, fault.count, fault.delay_s or SLOW_S)
            else:
                self._armed.pop(fault.kind, None)

    def take(self, kind: str) -> tuple[str, float] | None:
        """The mode this call of `kind` fails with, and its delay, if any, counting it down."""
        with self._lock:
            mode, left, delay = self._armed.get(kind, ("", 0, 0.0))
            if not left:
                return None
            if left == 1:
                del self._armed[kind]
            else:
                self._armed[kind] = (mode, left - 1, delay)
            return mode, delay


def create_app(database_url: str, secret: bytes) -> FastAPI:
    """The wallet service over `database_url`, accepting requests signed with `secret`."""
    if not secret:
        raise ValueError("the operator wallet's secret is empty")
    wallet = OperatorWallet(open_engine(database_url))
    faults = Faults()
    app = FastAPI(title="reelforge reference operator wallet", docs_url=None, redoc_url=None)

    @app.exception_handler(Refusal)
    async def _refused(_request: Request, refusal: Refusal) -> JSONResponse:
        return refusal.response()

    async def signed_body(request: Request) -> bytes:
        # checked before anything is parsed or read from the database
        body = await request.body()
        if not verify(secret, body, request.headers.get(SIGNATURE_HEADER)):
            raise Refusal(ErrorCode.INVALID_SIGNATURE, "the request's signature does not match")
        return body

    async def signed_player(request: Request) -> str:
        query: bytes = request.scope["query_string"]
        if not verify(secret, query, request.headers.get(SIGNATURE_HEADER)):
            raise Refusal(ErrorCode.INVALID_SIGNATURE, "the request's signature does not match")
        values = parse_qs(query.decode("latin-1"), keep_blank_values=True)
        if set(values) != {"player"} or len(values["player"]) != 1:
            raise Refusal(ErrorCode.INVALID_REQUEST, "the query must be exactly ?player=..")
        return parse(AdminPlayerQuery, {"player": values["player"][0]}).player

    async def wallet_call(kind: str, body: bytes, model: type[BaseModel],
                          rule: Callable[[Any], dict[str, Any]]) -> Response:
        request = parse(model, body)
        mode, delay = faults.take(kind) or ("", 0.0)
        if mode == "error_before":
            return Refusal(ErrorCode.UNAVAILABLE, f"injected fault: {kind} not applied").response()
        if mode == "slow_before":
            await asyncio.sleep(delay)
        answer = await run_in_threadpool(rule, request)
        if mode == "duplicate":  # the second delivery: answered from what the first stored
            answer = await run_in_threadpool(rule, request)
        if mode == "error_after":
            return Refusal(ErrorCode.UNAVAILABLE, f"injected fault: {kind} failed").response()
        if mode == "http500_after":
            return PlainTextResponse("Internal Server Error", status_code=500)
        if mode == "hang_after":
            await asyncio.sleep(HANG_S)
        if mode == "slow_after":
            await asyncio.sleep(delay)
        return JSONResponse(answer)

    @app.post("/wallet/debit")
    async def debit(request: Request) -> Response:
        return await wallet_call("debit", await signed_body(request), DebitRequest, wallet.debit)

    @app.post("/wallet/credit")
    async def credit(request: Request) -> Response:
        return await wallet_call("credit", await signed_body(request), CreditRequest,
                                 wallet.credit)

    @app.post("/wallet/rollback")
    async def rollback(request: Request) -> Response:
        return await wallet_call("rollback", await signed_body(request), RollbackRequest,
                                 wallet.rollback)

    @app.get("/wallet/balance")
    async def balance(request: Request) -> JSONResponse:
        player = await signed_player(request)
        return JSONResponse(await run_in_threadpool(wallet.balance, player))

    @app.post("/admin/players")
    async def admin_player(request: Request) -> JSONResponse:
        player = parse(AdminPlayer, await signed_body(request))
        return JSONResponse(await run_in_threadpool(wallet.set_player, player))

    @app.post("/admin/faults")
    async def admin_fault(request: Request) -> JSONResponse:
        fault = parse(AdminFault, await signed_body(request))
        faults.arm(fault)
        return JSONResponse(fault.model_dump())

    @app.get("/admin/transactions")
    async def admin_transactions(request: Request) -> JSONResponse:
        player = await signed_player(request)
        return JSONResponse(await run_in_threadpool(wallet.transactions, player))

    @app.get("/admin/report")
    async def admin_report(request: Request) -> JSONResponse:
        query: bytes = request.scope["query_string"]
        if not verify(secret, query, request.headers.get(SIGNATURE_HEADER)):
            raise Refusal(ErrorCode.INVALID_SIGNATURE, "the request's signature does not match")
        values = parse_qs(query.decode("latin-1"), keep_blank_values=True)
        if not set(values) <= {"after", "limit"} or any(len(v) != 1 for v in values.values()):
            raise Refusal(ErrorCode.INVALID_REQUEST, "the query is ?after=SEQ&limit=N")
        try:
            asked = {k: int(v[0]) for k, v in values.items()}
        except ValueError:
            raise Refusal(ErrorCode.INVALID_REQUEST, "after and limit are integers") from None
        page = parse(AdminReportQuery, asked)
        return JSONResponse(await run_in_threadpool(wallet.report, page.after, page.limit))

    return app


def read_secret(secret_file: str | None) -> bytes:
    """The shared secret from a file or the environment: a command-line value would show in
    `ps` and in shell history. Surrounding whitespace (a file's final newline) is not part of
    it."""
    if secret_file:
        secret = Path(secret_file).read_bytes().strip()
    else:
        secret = os.environ.get(SECRET_ENV, "").strip().encode()
    if not secret:
        source = secret_file or f"${SECRET_ENV}"
        raise SystemExit(f"operator wallet: no secret in {source} (give --secret-file or set "
                         f"{SECRET_ENV})")
    return secret


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m reelforge.server.wallets.operator_service",
                                     description="The reference operator wallet service.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100, help="0: any free port (printed)")
    parser.add_argument("--database-url", required=True,
                        help="sqlite:///PATH or postgresql+psycopg://...")
    parser.add_argument("--secret-file", help=f"a file holding the secret (else ${SECRET_ENV})")
    args = parser.parse_args(argv)
    app = create_app(args.database_url, read_secret(args.secret_file))

    class AnnouncingServer(uvicorn.Server):
        # uvicorn binds its socket in startup(): only after it is the service reachable, and
        # only then is the port known when 0 was asked for
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            print(f"operator wallet listening on http://{host}:{port}", flush=True)

    # no access log: it would go to stdout, which a parent reads only for the line above
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            access_log=False)
    AnnouncingServer(config).run()


if __name__ == "__main__":
    main()
