"""Analysis: exact figures, Monte Carlo statistics, reports. Imports the engine, never numba.

Importing it registers the exact analysis as a source of `Game.rtp()` and `Game.max_win()`
(engine.protocol): the engine cannot import the analysis, which imports the engine. The
analysis modules themselves load when a figure is first asked for.
"""

from reelforge.engine.protocol import register_max_win_source, register_rtp_source


def _exact_figures(game) -> tuple:
    from reelforge.analysis.figures import exact_figures

    return exact_figures(game)


def _exact_max_win(game, bet) -> int | None:
    from reelforge.analysis.figures import exact_max_win

    return exact_max_win(game, bet)


register_rtp_source(_exact_figures)
register_max_win_source(_exact_max_win)
