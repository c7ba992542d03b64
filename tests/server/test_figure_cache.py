"""The served games' figures kept on disk (services/catalog.py `_max_win`, `rtp_figures`): what a later
process reads back is exactly what the game computes, and a damaged entry is computed again."""

from __future__ import annotations

import pytest

import reelforge.analysis  # noqa: F401 - registers the exact figures behind max_win()
from reelforge.server.services import catalog

FIGURES = {"max-win": catalog._max_win, "rtp": catalog.rtp_figures}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REELFORGE_CACHE_DIR", str(tmp_path))
    for figure in FIGURES.values():
        figure.cache_clear()
    yield tmp_path
    for figure in FIGURES.values():
        figure.cache_clear()


@pytest.mark.parametrize("name", sorted(FIGURES))
@pytest.mark.parametrize("game_id", ["cops-n-robbers-v1", "candy-jar-clusters-v1"])
def test_a_later_process_reads_the_same_figure(cache, game_id: str, name: str) -> None:
    game, figure = catalog.configured_game(game_id, "on"), FIGURES[name]
    computed = figure(game)
    assert computed == (game.max_win() if name == "max-win" else tuple(game.rtp()))
    [entry] = cache.glob(f"{name}-*.json")
    figure.cache_clear()  # as a new process would
    assert figure(game) == computed
    entry.write_text('{"credits": "lots"')  # damaged: computed again, and rewritten
    figure.cache_clear()
    assert figure(game) == computed
    figure.cache_clear()
    assert figure(game) == computed


def test_another_setting_is_another_entry(cache) -> None:
    for gamble in ("on", "off"):
        catalog._max_win(catalog.configured_game("cops-n-robbers-v1", gamble))
    assert len(list(cache.glob("max-win-*.json"))) == 2
