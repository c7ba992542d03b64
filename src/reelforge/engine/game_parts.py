"""What the family classes' play, simulate, info and check share beyond `CommonGame`.

`CommonGame` (engine/common.py) holds the `Game` protocol's bet structure, offers and
figures; these are the pieces each family's own methods are made of: the buffers a simulation
kernel fills and what it returns, an Outcome's identity fields, and for the ways-based
families (ways, hold-and-win) their window, ways wins and info. Plain Python, no kernels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from reelforge.engine.counters import SIM_FIELDS, Sim
from reelforge.engine.outcome import SCHEMA_VERSION, Bet, BetRecord, Outcome, WaysWin
from reelforge.engine.tape import TAPE_WIDTH, TapeKind

# -- simulate --------------------------------------------------------------------------------


def sim_buffers(band_edges_x: Iterable, unit: int) -> tuple[np.ndarray, ...]:
    """(edges, counters, bands, squares) for a simulation kernel: the win-band edges in the
    kernel's unit (`unit` per multiple of the stake), the (len(Sim),) int64 counters, the band
    counts and the two uint64 halves of the sum of squared wins."""
    edges = np.array([x * unit for x in band_edges_x], dtype=np.int64)
    return (edges, np.zeros(len(Sim), dtype=np.int64), np.zeros(len(edges) + 1, dtype=np.int64),
            np.zeros(2, dtype=np.uint64))


def sim_result(counters: np.ndarray, bands: np.ndarray, squares: np.ndarray, scale: int = 1,
               scaled: Iterable[str] = ()) -> tuple[dict, tuple[int, ...], int]:
    """What `simulate` returns: (counters by SIM_FIELDS name, win-band counts, sum of squared
    wins); the `scaled` counters and the squares times `scale` (a kernel that counts coins at
    a coin value of 1 returns credits at a coin value of `scale`)."""
    values = {name: int(v) for name, v in zip(SIM_FIELDS, counters)}
    for name in scaled:
        values[name] *= scale
    square_sum = (int(squares[1]) << 64 | int(squares[0])) * scale * scale
    return values, tuple(int(b) for b in bands), square_sum


def live_stats() -> tuple[np.ndarray, ...]:
    """`sim_buffers` for one live round played by a simulation kernel (`lines.play_rounds`):
    live play and simulation share one compiled kernel; the round's statistics are dropped."""
    return sim_buffers((), 1)


def reel_buffers(m: Any, tape_rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(stops, window, tape) a reel kernel fills: (n_reels,) int64 stops, the (n_reels,
    n_rows) int16 window and a (tape_rows, TAPE_WIDTH + n_reels) int64 tape; `m` a model with
    n_reels and n_rows (a line or ways model)."""
    return (np.zeros(m.n_reels, dtype=np.int64), np.zeros((m.n_reels, m.n_rows), dtype=np.int16),
            np.zeros((tape_rows, TAPE_WIDTH + m.n_reels), dtype=np.int64))


# -- play ------------------------------------------------------------------------------------


def grow_tape(rng: np.random.Generator, rows: int,
              attempt: Callable[[int], tuple[Any, int]]) -> tuple[Any, int]:
    """A round whose tape length is known only once played: `attempt(rows)` plays it with a
    tape of `rows` rows and returns (what it played, the rows the round needs); where they do
    not fit, the round is played again on the same draws with a tape that holds them all."""
    state = rng.bit_generator.state
    while True:
        played, used = attempt(rows)
        if used <= rows:
            return played, used
        rows = used
        rng.bit_generator.state = state


def outcome_identity(game: Any, bet: Bet, seed: int | None) -> dict[str, Any]:
    """The fields that say whose round an Outcome is: schema, game and file digest, seed (64
    hex digits, None for a simulated round) and the bet with its cost."""
    spec = game.spec
    return {"schema_version": SCHEMA_VERSION, "game_id": spec.id, "game_sha256": spec.sha256,
            "seed": None if seed is None else f"{seed:064x}",
            "bet": BetRecord.of(bet, game.price(bet))}


def opening_window(rows: list, ways: Any, ids: tuple[str, ...],
                   what: str) -> tuple[tuple[int, ...], tuple[tuple[str, ...], ...]]:
    """(stops, window) of the spin row a ways-based round's tape opens with; `ways` the
    compiled ways model (strips, strip_len, n_rows), `what` the game kind for the error."""
    if rows[0][0] != TapeKind.SPIN:
        raise ValueError(f"a {what} round's tape opens with a spin row, not kind {rows[0][0]}")
    stops = tuple(rows[0][TAPE_WIDTH:])
    window = tuple(tuple(ids[ways.strips[r, (stop + h) % ways.strip_len[r]]] for h in range(ways.n_rows))
                   for r, stop in enumerate(stops))
    return stops, window


def ways_win_event(row: list, ids: tuple[str, ...]) -> WaysWin:
    """The event of a WAYS tape row: symbol, reels, ways, ways paid (wild multipliers in), win."""
    return WaysWin(symbol=ids[row[2]], count=row[3], ways=row[4], paid_ways=row[5], win=row[6])


def ways_info(base: Any, max_win_x: int, **feature: Any) -> dict[str, Any]:
    """`info()`'s family part of a ways-based game from its ways spec `base`: the window, the
    pays per way, the wilds, what `feature` adds, the strips and the round's cap."""
    return {"window": {"reels": base.reels, "rows": base.rows},
            "ways": base.rows ** base.reels,
            "pays": {"unit": "coin", "coins": base.pay_unit, "per": "way",
                     # a pay of p coins is p / pay_unit of the stake
                     "table": [{"symbol": sym, "pays": [list(p) for p in pays]}
                               for sym, pays in base.pays]},
            "wilds": [{"symbol": w.symbol, "multiplier": w.multiplier,
                       "substitutes_all_but": sorted({sid for sid, _ in base.pays}
                                                     - set(w.substitutes))}
                      for w in base.wilds],
            "wild_multiplier_combine": base.wild_combine,
            "wilds_on_first_reel": base.wilds_on_first_reel,
            **feature,
            "reel_sets": {"base": [list(strip) for strip in base.strips]},
            "base_reel_set": "base",
            "max_win_x": max_win_x}


# -- check -----------------------------------------------------------------------------------


def coin_value_rounds(game: Any, rounds: int, seed: int) -> Iterator[tuple[int, Outcome]]:
    """A fixed-coins game's check sample (`engine.check.sampled_rounds`) at the largest and the
    smallest coin value, each round's breakdown refused unless it adds up to its win."""
    from reelforge.engine.check import GameCheckFailed, sampled_rounds

    spec = game.spec
    for i, first in sampled_rounds(game, (game.max_bet, Bet(spec.bet.max_lines, 1)), rounds, seed):
        if sum(first.breakdown.values()) != first.total_win:
            raise GameCheckFailed(f"{spec.id}: round {i} breakdown does not add up")
        yield i, first
