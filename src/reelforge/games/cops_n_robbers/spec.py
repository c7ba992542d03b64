"""Cops n Robbers' trail bonus as the game file states it: `[features.trail_bonus]` parsed into
`TrailSpec`, and the bound on what the chase adds to a round's win. What the line loader
needs (`spec.rules.rules_module("cops_trail", "spec")`).

Plain Python: reading a game file loads neither numba nor the engine. `game.py` compiles the
parsed table for the kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

from reelforge.errors import SpecError
from reelforge.spec.limits import (
    LINE_SPIN_GUARD,
    Bound,
    collect_bound,
    const,
    factor,
    largest,
    line_win_bound,
    product,
    smaller,
    total,
    visible_counts,
)
from reelforge.spec.load import Table, _counts, _symbol

FAMILY = "lines"  # a line game's rules: the line loader refuses them in any other family
FEATURES = ("trail_bonus",)  # the [features] tables these rules read
PARADE = ("bert", "sid", "vic")


@dataclass(frozen=True)
class TrailSpec:
    """A chase bonus: collectors move a robber up a trail of multipliers, cops chase him."""

    trigger: str  # scatter symbol counted to start the bonus
    start_multiplier: tuple[tuple[int, int], ...]  # (trigger count, starting multiplier)
    reel_set: str
    robber: str
    cop: str
    length: int  # positions 0 .. length-1; the robber stops at the last
    robber_start: int
    cop_start: int
    multipliers: tuple[tuple[int, int], ...]  # (position, multiplier from there on)
    parade: tuple[tuple[str, int], ...]  # (bert|sid|vic, weight)
    sid_pushback: int


def parse_features(features: Table, spec) -> TrailSpec:
    """`[features.trail_bonus]` of a line game `spec` (built without its features)."""
    if spec.family != FAMILY:
        raise SpecError(spec.source, "game.rules", "cops_trail", "rules of a line game")
    table = features.sub("trail_bonus")
    ids = set(spec.symbol_ids)
    set_names = [rs.name for rs in spec.reel_sets]
    trigger = _symbol(table, "trigger", ids)
    if trigger not in {s.symbol for s in spec.scatters}:
        raise table.fail("trigger", trigger, "needs a [scatter] entry for that symbol")
    start = _counts(table, "start_multiplier", spec.reels * spec.rows)
    reel_set = table.get("reel_set", str)
    if reel_set not in set_names:
        raise table.fail("reel_set", reel_set, f"unknown reel set; defined: {', '.join(set_names)}")
    length = table.int("length", low=2)
    multipliers = _counts(table, "multipliers", 10_000)
    for position, mult in multipliers:
        if position >= length or mult < 1:
            raise table.fail(f"multipliers.{position}", mult, f"position must be < length {length}, multiplier >= 1")
    robber_start = table.int("robber_start", 1, low=1)
    cop_start = table.int("cop_start", 0)
    if not cop_start < robber_start < length:
        raise table.fail("robber_start", robber_start, f"need cop_start ({cop_start}) < robber_start < length")
    parade_table = table.sub("parade")
    parade = tuple((who, parade_table.int(who)) for who in PARADE)
    parade_table.finish(PARADE, "ID parade character")
    if parade[0][1] == 0 or sum(w for _, w in parade) >= 2**32:
        raise table.fail("parade", dict(parade), "bert needs a weight > 0 so the bonus ends; sum < 2**32")
    trail = TrailSpec(trigger, start, reel_set, _symbol(table, "robber", ids), _symbol(table, "cop", ids),
                      length, robber_start, cop_start, multipliers, parade,
                      table.int("sid_pushback", 2, low=1))
    table.finish()
    cash = spec.cash
    if cash is None or cash.collector != trail.robber:
        raise features.fail("trail_bonus", trail.robber, "the robber must be the [cash] collector")
    # the engine's cash collection knows collectors and values only: a cop is neither
    if trail.cop == trail.robber or trail.cop in cash.symbols:
        raise table.fail("cop", trail.cop, "must be neither the robber nor a [cash] symbol")
    reels = spec.reel_set(reel_set)
    if all(visible_counts(s, None if reels.weights is None else reels.weights[r], spec.rows,
                          trail.cop)[0] == 1 for r, s in enumerate(reels.strips)):
        raise table.fail("reel_set", reel_set, f"its reels never show the cop {trail.cop}, so the "
                         "chase never ends")
    return trail


def round_win_bound(spec) -> Bound:
    """Most credits at max bet the chase adds to a round, as the kernel adds them: at most
    LINE_SPIN_GUARD spins, each paying its lines and every collector collecting every cash
    value in view at the top trail and starting multipliers (a trail spin's scatters pay
    nothing); a cap stops the chase once reached, one spin's win past it at most."""
    trail = spec.features
    bet = spec.bet
    gained = collect_bound(spec,
                           largest([(f"features.trail_bonus.multipliers.{p}", m) for p, m in trail.multipliers],
                                   const(1)),
                           largest([(f"features.trail_bonus.start_multiplier.{c}", m)
                                    for c, m in trail.start_multiplier], const(1)))
    trail_spin = total(line_win_bound(spec), gained)
    chase = product(const(LINE_SPIN_GUARD), trail_spin)
    if bet.max_win_minor:
        cap = factor("bet.max_win_minor", bet.max_win_minor // min(bet.denominations))
        chase = smaller(chase, total(cap, trail_spin))
    return chase
