"""Every bounded range the shipped games draw from, read from their compiled models.

A round's randomness is only ever `draw_below(rng, n)` (engine/rng.py); what varies is n. This
module lists every n a shipped game can pass, each with the game, the key of the game file or
model it comes from, and the code that makes the draw, so the battery (rng_battery.py) tests
the scaled output the games really use:

- line games (engine/lines.py `draw_stop`): per reel set and reel, the strip length (uniform
  stops) or the total of the stop weights (weighted stops); the free-game multiplier weights
  and the cash-value weights (`draw_weighted`) where the file has them;
- cluster games (engine/clusters.py `draw_grid`, `draw_weighted`): per refill set and column,
  the strip length or the total of the symbol weights; the random multiplier's weights;
- a rules model's integer weight tables (every `*_cum` array of the NamedTuple: the ID parade,
  Candy Jar's multipliers, wild counts and symbols, extra spins at start), and Candy Jar's
  wild placement (a partial Fisher-Yates shuffle of the grid's cells: n - i for i < the most
  wilds placed);
- the choice steps: the red/black card (2), the wheel gamble's exact cash draws (each target's
  numerator), its rounded or capped targets (any integer up to the gamble limit: a stated
  sample, below), the bonus wheel's digit base (2**32 - 1), and Spin Chance (the price of a
  round, for every bet option in every mode).

Ranges of 1 are no draw at all (draw_below(1) is always 0) and are left out, and said so.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from reelforge.engine.capabilities import GRID_DRAWS, HOLDWIN_DRAWS, LINE_DRAWS, WILD_PLACEMENT

# the labels of rules-model weight tables, by field name; a field missing here is shown by name
RULES_TABLES = {
    "parade_cum": "[features.trail_bonus.parade] weights (bert, sid, vic)",
    "base_mult_cum": "[random_multiplier.base] weights",
    "free_mult_cum": "[random_multiplier.free] weights",
    "super_mult_cum": "[random_multiplier.super] weights",
    "wild_count_cum": "[features.wild] wild-count weights",
    "wild_symbol_cum": "[features.wild] wild-symbol weights",
    "extra_start_cum": "[features.free_spins] extra-at-start weights",
}
# rules tables drawn even when they hold one entry (candy kernel: draw_weighted unguarded)
ALWAYS_DRAWN = ("wild_count_cum", "wild_symbol_cum", "extra_start_cum", "parade_cum")


@dataclass(frozen=True)
class DrawSource:
    """Where one bounded draw comes from: the game, the key in its file or model, the code."""

    game_id: str
    key: str
    code: str


@dataclass(frozen=True)
class DrawRange:
    """One n the games pass to draw_below, with every place it comes from."""

    n: int
    sources: tuple[DrawSource, ...]

    def to_dict(self) -> dict:
        return {"n": self.n, "sources": [vars(s) for s in self.sources]}


def game_draws(game) -> list[tuple[int, DrawSource]]:
    """(n, source) for every bounded draw `game` can make, in its file's order."""
    found: list[tuple[int, DrawSource]] = []

    def add(n, key: str, code: str) -> None:
        found.append((int(n), DrawSource(game.id, key, code)))

    # how its grid is drawn, as the game declares it (the Game protocol names no family here)
    for capability, draws in GRID_DRAWERS.items():
        if capability in game.capabilities:
            draws(game, add)
    _rules_draws(game, add)
    _choice_draws(game, add)
    return found


def _line_draws(game, add) -> None:
    m, spec = game.model, game.spec
    for k, rs in enumerate(spec.reel_sets):
        for r in range(m.n_reels):
            n = int(m.strip_len[k, r])
            if m.weighted[k]:
                add(m.cum_weights[k, r, n - 1], f"[reels.{rs.name}] reel {r + 1}: stop weight total",
                    "engine/lines.py draw_stop")
            else:
                add(n, f"[reels.{rs.name}] reel {r + 1}: strip length", "engine/lines.py draw_stop")
    if m.fg_multipliers.shape[0] > 1:
        add(m.fg_multiplier_cum[-1], "[features.free_games] multiplier weights",
            "engine/lines.py draw_free_multiplier")
    if spec.cash is not None:
        add(m.cash_cum[-1], "[cash] value weights", "engine/lines.py read_cash")
    for k, rs in enumerate(spec.reel_sets):
        n = int(m.wild_draw_count[k])
        if n:
            add(m.wild_draw_cum[k, n - 1], f"[wild_multipliers.{rs.name}] weights",
                "engine/lines.py draw_wild_multipliers")


def _cluster_draws(game, add) -> None:
    m = game.model
    names = game.set_names()
    for k in range(m.from_weights.shape[0]):
        for c in range(m.n_cols):
            if m.from_weights[k]:
                add(m.weights_cum[k, c, -1], f"refill set {names[k]} column {c + 1}: symbol weight "
                    "total", "engine/clusters.py draw_cell")
            else:
                add(m.strip_len[k, c], f"refill set {names[k]} column {c + 1}: strip length",
                    "engine/clusters.py draw_grid")
    _values, cum = game.mult
    if cum.shape[0] > 1:
        add(cum[-1], "[random_multiplier.base] weights", "engine/clusters.py cascade")


def _rules_draws(game, add) -> None:
    if game.spec.rules is None:
        return
    rm = game.rules_model  # a NamedTuple of arrays

    for name in rm._fields:
        table = getattr(rm, name)
        if not name.endswith("_cum") or not isinstance(table, np.ndarray):
            continue
        if table.shape[0] > 1 or name in ALWAYS_DRAWN:
            add(table[-1], RULES_TABLES.get(name, f"rules model {name}"),
                f"rules {game.spec.rules}: draw_weighted / draw_below")
    if WILD_PLACEMENT in game.capabilities:  # Candy Jar's wild placement: a partial shuffle
        cells = game.model.n_rows * game.model.n_cols
        for i in range(int(np.max(rm.wild_count_values))):
            add(cells - i, f"[features.wild] placement: cell {i + 1} of the shuffle "
                f"({cells} - {i} cells left)", "games/candy_jar_clusters/kernel.py place_wilds")


def _holdwin_draws(game, add) -> None:
    m = game.model
    for r in range(m.ways.n_reels):
        add(m.ways.strip_len[r], f"[reels.base] reel {r + 1}: strip length",
            "engine/ways.py draw_ways_window")
    add(m.value_cum[-1], "[hold.values] and [hold.jackpots] weight total",
        "engine/holdwin.py draw_value")
    add(m.odds_d, "[hold] respin_prize_odds: d", "engine/holdwin.py play_holdwin_round")


# capability -> the draws of how the grid is drawn
GRID_DRAWERS = {LINE_DRAWS: _line_draws, GRID_DRAWS: _cluster_draws, HOLDWIN_DRAWS: _holdwin_draws}


def _choice_draws(game, add) -> None:
    for step in game.choice_steps:  # each step names its own bounded draws
        for n, key, code in step.draws(game):
            add(n, key, code)


def inventory(game_ids) -> tuple[list[DrawRange], list[DrawSource]]:
    """(every distinct n >= 2 with its sources, ascending; the sources of n = 1, no draw)."""
    from reelforge.games import make

    by_n: dict[int, list[DrawSource]] = defaultdict(list)
    for game_id in game_ids:
        for n, source in game_draws(make(game_id)):
            by_n[n].append(source)
    ranges = [DrawRange(n, tuple(by_n[n])) for n in sorted(by_n) if n >= 2]
    return ranges, list(by_n.get(1, ()))
