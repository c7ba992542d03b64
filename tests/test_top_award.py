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


@pytest.mark.parametrize("game_id", ["cluedo-v1", "cops-n-robbers-v1", "cops-n-robbers-94-v1"])
def test_the_information_pages_show_the_top_awards_odds(game_id):
    """F1's "or its odds shown" and F4 (GlueStV 22a(3): the probability of the top prize): the
    pages the server sends and the client shows word for word (`info.help`) name the top award
    and its exact odds at the maximum bet."""
    from reelforge.server.services import catalog

    game = make(game_id)
    result = analyze(game, game.bet(mode="base"))
    pays = {symbol: dict(counts) for symbol, counts in game.spec.paytable}
    awards = [a for a in result.award_table() if pays.get(a["symbol"], {}).get(a["count"])]
    best = max(pays[a["symbol"]][a["count"]] for a in awards)
    top = min((a for a in awards if pays[a["symbol"]][a["count"]] == best),
              key=lambda a: a["per_round"])
    name = next(s.name for s in game.spec.symbols if s.id == top["symbol"])
    served = catalog.configured_game(game_id, "on")
    words = [item for section in catalog.game_help(served)["sections"]
             for block in section["blocks"] if block["kind"] == "ul"
             for item in block["items"]]
    said = [" ".join(p for p in item if isinstance(p, str)) for item in words]
    expected = (f"{top['count']} {name} on a line ({best:,} times the bet on that line), comes "
                f"on average once in {round(1 / top['per_round']):,} plays at the maximum bet")
    assert any(expected in line for line in said), (expected, said)
