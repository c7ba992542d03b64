"""Every endpoint of `reelforge serve` end to end, against a real server process, once on SQLite
and once on PostgreSQL: launch and sessions, the game list, rounds and their refusals, every
choice step (Cluedo's red/black gamble, Cops n Robbers' cash and bonus wheels, Spin Chance),
history and verify, the jackpot meter, the GB and DE profiles, the operator's win cap, and, at
the end, the ledger and audit invariants over everything the module played.

Expected values come from the game files (read here with tomllib, not through the server), the
seeds' rule sentences and arithmetic on the requests; the server's answers are only compared.
Randomness is the server's own (a fresh seed per round), so a test that needs a win plays until
one comes, within a bound that fails with a plain message.

One server per database kind serves the whole module (a start costs 5-20 s). Only
`test_jackpot_meter` bets Cluedo's maximum in EUR: every other round leaves the EUR pool alone,
so the meter's arithmetic there is exact.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from reelforge.server.services.tokens import LaunchClaims, sign_launch

from .harness import Player, Server, assert_books_hold, write_config

GAMES_DIR = Path(__file__).resolve().parents[2] / "src" / "reelforge" / "games"


def _game_file(folder: str, name: str) -> dict:
    return tomllib.loads((GAMES_DIR / folder / f"{name}.toml").read_text(encoding="utf-8"))


CLUEDO = _game_file("cluedo", "cluedo-v1")
COPS = _game_file("cops_n_robbers", "cops-n-robbers-v1")
CANDY = _game_file("candy_jar_clusters", "candy-jar-clusters-v1")

DEMO_BALANCE = 100_000  # harness.write_config's demo_balance_minor
POOR_BALANCE = 250  # harness.write_config's "poor" operator
CAP_MINOR = 150  # harness.write_config's "capped" operator: Cluedo's win_cap_minor
# The jurisdiction profiles (standards.md section I, issue 13 item 9): GB RTS 8A / RTS 14,
# DE GlueStV 2021 s.22a. Written here from the rules, not read from the server's settings.
GB = {"autoplay": False, "turbo": False, "min_round_interval_ms": 2500, "max_stake_minor": 500,
      "one_game_at_a_time": True}
DE = {"autoplay": False, "min_round_interval_ms": 5000, "max_stake_minor": 100,
      "jackpots": False, "gamble": False, "one_game_at_a_time": True}
# Cluedo's gamble rule sheet: "after any award less than 3000 credits ... double or nothing",
# at most 5 wins, 14 cards of history, take half.
GAMBLE = CLUEDO["features"]["gamble"]
WHEEL = COPS["features"]["wheel_gamble"]
GAMBLE_KINDS = {"gamble", "wheel_gamble"}
MAX_ROUNDS = 300  # the bound of every "play until" loop (Cluedo hits about 1 round in 3 at 20x1)


# -- the server ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("api")
    served = Server(database_url, workdir, write_config(workdir, _recall_operator(workdir)))
    try:
        served.start()
        served.warm()
        yield served
    finally:
        served.stop()


# -- helpers ----------------------------------------------------------------------------------


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, f"{response.status_code}: {response.text}"
    return response.json()


def refused(response: httpx.Response, status: int, code: str, *named: str) -> dict:
    """The error body, after checking its status, its stable code and that its sentence names
    each of `named`."""
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    error = response.json()["error"]
    assert error["code"] == code, error
    for text in named:
        assert text in error["message"], (text, error)
    return error


def offer_of(view: dict, kind: str) -> dict | None:
    return next((o for o in view["offers"] if o["kind"] == kind), None)


def check_view(view: dict) -> dict:
    """What holds in every view: Spin Chance and a gamble are never offered together (the
    win at stake would be counted twice), and a closed round offers nothing."""
    kinds = {o["kind"] for o in view["offers"]}
    assert not ("spin_chance" in kinds and kinds & GAMBLE_KINDS), view["offers"]
    if view["choice"] is not None:
        shown = set(view["choice"]["choices"])
        assert not ("spin_chance" in shown and shown & GAMBLE_KINDS), view["choice"]
    if view["status"] in ("closed", "cancelled"):
        assert view["choice"] is None, view
    return view


def bet(player: Player, game: str, lines: int, per_line: int, mode: str = "base") -> dict:
    return check_view(ok(player.bet(game, lines, per_line, mode)))


def step(player: Player, round_id: str, kind: str, choice: Any,
         request_id: str | None = None) -> dict:
    return check_view(ok(player.step(round_id, kind, choice, request_id)))


def play_until(player: Player, game: str, lines: int, per_line: int,
               want: Callable[[dict], bool], what: str, mode: str = "base",
               limit: int = MAX_ROUNDS) -> dict:
    """Rounds until one satisfies `want`; every other round is finished (collect, decline)."""
    for _ in range(limit):
        view = bet(player, game, lines, per_line, mode)
        if want(view):
            return view
        player.finish(view)
    pytest.fail(f"{limit} rounds of {game} at {lines}x{per_line} {mode} without {what}")


def get_round(player: Player, round_id: str) -> dict:
    return check_view(ok(player.http.get(f"/api/v1/rounds/{round_id}")))


def verified(player: Player, round_id: str) -> None:
    report = ok(player.http.get(f"/api/v1/rounds/{round_id}/verify"))
    assert report["round_id"] == round_id
    assert report["matches"] is True, report["problems"]
    assert report["problems"] == []


def snapshot(player: Player, round_id: str) -> tuple:
    """What a refused step must leave as it was: the balance, the round's status and steps."""
    view = get_round(player, round_id)
    return player.balance(), view["status"], len(view["steps"]), view["ledger"]


def player_movements(view: dict) -> list[dict]:
    return [m for m in view["ledger"] if m["account"] == "player"]


def launch_token(http: httpx.Client, operator: str = "demo") -> str:
    redirect = http.get("/demo", params={"operator": operator}, follow_redirects=False)
    assert redirect.status_code == 303, redirect.text
    return parse_qs(urlparse(redirect.headers["location"]).query)["launch"][0]


# -- sessions ---------------------------------------------------------------------------------


def test_launch_sessions_and_authentication(server: Server) -> None:
    http = httpx.Client(base_url=server.base, timeout=60)
    token = launch_token(http)
    text, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    # Re-encoded claims naming another player, under the original signature.
    forged = base64.urlsafe_b64encode(json.dumps(
        {**claims, "player": claims["player"] + "x"}).encode()).decode().rstrip("=")
    flipped_signature = signature[:-1] + ("0" if signature[-1] != "0" else "1")
    # JSON keys are sorted, so the text starts with '{"exp"' and ends inside "player": a
    # flipped first or last character changes neither the operator nor the format's shape
    first = ("B" if text[0] != "B" else "C") + text[1:]
    last = text[:-1] + ("A" if text[-1] != "A" else "B")
    for tampered in (f"{text}.{flipped_signature}", f"{forged}.{signature}",
                     f"{first}.{signature}", f"{last}.{signature}"):
        refused(http.post("/api/v1/sessions", json={"launch_token": tampered}), 401,
                "INVALID_LAUNCH_TOKEN")

    # The refusals used nothing up: the genuine token opens a session, once.
    opened = ok(http.post("/api/v1/sessions", json={"launch_token": token}))
    refused(http.post("/api/v1/sessions", json={"launch_token": token}), 401,
            "INVALID_LAUNCH_TOKEN", claims["nonce"])
    assert opened["balance_minor"] == DEMO_BALANCE
    assert opened["player"] == claims["player"]

    session = opened["session_token"]
    assert len(base64.urlsafe_b64decode(session + "=" * (-len(session) % 4))) * 8 >= 256
    me = ok(http.get("/api/v1/session", headers={"Authorization": f"Bearer {session}"}))
    assert me["balance_minor"] == DEMO_BALANCE
    assert me["currency"] == "EUR"
    assert me["operator"] == "demo"
    assert me["open_rounds"] == []
    assert me["in_play_minor"] == 0
    assert me["jurisdiction"]["name"] == "default"
    assert me["jurisdiction"]["max_stake_minor"] is None

    for headers in ({}, {"Authorization": f"Bearer {secrets.token_urlsafe(32)}"},
                    {"Authorization": f"Basic {session}"}, {"Authorization": "Bearer"}):
        for path in ("/api/v1/session", "/api/v1/games", "/api/v1/rounds"):
            refused(http.get(path, headers=headers), 401, "UNAUTHORIZED")
        refused(http.post("/api/v1/games/cluedo/rounds", headers=headers, json={
            "request_id": "r1", "lines": 1, "bet_per_line": 1}), 401, "UNAUTHORIZED")


def test_session_view_shows_this_sessions_net_position_and_start(server: Server) -> None:
    """standards.md C6: the session view's `net_minor` is what this session's own rounds won
    less what they staked (each round's record, added up here), `started_at_us` when it
    opened (UTC microseconds). The same player's second session plays too: its rounds move the
    balance but not the first session's figure, and the other way round."""
    before_us = time.time_ns() // 1000
    first = Player(server.base)
    me = first.session()
    assert (me["session"]["net_minor"], me["in_play_minor"]) == (0, 0)
    assert before_us <= me["session"]["started_at_us"] <= time.time_ns() // 1000
    key = (server.workdir / "launch.key").read_bytes().strip()
    claims = LaunchClaims("demo", me["player"], int(time.time()) + 300, uuid.uuid4().hex)
    opened = ok(first.http.post("/api/v1/sessions",
                                json={"launch_token": sign_launch(key, claims)}))
    second = Player(server.base, token=opened["session_token"])
    assert opened["session"]["id"] != me["session"]["id"]
    assert opened["session"]["net_minor"] == 0

    def play(player: Player, rounds: int) -> int:
        """`rounds` closed rounds of Cluedo, more until one won and the net is not 0; the net."""
        net, played = 0, 0
        while played < rounds or net in (0, -20 * played):
            assert played < MAX_ROUNDS
            view = player.finish(bet(player, "cluedo", 20, 1))
            final = get_round(player, view["round_id"])
            net += final["win_minor"] - final["stake_minor"]
            played += 1
        return net

    first_net = play(first, 3)
    second_net = play(second, 3)
    assert first_net != 0 or second_net != 0
    for player, net in ((first, first_net), (second, second_net)):
        view = player.session()
        assert view["session"]["net_minor"] == net
        assert view["balance_minor"] == DEMO_BALANCE + first_net + second_net


@pytest.mark.parametrize(("operator", "currency", "rules"), [("gb", "GBP", GB), ("de", "EUR", DE)])
def test_jurisdiction_switches(server: Server, operator: str, currency: str,
                               rules: dict) -> None:
    me = Player(server.base, operator).session()
    assert me["currency"] == currency
    assert me["balance_minor"] == DEMO_BALANCE
    assert me["open_rounds"] == []
    assert {k: me["jurisdiction"][k] for k in rules} == rules


# -- games ------------------------------------------------------------------------------------


def expected_bets(game: str, limit: int | None) -> dict[tuple[int, int], dict[str, int]]:
    """(lines, bet per line) -> cost in minor units per mode, from the game files' bet
    structures (denomination 1: write_config sets none), without the bets over `limit`."""
    if game == "cluedo":
        spec = CLUEDO["bet"]
        shapes = [(lines, per) for lines in range(spec.get("min_lines", 1), spec["max_lines"] + 1)
                  for per in range(1, spec["max_bet_per_line"] + 1)]
        prices = {"base": 1}
    elif game == "cops-n-robbers":
        spec = COPS["bet"]
        shapes = [(lines, per) for lines in range(spec["min_lines"], spec["max_lines"] + 1)
                  for per in range(1, spec["max_bet_per_line"] + 1)]
        prices = {"base": 1, **{m: v["price"] for m, v in COPS["modes"].items()}}
    else:
        spec = CANDY["bet"]
        shapes = [(spec["coins"], value) for value in range(1, spec["max_coin_value"] + 1)]
        prices = {"base": 1}
    found = {}
    for lines, per in shapes:
        costs = {m: lines * per * p for m, p in prices.items()
                 if limit is None or lines * per * p <= limit}
        if costs:
            found[(lines, per)] = costs
    return found


@pytest.mark.parametrize(("operator", "limit", "keys"), [
    ("demo", None, {"cluedo", "cops-n-robbers", "candy-jar-clusters"}),
    ("gb", 500, {"cluedo", "cops-n-robbers", "candy-jar-clusters"}),
    # DE: no progressive jackpot, so no Cluedo
    ("de", 100, {"cops-n-robbers", "candy-jar-clusters"})])
def test_games_and_their_bets(server: Server, operator: str, limit: int | None,
                              keys: set[str]) -> None:
    player = Player(server.base, operator)
    listed = ok(player.http.get("/api/v1/games"))["games"]
    assert {g["key"] for g in listed} == keys
    for game in listed:
        got = {(b["lines"], b["bet_per_line"]): b["cost_minor"] for b in game["bets"]}
        assert got == expected_bets(game["key"], limit), game["key"]
        for b in game["bets"]:
            assert b["stake_credits"] == b["lines"] * b["bet_per_line"]
        alone = ok(player.http.get(f"/api/v1/games/{game['key']}"))
        assert alone["bets"] == game["bets"]
        assert alone["gamble"] == ("off" if operator == "de" else "on")
    if operator == "de":
        refused(player.http.get("/api/v1/games/cluedo"), 403, "GAME_NOT_ALLOWED", "cluedo")
        with_limit = [(10, 11, "base", 110), (10, 6, "fortune", 120)]
    elif operator == "gb":
        with_limit = [(10, 26, "fortune", 520)]
    else:
        return
    before = player.balance()
    for lines, per, mode, cost in with_limit:
        refused(player.bet("cops-n-robbers", lines, per, mode), 422, "STAKE_NOT_OFFERED",
                str(cost), str(limit))
    assert player.balance() == before
    assert ok(player.http.get("/api/v1/rounds"))["rounds"] == []


# -- rounds -----------------------------------------------------------------------------------


def test_bet_debits_exactly_and_is_idempotent(server: Server) -> None:
    player = Player(server.base)
    before = player.balance()
    request_id = uuid.uuid4().hex
    first = ok(player.bet("cluedo", 3, 2, request_id=request_id))
    assert first["stake_minor"] == 6
    assert first["bet"] == {"lines": 3, "bet_per_line": 2, "mode": "base"}
    assert first["request_id"] == request_id
    # The balance right after the bet: the stake is gone, a win offered a gamble is not yet
    # paid, any other win is.
    paid_now = 0 if first["offers"] else first["win_minor"]
    assert player.balance() == before - 6 + paid_now == first["balance_minor"]

    again = ok(player.bet("cluedo", 3, 2, request_id=request_id))
    assert again["round_id"] == first["round_id"]
    assert again["outcome"] == first["outcome"]
    assert again["stake_minor"] == 6
    assert player.balance() == first["balance_minor"]  # not debited twice
    refused(player.bet("cluedo", 3, 1, request_id=request_id), 409, "REQUEST_ID_REUSED",
            request_id)
    refused(player.bet("cops-n-robbers", 10, 1, request_id=request_id), 409,
            "REQUEST_ID_REUSED", request_id)

    final = player.finish(first)
    assert final["status"] == "closed"
    assert player.balance() == before - 6 + final["win_minor"]
    assert final["win_minor"] == first["outcome"]["total_win"]  # collected as won, denomination 1
    rounds = ok(player.http.get("/api/v1/rounds"))["rounds"]
    assert [r["round_id"] for r in rounds] == [first["round_id"]]


def test_bad_bets_are_refused_naming_the_value(server: Server) -> None:
    player = Player(server.base)
    before = player.balance()
    top = CLUEDO["bet"]
    body = {"request_id": uuid.uuid4().hex, "lines": 0, "bet_per_line": 1, "mode": "base"}
    refused(player.http.post("/api/v1/games/cluedo/rounds", json=body), 422, "INVALID_REQUEST",
            "lines")
    refused(player.bet("cluedo", 1, top["max_bet_per_line"] + 1), 422, "STAKE_NOT_OFFERED",
            "bet_per_line", str(top["max_bet_per_line"] + 1))
    refused(player.bet("cluedo", top["max_lines"] + 1, 1), 422, "STAKE_NOT_OFFERED",
            "lines", str(top["max_lines"] + 1))
    refused(player.bet("cluedo", 1, 1, "turbo"), 422, "STAKE_NOT_OFFERED", "'turbo'")
    refused(player.bet("cops-n-robbers", 9, 1), 422, "STAKE_NOT_OFFERED", "lines", "9")
    refused(player.bet("blackjack", 1, 1), 404, "UNKNOWN_GAME", "'blackjack'")
    assert player.balance() == before
    assert ok(player.http.get("/api/v1/rounds"))["rounds"] == []


def test_round_already_open_and_open_rounds(server: Server) -> None:
    player = Player(server.base)
    view = play_until(player, "cluedo", 20, 1, lambda v: offer_of(v, "gamble") is not None,
                      "a gamble offered")
    win = view["outcome"]["total_win"]
    assert view["status"] == "outcome_committed"
    assert view["win_minor"] is None
    assert view["pending_win_credits"] == win

    me = player.session()
    assert [r["round_id"] for r in me["open_rounds"]] == [view["round_id"]]
    assert me["open_rounds"][0]["pending_win_credits"] == win
    assert me["in_play_minor"] == win  # denomination 1
    assert me["balance_minor"] == view["balance_minor"]

    error = refused(player.bet("cluedo", 1, 1), 409, "ROUND_ALREADY_OPEN", view["round_id"])
    assert error["round_id"] == view["round_id"]
    assert player.balance() == view["balance_minor"]
    # Unrestricted profile: another game may be played meanwhile.
    other = bet(player, "cops-n-robbers", 10, 1)
    player.finish(other)

    closed = step(player, view["round_id"], "gamble", "collect")
    assert closed["status"] == "closed"
    assert closed["win_minor"] == win
    assert player.session()["open_rounds"] == []
    player.finish(bet(player, "cluedo", 1, 1))


def test_insufficient_balance(server: Server) -> None:
    player = Player(server.base, "poor")
    assert player.balance() == POOR_BALANCE
    error = refused(player.bet("cops-n-robbers", 10, 30), 409, "INSUFFICIENT_BALANCE", "300",
                    str(POOR_BALANCE))
    assert error["balance_minor"] == POOR_BALANCE
    assert player.balance() == POOR_BALANCE
    assert ok(player.http.get("/api/v1/rounds"))["rounds"] == []


def test_fortune_spins_cost_their_mode_price(server: Server) -> None:
    player = Player(server.base)
    game = ok(player.http.get("/api/v1/games/cops-n-robbers"))
    price = next(m["price"] for m in game["modes"] if m["name"] == "fortune")
    assert price == COPS["modes"]["fortune"]["price"]
    before = player.balance()
    view = bet(player, "cops-n-robbers", 10, 3, "fortune")
    assert view["stake_minor"] == 10 * 3 * price
    assert view["bet"]["mode"] == "fortune"
    final = player.finish(view)
    full = get_round(player, view["round_id"])
    debits = [m["amount_minor"] for m in player_movements(full) if m["kind"] == "stake"]
    assert debits == [-10 * 3 * price]
    assert player.balance() == before - 10 * 3 * price + final["win_minor"]


# -- choice steps: Cluedo's red/black gamble --------------------------------------------------


def gamble_after(state: dict, choice: str, card: str | None) -> dict:
    """The rule sheet's next state: take half banks amount // 2 (the rest stays at stake); a
    guess doubles or forfeits the amount, and the gamble ends when lost, at max_wins wins or at
    the credit limit; collect ends it; the history keeps the last history_length cards."""
    s = dict(state)
    if choice == "half":
        half = s["amount"] // 2
        s.update(amount=s["amount"] - half, banked=s["banked"] + half, half_taken=True)
    elif choice == "collect":
        s["finished"] = True
    else:
        s["history"] = (s["history"] + [card])[-GAMBLE["history_length"]:]
        s.update(last_card=card, half_taken=False)
        if card == choice:
            s.update(amount=s["amount"] * 2, wins=s["wins"] + 1)
            s["finished"] = (s["wins"] >= GAMBLE["max_wins"]
                             or s["amount"] >= GAMBLE["limit_credits"])
        else:
            s.update(amount=0, finished=True)
    s["paid"] = s["banked"] + s["amount"] if s["finished"] else s["banked"]
    return s


def find_gamble(player: Player, at_least: int = 1) -> tuple[dict, dict]:
    view = play_until(player, "cluedo", 20, 1,
                      lambda v: (o := offer_of(v, "gamble")) is not None and o["amount"] >= at_least,
                      f"a gamble offered on a win of {at_least}+ credits")
    offer = offer_of(view, "gamble")
    assert offer["amount"] == view["outcome"]["total_win"]
    assert 0 < offer["amount"] < GAMBLE["limit_credits"]
    assert offer["limits"] == {k: GAMBLE[k] for k in ("limit_credits", "max_wins",
                                                      "history_length", "take_half")}
    assert view["choice"]["active"] is None
    assert set(view["choice"]["choices"]["gamble"]) == {"red", "black", "half", "collect"}
    return view, offer


def play_gamble(player: Player, view: dict, choices: Callable[[dict], str],
                history: list[str], state: dict | None = None, first: int = 0
                ) -> tuple[dict, list[str]]:
    """Play the red/black gamble that `view` offers to its end (from `state` after `first`
    steps, where some were taken already), each step checked against the rule sheet's model;
    the final view and the card history it leaves."""
    offer = offer_of(view, "gamble")
    if state is None:
        state = {"amount": offer["amount"], "banked": 0, "wins": 0, "half_taken": False,
                 "history": history[-GAMBLE["history_length"]:], "finished": False,
                 "last_card": None, "paid": 0}
    round_id, at_offer = view["round_id"], view["balance_minor"]
    for index in range(first, 60):
        choice = choices(state)
        after = step(player, round_id, "gamble", choice)
        result = after["steps"][-1]["result"]
        assert after["steps"][-1]["index"] == index
        if index == 0:
            # a new gamble opens on the history the player's last one left on screen (what
            # that one carried over; nothing before the player's first gamble)
            carried = result["opened"]["carried"] or {"history": []}
            assert carried["history"] == history[-GAMBLE["history_length"]:]
        card = result["state"]["last_card"] if choice in ("red", "black") else None
        assert card in ("red", "black", None)
        state = gamble_after(state, choice, card)
        assert result["state"] == state, (choice, result["state"], state)
        assert result["finished"] is state["finished"]
        if not state["finished"]:
            # what TAKE HALF banked is the player's at once (the seed: "deposit half of your
            # winnings back into your main balance"); the rest stays at stake
            assert after["balance_minor"] == at_offer + state["banked"] == player.balance()
            assert after["pending_win_credits"] == state["amount"]
        if state["finished"]:
            paid = state["banked"] + state["amount"]
            assert result["paid_credits"] == paid
            assert after["status"] == "closed"
            assert after["win_minor"] == paid  # denomination 1
            assert after["balance_minor"] == at_offer + paid == player.balance()
            full = get_round(player, round_id)
            wins = [m for m in player_movements(full) if m["kind"] == "win"]
            assert sum(m["amount_minor"] for m in wins) == paid
            banks = [m for m in wins if m["txn"].startswith(f"{round_id}:bank:")]
            assert sum(m["amount_minor"] for m in banks) == state["banked"]
            assert all(m["step"] == index for m in wins if m not in banks)
            verified(player, round_id)
            return after, state["history"]
        assert after["choice"]["active"] == "gamble"
        assert after["choice"]["state"] == state
    pytest.fail("a red/black gamble still open after 60 steps")


def test_cluedo_gamble_half_guesses_collect_and_history(server: Server) -> None:
    player = Player(server.base)
    view, offer = find_gamble(player, at_least=2)
    round_id = view["round_id"]
    def row() -> dict:
        items = ok(player.http.get("/api/v1/rounds", params={"limit": 100}))["rounds"]
        return next(r for r in items if r["round_id"] == round_id)
    # stopped at the offer: no gamble step taken (the history must not call it a gamble)
    assert (row()["at_stake_minor"], row()["gamble_steps"]) == (
        offer["amount"] * view["denomination"], 0)

    # take half, idempotent on its request id
    request_id = uuid.uuid4().hex
    once = step(player, round_id, "gamble", "half", request_id)
    twice = step(player, round_id, "gamble", "half", request_id)
    assert twice == once
    assert len(once["steps"]) == 1
    state = once["steps"][0]["result"]["state"]
    assert state == gamble_after({"amount": offer["amount"], "banked": 0, "wins": 0,
                                  "half_taken": False, "history": [], "finished": False,
                                  "last_card": None, "paid": 0}, "half", None)
    assert (state["banked"], state["amount"]) == (offer["amount"] // 2,
                                                  offer["amount"] - offer["amount"] // 2)
    # the banked half reached the balance in the step's own transaction, as its own entry
    assert once["balance_minor"] == view["balance_minor"] + state["banked"] == player.balance()
    assert once["pending_win_credits"] == state["amount"]
    # the history's row of the round in its gamble says what is at stake and what is banked
    assert row()["gamble_steps"] == 1
    denomination = once["denomination"]
    assert (row()["at_stake_minor"], row()["banked_minor"]) == (
        state["amount"] * denomination, state["banked"] * denomination)
    banks = [(m["txn"], m["amount_minor"], m["step"]) for m in player_movements(
        get_round(player, round_id)) if m["kind"] == "win"]
    assert banks == [(f"{round_id}:bank:0", state["banked"], 0)]
    before = snapshot(player, round_id)
    refused(player.step(round_id, "gamble", "red", request_id), 409, "REQUEST_ID_REUSED",
            request_id)
    refused(player.step(round_id, "gamble", "half"), 409, "STEP_NOT_ALLOWED", "half")
    assert snapshot(player, round_id) == before

    # guesses, alternating colours, until the gamble ends on what the half left at stake
    colours = iter(["red", "black"] * 30)
    final, history = play_gamble(player, view, lambda s: next(colours), [], state, first=1)
    dealt = len(history)
    assert (row()["at_stake_minor"], row()["banked_minor"]) == (None, None)  # settled

    # collect after a won guess; the history carries on through every gamble, 14 at most
    collected = False
    for _ in range(40):
        view, _offer = find_gamble(player)
        if collected:
            final, history = play_gamble(player, view, lambda s: "black", history)
        else:
            final, history = play_gamble(
                player, view, lambda s: "collect" if s["wins"] else "red", history)
            if final["steps"][-1]["choice"] == "collect":
                collected = True
                assert final["win_minor"] == 2 * view["outcome"]["total_win"]
        dealt += sum(s["choice"] in ("red", "black") for s in final["steps"])
        assert len(history) == min(dealt, GAMBLE["history_length"])
        if collected and dealt > GAMBLE["history_length"]:
            break
    else:
        pytest.fail("40 gambles without a collect after a won guess and 15 cards dealt")


def test_steps_out_of_order_change_nothing(server: Server) -> None:
    player = Player(server.base)
    view, _offer = find_gamble(player, at_least=2)
    round_id = view["round_id"]
    before = snapshot(player, round_id)
    for kind, choice, named in (("wheel_gamble", ["cash", 0], "wheel_gamble"),  # not offered
                                ("spin_chance", "play", "spin_chance"),
                                ("gamble", ["cash", 0], "cash"),  # a wheel choice on Cluedo
                                ("gamble", ["bonus", 1], "bonus"),
                                ("gamble", "green", "green")):
        refused(player.step(round_id, kind, choice), 409, "STEP_NOT_ALLOWED", named)
    assert snapshot(player, round_id) == before

    halved = step(player, round_id, "gamble", "half")
    before = snapshot(player, round_id)
    refused(player.step(round_id, "spin_chance", "decline"), 409, "STEP_NOT_ALLOWED", "gamble")
    assert snapshot(player, round_id) == before
    assert get_round(player, round_id)["choice"] == halved["choice"]

    closed = step(player, round_id, "gamble", "collect")
    assert closed["status"] == "closed"
    before = snapshot(player, round_id)
    for choice in ("red", "collect", "half"):
        refused(player.step(round_id, "gamble", choice), 409, "STEP_NOT_ALLOWED", round_id)
    assert snapshot(player, round_id) == before

    plain = play_until(player, "cluedo", 1, 1, lambda v: v["status"] == "closed",
                       "a round that closes at once")
    before = snapshot(player, plain["round_id"])
    refused(player.step(plain["round_id"], "gamble", "red"), 409, "STEP_NOT_ALLOWED")
    assert snapshot(player, plain["round_id"]) == before


# -- choice steps: Cops n Robbers' wheels --------------------------------------------------------


def bonus_prices(stake: int) -> dict[int, Fraction]:
    """Credits' worth of Big, Super and Mega Big Money (start multiplier 1, 2, 3) at `stake`."""
    return {b: Fraction(p) * stake for b, p in enumerate(WHEEL["bonus_prices"], 1)}


def wheel_start(offer: dict) -> dict:
    stake, win = offer["stake"], offer["amount"]
    limit = min(WHEEL["limit_stake_multiple"] * stake, WHEEL["limit_minor"] // offer["denomination"])
    reached = max([0] + [b for b, price in bonus_prices(stake).items() if win >= price])
    return {"stake": stake, "limit": limit, "amount": win, "collected": 0, "bonus_won": None,
            "reached": reached, "finished": False}


def wheel_after(state: dict, choice: list, served: dict) -> dict:
    """The seed's wheel gamble (and gamble.py's documented interpretations): an amount banks the
    rest; a cash spin moves the amount to amount x num / den rounded down (at most up to the
    limit) or loses it; a bonus spin ends the gamble, won or lost; reaching the limit ends it.
    `served` is the server's state after the spin: only whether it was won is read from it."""
    s = dict(state)
    kind = choice[0]
    if kind == "amount":
        s.update(amount=choice[1], collected=s["collected"] + s["amount"] - choice[1])
    elif kind == "cash":
        num, den = WHEEL["cash_targets"][choice[1]]
        room = s["limit"] - s["collected"]
        target = room if s["amount"] * num >= room * den else s["amount"] * num // den
        if served["amount"] == 0:
            s.update(amount=0, finished=True)
        else:
            s.update(amount=target, finished=s["collected"] + target >= s["limit"])
            s["reached"] = max([s["reached"]] + [b for b, price in bonus_prices(s["stake"]).items()
                                                 if target >= price])
    elif kind == "bonus":
        assert served["bonus_won"] in (None, choice[1])
        s.update(amount=0, bonus_won=served["bonus_won"], finished=True)
    else:
        s["finished"] = True
    return s


def wheel_step(player: Player, view: dict, state: dict, choice: list,
               request_id: str | None = None) -> tuple[dict, dict]:
    after = step(player, view["round_id"], "wheel_gamble", choice, request_id)
    result = after["steps"][-1]["result"]
    expected = wheel_after(state, choice, result["state"])
    assert result["state"] == expected, (choice, result["state"], expected)
    if not expected["finished"]:
        # a lowered amount banks the rest: the player's at once, the rest stays at stake
        assert after["balance_minor"] == view["balance_minor"] + expected["collected"]
        assert after["pending_win_credits"] == expected["amount"]
    return after, expected


def rules_odds(state: dict) -> dict[str, list[dict]]:
    """The view's `choice.odds` by the seed's rules, from the state alone: at each amount the
    arrows reach (down by a tenth of the amount, rounded half up, then 1 credit; the rest
    banked), each cash target amount x num / den rounded down or cut at the limit, won with
    chance amount / target, and each bonus above `reached`, priced above the amount and within
    the limit, won with chance amount / price; exact [num, den]."""
    def exact(value: Fraction) -> list[int]:
        return [value.numerator, value.denominator]

    top, step_down = state["amount"], max(1, (state["amount"] + 5) // 10)
    odds = {}
    for amount in [*range(top, 1, -step_down), 1] if top > 1 else [1]:
        room = state["limit"] - state["collected"] - (top - amount)
        spins = []
        for i, (num, den) in enumerate(WHEEL["cash_targets"]):
            target = room if amount * num >= room * den else amount * num // den
            if target > amount:
                spins.append({"choice": ["cash", i], "target": target, "price": None,
                              "chance": exact(Fraction(amount, target))})
        for b, price in bonus_prices(state["stake"]).items():
            if b > state["reached"] and amount < price <= room:
                spins.append({"choice": ["bonus", b], "target": None, "price": exact(price),
                              "chance": exact(amount / price)})
        odds[str(amount)] = spins
    return odds


def check_wheel_odds(view: dict, state: dict) -> None:
    """The wheels' odds the server shows are the rules' (`rules_odds`), and list exactly the
    spins `choices` offers at the amount at stake."""
    odds = view["choice"]["odds"]
    assert odds == rules_odds(state)
    assert max(map(int, odds)) == state["amount"]  # the arrows start at the amount at stake
    assert [o["choice"] for o in odds[str(state["amount"])]] == [
        c for c in view["choice"]["choices"]["wheel_gamble"] if c[0] in ("cash", "bonus")]


def check_wheel_paid(player: Player, view: dict, after: dict, state: dict) -> int:
    """The credited win of a finished wheel gamble: what was banked, what stayed at stake, and
    a won bonus wheel's trail bonus, paid at once."""
    result = after["steps"][-1]["result"]
    paid = state["collected"] + state["amount"]
    bonus = result.get("bonus_outcome")
    if state["bonus_won"] is None:
        assert bonus is None
    else:
        # the prize is the trail bonus itself, played at the round's bet for nothing more
        assert bonus["bet"]["cost"] == 0
        assert (bonus["bet"]["lines"], bonus["bet"]["bet_per_line"]) == (
            view["bet"]["lines"], view["bet"]["bet_per_line"])
        assert "bonus" in bonus["flags"]
        assert bonus["breakdown"]["bonus"] == bonus["total_win"]
        assert bonus["spins"] and all(s["kind"] == "bonus" for s in bonus["spins"])
        assert any(e["type"] == "trail" for s in bonus["spins"] for e in s["events"])
        paid += bonus["total_win"]
    assert result["paid_credits"] == paid
    assert after["status"] == "closed"
    assert after["win_minor"] == paid  # denomination 1
    assert after["balance_minor"] == view["balance_minor"] + paid == player.balance()
    wins = [m for m in player_movements(get_round(player, view["round_id"]))
            if m["kind"] == "win"]
    assert sum(m["amount_minor"] for m in wins) == paid
    verified(player, view["round_id"])
    return paid


def test_cops_wheel_gamble_amount_cash_collect(server: Server) -> None:
    player = Player(server.base)
    stake = 10
    view = play_until(player, "cops-n-robbers", 10, 1,
                      lambda v: (o := offer_of(v, "wheel_gamble")) is not None and o["amount"] >= 4,
                      "a wheel gamble offered on 4+ credits")
    offer = offer_of(view, "wheel_gamble")
    assert offer["stake"] == stake
    assert offer["amount"] == view["outcome"]["total_win"]
    # the seed's limit: 2500 x stake or 250,000.00, whichever is lower
    assert offer["limits"]["limit"] == min(2500 * stake, 25_000_000) == wheel_start(offer)["limit"]
    assert offer["limits"]["offer"] == "on"
    assert offer["limits"]["cash_targets"] == WHEEL["cash_targets"]
    assert {int(b): Fraction(p) for b, p in offer["limits"]["bonus_prices"].items()} == \
        bonus_prices(stake)
    state = wheel_start(offer)
    round_id = view["round_id"]

    before = snapshot(player, round_id)
    for choice in (["amount", offer["amount"]], ["amount", 0], ["bonus", 9], ["cash", 7]):
        refused(player.step(round_id, "wheel_gamble", choice), 409, "STEP_NOT_ALLOWED")
    refused(player.step(round_id, "gamble", "red"), 409, "STEP_NOT_ALLOWED", "gamble")
    refused(player.step(round_id, "spin_chance", "play"), 409, "STEP_NOT_ALLOWED")
    assert snapshot(player, round_id) == before

    # gamble half the win, idempotent on its request id; the rest is banked
    request_id = uuid.uuid4().hex
    keep = offer["amount"] // 2
    once, state = wheel_step(player, view, state, ["amount", keep], request_id)
    twice = step(player, round_id, "wheel_gamble", ["amount", keep], request_id)
    assert twice == once
    assert len(once["steps"]) == 1
    assert (state["amount"], state["collected"]) == (keep, offer["amount"] - keep)
    check_wheel_odds(once, state)  # the opened gamble: the odds at the lowered amount
    before = snapshot(player, round_id)
    refused(player.step(round_id, "wheel_gamble", ["collect"], request_id), 409,
            "REQUEST_ID_REUSED", request_id)
    assert snapshot(player, round_id) == before

    # double or nothing on the cash wheel, then collect what is left
    after, state = wheel_step(player, view, state, ["cash", 1])
    if not state["finished"]:
        assert after["choice"]["state"] == state
        after, state = wheel_step(player, view, state, ["collect"])
    check_wheel_paid(player, view, after, state)


def test_cops_bonus_wheel_plays_the_trail_bonus(server: Server) -> None:
    """Won with probability amount / price (about 1 in 70 stakes' worth of win, near 1.6% of
    Fortune rounds), hence the longer bound: 600 rounds miss with probability below 1e-4."""
    player = Player(server.base)
    for _ in range(600):
        view = bet(player, "cops-n-robbers", 10, 1, "fortune")
        offer = offer_of(view, "wheel_gamble")
        if offer is None:
            player.finish(view)
            continue
        state = wheel_start(offer)
        check_wheel_odds(view, state)  # offered, not yet opened: the odds of the whole win
        bonuses = [c for c in view["choice"]["choices"]["wheel_gamble"] if c[0] == "bonus"]
        # offered: the bonuses above the one the win already reached, priced above the win
        assert bonuses == [["bonus", b] for b, price in bonus_prices(offer["stake"]).items()
                           if b > state["reached"] and offer["amount"] < price]
        if not bonuses:
            player.finish(view)
            continue
        request_id = uuid.uuid4().hex
        after, state = wheel_step(player, view, state, bonuses[0], request_id)
        assert step(player, view["round_id"], "wheel_gamble", bonuses[0], request_id) == after
        assert after["choice"] is None or after["choice"]["odds"] is None  # the wheels are done
        assert len(after["steps"]) == 1
        check_wheel_paid(player, view, after, state)
        if state["bonus_won"] is not None:
            return
    pytest.fail("600 Fortune Spins rounds without a bonus wheel won")


def test_gamble_at_5x_stake_only(server: Server) -> None:
    player = Player(server.base, "fivex")
    assert ok(player.http.get("/api/v1/games/cops-n-robbers"))["gamble"] == "5x"
    stake, small, large = 10, 0, 0
    for _ in range(400):
        view = bet(player, "cops-n-robbers", 10, 1)
        win = view["outcome"]["total_win"]
        offer = offer_of(view, "wheel_gamble")
        if 0 < win < 5 * stake:
            assert offer is None, view["offers"]
            assert view["status"] == "closed"
            assert view["win_minor"] == win
            small += 1
        elif 5 * stake <= win < min(WHEEL["limit_stake_multiple"] * stake, WHEEL["limit_minor"]):
            assert offer is not None and offer["limits"]["offer"] == "5x"
            large += 1
        player.finish(view)
        if small and large:
            return
    pytest.fail(f"400 rounds: {small} wins under 5 x stake, {large} at 5 x stake or more")


# -- choice steps: Spin Chance ------------------------------------------------------------------


SPIN_CHANCE_BET = (10, 2)  # Cops n Robbers at 10 lines x 2: a price of 20 credits


def spin_chance_offered(server: Server) -> tuple[Player, dict]:
    """A "poor" player (250) played down until a round ends with 0 < balance < price. Each won
    wheel gamble offered on the way is spent on the bonus wheel, nearly always lost, so the
    balance falls a price a round."""
    lines, per = SPIN_CHANCE_BET
    price = lines * per
    for _ in range(10):
        player = Player(server.base, "poor")
        for _ in range(60):
            if player.balance() < price:
                break  # the round that left it there offered nothing: a new player
            view = bet(player, "cops-n-robbers", lines, per)
            for _ in range(5):
                if offer_of(view, "spin_chance") is not None:
                    return player, view
                if view["choice"] is None:
                    break
                options = view["choice"]["choices"]["wheel_gamble"]
                bonus = next((c for c in options if c[0] == "bonus"), ["collect"])
                view = step(player, view["round_id"], "wheel_gamble", bonus)
    pytest.fail("10 poor players played down without Spin Chance being offered")


def check_spin_chance_offer(player: Player, view: dict) -> int:
    lines, per = SPIN_CHANCE_BET
    balance = player.balance()
    offer = offer_of(view, "spin_chance")
    assert 0 < balance < lines * per  # the seed: below the price of play, above zero
    assert offer["amount"] == balance == view["balance_minor"]
    assert offer["stake"] == lines * per
    assert offer["limits"] == {"price": lines * per}
    assert view["status"] == "credited"
    assert view["win_minor"] is not None  # the round's own win was settled first
    assert view["choice"] == {"active": None, "state": None,
                              "choices": {"spin_chance": ["play", "decline"]}, "odds": None}
    return balance


def test_spin_chance_decline_keeps_the_balance(server: Server) -> None:
    player, view = spin_chance_offered(server)
    balance = check_spin_chance_offer(player, view)
    request_id = uuid.uuid4().hex
    earlier = len(view["steps"])  # a wheel gamble on the round's own win may come first
    once = step(player, view["round_id"], "spin_chance", "decline", request_id)
    assert step(player, view["round_id"], "spin_chance", "decline", request_id) == once
    assert len(once["steps"]) == earlier + 1
    assert once["status"] == "closed"
    assert once["next_round_id"] is None
    assert player.balance() == balance
    # "play" under the same request id is refused: it must not wager the kept credit
    refused(player.step(view["round_id"], "spin_chance", "play", request_id), 409,
            "REQUEST_ID_REUSED", request_id)
    refused(player.step(view["round_id"], "spin_chance", "play"), 409, "STEP_NOT_ALLOWED")
    assert player.balance() == balance
    assert len(get_round(player, view["round_id"])["steps"]) == earlier + 1
    verified(player, view["round_id"])


def test_spin_chance_play_funds_a_round(server: Server) -> None:
    """Won with probability credit / price (about 1 in 2 on average): 12 tries all miss
    with probability near 1 in 4000."""
    lines, per = SPIN_CHANCE_BET
    for _ in range(12):
        player, view = spin_chance_offered(server)
        balance = check_spin_chance_offer(player, view)
        after = step(player, view["round_id"], "spin_chance", "play")
        result = after["steps"][-1]["result"]
        spun = result["state"]
        assert (spun["credit"], spun["stake"], spun["played"]) == (balance, lines * per, True)
        assert spun["won"] == (0 <= spun["draw"] < balance)  # the red share is credit / price
        assert result["wagered_minor"] == balance
        assert after["status"] == "closed"
        wagered = [m for m in player_movements(get_round(player, view["round_id"]))
                   if m["kind"] == "spin_chance"]
        assert [(m["amount_minor"], m["step"]) for m in wagered] == [
            (-balance, after["steps"][-1]["index"])]
        verified(player, view["round_id"])
        if not spun["won"]:
            assert after["next_round_id"] is None
            assert player.balance() == 0
            continue
        child = get_round(player, after["next_round_id"])
        assert child["funded_by"] == view["round_id"]
        assert child["stake_minor"] == 0
        assert child["bet"] == view["bet"]
        assert sum(m["amount_minor"] for m in player_movements(child)
                   if m["kind"] == "stake") == 0  # the spin is paid for by the wager
        child = player.finish(child)
        assert player.balance() == sum(m["amount_minor"] for m in player_movements(
            get_round(player, child["round_id"])))  # the spin's wins alone, from nothing
        verified(player, child["round_id"])
        return
    pytest.fail("12 Spin Chances played, none won")


# -- history and verify -------------------------------------------------------------------------


def test_history_pages_and_round_detail(server: Server) -> None:
    player = Player(server.base)
    played, responses, balance_after = [], {}, {}
    for _ in range(12):
        view = bet(player, "cluedo", 20, 1)
        played.append(view["round_id"])
        responses[view["round_id"]] = view
        player.finish(view)
        balance_after[view["round_id"]] = player.balance()
    others = []
    for _ in range(2):  # another game's rounds between, for the game filter
        view = bet(player, "cops-n-robbers", 10, 1)
        others.append(view["round_id"])
        player.finish(view)
        balance_after[view["round_id"]] = player.balance()

    # The filter keeps one game's rounds; each item names the game as the lobby does and says
    # the balance its round left.
    titles = {g["key"]: g["title"] for g in ok(player.http.get("/api/v1/games"))["games"]}
    mixed = ok(player.http.get("/api/v1/rounds", params={"limit": 100}))["rounds"]
    assert [r["round_id"] for r in mixed] == (played + others)[::-1]
    for item in mixed:
        assert item["title"] == titles[item["game"]]
        assert item["balance_after_minor"] == balance_after[item["round_id"]]
    cops = ok(player.http.get("/api/v1/rounds", params={"game": "cops-n-robbers"}))["rounds"]
    assert [r["round_id"] for r in cops] == others[::-1]
    assert ok(player.http.get("/api/v1/rounds", params={"game": "nope"})) == {
        "rounds": [], "next": None}

    pages, cursor = [], None
    for _ in range(4):
        params: dict[str, Any] = {"limit": 5, "game": "cluedo"} | (
            {"before": cursor} if cursor else {})
        page = ok(player.http.get("/api/v1/rounds", params=params))
        pages.append([r["round_id"] for r in page["rounds"]])
        cursor = page["next"]
        if cursor is None:
            break
    assert [len(p) for p in pages] == [5, 5, 2]
    flat = [r for p in pages for r in p]
    assert flat == played[::-1]  # newest first, each once

    # One round in full: its outcome as the bet answered it, its steps, its money.
    with_steps = [r for r in played if responses[r]["offers"]]
    if not with_steps:
        view = play_until(player, "cluedo", 20, 1, lambda v: bool(v["offers"]), "a gamble")
        player.finish(view)
        responses[view["round_id"]] = view
        with_steps = [view["round_id"]]
    without = [r for r in played if not responses[r]["offers"]]
    for round_id in with_steps[:1] + without[:1]:
        full = get_round(player, round_id)
        first = responses[round_id]
        assert full["outcome"] == first["outcome"]
        assert full["status"] == "closed"
        assert len(full["steps"]) == (1 if first["offers"] else 0)
        if full["steps"]:
            assert (full["steps"][0]["kind"], full["steps"][0]["choice"]) == ("gamble", "collect")
        mine = player_movements(full)
        assert sum(m["amount_minor"] for m in mine) == full["win_minor"] - full["stake_minor"]
        assert [m["amount_minor"] for m in mine if m["kind"] == "stake"] == [-20]
        assert sum(m["amount_minor"] for m in full["ledger"]) == 0  # double entry
        verified(player, round_id)

    stranger = Player(server.base)
    round_id = played[0]
    for response in (stranger.http.get(f"/api/v1/rounds/{round_id}"),
                     stranger.http.get(f"/api/v1/rounds/{round_id}/verify"),
                     stranger.http.get("/api/v1/rounds", params={"before": round_id}),
                     stranger.step(round_id, "gamble", "collect")):
        refused(response, 404, "UNKNOWN_ROUND", round_id)
    refused(player.http.get(f"/api/v1/rounds/{uuid.uuid4()}"), 404, "UNKNOWN_ROUND")
    assert ok(stranger.http.get("/api/v1/rounds")) == {"rounds": [], "next": None}


# -- jackpot ------------------------------------------------------------------------------------


def test_jackpot_meter(server: Server) -> None:
    spec = CLUEDO["features"]["progressive_jackpot"]
    top = CLUEDO["bet"]

    def meter() -> int:
        pools = ok(httpx.get(f"{server.base}/api/v1/jackpots"))["jackpots"]
        euro = [p for p in pools if p["currency"] == "EUR" and CLUEDO["game"]["name"] in p["pool"]]
        assert len(euro) == 1, pools
        assert euro[0]["seed_minor"] == spec["seed_amount"]
        assert euro[0]["contribution_bp"] == spec["contribution_bp"]
        assert euro[0]["wins"] == 0
        return euro[0]["amount_minor"]

    # no max bet on Cluedo in EUR before this test (see the module's docstring)
    assert meter() == spec["seed_amount"]
    player = Player(server.base)
    max_stake = top["max_lines"] * top["max_bet_per_line"]
    for k in range(1, 8):
        view = bet(player, "cluedo", top["max_lines"], top["max_bet_per_line"])
        assert view["stake_minor"] == max_stake
        assert view["jackpot_claim"] is None, "a jackpot won: the meter restarted from its seed"
        player.finish(view)
        # contribution_bp basis points of each max stake; the meter shows whole minor units
        assert meter() == spec["seed_amount"] + max_stake * spec["contribution_bp"] * k // 10_000
    after_max = meter()
    for lines, per in ((top["max_lines"], top["max_bet_per_line"] - 1), (1, 1)):
        player.finish(bet(player, "cluedo", lines, per))
    assert meter() == after_max
    # the player paid the stakes alone: the contributions come out of the house's share
    for item in ok(player.http.get("/api/v1/rounds", params={"limit": 100}))["rounds"]:
        full = get_round(player, item["round_id"])
        assert [m["amount_minor"] for m in player_movements(full) if m["kind"] == "stake"] == [
            -full["stake_minor"]]


# -- GB and DE pace and one game at a time ---------------------------------------------------------


def test_gb_pace(server: Server) -> None:
    player = Player(server.base, "gb")
    first = bet(player, "cluedo", 1, 1)
    player.finish(first)  # a gamble offered would refuse the next bet for another reason
    time.sleep(0.1)
    before = player.balance()
    error = refused(player.bet("cluedo", 1, 1), 429, "TOO_FAST", str(GB["min_round_interval_ms"]))
    wait = error["retry_after_ms"]
    assert 0 < wait <= GB["min_round_interval_ms"] - 100
    assert player.balance() == before
    time.sleep(wait / 1000 + 0.05)
    player.finish(bet(player, "cluedo", 1, 1))
    assert len(ok(player.http.get("/api/v1/rounds"))["rounds"]) == 2


def test_gb_one_game_at_a_time(server: Server) -> None:
    """Several GB players bet at once, so a wheel gamble comes without waiting 2.5 s a round."""
    players = [Player(server.base, "gb") for _ in range(6)]
    for _ in range(10):
        for player in players:
            view = bet(player, "cops-n-robbers", 10, 1)
            if offer_of(view, "wheel_gamble") is None:
                continue
            before = player.balance()
            for game, lines in (("cluedo", 1), ("candy-jar-clusters", 20)):
                error = refused(player.bet(game, lines, 1), 409, "ROUND_ALREADY_OPEN",
                                view["round_id"])
                assert error["round_id"] == view["round_id"]
            assert player.balance() == before
            step(player, view["round_id"], "wheel_gamble", ["collect"])
            return
        time.sleep(GB["min_round_interval_ms"] / 1000 + 0.1)
    pytest.fail("60 GB rounds of Cops n Robbers without a wheel gamble offered")


def test_de_stake_and_pace(server: Server) -> None:
    player = Player(server.base, "de")
    view = bet(player, "cops-n-robbers", 10, 10)  # 100: the DE limit itself is allowed
    assert view["stake_minor"] == DE["max_stake_minor"]
    assert offer_of(view, "wheel_gamble") is None  # DE: no gamble
    error = refused(player.bet("candy-jar-clusters", 20, 1), 429, "TOO_FAST",
                    str(DE["min_round_interval_ms"]))
    assert 2500 < error["retry_after_ms"] <= DE["min_round_interval_ms"]


# -- the operator's win cap -------------------------------------------------------------------


def test_operator_win_cap(server: Server) -> None:
    player = Player(server.base, "capped")
    for _ in range(MAX_ROUNDS):
        before = player.balance()
        view = bet(player, "cluedo", 20, 4)
        win = view["outcome"]["total_win"]  # credits = minor units at denomination 1
        final = player.finish(view) if view["offers"] else view
        if win <= CAP_MINOR:
            assert final["win_minor"] == win
            assert final["capped_from_minor"] is None
            continue
        assert final["win_minor"] == CAP_MINOR
        assert final["capped_from_minor"] == win
        assert final["balance_minor"] == before - 80 + CAP_MINOR == player.balance()
        wins = [m for m in player_movements(get_round(player, view["round_id"]))
                if m["kind"] == "win"]
        assert [m["amount_minor"] for m in wins] == [CAP_MINOR]
        return
    pytest.fail(f"{MAX_ROUNDS} rounds of Cluedo at 20x4 without a win above {CAP_MINOR}")


# -- the record of a round (standards.md C1, C3) and a player's own stake limit (I8) -------------


def test_each_round_keeps_every_gli_19_2_8_2_field(server: Server, database_url: str) -> None:
    """C1 (GLI-19 2.8.2): each field the standard lists, by its name, in a stored round, read
    back through the round's record (GET /rounds/{id}) and, for the player and the location,
    the database. A max bet of Cluedo in GBP (the gb operator: its pool is not the EUR one
    test_jackpot_meter counts) so that the round contributes to the progressive jackpot."""
    from sqlalchemy import create_engine, select

    from reelforge.server.db.tables import players, rounds

    top = CLUEDO["bet"]
    price = top["max_lines"] * top["max_bet_per_line"]  # minor units at denomination 1
    player = Player(server.base, "gb")
    funds_before = player.balance()
    t0 = time.time_ns() // 1000
    view = bet(player, "cluedo", top["max_lines"], top["max_bet_per_line"])
    final = player.finish(view)
    t1 = time.time_ns() // 1000
    record = get_round(player, view["round_id"])
    mine = player_movements(record)
    # date and time: when it started and ended, on the server's clock
    assert t0 <= record["created_at_us"] <= record["closed_at_us"] <= t1
    # denomination
    assert record["denomination"] == record["outcome"]["bet"]["denomination"] == 1
    # final outcome display: the windows shown, the stored outcome as the bet answered it
    assert record["outcome"] == view["outcome"]
    window = record["outcome"]["spins"][0]["events"][0]
    assert window["type"] == "window" and len(window["symbols"]) == 5
    assert all(len(reel) == 3 for reel in window["symbols"])
    # funds at start and at end
    stakes = [m for m in mine if m["kind"] == "stake"]
    assert stakes[0]["balance_after_minor"] + price == funds_before
    assert mine[-1]["balance_after_minor"] == player.balance() == record["balance_minor"]
    # total wagered; total won (a jackpot won is the round's claim, paid from the pool's
    # liability in instalments: jackpot_claim, below)
    assert record["stake_minor"] == price == -sum(m["amount_minor"] for m in stakes)
    assert record["win_minor"] == final["win_minor"] == sum(
        m["amount_minor"] for m in mine if m["kind"] == "win")
    assert funds_before - record["stake_minor"] + record["win_minor"] == player.balance()
    # non-wager purchases: none in a paid round (a Spin Chance round names the round that paid)
    assert record["funded_by"] is None and record["bet"]["mode"] == "base"
    # rake or fees: a slot takes none; every movement of the round is one of these kinds
    assert {m["kind"] for m in record["ledger"]} <= {
        "stake", "win", "jackpot_contribution", "jackpot_overflow", "jackpot_claim",
        "jackpot_reseed", "jackpot_seed"}
    # jackpot won (flag: the claim, or None) and the jackpot contribution of a max bet (the
    # pool counts 1/10,000 minor units; 1.5% of 100 crosses at least one whole unit)
    assert "jackpot_claim" in record
    assert any(m["kind"] == "jackpot_contribution" for m in record["ledger"]), record["ledger"]
    # status, game-cycle id, game theme and paytable id (the game file's SHA-256)
    assert record["status"] == "closed"
    assert record["round_id"] == view["round_id"]
    assert record["game_id"] == CLUEDO["game"]["id"] == "cluedo-v1"
    assert record["outcome"]["game_sha256"] == hashlib.sha256(
        (GAMES_DIR / "cluedo" / "cluedo-v1.toml").read_bytes()).hexdigest()
    # player id and location (the licence the player plays under), in the stored row
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(select(rounds.c.id, players.c.external_id, players.c.operator_id,
                                      players.c.jurisdiction, rounds.c.closed_at)
                               .join(players, players.c.id == rounds.c.player_id)
                               .where(rounds.c.id == view["round_id"])).one()
    finally:
        engine.dispose()
    assert row.external_id == player.session()["player"]
    assert (row.operator_id, row.jurisdiction) == ("gb", "GB")
    assert row.closed_at == record["closed_at_us"]

    # player choices and intermediate phases (the gamble), at a bet that leaves the pool alone
    other = Player(server.base)
    offered = play_until(other, "cluedo", 20, 1, lambda v: bool(offer_of(v, "gamble")),
                         "a gamble offer")
    step(other, offered["round_id"], "gamble", "collect")
    steps = get_round(other, offered["round_id"])["steps"]
    assert [(s["kind"], s["choice"]) for s in steps] == [("gamble", "collect")]
    assert steps[0]["created_at_us"] >= get_round(other, offered["round_id"])["created_at_us"]


def _recall_operator(workdir: Path) -> str:
    """The `recall` operator: a test build of Cluedo whose every reel stop is Mystery Bonus,
    Rope or Dagger, so that every round triggers the free spins and retriggers them to the
    180 cap (tests/test_games.py plays the same reels); its own id and name, no jackpot."""
    text = (GAMES_DIR / "cluedo" / "cluedo-v1.toml").read_text(encoding="utf-8")
    head = text.split("# --- reels")[0]
    jackpot = head.index("[features.progressive_jackpot]")
    head = head[:jackpot] + head[head.index("[features.gamble]"):]
    head = head.replace('id = "cluedo-v1"', 'id = "recall-test-v1"').replace(
        'name = "Cluedo MegaJackpots"', 'name = "Recall Test"')
    strips = json.dumps(["BONUS ROPE DAGGER"] * 5)
    folder = workdir / "recall"
    folder.mkdir()
    (folder / "recall-test-v1.toml").write_text(
        head + f"[reels.base]\nstrips = {strips}\n[reels.golden]\nstrips = {strips}\n")
    (folder / "help.md").write_text("## About this build {#about}\n\nA test build whose every "
                                    "round plays 180 free spins.\n")
    key = workdir / "launch.key"
    return (f'[[operators]]\nid = "recall"\ncurrency = "EUR"\njurisdiction = "default"\n'
            f'secret_file = "{key}"\ndemo_balance_minor = 100000\nsession_rate_per_s = 0\n'
            f'[[operators.games]]\nkey = "recall"\ngame_file = "{folder / "recall-test-v1.toml"}"\n')


def test_a_feature_of_more_than_60_free_spins_is_recalled_whole(server: Server) -> None:
    """C3 (GLI-19 4.14.3, AGCO 13.1.2): the recall of a completed feature shows at least its
    last 50 events, each with its outcome and win. Here every one of the 180 free spins, from
    the stored round, through the history and the round's record."""
    player = Player(server.base, "recall")
    view = bet(player, "recall", 1, 1)
    player.finish(view)
    [item] = ok(player.http.get("/api/v1/rounds", params={"game": "recall"}))["rounds"]
    assert item["round_id"] == view["round_id"] and item["status"] == "closed"
    record = get_round(player, view["round_id"])
    assert record["outcome"] == view["outcome"]
    free = [s for s in record["outcome"]["spins"] if s["kind"] == "free"]
    assert len(free) == record["outcome"]["counters"]["free_spins_played"] == 180
    for spin in free[-50:]:  # the last 50 events at least: each its window and its win
        window = spin["events"][0]
        assert window["type"] == "window" and len(window["symbols"]) == 5, spin
        assert spin["win"] == sum(e["win"] for e in spin["events"] if "win" in e), spin
    assert [s["index"] for s in free] == sorted({s["index"] for s in free})  # in order, once
    verified(player, view["round_id"])  # and it replays from the record alone


def test_the_operators_stake_limit_for_a_player_lowers_the_jurisdictions(server: Server) -> None:
    """I8: a UK player's age-band limit (GBP 2 for 18-24) comes from the operator in the signed
    launch token; the server refuses any stake above it, and a limit above the GB profile's
    GBP 5 does not raise the profile's."""
    key = (server.workdir / "launch.key").read_bytes().strip()

    def launched(limit: int) -> Player:
        claims = LaunchClaims("gb", f"band-{uuid.uuid4().hex[:8]}", int(time.time()) + 300,
                              uuid.uuid4().hex, max_stake_minor=limit)
        http = httpx.Client(base_url=server.base, timeout=60)
        opened = ok(http.post("/api/v1/sessions", json={"launch_token": sign_launch(key, claims)}))
        return Player(server.base, token=opened["session_token"])

    young = launched(20)  # 20 minor units: a round of 20 lines at 1 credit, at denomination 1
    costs = [c for b in ok(young.http.get("/api/v1/games/cluedo"))["bets"]
             for c in b["cost_minor"].values()]
    assert costs and max(costs) == 20
    refused(young.bet("cluedo", 20, 2), 422, "STAKE_NOT_OFFERED", "40", "20")
    assert young.balance() == 100_000  # nothing taken
    assert bet(young, "cluedo", 20, 1)["stake_minor"] == 20
    # above the GB profile's GBP 5: the profile's limit stays. Cops n Robbers' dearest round
    # (Fortune Spins at the top bet) costs more than GBP 5; its base round at the top bet is 5.
    dearest = COPS["bet"]["max_lines"] * COPS["bet"]["max_bet_per_line"] * COPS["modes"][
        "fortune"]["price"]
    assert dearest > GB["max_stake_minor"]
    generous = launched(10**6)
    costs = [c for b in ok(generous.http.get("/api/v1/games/cops-n-robbers"))["bets"]
             for c in b["cost_minor"].values()]
    assert max(costs) == GB["max_stake_minor"]


def test_free_play_is_marked_same_game_files_and_a_balance_of_its_own(server: Server) -> None:
    """I12 (GLI-19 4.9.1): a demo operator's session says it is play money (the client labels
    its balance meter: web/tests/e2e/demo.tests.mjs); its rounds play the shipped game file
    (its SHA-256 in the round); and the same player under two operators has two balances, so
    play money never touches another operator's."""
    import dataclasses

    from reelforge.server.settings import load_settings

    key = (server.workdir / "launch.key").read_bytes().strip()
    name = f"twin-{uuid.uuid4().hex[:8]}"

    def launched(operator: str) -> Player:
        claims = LaunchClaims(operator, name, int(time.time()) + 300, uuid.uuid4().hex)
        http = httpx.Client(base_url=server.base, timeout=60)
        opened = ok(http.post("/api/v1/sessions", json={"launch_token": sign_launch(key, claims)}))
        return Player(server.base, token=opened["session_token"])

    demo, other = launched("demo"), launched("fivex")
    assert demo.session()["demo"] is True and demo.session()["player"] == name
    view = bet(demo, "cluedo", 20, 1)
    demo.finish(view)
    assert view["outcome"]["game_sha256"] == hashlib.sha256(
        (GAMES_DIR / "cluedo" / "cluedo-v1.toml").read_bytes()).hexdigest()
    assert other.balance() == 100_000  # the same name at another operator: untouched
    assert demo.balance() == 100_000 - 20 + get_round(demo, view["round_id"])["win_minor"]
    # which operators are free play: a ledger wallet with a demo balance, nothing else
    settings = load_settings(server.config, server.workdir)
    op = settings.operator("demo")
    assert op is not None and op.free_play
    assert not dataclasses.replace(op, demo_balance_minor=None).free_play
    assert not dataclasses.replace(op, wallet="seamless").free_play


# -- after everything: the books ------------------------------------------------------------------


def test_ledger_and_audit_invariants_hold(server: Server, database_url: str) -> None:
    """Last in the module: every round, step and refusal above has been through the books."""
    assert_books_hold(server, database_url)
