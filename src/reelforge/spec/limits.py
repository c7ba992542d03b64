"""What a game file must satisfy beyond its types: every amount fits the engine's 64-bit
integers with room to spare, and every feature ends. Pure Python on the spec (the loader
calls it; no numba).

A round's win is bounded from above by a product of the file's largest figures (a pay, a
multiplier, the bet, a spin count ...). The bound is loose but sound: it follows the kernels'
arithmetic step by step, including the sums they make before a cap is applied, so no value
a kernel adds up can pass it. Above WIN_LIMIT the file is refused, naming the key whose value
weighs most in the largest term.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from math import prod
from typing import NamedTuple

from reelforge.errors import SpecError
from reelforge.spec.wild_draws import combined_top

# Half of int64's range: a round's win, and a few sums of such wins, still fit.
WIN_LIMIT = 2**62
# The line engine's spin guard lives here (engine.model.SPIN_GUARD reads it), so the loader
# can refuse a max_total_spins above it without importing engine code. The tumble guard is
# copied (spec/ imports no numba); a test checks it equals engine.clusters.TUMBLE_GUARD.
LINE_SPIN_GUARD = 100_000  # most free spins, and most trail spins, a line round plays
TUMBLE_GUARD = 1_000  # a cluster spin pays at most TUMBLE_GUARD + 1 grids
# Largest reels, rows (line games) and rows, columns (cluster games): games in print stop at
# 6 x 7 (lines) and 8 x 8 (clusters); 12 leaves room while a typo like rows = 1000 (a 5000-cell
# window, which paid a scatter RTP of 10000%) is refused.
MAX_GRID_SIDE = 12
MAX_SYMBOLS = 1_000  # symbol indices are int16 in the compiled strips and grids


class Bound(NamedTuple):
    """An upper bound and the key (with its value) that weighs most in it; key None for
    the engine's own constants."""

    value: int
    key: str | None
    key_value: object


def factor(key: str, value: int) -> Bound:
    return Bound(value, key, value)


def const(value: int) -> Bound:
    return Bound(value, None, value)


def largest(items, default: Bound) -> Bound:
    """The largest of (key, value) pairs, or `default` when there are none."""
    found = [factor(k, v) for k, v in items]
    return max(found, key=lambda b: b.value) if found else default


def product(*parts: Bound) -> Bound:
    keyed = [p for p in parts if p.key is not None] or list(parts)
    blame = max(keyed, key=lambda p: p.value)
    return Bound(prod(p.value for p in parts), blame.key, blame.key_value)


def total(*parts: Bound) -> Bound:
    blame = max(parts, key=lambda p: p.value)
    return Bound(sum(p.value for p in parts), blame.key, blame.key_value)


def smaller(a: Bound, b: Bound) -> Bound:
    return a if a.value <= b.value else b


def refuse_above_limit(source: str, bound: Bound, unit: str, denominations: tuple[int, ...]) -> None:
    """Refuse a round bound above WIN_LIMIT in credits, or in currency units once a credit
    is converted at the largest denomination (the server stores money as 64-bit integers)."""
    if bound.value > WIN_LIMIT:
        raise SpecError(source, bound.key or "<game>", bound.key_value,
                        f"too large: a round could then win up to {bound.value:.3e} {unit}, "
                        f"beyond 2**62 (the engine counts in 64-bit integers)")
    if bound.value * max(denominations) > WIN_LIMIT:
        raise SpecError(source, "bet.denominations", list(denominations),
                        f"too large: a round could then win up to {bound.value * max(denominations):.3e} "
                        "currency units at the largest denomination, beyond 2**62")


# ---------------------------------------------------------------- line games


def _stake(spec) -> Bound:
    return product(factor("bet.max_lines", spec.bet.max_lines),
                   factor("bet.max_bet_per_line", spec.bet.max_bet_per_line))


def line_win_bound(spec) -> Bound:
    """Most credits the lines of one spin pay at max bet: every line at the top pay, times
    the wilds' multiplier (a product over reels - 1 wilds where wilds multiply)."""
    bet = spec.bet
    top_pay = largest([(f"paytable.{sid}.{c}", p) for sid, pays in spec.paytable for c, p in pays]
                      + [(f"lines.mixed.{g.name}.pays.{c}", p) for g in spec.mixed for c, p in g.pays],
                      const(0))
    wild = largest([(f"lines.wild.{w.symbol}.multiplier", w.multiplier) for w in spec.wilds], const(1))
    if spec.wild_multiplier_combine == "product":  # a paying run has a non-wild: reels - 1 wilds
        wild = Bound(wild.value ** max(spec.reels - 1, 0), wild.key, wild.key_value)
    draws = spec.wild_draws
    if draws is not None:  # the drawn multipliers of up to every reel's wild, on top
        wild = product(wild, Bound(combined_top(draws.top(), draws.combine, spec.reels),
                                   "wild_multipliers", draws.top()))
    return product(top_pay, wild, factor("bet.max_lines", bet.max_lines),
                   factor("bet.max_bet_per_line", bet.max_bet_per_line))


def collect_bound(spec, *multipliers: Bound) -> Bound:
    """Most credits one spin's collection pays at max bet, times `multipliers`: r collectors
    and cells - r cash symbols make at most cells**2 / 4 value-collections, each at the top
    cash value x the stake."""
    cells = spec.reels * spec.rows
    cash = spec.cash
    cash_top = largest([(f"cash.values.{v}", v) for v, _ in cash.values] if cash else [], const(0))
    return product(const(cells * cells // 4), cash_top, *multipliers, _stake(spec))


def line_round_bound(spec) -> Bound:
    """Most credits one round of a line game (`GameSpec`) can add up at max bet, in the
    order the kernels add them: base spin, free spins, what its rules add (their spec
    part's `round_win_bound`: Cops n Robbers' trail bonus), then the cap. Jackpots are paid
    from the pool, in currency units; the seed is added per spin that can win it, so a pool
    no larger than its seed fits too."""
    line = line_win_bound(spec)
    scatter = product(total(const(0), *(
        largest([(f"scatter.{s.symbol}.pays.{c}", p) for c, p in s.pays], const(0))
        for s in spec.scatters)), _stake(spec))
    collect = const(0)
    cash = spec.cash
    if cash is not None and cash.collector is not None and any(m.collect for m in spec.modes):
        collect = collect_bound(spec)
    parts = [total(line, scatter, collect)]
    spins = const(0)
    fg = spec.free_games
    if fg is not None:
        multiplier = largest([(f"features.free_games.multiplier_weights.{m}", m)
                              for m, _ in fg.multiplier_weights], factor(
            "features.free_games.multiplier", fg.multiplier))
        if fg.retrigger == "unlimited":
            spins = Bound(LINE_SPIN_GUARD, "features.free_games.retrigger", fg.retrigger)
        elif fg.retrigger == "capped":
            spins = factor("features.free_games.max_total_spins", fg.max_total_spins)
        else:
            spins = largest([(f"features.free_games.award.{c}", n) for c, n in fg.award]
                            + [(f"modes.{m.name}.buy_spins", m.buy_spins) for m in spec.modes
                               if m.buy_spins], const(0))
        spins = smaller(spins, const(LINE_SPIN_GUARD))
        parts.append(product(spins, total(line, scatter), multiplier))  # free spins never collect
    if spec.rules is not None:
        from reelforge.spec.rules import rules_module

        parts.append(rules_module(spec.rules, "spec").round_win_bound(spec))
    if spec.jackpot is not None:
        parts.append(product(factor("features.progressive_jackpot.seed_amount",
                                    spec.jackpot.seed_amount), const(1 + spins.value)))
    return total(*parts)


def visible_counts(strip, weights, rows: int, symbol: str) -> dict[int, Fraction]:
    """P(the window of one reel shows `symbol` on k of its rows), k -> probability; the
    window is `rows` stops from a stop drawn by `weights` (None: uniform)."""
    n = len(strip)
    shown: dict[int, int] = defaultdict(int)  # stop -> rows showing the symbol
    for position, cell in enumerate(strip):
        if cell == symbol:
            for h in range(min(rows, n)):
                shown[(position - h) % n] += 1
    total_weight = n if weights is None else sum(weights)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for stop, k in shown.items():
        w = 1 if weights is None else weights[stop]
        if w:
            out[k] += Fraction(w, total_weight)
    out[0] = 1 - sum(out.values(), Fraction(0))
    return out


def expected_retrigger(spec) -> Fraction:
    """Free spins one free spin awards on average (exact), from the free reels' scatter
    counts: with unlimited retriggers a bonus ends on average only when this is below 1."""
    fg = spec.free_games
    again = dict(fg.retrigger_award)
    counting = next(s.counting for s in spec.scatters if s.symbol == fg.trigger)
    reel_set = spec.reel_set(fg.reel_set)
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for r, strip in enumerate(reel_set.strips):
        weights = None if reel_set.weights is None else reel_set.weights[r]
        per_reel = visible_counts(strip, weights, spec.rows, fg.trigger)
        if counting == "reels":
            per_reel = {0: per_reel[0], 1: 1 - per_reel[0]}
        nxt: dict[int, Fraction] = defaultdict(Fraction)
        for a, p in dist.items():
            for b, q in per_reel.items():
                if p and q:
                    nxt[a + b] += p * q
        dist = nxt
    return sum((p * again.get(c, 0) for c, p in dist.items()), Fraction(0))


def check_line_game(spec) -> None:
    """Refuse a line game whose round could overflow, or whose features need not end."""
    fg = spec.free_games
    if fg is not None and fg.retrigger == "unlimited" and fg.retrigger_award:
        growth = expected_retrigger(spec)
        if growth >= 1:
            raise SpecError(spec.source, "features.free_games.retrigger", fg.retrigger,
                            f"the free reels ({fg.reel_set}) award {float(growth):.4f} spins per "
                            "free spin on average, so a bonus never ends on average; use "
                            "retrigger = 'capped' with max_total_spins, or rarer triggers")
    bound = line_round_bound(spec)
    if spec.gamble is not None:
        # the card gamble is offered below limit_credits and doubles: it can pay up to twice that
        bound = max(bound, product(const(2), factor("features.gamble.limit_credits",
                                                    spec.gamble.limit_credits)),
                    key=lambda b: b.value)
    refuse_above_limit(spec.source, bound, "credits at max bet", spec.bet.denominations)


# ---------------------------------------------------------------- cluster games


def cascade_bound(spec, multiplier: Bound) -> Bound:
    """Most coins one cluster spin (`ClusterGameSpec`) pays at a coin value of 1, before any
    cap, as `engine.clusters.cascade` adds it up: at most TUMBLE_GUARD + 1 paying grids; in
    each, at most one winning cluster per non-wild cell, each paying the top pay times the
    sum of the wild multipliers in it (at most one wild per cell), all times the random
    `multiplier`."""
    cells = spec.rows * spec.cols
    top_pay = largest([(f"clusters.pays.{sid}.{n}", p) for sid, steps in spec.pays for n, p in steps],
                      const(0))
    wild = largest([(f"symbols.{sid}.multiplier", m) for sid, m in spec.wild_multipliers], const(0))
    in_cluster = Bound(max(1, wild.value * cells), wild.key, wild.key_value)
    return product(const(TUMBLE_GUARD + 1), const(cells), top_pay, in_cluster, multiplier)


def random_multiplier_top(spec) -> Bound:
    return largest([(f"random_multiplier.{name}.values", max(values))
                    for name, values, _w in spec.random_multipliers], const(1))


def cluster_round_bound(spec, rules_bound: Bound | None = None) -> Bound:
    """Credits at max bet that bound both what a cluster round adds up before its cap (a
    plain game's one spin, or `rules_bound`, in coins, from the game's rules module) and the
    cap itself: the kernels hold both in 64-bit integers."""
    coin = factor("bet.max_coin_value", spec.bet.max_bet_per_line)
    coins = factor("bet.coins", spec.bet.max_lines)
    parts = [rules_bound or cascade_bound(spec, random_multiplier_top(spec))]
    if spec.max_win_x:
        parts.append(product(factor("bet.max_win_x", spec.max_win_x), coins))
    return product(total(*parts), coin)


def check_cluster_game(spec, rules_bound: Bound | None = None) -> None:
    """Refuse a cluster game whose round or cap could overflow (`cluster_round_bound`)."""
    refuse_above_limit(spec.source, cluster_round_bound(spec, rules_bound), "credits at max bet",
                       spec.bet.denominations)
