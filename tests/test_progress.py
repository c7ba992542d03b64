"""Progress on long work: bars on a terminal only, quiet elsewhere, and the library's callbacks
cover exactly the work done (issue 11, "Silent long work")."""

from __future__ import annotations

import functools
import io
import json
import os

import pytest
from rich.console import Console
from typer.testing import CliRunner

from reelforge import progress as progress_module
from reelforge.analysis import stratified
from reelforge.analysis import tune as tuning
from reelforge.analysis.montecarlo import play_rounds
from reelforge.analysis.stats import Stats
from reelforge.cli import app
from reelforge.engine.rng import chunk_generator
from reelforge.games import make, shipped_games
from reelforge.progress import bars

BAR = "━"  # rich's bar glyph (a table border may use it too: stdout is checked apart)
runner = CliRunner()


class Recorder:
    """A fake `Tasks`: records each task's total and what was advanced on it."""

    def __init__(self) -> None:
        self.tasks: list[list] = []  # [description, total, advanced]

    def __call__(self, description: str, total: float | None = None):
        row: list = [description, total, 0.0]
        self.tasks.append(row)

        def advance(amount: float = 1) -> None:
            row[2] += amount

        return advance


def plain(text: str) -> bool:
    """No cursor movement, colour or carriage return: what a log file should receive (a
    table's own border may use the bar's glyph; the bar itself goes to stderr)."""
    return "\x1b[" not in text and "\r" not in text


# -- the helper -----------------------------------------------------------------------------------
def test_a_bar_is_drawn_on_a_terminal():
    buffer = io.StringIO()
    with bars(console=Console(file=buffer, force_terminal=True, width=100)) as progress:
        assert progress.shown
        advance = progress("simulating cluedo-v1", 4)
        count = progress("exact analyses", None)
        for _ in range(4):
            advance(1)
            count(1)
    drawn = buffer.getvalue()
    assert BAR in drawn and "simulating cluedo-v1" in drawn and "exact analyses" in drawn
    assert "100.0%" in drawn


@pytest.mark.parametrize("quiet, terminal", [(True, True), (False, False)])
def test_no_bar_when_quiet_or_not_a_terminal(quiet, terminal):
    buffer = io.StringIO()
    with bars(quiet=quiet, console=Console(file=buffer, force_terminal=terminal)) as progress:
        assert not progress.shown
        advance = progress("work", 10)
        advance(10)
    assert buffer.getvalue() == ""


def test_stderr_not_a_terminal_means_no_bar_even_with_force_color(monkeypatch, capsys):
    """FORCE_COLOR or TTY_COMPATIBLE in a CI job's environment must not put bars in its log."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    with bars() as progress:
        assert not progress.shown
        progress("work", 3)(3)
    assert capsys.readouterr().err == ""


# -- commands, not on a terminal: output as before, no bar -------------------------------------------
def test_bench_prints_its_line_and_no_bar():
    result = runner.invoke(app, ["bench", "cluedo-v1", "--rounds", "2000", "--repeats", "2"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout.startswith("cluedo-v1: ") and "full rounds/s on one core (median of 2 x 2,000)" \
        in result.stdout and plain(result.stdout)
    result = runner.invoke(app, ["bench", "cluedo-v1", "--rounds", "2000", "--repeats", "2", "--json"])
    assert result.exit_code == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    assert data["rounds"] == 2000 and len(data["all_rates"]) == 2


def fake_terminal(monkeypatch) -> io.StringIO:
    """From now on stderr is a terminal for `reelforge.progress`: what it draws lands in the
    returned buffer."""
    buffer = io.StringIO()
    monkeypatch.setattr(progress_module, "_stderr_console",
                        lambda: Console(file=buffer, force_terminal=True, width=120))
    return buffer


@pytest.mark.slow
def test_report_draws_a_bar_per_game_and_mode_on_a_terminal_and_prints_the_same_table(monkeypatch):
    piped = runner.invoke(app, ["report", "--rounds", "1000"])
    assert piped.exit_code == 0, piped.output
    assert piped.stderr == "" and plain(piped.stdout)
    for game_id in shipped_games():
        assert game_id in piped.stdout
    assert "(fortune)" in piped.stdout  # the mode row (the label may wrap in its cell)
    terminal = fake_terminal(monkeypatch)
    shown = runner.invoke(app, ["report", "--rounds", "1000"])
    assert shown.exit_code == 0 and shown.stdout == piped.stdout  # same seed, same table
    drawn = terminal.getvalue()
    rows = [(g, m) for g in shipped_games()
            for m in ["base"] + [x.name for x in make(g).spec.modes if x.name != "base"]]
    assert BAR in drawn
    for i, (game_id, mode) in enumerate(rows, 1):
        label = game_id if mode == "base" else f"{game_id} ({mode})"
        assert f"{i}/{len(rows)} {label}" in drawn


def test_bench_draws_its_bars_on_a_terminal_but_not_with_json(monkeypatch):
    terminal = fake_terminal(monkeypatch)
    result = runner.invoke(app, ["bench", "cluedo-v1", "--rounds", "2000", "--repeats", "2", "--json"])
    assert result.exit_code == 0 and terminal.getvalue() == ""
    json.loads(result.stdout)
    result = runner.invoke(app, ["bench", "cluedo-v1", "--rounds", "2000", "--repeats", "2"])
    assert result.exit_code == 0 and result.stdout.startswith("cluedo-v1: ")
    assert BAR in terminal.getvalue() and "2 x 2,000 rounds" in terminal.getvalue()


@pytest.fixture
def small_pilot(monkeypatch):
    """`reelforge estimate` as it is, with a pilot of 100,000 base spins instead of 2,000,000."""
    monkeypatch.setattr(stratified, "estimate",
                        functools.partial(stratified.estimate, pilot_spins=100_000))


def test_estimate_json_is_one_object_and_no_bar(small_pilot):
    result = runner.invoke(app, ["estimate", "candy-jar-clusters-v1", "--ci", "0.05", "--json",
                                 "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    figures = json.loads(result.stdout)
    assert figures["game"] == "candy-jar-clusters-v1" and figures["base_spins"] > 0


# -- estimate --out: refused before the run --------------------------------------------------------
@pytest.fixture
def no_run(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the estimate ran before its --out was checked")

    monkeypatch.setattr(stratified, "estimate", refuse)


def test_estimate_out_in_a_missing_folder_is_refused_before_the_run(tmp_path, no_run):
    target = tmp_path / "missing" / "estimate.json"
    result = runner.invoke(app, ["estimate", "candy-jar-clusters-v1", "--out", str(target)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "--out" in result.stderr and str(target) in result.stderr
    assert "does not exist" in result.stderr and "Traceback" not in result.output


def test_estimate_out_that_is_a_folder_is_refused_before_the_run(tmp_path, no_run):
    result = runner.invoke(app, ["estimate", "candy-jar-clusters-v1", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and str(tmp_path) in result.stderr and "folder" in result.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_estimate_out_in_a_read_only_folder_is_refused_before_the_run(tmp_path, no_run):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = runner.invoke(app, ["estimate", "candy-jar-clusters-v1", "--out", str(folder / "e.json")])
    finally:
        folder.chmod(0o700)
    assert result.exit_code == 2 and "not writable" in result.stderr


def test_tune_out_in_a_missing_folder_is_refused_before_tuning(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("tuned before --out was checked")

    monkeypatch.setattr(tuning, "tune_text", refuse)
    target = tmp_path / "missing" / "cluedo-95-v1.toml"
    result = runner.invoke(app, ["tune", "cluedo-v1", "--rtp", "0.95", "--out", str(target)])
    assert result.exit_code == 2 and "does not exist" in result.stderr


# -- the library's callbacks cover the work, and do not change it -------------------------------------
def test_estimate_progress_covers_every_chunk_and_workers_do_not_change_the_figures():
    sizes = {"base_spins": 3 * stratified.CHUNK // 4, "feature_rounds": {m: 1500 for m in range(1, 8)}}
    one = Recorder()
    alone = stratified.estimate("candy-jar-clusters-v1", seed=3, workers=1, progress=one, **sizes)
    two = Recorder()
    pooled = stratified.estimate("candy-jar-clusters-v1", seed=3, workers=2, progress=two, **sizes)
    # chunks finish in any order on a pool; they are merged in task order, so nothing changes
    assert alone.to_dict() == pooled.to_dict()
    for recorder in (one, two):
        assert len(recorder.tasks) == 1
        _description, total, advanced = recorder.tasks[0]
        assert total > 0 and advanced == pytest.approx(total, rel=1e-12)


def test_estimate_sizes_its_run_from_a_pilot_in_measured_seconds():
    recorder = Recorder()
    stratified.estimate("candy-jar-clusters-v1", seed=4, half_width=0.05, pilot_spins=50_000,
                        workers=1, progress=recorder)
    (pilot, pilot_total, pilot_done), (run, run_total, run_done) = recorder.tasks
    assert "pilot" in pilot and pilot_done == pytest.approx(pilot_total, rel=1e-12)
    assert "base spins" in run and run_done == pytest.approx(run_total, rel=1e-12)
    # the run's shares are the pilot's seconds per spin and round: a run of seconds, not of
    # millions of cost units
    assert 0 < run_total < 600


def test_feel_played_in_pieces_is_the_same_run(monkeypatch):
    game = make("cluedo-v1")
    bet = game.bet()
    whole = play_rounds(game, bet, chunk_generator(5, 0), 30_000)
    monkeypatch.setattr(tuning, "FEEL_PIECE", 7_000)  # 4 pieces and a remainder
    seen: list[float] = []
    feel = tuning._feel(game.spec, "base", 30_000, 5, seen.append)
    assert seen == [7_000] * 4 + [2_000]
    assert feel["hit frequency"][0] == whole.hit_frequency
    assert feel["standard deviation"][0] == whole.standard_deviation
    pieces = Stats.empty()
    rng = chunk_generator(5, 0)
    for n in (7_000, 7_000, 7_000, 7_000, 2_000):
        pieces = pieces.merge(play_rounds(game, bet, rng, n))
    assert pieces == whole


def test_tune_reports_each_analysis_and_every_feel_round():
    text = shipped_games()["cluedo-v1"].read_text(encoding="utf-8")
    recorder = Recorder()
    result = tuning.tune_text(text, "cluedo-v1.toml", 0.95, "cluedo-95-v1", progress=recorder)
    (search, total, analyses), = recorder.tasks
    assert "base" in search and total is None
    assert analyses == result.modes[0].evaluations + 1  # the search's analyses and the source's
    tuning.compare_feel(result, rounds=20_000, seed=1, progress=recorder)
    _feel, total, played = recorder.tasks[1]
    assert total == played == 2 * 20_000
