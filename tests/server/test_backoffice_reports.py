"""The back office's reports against a real `reelforge serve` on SQLite and PostgreSQL: the
summary meters the writer keeps equal a scan of the ledger after real rounds, gambles among
them, with the gamble apart from the paytable (D5); the RTP chart's series (E6); the live
monitor raising an alert on a game rigged to pay more than its published figures, stored,
logged and POSTed to a webhook with its arithmetic (E5); a player's sessions with their net
position and time (C6); a round looked up in full.

Expected values come from the ledger read with SQL written here, the players' own round views
and the game's published estimate, never from the back office's code.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from reelforge.spec import load_spec

from .harness import Player, Server, assert_books_hold, write_config
from .test_backoffice import PASSWORD, Staff, ok, refused, staff_add

REPO = Path(__file__).resolve().parents[2]
CANDY_ESTIMATE = REPO / "src/reelforge/games/candy_jar_clusters/candy-jar-clusters-v1.rtp.json"
# a Candy Jar build that reaches the 10,000x cap most spins (the web's e2e test game)
RIGGED_SOURCE = REPO / "web/tests/e2e/games/candy-jar-clusters-e2e-cap-v1.toml"
OPERATOR = "reports"  # only this module plays it: its meters are this module's alone
RIGGED = "rigged"
UK = "reports-gb"
MIN_ROUNDS = 30
CONFIDENCE = 0.99
MAX_ROUNDS = 300


class Webhook:
    """The operator's webhook: keeps every JSON body POSTed to it. One per database's server,
    so one run's alerts never count as another's."""

    def __init__(self) -> None:
        self.received: list[dict] = []
        received = self.received

        class Hook(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                received.append(json.loads(self.rfile.read(length)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.http = HTTPServer(("127.0.0.1", 0), Hook)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/alerts"


@pytest.fixture(scope="module")
def webhook(database_url: str) -> Iterator[Webhook]:
    hook = Webhook()
    threading.Thread(target=hook.http.serve_forever, daemon=True).start()
    try:
        yield hook
    finally:
        hook.http.shutdown()


def rigged_game(directory: Path) -> Path:
    """The rigged game file, with the shipped Candy Jar's published estimate beside it (its
    RTP of 96% and SD, stamped with this file's hash): it pays far more than those figures."""
    path = directory / "rigged-candy-v1.toml"
    path.write_text(RIGGED_SOURCE.read_text().replace(
        'id = "candy-jar-clusters-e2e-cap-v1"', 'id = "rigged-candy-v1"'))
    estimate = json.loads(CANDY_ESTIMATE.read_text())
    estimate["game_sha256"] = load_spec(path).sha256
    path.with_suffix(".rtp.json").write_text(json.dumps(estimate))
    return path


@pytest.fixture(scope="module")
def server(database_url: str, webhook: Webhook, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("reports")
    key = workdir / "launch.key"  # write_config's: written before `extra` is read
    game = rigged_game(workdir)

    def operator(op_id: str, jurisdiction: str, currency: str, games: str) -> str:
        return (f'[[operators]]\nid = "{op_id}"\ncurrency = "{currency}"\n'
                f'jurisdiction = "{jurisdiction}"\nsecret_file = "{key}"\n'
                'demo_balance_minor = 1000000\nsession_rate_per_s = 0\n' + games)

    extra = "\n".join([
        operator(OPERATOR, "default", "EUR",
                 '[[operators.games]]\nkey = "cluedo"\ngame_id = "cluedo-v1"\n'
                 '[[operators.games]]\nkey = "candy-jar-clusters"\n'
                 'game_id = "candy-jar-clusters-v1"\n'),
        operator(RIGGED, "default", "EUR",
                 f'[[operators.games]]\nkey = "rigged"\ngame_file = "{game}"\n'),
        operator(UK, "GB", "GBP",
                 '[[operators.games]]\nkey = "candy-jar-clusters"\n'
                 'game_id = "candy-jar-clusters-v1"\n')])
    config = write_config(workdir, extra)
    # the monitor checks every second: the rigged game's alert comes without being asked
    config.write_text(f"[monitor]\ninterval_s = 1\nconfidence = {CONFIDENCE}\nwindow_days = 1\n"
                      f'min_rounds = {MIN_ROUNDS}\nwebhook_url = "{webhook.url}"\n'
                      "webhook_timeout_s = 5\n\n" + config.read_text())
    served = Server(database_url, workdir, config)
    try:
        served.start()
        served.warm()
        done = staff_add(database_url, "mia", "manager", PASSWORD)
        assert done.returncode == 0, done.stderr
        done = staff_add(database_url, "val", "viewer", PASSWORD)
        assert done.returncode == 0, done.stderr
        yield served
    finally:
        served.stop()


def _day(at_us: int) -> str:
    return datetime.fromtimestamp(at_us / 1e6, UTC).date().isoformat()


def _full(player: Player, round_id: str) -> dict:
    return ok(player.http.get(f"/api/v1/rounds/{round_id}"))


def _gamble(player: Player, view: dict, turn: list[int]) -> dict:
    """Play whatever the round offers to its end: every other red/black gamble played (half,
    then red until it loses or is collected after a win), the others collected at once."""
    while view["status"] not in ("closed", "cancelled"):
        choice = view["choice"]
        kind = choice["active"] or next(iter(choice["choices"]))
        if kind == "gamble":
            offered = choice["choices"]["gamble"]
            if choice["active"] is None:
                turn[0] += 1
            taken = len(view.get("steps") or [])
            # every other gamble: half where offered, else red, twice; then collect
            decision = (("half" if "half" in offered else "red")
                        if turn[0] % 2 == 0 and taken < 2 else "collect")
        else:
            decision = {"wheel_gamble": ["collect"], "spin_chance": "decline"}[kind]
        view = ok(player.step(view["round_id"], kind, decision))
    return view


def _ledger_scan(url: str) -> dict[tuple[str, str], dict[str, int]]:
    """Per game and day of the round, this operator's house movements by what they are."""
    engine = create_engine(url)
    day = 86_400 * 1_000_000
    try:
        with engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT r.game_key, r.created_at / :day AS day, e.kind, e.step IS NOT NULL, "
                "r.funded_by IS NOT NULL, e.amount FROM ledger_entries e "
                "JOIN accounts a ON a.id = e.account_id AND a.kind = 'house' "
                "JOIN rounds r ON r.id = e.round_id JOIN players p ON p.id = r.player_id "
                "WHERE p.operator_id = :op"), {"day": day, "op": OPERATOR}).all()
    finally:
        engine.dispose()
    found: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for game, d, kind, stepped, funded, amount in rows:
        key = (game, _day(int(d) * day))
        if kind == "stake":
            found[key]["rounds"] += 1
            found[key]["turnover"] += amount
        if kind in ("stake", "win") or stepped:  # not the jackpot's movements
            found[key]["net"] += amount
    return found


def test_summary_meters_equal_a_scan_of_the_ledger_with_the_gamble_apart(
        server: Server, database_url: str):
    players = [Player(server.base, OPERATOR) for _ in range(2)]
    turn = [0]
    gambled = 0
    for _ in range(MAX_ROUNDS):
        view = _gamble(players[0], ok(players[0].bet("cluedo", 20, 1)), turn)
        gambled += len(view["steps"]) > 1
        if gambled >= 3:
            break
    else:
        pytest.fail(f"fewer than 3 gambles played in {MAX_ROUNDS} rounds of Cluedo")
    for _ in range(6):
        _gamble(players[1], ok(players[1].bet("candy-jar-clusters", 20, 1)), turn)
    # expected from the players' own round views: the paytable's win is the outcome's; a
    # gamble that changed it (or took more than one step) staked it and paid the round's win
    want: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for player in players:
        for listed in player.history():
            played = _full(player, listed["round_id"])
            row = want[(played["game"], _day(listed["created_at_us"]))]
            paytable = played["outcome"]["total_win"]  # denomination 1, no cap here
            row["rounds"] += 1
            row["turnover_minor"] += played["stake_minor"]
            row["wins_minor"] += paytable
            gamble_steps = [s for s in played["steps"] if s["kind"] == "gamble"]
            if len(gamble_steps) > 1 or (gamble_steps and played["win_minor"] != paytable):
                row["gamble_rounds"] += 1
                row["gamble_staked_minor"] += paytable
                row["gamble_won_minor"] += played["win_minor"]
            else:
                assert played["win_minor"] == paytable, played
    assert sum(r["gamble_rounds"] for r in want.values()) >= 3
    days = sorted({d for _, d in want})
    got = ok(Staff(server.base, "val").get("/meters", **{"from": days[0], "to": days[-1]}))
    mine = {(m["game"], m["day"]): m for m in got["meters"] if m["operator"] == OPERATOR}
    assert set(mine) == set(want)
    scan = _ledger_scan(database_url)
    for key, expected in want.items():
        row = mine[key]
        assert {k: row[k] for k in expected} == dict(expected), (key, row)
        for k in ("gamble_rounds", "gamble_staked_minor", "gamble_won_minor"):
            assert row[k] == expected.get(k, 0), (key, k, row)
        assert row["gamble_rtp"] == (row["gamble_won_minor"] / row["gamble_staked_minor"]
                                     if row["gamble_staked_minor"] else None)
        # the summary against a scan of the ledger: the same rounds, stakes and house result
        assert (row["rounds"], row["turnover_minor"], row["house_net_minor"]) == (
            scan[key]["rounds"], scan[key]["turnover"], scan[key]["net"]), (key, row, scan[key])
        assert row["house_net_minor"] == (row["hold_minor"] + row["gamble_staked_minor"]
                                          - row["gamble_won_minor"] + row["step_wagered_minor"]
                                          - row["funded_won_minor"])


def test_the_rtp_chart_series_narrows_its_band_with_rounds(server: Server):
    player = Player(server.base, OPERATOR)
    for _ in range(5):
        _gamble(player, ok(player.bet("candy-jar-clusters", 20, 1)), [0])
    today = datetime.now(UTC).date().isoformat()
    got = ok(Staff(server.base, "val").get("/rtp/series", operator=OPERATOR,
                                           game="candy-jar-clusters", mode="base",
                                           currency="EUR", **{"from": today, "to": today}))
    point = got["points"][-1]
    report = ok(Staff(server.base, "val").get("/rtp", operator=OPERATOR,
                                              game="candy-jar-clusters",
                                              **{"from": today, "to": today}))["rtp"][0]
    # the last point is the whole period: the same figures as the report's
    for k in ("rounds", "turnover_minor", "wins_minor", "actual_rtp", "band"):
        assert point[k] == report[k], k
    estimate = json.loads(CANDY_ESTIMATE.read_text())["figures"]
    half = NormalDist().inv_cdf(0.995) * point["sd_of_rtp"]
    assert point["band"] == pytest.approx([estimate["rtp"] - half, estimate["rtp"] + half])
    # equal stakes of 20: the SD of the RTP is the round's SD over the root of the rounds
    assert point["sd_of_rtp"] == pytest.approx(
        estimate["standard_deviation"] / math.sqrt(point["rounds"]))


def test_a_rigged_game_raises_an_alert_stored_logged_and_posted(server: Server,
                                                                webhook: Webhook):
    player = Player(server.base, RIGGED)
    for _ in range(MIN_ROUNDS):
        _gamble(player, ok(player.bet("rigged", 20, 1)), [0])
    mia = Staff(server.base, "mia")
    refused(Staff(server.base, "val").http.post("/backoffice/api/monitor/check"), 403,
            "FORBIDDEN")
    checked = ok(mia.http.post("/backoffice/api/monitor/check"))
    row = next(r for r in checked["checked"] if r["operator"] == RIGGED)
    # the arithmetic, from the published estimate and the player's own rounds
    history = player.history()
    staked = sum(r["stake_minor"] for r in history)
    won = sum(r["win_minor"] for r in history)
    estimate = json.loads(CANDY_ESTIMATE.read_text())["figures"]
    sd = estimate["standard_deviation"] / math.sqrt(len(history))
    z = (won / staked - estimate["rtp"]) / sd
    assert (row["rounds"], row["turnover_minor"], row["wins_minor"]) == (
        len(history), staked, won)
    assert row["z"] == pytest.approx(z) and z > NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
    assert row["judged"] is True and row["inside"] is False
    deadline = time.monotonic() + 60  # raised by the periodic check, or by this one
    while not [h for h in webhook.received if h["operator"] == RIGGED]:
        assert time.monotonic() < deadline, "no alert reached the webhook in 60 s"
        time.sleep(0.2)
    posted = [h for h in webhook.received if h["operator"] == RIGGED]
    assert len(posted) == 1  # one alert per game and day, however many checks
    alert = posted[0]
    assert (alert["game"], alert["mode"], alert["alert"]) == ("rigged", "base",
                                                              "rtp_outside_band")
    assert alert["theoretical_rtp"] == estimate["rtp"] and alert["round_sd"] == \
        estimate["standard_deviation"]
    assert alert["rounds"] >= MIN_ROUNDS and alert["z"] > 2.5
    assert "z = (actual - expected) / SD" in alert["arithmetic"]
    stored = ok(mia.get("/alerts"))["alerts"]
    mine = [a for a in stored if a["operator"] == RIGGED]
    assert [a["alert_id"] for a in mine] == [alert["alert_id"]]
    assert mine[0]["webhook"] == "HTTP 204"
    log = server.log.read_text(errors="replace")
    assert f"RTP alert {alert['alert_id']}: {alert['arithmetic']}" in log


def test_a_uk_players_sessions_show_net_position_and_time(server: Server):
    player = Player(server.base, UK)
    for _ in range(2):
        bet = player.bet("candy-jar-clusters", 20, 1)
        if bet.status_code == 429:  # the GB profile's pace between rounds
            time.sleep(bet.json()["error"]["retry_after_ms"] / 1000 + 0.05)
            bet = player.bet("candy-jar-clusters", 20, 1)
        _gamble(player, ok(bet), [0])
    me = player.session()
    history = player.history()
    external = str(me["player"])
    val = Staff(server.base, "val")
    found = ok(val.get(f"/players/{UK}/{external}"))
    assert (found["jurisdiction"], found["currency"]) == ("GB", "GBP")
    assert found["balance_minor"] == me["balance_minor"]
    session = found["sessions"][0]
    net = sum(r["win_minor"] - r["stake_minor"] for r in history)
    assert (session["rounds"], session["net_minor"], session["live"]) == (len(history), net, True)
    assert session["balance_at_start_minor"] + net == me["balance_minor"]
    assert 0 <= session["elapsed_s"] < 600
    assert {r["round_id"] for r in found["recent_rounds"]} == {r["round_id"] for r in history}
    refused(val.get(f"/players/{UK}/nobody-here"), 404, "PLAYER_NOT_FOUND")
    # a round in full: its bet, outcome and ledger movements, as the player's view has them
    one = history[0]
    got = ok(val.get(f"/rounds/{one['round_id']}"))
    full = _full(player, one["round_id"])
    assert (got["stake_minor"], got["win_minor"], got["outcome"]["total_win"]) == (
        full["stake_minor"], full["win_minor"], full["outcome"]["total_win"])
    player_moves = [m["amount_minor"] for m in got["ledger"] if m["account"].startswith(
        "player:")]
    assert sum(player_moves) == full["win_minor"] - full["stake_minor"]
    refused(val.get("/rounds/no-such-round"), 404, "ROUND_NOT_FOUND")


def test_ledger_and_audit_invariants_hold(server: Server, database_url: str) -> None:
    assert_books_hold(server, database_url)


def test_migration_0005_fills_the_meters_from_the_ledger_already_there(db_url: str):
    """A database with rounds from before the summary rows: 0005 fills them by the writer's
    rule (a stake and a win of paid rounds, a wager of the balance and its funded round's win;
    a jackpot contribution is the pool's). The sums below are worked out by hand."""
    from sqlalchemy import insert, select

    from reelforge.server.db.migrate import upgrade
    from reelforge.server.db.tables import (
        accounts,
        ledger_entries,
        meter_days,
        operators,
        players,
        rounds,
    )

    upgrade(db_url, "0004")
    day = 20_000
    at = day * 86_400 * 1_000_000 + 5
    bet = '{"lines": 20, "bet_per_line": 5, "mode": "base"}'
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(insert(operators).values(id="m", name="m", wallet_mode="ledger",
                                                  wallet_url=None, created_at=0))
            conn.execute(insert(players), [  # players 1 and 17: both in house shard 1
                dict(id=i, operator_id="m", external_id=f"p{i}", currency="EUR",
                     jurisdiction="default", created_at=0) for i in (1, 17)])
            conn.execute(insert(accounts), [
                dict(id=1, kind="player", owner="1", currency="EUR", balance=0),
                dict(id=2, kind="house", owner="m#1", currency="EUR", balance=0),
                dict(id=3, kind="player", owner="17", currency="EUR", balance=0),
                dict(id=4, kind="jackpot_pool", owner="x", currency="EUR", balance=0)])
            common = dict(game_key="cluedo", game_id="cluedo-v1", game_sha256="", status="closed",
                          currency="EUR", denomination=1, bet=bet, updated_at=at)
            conn.execute(insert(rounds), [
                dict(id="r1", player_id=1, request_id="q1", stake_minor=100, win_minor=300,
                     funded_by=None, created_at=at, **common),
                dict(id="r2", player_id=17, request_id="q2", stake_minor=100, win_minor=0,
                     funded_by=None, created_at=at, **common),
                dict(id="r3", player_id=1, request_id="q3", stake_minor=0, win_minor=50,
                     funded_by="r1", created_at=at + 1, **common)])
            entries = []
            for txn, source, target, amount, kind, rid, step in (
                    ("r1:stake", 1, 2, 100, "stake", "r1", None),
                    ("r1:win", 2, 1, 300, "win", "r1", None),
                    ("r1:contribution", 2, 4, 1, "jackpot_contribution", "r1", None),
                    ("r1:spin_chance", 1, 2, 40, "spin_chance", "r1", 1),
                    ("r2:stake", 3, 2, 100, "stake", "r2", None),
                    ("r3:win", 2, 1, 50, "win", "r3", None)):
                for account, signed in ((source, -amount), (target, amount)):
                    entries.append(dict(txn=txn, account_id=account, amount=signed,
                                        balance_after=0, kind=kind, round_id=rid, step=step,
                                        created_at=at))
            conn.execute(insert(ledger_entries), entries)
        upgrade(db_url)
        with engine.connect() as conn:
            got = {(r.kind, r.shard): (r.rounds, r.turnover, r.wins, r.turnover_sq)
                   for r in conn.execute(select(meter_days).where(
                       meter_days.c.day == day, meter_days.c.operator_id == "m",
                       meter_days.c.game_key == "cluedo", meter_days.c.mode == "base",
                       meter_days.c.currency == "EUR"))}
            total = conn.execute(select(meter_days)).all()
    finally:
        engine.dispose()
    assert got == {("paytable", 1): (2, 200, 300, 100 * 100 * 2),
                   ("balance_wager", 1): (1, 40, 50, 40 * 40)}
    assert len(total) == 2
