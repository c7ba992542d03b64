"""What a fact is, and how a number or a list reads on an information page: shared by every
family's and rules package's facts and by the server, which adds the facts that are not the
game file's (RTP, maximum win, top prize)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Money:
    """An amount in the currency's minor units (the page formats it in the player's currency)."""

    minor: int


@dataclass(frozen=True)
class Percent:
    value: float


@dataclass(frozen=True)
class Times:
    """The maximum win as a multiple of the bet: the page says it as every screen of the client
    does ("240,118× the bet", web/src/core/max-win.ts), never as a numeral of its own."""

    value: float


Part = str | Money | Percent | Times
Fact = Part | tuple[Part, ...]  # a tuple: a sentence with parts the client formats


def numeral(value: float | Fraction) -> str:
    """12345 -> "12,345"; 4/3 -> "1.33"."""
    if isinstance(value, Fraction) and value.denominator == 1 or float(value).is_integer():
        return f"{int(value):,}"
    return f"{float(value):,.2f}"


def words(items: list[str], last: str = "and") -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def uniform(pairs: tuple[tuple[int, int], ...]) -> int | None:
    """The one value of (key, value) pairs, or None where they differ."""
    values = {v for _k, v in pairs}
    return values.pop() if len(values) == 1 else None
