"""Actual against theoretical RTP per operator, game, mode and currency over a period
(standards.md E6), with the band the game's own variance allows at the rounds played.

Over paid rounds with stakes s_i and wins w_i, the actual RTP is sum(w) / sum(s). If
each round's win per unit staked has the game's mean (the theoretical RTP) and standard
deviation sd (of one round's win over its price, at the mode's maximum bet), that ratio has
standard deviation sd * sqrt(sum(s^2)) / sum(s) (sd / sqrt(n) when every stake is equal), so
the band at 99% two-sided is theoretical +- Z99 times that. The sd comes from the exact second
moments where the analysis has them (line games), else from the published estimate shipped
beside the game file (cluster games, base mode); without either the row has no band. The
figures are those of the maximum bet, as the game's published RTP is.

The sums are the writer's meter rows (services/meter_rows.py: a round's stake counts when it is
paid, its paytable win when it is credited); the page's chart draws `series` day by day, and
the live monitor (monitor.py) checks `compare`'s z at its configured confidence (E5).
"""

from __future__ import annotations

import math
from datetime import date
from pathlib import Path
from statistics import NormalDist
from typing import Any

from sqlalchemy import Connection

from reelforge.server.backoffice.meters import kept_sums
from reelforge.server.errors import ApiError
from reelforge.server.services import catalog
from reelforge.server.settings import Settings

CONFIDENCE = 0.99
Z99 = 2.5758293035489004  # the normal quantile at 0.995: a two-sided 99% band


def round_sd(game: Any, mode: str) -> tuple[float | None, str]:
    """SD of one round's win over its price at the maximum bet of `mode`, and its source."""
    def computed() -> dict[str, Any]:
        from reelforge.analysis.moments import NotExact, exact_moments
        from reelforge.games import estimate_beside

        try:  # the largest stake the mode can play (an ante at 5/4: a multiple of 4 credits)
            moments = exact_moments(game, game.bet(mode=mode))
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
    """Per operator, game, mode and currency over the period, from the writer's meter rows:
    the paid rounds, their stakes, the paytable's wins and the squared stakes."""
    return [row for row in kept_sums(conn, first, last, "paytable", by_day=False)
            if (operator is None or row.operator_id == operator)
            and (game is None or row.game_key == game) and int(row.turnover) > 0]


def series(conn: Connection, first: date, last: date, operator: str, game: str,
           mode: str, currency: str) -> list[Any]:
    """The same sums day by day (the chart's points), for one game and mode."""
    return [row for row in kept_sums(conn, first, last, "paytable")
            if (row.operator_id, row.game_key, row.mode, row.currency)
            == (operator, game, mode, currency)]


def z_of(confidence: float) -> float:
    """The two-sided normal quantile of `confidence` (0.99: 2.5758...)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def compare(rows: list[Any], settings: Settings,
            confidence: float = CONFIDENCE) -> list[dict[str, Any]]:
    """The sums against each game's figures: outside any transaction, as a game's exact
    moments may take seconds the first time (then they come from the figure cache)."""
    z = Z99 if confidence == CONFIDENCE else z_of(confidence)
    return [_row(row, settings, confidence, z) for row in rows]


def _row(row: Any, settings: Settings, confidence: float, z: float) -> dict[str, Any]:
    staked, won, staked_sq = int(row.turnover), int(row.wins), int(row.turnover_sq)
    actual = won / staked
    found: dict[str, Any] = {
        "operator": row.operator_id, "game": row.game_key, "mode": row.mode,
        "currency": row.currency, "rounds": int(row.rounds), "turnover_minor": staked,
        "wins_minor": won, "actual_rtp": actual, "theoretical_rtp": None,
        "theoretical_source": None, "round_sd": None, "sd_source": None,
        "effective_rounds": staked * staked / staked_sq, "confidence": confidence,
        "band": None, "inside": None, "sd_of_rtp": None, "z": None}
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
        spread = sd * math.sqrt(staked_sq) / staked  # the SD of the actual RTP at these stakes
        half = z * spread
        found.update(band=[theoretical - half, theoretical + half],
                     inside=abs(actual - theoretical) <= half, sd_of_rtp=spread,
                     z=(actual - theoretical) / spread if spread else None)
    return found
