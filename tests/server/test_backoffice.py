"""The back office end to end, against a real `reelforge serve` on SQLite and PostgreSQL: staff
accounts made with `reelforge staff add`, the door (its cookie, its expiry, its log, and that
neither a player's token nor a staff token opens the other's routes), the meters after real
rounds, and the game and jackpot switches.

Expected sums come from the players' own round histories (the players' API), never from the
back office's code; the database is read only to check what the log recorded.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import subprocess
import sys
import tomllib
import uuid
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from statistics import NormalDist
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, update

from reelforge.server.db.tables import audit_log, staff, staff_sessions

from .harness import Player, Server, assert_books_hold, write_config

PASSWORD = "correct horse battery"  # 21 characters: above the minimum of 12
GAMES_DIR = Path(__file__).resolve().parents[2] / "src" / "reelforge" / "games"
CLUEDO_JACKPOT = tomllib.loads((GAMES_DIR / "cluedo" / "cluedo-v1.toml").read_text())["features"][
    "progressive_jackpot"]
OFFICE = "office"  # an operator only the meter tests play, so its sums are theirs alone
RTP_OPERATOR = "office-rtp"  # only the RTP report's test plays it
CANDY_ESTIMATE = json.loads((GAMES_DIR / "candy_jar_clusters" / "candy-jar-clusters-v1.rtp.json")
                            .read_text())["figures"]
MAX_ROUNDS = 300


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("office")
    key = workdir / "launch.key"  # write_config's: written before `extra` is read
    office = (f'[[operators]]\nid = "{OFFICE}"\ncurrency = "EUR"\njurisdiction = "default"\n'
              f'secret_file = "{key}"\ndemo_balance_minor = 100000\n'
              '[[operators.games]]\nkey = "candy-jar-clusters"\n'
              'game_id = "candy-jar-clusters-v1"\n'
              '[[operators.games]]\nkey = "cluedo"\ngame_id = "cluedo-v1"\n'
              f'[[operators]]\nid = "{RTP_OPERATOR}"\ncurrency = "EUR"\n'
              f'jurisdiction = "default"\nsecret_file = "{key}"\ndemo_balance_minor = 100000\n'
              '[[operators.games]]\nkey = "candy-jar-clusters"\n'
              'game_id = "candy-jar-clusters-v1"\n')
    served = Server(database_url, workdir, write_config(workdir, office))
    try:
        served.start()
        served.warm()
        for name, role in (("mia", "manager"), ("val", "viewer"), ("ada", "auditor")):
            done = staff_add(database_url, name, role, PASSWORD)
            assert done.returncode == 0, done.stderr
        yield served
    finally:
        served.stop()


def staff_add(url: str, name: str, role: str, password: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from reelforge.cli import main; main()",
                           "staff", "add", "--role", role, "--database-url", url, name],
                          check=False, input=password + "\n", capture_output=True, text=True,
                          timeout=120)


class Staff:
    """A browser of the back office: its own cookie jar, never an Authorization header."""

    def __init__(self, base: str, name: str, password: str = PASSWORD) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        self.signed = self.http.post("/backoffice/api/session",
                                     json={"name": name, "password": password})

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.http.get(f"/backoffice/api{path}", params=params)

    def put(self, path: str, body: dict) -> httpx.Response:
        return self.http.put(f"/backoffice/api{path}", json=body)

    def post(self, path: str, body: dict | None = None) -> httpx.Response:
        return self.http.post(f"/backoffice/api{path}", json=body if body is not None else {})


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, f"{response.status_code}: {response.text}"
    return response.json()


def refused(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    error = response.json()["error"]
    assert error["code"] == code, error
    return str(error["message"])


def audit_rows(url: str, kind: str) -> list[dict]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(audit_log.c.chain, audit_log.c.payload)
                                .where(audit_log.c.kind == kind)
                                .order_by(audit_log.c.id)).all()
    finally:
        engine.dispose()
    return [{"chain": r.chain, **json.loads(r.payload)} for r in rows]


# -- the door -----------------------------------------------------------------------------------


def test_staff_add_refuses_a_short_password_a_bad_role_and_a_taken_name(server: Server,
                                                                         database_url: str):
    short = staff_add(database_url, "sam", "viewer", "short")
    assert short.returncode != 0 and "at least 12" in short.stderr, short.stderr
    role = staff_add(database_url, "sam", "owner", PASSWORD)
    assert role.returncode != 0 and "'owner'" in role.stderr, role.stderr
    taken = staff_add(database_url, "mia", "viewer", PASSWORD)
    assert taken.returncode != 0 and "'mia'" in taken.stderr, taken.stderr


def test_sign_in_sets_a_strict_httponly_cookie_and_logs_it(server: Server, database_url: str):
    mia = Staff(server.base, "mia")
    me = ok(mia.signed)
    assert (me["name"], me["role"], me["may"]) == ("mia", "manager", ["control", "read"])
    cookie = mia.signed.headers["set-cookie"].lower()
    for attribute in ("httponly", "samesite=strict", "path=/backoffice"):
        assert attribute in cookie, cookie
    assert ok(mia.get("/session"))["name"] == "mia"
    signed = [r for r in audit_rows(database_url, "staff.signed_in") if r["name"] == "mia"]
    assert signed and signed[-1]["chain"] == "backoffice" and signed[-1]["client"] == "127.0.0.1"


def test_a_wrong_password_or_name_is_refused_and_logged(server: Server, database_url: str):
    before = len(audit_rows(database_url, "staff.sign_in_failed"))
    wrong = Staff(server.base, "mia", "not the password")
    refused(wrong.signed, 401, "BAD_CREDENTIALS")
    assert "set-cookie" not in wrong.signed.headers
    refused(Staff(server.base, "nobody").signed, 401, "BAD_CREDENTIALS")
    failed = audit_rows(database_url, "staff.sign_in_failed")[before:]
    assert [(f["name"], f["reason"]) for f in failed] == [("mia", "wrong password"),
                                                          ("nobody", "unknown name")]
    refused(wrong.get("/session"), 401, "UNAUTHORIZED")


def test_five_wrong_passwords_lock_the_account_for_a_while(server: Server, database_url: str):
    added = staff_add(database_url, "lou", "viewer", PASSWORD)
    assert added.returncode == 0, added.stderr
    for _ in range(4):
        refused(Staff(server.base, "lou", "guess").signed, 401, "BAD_CREDENTIALS")
    ok(Staff(server.base, "lou").signed)  # a good password before the fifth: the count restarts
    for _ in range(5):
        refused(Staff(server.base, "lou", "guess").signed, 401, "BAD_CREDENTIALS")
    message = refused(Staff(server.base, "lou").signed, 429, "SIGN_IN_LOCKED")
    assert "'lou'" in message and "5 wrong passwords" in message, message
    locked = [r for r in audit_rows(database_url, "staff.sign_in_failed") if r["name"] == "lou"]
    assert [r["reason"] for r in locked[-6:]] == ["wrong password"] * 5 + ["locked"]
    assert len(audit_rows(database_url, "staff.locked")) >= 1
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:  # the lock's 15 minutes have passed
            conn.execute(update(staff).where(staff.c.name == "lou").values(
                locked_until=staff.c.locked_until - 15 * 60 * 1_000_000 - 1))
    finally:
        engine.dispose()
    assert ok(Staff(server.base, "lou").signed)["name"] == "lou"


def test_a_players_token_never_opens_the_back_office(server: Server):
    player = Player(server.base)
    as_bearer = httpx.get(f"{server.base}/backoffice/api/session",
                          headers={"Authorization": f"Bearer {player.token}"})
    refused(as_bearer, 401, "UNAUTHORIZED")
    as_cookie = httpx.get(f"{server.base}/backoffice/api/session",
                          cookies={"rf_staff": player.token})
    refused(as_cookie, 401, "UNAUTHORIZED")


def test_a_staff_token_never_opens_a_players_route(server: Server):
    mia = Staff(server.base, "mia")
    token = mia.http.cookies["rf_staff"]
    assert ok(mia.get("/session"))["name"] == "mia"  # the token is live
    for path in ("/api/v1/session", "/api/v1/games", "/api/v1/rounds"):
        refused(httpx.get(f"{server.base}{path}", headers={"Authorization": f"Bearer {token}"}),
                401, "UNAUTHORIZED")
    refused(httpx.post(f"{server.base}/api/v1/games/cluedo/rounds",
                       headers={"Authorization": f"Bearer {token}"},
                       json={"request_id": uuid.uuid4().hex, "lines": 1, "bet_per_line": 1}),
            401, "UNAUTHORIZED")


def test_a_session_expires_when_idle_and_ends_at_sign_out(server: Server, database_url: str):
    val = Staff(server.base, "val")
    token = val.http.cookies["rf_staff"]
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:  # 31 minutes without a request (the idle limit is 30)
            conn.execute(update(staff_sessions).where(
                staff_sessions.c.token_sha256 == hashlib.sha256(token.encode()).hexdigest())
                .values(last_seen_at=staff_sessions.c.last_seen_at - 31 * 60 * 1_000_000))
    finally:
        engine.dispose()
    refused(val.get("/session"), 401, "SESSION_EXPIRED")
    again = Staff(server.base, "val")
    token = again.http.cookies["rf_staff"]
    assert ok(again.http.delete("/backoffice/api/session"))["signed_out"] is True
    again.http.cookies.set("rf_staff", token)  # what the browser had before sign-out
    refused(again.get("/session"), 401, "UNAUTHORIZED")


# -- meters -------------------------------------------------------------------------------------


def _day(at_us: int) -> str:
    return datetime.fromtimestamp(at_us / 1e6, UTC).date().isoformat()


def _play(player: Player, game: str, lines: int, bet_per_line: int, n: int) -> None:
    for _ in range(n):
        view = ok(player.bet(game, lines, bet_per_line))
        player.finish(view)


def test_meters_equal_the_players_own_round_histories(server: Server):
    players = [Player(server.base, OFFICE) for _ in range(2)]
    _play(players[0], "candy-jar-clusters", 20, 1, 6)
    _play(players[0], "cluedo", 20, 2, 5)
    _play(players[1], "cluedo", 20, 1, 7)
    expected: dict[tuple[str, str], dict[str, int]] = defaultdict(
        lambda: {"rounds": 0, "turnover_minor": 0, "wins_minor": 0})
    days = set()
    for player in players:
        for played in player.history():
            assert played["status"] == "closed" and played["funded_by"] is None, played
            day = _day(played["created_at_us"])
            days.add(day)
            row = expected[(played["game"], day)]
            row["rounds"] += 1
            row["turnover_minor"] += played["stake_minor"]
            row["wins_minor"] += played["win_minor"]
    assert sum(r["rounds"] for r in expected.values()) == 18
    mia = Staff(server.base, "mia")
    got = ok(mia.get("/meters", **{"from": min(days), "to": max(days)}))
    mine = {(m["game"], m["day"]): m for m in got["meters"] if m["operator"] == OFFICE}
    assert set(mine) == set(expected), (sorted(mine), sorted(expected))
    for key, want in expected.items():
        row = mine[key]
        assert (row["mode"], row["currency"]) == ("base", "EUR"), row
        assert {k: row[k] for k in want} == want, (key, row)
        assert row["hold_minor"] == want["turnover_minor"] - want["wins_minor"]
        assert row["rtp"] == pytest.approx(want["wins_minor"] / want["turnover_minor"], rel=1e-12)
        assert (row["step_wagered_minor"], row["step_wagers"], row["gamble_rounds"]) == (0, 0, 0)
    # The CSV says the same as the JSON, cell for cell.
    listed = mia.get("/meters.csv", **{"from": min(days), "to": max(days)})
    assert listed.status_code == 200 and listed.headers["content-type"].startswith("text/csv")
    assert "attachment" in listed.headers["content-disposition"]
    table = list(csv.DictReader(io.StringIO(listed.text)))
    assert len(table) == len(got["meters"])
    for row, cells in zip(got["meters"], table, strict=True):
        for column in ("operator", "game", "day", "rounds", "turnover_minor", "wins_minor",
                       "hold_minor"):
            assert str(row[column]) == cells[column], (column, row, cells)


def test_large_wins_list_every_round_paying_at_least_min_x(server: Server):
    player = Player(server.base, OFFICE)
    _play(player, "candy-jar-clusters", 20, 1, 8)
    mine = player.history()
    day = _day(mine[0]["created_at_us"])
    expected = sorted(r["round_id"] for r in mine if r["win_minor"] >= r["stake_minor"])
    got = ok(Staff(server.base, "ada").get("/large-wins", **{"from": _day(
        mine[-1]["created_at_us"]), "to": day}, min_x=1))
    listed = sorted(w["round_id"] for w in got["wins"] if w["player"] == _external(player))
    assert listed == expected
    for w in got["wins"]:
        assert w["win_minor"] >= w["stake_minor"]


def _external(player: Player) -> str:
    return str(player.session()["player"])


def test_funds_in_open_rounds_are_reported_with_their_round_ids(server: Server):
    player = Player(server.base, OFFICE)
    for _ in range(MAX_ROUNDS):  # until a win offers Cluedo's gamble: the round stays open
        view = ok(player.bet("cluedo", 20, 1))
        if view["status"] != "closed":
            break
    else:
        pytest.fail(f"no gamble offered in {MAX_ROUNDS} rounds of Cluedo")
    open_ = [r for r in player.history() if r["status"] not in ("closed", "cancelled")]
    assert [r["round_id"] for r in open_] == [view["round_id"]]
    held = ok(Staff(server.base, "val").get("/held"))
    listed = [r for r in held["rounds"] if r["player"] == _external(player)]
    assert [(r["round_id"], r["stake_minor"]) for r in listed] == [
        (view["round_id"], open_[0]["stake_minor"])]
    # every office player's unfinished round, as their own sessions report them
    total = next(t for t in held["totals"] if t["operator"] == OFFICE)
    assert total["open_rounds"] == len([r for r in held["rounds"] if r["operator"] == OFFICE])
    assert total["stakes_held_minor"] >= open_[0]["stake_minor"]
    player.finish(view)
    after = ok(Staff(server.base, "val").get("/held"))
    assert view["round_id"] not in {r["round_id"] for r in after["rounds"]}


def test_actual_rtp_against_the_published_figure_with_its_99_percent_band(server: Server):
    players = [Player(server.base, RTP_OPERATOR) for _ in range(2)]
    _play(players[0], "candy-jar-clusters", 20, 1, 8)  # stakes of 20 and 60 minor units:
    _play(players[1], "candy-jar-clusters", 20, 3, 6)  # the band weighs them, not n alone
    stakes, wins, days = [], [], set()
    for player in players:
        for played in player.history():
            stakes.append(played["stake_minor"])
            wins.append(played["win_minor"])
            days.add(_day(played["created_at_us"]))
    assert sorted(set(stakes)) == [20, 60] and len(stakes) == 14
    got = ok(Staff(server.base, "ada").get("/rtp", **{"from": min(days), "to": max(days)},
                                           operator=RTP_OPERATOR))["rtp"]
    assert len(got) == 1, got
    row = got[0]
    staked = sum(stakes)
    actual = sum(wins) / staked
    # the published estimate beside the game file: its RTP and its SD of one round's win / stake
    theoretical, sd = CANDY_ESTIMATE["rtp"], CANDY_ESTIMATE["standard_deviation"]
    z = NormalDist().inv_cdf(0.995)
    half = z * sd * math.sqrt(sum(s * s for s in stakes)) / staked
    assert (row["game"], row["mode"], row["rounds"], row["turnover_minor"], row["wins_minor"]) \
        == ("candy-jar-clusters", "base", 14, staked, sum(wins))
    assert row["actual_rtp"] == pytest.approx(actual, rel=1e-12)
    assert (row["theoretical_rtp"], row["theoretical_source"]) == (theoretical, "estimate")
    assert (row["round_sd"], row["sd_source"]) == (sd, "estimate")
    assert row["band"] == pytest.approx([theoretical - half, theoretical + half], rel=1e-9)
    assert row["inside"] is (abs(actual - theoretical) <= half)
    assert row["effective_rounds"] == pytest.approx(staked ** 2 / sum(s * s for s in stakes))


# -- control ------------------------------------------------------------------------------------


def test_a_viewer_or_auditor_cannot_switch_a_game_or_a_pool(server: Server):
    for name in ("val", "ada"):
        someone = Staff(server.base, name)
        message = refused(someone.put("/games", {"operator": "demo", "game": "candy-jar-clusters",
                                                 "enabled": False}), 403, "FORBIDDEN")
        assert name in message and "manager" in message, message
        refused(someone.put("/jackpots", {"pool": "any", "enabled": False}), 403, "FORBIDDEN")
    assert all(g["enabled"] for g in ok(Staff(server.base, "val").get("/games"))["games"]
               if g["operator"] == "demo")


def test_a_disabled_game_refuses_new_rounds_and_lets_open_ones_finish(server: Server,
                                                                      database_url: str):
    mia = Staff(server.base, "mia")
    holder = Player(server.base)
    for _ in range(MAX_ROUNDS):
        view = ok(holder.bet("cluedo", 20, 1))
        if view["status"] != "closed":
            break
    else:
        pytest.fail(f"no gamble offered in {MAX_ROUNDS} rounds of Cluedo")
    switched = ok(mia.put("/games", {"operator": "demo", "game": "cluedo", "enabled": False}))
    assert (switched["before"], switched["after"]) == ({"enabled": True}, {"enabled": False})
    other = Player(server.base)
    refused(other.bet("cluedo", 20, 1), 403, "GAME_DISABLED")
    assert ok(other.http.get("/api/v1/games/cluedo"))["enabled"] is False
    ok(other.bet("candy-jar-clusters", 20, 1))  # only that game, only that operator
    ok(Player(server.base, "fivex").bet("cluedo", 20, 1))
    closed = holder.finish(view)  # the open round finishes under its own rules (B7)
    assert closed["status"] == "closed"
    listed = {(g["operator"], g["game"]): g for g in ok(mia.get("/games"))["games"]}
    assert listed[("demo", "cluedo")]["enabled"] is False
    assert listed[("demo", "cluedo")]["switched_by"] == "mia"
    ok(mia.put("/games", {"operator": "demo", "game": "cluedo", "enabled": True}))
    ok(other.bet("cluedo", 20, 1))
    changes = [r for r in audit_rows(database_url, "game.switched") if r["game"] == "cluedo"]
    assert [(r["chain"], r["before"], r["after"], r["by"]) for r in changes[-2:]] == [
        ("operator:demo", {"enabled": True}, {"enabled": False}, "mia"),
        ("operator:demo", {"enabled": False}, {"enabled": True}, "mia")]
    refused(mia.put("/games", {"operator": "demo", "game": "nope", "enabled": False}),
            404, "UNKNOWN_GAME")


def test_a_disabled_pool_neither_grows_nor_pays_and_resumes_unchanged(server: Server,
                                                                      database_url: str):
    mia = Staff(server.base, "mia")
    player = Player(server.base)
    game = ok(player.http.get("/api/v1/games/cluedo"))
    eligible = [b for b in game["bets"] if b["jackpot_eligible"]]
    bet = max(eligible, key=lambda b: b["cost_minor"]["base"])
    # each round adds stake x bp / 10,000 minor units: at least one whole unit per round here
    assert bet["cost_minor"]["base"] * CLUEDO_JACKPOT["contribution_bp"] >= 10_000, bet
    pools = ok(mia.get("/jackpots"))["jackpots"]
    pool = next(p for p in pools if p["currency"] == "EUR")
    off = ok(mia.put("/jackpots", {"pool": pool["pool"], "enabled": False}))
    assert off["before"]["enabled"] is True and off["after"]["enabled"] is False

    def meter() -> tuple[int, bool]:  # the players' public meter of the pool
        found = next(p for p in ok(player.http.get("/api/v1/jackpots"))["jackpots"]
                     if p["pool"] == pool["pool"])
        return int(found["amount_minor"]), bool(found["enabled"])

    before, enabled = meter()
    assert enabled is False
    for _ in range(3):
        player.finish(ok(player.bet("cluedo", bet["lines"], bet["bet_per_line"])))
    assert meter() == (before, False)
    on = ok(mia.put("/jackpots", {"pool": pool["pool"], "enabled": True}))
    assert on["after"]["enabled"] is True
    # resumed with identical parameters, the current payoff included (G7)
    assert {k: v for k, v in on["after"].items() if k != "enabled"} == {
        k: v for k, v in off["before"].items() if k != "enabled"}
    player.finish(ok(player.bet("cluedo", bet["lines"], bet["bet_per_line"])))
    grown, enabled = meter()
    assert enabled and grown > before
    chain = f"jackpot:{pool['pool']}"
    rows = [r for r in audit_rows(database_url, "jackpot.disabled")
            + audit_rows(database_url, "jackpot.resumed") if r["chain"] == chain]
    assert [(r["before"]["enabled"], r["after"]["enabled"], r["by"]) for r in rows[-2:]] == [
        (True, False, "mia"), (False, True, "mia")]


def test_ledger_and_audit_invariants_hold(server: Server, database_url: str) -> None:
    """Last in the module: the rounds, switches and sign-ins above have kept the books and the
    audit chains whole (a disabled pool's rounds moved nothing into it)."""
    assert_books_hold(server, database_url)
