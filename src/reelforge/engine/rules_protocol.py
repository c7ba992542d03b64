"""The contracts a rules module's game part signs (`[game] rules`, `spec.rules`): `ReelRules`
for reel games (the line family), `GridRules` for grid games (the cluster family).

A rules package's `game` module satisfies one of them structurally (a module can satisfy a
`typing.Protocol`). What only some rules have is declared, not probed: the module names it in
`CAPABILITIES` (`BONUS`: it plays its bonus alone; the analysis capabilities of
`analysis.capabilities`), and a declared part's functions are then part of its contract.
`check_rules` refuses, at load, a module that misses a member it owes, naming it. Their `bits`
is the round's bit generator, what kernels draw from (engine/rng.py says why not a Generator).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

import numpy as np

from reelforge.errors import SpecError

BONUS = "bonus"  # the rules play their bonus alone (`ReelBonus`): the prize of a gamble


class ReelRules(Protocol):
    """A reel game's rules: the generic line round and what they add (games/cops_n_robbers)."""

    CAPABILITIES: frozenset[str]

    def compile(self, spec: Any, model: Any) -> Any: ...
    def play(self, game: Any, model: Any, bet: Any, eligible: bool, bits: np.random.BitGenerator,
             stops: np.ndarray, window: np.ndarray, tape: np.ndarray, record: bool) -> Any: ...
    def simulate(self, game: Any, model: Any, bet: Any, eligible: bool,
                 bits: np.random.BitGenerator, rounds: int, edges: np.ndarray,
                 counters: np.ndarray, bands: np.ndarray, squares: np.ndarray,
                 stops: np.ndarray, window: np.ndarray, tape: np.ndarray) -> None: ...
    def max_round_win(self, game: Any, model: Any, bet: Any) -> int: ...
    def decode_row(self, game: Any, row: list[int]) -> Any: ...


class ReelBonus(Protocol):
    """The part of `ReelRules` a module declaring BONUS owes."""

    def bonus_starts(self, game: Any) -> tuple[int, ...]: ...
    def play_bonus(self, game: Any, model: Any, bet: Any, start: int, bits: np.random.BitGenerator,
                   stops: np.ndarray, window: np.ndarray, tape: np.ndarray, record: bool) -> Any: ...


class GridStrata(Protocol):
    """What `analysis.stratified` samples a grid game by (engine/cluster_strata.py for a game
    without rules)."""

    def feature_classes(self, game: Any) -> dict[int, str]: ...
    def initial_trigger_probabilities(self, game: Any) -> dict[int, float]: ...
    def base_stratum(self, game: Any, bits: np.random.BitGenerator, spins: int, threshold: int,
                     big: int) -> dict: ...
    def base_multiplier(self, game: Any) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
    def feature_stratum(self, game: Any, mask: int, bits: np.random.BitGenerator, rounds: int,
                        near: int, big: int) -> dict: ...


class GridRules(GridStrata, Protocol):
    """A grid game's rules: its own round over the cluster kernels (games/candy_jar_clusters)."""

    CAPABILITIES: frozenset[str]

    def compile(self, spec: Any) -> tuple[Any, Any]: ...
    def info(self, spec: Any) -> dict: ...
    def set_names(self, spec: Any) -> list[str]: ...
    def buffers(self, game: Any) -> Any: ...
    def play(self, game: Any, bits: np.random.BitGenerator, work: Any) -> Any: ...
    def simulate(self, game: Any, bits: np.random.BitGenerator, rounds: int, edges: np.ndarray,
                 counters: np.ndarray, bands: np.ndarray, squares: np.ndarray, work: Any) -> None: ...
    def decode_row(self, game: Any, row: np.ndarray, scale: int) -> Any: ...


# The members each contract and each declarable part asks for, by name (a Protocol's own
# annotations and functions).
def _members(*protocols: type) -> tuple[str, ...]:
    names: list[str] = []
    for proto in protocols:
        for klass in proto.__mro__:
            if klass.__module__ != __name__:  # typing's Protocol, Generic, object
                continue
            names += [n for n in (*vars(klass).get("__annotations__", {}), *vars(klass))
                      if not n.startswith("_") and n not in names]
    return tuple(names)


CONTRACTS: dict[str, tuple[str, ...]] = {"lines": _members(ReelRules),
                                         "clusters": _members(GridRules)}
PARTS: dict[str, tuple[str, ...]] = {BONUS: _members(ReelBonus)}


def check_rules(name: str, family: str, module: ModuleType) -> ModuleType:
    """`module`, once it has every member its family's contract and its declared parts ask
    for; else SpecError naming the first it lacks."""
    own = vars(module)
    declared = own.get("CAPABILITIES")
    if not isinstance(declared, frozenset):
        raise SpecError(module.__name__, "CAPABILITIES", declared,
                        f"rules {name!r}: must declare its capabilities as a frozenset")
    owed = CONTRACTS[family] + tuple(m for part in sorted(declared & PARTS.keys())
                                     for m in PARTS[part])
    for member in owed:
        if member not in own:
            raise SpecError(module.__name__, member, None,
                            f"rules {name!r}: the {family} rules contract asks for {member}")
    return module
