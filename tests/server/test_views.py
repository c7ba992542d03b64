"""The API's answers are what its OpenAPI document says: every kind of response a client meets
(a session, the games, rounds with and without choices, every step, history, verify, the
meters, errors) validates against the view models the document is built from, and the
document the live server publishes names those models."""

from __future__ import annotations

import pytest

from reelforge.server.api.views import (
    ErrorView,
    GamesView,
    HistoryView,
    MetersView,
    OpenedSession,
    RoundView,
    SessionView,
    VerifyView,
    VersionView,
)
from tests.server.harness import Player, Server, write_config

DECLINE = {"gamble": "collect", "wheel_gamble": ["collect"], "spin_chance": "decline"}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Server:
    work = tmp_path_factory.mktemp("views")
    running = Server(f"sqlite:///{work / 'views.db'}", work, write_config(work)).start()
    yield running
    running.stop()


def test_every_answer_matches_its_documented_model(server: Server) -> None:
    player = Player(server.base)
    opened = player.http.post("/api/v1/sessions", json={"launch_token": player.launch_token})
    ErrorView.model_validate_json(opened.text)  # a launch token is used once
    SessionView.model_validate_json(player.http.get("/api/v1/session").text)
    GamesView.model_validate_json(player.http.get("/api/v1/games").text)
    MetersView.model_validate_json(player.http.get("/api/v1/jackpots").text)
    VersionView.model_validate_json(player.http.get("/version").text)
    kinds_seen: set[str] = set()
    round_ids = []
    # 12 rounds of each game, and on until its gamble was offered (12 Cops rounds miss a
    # win often enough to fail a run now and then; 300 miss with probability below 1e-20)
    for game, lines, per_line, gamble in (("cluedo", 20, 1, "gamble"),
                                          ("cops-n-robbers", 10, 1, "wheel_gamble"),
                                          ("candy-jar-clusters", 20, 1, None)):
        for played in range(300):
            if played >= 12 and (gamble is None or gamble in kinds_seen):
                break
            answer = player.bet(game, lines, per_line)
            assert answer.status_code == 200, answer.text
            view = RoundView.model_validate_json(answer.text).model_dump(mode="json")
            round_ids.append(view["round_id"])
            while view["status"] not in ("closed", "cancelled"):
                kind = view["choice"]["active"] or next(iter(view["choice"]["choices"]))
                kinds_seen.add(kind)
                step = player.step(view["round_id"], kind, DECLINE[kind])
                assert step.status_code == 200, step.text
                view = RoundView.model_validate_json(step.text).model_dump(mode="json")
    assert {"gamble", "wheel_gamble"} <= kinds_seen, "300 rounds offered no gamble to check"
    for round_id in round_ids[::6]:
        full = RoundView.model_validate_json(player.http.get(f"/api/v1/rounds/{round_id}").text)
        assert full.ledger, "a round in full lists its ledger movements"
        VerifyView.model_validate_json(
            player.http.get(f"/api/v1/rounds/{round_id}/verify").text)
    HistoryView.model_validate_json(player.http.get("/api/v1/rounds?limit=5").text)
    refused = player.bet("cluedo", 20, 99)
    assert refused.status_code == 422
    ErrorView.model_validate_json(refused.text)


def test_the_published_document_names_the_view_models(server: Server) -> None:
    document = Player(server.base).http.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    for model in ("RoundView", "SessionView", "OpenedSession", "Outcome", "ErrorView"):
        assert model in schemas, f"{model} missing from /openapi.json"
    bet = document["paths"]["/api/v1/games/{game_key}/rounds"]["post"]["responses"]
    assert bet["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/RoundView")
    assert OpenedSession.model_fields["session_token"].annotation is str
