"""The highest award occurs at least once in 100,000,000 games, or its odds are shown
(standards.md F1, GLI-19 4.7.3), for the games whose awards the exact analysis counts: every
shipped line game's top paytable award (the PAR sheet's exact_figures.top_award, base and free
games together) and, where the game has one, its progressive jackpot, at the maximum bet.

The rates are the exact analysis's; the top award is chosen here from the game file's own
paytable (the largest pay, the rarer of equal pays), not taken from the PAR code.
"""

from __future__ import annotations

import pytest

import reelforge.analysis  # noqa: F401 - registers the exact figures
from reelforge.analysis.exact import analyze
from reelforge.engine.capabilities import EXACT_LINES
from reelforge.games import make, shipped_games

ONCE_IN = 100_000_000
LINE_GAMES = sorted(g for g in shipped_games() if EXACT_LINES in make(g).capabilities)


def test_the_line_games_are_found():
    assert {"cluedo-v1", "cops-n-robbers-v1"} <= set(LINE_GAMES)


@pytest.mark.parametrize("game_id", LINE_GAMES)
def test_the_top_award_and_jackpot_occur_at_least_once_in_100_million_rounds(game_id):
    game = make(game_id)
    for mode in game.modes:
        result = analyze(game, game.bet(mode=mode.name))
        pays = {symbol: dict(counts) for symbol, counts in game.spec.paytable}
        awards = [a for a in result.award_table() if pays.get(a["symbol"], {}).get(a["count"])]
        assert awards, f"{game_id} {mode.name}: no paid award counted"
        best = max(pays[a["symbol"]][a["count"]] for a in awards)
        top = min((a for a in awards if pays[a["symbol"]][a["count"]] == best),
                  key=lambda a: a["per_round"])
        assert top["per_round"] * ONCE_IN >= 1, (game_id, mode.name, top)
        if game.spec.jackpot is not None and mode.name == "base":
            assert result.jackpot_probability * ONCE_IN >= 1, (game_id, result.jackpot_probability)
