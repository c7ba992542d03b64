"""Game and jackpot control (standards.md B7, G7, H5): a manager switches a game off for new
rounds, or a jackpot pool off, and on again; each change is one audit row with the state
before and after and the staff member who made it.

A game's switch lives in game_switches and reaches the round path through the settings: every
server process overlays the switches on its configuration file's games (`GameSettings.enabled`
= the file's and the switch's), re-reading them every REFRESH_S seconds and at once after a
change it made itself. The round path's own check (`GAME_DISABLED`, after a repeated request
id is answered, before any debit) then refuses new rounds while open rounds finish under their
own rules. The file's `enabled = false` stays the floor: the back office cannot switch on what
the configuration switched off.

A pool's switch is jackpot_pools.enabled: services/jackpot.py neither adds to nor pays out a
disabled pool, and resuming it changes nothing else (the same amount, seed and contribution).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, insert, select, update

from reelforge.server.backoffice.staff import CONTROL, Staff
from reelforge.server.context import Context
from reelforge.server.db.tables import POOL_SCALE, game_configs, game_switches, jackpot_pools
from reelforge.server.errors import ApiError
from reelforge.server.services import audit
from reelforge.server.services.common import now_us
from reelforge.server.settings import Settings

log = logging.getLogger("reelforge.backoffice")
REFRESH_S = 1.0
_FILE = "backoffice.file_settings"  # ctx.extensions: the settings as the file gave them
_OFF = "backoffice.switched_off"  # ctx.extensions: the (operator, game) pairs switched off
_LOCK = "backoffice.refresh_lock"  # ctx.extensions: one refresh at a time in a process


def file_settings(ctx: Context) -> Settings:
    found: Settings = ctx.extensions.setdefault(_FILE, ctx.settings)
    return found


def _switched_off(conn: Connection) -> frozenset[tuple[str, str]]:
    return frozenset((r.operator_id, r.game_key) for r in conn.execute(
        select(game_switches.c.operator_id, game_switches.c.game_key)
        .where(game_switches.c.enabled.is_(False))))


def refresh(ctx: Context) -> None:
    """Overlay the switches on the file's settings, if they changed since the last time.

    One refresh at a time per process: otherwise the timer's refresh, having read before a
    manager's change committed, could assign its older overlay after the change's own refresh
    and undo it here for a second. Serialized, the last assignment is of the latest read."""
    with ctx.extensions.setdefault(_LOCK, threading.Lock()):
        _refresh(ctx)


def _refresh(ctx: Context) -> None:
    with ctx.read() as conn:
        off = _switched_off(conn)
    if off == ctx.extensions.get(_OFF):
        return
    base = file_settings(ctx)
    operators = tuple(replace(op, games=tuple(
        replace(g, enabled=g.enabled and (op.id, g.key) not in off) for g in op.games))
        for op in base.operators)
    # One assignment: a request reads either the old settings or the new, never half of each.
    ctx.settings = replace(base, operators=operators)
    ctx.extensions[_OFF] = off


def start_refresher(ctx: Context) -> None:
    """This process's refresh of the switches, every REFRESH_S, for as long as it runs."""
    refresh(ctx)

    def run() -> None:
        stop: threading.Event = ctx.extensions.setdefault("backoffice.stop", threading.Event())
        while not stop.wait(REFRESH_S):
            try:
                refresh(ctx)
            except Exception:  # a database away for a moment: try again later
                log.warning("game switches not refreshed; trying again", exc_info=True)

    threading.Thread(target=run, name="backoffice-switches", daemon=True).start()


def games(ctx: Context) -> list[dict[str, Any]]:
    """Every game of every configured operator: the file's setting, the switch, the result,
    when it was made available and, for a game the configuration no longer offers, when it
    was decommissioned (H2)."""
    with ctx.read() as conn:
        switches = {(s.operator_id, s.game_key): s for s in conn.execute(select(game_switches))}
        lives = {(c.operator_id, c.game_key): c for c in conn.execute(
            select(game_configs.c.operator_id, game_configs.c.game_key, game_configs.c.game_id,
                   game_configs.c.available_since, game_configs.c.decommissioned_at))}
    found = []
    for op in file_settings(ctx).operators:
        offered = set()
        for g in op.games:
            offered.add(g.key)
            switch, life = switches.get((op.id, g.key)), lives.get((op.id, g.key))
            on = switch is None or bool(switch.enabled)
            found.append({"operator": op.id, "game": g.key, "game_id": g.game_id,
                          "currency": op.currency, "jurisdiction": op.jurisdiction,
                          "file_enabled": g.enabled, "switch_enabled": on,
                          "enabled": g.enabled and on,
                          "status": "enabled" if g.enabled and on else "disabled",
                          "switched_by": None if switch is None else switch.updated_by,
                          "switched_at_us": None if switch is None else switch.updated_at,
                          "available_since_us": None if life is None else life.available_since,
                          "decommissioned_at_us": None})
        for (op_id, key), life in sorted(lives.items()):
            if op_id == op.id and key not in offered:
                found.append({"operator": op.id, "game": key, "game_id": life.game_id,
                              "currency": op.currency, "jurisdiction": op.jurisdiction,
                              "file_enabled": False, "switch_enabled": False, "enabled": False,
                              "status": "decommissioned", "switched_by": None,
                              "switched_at_us": None,
                              "available_since_us": life.available_since,
                              "decommissioned_at_us": life.decommissioned_at})
    return found


def switch_game(ctx: Context, who: Staff, operator_id: str, game_key: str,
                enabled: bool) -> dict[str, Any]:
    """Switch a game on or off for new rounds; the audit row's before and after."""
    who.require(CONTROL)
    op = file_settings(ctx).operator(operator_id)
    if op is None:
        raise ApiError("UNKNOWN_OPERATOR", f"operator {operator_id!r}: not configured here")
    if op.game(game_key) is None:
        raise ApiError("UNKNOWN_GAME", f"game {game_key!r}: not offered by operator "
                       f"{operator_id!r} ({', '.join(g.key for g in op.games)})")
    now = now_us()
    where = ((game_switches.c.operator_id == operator_id)
             & (game_switches.c.game_key == game_key))
    with ctx.begin() as conn:
        row = conn.execute(select(game_switches).where(where).with_for_update()).first()
        before = {"enabled": True if row is None else bool(row.enabled)}
        after = {"enabled": enabled}
        if before != after:
            values = dict(enabled=enabled, updated_at=now, updated_by=who.name)
            if row is None:
                conn.execute(insert(game_switches).values(operator_id=operator_id,
                                                          game_key=game_key, **values))
            else:
                conn.execute(update(game_switches).where(where).values(**values))
            audit.append(conn, f"operator:{operator_id}", "game.switched",
                         {"game": game_key, "before": before, "after": after,
                          "by": who.name, "role": who.role}, now)
    refresh(ctx)
    return {"operator": operator_id, "game": game_key, "before": before, "after": after,
            "changed": before != after}


def _pool_state(pool: Any) -> dict[str, Any]:
    return {"enabled": bool(pool.enabled), "amount_minor": pool.units // POOL_SCALE,
            "units": int(pool.units), "seed_minor": int(pool.seed_minor),
            "contribution_bp": int(pool.contribution_bp)}


def switch_pool(ctx: Context, who: Staff, key: str, enabled: bool) -> dict[str, Any]:
    """Disable or resume a jackpot pool, nothing else about it changed; before and after."""
    who.require(CONTROL)
    now = now_us()
    with ctx.begin() as conn:
        pool = conn.execute(select(jackpot_pools).where(jackpot_pools.c.key == key)
                            .with_for_update()).first()
        if pool is None:
            known = ", ".join(conn.execute(select(jackpot_pools.c.key)
                                           .order_by(jackpot_pools.c.key)).scalars())
            raise ApiError("UNKNOWN_POOL", f"jackpot pool {key!r}: no such pool ({known})")
        before = _pool_state(pool)
        after = {**before, "enabled": enabled}
        if before != after:
            conn.execute(update(jackpot_pools).where(jackpot_pools.c.key == key)
                         .values(enabled=enabled, updated_at=now))
            audit.append(conn, f"jackpot:{key}",
                         "jackpot.resumed" if enabled else "jackpot.disabled",
                         {"before": before, "after": after, "by": who.name, "role": who.role},
                         now)
    return {"pool": key, "before": before, "after": after, "changed": before != after}
