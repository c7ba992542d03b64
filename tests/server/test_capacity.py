"""Capacity that protects players (issue 23, item 4), against a real `reelforge serve`:
one session's flood meets its per-session limit (429 RATE_LIMITED with Retry-After) under the
default settings while another session plays on, and a process past its admission limit
answers 503 SERVER_BUSY with Retry-After at once, changing nothing."""

from __future__ import annotations

import secrets
import threading
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

from reelforge.server.settings import DEFAULT_SESSION_BURST, DEFAULT_SESSION_RATE_PER_S

from .harness import Player, Server

CANDY = "candy-jar-clusters"
CANDY_BET = (20, 1)  # its only line count, at 1 credit
MAX_IN_FLIGHT = 4  # small, so a few dozen requests at once overflow it
FLOOD = 300  # requests of one session, back to back: several times the default burst
AT_ONCE = 40
# Between the other player's rounds: a quick autoplay's pace, under the default rate however
# slow the machine (without it, that player's own back-to-back bets met its own limit).
PLAYER_PAUSE_S = 0.2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One operator with the per-session limit left at its default (no rate keys)."""
    workdir = tmp_path_factory.mktemp("capacity")
    key = workdir / "launch.key"
    key.write_text(secrets.token_hex(32))
    config = workdir / "operators.toml"
    config.write_text(f'[[operators]]\nid = "plain"\ncurrency = "EUR"\njurisdiction = "default"\n'
                      f'secret_file = "{key}"\ndemo_balance_minor = 1000000\n'
                      f'[[operators.games]]\nkey = "{CANDY}"\ngame_id = "candy-jar-clusters-v1"\n')
    server = Server(f"sqlite:///{workdir / 'capacity.db'}", workdir, config,
                    env={"REELFORGE_MAX_IN_FLIGHT": str(MAX_IN_FLIGHT)})
    try:
        yield server.start()
    finally:
        server.stop()


def _play(player: Player) -> httpx.Response:
    answer = player.bet(CANDY, *CANDY_BET)
    if answer.status_code == 200:
        player.finish(answer.json())
    return answer


def test_a_flood_from_one_session_is_refused_while_another_plays(server: Server) -> None:
    flooder, other = Player(server.base, "plain"), Player(server.base, "plain")
    answers: list[httpx.Response] = []

    def flood() -> None:
        with httpx.Client(base_url=server.base, timeout=60,
                          headers={"Authorization": f"Bearer {flooder.token}"}) as client:
            for _ in range(FLOOD):
                answers.append(client.get("/api/v1/session"))

    started = time.monotonic()
    thread = threading.Thread(target=flood)
    thread.start()
    played = []
    while thread.is_alive() or not played:  # at a player's pace, a few rounds a second
        played.append(_play(other))
        time.sleep(PLAYER_PAUSE_S)
    thread.join()
    elapsed = time.monotonic() - started

    assert {a.status_code for a in played} == {200}, [a.text for a in played][:3]
    statuses = [a.status_code for a in answers]
    assert set(statuses) <= {200, 429}, sorted(set(statuses))
    limited = [a for a in answers if a.status_code == 429]
    assert limited, f"{FLOOD} requests of one session in {elapsed:.1f} s: none refused"
    for a in limited:
        error = a.json()["error"]
        assert error["code"] == "RATE_LIMITED", error
        assert int(a.headers["retry-after"]) >= 1 and error["retry_after_ms"] > 0
    # a token bucket admits at most its burst plus its rate over the time it ran
    admitted = statuses.count(200)
    assert admitted <= DEFAULT_SESSION_BURST + DEFAULT_SESSION_RATE_PER_S * elapsed + 1, \
        (admitted, elapsed)
    # the flooding session is not shut out: after the wait it is served again
    time.sleep(1.0 / DEFAULT_SESSION_RATE_PER_S + 0.05)
    assert flooder.http.get("/api/v1/session").status_code == 200


def test_past_the_admission_limit_a_request_is_503_and_changes_nothing(server: Server) -> None:
    players = [Player(server.base, "plain") for _ in range(AT_ONCE)]
    before = [p.balance() for p in players]
    gate = threading.Barrier(AT_ONCE)
    answers: list[httpx.Response | None] = [None] * AT_ONCE

    def bet(i: int) -> None:
        body = {"request_id": uuid.uuid4().hex, "lines": CANDY_BET[0],
                "bet_per_line": CANDY_BET[1], "mode": "base"}
        gate.wait(timeout=60)
        answers[i] = players[i].http.post(f"/api/v1/games/{CANDY}/rounds", json=body)

    threads = [threading.Thread(target=bet, args=(i,)) for i in range(AT_ONCE)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    statuses = [a.status_code for a in answers if a is not None]
    assert len(statuses) == AT_ONCE and set(statuses) <= {200, 503}, statuses
    busy = [i for i, a in enumerate(answers) if a is not None and a.status_code == 503]
    assert busy, f"{AT_ONCE} bets at once under a limit of {MAX_IN_FLIGHT}: none refused"
    for i in busy:
        refused = answers[i]
        assert refused is not None
        assert refused.json()["error"]["code"] == "SERVER_BUSY", refused.text
        assert refused.headers["retry-after"] == "1"
        assert str(MAX_IN_FLIGHT) in refused.json()["error"]["message"]
        assert players[i].balance() == before[i] and players[i].history() == []
    # the health check is never refused; and once the rush is over, every player plays
    assert httpx.get(f"{server.base}/health").status_code == 200
    for i in busy:
        assert _play(players[i]).status_code == 200
