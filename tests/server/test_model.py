"""A stateful model test of the whole player API (issue 15 item 2): hypothesis drives random
sequences of launches, bets (valid and invalid stakes), choices (Cluedo's red/black gamble,
Cops n Robbers' wheel gamble and Spin Chance, valid and invalid), reloads, session expiries
and relaunches, and the same request sent several times at once, against one real
`reelforge serve` process; after every step the server's answer is compared with a small
model of each player's money and open rounds.

The model: a player's balance is the opening balance plus, over every round the model has
seen, the round's win (once credited) less its stake (unless a Spin Chance paid it) less what
its steps wagered; at most one open round per game, known by id; a refusal is predicted by
code, in the order the server checks (the body, the session, the stake, the open round, the
balance), and changes nothing. Every answer that carries a balance must equal the model's.

Expiry: an operator whose sessions last 10 s (`brief`); to keep the run short a session is
expired by moving its expiry into the past in the database, as the passage of time would.

The default run is short (15 examples of up to 20 steps) so that `make test` keeps its time;
a longer one:

    REELFORGE_MODEL_EXAMPLES=300 REELFORGE_MODEL_STEPS=50 \\
        .venv/bin/python -m pytest tests/server/test_model.py -q
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule
from sqlalchemy import create_engine, text

from reelforge.server import commands
from reelforge.server.services.tokens import LaunchClaims, sign_launch

from .harness import Player, Server, write_config

EXAMPLES = int(os.environ.get("REELFORGE_MODEL_EXAMPLES", "15"))
STEPS = int(os.environ.get("REELFORGE_MODEL_STEPS", "20"))
OPENING = {"demo": 100_000, "poor": 250, "brief": 100_000}
TTL_US = {"demo": 1800 * 10**6, "poor": 1800 * 10**6, "brief": 10 * 10**6}
MARGIN_US = 500_000  # the server's clock reads a request a little after the client sent it
GAMES = ("cluedo", "cops-n-robbers", "candy-jar-clusters")
CLOSED = ("closed", "cancelled")
# Invalid stakes: (lines, bet_per_line, mode) -> (status, code)
INVALID = [((0, 1, "base"), (422, "INVALID_REQUEST")),
           ((1, 999_999, "base"), (422, "STAKE_NOT_OFFERED")),
           ((1, 1, "turbo"), (422, "STAKE_NOT_OFFERED"))]
BAD_CHOICES = ["sideways", ["cash", 99]]
SEEN: Counter[str] = Counter()  # what the runs did, printed at the end


@dataclass
class World:
    server: Server
    key: bytes
    stakes: dict[str, list[tuple[int, int, str, int]]]  # game -> (lines, per, mode, price)
    engine: Any


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    workdir = tmp_path_factory.mktemp("model")
    games = "".join(f'[[operators.games]]\nkey = "{g}"\ngame_id = "{g}-v1"\n' for g in GAMES)
    brief = (f'[[operators]]\nid = "brief"\ncurrency = "EUR"\njurisdiction = "default"\n'
             f'secret_file = "{workdir / "launch.key"}"\ndemo_balance_minor = 100000\n'
             f'session_ttl_s = 10\nsession_rate_per_s = 0\n' + games)
    url = f"sqlite:///{workdir / 'model.db'}"
    server = Server(url, workdir, write_config(workdir, brief))
    server.start()
    engine = create_engine(url)
    try:
        probe = Player(server.base)
        stakes: dict[str, list[tuple[int, int, str, int]]] = {}
        for game in GAMES:
            bets = probe.http.get(f"/api/v1/games/{game}").json()["bets"]
            priced = sorted(((b["lines"], b["bet_per_line"], "base", b["cost_minor"]["base"])
                             for b in bets if "base" in b["cost_minor"]), key=lambda b: b[3])
            # the cheapest, one near 1.00 (a poor player's Spin Chance), the dearest
            near = min(priced, key=lambda b: abs(b[3] - 100))
            stakes[game] = sorted({priced[0], near, priced[-1]}, key=lambda b: b[3])
        probe.http.close()
        yield World(server, (workdir / "launch.key").read_bytes().strip(), stakes, engine)
    finally:
        engine.dispose()
        server.stop()


@dataclass
class Model:
    """What the test believes about one player."""

    name: str
    operator: str
    player: Player
    external: str
    views: dict[str, dict] = field(default_factory=dict)  # round id -> its latest view
    open: dict[str, str] = field(default_factory=dict)  # game -> the open round's id
    expired: bool = False
    # Bounds on the session's expiry (microseconds, the server's clock): each authenticated
    # request leaves at least half a TTL (the sliding renewal), and never more than a TTL.
    expires_lo: int = 0
    expires_hi: int = 0

    def session_state(self) -> str:
        """valid, expired, or either (too close to the expiry to tell)."""
        now = _now_us()
        if self.expired or now > self.expires_hi + MARGIN_US:
            return "expired"
        return "valid" if now < self.expires_lo - MARGIN_US else "either"

    def authenticated(self, sent_at: int) -> None:
        ttl = TTL_US[self.operator]
        self.expires_lo = max(self.expires_lo, sent_at + ttl // 2)
        self.expires_hi = max(self.expires_hi, _now_us() + ttl)

    def balance(self) -> int:
        total = OPENING[self.operator]
        for v in self.views.values():
            if v["status"] == "cancelled":
                continue
            paid = 0 if v.get("funded_by") else v["stake_minor"]
            wagered = sum((s["result"] or {}).get("wagered_minor", 0) for s in v["steps"])
            # what a gamble banked (TAKE HALF, a wheel amount lowered) is paid at once; the
            # round's win, once settled, includes it
            banked = sum((s["result"] or {}).get("banked_minor", 0) for s in v["steps"])
            won = banked if v["win_minor"] is None else v["win_minor"]
            total += won - paid - wagered
        return total


def _now_us() -> int:
    return time.time_ns() // 1000


def _code(answer: httpx.Response) -> str | None:
    return None if answer.status_code == 200 else answer.json()["error"]["code"]


def _launch(world: World, operator: str, external: str) -> tuple[str, dict]:
    claims = LaunchClaims(operator, external, int(time.time()) + 300, secrets.token_hex(16))
    opened = httpx.post(f"{world.server.base}/api/v1/sessions",
                        json={"launch_token": sign_launch(world.key, claims)}, timeout=60)
    assert opened.status_code == 200, opened.text
    return opened.json()["session_token"], opened.json()


class APIModel(RuleBasedStateMachine):
    world: World  # set by the test before the machine runs

    def __init__(self) -> None:
        super().__init__()
        self.models: list[Model] = []

    players = Bundle("players")

    # --- launches, reloads, expiries ---

    @rule(target=players, operator=st.sampled_from(sorted(OPENING)))
    def launch(self, operator: str) -> Model:
        external = f"model-{secrets.token_hex(6)}"
        token, opened = _launch(self.world, operator, external)
        assert opened["balance_minor"] == OPENING[operator]
        assert opened["open_rounds"] == []
        m = Model(f"p{len(self.models)}", operator, Player(self.world.server.base, token=token),
                  external)
        m.expires_lo = m.expires_hi = opened["session"]["expires_at_us"]
        self.models.append(m)
        return m

    def _expired(self, m: Model, state: str, sent_at: int, answers: list[httpx.Response]
                 ) -> bool:
        """Whether the session had expired (the answers say so, as the model allowed);
        otherwise the request renewed it."""
        for a in answers:
            SEEN[f"answer {a.status_code} {_code(a) or ''}".strip()] += 1
        if any(_code(a) == "SESSION_EXPIRED" for a in answers):
            assert state != "valid", (m.name, [a.text for a in answers])
            assert {(a.status_code, _code(a)) for a in answers} == {(401, "SESSION_EXPIRED")}
            m.expired = True
            return True
        assert state != "expired", (m.name, [a.text for a in answers])
        m.authenticated(sent_at)
        return False

    @rule(m=players)
    def reload(self, m: Model) -> None:
        state, sent_at = m.session_state(), _now_us()
        answer = m.player.http.get("/api/v1/session")
        if self._expired(m, state, sent_at, [answer]):
            return
        assert answer.status_code == 200, answer.text
        session = answer.json()
        assert session["balance_minor"] == m.balance(), (m.name, session, m.views)
        assert {v["round_id"] for v in session["open_rounds"]} == set(m.open.values())
        for v in session["open_rounds"]:  # the round where its last committed step left it
            assert v["steps"] == m.views[v["round_id"]]["steps"]
        history = m.player.history()
        assert {r["round_id"] for r in history} == set(m.views)
        for r in history:
            assert (r["status"], r["win_minor"]) == (m.views[r["round_id"]]["status"],
                                                     m.views[r["round_id"]]["win_minor"])

    @rule(m=players, now=st.integers(0, 5))
    def expire(self, m: Model, now: int) -> None:
        """The session's time runs out (one draw in six: hypothesis picks rules evenly, and
        an expired session refuses everything until a relaunch)."""
        if now != 5:
            return
        digest = hashlib.sha256(m.player.token.encode()).hexdigest()
        with self.world.engine.begin() as conn:
            moved = conn.execute(text("UPDATE sessions SET expires_at = :at WHERE "
                                      "token_sha256 = :digest"),
                                 {"at": time.time_ns() // 1000 - 1_000_000,
                                  "digest": digest}).rowcount
        assert moved == 1, "the session token is not stored by its SHA-256"
        m.expired = True
        SEEN["expiries"] += 1

    @rule(m=players)
    def relaunch(self, m: Model) -> None:
        """A new launch of a player whose session expired: the money and the open rounds are
        all there."""
        if not m.expired:
            return
        token, opened = _launch(self.world, m.operator, m.external)
        assert opened["balance_minor"] == m.balance()
        assert {v["round_id"] for v in opened["open_rounds"]} == set(m.open.values())
        m.player.http.close()
        m.player = Player(self.world.server.base, token=token)
        m.expired = False
        m.expires_lo = m.expires_hi = opened["session"]["expires_at_us"]

    # --- bets ---

    def _predict_bet(self, m: Model, game: str, stake: tuple) -> tuple[int, str | None]:
        """What the server answers, the session being valid (`_expired` handles the rest)."""
        lines, per, mode = stake[:3]
        for bad, refusal in INVALID:
            if (lines, per, mode) == bad:
                return refusal
        if game in m.open:
            return 409, "ROUND_ALREADY_OPEN"
        if m.balance() < stake[3]:
            return 409, "INSUFFICIENT_BALANCE"
        return 200, None

    def _apply(self, m: Model, view: dict) -> None:
        """A round's new view: the model's money and open rounds follow it."""
        m.views[view["round_id"]] = view
        if view["round_id"] not in m.views or view.get("choice"):
            for kind in (view.get("choice") or {}).get("choices", {}):
                SEEN[f"offered {kind}"] += 1
        if view["status"] in CLOSED:
            if m.open.get(view["game"]) == view["round_id"]:
                del m.open[view["game"]]
        else:
            assert m.open.get(view["game"], view["round_id"]) == view["round_id"], (m.open, view)
            assert view["choice"] is not None, view  # open only while a choice waits
            m.open[view["game"]] = view["round_id"]
        child = view.get("next_round_id")
        if child and child not in m.views:  # Spin Chance won: a round it paid for
            found = m.player.http.get(f"/api/v1/rounds/{child}")
            assert found.status_code == 200, found.text
            assert found.json()["funded_by"] == view["round_id"]
            self._apply(m, found.json())
        if view.get("balance_minor") is not None and not child:
            assert view["balance_minor"] == m.balance(), (m.name, view, m.views)

    @rule(m=players, game=st.sampled_from(GAMES), which=st.integers(0, 2),
          invalid=st.sampled_from([None, None, None, 0, 1, 2]))
    def bet(self, m: Model, game: str, which: int, invalid: int | None) -> None:
        stakes = self.world.stakes[game]
        stake = (*INVALID[invalid][0], 0) if invalid is not None else stakes[which % len(stakes)]
        expected = self._predict_bet(m, game, stake)
        state, sent_at = m.session_state(), _now_us()
        answer = m.player.bet(game, stake[0], stake[1], stake[2])
        if expected[1] == "INVALID_REQUEST":  # refused by its body, before the session
            assert (answer.status_code, _code(answer)) == expected, answer.text
            return
        if self._expired(m, state, sent_at, [answer]):
            return
        assert (answer.status_code, _code(answer)) == expected, (m.name, game, stake,
                                                                answer.text)
        if answer.status_code == 200:
            view = answer.json()
            assert view["stake_minor"] == stake[3]
            self._apply(m, view)
        elif expected[1] == "INSUFFICIENT_BALANCE":
            assert answer.json()["error"]["balance_minor"] == m.balance()

    @rule(rounds=st.integers(1, 4))
    def play_down(self, rounds: int) -> None:
        """A poor player (2.50) plays Cops n Robbers at about 1.00 a round, `rounds` times in
        a row: the balance falls below a stake, and Spin Chance offers to play for it."""
        stake = min(self.world.stakes["cops-n-robbers"], key=lambda b: abs(b[3] - 100))
        poor = [x for x in self.models if x.operator == "poor" and not x.expired
                and "cops-n-robbers" not in x.open and x.balance() >= stake[3]]
        m = poor[0] if poor else self.launch("poor")
        for _ in range(rounds):
            if "cops-n-robbers" in m.open or m.balance() < stake[3] or m.expired:
                return
            state, sent_at = m.session_state(), _now_us()
            answer = m.player.bet("cops-n-robbers", *stake[:3])
            if self._expired(m, state, sent_at, [answer]):
                return
            assert answer.status_code == 200, answer.text
            self._apply(m, answer.json())

    @rule(m=players, game=st.sampled_from(GAMES), copies=st.integers(2, 4))
    def same_bet_at_once(self, m: Model, game: str, copies: int) -> None:
        """One request sent `copies` times at the same moment: one round, one debit, the
        same answer to each."""
        stake = self.world.stakes[game][0]
        expected = self._predict_bet(m, game, stake)
        state, sent_at = m.session_state(), _now_us()
        request_id = uuid.uuid4().hex
        answers: list[httpx.Response] = []
        barrier = threading.Barrier(copies)

        def send() -> None:
            barrier.wait()
            answers.append(m.player.bet(game, *stake[:3], request_id=request_id))

        threads = [threading.Thread(target=send) for _ in range(copies)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert len(answers) == copies
        if self._expired(m, state, sent_at, answers):
            return
        if expected[0] != 200:
            assert {(a.status_code, _code(a)) for a in answers} == {expected}
            return
        assert [a.status_code for a in answers] == [200] * copies, [a.text for a in answers]
        views = [a.json() for a in answers]
        assert {v["round_id"] for v in views} == {views[0]["round_id"]}
        assert {v["outcome"]["seed"] for v in views} == {views[0]["outcome"]["seed"]}
        self._apply(m, views[0])

    # --- choices ---

    # Every rule draws the same values whatever the server answered before (hypothesis
    # replays choice sequences and calls a rule whose draws change with the state flaky):
    # a choice is an index, taken modulo what the round offers.
    @rule(m=players, index=st.integers(0, 2**16), valid=st.integers(0, 3),
          copies=st.sampled_from([1, 1, 1, 3]))
    def choose(self, m: Model, index: int, valid: int, copies: int) -> None:
        if not m.open:  # another player's round, then, where one waits for a choice
            waiting = [x for x in self.models if x.open and not x.expired]
            if not waiting:
                return
            m = waiting[index % len(waiting)]
        round_id = m.open[sorted(m.open)[index % len(m.open)]]
        view = m.views[round_id]
        choice = view["choice"]
        kinds = sorted(choice["choices"])
        kind = choice["active"] or kinds[index % len(kinds)]
        options = choice["choices"][kind]
        pick = options[index % len(options)] if valid else BAD_CHOICES[index % 2]
        request_id = uuid.uuid4().hex
        answers: list[httpx.Response] = []
        barrier = threading.Barrier(copies)
        state, sent_at = m.session_state(), _now_us()

        def send() -> None:
            barrier.wait()
            answers.append(m.player.step(round_id, kind, pick, request_id=request_id))

        threads = [threading.Thread(target=send) for _ in range(copies)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        if any(_code(a) == "INVALID_REQUEST" for a in answers):  # before the session
            assert not valid and {_code(a) for a in answers} == {"INVALID_REQUEST"}
            return
        if self._expired(m, state, sent_at, answers):
            return
        if not valid and pick not in options:
            for a in answers:
                assert a.status_code in (409, 422), a.text
                assert _code(a) in ("STEP_NOT_ALLOWED", "INVALID_REQUEST"), a.text
            return
        assert [a.status_code for a in answers] == [200] * copies, [a.text for a in answers]
        views = [a.json() for a in answers]
        assert {len(v["steps"]) for v in views} == {len(view["steps"]) + 1}
        assert {str(v["steps"]) for v in views} == {str(views[0]["steps"])}
        after = views[0]
        held = view["pending_win_credits"] * view["denomination"]
        if kind == "gamble" and pick == "collect" and not view["steps"]:
            # collected before any gamble: the round's own win is paid, exactly
            assert after["status"] in CLOSED or after["choice"] is not None
            if after["status"] == "closed" and not after["offers"]:
                assert (after["win_minor"] or 0) == held or after["capped_from_minor"]
        if kind == "spin_chance" and pick == "decline":
            assert after["status"] == "closed" and after["next_round_id"] is None
        self._apply(m, after)
        SEEN[f"step {kind} {pick if isinstance(pick, str) else pick[0]}"] += 1
        SEEN["spin chance rounds"] += bool(after.get("next_round_id"))

    @rule(m=players, index=st.integers(0, 2**16), valid=st.integers(0, 3))
    def choose_again(self, m: Model, index: int, valid: int) -> None:
        """The same as `choose` (so that choices are drawn about as often as bets)."""
        self.choose(m, index, valid, 1)

    @rule(m=players)
    def step_closed_round(self, m: Model) -> None:
        """A choice on a round that has closed changes nothing."""
        closed = [rid for rid, v in m.views.items() if v["status"] in CLOSED]
        if not closed:
            return
        state, sent_at = m.session_state(), _now_us()
        answer = m.player.step(closed[0], "gamble", "collect")
        if self._expired(m, state, sent_at, [answer]):
            return
        assert (answer.status_code, _code(answer)) == (409, "STEP_NOT_ALLOWED"), answer.text

    @invariant()
    def one_open_round_per_game(self) -> None:
        for m in self.models:
            assert len(m.open) == len(set(m.open.values()))


@pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")
def test_api_against_its_model(world: World, capsys: pytest.CaptureFixture[str]) -> None:
    APIModel.world = world
    run = APIModel.TestCase
    run.settings = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
                            suppress_health_check=list(HealthCheck), database=None)
    run().runTest()
    with capsys.disabled():
        print(f"\n[model] {EXAMPLES} examples of up to {STEPS} steps: "
              + ", ".join(f"{k} {v}" for k, v in sorted(SEEN.items())), flush=True)
    problems, _ = commands.ledger_check(world.server.db_url)
    assert problems == []
    assert commands.audit_verify(world.server.db_url) == []
    assert "internal error" not in Path(world.server.log).read_text()
