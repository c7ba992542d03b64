"""Actual against theoretical RTP per operator, game, mode and currency over a period
(standards.md E6), with the band the game's own variance allows at the rounds played.

Over closed paid rounds with stakes s_i and wins w_i, the actual RTP is sum(w) / sum(s). If
each round's win per unit staked has the game's mean (the theoretical RTP) and standard
deviation sd (of one round's win over its price, at the mode's maximum bet), that ratio has
standard deviation sd * sqrt(sum(s^2)) / sum(s) (sd / sqrt(n) when every stake is equal), so
the band at 99% two-sided is theoretical +- Z99 times that. The sd comes from the exact second
moments where the analysis has them (line games), else from the published estimate shipped
beside the game file (cluster games, base mode); without either the row has no band. The
figures are those of the maximum bet, as the game's published RTP is.

Data only so far: the chart, the periodic check and its alerts (E5) read these rows.
"""

from __future__ import annotations

import math
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, func, select

from reelforge.server.backoffice.meters import US_PER_DAY, bet_mode, day_number
from reelforge.server.db.tables import players, rounds
from reelforge.server.errors import ApiError
from reelforge.server.services import catalog
from reelforge.server.settings import Settings

CONFIDENCE = 0.99
Z99 = 2.5758293035489004  # the normal quantile at 0.995: a two-sided 99% band

r, p = rounds, players


def round_sd(game: Any, mode: str) -> tuple[float | None, str]:
    """SD of one round's win over its price at the maximum bet of `mode`, and its source."""
    def computed() -> dict[str, Any]:
        from reelforge.analysis.moments import NotExact, exact_moments
        from reelforge.engine.outcome import Bet
        from reelforge.games import estimate_beside

        top = game.max_bet
        try:
            moments = exact_moments(game, Bet(top.lines, top.bet_per_line, mode))
            return {"sd": moments.round_standard_deviation, "source": moments.sd_label}
        except NotExact:
            pass
        path = Path(game.spec.source)
        estimate = estimate_beside(path) if mode == "base" and path.is_file() else None
        if estimate is not None and "standard_deviation" in estimate["figures"]:
            return {"sd": float(estimate["figures"]["standard_deviation"]),
                    "source": "estimate"}
        return {"sd": None, "source": "none"}

    # kept on disk by the game file's hash, like the RTP figures: Cluedo's moments cost seconds
    found = catalog.kept_figure(game, f"round-sd-{mode}", computed, lambda d: d, lambda d: d)
    return found["sd"], found["source"]


def sums(conn: Connection, first: date, last: date, operator: str | None = None,
         game: str | None = None) -> list[Any]:
    """Per operator, game, mode and currency: closed paid rounds, their stakes, wins and
    squared stakes over the period."""
    mode = bet_mode(conn).label("mode")
    query = (
        select(p.c.operator_id, r.c.game_key, mode, r.c.currency,
               func.count().label("rounds"), func.sum(r.c.stake_minor).label("staked"),
               func.sum(r.c.win_minor).label("won"),
               func.sum(r.c.stake_minor * r.c.stake_minor).label("staked_sq"))
        .join(p, p.c.id == r.c.player_id)
        .where(r.c.status == "closed", r.c.funded_by.is_(None), r.c.stake_minor > 0,
               r.c.created_at >= day_number(first) * US_PER_DAY,
               r.c.created_at < (day_number(last) + 1) * US_PER_DAY)
        .group_by(p.c.operator_id, r.c.game_key, mode, r.c.currency)
        .order_by(p.c.operator_id, r.c.game_key, mode, r.c.currency))
    if operator is not None:
        query = query.where(p.c.operator_id == operator)
    if game is not None:
        query = query.where(r.c.game_key == game)
    return list(conn.execute(query))


def compare(rows: list[Any], settings: Settings) -> list[dict[str, Any]]:
    """The sums against each game's figures: outside any transaction, as a game's exact
    moments may take seconds the first time (then they come from the figure cache)."""
    return [_row(row, settings) for row in rows]


def _row(row: Any, settings: Settings) -> dict[str, Any]:
    staked, won, staked_sq = int(row.staked), int(row.won), int(row.staked_sq)
    actual = won / staked
    found: dict[str, Any] = {
        "operator": row.operator_id, "game": row.game_key, "mode": row.mode,
        "currency": row.currency, "rounds": int(row.rounds), "turnover_minor": staked,
        "wins_minor": won, "actual_rtp": actual, "theoretical_rtp": None,
        "theoretical_source": None, "round_sd": None, "sd_source": None,
        "effective_rounds": staked * staked / staked_sq, "confidence": CONFIDENCE,
        "band": None, "inside": None}
    op = settings.operator(row.operator_id)
    try:
        served = catalog.served_game(op, row.game_key) if op is not None else None
    except ApiError:  # a game the configuration no longer offers: its meters, no figures
        served = None
    if served is None:
        return found
    figure = next((f for f in catalog.rtp_figures(served.game) if f.mode == row.mode), None)
    if figure is None:
        return found
    theoretical = float(figure.value)
    sd, source = round_sd(served.game, row.mode)
    found.update(theoretical_rtp=theoretical, theoretical_source=figure.source,
                 round_sd=sd, sd_source=source)
    if sd is not None:
        half = Z99 * sd * math.sqrt(staked_sq) / staked
        found.update(band=[theoretical - half, theoretical + half],
                     inside=abs(actual - theoretical) <= half)
    return found
