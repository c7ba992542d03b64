"""The registry of rules modules: mechanics a generic engine cannot express, named by a game
file's `[game] rules` and implemented by a game's own package.

Each package has two parts, imported by name so that no layer imports a layer above it:
`spec` (parse the file's [features] and bound a round's win: plain Python, no numba) for the
loader, and `game` (compile, play, simulate, decode the tape) for the engine's family classes;
optionally `choices` (`choice_steps(game)`: the offers after a round that the rules add, such
as a gamble whose prize is the rules' bonus), which the family classes load where it exists,
and `facts` (`facts(spec)`: what the rules add to the facts a game's information pages name,
`spec.facts`).
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

RULES_PACKAGES = {
    "candy_jar": "reelforge.games.candy_jar_clusters",
    "cops_trail": "reelforge.games.cops_n_robbers",
}
PARTS = ("spec", "game", "choices", "facts")


def rules_module(name: str, part: str) -> ModuleType:
    """The `part` module of the rules registered as `name` (the loader has checked the name)."""
    if name not in RULES_PACKAGES or part not in PARTS:
        raise KeyError(f"rules {name!r} part {part!r}: not registered")
    return importlib.import_module(f"{RULES_PACKAGES[name]}.{part}")


def optional_rules_module(name: str, part: str) -> ModuleType | None:
    """`rules_module`, or None where the package has no such part (`choices` and `facts` are
    optional)."""
    if name not in RULES_PACKAGES or part not in PARTS:
        raise KeyError(f"rules {name!r} part {part!r}: not registered")
    if importlib.util.find_spec(f"{RULES_PACKAGES[name]}.{part}") is None:
        return None
    return rules_module(name, part)
