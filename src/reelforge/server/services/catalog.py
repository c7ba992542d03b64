"""The games an operator offers, as the server plays them: the shipped game file of the chosen
RTP variant, configured with the operator's gamble setting and the jurisdiction's rules, and
its bets in the operator's currency.

One `Game` object per (game file, settings) is shared by every request (games are immutable).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from reelforge.engine.outcome import Bet
from reelforge.engine.protocol import MaxWin, RtpFigure
from reelforge.engine.round import jackpot_eligible
from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.server.errors import ApiError
from reelforge.server.settings import GameSettings, Jurisdiction, OperatorSettings, Settings
from reelforge.spec.model import price_value


@dataclass(frozen=True)
class ServedGame:
    operator: OperatorSettings
    settings: GameSettings
    game: Any  # a Game (engine/protocol.py), configured
    # modes the jurisdiction does not allow (their RTP below its minimum), with why
    barred_modes: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        return self.settings.key

    @property
    def profile(self) -> Jurisdiction:
        return self.operator.profile

    @property
    def denomination(self) -> int:
        return self.settings.denomination

    @property
    def has_jackpot(self) -> bool:
        return self.game.spec.jackpot is not None

    def jackpot_eligible(self, bet: Bet) -> bool:
        return self.has_jackpot and jackpot_eligible(self.game, bet)

    def pool_key(self) -> str:
        """Every RTP variant of a game shares its pool, per currency."""
        return f"{self.game.title}/{self.operator.currency}"

    def stake_limit(self, player_limit: int | None) -> int | None:
        limits = [v for v in (self.profile.max_stake_minor, player_limit) if v is not None]
        return min(limits) if limits else None

    def check_bet(self, lines: Any, bet_per_line: Any, mode: Any,
                  player_limit: int | None) -> Bet:
        """The bet, checked against the game's bet structure and every stake limit."""
        try:
            bet = self.game.bet(lines, bet_per_line, mode, self.denomination)
        except (ReelforgeError, TypeError) as exc:
            raise ApiError("STAKE_NOT_OFFERED", f"{self.key}: {exc}") from None
        why = dict(self.barred_modes).get(bet.mode)
        if why is not None:
            raise ApiError("STAKE_NOT_OFFERED", f"{self.key}: mode {bet.mode} is not offered "
                           f"under the {self.profile.name} profile: {why}")
        price = self.game.price(bet) * self.denomination
        limit = self.stake_limit(player_limit)
        if limit is not None and price > limit:
            raise ApiError("STAKE_NOT_OFFERED", f"{self.key}: a round at lines={bet.lines}, "
                           f"bet_per_line={bet.bet_per_line}, mode={bet.mode} costs {price} "
                           f"minor units, above the stake limit of {limit} "
                           f"({self.profile.name} profile or the player's own limit)")
        return bet

    def describe(self, player_limit: int | None) -> dict:
        """What a screen needs to offer the game: bets in credits and currency, modes, the
        jurisdiction's switches, RTP and maximum win."""
        game, denomination = self.game, self.denomination
        limit = self.stake_limit(player_limit)
        barred = dict(self.barred_modes)
        bets = []
        for option in game.bets():
            costs = {mode: credits * denomination for mode, credits in option.costs
                     if mode not in barred}
            allowed = {m: c for m, c in costs.items() if limit is None or c <= limit}
            if allowed:
                bets.append({"lines": option.bet.lines, "bet_per_line": option.bet.bet_per_line,
                             "stake_credits": option.stake, "cost_minor": allowed,
                             "jackpot_eligible": self.jackpot_eligible(option.bet)})
        rtp = [{"mode": f.mode, "value": float(f.value), "source": f.source, "ci95": f.ci95}
               for f in rtp_figures(game) if f.mode not in barred]
        top = _max_win(game)
        return {
            "key": self.key, "game_id": game.id, "title": game.title, "family": game.family,
            "currency": self.operator.currency, "denomination": denomination,
            "modes": [{"name": m.name, "title": m.title, "price": price_value(m.price),
                       "buy_spins": m.buy_spins} for m in game.modes if m.name not in barred],
            "bets": bets, "default_bet": _default_bet(bets),
            "gamble": self.settings.gamble if self.profile.gamble else "off",
            "win_cap_minor": self.settings.win_cap_minor,
            "choice_timeout_ms": (None if self.settings.choice_timeout_s is None
                                  else self.settings.choice_timeout_s * 1000),
            "jackpot": self.has_jackpot and self.profile.jackpots,
            "rtp": rtp,
            "max_win": {"credits": top.credits, "x": float(top.x), "enforced": top.enforced},
            "jurisdiction": self.profile.to_dict(),
            "enabled": self.settings.enabled,
            "info": {**game_info(game), "help": game_help(game, self.barred_modes)},
        }


@lru_cache(maxsize=64)
def _max_win(game) -> Any:
    """Once per configured game (`configured_game` shares one object per file and setting): the
    exact maximum costs seconds (Cluedo's 3 to 7 s) and never changes for a game file."""
    return kept_figure(game, "max-win", game.max_win, lambda top: {
        "lines": top.bet.lines, "bet_per_line": top.bet.bet_per_line, "mode": top.bet.mode,
        "credits": top.credits, "x": str(top.x), "enforced": top.enforced},
        lambda d: MaxWin(Bet(d["lines"], d["bet_per_line"], d["mode"]), d["credits"],
                         Fraction(d["x"]), d["enforced"]))


@lru_cache(maxsize=64)
def top_award(game) -> dict | None:
    """The paytable's top award and how rarely it comes, exact, at the maximum bet of the base
    mode, free games included (the PAR sheet's exact_figures.top_award): its symbol, count,
    pay per line bet and 1 in how many rounds. None for a game the exact line analysis does
    not cover. Shown on the information pages (standards.md F1, F4).

    Every other game's top prize (`analysis.top_prize`: the ways paytable's top award or the
    hold-and-win grand prize, exact; the win cap estimated with its 95% interval, published
    beside the game file) comes with its `kind`."""
    from reelforge.engine.capabilities import EXACT_LINES

    if EXACT_LINES not in game.capabilities:
        from reelforge.analysis.top_prize import top_prize
        from reelforge.engine.capabilities import STRATIFIED

        if STRATIFIED in game.capabilities:  # a file beside the game's: read, never kept
            return top_prize(game)
        return kept_figure(game, "top-prize", lambda: top_prize(game), lambda value: value,
                           lambda saved: saved)

    def computed() -> dict | None:
        from reelforge.analysis.exact import analyze

        result = analyze(game, game.bet(mode="base"))
        pays = {symbol: dict(counts) for symbol, counts in game.spec.paytable}
        awards = [a for a in result.award_table() if pays.get(a["symbol"], {}).get(a["count"])]
        if not awards:
            return None
        best = max(pays[a["symbol"]][a["count"]] for a in awards)
        top = min((a for a in awards if pays[a["symbol"]][a["count"]] == best),
                  key=lambda a: a["per_round"])
        return {"symbol": top["symbol"], "count": top["count"], "pay_per_line": best,
                "one_in": 1 / top["per_round"]}

    return kept_figure(game, "top-award", computed, lambda value: value, lambda saved: saved)


@lru_cache(maxsize=64)
def rtp_figures(game) -> tuple:
    """The game's RTP figures (Cops n Robbers' exact analysis of both modes takes seconds),
    or none where it has no analysis."""
    def computed() -> tuple:
        try:
            return tuple(game.rtp())
        except ReelforgeError:
            return ()

    return kept_figure(game, "rtp", computed, lambda figures: [
        {"mode": f.mode, "fraction": str(f.value) if isinstance(f.value, Fraction) else None,
         "float": None if isinstance(f.value, Fraction) else f.value, "source": f.source,
         "ci95": f.ci95, "method": f.method} for f in figures],
        lambda saved: tuple(RtpFigure(d["mode"], Fraction(d["fraction"]) if d["fraction"]
                                      else float(d["float"]), d["source"], d["ci95"],
                                      d["method"]) for d in saved))


def kept_figure(game, name: str, compute, dump, load):
    """`compute()`, kept on disk by the game file's hash (`figure_cache`) for every later
    process: a game's figures hold the GIL for seconds, and every request of the process
    waits meanwhile. An unreadable entry is computed again and rewritten."""
    path = figure_cache() / f"{name}-{_settings_key(game)}.json"
    try:
        return load(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    value = compute()
    with contextlib.suppress(OSError):  # a read-only home: computed in each process
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_suffix(f".{os.getpid()}.tmp")
        scratch.write_text(json.dumps(dump(value)))
        scratch.replace(path)
    return value


def figure_cache() -> Path:
    """Where computed figures of game files are kept: $REELFORGE_CACHE_DIR, else
    $XDG_CACHE_HOME/reelforge, else ~/.cache/reelforge. Named by the file's hash, never by
    anything a request or a game file says."""
    explicit = os.environ.get("REELFORGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "reelforge"


def _settings_key(game) -> str:
    """The game file's SHA-256, its configured settings and the code that computes its
    figures, as one hex digest: a changed file, setting or analysis is a new entry."""
    settings = json.dumps(sorted(game.settings.items()))
    return hashlib.sha256(f"{game.spec.sha256}:{settings}:{_code_key()}".encode()).hexdigest()


@lru_cache(maxsize=1)
def _code_key() -> str:
    root = Path(__file__).resolve().parents[2]  # the reelforge package
    digest = hashlib.sha256()
    for part in ("spec", "engine", "games", "analysis"):
        for source in sorted((root / part).rglob("*.py")):
            digest.update(source.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=64)
def game_info(game) -> dict:
    """What an information page and a reel screen draw (`Game.info`), once per game."""
    return game.info()


@lru_cache(maxsize=64)
def game_help(game, barred: tuple[tuple[str, str], ...] = ()) -> dict:
    """The game's information pages (`info.help`): the words of its help file, with its
    numbers, RTP figures and maximum win filled in (`services/help.py`), once per game and
    set of modes the jurisdiction does not offer (`barred`: (mode, why); left off the pages)."""
    from reelforge.server.services.help import help_pages

    shown = {mode for mode, _why in barred}
    rtp = tuple(f for f in rtp_figures(game) if f.mode not in shown)
    return help_pages(game, rtp, _max_win(game), top_award(game), barred)


def _default_bet(bets: list[dict]) -> dict | None:
    return None if not bets else {"lines": bets[-1]["lines"], "bet_per_line": 1}


@lru_cache(maxsize=64)
def configured_game(game_id: str, gamble: str) -> Any:
    from reelforge.games import make

    game = make(game_id)
    known = {name for step in game.choice_steps for name in step.settings}
    return game.configure(gamble_offer=gamble) if "gamble_offer" in known else game


def served_game(operator: OperatorSettings, key: str) -> ServedGame:
    """The operator's game `key`, configured; refused where the jurisdiction forbids it."""
    settings = operator.game(key)
    if settings is None:
        known = ", ".join(g.key for g in operator.games)
        raise ApiError("UNKNOWN_GAME", f"game {key!r}: not offered by operator {operator.id!r} "
                       f"({known})")
    profile = operator.profile
    gamble = settings.gamble if profile.gamble else "off"
    served = ServedGame(operator, settings, configured_game(settings.game_id, gamble))
    if served.has_jackpot and not profile.jackpots:
        raise ApiError("GAME_NOT_ALLOWED", f"game {key!r}: has a progressive jackpot, which the "
                       f"{profile.name} profile does not allow")
    # A choice on the round's win that no setting of the game turns off is a gamble the
    # profile cannot drop; a choice on the balance is dropped by asking without one.
    fixed = [s.kind for s in served.game.choice_steps if s.stakes == "win" and not s.settings]
    if not profile.gamble and fixed:
        raise ApiError("GAME_NOT_ALLOWED", f"game {key!r}: its {', '.join(fixed)} cannot be "
                       f"switched off and the {profile.name} profile allows no gamble")
    if profile.min_rtp is not None:
        barred = below_minimum(served.game, profile.min_rtp)
        if "base" in barred:
            raise ApiError("GAME_NOT_ALLOWED", f"game {key!r} ({settings.game_id}): "
                           f"{barred['base']}, under the {profile.name} profile")
        served = dataclasses.replace(served, barred_modes=tuple(barred.items()))
    return served


def below_minimum(game, minimum: Fraction) -> dict[str, str]:
    """The modes of `game` whose RTP is not shown to reach `minimum`, each with why: an exact
    figure below it, an estimate whose 95% lower bound is below it, or no figure at all."""
    figures = {f.mode: f for f in rtp_figures(game)}
    found = {}
    for mode in game.modes:
        f = figures.get(mode.name)
        if f is None:
            found[mode.name] = f"no RTP figure shows it returns {float(minimum):.2%}"
            continue
        low = Fraction(f.value) - Fraction(f.ci95 or 0)
        if low < minimum:
            shown = (f"{float(f.value):.5%}" if f.source == "exact" else
                     f"{float(f.value):.5%} (95% lower bound {float(low):.5%})")
            found[mode.name] = f"its RTP {shown} is below the minimum of {float(minimum):.2%}"
    return found


def check_games(settings: Settings) -> None:
    """Refuse, at start, a configuration a game would refuse on every bet: a denomination the
    game file does not offer (the server would list its bets, then answer each with 422).
    The game's own bet check decides, so no rule is copied here. A game the jurisdiction
    forbids is left to `games_of`, which leaves it out of the lobby."""
    for i, op in enumerate(settings.operators):
        for j, g in enumerate(op.games):
            where = (f"{settings.source}: operators[{i}] (operator {op.id!r}).games[{j}] "
                     f"(game {g.key!r}, {g.game_id})")
            try:
                served = served_game(op, g.key)
            except ApiError:
                continue
            except ReelforgeError as exc:  # an unknown game id, an unreadable game file
                raise InvalidArgument(f"{where}.game_id = {g.game_id!r}: {exc}") from None
            try:
                served.game.bet(mode="base", denomination=g.denomination)
            except ReelforgeError as exc:
                raise InvalidArgument(f"{where}.denomination = {g.denomination!r}: the game "
                                      f"refuses it ({exc})") from None


def games_of(operator: OperatorSettings) -> list[ServedGame]:
    """Every game the operator may offer under its jurisdiction."""
    found = []
    for settings in operator.games:
        try:
            found.append(served_game(operator, settings.key))
        except ApiError:
            continue
    return found
