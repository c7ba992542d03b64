"""The command line refuses cleanly (issue 11): resumed Fortune runs, checkpoints that were
edited, outcomes from another game file or naming a path, a full disk, a JSON nested too
deep, a thousand workers, free games that never end. Each: one line, a non-zero exit, no
traceback; or, for the resume, the right result."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tiny_games import ALWAYS_RETRIGGER

from reelforge.analysis.montecarlo import max_workers
from reelforge.games import shipped_games

GAMES = Path(__file__).resolve().parents[1] / "src" / "reelforge" / "games"


def cli(*args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """The real program (`main`, as installed) in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return subprocess.run([sys.executable, "-m", "reelforge.cli", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300, env=env, check=False)


def invoke(*args: str) -> subprocess.CompletedProcess:
    """The command in this process (typer's runner): as `cli`, without an interpreter's start."""
    from typer.testing import CliRunner

    from reelforge.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def refused(proc: subprocess.CompletedProcess, code: int = 2) -> str:
    """The one stderr line of a command that failed with `code`, without a traceback."""
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: "), lines[0]
    return lines[0]


# ---------------------------------------------------------------- checkpoints

FORTUNE = ["simulate", "cops-n-robbers-v1", "--mode", "fortune", "-n", "60000", "--chunk-size", "20000",
           "--seed", "2", "--workers", "1", "--json"]


def test_a_fortune_run_resumes_from_its_checkpoint(tmp_path):
    path = str(tmp_path / "fortune.json")
    first = invoke(*FORTUNE, "--checkpoint", path)
    assert first.returncode == 0, first.stderr
    again = invoke(*FORTUNE, "--checkpoint", path, "--resume")
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert json.loads(first.stdout)["total_bet"] == 2 * 10 * 50  # price 2 x the stake


def test_an_edited_checkpoint_is_one_line(tmp_path):
    path = tmp_path / "fortune.json"
    assert invoke(*FORTUNE, "--checkpoint", str(path)).returncode == 0
    data = json.loads(path.read_text())
    data["stats"]["total_win"] *= 11
    path.write_text(json.dumps(data))
    line = refused(invoke(*FORTUNE, "--checkpoint", str(path), "--resume"))
    assert str(path) in line and "edited or corrupt" in line


@pytest.mark.parametrize("where", ["/dev/full/run.json", "/dev/zero"])
def test_a_checkpoint_that_cannot_be_written_or_read_is_one_line(where):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    args = [*FORTUNE, "--checkpoint", where] + (["--resume"] if where == "/dev/zero" else [])
    line = refused(invoke(*args))
    assert where in line
    assert ("cannot write" if where.startswith("/dev/full") else "not a regular file") in line


# ---------------------------------------------------------------- output to a full disk

@pytest.mark.slow
@pytest.mark.parametrize("args", [["play", "cluedo-v1"],
                                  ["simulate", "cluedo-v1", "-n", "2000", "--workers", "1"],
                                  ["simulate", "cluedo-v1", "-n", "2000", "--workers", "1", "--json"]],
                         ids=["play", "simulate-table", "simulate-json"])
def test_output_to_a_full_disk_is_one_line(args):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        line = refused(cli(*args, stdout=full))
    assert line == "error: standard output: No space left on device"


# ---------------------------------------------------------------- replay


@pytest.fixture(scope="module")
def played() -> dict:
    proc = cli("play", "cluedo-v1")  # the real program once: what a player's file holds
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def stored(tmp_path: Path, outcome, name: str = "outcome.json") -> str:
    path = tmp_path / name
    path.write_text(outcome if isinstance(outcome, str) else json.dumps(outcome))
    return str(path)


def test_an_outcome_records_its_game_file_and_replays(tmp_path, played):
    import hashlib

    text = (GAMES / "cluedo" / "cluedo-v1.toml").read_text(encoding="utf-8")
    assert played["game_sha256"] == hashlib.sha256(text.encode("utf-8")).hexdigest()
    proc = invoke("replay", stored(tmp_path, played))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == played


def test_an_outcome_relabelled_to_another_variant_is_refused(tmp_path, played):
    assert "cluedo-96-v1" in shipped_games()
    relabelled = {**played, "game_id": "cluedo-96-v1"}
    line = refused(invoke("replay", stored(tmp_path, relabelled)))
    assert played["game_sha256"] in line and "cluedo-96-v1.toml" in line
    # the same with the variant's file given by hand
    line = refused(invoke("replay", stored(tmp_path, relabelled), "--game",
                       str(GAMES / "cluedo" / "cluedo-96-v1.toml")))
    assert played["game_sha256"] in line


def test_an_outcome_without_its_game_files_digest_is_refused(tmp_path, played):
    old = {k: v for k, v in played.items() if k != "game_sha256"}
    assert "records no game_sha256" in refused(invoke("replay", stored(tmp_path, old)))


@pytest.mark.parametrize("game_id", ["../../../../etc/passwd", "/etc/passwd", "cluedo-v1/../../x-v1",
                                     "Cluedo-v1", "cluedo-v1 ", 7, None])
def test_an_outcome_naming_a_path_opens_nothing(tmp_path, played, game_id):
    line = refused(invoke("replay", stored(tmp_path, {**played, "game_id": game_id})))
    assert f"game_id = {game_id!r}: not a game id" in line
    assert "root:" not in line  # /etc/passwd's first line is never quoted


def test_a_valid_id_that_is_not_shipped_needs_the_game_file(tmp_path, played):
    path = tmp_path / "my-game-v1.toml"
    text = (GAMES / "cluedo" / "cluedo-v1.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('id = "cluedo-v1"', 'id = "my-game-v1"', 1), encoding="utf-8")
    line = refused(invoke("replay", stored(tmp_path, {**played, "game_id": "my-game-v1"})))
    assert "not a shipped game" in line and "--game" in line
    # given, it is the file that is checked: same id, but not the text that played the round
    line = refused(invoke("replay", stored(tmp_path, {**played, "game_id": "my-game-v1"}), "--game", str(path)))
    assert "SHA-256" in line


def test_the_shipped_game_file_given_with_game_replays(tmp_path, played):
    proc = invoke("replay", stored(tmp_path, played), "--game", str(GAMES / "cluedo" / "cluedo-v1.toml"))
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("content", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000],
                         ids=["list", "object"])
def test_an_outcome_nested_too_deep_is_one_line(tmp_path, content):
    line = refused(invoke("replay", stored(tmp_path, content, "deep.json")))
    assert "deep.json" in line and "nested too deep" in line


def test_replay_of_a_device_reads_nothing():
    assert "not a regular file" in refused(invoke("replay", "/dev/zero"))


# ---------------------------------------------------------------- workers, endless free games

@pytest.mark.parametrize("extra", [[], ["--dask"]], ids=["pool", "dask"])
def test_a_thousand_workers_are_refused_naming_the_limit(extra):
    line = refused(invoke("simulate", "cluedo-v1", "-n", "1000", "--workers", "1000", *extra))
    assert f"--workers = 1000: at most {max_workers()}" in line


ENDLESS = """
[game]
id = "endless-v1"
name = "Endless"
reels = 3
rows = 1

[symbols]
A = { role = "regular" }
S = { role = "scatter" }

[paytable]
A = { 3 = 5 }

[lines]
paylines = [[0, 0, 0]]

[scatter.S]
pays = { 2 = 1 }

[reels.base]
strips = ["A S", "A S", "A A"]

FREE_REELS

[bet]
max_bet_per_line = 1

[features.free_games]
trigger = "S"
award = { 2 = 1 }
retrigger = "unlimited"
reel_set = "free"
"""


@pytest.mark.parametrize("free_reels", [
    '[reels.free]\nstrips = ["S A", "S", "A"]\nweights = [[99999, 1], [1], [1]]',
    '[reels.free]\nstrips = ["S", "S", "A"]',
], ids=["almost-never-ends", "never-ends"])
def test_free_games_that_do_not_end_give_no_figure(tmp_path, free_reels):
    """Free reels that retrigger with probability 0.99999 (a finite mean, so the loader takes
    them, but rounds reach the 100,000-spin guard) or always (the loader may refuse the file
    itself): either way one line, exit 2, and no RTP."""
    path = tmp_path / "endless-v1.toml"
    path.write_text(ENDLESS.replace("FREE_REELS", free_reels))
    for extra in ([], ["--json"]):
        proc = invoke("simulate", str(path), "-n", "100", "--chunk-size", "10", "--workers", "1", *extra)
        line = refused(proc)
        assert proc.stdout == ""
        assert "did not end" in line or "never ends" in line, line
    if "weights" in free_reels:
        assert "endless-v1: the free games did not end" in line and "spin guard" in line
    # the run stops there, and says that a resume would meet the same chunk again
    if "weights" in free_reels:
        assert "--resume replays it" in line and "needs a cap" in line


# ---------------------------------------------------------------- review: replay's own checks

def test_an_outcome_with_an_empty_digest_says_empty(tmp_path, played):
    line = refused(invoke("replay", stored(tmp_path, {**played, "game_sha256": ""})))
    assert "records an empty game_sha256" in line


@pytest.mark.parametrize(("edit", "says"), [
    ({"bet": [10, 1]}, "outcome bet = [10, 1]: expected an object"),
    ({"bet": {"lines": 10}}, "expected an object of lines, bet_per_line"),
    ({"bet": {"lines": 10, "bet_per_line": 1, "mode": 3}}, "mode must be a string"),
    ({"bet": {"lines": "10", "bet_per_line": 1}}, "bet lines = '10': must be an integer"),
    ({"seed": 12}, "outcome seed = 12: expected up to 64 hexadecimal digits"),
    ({"seed": "zz"}, "outcome seed = 'zz'"),
    ({"seed": "f" * 65}, "expected up to 64 hexadecimal digits"),
], ids=["bet-list", "bet-partial", "mode-int", "lines-text", "seed-int", "seed-not-hex", "seed-long"])
def test_a_malformed_outcome_field_is_one_line_naming_it(tmp_path, played, edit, says):
    """Every field replay reads is checked where it is read: no exception of the wrong kind
    is caught and relabelled (a bug would show as a traceback, not as bad input)."""
    line = refused(invoke("replay", stored(tmp_path, {**played, **edit})))
    assert says in line, line


# ---------------------------------------------------------------- a reader that leaves early

def closed_pipe_run(args: list[str], code: str | None = None) -> subprocess.CompletedProcess:
    """The real program with its stdout a pipe whose reader is gone (`... | head` after head
    exits): the first write fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "reelforge.cli", *args]
        return subprocess.run(command, stdout=write, stderr=subprocess.PIPE, text=True, timeout=300,
                              check=False)
    finally:
        os.close(write)


@pytest.mark.slow
@pytest.mark.parametrize("args", [["games"], ["play", "cluedo-v1"],
                                  ["simulate", "cluedo-v1", "-n", "2000", "--workers", "1", "--json"]],
                         ids=["rich-table", "print", "json"])
def test_a_reader_that_left_ends_the_program_quietly_with_141(args):
    proc = closed_pipe_run(args)
    assert (proc.returncode, proc.stderr) == (141, "")


def test_a_broken_pipe_met_inside_a_command_also_ends_with_141():
    """typer answers EPIPE raised inside a command itself (exit 1); main makes it the same 141."""
    code = ("import errno, typer\nfrom reelforge import cli\napp = typer.Typer()\n"
            "@app.command()\ndef write() -> None:\n"
            "    raise BrokenPipeError(errno.EPIPE, 'Broken pipe')\n"
            "cli.app = app\ncli.main()\n")
    proc = closed_pipe_run([], code)
    assert (proc.returncode, proc.stderr) == (141, "")


# ---------------------------------------------------------------- the capped 1e9 file, par paths

HUGE_CAP = ALWAYS_RETRIGGER + 'retrigger = "capped"\nmax_total_spins = 1000000000\n'


@pytest.mark.parametrize("command", [["check"], ["par", "--out", "OUT"], ["analyze"],
                                     ["simulate", "-n", "1000", "--workers", "1"]],
                         ids=["check", "par", "analyze", "simulate"])
def test_the_capped_1e9_file_is_refused_at_load_by_every_command(tmp_path, command):
    """The issue's hanging file: every command now stops at the loader's one line."""
    path = tmp_path / "hang.toml"
    path.write_text(HUGE_CAP)
    name, *options = command
    options = [str(tmp_path / "out") if o == "OUT" else o for o in options]
    line = refused(invoke(name, str(path), *options))
    assert line.startswith(f"error: {path}: features.free_games.max_total_spins = 1000000000: "
                           "above the engine's spin guard"), line
    assert not (tmp_path / "out").exists()


def test_par_writes_nothing_outside_out(tmp_path):
    out = tmp_path / "a" / "out"
    line = refused(invoke("par", "cops-n-robbers-v1", "--out", str(out), "--mode", "../../x", "-n", "1000"))
    assert "--mode" in line or "mode = '../../x'" in line, line
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == []


def test_the_par_writers_refuse_a_name_that_leaves_the_folder(tmp_path):
    """The last line of defence, whatever the loader let through: a stem with a path in it,
    or a file name in --out that is a link to elsewhere."""
    from reelforge.analysis.par_clusters import write_cluster_par
    from reelforge.analysis.par_html import par_paths, write_par
    from reelforge.errors import InvalidArgument

    out = tmp_path / "out"
    figures = {"reproduce": ["reelforge", "par", "x"], "game_id": "cluedo-v1", "bet": {"mode": "../../x"}}
    with pytest.raises(InvalidArgument, match=r"--out .*: PAR file name 'cluedo-v1-\.\./\.\./x-par.html' would be written outside"):
        write_par(figures, out)
    with pytest.raises(InvalidArgument, match="outside the folder"):
        write_cluster_par({**figures, "game_id": "../candy-v1"}, out)
    (out / "cluedo-v1-par.html").symlink_to(tmp_path / "elsewhere.html")
    with pytest.raises(InvalidArgument, match="'cluedo-v1-par.html' would be written outside"):
        par_paths(out, "cluedo-v1")
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []
    assert par_paths(out, "cops-n-robbers-v1-fortune") == (out / "cops-n-robbers-v1-fortune-par.html",
                                                           out / "cops-n-robbers-v1-fortune-par.json")
