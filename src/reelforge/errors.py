"""The one small exception tree: every message names the bad value and where it came from."""


class ReelforgeError(Exception):
    """Base of every error reelforge raises on purpose."""


# Longest key or value an error line quotes: data can be huge (a 10**6-stop weights list
# once made a 3 MB "line"), and a message is read by people and logs.
QUOTE_LIMIT = 80
PROBLEM_LIMIT = 240


def shorten(text: str, limit: int = QUOTE_LIMIT, size: str | None = None) -> str:
    """`text` on one line (control characters escaped, as repr does) and at most about
    `limit` characters: a longer one keeps its start, then an ellipsis and its size."""
    if not text.isprintable():
        text = repr(text)[1:-1]
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({size or f'{len(text):,} characters'})"


def quote(value: object) -> str:
    """repr(value), shortened; a long container's size is given in items."""
    size = f"{len(value):,} items" if isinstance(value, (list, tuple, dict, set, frozenset)) else None
    return shorten(repr(value), QUOTE_LIMIT, size)


class SpecError(ReelforgeError):
    """A game definition is malformed: the message names file, key and value."""

    def __init__(self, source: str, key: str, value: object, problem: str):
        self.source, self.key, self.value, self.problem = source, key, value, problem
        super().__init__(f"{shorten(str(source), PROBLEM_LIMIT)}: {shorten(str(key))} = "
                         f"{quote(value)}: {shorten(problem, PROBLEM_LIMIT)}")


class UnknownGame(ReelforgeError):
    """A game id is neither shipped nor a path to a game file."""


class InvalidBet(ReelforgeError):
    """A bet outside the game's bet structure."""


class InvalidOutcome(ReelforgeError):
    """A stored outcome that does not satisfy the Outcome schema: the message names the field."""


class InvalidAction(ReelforgeError):
    """A player action that the current state does not allow (out of order, not offered)."""


class UnboundedFeature(ReelforgeError):
    """A feature's expected length is infinite (retriggers add a spin or more per spin)."""


class InvalidArgument(ReelforgeError):
    """A command or API argument out of its range: the message names it and its value."""
