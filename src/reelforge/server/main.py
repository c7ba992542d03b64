"""Starting the server: the database (migrated first), the settings, start-up checks, uvicorn.

`reelforge serve` migrates the database, then runs uvicorn with `app_from_env` as the
application factory, so each worker process builds its own engine from the environment.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from pathlib import Path

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from reelforge.server.context import Context
from reelforge.server.db.engine import database_url, make_engine
from reelforge.server.errors import ApiError
from reelforge.server.settings import Settings, load_settings

ENV_CONFIG = "REELFORGE_CONFIG"
ENV_VAR_DIR = "REELFORGE_VAR_DIR"


def build_context(url: str, config: Path | None, var_dir: Path) -> Context:
    settings = load_settings(config, var_dir)
    batch = os.environ.get("REELFORGE_BATCH_ROUNDS", "1") != "0"
    return Context(make_engine(url), settings, batch_rounds=batch)


def startup(ctx: Context) -> None:
    """Before the first request: the schema is current, the configuration is recorded (and
    its changes audited), jackpot pools exist, every kernel is compiled, wallets connect."""
    from reelforge.server.db.migrate import check_schema
    from reelforge.server.services.catalog import check_games

    check_schema(ctx.engine)
    check_games(ctx.settings)  # a worker built by app_from_env alone, without serve
    import reelforge.analysis  # noqa: F401 - registers the exact RTP figures games report

    try:
        _record_config(ctx)
    except IntegrityError:  # another worker recorded it at the same moment: read it again
        _record_config(ctx)
    _ensure_pools(ctx)
    from reelforge.server.backoffice.control import start_refresher

    start_refresher(ctx)  # the back office's game switches, overlaid on the file's settings
    from reelforge.server.backoffice.monitor import start_monitor

    start_monitor(ctx)  # the live RTP check ([monitor] in the settings' file)
    _warm_up(ctx.settings)
    _connect_wallets(ctx)
    from reelforge.server.services import incidents

    incidents.started(ctx)  # server.started; refused and failed requests counted (H4)
    # What start-up built (every game's tables and compiled kernels, the app, the settings)
    # lives as long as the process. Left in the collector's generations, each full collection
    # walks all of it: 130-170 ms pauses every few seconds under load, the bets' p99 (see
    # benchmarks/RESULTS.md). Frozen, a full collection walks only what requests made.
    gc.collect()
    gc.freeze()
    print(f"reelforge serve: process {os.getpid()} ready", flush=True)


def _record_config(ctx: Context) -> None:
    from reelforge.server.db.tables import game_configs, operators
    from reelforge.server.services import audit
    from reelforge.server.services.common import now_us

    now = now_us()
    with ctx.begin() as conn:
        for op in ctx.settings.operators:
            if conn.execute(select(operators.c.id).where(operators.c.id == op.id)).first() is None:
                conn.execute(insert(operators).values(id=op.id, name=op.name,
                                                      wallet_mode=op.wallet,
                                                      wallet_url=op.wallet_url, created_at=now))
            for g in op.games:
                values = dict(game_id=g.game_id, currency=op.currency,
                              denomination=g.denomination, gamble=g.gamble,
                              win_cap_minor=g.win_cap_minor, jurisdiction=op.jurisdiction,
                              enabled=g.enabled)
                where = (game_configs.c.operator_id == op.id) & (game_configs.c.game_key == g.key)
                old = conn.execute(select(game_configs).where(where)).first()
                before = None if old is None else {k: getattr(old, k) for k in values}
                again = old is not None and old.decommissioned_at is not None
                if before == values and not again:
                    continue
                if old is None:
                    conn.execute(insert(game_configs).values(operator_id=op.id, game_key=g.key,
                                                             updated_at=now, available_since=now,
                                                             **values))
                else:
                    lives = dict(available_since=now, decommissioned_at=None) if again else {}
                    conn.execute(update(game_configs).where(where)
                                 .values(updated_at=now, **lives, **values))
                audit.append(conn, f"operator:{op.id}", "config.changed",
                             {"game": g.key, "before": before, "after": values,
                              **({"offered_again": True} if again else {})}, now)
            _decommission_games(conn, op.id, {g.key for g in op.games}, now)


def _decommission_games(conn, operator_id: str, offered: set[str], now: int) -> None:
    """The operator's games this configuration no longer offers: decommissioned now (H2),
    each an audit row; their rounds and meters stay."""
    from reelforge.server.db.tables import game_configs
    from reelforge.server.services import audit

    gone = conn.execute(select(game_configs.c.game_key).where(
        game_configs.c.operator_id == operator_id,
        game_configs.c.decommissioned_at.is_(None))).scalars().all()
    for key in sorted(set(gone) - offered):
        done = conn.execute(update(game_configs).where(
            game_configs.c.operator_id == operator_id, game_configs.c.game_key == key,
            game_configs.c.decommissioned_at.is_(None))  # another process may have, first
            .values(decommissioned_at=now, updated_at=now))
        if done.rowcount:
            audit.append(conn, f"operator:{operator_id}", "game.decommissioned",
                         {"game": key}, now)


def _ensure_pools(ctx: Context) -> None:
    from reelforge.server.services import jackpot, ledger
    from reelforge.server.services.catalog import games_of
    from reelforge.server.services.common import now_us

    for op in ctx.settings.operators:
        for served in games_of(op):
            spec = served.game.spec.jackpot
            if spec is not None and op.profile.jackpots:
                jackpot.ensure_pool(ctx.engine, served.pool_key(), op.currency,
                                    spec.seed_amount, spec.contribution_bp,
                                    ledger.house_owner(op.id, 0), now_us())
    jackpot.mark_decommissioned(ctx.engine, {served.pool_key() for op in ctx.settings.operators
                                             if op.profile.jackpots for served in games_of(op)
                                             if served.game.spec.jackpot is not None},
                                now_us())
    from reelforge.server.backoffice.jackpot_control import apply_ceilings

    apply_ceilings(ctx)  # the configuration's ceilings (G2), each change audited


def _warm_up(settings: Settings) -> None:
    from reelforge.engine.round import warmup
    from reelforge.games import make

    for game_id in sorted({g.game_id for op in settings.operators for g in op.games}):
        warmup(make(game_id))
    # The games' descriptions (a lobby's first request): their exact maximum wins cost
    # seconds the first time on a machine, then come from the figure cache.
    from reelforge.server.services.catalog import served_game

    for op in settings.operators:
        for g in op.games:
            with contextlib.suppress(ApiError):  # a game this jurisdiction does not offer
                served_game(op, g.key).describe(None)


def _connect_wallets(ctx: Context) -> None:
    seamless = [op for op in ctx.settings.operators if op.wallet == "seamless"]
    if not seamless:
        return
    from reelforge.server.wallets.rounds import start_outbox_worker

    start_outbox_worker(ctx)


def app_from_env():
    """uvicorn's factory: each worker builds its context from the environment `serve` set."""
    from reelforge.server.api.app import create_app

    config = os.environ.get(ENV_CONFIG)
    var_dir = Path(os.environ.get(ENV_VAR_DIR, "var"))
    ctx = build_context(database_url(None), Path(config) if config else None, var_dir)
    return create_app(ctx, startup=startup)


def serve(host: str, port: int, url: str | None, config: Path | None, workers: int,
          var_dir: Path = Path("var")) -> None:
    import uvicorn

    from reelforge.server.api.limits import max_in_flight
    from reelforge.server.db.migrate import upgrade
    from reelforge.server.services.catalog import check_games

    settings = load_settings(config, var_dir)  # creates the demo keys before workers race
    check_games(settings)  # one line and exit 2 (cli.py), before any worker starts
    max_in_flight()  # a bad REELFORGE_MAX_IN_FLIGHT: the same
    resolved = database_url(url)
    upgrade(resolved)
    os.environ["REELFORGE_DATABASE_URL"] = resolved
    os.environ[ENV_VAR_DIR] = str(var_dir)
    if config is not None:
        os.environ[ENV_CONFIG] = str(config.resolve())
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    print(f"reelforge serve: {len(settings.operators)} operator(s) on {_masked(resolved)}; "
          "ready once every game's kernels are loaded (the first start compiles them: minutes)",
          flush=True)
    for op in settings.operators:
        if op.demo_balance_minor:
            print(f"  play as a new demo player of {op.name}: {base}/demo?operator={op.id}",
                  flush=True)
    print(f"  API documentation: {base}/docs", flush=True)
    uvicorn.run("reelforge.server.main:app_from_env", factory=True, host=host, port=port,
                workers=workers, log_level=os.environ.get("REELFORGE_LOG_LEVEL", "warning"),
                access_log=False)


def _masked(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


if __name__ == "__main__":  # python -m reelforge.server.main: the same as reelforge serve
    serve("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8000, None, None, 1)
