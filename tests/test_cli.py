"""The `reelforge` command line: listing, simulate determinism, one-line errors, play/replay, analyze."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reelforge.cli import app
from reelforge.games import shipped_games

CLUEDO_PATH = Path(__file__).resolve().parents[1] / "src" / "reelforge" / "games" / "cluedo" / "cluedo-v1.toml"
CLUEDO = CLUEDO_PATH.read_text(encoding="utf-8")

runner = CliRunner()

SIM = ["simulate", "cluedo-v1", "--rounds", "20000", "--seed", "3", "--json"]


def invoke(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The real program in a fresh interpreter: separate, real stdout and stderr."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return subprocess.run([sys.executable, "-m", "reelforge.cli", *args], capture_output=True,
                          text=True, timeout=300, env=env, cwd=cwd, check=False)


def one_line(stderr: str) -> str:
    """The single non-empty stderr line of a failed command (and no traceback)."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{stderr}"
    return lines[0]


def json_object(stdout: str) -> dict:
    data = json.loads(stdout)
    assert isinstance(data, dict)
    return data


# ---------------------------------------------------------------- games


def test_games_lists_cluedo():
    result = invoke("games")
    assert result.exit_code == 0
    ids = [line.split()[0] for line in result.stdout.splitlines() if line.strip()]
    assert "cluedo-v1" in ids
    assert sorted(ids) == sorted(shipped_games())


@pytest.mark.slow
def test_installed_program_runs_as_a_module():
    proc = cli("games")
    assert proc.returncode == 0, proc.stderr
    assert "cluedo-v1" in proc.stdout
    assert proc.stderr == ""


# ---------------------------------------------------------------- simulate


@pytest.fixture(scope="module")
def sim_one_worker() -> str:
    result = invoke(*SIM, "--workers", "1")
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_simulate_json_is_one_object_with_the_figures(sim_one_worker):
    assert len(sim_one_worker.strip().splitlines()) == 1
    data = json_object(sim_one_worker)
    for key in ("rtp", "rtp_standard_error", "rounds", "hit_frequency", "max_win"):
        assert key in data, key
    assert data["rounds"] == 20000
    assert data["game"] == "cluedo-v1" and data["seed"] == 3
    assert data["bet"] == {"lines": 20, "bet_per_line": 5, "mode": "base", "price": 100}
    from reelforge.analysis.exact import analyze
    from reelforge.games import make

    exact = analyze(make("cluedo-v1"))
    assert abs(data["rtp"] - exact.rtp) < 4 * data["rtp_standard_error"]
    # the SE is the JSON's own SD over sqrt(rounds)
    assert data["rtp_standard_error"] == pytest.approx(data["standard_deviation"] / 20000**0.5)
    assert data["hit_frequency"] == pytest.approx(1 - data["win_distribution"]["0"] / 20000)
    assert data["max_win"] * 100 == data["max_win_credits"]
    assert sum(data["win_distribution"].values()) == 20000


def test_simulate_is_deterministic(sim_one_worker):
    again = invoke(*SIM, "--workers", "1")
    assert again.exit_code == 0
    assert again.stdout == sim_one_worker


def test_simulate_other_seed_differs(sim_one_worker):
    other = invoke("simulate", "cluedo-v1", "--rounds", "20000", "--seed", "4", "--json", "--workers", "1")
    assert other.exit_code == 0
    assert json_object(other.stdout)["rtp"] != json_object(sim_one_worker)["rtp"]


def test_simulate_same_result_whatever_the_workers():
    chunked = [*SIM, "--chunk-size", "5000"]
    one = invoke(*chunked, "--workers", "1")
    two = invoke(*chunked, "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, (one.stderr, two.stderr)
    assert json_object(one.stdout)["rounds"] == 20000
    assert two.stdout == one.stdout


# ---------------------------------------------------------------- bad game files

BAD_FILES = [
    # id, old, new, dotted key, bad value as printed
    ("unknown-symbol-on-strip", '"CANDLESTICK ROPE ROPE WRENCH', '"CANDLESTICK ZORRO ROPE WRENCH',
     "reels.base.strips[1]", "'ZORRO'"),
    ("payline-row-out-of-range", "[1, 1, 1, 1, 1], [0, 0, 0, 0, 0]", "[1, 1, 1, 1, 3], [0, 0, 0, 0, 0]",
     "lines.paylines[1]", "[1, 1, 1, 1, 3]"),
    ("negative-pay", "PLUM = { 3 = 25,", "PLUM = { 3 = -25,", "paytable.PLUM.3", "-25"),
    ("unknown-feature", "[features.gamble]", "[features.gambel]", "features.gambel", "'red_black'"),
    ("wrong-type", "reels = 5", 'reels = "five"', "game.reels", "'five'"),
]


@pytest.mark.parametrize(("old", "new", "key", "value"),
                         [case[1:] for case in BAD_FILES], ids=[case[0] for case in BAD_FILES])
def test_simulate_bad_game_file_is_one_line_exit_2(tmp_path, old, new, key, value):
    assert old in CLUEDO
    bad = tmp_path / "bad-game.toml"
    bad.write_text(CLUEDO.replace(old, new, 1), encoding="utf-8")
    proc = cli("simulate", str(bad), "--rounds", "1000", "--workers", "1", "--json")
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    line = one_line(proc.stderr)
    assert str(bad) in line
    assert key in line
    assert value in line


def test_unknown_game_id_lists_the_shipped_ids():
    result = invoke("simulate", "no-such-game-v9", "--rounds", "1000")
    assert result.exit_code == 2
    line = one_line(result.stderr)
    assert "no-such-game-v9" in line
    for game_id in shipped_games():
        assert game_id in line


@pytest.mark.parametrize(("option", "value", "name"), [
    ("--lines", "21", "lines"),
    ("--lines", "0", "lines"),
    ("--bet-per-line", "0", "bet_per_line"),
    ("--bet-per-line", "6", "bet_per_line"),
])
@pytest.mark.parametrize("command", ["simulate", "analyze", "play"])
def test_invalid_bet_is_one_line_exit_2(command, option, value, name):
    args = [command, "cluedo-v1", option, value]
    if command == "simulate":
        args += ["--rounds", "1000", "--workers", "1"]
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    line = one_line(result.stderr)
    assert f"{name} = {value}" in line


def test_bad_chunk_size_is_one_line_exit_2():
    proc = cli("simulate", "cluedo-v1", "--rounds", "1000", "--chunk-size", "0", "--workers", "1")
    assert proc.returncode == 2, proc.stderr
    line = one_line(proc.stderr)
    assert "0" in line and "chunk" in line.lower()


# ---------------------------------------------------------------- play and replay


@pytest.fixture(scope="module")
def played() -> str:
    result = invoke("play", "cluedo-v1")
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_play_prints_an_outcome(played):
    outcome = json_object(played)
    assert outcome["game_id"] == "cluedo-v1"
    assert len(outcome["seed"]) == 64 and int(outcome["seed"], 16) >= 0
    assert outcome["bet"]["lines"] == 20 and outcome["bet"]["bet_per_line"] == 5
    assert isinstance(outcome["total_win"], int) and outcome["total_win"] >= 0
    assert outcome["spins"] and outcome["spins"][0]["kind"] == "base"


def test_replay_of_a_played_round_matches(tmp_path, played):
    stored = tmp_path / "outcome.json"
    stored.write_text(played, encoding="utf-8")
    result = invoke("replay", str(stored))
    assert result.exit_code == 0, result.stderr
    assert json_object(result.stdout) == json_object(played)


def test_replay_of_a_tampered_round_exits_1(tmp_path, played):
    outcome = json_object(played)
    outcome["total_win"] += 100
    stored = tmp_path / "tampered.json"
    stored.write_text(json.dumps(outcome), encoding="utf-8")
    result = invoke("replay", str(stored))
    assert result.exit_code == 1
    assert "DIFFERS" in result.stderr


def test_replay_of_a_non_outcome_exits_2(tmp_path):
    stored = tmp_path / "junk.json"
    stored.write_text("{}", encoding="utf-8")
    result = invoke("replay", str(stored))
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------- analyze


def test_analyze_json_rtp_in_band():
    result = invoke("analyze", "cluedo-v1", "--json")
    assert result.exit_code == 0, result.stderr
    data = json_object(result.stdout)
    assert data["exact"] is True
    assert 0.92 <= data["rtp"] <= 0.96
    parts = data["breakdown"]
    assert parts["base_lines"] + parts["base_scatter"] + parts["free_games"] == pytest.approx(data["rtp"])
