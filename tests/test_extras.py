"""The optional extras: matplotlib ('plots') is imported only to draw a PAR sheet, and an
install without it says so in one line naming the extra. ('distributed': tests/test_distributed.py.)"""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from reelforge.analysis.par_html import PLOTS_MISSING, win_distribution_plot
from reelforge.cli import app
from reelforge.errors import ReelforgeError


def hide_matplotlib(monkeypatch) -> None:
    """What `from matplotlib.figure import Figure` meets when the extra is not installed."""
    for name in ("matplotlib", "matplotlib.figure"):
        monkeypatch.setitem(sys.modules, name, None)


def test_simulating_and_the_cli_never_import_matplotlib():
    code = ("import sys; import reelforge.cli, reelforge.analysis.par, reelforge.analysis.par_clusters; "
            "from reelforge.analysis.montecarlo import simulate; from reelforge.games import make; "
            "simulate('cluedo-v1', make('cluedo-v1').max_bet, 20000, 1, 5000, 1); "
            "bad = [m for m in sys.modules if m.split('.')[0] == 'matplotlib']; assert not bad, bad")
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_a_missing_plots_extra_is_one_line_naming_it(monkeypatch):
    hide_matplotlib(monkeypatch)
    assert "pip install 'reelforge[plots]'" in PLOTS_MISSING
    with pytest.raises(ReelforgeError) as caught:
        win_distribution_plot({})
    assert str(caught.value) == PLOTS_MISSING


@pytest.mark.parametrize(("game_id", "builder"), [
    ("cluedo-v1", "reelforge.analysis.par.build_par"),
    ("candy-jar-clusters-v1", "reelforge.analysis.par_clusters.build_cluster_par")])
def test_par_without_the_plots_extra_is_one_line_before_the_run_and_writes_nothing(
        monkeypatch, tmp_path, game_id, builder):
    """Refused up front: neither the game is compiled nor its figures built (the default run
    of 2,000,000 rounds would take a while) only to fail at the plots."""
    hide_matplotlib(monkeypatch)
    started = []
    monkeypatch.setattr("reelforge.cli.analysis._game", lambda ref: started.append(ref))
    monkeypatch.setattr(builder, lambda *a, **k: started.append("build"))
    result = CliRunner().invoke(app, ["par", game_id, "--out", str(tmp_path)],
                                catch_exceptions=False)
    assert result.exit_code == 2, result.stdout
    assert result.stderr.strip() == f"error: {PLOTS_MISSING}"
    assert started == []
    assert not list(tmp_path.iterdir())  # nothing half written
