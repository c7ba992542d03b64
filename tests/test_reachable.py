"""Every outcome is possible on every draw (standards.md A6, GLI-19 3.2.5): in every shipped
game file, every stop of every reel of every reel set and every entry of every weight table the
game draws from has a positive weight, so each can land. With `draw_below` exactly uniform
(tests/test_rng.py) and the reels drawn independently, every combination of stops then has a
positive probability.

The tables are read from the compiled models, the arrays the kernels really draw from, not
from the files: a weight the loader dropped is no outcome; a weight it kept must be reachable.
"""

from __future__ import annotations

import numpy as np
import pytest

from reelforge.games import make, shipped_games


def weights_of(cumulative: np.ndarray) -> list[int]:
    """The integer weights behind a cumulative table, by plain subtraction."""
    values = [int(v) for v in cumulative]
    return [b - a for a, b in zip([0, *values], values)]


def draw_tables(game) -> dict[str, list[int]]:
    """Every weighted draw of `game`: a name -> the weights of its outcomes (each stop, value
    or multiplier one entry). Symbol-per-column tables are apart (`symbol_tables`): a symbol
    the file leaves out of a column has weight 0 there and is no outcome of that column."""
    tables: dict[str, list[int]] = {}
    m = game.model
    if hasattr(m, "cum_weights"):  # line games: per reel set and reel, stops by weight
        for k in range(m.strips.shape[0]):
            for r in range(m.n_reels):
                n = int(m.strip_len[k, r])
                tables[f"reel set {k} reel {r + 1}: stops"] = (
                    weights_of(m.cum_weights[k, r, :n]) if m.weighted[k] else [1] * n)
    elif hasattr(m, "strip_len"):  # cluster and ways games: strips of uniform stops
        lengths = np.atleast_2d(m.strip_len)
        for k in range(lengths.shape[0]):
            if getattr(m, "from_weights", np.zeros(lengths.shape[0], bool))[k]:
                continue  # a set drawn from symbol weights: symbol_tables
            for c in range(lengths.shape[1]):
                tables[f"reel set {k} reel {c + 1}: stops"] = [1] * int(lengths[k, c])
    for name in ("fg_multiplier_cum", "cash_cum", "value_cum"):
        if hasattr(m, name):
            tables[name] = weights_of(getattr(m, name))
    if hasattr(m, "ways"):  # hold and win: the ways spin's strips
        for r in range(m.ways.n_reels):
            tables[f"ways reel {r + 1}: stops"] = [1] * int(m.ways.strip_len[r])
    if hasattr(game, "mult"):  # cluster games' random multiplier
        tables["random multiplier"] = weights_of(game.mult[1])
    if game.spec.rules is not None:
        rm = game.rules_model
        for name in rm._fields:
            table = getattr(rm, name)
            if name.endswith("_cum") and isinstance(table, np.ndarray):
                tables[f"rules {name}"] = weights_of(table)
    return tables


def symbol_tables(game) -> dict[str, list[int]]:
    """Per reel set and column, the symbol weights of a grid drawn cell by cell."""
    m = game.model
    if not hasattr(m, "weights_cum"):
        return {}
    drawn = getattr(m, "from_weights", np.ones(m.weights_cum.shape[0], bool))
    return {f"reel set {k} column {c + 1}": weights_of(m.weights_cum[k, c])
            for k in range(m.weights_cum.shape[0]) if drawn[k]
            for c in range(m.weights_cum.shape[1])}


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_every_stop_and_table_entry_of_every_shipped_game_can_be_drawn(game_id):
    game = make(game_id)
    tables = draw_tables(game)
    symbols = symbol_tables(game)
    assert tables or symbols, f"{game_id}: no draw found (a family this test does not read)"
    for name, weights in tables.items():
        assert weights, f"{game_id} {name}: an empty table"
        dead = [i for i, w in enumerate(weights) if w <= 0]
        assert not dead, f"{game_id} {name}: entries {dead} have weight 0 and can never land"
    for name, weights in symbols.items():
        assert sum(weights) > 0, f"{game_id} {name}: no symbol can land"
        assert min(weights) >= 0, f"{game_id} {name}: a negative weight"
    grid_drawn = [name for name in tables if name.endswith(": stops")] or list(symbols)
    assert grid_drawn, f"{game_id}: no reel or grid draw found"


def test_a_stop_of_weight_zero_is_found():
    """The check above is not vacuous: a table with a zero entry is named."""
    cum = np.array([3, 3, 7])  # the middle stop has weight 0
    assert weights_of(cum) == [3, 0, 4]
    assert [i for i, w in enumerate(weights_of(cum)) if w <= 0] == [1]
