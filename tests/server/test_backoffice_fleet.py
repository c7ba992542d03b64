"""The back office's game switch reaches every server process: a manager switches a game off
through one process, and a player of another process is refused within seconds (each process
re-reads the switches every second), then served again once it is switched back on. Two
processes need PostgreSQL (skipped, with conftest's reason, where none runs)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from reelforge.server.db.migrate import upgrade

from .harness import Player, Server, write_config

PASSWORD = "correct horse battery"
WITHIN_S = 5.0  # the refresh runs every second; a loaded 2-core machine gets some slack


@pytest.fixture(scope="module")
def fleet(pg_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    workdir = tmp_path_factory.mktemp("office_fleet")
    config = write_config(workdir)
    upgrade(pg_database)
    servers = [Server(pg_database, workdir, config) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        added = subprocess.run([sys.executable, "-c", "from reelforge.cli import main; main()",
                                "staff", "add", "--role", "manager", "--database-url",
                                pg_database, "mia"], check=False, input=PASSWORD + "\n",
                               capture_output=True, text=True, timeout=120)
        assert added.returncode == 0, added.stderr
        yield servers
    finally:
        for server in servers:
            server.stop()


def _until(player: Player, status: int) -> float:
    """Seconds until a new round of Candy Jar on the player's process answers `status`."""
    started = time.monotonic()
    while True:
        answer = player.bet("candy-jar-clusters", 20, 1)
        if answer.status_code == status:
            return time.monotonic() - started
        assert answer.status_code in (200, 403), answer.text
        if time.monotonic() - started > WITHIN_S:
            pytest.fail(f"still {answer.status_code} after {WITHIN_S} s: {answer.text}")
        time.sleep(0.1)


@pytest.mark.slow
def test_a_switch_made_through_one_process_reaches_the_other(fleet: list[Server]):
    first, second = fleet
    manager = httpx.Client(base_url=first.base, timeout=60)
    signed = manager.post("/backoffice/api/session", json={"name": "mia", "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    player = Player(second.base)
    assert player.bet("candy-jar-clusters", 20, 1).status_code == 200
    off = manager.put("/backoffice/api/games", json={"operator": "demo",
                                                     "game": "candy-jar-clusters",
                                                     "enabled": False})
    assert off.status_code == 200, off.text
    _until(player, 403)
    refused = player.bet("candy-jar-clusters", 20, 1).json()["error"]
    assert refused["code"] == "GAME_DISABLED", refused
    on = manager.put("/backoffice/api/games", json={"operator": "demo",
                                                    "game": "candy-jar-clusters",
                                                    "enabled": True})
    assert on.status_code == 200, on.text
    _until(player, 200)
