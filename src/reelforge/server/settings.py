"""The server's configuration: operators, their games, and the jurisdiction profiles it enforces.

Read from a TOML file (`reelforge serve --config FILE`) or, without one, the demo set-up that
`make run` serves: three demo operators (unrestricted, GB, DE), each offering the three games
and the ways family's example.
An operator is one licence: its jurisdiction profile applies to every player it launches.
Secrets (launch-token keys, wallet keys) come from files or the environment, never from the
TOML itself; the demo generates its own under `var/` on first start.
"""

from __future__ import annotations

import os
import secrets
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from reelforge.errors import InvalidArgument
from reelforge.server.policies import REQUIRED_DAYS, Policies, parse_policies


@dataclass(frozen=True)
class Jurisdiction:
    """What a licence allows: the server enforces it; the client shows what it is told."""

    name: str
    autoplay: bool
    turbo: bool
    min_round_interval_ms: int  # from one round's start to the next one's, per player
    max_stake_minor: int | None  # per round (the price paid), in the player's currency
    jackpots: bool
    gamble: bool
    one_game_at_a_time: bool  # one unfinished round across all slot games
    currencies: tuple[str, ...] | None = None  # None: any
    # the least RTP a mode may return (exact figure, or an estimate's 95% lower bound); a mode
    # below it is not offered, a game whose base mode is below it not at all. None: no rule
    # beyond GLI-19's 75%, which every shipped game meets (tests/test_certify.py)
    min_rtp: Fraction | None = None

    def to_dict(self) -> dict:
        return {"name": self.name, "autoplay": self.autoplay, "turbo": self.turbo,
                "min_round_interval_ms": self.min_round_interval_ms,
                "max_stake_minor": self.max_stake_minor, "jackpots": self.jackpots,
                "gamble": self.gamble, "one_game_at_a_time": self.one_game_at_a_time}


# standards.md section I: GB (RTS 8A no autoplay, 2.5 s per slot cycle, no turbo, one slot at a
# time, GBP 5 per spin for 25+ unless the operator passes a lower limit for the player);
# DE (GlueStV 2021 s.22a: EUR 1 per game, 5 s, no autoplay, no jackpots; no gamble: we drop it,
# as providers do for DE, standards.md D6); MT (MGA, LN 131/2016 reg. 46A: RNG casino games
# return at least 92%, standards.md E2: a mode below it is not offered).
JURISDICTIONS: dict[str, Jurisdiction] = {
    "default": Jurisdiction("default", autoplay=True, turbo=True, min_round_interval_ms=0,
                            max_stake_minor=None, jackpots=True, gamble=True,
                            one_game_at_a_time=False),
    "GB": Jurisdiction("GB", autoplay=False, turbo=False, min_round_interval_ms=2500,
                       max_stake_minor=500, jackpots=True, gamble=True, one_game_at_a_time=True,
                       currencies=("GBP",)),
    "DE": Jurisdiction("DE", autoplay=False, turbo=False, min_round_interval_ms=5000,
                       max_stake_minor=100, jackpots=False, gamble=False,
                       one_game_at_a_time=True, currencies=("EUR",)),
    "MT": Jurisdiction("MT", autoplay=True, turbo=True, min_round_interval_ms=0,
                       max_stake_minor=None, jackpots=True, gamble=True,
                       one_game_at_a_time=False, min_rtp=Fraction(92, 100)),
}
assert set(REQUIRED_DAYS) == set(JURISDICTIONS), "policies.py: a retention floor per profile"

GAMBLE_SETTINGS = ("on", "5x", "off")
# A player's client sends a bet, perhaps a choice, now and then its session or history: a
# few requests a second in the fastest autoplay. 20 a second, in bursts of 40 (a lobby's first
# requests), is several times that, and a twentieth or less of what one process serves
# (benchmarks/RESULTS.md), so one session cannot slow the others (issue 23: at 500 a second
# one session took 150-186, and moved another player's median bet from 14 to 92 ms).
DEFAULT_SESSION_RATE_PER_S = 20.0
DEFAULT_SESSION_BURST = 40


@dataclass(frozen=True)
class GameSettings:
    key: str  # what players and URLs call the game: "cluedo"
    game_id: str  # the RTP variant: a shipped game id ("cluedo-94-v1"), or a game file's path
    denomination: int = 1  # minor units per credit
    gamble: str = "on"  # Cops n Robbers' gamble offer: on, 5x (at 5x stake or more), off
    win_cap_minor: int | None = None  # the most one round pays, in currency minor units
    enabled: bool = True
    # a win offered a gamble is collected after this many seconds without input (the client
    # sends the collect step); None: it waits for the player
    choice_timeout_s: int | None = None


@dataclass(frozen=True)
class OperatorSettings:
    id: str
    name: str
    currency: str
    jurisdiction: str
    secret: bytes  # signs launch tokens
    games: tuple[GameSettings, ...]
    wallet: str = "ledger"  # "ledger": the server holds the money; "seamless": the operator does
    wallet_url: str | None = None
    wallet_secret: bytes | None = None
    demo_balance_minor: int | None = None  # demo players start with this; None: no demo
    session_ttl_s: int = 1800
    # Requests one session may make (api/limits.py): a token bucket refilled at this rate, of
    # this size; above what a player's client sends, so only a runaway or hostile one meets
    # it, and far below what a process serves. 0: no limit (a load generator). Per process.
    session_rate_per_s: float = DEFAULT_SESSION_RATE_PER_S
    session_burst: int = DEFAULT_SESSION_BURST

    @property
    def profile(self) -> Jurisdiction:
        return JURISDICTIONS[self.jurisdiction]

    @property
    def free_play(self) -> bool:
        """Play money (standards.md I12): the server itself gives every player of this
        operator its demo balance, in accounts of this operator alone; the client labels it."""
        return self.wallet == "ledger" and self.demo_balance_minor is not None

    def game(self, key: str) -> GameSettings | None:
        return next((g for g in self.games if g.key == key), None)


@dataclass(frozen=True)
class Settings:
    operators: tuple[OperatorSettings, ...]
    source: str = "demo defaults"
    extra: dict[str, Any] = field(default_factory=dict)
    policies: Policies = field(default_factory=Policies)  # jackpot ceilings, retention

    def operator(self, operator_id: str) -> OperatorSettings | None:
        return next((o for o in self.operators if o.id == operator_id), None)


DEMO_GAMES = (
    GameSettings("cluedo", "cluedo-v1"),
    GameSettings("cops-n-robbers", "cops-n-robbers-v1"),
    GameSettings("candy-jar-clusters", "candy-jar-clusters-v1"),
)
# The game format's examples (the ways, pays-anywhere and hold-and-win families', drawn by the
# client's generic screen): a designer's lobby of their own, apart from the finished games a
# player's demo lobby shows.
EXAMPLE_GAMES = (
    GameSettings("ways-example", "ways-example-v1"),
    GameSettings("anywhere-example", "anywhere-example-v1"),
    GameSettings("holdwin-example", "holdwin-example-v1"),
    GameSettings("cluster-mult-example", "cluster-mult-example-v1"),
    GameSettings("wildmult-example", "wildmult-example-v1"),
    GameSettings("modes-example", "modes-example-v1"),
    GameSettings("sticky-example", "sticky-example-v1"),
    GameSettings("sticky-redraw-example", "sticky-redraw-example-v1"),
)


def demo_settings(var_dir: Path) -> Settings:
    """`make run`'s set-up: demo operators with a demo balance, the ledger wallet."""
    def operator(op_id: str, name: str, currency: str, jurisdiction: str,
                 games: tuple[GameSettings, ...] = DEMO_GAMES) -> OperatorSettings:
        return OperatorSettings(op_id, name, currency, jurisdiction,
                                _secret_file(var_dir / f"{op_id}.launch.key"), games,
                                demo_balance_minor=100_000)
    return Settings((operator("demo", "Demo casino", "EUR", "default"),
                     operator("demo-gb", "Demo casino (GB licence)", "GBP", "GB"),
                     operator("demo-de", "Demo casino (DE licence)", "EUR", "DE"),
                     operator("demo-lab", "Game lab (the format's example games)", "EUR",
                              "default", EXAMPLE_GAMES)))


def load_settings(path: Path | None, var_dir: Path) -> Settings:
    """The settings in `path` (TOML), or the demo defaults."""
    if path is None:
        return demo_settings(var_dir)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise InvalidArgument(f"--config {path}: {exc}") from None
    ops = data.get("operators")
    if not isinstance(ops, list) or not ops:
        raise InvalidArgument(f"{path}: operators = {ops!r}: expected a list of [[operators]]")
    operators = tuple(_operator(path, i, raw) for i, raw in enumerate(ops))
    ids = [o.id for o in operators]
    if len(set(ids)) != len(ids):
        raise InvalidArgument(f"{path}: operators ids {ids!r}: must be unique")
    # the other sections ([monitor] ...), each checked by the part that reads it, at start
    return Settings(operators, str(path), {k: v for k, v in data.items() if k != "operators"},
                    policies=parse_policies(path, data))


def _operator(path: Path, index: int, raw: Any) -> OperatorSettings:
    where = f"{path}: operators[{index}]"
    if not isinstance(raw, dict):
        raise InvalidArgument(f"{where} = {raw!r}: expected a table")
    known = {"id", "name", "currency", "jurisdiction", "secret_file", "secret_env", "games",
             "wallet", "wallet_url", "wallet_secret_file", "wallet_secret_env",
             "demo_balance_minor", "session_ttl_s", "session_rate_per_s", "session_burst"}
    for key in raw:
        if key not in known:
            raise InvalidArgument(f"{where}.{key}: not a setting ({', '.join(sorted(known))})")
    op_id = _text(raw, "id", where)
    jurisdiction = raw.get("jurisdiction", "default")
    if jurisdiction not in JURISDICTIONS:
        raise InvalidArgument(f"{where}.jurisdiction = {jurisdiction!r}: must be one of "
                              f"{', '.join(JURISDICTIONS)}")
    currency = _text(raw, "currency", where)
    allowed = JURISDICTIONS[jurisdiction].currencies
    if len(currency) != 3 or not currency.isupper() or (allowed and currency not in allowed):
        raise InvalidArgument(f"{where}.currency = {currency!r}: expected an ISO 4217 code"
                              + (f" among {allowed}" if allowed else ""))
    wallet = raw.get("wallet", "ledger")
    if wallet not in ("ledger", "seamless"):
        raise InvalidArgument(f"{where}.wallet = {wallet!r}: must be ledger or seamless")
    wallet_url = raw.get("wallet_url")
    wallet_secret = None
    if wallet == "seamless":
        if not isinstance(wallet_url, str) or not wallet_url.startswith(("http://", "https://")):
            raise InvalidArgument(f"{where}.wallet_url = {wallet_url!r}: a seamless wallet "
                                  "needs the operator's http(s) URL")
        wallet_secret = _secret(raw, "wallet_secret", where)
    games = raw.get("games", [])
    if not isinstance(games, list) or not games:
        raise InvalidArgument(f"{where}.games = {games!r}: expected a list of [[operators.games]]")
    demo = raw.get("demo_balance_minor")
    if demo is not None and (type(demo) is not int or not 0 < demo < 2**53):
        raise InvalidArgument(f"{where}.demo_balance_minor = {demo!r}: expected a positive integer")
    ttl = raw.get("session_ttl_s", 1800)
    if type(ttl) is not int or not 10 <= ttl <= 86_400:
        raise InvalidArgument(f"{where}.session_ttl_s = {ttl!r}: expected 10..86400 seconds")
    rate = raw.get("session_rate_per_s", DEFAULT_SESSION_RATE_PER_S)
    if type(rate) not in (int, float) or not 0 <= rate <= 100_000:
        raise InvalidArgument(f"{where}.session_rate_per_s = {rate!r}: expected 0..100000 "
                              "requests a second (0: no limit)")
    burst = raw.get("session_burst", DEFAULT_SESSION_BURST)
    if type(burst) is not int or not 1 <= burst <= 1_000_000:
        raise InvalidArgument(f"{where}.session_burst = {burst!r}: expected 1..1000000 requests")
    served = tuple(_game(f"{where}.games[{j}]", g) for j, g in enumerate(games))
    keys = [g.key for g in served]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:  # a second game under a key would never be reached: the first answers for it
        raise InvalidArgument(f"{where}.games: key {twice[0]!r} is given {keys.count(twice[0])} "
                              "times: each game of an operator needs its own key")
    return OperatorSettings(
        op_id, raw.get("name", op_id), currency, jurisdiction, _secret(raw, "secret", where),
        served, wallet, wallet_url, wallet_secret, demo, ttl, float(rate), burst)


def _game(where: str, raw: Any) -> GameSettings:
    if not isinstance(raw, dict):
        raise InvalidArgument(f"{where} = {raw!r}: expected a table")
    known = {"key", "game_id", "game_file", "denomination", "gamble", "win_cap_minor",
             "enabled", "choice_timeout_s"}
    for key in raw:
        if key not in known:
            raise InvalidArgument(f"{where}.{key}: not a setting ({', '.join(sorted(known))})")
    denomination = raw.get("denomination", 1)
    if type(denomination) is not int or not 1 <= denomination <= 1_000_000:
        raise InvalidArgument(f"{where}.denomination = {denomination!r}: expected 1..1000000 "
                              "minor units per credit")
    gamble = raw.get("gamble", "on")
    if gamble not in GAMBLE_SETTINGS:
        raise InvalidArgument(f"{where}.gamble = {gamble!r}: must be one of {GAMBLE_SETTINGS}")
    cap = raw.get("win_cap_minor")
    if cap is not None and (type(cap) is not int or not 0 < cap < 2**62):
        raise InvalidArgument(f"{where}.win_cap_minor = {cap!r}: expected a positive integer")
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        raise InvalidArgument(f"{where}.enabled = {enabled!r}: expected true or false")
    timeout = raw.get("choice_timeout_s")
    if timeout is not None and (type(timeout) is not int or not 1 <= timeout <= 86_400):
        raise InvalidArgument(f"{where}.choice_timeout_s = {timeout!r}: expected 1..86400 "
                              "seconds (leave it out for no timeout)")
    if "game_file" in raw:  # the operator's own game file (a test or certification build)
        file = raw["game_file"]
        if "game_id" in raw or not isinstance(file, str) or not Path(file).is_file():
            raise InvalidArgument(f"{where}.game_file = {file!r}: expected an existing game "
                                  "file, instead of game_id")
        game_ref = str(Path(file).resolve())
    else:
        game_ref = _text(raw, "game_id", where)
    return GameSettings(_text(raw, "key", where), game_ref, denomination, gamble, cap, enabled,
                        timeout)


def _text(raw: dict, key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value or len(value) > 64 or not all(
            c.isalnum() or c in "-_." for c in value):
        raise InvalidArgument(f"{where}.{key} = {value!r}: expected 1..64 letters, digits, - _ .")
    return value


def _secret(raw: dict, name: str, where: str) -> bytes:
    """A key from `<name>_env` (an environment variable) or `<name>_file` (a file's bytes)."""
    env, file = raw.get(f"{name}_env"), raw.get(f"{name}_file")
    if isinstance(env, str) and os.environ.get(env):
        value = os.environ[env].encode()
    elif isinstance(file, str):
        try:
            value = Path(file).read_bytes().strip()
        except OSError as exc:
            raise InvalidArgument(f"{where}.{name}_file = {file!r}: {exc.strerror}") from None
    else:
        raise InvalidArgument(f"{where}: no {name}: set {name}_file (a key file) or {name}_env "
                              "(an environment variable holding it)")
    if len(value) < 16:
        raise InvalidArgument(f"{where}: {name} is {len(value)} bytes: at least 16 needed")
    return value


def _secret_file(path: Path) -> bytes:
    """A random key kept in `path`, created (mode 0600) on first use."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    return path.read_bytes().strip()
