"""Figures that say a game cannot be what its designer meant, for `reelforge check`: a mode that
pays back more than it takes. (What no round can ever reach, a trigger beyond the grid or free
spins without a bound, the loader refuses with the key that says so: spec/ and the rules'
parse_features.)"""

from __future__ import annotations

import math

import numpy as np

from reelforge.engine.round import play_round

# How many standard errors a sampled RTP must lie above 100% before check calls it so: at 4 a
# fair game is called paying more than it takes about once in 30,000 checks.
SAMPLE_SE = 4


def rtp_above_one(game, rounds: int, seed: int = 0) -> list[str]:
    """One line per mode whose RTP at the maximum bet is above 100%: the exact figure where
    the analysis has one, a published estimate whose whole 95% interval lies above, else the
    mean of `rounds` sampled rounds more than SAMPLE_SE standard errors above."""
    import reelforge.analysis  # noqa: F401 - registers the exact figures as a source

    figures = {f.mode: f for f in game.rtp()}
    found = []
    for mode in game.modes:
        where = "base game" if mode.name == "base" else f"modes.{mode.name}"
        figure = figures.get(mode.name)
        if figure is not None and figure.source == "exact":
            if figure.value > 1:
                found.append(f"{game.id}: {where}: RTP {float(figure.value):.4%} (exact) is above "
                             "100%: the game pays back more than it takes")
            continue
        if figure is not None and figure.ci95 is not None:
            if figure.value - figure.ci95 > 1:
                found.append(f"{game.id}: {where}: RTP {figure.value:.4%} (published estimate, "
                             f"95% CI ±{figure.ci95 * 100:.3f} pp) is above 100%")
            continue
        bet = game.bet(mode=mode.name)
        price = game.price(bet)
        rng = np.random.Generator(np.random.PCG64(seed))
        wins = np.array([play_round(game, bet, rng).total_win for _ in range(rounds)],
                        dtype=np.float64) / price
        mean = float(wins.mean())
        se = float(wins.std(ddof=1)) / math.sqrt(rounds) if rounds > 1 else math.inf
        if mean - SAMPLE_SE * se > 1:
            found.append(f"{game.id}: {where}: RTP {mean:.2%} ± {se * 100:.2f} pp (1 SE) over "
                         f"{rounds:,} sampled rounds, more than {SAMPLE_SE} SE above 100%: the "
                         "game pays back more than it takes")
    return found
