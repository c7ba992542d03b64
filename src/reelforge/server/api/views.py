"""What the API answers, as pydantic models for the OpenAPI document (`/openapi.json`): the
client and the schema tests read them. The handlers build plain dicts (a round's outcome is
already valid, checked when it was made); these models describe them, they do not re-check
every response."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from reelforge.engine.outcome import Outcome


class View(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BetSpec(View):
    lines: int
    bet_per_line: int
    mode: str


class OfferView(View):
    kind: str  # gamble, wheel_gamble, spin_chance
    amount: int  # credits at stake
    stake: int
    denomination: int
    limits: dict[str, Any]
    payback: str  # exact, "num/den"


class SpinOdds(View):
    """One wheel spin as the server plays it: cash wins `target` credits, a bonus is worth
    `price` credits (exact [num, den]); either is won with probability `chance` ([num, den])."""

    choice: list[Any]  # as in `choices`: ["cash", i] or ["bonus", b]
    target: int | None
    price: list[int] | None
    chance: list[int]


class ChoiceView(View):
    active: str | None  # the offer kind in play, None before the first step
    state: dict[str, Any] | None
    choices: dict[str, list[Any]]  # offer kind -> what may be chosen now
    # the wheel gamble's spins, exact, at each amount the amount arrows reach (a string key;
    # the highest is the amount at stake); None where no wheel is in play
    odds: dict[str, list[SpinOdds]] | None



class StepView(View):
    index: int
    request_id: str
    kind: str
    choice: Any
    seed: str
    result: dict[str, Any]
    created_at_us: int


class Movement(View):
    txn: str
    account: Literal["player", "house", "jackpot_pool", "jackpot_liability"]
    amount_minor: int
    balance_after_minor: int | None
    kind: str
    step: int | None
    at_us: int


class JackpotClaimView(View):
    id: int
    pool: str
    amount_minor: int
    status: str
    instalments: list[dict[str, Any]]


class RoundView(View):
    round_id: str
    request_id: str
    game: str
    game_id: str
    status: Literal["open", "debited", "outcome_committed", "credited", "closed", "cancelled"]
    currency: str
    denomination: int
    bet: BetSpec
    stake_minor: int
    win_minor: int | None
    funded_by: str | None
    outcome: Outcome | None
    offers: list[OfferView]
    pending_win_credits: int
    capped_from_minor: int | None
    choice: ChoiceView | None
    steps: list[StepView]
    next_round_id: str | None
    jackpot_claim: JackpotClaimView | None
    created_at_us: int
    closed_at_us: int | None
    balance_minor: int
    ledger: list[Movement] | None = None


class SessionInfo(View):
    id: int
    started_at_us: int
    expires_at_us: int
    net_minor: int


class JurisdictionView(View):
    name: str
    autoplay: bool
    turbo: bool
    min_round_interval_ms: int
    max_stake_minor: int | None
    jackpots: bool
    gamble: bool
    one_game_at_a_time: bool


class SessionView(View):
    player: str
    operator: str
    currency: str
    balance_minor: int
    in_play_minor: int
    open_rounds: list[RoundView]
    session: SessionInfo
    jurisdiction: JurisdictionView
    wallet: Literal["ledger", "seamless"]
    demo: bool  # play money: the operator's demo balance, labelled as such by the client


class OpenedSession(SessionView):
    session_token: str


class GameView(View):
    key: str
    game_id: str
    title: str
    family: str
    currency: str
    denomination: int
    modes: list[dict[str, Any]]
    bets: list[dict[str, Any]]
    default_bet: dict[str, Any] | None
    gamble: str
    win_cap_minor: int | None
    # the operator's choice_timeout_s: a win offered a gamble and left alone this long is
    # collected (the client sends the collect step); None: it waits for the player
    choice_timeout_ms: int | None
    jackpot: bool
    rtp: list[dict[str, Any]]
    max_win: dict[str, Any]
    jurisdiction: JurisdictionView
    enabled: bool
    # From the game file, for the information page and the reels: window, symbols, pays
    # (with their unit), paylines, reel strips, features.
    info: dict[str, Any]


class GamesView(View):
    games: list[GameView]


class HistoryItem(View):
    round_id: str
    game: str
    game_id: str
    title: str  # the game's title as the player saw it (the key where it is no longer served)
    status: str
    stake_minor: int
    win_minor: int | None
    balance_after_minor: int | None  # the player's balance once the round was settled
    # an open round whose win waits on the player's gamble: the part of it still at stake and
    # what the gamble has banked to the balance so far (None for any other round)
    at_stake_minor: int | None = None
    banked_minor: int | None = None
    gamble_steps: int | None = None  # gamble steps taken on it (0: stopped at the offer)
    currency: str
    funded_by: str | None
    created_at_us: int
    closed_at_us: int | None
    # a jackpot the round won (paid from the pool apart from win_minor) and its claim's status
    jackpot_minor: int | None = None
    jackpot_status: str | None = None


class HistoryView(View):
    rounds: list[HistoryItem]
    next: str | None


class VerifyView(View):
    round_id: str
    matches: bool
    problems: list[str]
    seed: str | None
    game_id: str
    game_sha256: str


class MeterView(View):
    pool: str
    currency: str
    amount_minor: int
    seed_minor: int
    contribution_bp: int
    wins: int
    enabled: bool
    updated_at_us: int
    ceiling_minor: int | None  # the meter stays put at it (standards.md G2); null: none
    overflow_minor: int  # contributions past the ceiling, kept for the next reset


class MetersView(View):
    jackpots: list[MeterView]


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")  # a code may add its figures (balance_minor ...)
    code: str
    message: str


class ErrorView(View):
    error: ErrorDetail


class VersionView(View):
    """What runs: the SHA-256 of every game file and round-playing source file
    (`reelforge.evidence.manifest`), the same manifest as the certification bundle's."""

    reelforge_version: str
    patterns: list[str]  # the manifest's file patterns, relative to the reelforge package
    files: dict[str, str]  # package path -> SHA-256 (hex) of the file as the server loaded it
    manifest_sha256: str  # SHA-256 of the manifest in sha256sum format (manifest.sha256)


def documented(model: type[BaseModel], *errors: int) -> dict:
    """`responses=` for a route: its 200 model and the error statuses it may answer."""
    found: dict[int | str, dict[str, Any]] = {200: {"model": model}}
    for status in (*errors, 422):
        found[status] = {"model": ErrorView}
    return found
