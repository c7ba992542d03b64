"""The Outcome of a round: what the server stores, the client renders and `replay` rebuilds.

One envelope for every game, line or cluster (`schema_version` 1), published as JSON Schema
(`outcome_json_schema()`, `reelforge schema outcome`). A round is its spins in play order,
each with the ordered events a screen shows: what the reels show, then each win, cash value,
collection, trail move, award and jackpot as the round decided it.

Fields are named for people. Money is integer credits (the game's smallest unit of the bet);
the server converts with the denomination. Every screen of symbols, a line game's window as
a cluster game's grid, is `symbols[reel][row]`: one tuple per reel (a cluster grid's column),
left to right, each from the top row down.

Models are frozen and refuse unknown fields; `Outcome.from_dict` validates a stored outcome
strictly (JSON types: no "10" for 10) and names the first bad field in one line.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from reelforge.errors import InvalidOutcome, quote

SCHEMA_VERSION: Literal[1] = 1
SCHEMA_ID = f"https://reelforge.dev/schema/outcome-{SCHEMA_VERSION}.json"


@dataclass(frozen=True)
class Bet:
    """What the player asks to play: the input of `play`; the outcome records it as `BetRecord`."""

    lines: int
    bet_per_line: int
    mode: str = "base"  # the way to play the base game (e.g. "fortune"); see the game's modes
    denomination: int | None = None  # currency minor units per credit; None: the game's first

    @property
    def total(self) -> int:
        """The stake in credits: what the paytable's 'stake' multiples refer to."""
        return self.lines * self.bet_per_line


INT_LIMIT = 2**62  # the game-file loader's bound on every amount (spec/limits.py WIN_LIMIT)
Count = Annotated[int, Field(ge=0, le=INT_LIMIT)]
Credits = Annotated[int, Field(ge=0, le=INT_LIMIT)]
Symbols = tuple[tuple[str, ...], ...]


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True,
                              use_attribute_docstrings=True,
                              json_schema_serialization_defaults_required=True)


# -- events ---------------------------------------------------------------------------------
class Window(Record):
    """What a line game's spin shows once the reels stop."""

    type: Literal["window"] = "window"
    symbols: Symbols
    """Symbol ids, [reel][row], row 0 on top."""


class Grid(Record):
    """A cluster game's grid: as drawn (tumble 0), then after each tumble."""

    type: Literal["grid"] = "grid"
    tumble: Count
    refilled: Count
    """Cells the tumble that led here refilled (0 for the drawn grid)."""
    symbols: Symbols
    """Symbol ids, [column][row], row 0 on top."""


class LineWin(Record):
    type: Literal["line_win"] = "line_win"
    line: Annotated[int, Field(ge=1)]
    """1-based payline number."""
    symbol: str
    count: Count
    """Reels from the leftmost."""
    multiplier: Count
    """Wild and free-game multipliers applied."""
    win: Credits


class WaysWin(Record):
    """A ways game's win of one symbol: it shows on reels 1..count (its own cells or wilds
    standing in), on `ways` ways; `paid_ways` is the ways with the wilds' multipliers applied,
    and the win is the symbol's pay x paid_ways x the coin value."""

    type: Literal["ways_win"] = "ways_win"
    symbol: str
    count: Count
    """Reels from the leftmost."""
    ways: Count
    """The product over reels 1..count of the cells showing the symbol or a wild for it."""
    paid_ways: Count
    """`ways` with wild multipliers applied (multiplied or added, as the game file says)."""
    win: Credits


class ScatterWin(Record):
    type: Literal["scatter_win"] = "scatter_win"
    symbol: str
    count: Count
    multiplier: Count
    win: Credits


class ProgressiveJackpot(Record):
    """A jackpot line: paid from the jackpot pool, never in credits (adds 0 to the round)."""

    type: Literal["progressive_jackpot"] = "progressive_jackpot"
    line: Annotated[int, Field(ge=1)]
    symbol: str
    count: Count


class Cash(Record):
    """A cash value drawn for a cash symbol in view."""

    type: Literal["cash"] = "cash"
    reel: Count
    row: Count
    value: Count
    """Multiples of the stake."""


class WildMultiplier(Record):
    """The multiplier a wild in view drew ([wild_multipliers]): it multiplies the line wins
    whose paid run holds this cell (their `multiplier` includes it)."""

    type: Literal["wild_multiplier"] = "wild_multiplier"
    reel: Count
    row: Count
    value: Annotated[int, Field(ge=1)]


class StickyWild(Record):
    """A reel filled by an expanding sticky wild in the free games ([wild_multipliers] expand =
    "sticky"): every cell of the reel shows `symbol` and carries `value`, whatever the window
    landed there; the line wins whose paid run crosses the reel are multiplied by it (their
    `multiplier` includes it). One per wild reel per free spin; `held`: the reel was wild
    before this spin, else a wild landed on it now. `value` is this spin's multiplier: drawn
    as the reel expanded and kept, or drawn afresh on every spin with sticky_multiplier =
    "redrawn"."""

    type: Literal["sticky_wild"] = "sticky_wild"
    reel: Count
    symbol: str
    value: Annotated[int, Field(ge=1)]
    held: bool


class Collection(Record):
    """Collectors in view collect the cash values in view."""

    type: Literal["collection"] = "collection"
    collectors: Count
    values: Count
    """Sum of the cash values collected, multiples of the stake."""
    multiplier: Count
    win: Credits


class Trail(Record):
    """The chase after a bonus spin's robbers and cops moved."""

    type: Literal["trail"] = "trail"
    robber: Count
    """Trail positions after the moves."""
    cop: Count
    robbers: Count
    """Robber and cop symbols that landed."""
    cops: Count


class Parade(Record):
    """The ID parade when the cop caught the robber: positions after it."""

    type: Literal["parade"] = "parade"
    result: Literal["bert", "sid", "vic"]
    """Bert ends the bonus; Sid pushes the cop back; Vic lets the robber run ahead."""
    robber: Count
    cop: Count


class Bonus(Record):
    """The trail bonus starts (its spins follow, kind "bonus")."""

    type: Literal["bonus"] = "bonus"
    trigger_count: Count
    start_multiplier: Count


class FreeSpinsAward(Record):
    """Free spins awarded by this spin's scatters (first award or retrigger)."""

    type: Literal["free_spins_award"] = "free_spins_award"
    trigger_count: Count
    spins_awarded: Count
    """After the cap on total spins."""
    spins_requested: Count
    """What the award table gives before the cap."""
    total_awarded: Count
    """In this round so far."""


class ClusterWin(Record):
    type: Literal["cluster_win"] = "cluster_win"
    tumble: Count
    """The grid (by tumble) the cluster is in."""
    symbol: str
    size: Count
    """Cells, wilds included."""
    wilds: Count
    wild_multiplier: Count
    """Sum of its wilds' multipliers (1: none); applied in `win`, the spin's multiplier not."""
    win: Credits


class GridMultipliers(Record):
    """A cluster game's grid multipliers after a tumble's wins marked their cells."""

    type: Literal["grid_multipliers"] = "grid_multipliers"
    tumble: Count
    applied: tuple[Count, ...]
    """The grid multiplier each winning cluster of this tumble was paid at (1: none), in the
    order of its cluster_win events: the sum of its cells' multipliers before this tumble."""
    cells: tuple[tuple[Count, ...], ...]
    """Per column, top to bottom: 0 never won, 1 won once, else the cell's multiplier."""


class RandomMultiplier(Record):
    """The spin's random multiplier, drawn after its first win: it multiplies every cluster
    win of the spin (the spin's `multiplier`)."""

    type: Literal["random_multiplier"] = "random_multiplier"
    tumble: Count
    value: Count


class WildsPlaced(Record):
    """Wilds placed on the drawn grid (the grid shows them)."""

    type: Literal["wilds_placed"] = "wilds_placed"
    count: Count
    golden_multiplier: Count
    """Sum of the multipliers of the golden wilds among them (0: none)."""


class Jars(Record):
    """Candies of the spin's final grid collected into the jars."""

    type: Literal["jars"] = "jars"
    wild: Count
    free_spins: Count
    jackpots: Count
    triggered: bool
    """Free Spins triggered, with the modifiers of the jars that got candies."""


class FreeSpinsTriggered(Record):
    type: Literal["free_spins_triggered"] = "free_spins_triggered"
    modifiers: tuple[str, ...]
    spins: Count
    extra_spins_at_start: Count


class ExtraFreeSpins(Record):
    """EXTRA symbols collected: one more free spin each, and super spins every so many."""

    type: Literal["extra_free_spins"] = "extra_free_spins"
    collected: Count
    spins_awarded: Count
    """Free spins awarded in the round so far."""
    toward_super_spin: Count
    super_spins_awarded: Count
    """Super spins awarded by this collection."""


class Jackpot(Record):
    """A fixed jackpot, paid in credits as part of the spin's win."""

    type: Literal["jackpot"] = "jackpot"
    jackpot: str
    pays: Credits
    multiplier: Count
    win: Credits


Event = Annotated[
    Window | Grid | LineWin | WaysWin | ScatterWin | ProgressiveJackpot | Cash | Collection | Trail | Parade
    | Bonus | FreeSpinsAward | ClusterWin | GridMultipliers | RandomMultiplier | WildsPlaced | Jars
    | FreeSpinsTriggered | ExtraFreeSpins | Jackpot | WildMultiplier | StickyWild,
    Field(discriminator="type")]


# -- the round ------------------------------------------------------------------------------
class Spin(Record):
    index: Count
    """0 = the base spin, then free, super and bonus spins in play order."""
    kind: Literal["base", "free", "bonus", "super"]
    reel_set: str
    multiplier: Count
    """A line game's free-game multiplier; a cluster game's random multiplier (1: none)."""
    stops: tuple[Count, ...]
    """Strip position shown on the top row, per reel (empty: a cluster game's grid)."""
    win: Credits
    """What the spin added to the round (a capped round's last spin: a cluster game shows
    the part up to the cap, a line game its whole win)."""
    events: tuple[Event, ...]

    def events_of(self, *types: str) -> tuple[Event, ...]:
        return tuple(e for e in self.events if e.type in types)

    def event(self, type: str) -> Event | None:
        """The spin's first event of this type, or None."""
        return next((e for e in self.events if e.type == type), None)

    @property
    def window(self) -> Symbols | None:
        """What the spin showed first: a line game's window, a cluster game's drawn grid."""
        shown = self.events_of("window", "grid")
        return shown[0].symbols if shown else None  # type: ignore[union-attr]

    @property
    def grids(self) -> tuple[Grid, ...]:
        return self.events_of("grid")  # type: ignore[return-value]

    @property
    def line_wins(self) -> tuple[LineWin, ...]:
        return self.events_of("line_win")  # type: ignore[return-value]

    @property
    def scatter_wins(self) -> tuple[ScatterWin, ...]:
        return self.events_of("scatter_win")  # type: ignore[return-value]

    @property
    def cluster_wins(self) -> tuple[ClusterWin, ...]:
        return self.events_of("cluster_win")  # type: ignore[return-value]

    @property
    def cash(self) -> tuple[Cash, ...]:
        return self.events_of("cash")  # type: ignore[return-value]

    @property
    def collection(self) -> Collection | None:
        return self.event("collection")  # type: ignore[return-value]

    @property
    def trail(self) -> Trail | None:
        return self.event("trail")  # type: ignore[return-value]

    @property
    def parade(self) -> Parade | None:
        return self.event("parade")  # type: ignore[return-value]


class BetRecord(Record):
    """The bet as played, with what it staked and cost."""

    lines: Count
    """Paylines played (a cluster game: coins)."""
    bet_per_line: Count
    """Credits per line (a cluster game: the coin value)."""
    mode: str
    denomination: Annotated[int, Field(ge=1, le=INT_LIMIT)] | None
    """Currency minor units per credit; null: the game's first."""
    stake: Credits
    """lines x bet_per_line: what the paytable's 'stake' multiples refer to."""
    cost: Credits
    """What the player paid for the round: the stake times the mode's price."""

    @model_validator(mode="after")
    def _stake_is_lines_times_bet_per_line(self) -> BetRecord:
        if self.stake != self.lines * self.bet_per_line:
            raise ValueError(f"stake = {self.stake}: not lines x bet_per_line = "
                             f"{self.lines} x {self.bet_per_line}")
        return self

    @classmethod
    def of(cls, bet: Bet, cost: int) -> BetRecord:
        return cls(lines=bet.lines, bet_per_line=bet.bet_per_line, mode=bet.mode,
                   denomination=bet.denomination, stake=bet.total, cost=cost)

    def to_bet(self) -> Bet:
        return Bet(self.lines, self.bet_per_line, self.mode, self.denomination)


class Counters(Record):
    free_spins_played: Count
    super_spins_played: Count
    retriggers: Count
    """Free-spin awards after the first (Candy Jar: EXTRA symbols collected, a spin each)."""
    bonus_spins: Count


Flag = Literal["free_spins", "free_spins_capped", "super_spins", "bonus", "jackpot",
               "win_capped", "spin_guard"]


class Outcome(Record):
    """One round of a reelforge game, decided whole at bet time."""

    schema_version: Literal[1]
    game_id: str
    game_sha256: Annotated[str, Field(pattern="^[0-9a-f]{64}$")]
    """SHA-256 of the game file's text that played the round (as sha256sum prints it)."""
    seed: Annotated[str, Field(pattern="^[0-9a-f]{1,64}$")] | None
    """Lowercase hex of the 256-bit ChaCha20 key of a live round (as the engine writes it);
    null for a caller's generator."""
    bet: BetRecord
    total_win: Credits
    """Credits paid, after the cap; progressive jackpots excluded (paid from the pool)."""
    win_capped: bool
    """The round's win was cut to the game's cap."""
    uncapped_win: Credits | None
    """The win when the round stopped, above the cap (null unless capped): a bonus or Free
    Spins round stops as soon as it reaches the cap."""
    breakdown: dict[str, Credits]
    """Credits by source. Adds up to total_win; in a capped line game, to uncapped_win."""
    flags: tuple[Flag, ...]
    modifiers: tuple[str, ...]
    """Candy Jar's Free Spins modifiers (wild, free_spins, jackpots); empty elsewhere."""
    counters: Counters
    spins: tuple[Spin, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Outcome:
        """What the engine always writes: no flag twice; `win_capped` agrees with its flag and
        comes with an uncapped win at least the total (a cluster round that reaches the cap
        exactly counts as capped), `uncapped_win` null otherwise."""
        if len(set(self.flags)) != len(self.flags):
            twice = sorted({f for f in self.flags if self.flags.count(f) > 1})
            raise ValueError(f"flags = {list(self.flags)}: {', '.join(twice)} more than once")
        if self.win_capped != ("win_capped" in self.flags):
            raise ValueError(f"win_capped = {str(self.win_capped).lower()} but flags = "
                             f"{list(self.flags)}")
        if self.win_capped and (self.uncapped_win is None or self.uncapped_win < self.total_win):
            raise ValueError(f"win_capped with uncapped_win = {self.uncapped_win}: must be at "
                             f"least total_win = {self.total_win}")
        if not self.win_capped and self.uncapped_win is not None:
            raise ValueError(f"uncapped_win = {self.uncapped_win} in a round not capped: must "
                             "be null")
        return self

    # -- read-only views -----------------------------------------------------------------
    def events_of(self, *types: str) -> tuple[Event, ...]:
        """Every event of these types, in play order."""
        return tuple(e for s in self.spins for e in s.events if e.type in types)

    @property
    def jackpots(self) -> tuple[ProgressiveJackpot | Jackpot, ...]:
        return self.events_of("progressive_jackpot", "jackpot")  # type: ignore[return-value]

    @property
    def awards(self) -> tuple[FreeSpinsAward, ...]:
        return self.events_of("free_spins_award")  # type: ignore[return-value]

    @property
    def bonus(self) -> Bonus | None:
        found = self.events_of("bonus")
        return found[0] if found else None  # type: ignore[return-value]

    @property
    def free_games_triggered(self) -> bool:
        return self.counters.free_spins_played > 0

    @property
    def spin_guard_reached(self) -> bool:
        return "spin_guard" in self.flags

    # -- JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """JSON-ready: lists for tuples, null for None."""
        return self.model_dump(mode="json")

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: object) -> Outcome:
        """A stored outcome, validated: InvalidOutcome names the first bad field."""
        try:
            text = json.dumps(data, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            raise InvalidOutcome(f"outcome: not JSON data ({exc})") from None
        try:
            return cls.model_validate_json(text)
        except ValidationError as exc:
            raise InvalidOutcome(_problem(exc, data)) from None


def _problem(exc: ValidationError, data: object) -> str:
    """One line: where the first error is (as `spins[0].events[2].win`), its value, what is
    wrong, and how many more there are."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    where = _path(first["loc"], data)
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    kind = first["type"]
    if kind == "union_tag_invalid":
        tags = first.get("ctx", {}).get("expected_tags", "")
        return (f"outcome {where}.type = {quote(first['ctx']['tag'])}: not an event type "
                f"(one of {tags}){more}")
    if kind == "union_tag_not_found":
        return f"outcome {where}.type: missing: every event names its type{more}"
    if kind == "missing":
        return f"outcome {where}: missing{more}"
    if kind == "value_error" and isinstance(first["input"], dict):  # a model's own check
        return f"outcome {where}: {first['ctx']['error']}{more}"
    if kind == "extra_forbidden":
        return f"outcome {where}: not a field of outcome schema {SCHEMA_VERSION}{more}"
    return f"outcome {where} = {quote(first['input'])}: {first['msg']}{more}"


def _path(loc: tuple, data: object) -> str:
    """`loc` as a path into the data, without the union tags pydantic inserts after an event's
    index."""
    text, node, after_index = "", data, False
    for key in loc:
        if isinstance(key, int):
            text += f"[{key}]"
            node = node[key] if isinstance(node, list) and 0 <= key < len(node) else None
            after_index = True
            continue
        if after_index and isinstance(node, dict) and node.get("type") == key:
            after_index = False
            continue  # the tag of a discriminated union, not a field
        text += f".{key}" if text else str(key)
        node = node.get(key) if isinstance(node, dict) else None
        after_index = False
    return text or "(the outcome itself)"


@cache
def _schema() -> dict:
    schema = Outcome.model_json_schema(mode="serialization")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": f"reelforge Outcome, schema version {SCHEMA_VERSION}",
            "description": (
                "One round of a reelforge game, line or cluster, decided whole at bet time: the "
                "bet, the win in integer credits, its breakdown by source, and the spins in "
                "play order, each with the ordered events a screen shows. Symbols are "
                "[reel][row], row 0 on top, for windows and cluster grids alike."),
            **{k: v for k, v in schema.items() if k not in ("title", "description")}}


def outcome_json_schema() -> dict:
    """The JSON Schema (draft 2020-12) every stored outcome satisfies."""
    return copy.deepcopy(_schema())
