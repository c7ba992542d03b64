"""Exact RTP of a line game, combinatorially: never by enumerating the reel-stop cycle.

Per payline, the symbols on that line's row are independent across reels, so the line's
expectation is a sum over symbol combinations (at most S**R, evaluated by the engine's own
`evaluate_line`). Scatter counts are per-reel count distributions convolved. Free games are a
Markov chain on (spins awarded, spins left); by Wald's identity their expected win is the
expected number of free spins times the expected win of one free spin.
Figures are float64 sums of non-negative terms (at most S**R per line, about 4e5 here), so
the rounding error is below n * 2**-53 relative, about 5e-11; tests compare at 1e-9.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass
from fractions import Fraction

import numpy as np

from reelforge.analysis.capabilities import exact_analyzer
from reelforge.analysis.spin import (  # noqa: F401 (row_distributions, stop_weights: re-exported)
    SpinFigures,
    row_distributions,
    scatter_count_distribution,
    spin_figures,
    stop_weights,
)
from reelforge.analysis.trail import cap_loss_bound, collect_rtp, trail_figures, trail_of
from reelforge.engine.game import LineGame
from reelforge.engine.line_exact import base_hit_probability, free_chain_moments
from reelforge.engine.outcome import Bet
from reelforge.engine.round import check_bet, jackpot_eligible
from reelforge.errors import ReelforgeError, UnboundedFeature
from reelforge.spec.model import price_value


@dataclass(frozen=True)
class ExactResult:
    """Exact figures of one game at one bet, in multiples of the total bet."""

    game_id: str
    bet: Bet
    rtp: float  # without the progressive jackpot, which the pool pays
    base_lines: float
    base_scatter: float
    free_games: float
    feature_probability: float  # P(a round triggers free games)
    mean_free_spins: float  # given a trigger
    free_spin_rtp: float  # expected win of one free spin, multiples of the total bet
    jackpot_probability: float  # expected jackpot wins per round at this bet
    free_spins_per_round: float = 0.0
    base_collect: float = 0.0  # cash collected in the base game (modes that collect)
    bonus: float = 0.0  # the trail bonus
    bonus_probability: float = 0.0
    mean_bonus_spins: float = 0.0
    price: Fraction = Fraction(1)  # a round costs price x stake; every RTP figure here is per cost
    # upper bound on what the round cap takes from `rtp` (which is uncapped); None: not computed
    cap_loss_bound: float | None = None
    base_hit_frequency: float | None = None  # P(the base spin pays), exact; None: declined
    symbols: tuple[str, ...] = ()
    base: SpinFigures | None = None
    free: SpinFigures | None = None  # at the mean free-spin multiplier (weights applied)

    def award_table(self) -> list[dict]:
        """RTP and frequency of every paid line award (symbol, count), base and free games."""
        rows = []
        assert self.base is not None  # analyze always sets it
        for s, name in enumerate(self.symbols):
            for c in range(self.base.award_rtp.shape[1]):
                base_rtp, base_rate = self.base.award_rtp[s, c], self.base.award_rate[s, c]
                free_rtp = free_rate = 0.0
                if self.free is not None:
                    free_rtp = self.free.award_rtp[s, c] * self.free_spins_per_round
                    free_rate = self.free.award_rate[s, c] * self.free_spins_per_round
                if base_rate or free_rate:
                    rows.append({"symbol": name, "count": c, "base_rtp": float(base_rtp),
                                 "free_games_rtp": float(free_rtp),
                                 "per_round": float(base_rate + free_rate)})
        return rows

    def to_dict(self) -> dict:
        data = {k: v for k, v in asdict(self).items() if k not in ("base", "free", "symbols")}
        data = {k: float(v) if isinstance(v, (float, np.floating)) else v for k, v in data.items()}
        data["price"] = price_value(self.price)
        data["bet"] = {"lines": self.bet.lines, "bet_per_line": self.bet.bet_per_line}
        data["breakdown"] = {k: data[k] for k in ("base_lines", "base_scatter", "free_games",
                                                   "base_collect", "bonus")}
        data["line_awards"] = self.award_table()
        data["scatter_rtp_by_count"] = list(self.base.scatter_rtp) if self.base else []
        data["line_hit_probability"] = list(self.base.line_hit_probability) if self.base else []
        return data


def award_names(game: LineGame) -> tuple[str, ...]:
    """Names of line awards by index: the symbols, then the mixed-pay groups (always one row
    for them, named "mixed" when the game has none, which never pays)."""
    groups = tuple(g.name for g in game.spec.mixed) or ("mixed",)
    return game.spec.symbol_ids + groups


class ChainTooLarge(ReelforgeError):
    """An exact analysis would build a Markov chain too large to solve in reasonable time."""


# Capped retriggers make a chain on (spins left, spins awarded): (cap+1)(cap+2)/2 states,
# solved in a compiled loop at a few ns per state and trigger count. 20 million states (a cap
# of about 6,300 spins) take well under a second; the work grows with the square of the cap,
# so a cap of 10**9 would take centuries: refuse instead of running without end. The one
# limit of every walk of this chain (moments, maximum, the free-spin distribution).
MAX_CHAIN_STATES = 20_000_000


def capped_chain_states(game: LineGame) -> int:
    """States of the capped free-game chain, refusing one above MAX_CHAIN_STATES."""
    cap = int(game.model.fg_max_total)
    states = (cap + 1) * (cap + 2) // 2
    if states > MAX_CHAIN_STATES:
        raise ChainTooLarge(
            f"{game.spec.source}: features.free_games.max_total_spins = {cap}: with retriggers "
            f"the exact analysis solves a chain of (cap+1)(cap+2)/2 = {states:,} states, above "
            f"its limit of {MAX_CHAIN_STATES:,} (a cap of about 6,300 spins); lower the cap")
    return states


def retrigger_awards(m, n_counts: int) -> np.ndarray:
    """(n_counts,) int64: the spins a free spin's trigger count c adds (0 where none), the
    retrigger table padded or cut to the counts a window can show."""
    again = np.zeros(n_counts, dtype=np.int64)
    n = min(n_counts, len(m.fg_retrigger_award))
    again[:n] = m.fg_retrigger_award[:n]
    return again


def refuse_never_ending(game: LineGame, growth: float) -> None:
    """Unlimited retriggers adding `growth` >= 1 spins per free spin on average: the bonus
    never ends on average, so no exact figure exists. The loader refuses such a file with the
    same words (`spec.limits.check_line_game`, exact fractions); this catches a model built
    without it and float rounding at growth = 1."""
    if growth >= 1:
        fg = game.spec.free_games
        raise UnboundedFeature(
            f"{game.spec.source}: features.free_games.retrigger = 'unlimited': the free reels "
            f"({fg.reel_set if fg else '?'}) award {growth:.4f} spins per free spin on average, "
            "so a bonus never ends on average; use retrigger = 'capped' with max_total_spins, "
            "or rarer triggers")


def capped_chain_moments(game: LineGame, probs, win: float, win_by_count, win_square: float,
                         starts) -> tuple[np.ndarray, np.ndarray]:
    """First and second moments of the free-game win from each start (spins awarded at the
    trigger, already capped), under capped retriggers: see `free_chain_moments`."""
    m = game.model
    capped_chain_states(game)
    again = retrigger_awards(m, len(probs))
    starts = np.asarray(starts, dtype=np.int64)
    cap = int(m.fg_max_total)
    ring = int(again.max(initial=0)) + 1
    buffers = np.zeros((ring, cap + 1)), np.zeros((ring, cap + 1))
    out1, out2 = np.zeros(len(starts)), np.zeros(len(starts))
    free_chain_moments(np.asarray(probs, dtype=float), float(win),
                       np.asarray(win_by_count, dtype=float), float(win_square), again, cap,
                       int(starts.min()), starts, *buffers, out1, out2)
    return out1, out2


def expected_free_spins(game: LineGame, retrigger_distribution: tuple[float, ...], initial: int) -> float:
    """E[free spins played] from an initial award, under the game's retrigger rule."""
    m = game.model
    awards = retrigger_awards(m, len(retrigger_distribution))
    again = [(p, int(a)) for p, a in zip(retrigger_distribution, awards) if a > 0 and p > 0]
    if m.fg_retrigger_mode == 2:
        initial = min(initial, m.fg_max_total)  # the cap binds the first award too
    if m.fg_retrigger_mode == 0 or not again:
        return float(initial)
    if m.fg_retrigger_mode == 1:  # unlimited: each spin adds sum(p*award) spins on average
        growth = sum(p * a for p, a in again)
        refuse_never_ending(game, growth)
        return initial / (1 - growth)
    probs = np.asarray(retrigger_distribution, dtype=float)
    # the spins played are the win of a spin that always wins 1
    spins, _ = capped_chain_moments(game, probs, 1.0, probs, 1.0, [initial])
    return float(spins[0])


def analyze(game, bet: Bet | None = None, cap_bound: bool = False) -> ExactResult:
    """Exact RTP and its breakdown at one bet (default: max bet, where the jackpot is live):
    the exact analysis the game's capabilities name (`analysis.capabilities`); InvalidArgument
    with the reason where it has none.

    `rtp` ignores the round cap; with `cap_bound`, `cap_loss_bound` bounds what the cap takes
    from it (seconds of work, so only on request), so the capped RTP lies in
    [rtp - cap_loss_bound, rtp]."""
    return exact_analyzer(game)(game, bet, cap_bound)


def analyze_lines(game: LineGame, bet: Bet | None = None, cap_bound: bool = False) -> ExactResult:
    """`analyze` of a line game (the EXACT_LINES capability)."""
    bet = check_bet(game, bet or game.max_bet)
    m = game.model_for(bet)
    eligible = jackpot_eligible(game, bet)
    base = spin_figures(game, m.base_set, bet, 1, eligible)
    feature_p = spins_per_round = free_rtp = 0.0
    jackpots = base.jackpot_probability
    free = None
    if m.fg_scatter >= 0 and m.sticky_set >= 0:  # wilds that stick: the chain of wild reels
        from reelforge.analysis.sticky import sticky_free_figures

        if m.buy_spins > 0:
            base, jackpots = _no_spin(base), 0.0
            starts = [(1.0, int(m.buy_spins))]
        else:
            starts = [(p, int(m.fg_award[c])) for c, p in enumerate(base.trigger_distribution)
                      if c < len(m.fg_award) and m.fg_award[c] > 0 and p > 0]
        feature_p = sum(p for p, _ in starts)
        free, spins_per_round, _ = sticky_free_figures(game, bet, eligible, starts)
        free_rtp = free.lines + free.scatter
        jackpots += spins_per_round * free.jackpot_probability
    elif m.fg_scatter >= 0:
        weights = np.diff(np.concatenate(([0], m.fg_multiplier_cum))) / m.fg_multiplier_cum[-1]
        by_multiplier = [spin_figures(game, m.fg_set, bet, int(mult), eligible)
                         for mult in m.fg_multipliers]
        free = _weighted(by_multiplier, weights)
        free_rtp = free.lines + free.scatter
        if m.buy_spins > 0:  # a buy mode: no base spin, the bought spins always start
            base = _no_spin(base)
            jackpots, feature_p = 0.0, 1.0
            spins_per_round = expected_free_spins(game, free.trigger_distribution, int(m.buy_spins))
        for c, p in enumerate(base.trigger_distribution):
            if c < len(m.fg_award) and m.fg_award[c] > 0 and p > 0:
                feature_p += p
                spins_per_round += p * expected_free_spins(game, free.trigger_distribution,
                                                           int(m.fg_award[c]))
        jackpots += spins_per_round * free.jackpot_probability
    free_ev = spins_per_round * free_rtp
    collect = collect_rtp(game, m.base_set) if m.collect else 0.0
    bonus_ev = bonus_p = bonus_spins = 0.0
    chase = trail_of(game)
    if chase is not None:
        trail = trail_figures(game)
        bonus_line_ev = spin_figures(game, chase.reel_set, bet, 1, False).lines
        counts = scatter_count_distribution(game, m.base_set, chase.trigger)
        for c, p in enumerate(counts[: len(chase.start_multiplier)]):
            start = int(chase.start_multiplier[c])
            if start > 0 and p > 0:
                bonus_p += p
                bonus_ev += p * (start * trail.collected + trail.spins * bonus_line_ev)
        bonus_spins = trail.spins
    exact_price = game.spec.mode(bet.mode).price
    price = float(exact_price)  # an integer price, or 5/4, is exact as a float too
    return ExactResult(
        game_id=game.id, bet=bet,
        rtp=(base.lines + base.scatter + free_ev + collect + bonus_ev) / price,
        base_lines=base.lines / price, base_scatter=base.scatter / price,
        free_games=free_ev / price, feature_probability=feature_p,
        mean_free_spins=spins_per_round / feature_p if feature_p else 0.0,
        free_spin_rtp=free_rtp, jackpot_probability=jackpots,
        free_spins_per_round=spins_per_round, base_collect=collect / price,
        bonus=bonus_ev / price, bonus_probability=bonus_p, mean_bonus_spins=bonus_spins,
        price=exact_price, symbols=award_names(game), base=base, free=free,
        cap_loss_bound=cap_loss_bound(game, bet) if cap_bound else None,
        base_hit_frequency=base_hit_frequency(game, bet),
    )


def _no_spin(base: SpinFigures) -> SpinFigures:
    """The figures of a base spin a buy mode does not play: nothing paid, nothing triggered."""
    return dataclasses.replace(base, lines=0.0, scatter=0.0, jackpot_probability=0.0,
                         trigger_distribution=(1.0,) + (0.0,) * (len(base.trigger_distribution) - 1),
                         award_rtp=base.award_rtp * 0, award_rate=base.award_rate * 0,
                         line_hit_probability=tuple(0.0 for _ in base.line_hit_probability),
                         scatter_rtp=tuple(0.0 for _ in base.scatter_rtp))


def _weighted(figures: list[SpinFigures], weights: np.ndarray) -> SpinFigures:
    """Free-spin figures averaged over the multiplier drawn before each spin; trigger counts,
    jackpots and line hits do not depend on the multiplier."""
    first = figures[0]
    if len(figures) == 1:
        return first
    return SpinFigures(
        lines=float(sum(w * f.lines for w, f in zip(weights, figures))),
        scatter=float(sum(w * f.scatter for w, f in zip(weights, figures))),
        jackpot_probability=first.jackpot_probability,
        trigger_distribution=first.trigger_distribution,
        award_rtp=sum(w * f.award_rtp for w, f in zip(weights, figures)),
        award_rate=first.award_rate,
        line_hit_probability=first.line_hit_probability,
        scatter_rtp=tuple(float(sum(w * f.scatter_rtp[i] for w, f in zip(weights, figures)))
                          for i in range(len(first.scatter_rtp))),
    )


MAX_HIT_COMBINATIONS = 50_000_000  # stops of the enumerated reels, beyond which we decline


def base_hit_frequency(game: LineGame, bet: Bet | None = None) -> float | None:
    """P(the base spin pays anything), exactly; None where this method does not apply.

    A line's fate is settled by the reel where its shortest paying run ends (`depth`), when
    every award that pays keeps paying for longer runs; so only the first `depth` reels'
    stops are enumerated (with a breaker symbol on the others), and the scatter's pay is
    conditioned on its count there, the other reels' counts convolved. Declines (None) for a
    mode that collects cash, more than one paying scatter, pays with gaps, or too many stops;
    a buy mode plays no base spin (None).
    """
    bet = check_bet(game, bet or game.max_bet)
    m = game.model_for(bet)
    if m.collect or m.buy_spins > 0:
        return None
    depth = 1
    for pays in list(m.line_pay) + list(m.mixed_pay):
        paying = np.flatnonzero(pays[1:]) + 1
        if len(paying) == 0:
            continue
        if paying[-1] - paying[0] + 1 != len(paying) or paying[-1] != m.n_reels:
            return None  # a gap, or a run that stops paying when longer
        depth = max(depth, int(paying[0]))
    # A line led by wilds picks its target past them: settled within `depth` reels only when
    # a run of the one wild on these reels pays by then; otherwise enumerate every reel.
    shown = np.unique(m.strips[m.base_set][m.strips[m.base_set] >= 0])
    wilds = [w for w in shown if m.is_wild[w]]
    if len(wilds) > 1 or (wilds and not m.line_pay[wilds[0], 1: depth + 1].any()):
        depth = m.n_reels
    eligible = jackpot_eligible(game, bet)
    js, jc = m.jackpot_symbol, m.jackpot_count
    if eligible and not m.line_pay[js, 1: jc + 1].any():
        depth = max(depth, jc)  # a jackpot that pays nothing shorter is seen only when complete
    lengths = m.strip_len[m.base_set, :depth]
    if int(np.prod(lengths)) > MAX_HIT_COMBINATIONS:
        return None
    paying_scatters = [k for k in range(len(m.scatter_symbol)) if m.scatter_pay[k].any()]
    if len(paying_scatters) > 1:
        return None
    scatter = paying_scatters[0] if paying_scatters else -1
    given = np.zeros(m.n_reels * m.n_rows + 1)
    if scatter >= 0:
        rest = scatter_count_distribution(game, m.base_set, scatter, range(depth, m.n_reels))
        pays = m.scatter_pay[scatter] > 0
        for c in range(len(given)):
            reach = [c + extra for extra in range(len(rest))]
            given[c] = sum(p for extra, p in enumerate(rest) if reach[extra] < len(pays) and pays[reach[extra]])
    window = np.zeros((m.n_reels, m.n_rows), dtype=np.int16)
    stops = np.zeros(m.n_reels, dtype=np.int64)
    return float(base_hit_probability(_with_breaker(m), m.base_set, depth, bet.lines, eligible,
                                      scatter, given, window, stops))


def _with_breaker(m):
    """The model with one more symbol that nothing matches, pays or substitutes."""
    def grow(a, fill, axes):
        pad = [(0, 1 if i in axes else 0) for i in range(a.ndim)]
        return np.pad(a, pad, constant_values=fill)
    return m._replace(
        line_pay=grow(m.line_pay, 0, (0,)), is_wild=grow(m.is_wild, False, (0,)),
        substitutes=grow(m.substitutes, False, (0, 1)),
        wild_multiplier=grow(m.wild_multiplier, 1, (0,)), fg_exempt=grow(m.fg_exempt, False, (0,)),
        mixed_group=grow(m.mixed_group, -1, (0,)), is_cash=grow(m.is_cash, False, (0,)))
