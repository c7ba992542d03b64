"""The jackpot pools as persisted (standards.md G8), for the back office: each pool's meter
(services/jackpot.py) with its start date, the games that feed it, its start-up and reset
values, increment, ceiling and overflow (the diversion), its status and decommission date,
and its odds: the chance of a win per round at the bet that can win it, from each feeding
game's exact analysis.

reelforge's pools have one increment, visible to the player: no secondary or hidden
increment and no time limit ("must drop by"), stated as such rather than left out.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from reelforge.server.backoffice.control import file_settings
from reelforge.server.context import Context
from reelforge.server.db.tables import jackpot_pools
from reelforge.server.services import jackpot
from reelforge.server.services.catalog import ServedGame, games_of, kept_figure


def pools(ctx: Context) -> list[dict[str, Any]]:
    with ctx.read() as conn:
        meters = jackpot.meters(conn)
        rows = {r.key: r for r in conn.execute(select(jackpot_pools))}
    feeders: dict[str, list[ServedGame]] = {}
    for op in file_settings(ctx).operators:
        if not op.profile.jackpots:
            continue
        for served in games_of(op):
            if served.game.spec.jackpot is not None:
                feeders.setdefault(served.pool_key(), []).append(served)
    found = []
    for meter in meters:
        row = rows[meter["pool"]]
        fed = feeders.get(meter["pool"], [])
        found.append({
            **meter, "started_at_us": row.created_at, "startup_minor": int(row.seed_minor),
            "reset_minor": int(row.seed_minor), "increment_bp": int(row.contribution_bp),
            "secondary_increment_bp": 0, "hidden_increment_bp": 0, "time_limit": None,
            "diverted_minor": meter["overflow_minor"],
            "status": ("decommissioned" if row.decommissioned_at is not None
                       else "enabled" if row.enabled else "disabled"),
            "decommissioned_at_us": row.decommissioned_at,
            "games": [{"operator": s.operator.id, "game": s.settings.key,
                       "game_id": s.game.id, **odds(s)} for s in fed]})
    return found


def odds(served: ServedGame) -> dict[str, Any]:
    """The chance of a jackpot win per round at the game's maximum bet (where the jackpot is
    live), exact, kept on disk by the game file's hash like the other figures."""
    game = served.game

    def computed() -> float:
        from reelforge.analysis.exact import analyze

        return float(analyze(game).jackpot_probability)

    p = kept_figure(game, "jackpot-odds", computed, lambda v: v, float)
    return {"win_probability": p, "one_in_rounds": round(1 / p) if p else None,
            "at": "the maximum bet, per round (exact)"}
