"""The one small exception tree: every message names the bad value and where it came from."""


class ReelforgeError(Exception):
    """Base of every error reelforge raises on purpose."""


class SpecError(ReelforgeError):
    """A game definition is malformed: the message names file, key and value."""

    def __init__(self, source: str, key: str, value: object, problem: str):
        self.source, self.key, self.value, self.problem = source, key, value, problem
        super().__init__(f"{source}: {key} = {value!r}: {problem}")


class UnknownGame(ReelforgeError):
    """A game id is neither shipped nor a path to a game file."""


class InvalidBet(ReelforgeError):
    """A bet outside the game's bet structure."""


class InvalidAction(ReelforgeError):
    """A player action that the current state does not allow (out of order, not offered)."""


class UnboundedFeature(ReelforgeError):
    """A feature's expected length is infinite (retriggers add a spin or more per spin)."""


class InvalidArgument(ReelforgeError):
    """A command or API argument out of its range: the message names it and its value."""
