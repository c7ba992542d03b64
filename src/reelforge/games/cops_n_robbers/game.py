"""What the line family's `Game` asks of the "cops_trail" rules: compile the trail bonus into
`TrailModel`, play one round, simulate rounds, play the chase alone (the bonus wheel's prize),
decode the rows its kernel writes.

Loaded by name (`spec.rules.rules_module("cops_trail", "game")`), so the engine never imports
this package. It signs `engine.rules_protocol.ReelRules` and declares what it adds: the chase
played alone (BONUS: `bonus_starts`, `play_bonus`), and a trail the analysis reads from
`game.rules_model` by its field names (TRAIL: `analysis.trail.TRAIL_FIELDS`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from reelforge.engine.capabilities import BONUS, TRAIL
from reelforge.engine.common import UNBOUNDED
from reelforge.engine.game_parts import live_stats
from reelforge.engine.outcome import Bonus, Parade, Trail
from reelforge.engine.tape import TapeKind
from reelforge.games.cops_n_robbers import kernel as k

CAPABILITIES = frozenset({BONUS, TRAIL})

class TrailModel(NamedTuple):
    """The trail bonus as the kernels read it. Symbols and reel sets are indices as in the
    line `Model`; positions 0 .. length-1."""

    trigger: int  # index into Model.scatter_symbol of the scatter that starts the chase
    start_multiplier: np.ndarray  # (max_count+1,) int64 by trigger count, 0: no chase
    reel_set: int  # the chase's reels
    robber: int  # symbol: the [cash] collector, who moves the robber
    cop: int  # symbol that moves the cop
    robber_start: int
    cop_start: int
    multiplier: np.ndarray  # (length,) int64 multiplier at each position
    next_higher: np.ndarray  # (length,) int64 next position with a higher multiplier, -1 none
    parade_cum: np.ndarray  # (3,) int64 cumulative weights of bert, sid, vic
    pushback: int  # positions Sid pushes the cop back


def compile(spec, model) -> TrailModel:
    """The TrailModel of a spec whose features are the trail (`spec.TrailSpec`); `model` is
    its compiled line Model (the scatter counts' range)."""
    trail = spec.features
    ids = list(spec.symbol_ids)
    mult = np.ones(trail.length, dtype=np.int64)
    for position, m in sorted(trail.multipliers):
        mult[position:] = m
    next_higher = np.full(trail.length, -1, dtype=np.int64)
    for position in range(trail.length):
        ahead = [p for p, m in trail.multipliers if p > position and m > mult[position]]
        next_higher[position] = min(ahead) if ahead else -1
    start = np.zeros(model.scatter_pay.shape[1], dtype=np.int64)
    for count, m in trail.start_multiplier:
        start[count] = m
    return TrailModel(
        trigger=[s.symbol for s in spec.scatters].index(trail.trigger), start_multiplier=start,
        reel_set=[rs.name for rs in spec.reel_sets].index(trail.reel_set),
        robber=ids.index(trail.robber), cop=ids.index(trail.cop),
        robber_start=trail.robber_start, cop_start=trail.cop_start, multiplier=mult,
        next_higher=next_higher,
        parade_cum=np.cumsum([w for _, w in trail.parade]).astype(np.int64),
        pushback=trail.sid_pushback)


def play(game, model, bet, eligible: bool, bits, stops, window, tape, record: bool):
    """One paid round: an `engine.lines.RoundResult`."""
    return k.play_rounds(model, game.rules_model, bet.lines, bet.bet_per_line, eligible, bits, 1,
                         record, *live_stats(), stops, window, tape)


def simulate(game, model, bet, eligible: bool, bits, rounds: int, edges, counters, bands, squares,
             stops, window, tape) -> None:
    """`rounds` rounds added to the statistics arrays of `engine.lines.play_rounds`."""
    k.play_rounds(model, game.rules_model, bet.lines, bet.bet_per_line, eligible, bits, rounds,
                  False, edges, counters, bands, squares, stops, window, tape)


def bonus_starts(game) -> tuple[int, ...]:
    """The starting multipliers a chase can have (Big, Super, Mega Big Money: 1, 2, 3)."""
    return tuple(sorted({int(x) for x in game.rules_model.start_multiplier if x > 0}))


def play_bonus(game, model, bet, start: int, bits, stops, window, tape, record: bool):
    """The chase alone at a starting multiplier in `bonus_starts`: the `RoundResult` of
    `play`, only its bonus parts set."""
    return k.play_bonus_kernel(model, game.rules_model, start, bet.lines, bet.bet_per_line, bits,
                               stops, window, tape, record)


def max_round_win(game, model, bet) -> int:
    """The chase can last any number of spins, each of which can collect: only the round's
    cap (credits at this bet) bounds it; UNBOUNDED without one."""
    return int(model.cap) if model.cap > 0 else UNBOUNDED


def decode_row(game, row: list[int]):
    """The typed Outcome event of one of the rows these rules' kernel writes (the chase)."""
    kind = row[0]
    if kind == TapeKind.TRAIL:
        return Trail(robber=row[2], cop=row[3], robbers=row[4], cops=row[5])
    if kind == TapeKind.PARADE:
        return Parade(result=("bert", "sid", "vic")[row[2]], robber=row[3], cop=row[4])
    if kind == TapeKind.BONUS:
        return Bonus(trigger_count=row[2], start_multiplier=row[3])
    raise ValueError(f"unknown tape row kind {kind}")
