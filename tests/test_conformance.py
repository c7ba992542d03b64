"""The outside exam: 38 published RTP figures of three real games, from data alone."""

import tomllib
from pathlib import Path

import pytest

from reelforge.analysis.exact import analyze
from reelforge.engine.game import LineGame
from reelforge.spec import load_spec

FOLDER = Path(__file__).parents[1] / "conformance"
PUBLISHED = tomllib.loads((FOLDER / "published.toml").read_text())


def test_all_38_published_figures_are_present():
    assert len(PUBLISHED) == 38
    games = {name.split("-rtp")[0] for name in PUBLISHED}
    assert games == {"cleopatra", "dolphinspearl", "chicago"}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_exact_rtp_reproduces_the_published_figure(name):
    entry = PUBLISHED[name]
    game = LineGame.from_spec(load_spec(FOLDER / entry["file"]))
    assert game.id == name
    computed = analyze(game).rtp * 100
    # published to 6 decimals: a difference under 1e-6 percentage points is agreement
    assert abs(computed - float(entry["rtp_percent"])) < 1e-6, (computed, entry["rtp_percent"])
