"""What `reelforge serve` refuses to start with: a configuration that a game would refuse on
every bet. One line naming the operator, the game, the key and the value, exit status 2, and
nothing served (issue 23: `denomination = 7` started, listed 100 bets and refused each)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import httpx
import pytest

from reelforge.games import make

from .harness import Player, Server, write_config


def _with_game(tmp_path: Path, game: str) -> Path:
    """The harness's operators plus `odd`, offering `game` (a TOML table's body)."""
    key = tmp_path / "launch.key"
    return write_config(tmp_path, f'[[operators]]\nid = "odd"\ncurrency = "EUR"\n'
                                  f'secret_file = "{key}"\ndemo_balance_minor = 1000\n'
                                  f'[[operators.games]]\n{game}')


def _refused_start(tmp_path: Path, config: Path) -> str:
    server = Server(f"sqlite:///{tmp_path / 'start.db'}", tmp_path, config)
    try:
        with pytest.raises(RuntimeError, match="server exited") as exited:
            server.start()
    finally:
        server.stop()
    assert "server exited 2" in str(exited.value), str(exited.value)[-2000:]
    errors = [line for line in server.log.read_text().splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in server.log.read_text(), errors
    return errors[0]


@pytest.mark.parametrize("denomination", [7, 3, 1000])
def test_a_denomination_the_game_does_not_offer_stops_the_start(tmp_path: Path,
                                                                denomination: int) -> None:
    offered = make("cluedo-v1").spec.bet.denominations  # the game file's own list
    assert denomination not in offered
    config = _with_game(tmp_path, f'key = "cluedo"\ngame_id = "cluedo-v1"\n'
                                  f'denomination = {denomination}\n')
    index = len(tomllib.loads(config.read_text())["operators"]) - 1
    line = _refused_start(tmp_path, config)
    for named in (str(config), f"operators[{index}]", "'odd'", "'cluedo'", "cluedo-v1",
                  f"denomination = {denomination}", str(list(offered))):
        assert named in line, f"{named!r} not named in {line!r}"


def test_an_unknown_game_id_stops_the_start(tmp_path: Path) -> None:
    line = _refused_start(tmp_path, _with_game(tmp_path, 'key = "x"\ngame_id = "no-such-v1"\n'))
    assert re.search(r"'odd'.*'x'.*game_id = 'no-such-v1'", line), line


def test_every_denomination_the_game_offers_starts_and_plays(tmp_path: Path) -> None:
    """The check refuses only what the game refuses: Cluedo's largest denomination starts,
    and a bet at it is played and priced in that denomination."""
    largest = max(make("cluedo-v1").spec.bet.denominations)
    config = _with_game(tmp_path, f'key = "cluedo"\ngame_id = "cluedo-v1"\n'
                                  f'denomination = {largest}\n')
    server = Server(f"sqlite:///{tmp_path / 'start.db'}", tmp_path, config).start()
    try:
        player = Player(server.base, "odd")
        before = player.balance()
        played = player.bet("cluedo", 1, 1)
        assert played.status_code == 200, played.text
        view = player.finish(played.json())
        assert player.balance() == before - largest + view["win_minor"], view
        assert httpx.get(f"{server.base}/health").status_code == 200
    finally:
        server.stop()
