"""The exact RTP figures and maximum win of a game, as `Game.rtp()` and `Game.max_win()` report
them: registered by the package's `__init__` as sources in `engine.protocol` (the engine cannot
import the analysis, which imports the engine)."""

from __future__ import annotations

from reelforge.analysis.capabilities import exact_available
from reelforge.analysis.exact import analyze
from reelforge.engine.protocol import RtpFigure


def exact_figures(game) -> tuple[RtpFigure, ...]:
    """One exact RTP per mode at the maximum bet (where a progressive jackpot is live; the
    figure leaves the pool out); () for a game without an exact analysis."""
    if not exact_available(game):
        return ()
    return tuple(
        RtpFigure(mode.name, float(analyze(game, game.bet(mode=mode.name)).rtp), "exact", None,
                  f"reelforge analyze {game.id}" + ("" if mode.name == "base" else f" --mode {mode.name}"))
        for mode in game.modes)


def exact_max_win(game, bet) -> int | None:
    """The exact, attainable maximum round win at `bet` in credits; None where the exact
    analysis gives none (no exact analysis, or rules it does not cover)."""
    from reelforge.analysis.moments import NotExact, max_round_win

    if not exact_available(game):
        return None
    try:
        return max_round_win(game, bet)
    except NotExact:
        return None
