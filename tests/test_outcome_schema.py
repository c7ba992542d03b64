"""One Outcome schema for every game: every shipped game's rounds replay equal from the object
and from its JSON, satisfy the published JSON Schema, and a broken stored outcome is refused
by both the schema and `Outcome.from_dict`, in one line naming the bad field."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

import jsonschema
import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from reelforge.cli import app
from reelforge.engine.outcome import SCHEMA_ID, Bet, Outcome, outcome_json_schema
from reelforge.engine.rng import live_generator
from reelforge.engine.round import play_round, replay
from reelforge.errors import InvalidOutcome
from reelforge.games import make, shipped_games

GOLDEN = Path(__file__).parent / "golden"
GAME_IDS = sorted(shipped_games())
SCHEMA = outcome_json_schema()


@cache
def golden_rounds(game_id: str) -> list[Outcome]:
    """The game's rounds at the seeds and bets of its golden file (chosen there to reach
    every kind of event a modest search finds), played afresh: the goldens' own content is
    test_games' business."""
    game = make(game_id)
    rounds = []
    for stored in json.loads((GOLDEN / f"{game_id}.json").read_text()):
        seed = int(stored["seed"], 16)
        bet = Bet(**{k: stored["bet"][k] for k in ("lines", "bet_per_line", "mode", "denomination")})
        rounds.append(play_round(game, bet, live_generator(seed), seed))
    return rounds


@pytest.fixture(scope="module", params=GAME_IDS)
def rounds(request):
    return request.param, golden_rounds(request.param)


def test_every_round_replays_from_the_object_and_from_its_json(rounds):
    game_id, outcomes = rounds
    game = make(game_id)
    assert len(outcomes) >= 5
    for o in outcomes:
        assert replay(game, o) == o
        again = json.loads(o.to_json())
        assert Outcome.from_dict(again) == o
        assert replay(game, again) == o


def test_every_round_satisfies_the_json_schema(rounds):
    game_id, outcomes = rounds
    game = make(game_id)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for o in outcomes:
        validator.validate(o.to_dict())
        assert o.schema_version == 1 and o.game_id == game_id
        assert o.bet.cost == game.price(o.bet.to_bet()) and o.bet.stake == o.bet.to_bet().total


def test_the_shipped_games_show_every_event_type_but_the_progressive_jackpot():
    """No event type of the schema is dead: the shipped games' golden rounds show all of
    them (the MegaJackpots line is too rare for a search; test_a_progressive_jackpot_...)."""
    union = SCHEMA["$defs"]["Spin"]["properties"]["events"]["items"]
    types = set(union["discriminator"]["mapping"])
    seen = {e.type for game_id in GAME_IDS for o in golden_rounds(game_id) for s in o.spins
            for e in s.events}
    assert types - {"progressive_jackpot"} <= seen <= types


def test_a_progressive_jackpot_round_replays_and_satisfies_the_schema(tmp_path):
    """Cluedo with every base stop five scatters and every free-game stop MJ x5: each free
    spin at max bet wins the jackpot on line 1."""
    text = shipped_games()["cluedo-v1"].read_text(encoding="utf-8").split("# --- reels")[0]
    text += ('[reels.base]\nstrips = [' + ', '.join(['"BONUS ROPE DAGGER"'] * 5) + ']\n'
             '[reels.golden]\nstrips = [' + ', '.join(['"MJ MJ MJ"'] * 5) + ']\n')
    path = tmp_path / "cluedo-jackpots.toml"
    path.write_text(text, encoding="utf-8")
    game = make(str(path))
    o = play_round(game, game.max_bet, live_generator(3), 3)
    assert len(o.jackpots) == o.counters.free_spins_played > 0 and "jackpot" in o.flags
    assert all(j.type == "progressive_jackpot" and j.line == 1 for j in o.jackpots)
    jsonschema.validate(o.to_dict(), SCHEMA)
    assert replay(game, json.loads(o.to_json())) == o


def test_the_schema_is_a_valid_draft_2020_12_schema_with_its_id():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$id"] == SCHEMA_ID == "https://reelforge.dev/schema/outcome-1.json"
    assert SCHEMA["title"] and SCHEMA["description"]
    assert outcome_json_schema() is not outcome_json_schema()  # a caller's edit stays its own


# -- broken outcomes: the schema and from_dict refuse them alike ---------------------------
@pytest.fixture(scope="module")
def stored() -> dict:
    game = make("cops-n-robbers-v1")
    for seed in range(20_000):  # a bonus round: trail, parade, cash and line wins
        o = play_round(game, game.max_bet, live_generator(seed), seed)
        if o.bonus is not None and any(s.line_wins for s in o.spins[1:]):
            return o.to_dict()
    raise AssertionError("no bonus round with a line win in 20,000 seeds")


def first_line_win(data: dict) -> tuple[int, int]:
    for i, spin in enumerate(data["spins"]):
        for j, event in enumerate(spin["events"]):
            if event["type"] == "line_win":
                return i, j
    raise AssertionError("no line win")


def edited(data: dict, edit) -> dict:
    data = copy.deepcopy(data)
    edit(data)
    return data


def event_at(data, where):
    return data["spins"][where[0]]["events"][where[1]]


BROKEN = {
    "wrong-type": (lambda d: d.update(total_win="10"), "outcome total_win = '10': Input should be a valid integer"),
    "bool-for-int": (lambda d: d.update(total_win=True), "outcome total_win = True"),
    "negative-win": (lambda d: d["spins"][0].update(win=-5), "outcome spins[0].win = -5"),
    "missing-field": (lambda d: d["spins"][0].pop("win"), "outcome spins[0].win: missing"),
    "missing-top-field": (lambda d: d.pop("schema_version"), "outcome schema_version: missing"),
    "other-version": (lambda d: d.update(schema_version=2), "outcome schema_version = 2"),
    "unknown-field": (lambda d: d.update(gamble_offered=True),
                      "outcome gamble_offered: not a field of outcome schema 1"),
    "unknown-event": (lambda d: d["spins"][0]["events"][0].update(type="explosion"),
                      "outcome spins[0].events[0].type = 'explosion': not an event type"),
    "event-without-type": (lambda d: d["spins"][0]["events"][0].pop("type"),
                           "outcome spins[0].events[0].type: missing"),
    "bad-flag": (lambda d: d.update(flags=["lucky"]), "outcome flags[0] = 'lucky'"),
    "bad-kind": (lambda d: d["spins"][0].update(kind="bonus round"), "outcome spins[0].kind = 'bonus round'"),
    "seed-not-hex": (lambda d: d.update(seed="xyz"), "outcome seed = 'xyz'"),
    "stops-as-text": (lambda d: d["spins"][0].update(stops="1 2 3"), "outcome spins[0].stops = '1 2 3'"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_outcome_is_refused_by_the_schema_and_by_from_dict(stored, case):
    edit, says = BROKEN[case]
    data = edited(stored, edit)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)
    with pytest.raises(InvalidOutcome) as caught:
        Outcome.from_dict(data)
    line = str(caught.value)
    assert says in line and "\n" not in line, line


def test_a_wrong_field_inside_an_event_is_named_by_its_path(stored):
    where = first_line_win(stored)
    data = edited(stored, lambda d: event_at(d, where).update(win="lots"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)
    with pytest.raises(InvalidOutcome, match=rf"outcome spins\[{where[0]}\]\.events\[{where[1]}\]"
                                             r"\.win = 'lots': Input should be a valid integer"):
        Outcome.from_dict(data)
    data = edited(stored, lambda d: event_at(d, where).pop("symbol"))
    with pytest.raises(InvalidOutcome, match=rf"outcome spins\[{where[0]}\]\.events\[{where[1]}\]"
                                             r"\.symbol: missing"):
        Outcome.from_dict(data)


def test_from_dict_refuses_what_is_not_an_outcome():
    for value in ([1, 2], "outcome", None, {}):
        with pytest.raises(InvalidOutcome, match="^outcome"):
            Outcome.from_dict(value)
    with pytest.raises(InvalidOutcome, match="not JSON data"):
        Outcome.from_dict({"total_win": {1, 2}})


def test_replay_refuses_a_stored_outcome_the_schema_refuses(stored):
    game = make("cops-n-robbers-v1")
    assert replay(game, stored).to_dict() == stored
    broken = edited(stored, lambda d: d["spins"][0]["events"][0].update(type="explosion"))
    with pytest.raises(InvalidOutcome, match="not an event type"):
        replay(game, broken)


def test_outcomes_are_frozen(stored):
    o = Outcome.from_dict(stored)
    with pytest.raises(ValidationError):
        o.total_win = 0  # type: ignore[misc]


# -- the CLI ---------------------------------------------------------------------------------
def test_reelforge_schema_outcome_prints_the_schema(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["schema", "outcome"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == outcome_json_schema()
    path = tmp_path / "outcome.schema.json"
    result = runner.invoke(app, ["schema", "outcome", "--out", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert json.loads(path.read_text(encoding="utf-8")) == outcome_json_schema()
    result = runner.invoke(app, ["schema", "wallet"], catch_exceptions=False)
    assert result.exit_code == 2 and "schema = 'wallet'" in result.stderr


# --- bounds and invariants the engine always writes ------------------------------------------

def _stored() -> dict:
    """A golden round's dict, to spoil one field at a time."""
    return json.loads((GOLDEN / "cops-n-robbers-v1.json").read_text())[0]


def test_amounts_are_bounded_by_the_loaders_limit_in_model_and_schema():
    data = _stored()
    data["total_win"] = 10**40
    with pytest.raises(InvalidOutcome, match="total_win = 1000000000000000000000000000000000000000"):
        Outcome.from_dict(data)
    data["total_win"] = 2**62 + 1
    with pytest.raises(InvalidOutcome, match="total_win"):
        Outcome.from_dict(data)
    props = outcome_json_schema()["properties"]
    assert props["total_win"]["maximum"] == 2**62
    assert outcome_json_schema()["$defs"]["Spin"]["properties"]["win"]["maximum"] == 2**62


@pytest.mark.parametrize("spoil, problem", [
    (lambda d: d["bet"].update(stake=d["bet"]["stake"] + 1), "outcome bet: stake = "),
    (lambda d: d["bet"].update(denomination=0), "bet.denomination = 0"),
    (lambda d: d.update(win_capped=True, flags=[*d["flags"], "win_capped"], uncapped_win=None),
     "win_capped with uncapped_win = None"),
    (lambda d: d.update(win_capped=True, flags=[*d["flags"], "win_capped"],
                        uncapped_win=d["total_win"] - 1 if d["total_win"] else None),
     "win_capped with uncapped_win"),
    (lambda d: d.update(win_capped=True), "win_capped = true but flags"),
    (lambda d: d.update(uncapped_win=5), "uncapped_win = 5 in a round not capped"),
    (lambda d: d.update(flags=["bonus", "bonus"]), "bonus more than once"),
    (lambda d: d.update(seed="ABC123"), "seed = 'ABC123'"),
])
def test_inconsistent_outcomes_are_refused_in_one_line(spoil, problem):
    data = _stored()
    data["seed"] = "abc123"  # lowercase hex, as the engine writes it
    Outcome.from_dict(data)
    spoil(data)
    with pytest.raises(InvalidOutcome, match=problem) as info:
        Outcome.from_dict(data)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_a_capped_round_may_reach_the_cap_exactly():
    data = _stored()
    data.update(win_capped=True, flags=[*data["flags"], "win_capped"],
                uncapped_win=data["total_win"])
    assert Outcome.from_dict(data).win_capped


def test_every_golden_round_keeps_the_invariants():
    for path in sorted(GOLDEN.glob("*.json")):
        for stored in json.loads(path.read_text()):
            Outcome.from_dict(stored)
