"""Bet modes through the server (issue 25): a buy round and an ante round cost their price x
the stake in integer minor units, debited once; the round row records the mode; a stake at
which a fractional price is no whole number of credits is refused."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from .harness import Player, Server, assert_books_hold, write_config
from .test_api import bet, get_round, ok, player_movements, refused

GAME_FILE = (Path(__file__).resolve().parents[2] / "src" / "reelforge" / "games" / "modes_example"
             / "modes-example-v1.toml")
MODES = tomllib.loads(GAME_FILE.read_text(encoding="utf-8"))["modes"]
LAB = ('[[operators]]\nid = "modes-lab"\ncurrency = "EUR"\njurisdiction = "default"\n'
       'secret_file = "{key}"\ndemo_balance_minor = 10000000\nsession_rate_per_s = 0\n'
       '[[operators.games]]\nkey = "modes-example"\ngame_id = "modes-example-v1"\n'
       'denomination = 5\n'
       '[[operators.games]]\nkey = "modes-odd"\ngame_file = "{odd}"\n')


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("modes")
    config = write_config(workdir)
    # the example with 10 to 20 lines: at 5/4, a stake of 10 credits would cost 12.5
    odd = workdir / "modes-odd-v1.toml"
    odd.write_text(GAME_FILE.read_text(encoding="utf-8").replace(
        'id = "modes-example-v1"', 'id = "modes-odd-v1"').replace("min_lines = 20", "min_lines = 10"))
    config.write_text(config.read_text() + "\n" + LAB.format(key=workdir / "launch.key", odd=odd))
    served = Server(database_url, workdir, config)
    try:
        served.start()
        served.warm()
        yield served
    finally:
        served.stop()


def price_of(mode: str) -> Fraction:
    return Fraction(MODES[mode]["price"])  # the file's own words: 36, or "5/4"


@pytest.mark.parametrize("mode,per_line", [("buy", 3), ("ante", 2), ("base", 1)])
def test_a_round_costs_its_mode_price_in_minor_units(server: Server, mode: str, per_line: int) -> None:
    player = Player(server.base, "modes-lab")
    game = ok(player.http.get("/api/v1/games/modes-example"))
    shown = {m["name"]: m for m in game["modes"]}
    stake_minor = 20 * per_line * 5  # 20 lines, denomination 5
    cost = stake_minor * (price_of(mode) if mode != "base" else 1)
    assert cost.denominator == 1
    if mode != "base":
        assert Fraction(shown[mode]["price"]) == price_of(mode)
        assert shown[mode]["buy_spins"] == MODES[mode].get("buy_spins", 0)
    offered = next(b for b in game["bets"] if b["bet_per_line"] == per_line)
    assert offered["cost_minor"][mode] == cost
    before = player.balance()
    view = bet(player, "modes-example", 20, per_line, mode)
    assert view["stake_minor"] == cost and view["bet"]["mode"] == mode
    final = player.finish(view)
    full = get_round(player, view["round_id"])
    assert full["bet"]["mode"] == mode
    assert [m["amount_minor"] for m in player_movements(full) if m["kind"] == "stake"] == [-cost]
    assert player.balance() == before - cost + final["win_minor"]
    if mode == "buy":
        assert {s["kind"] for s in full["outcome"]["spins"]} == {"free"}
    assert_books_hold(server, server.db_url)


def test_an_ante_stake_that_is_no_whole_credit_cost_is_refused(server: Server) -> None:
    """At 5/4 the stake of 10 lines x 1 credit would cost 12.5 credits: not offered in the
    catalog, refused at bet time naming the key; 12 lines x 1 (15 credits) plays."""
    player = Player(server.base, "modes-lab")
    game = ok(player.http.get("/api/v1/games/modes-odd"))
    costs = {(b["lines"], b["bet_per_line"]): b["cost_minor"] for b in game["bets"]}
    assert "ante" not in costs[(10, 1)] and costs[(12, 1)]["ante"] == 15
    refused(player.bet("modes-odd", 10, 1, "ante"), 422, "STAKE_NOT_OFFERED", "modes.ante.price")
    view = bet(player, "modes-odd", 12, 1, "ante")
    assert view["stake_minor"] == 15
    player.finish(view)
