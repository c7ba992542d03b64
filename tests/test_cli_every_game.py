"""Every command works the same way for every shipped id, line or cluster (issue 12: "every CLI
command ... same for all shipped ids"): play, replay, simulate, check, schema, and analyze or
estimate by what the game offers, each through the one Game protocol."""

from __future__ import annotations

import json

import jsonschema
import pytest
from typer.testing import CliRunner

from reelforge.analysis.capabilities import exact_available, no_exact_reason
from reelforge.analysis.montecarlo import simulate
from reelforge.cli import app
from reelforge.engine.outcome import Outcome, outcome_json_schema
from reelforge.games import make, shipped_games

runner = CliRunner()
IDS = sorted(shipped_games())
# One id per game folder for the exact analysis: a folder's variants differ only in their reel
# weights and share its kernels and this command's code, and every variant's exact RTP is
# computed by test_certify (every variant and mode) and cross-checked by test_moments (two exact
# methods agree). The six variants left out took 95 s of a loaded run's test time here.
ANALYZED = sorted({shipped_games()[i].parent: i for i in sorted(IDS, key=len, reverse=True)}.values())


def invoke(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.mark.parametrize("game_id", IDS)
def test_play_then_replay_from_the_printed_json(game_id, tmp_path):
    played = invoke("play", game_id)
    assert played.exit_code == 0, played.output
    data = json.loads(played.stdout)
    jsonschema.validate(data, outcome_json_schema())
    outcome = Outcome.from_dict(data)
    assert outcome.game_id == game_id
    assert outcome.bet.cost == make(game_id).price(outcome.bet.to_bet())
    path = tmp_path / "round.json"
    path.write_text(played.stdout, encoding="utf-8")
    replayed = invoke("replay", str(path))
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize("game_id", IDS)
def test_simulate_json_has_the_same_fields_for_every_game(game_id):
    result = invoke("simulate", game_id, "--rounds", "3000", "--seed", "7", "--json",
                    "--workers", "1")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    game = make(game_id)
    # the command is the library's simulate at BET MAX on the same streams, for either family
    stats = simulate(game_id, game.max_bet, 3000, seed=7, workers=1)
    assert (shown["rounds"], shown["total_bet"]) == (3000, game.price(game.max_bet))
    assert shown["rtp"] == stats.rtp
    assert shown["max_win_credits"] == stats.max_win


@pytest.mark.parametrize("game_id", IDS)
def test_check_passes_for_every_game(game_id):
    result = invoke("check", game_id, "--rounds", "40")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{game_id}: ok")


@pytest.mark.slow  # an exact analysis per game folder
@pytest.mark.parametrize("game_id", ANALYZED)
def test_analyze_gives_the_exact_rtp_or_names_the_command_that_estimates_it(game_id):
    game = make(game_id)
    result = runner.invoke(app, ["analyze", game_id])
    if exact_available(game):
        assert result.exit_code == 0, result.output
        assert "RTP" in result.stdout
    else:
        assert result.exit_code != 0
        assert f"reelforge estimate {game_id}" in result.output
        assert no_exact_reason(game)


def test_schema_outcome_is_the_published_schema():
    result = invoke("schema", "outcome")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == outcome_json_schema()
