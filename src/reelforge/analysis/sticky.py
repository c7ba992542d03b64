"""Exact figures of free games whose wilds expand and stick ([wild_multipliers] expand =
"sticky"): a Markov chain over which reels are wild.

The state of the free games at a spin's start is the set S of wild reels (at most 2**R
states; reels that never show a wild are never in it). From S, every other reel r shows a
wild with probability p_r, independently of the others, and expands: the next state is S
with those reels added. Given S, a spin's figures are a plain spin's (`spin_figures`) with
each reel's row distributions replaced by what the reel shows after expansion: the wild on
every row where the reel is (or becomes) wild, else what it shows on the stops where no wild
lands; a scatter counts only on reels that stay clear. A paid run's multiplier is the
expected combined multiplier of its k wild reels' draws: each wild reel's multiplier is one
draw from the table, independent of every window and of the other reels' draws, whether it
was drawn on this spin or spins ago, so the linearity that serves [wild_multipliers] serves
here too. So the same chain, to the last digit, gives the RTP of sticky_multiplier =
"redrawn" (every wild reel draws afresh on every spin): a spin's expected win given its wild
reels is the same, only the spins' wins are correlated differently (a kept x5 pays on every
later spin; redrawn draws are independent from spin to spin), which moves the standard
deviation and the chance of large wins, not the mean. Neither is computed here (the PAR
sheet simulates the SD of the game as it plays). The free games have no retriggers (the loader refuses them with sticky wilds), so
an award of N spins plays exactly N; the expected win over them is sum over t < N and over S
of P(S_t = S) x w(S), and the mean free spin is the per-state figures weighted by the
expected spins played in each state (its occupancy).

Float64 throughout: sums of non-negative terms, as in `analysis.exact`.
"""

from __future__ import annotations

import numpy as np

from reelforge.analysis.spin import SpinFigures, spin_figures, stop_weights


def reel_views(game, reel_set: int):
    """What each reel shows when no wild lands on it, and how often one does.

    Returns (p_wild (R,): P(a wild shows anywhere on reel r); clear (R, H, S): P(reel r shows
    symbol s on row h and no wild); clear_counts (C, R, H+1): P(no wild on reel r and scatter
    k counts c there), c capped at 1 for a scatter counted by reels)."""
    m = game.model
    n_sym = m.line_pay.shape[0]
    n_scatter = len(m.scatter_symbol)
    p_wild = np.zeros(m.n_reels)
    clear = np.zeros((m.n_reels, m.n_rows, n_sym))
    clear_counts = np.zeros((n_scatter, m.n_reels, m.n_rows + 1))
    for r in range(m.n_reels):
        n = int(m.strip_len[reel_set, r])
        strip = m.strips[reel_set, r, :n].astype(np.int64)
        w = stop_weights(game, reel_set, r)
        total = w.sum()
        for stop in range(n):
            shown = [int(strip[(stop + h) % n]) for h in range(m.n_rows)]
            p = w[stop] / total
            if any(m.is_wild[s] for s in shown):
                p_wild[r] += p
                continue
            for h, s in enumerate(shown):
                clear[r, h, s] += p
            for k in range(n_scatter):
                count = sum(s == m.scatter_symbol[k] for s in shown)
                clear_counts[k, r, count if m.scatter_by_cells[k] else min(count, 1)] += p
    return p_wild, clear, clear_counts


def state_views(game, reel_set: int, views, state: int):
    """(row distributions (R, H, S), scatter count distributions per scatter) of a spin that
    starts with the reels of bitmask `state` wild."""
    m = game.model
    p_wild, clear, clear_counts = views
    wild = m.sticky_wild
    dist = np.zeros_like(clear)
    counts = []
    for r in range(m.n_reels):
        if state >> r & 1:
            dist[r, :, wild] = 1.0
        else:
            dist[r] = clear[r]
            dist[r, :, wild] += p_wild[r]
    for k in range(len(m.scatter_symbol)):
        total = np.array([1.0])
        for r in range(m.n_reels):
            per_reel = np.zeros(m.n_rows + 1)
            if state >> r & 1:
                per_reel[0] = 1.0
            else:
                per_reel += clear_counts[k, r]
                per_reel[0] += p_wild[r]
            total = np.convolve(total, per_reel)
        counts.append(total)
    return dist, counts


def transition(p_wild: np.ndarray) -> np.ndarray:
    """(2**R, 2**R): P(the wild reels after a spin = T | before = S)."""
    n = len(p_wild)
    out = np.zeros((1 << n, 1 << n))
    for state in range(1 << n):
        rows = np.zeros(1 << n)
        rows[state] = 1.0
        for r in range(n):
            if state >> r & 1:
                continue
            moved = np.zeros(1 << n)
            for t in np.flatnonzero(rows):
                moved[t] += rows[t] * (1 - p_wild[r])
                moved[t | 1 << r] += rows[t] * p_wild[r]
            rows = moved
        out[state] = rows
    return out


def occupancy(p_wild: np.ndarray, starts) -> np.ndarray:
    """(2**R,): the expected free spins per round played from each state, over `starts`
    [(probability, spins awarded)]; every award starts with no wild reel."""
    step = transition(p_wild)
    longest = max((n for _, n in starts), default=0)
    at = np.zeros(len(step))
    at[0] = 1.0
    before = []  # before[t]: P(state at spin t + 1's start)
    for _ in range(longest):
        before.append(at)
        at = at @ step
    out = np.zeros(len(step))
    for p, n in starts:
        if p > 0 and n > 0:
            out += p * np.sum(before[:n], axis=0)
    return out


def mix(figures: list[SpinFigures], weights) -> SpinFigures:
    """The figures of a spin whose conditions are drawn with `weights` (summing to 1): every
    figure is an expectation or a probability, so each is the weighted mean."""
    def mean(field):
        return sum(w * getattr(f, field) for w, f in zip(weights, figures))
    longest = max(len(f.trigger_distribution) for f in figures)
    trigger = sum(w * np.pad(np.asarray(f.trigger_distribution), (0, longest - len(f.trigger_distribution)))
                  for w, f in zip(weights, figures))
    return SpinFigures(
        lines=float(mean("lines")), scatter=float(mean("scatter")),
        jackpot_probability=float(mean("jackpot_probability")),
        trigger_distribution=tuple(float(x) for x in trigger),
        award_rtp=mean("award_rtp"), award_rate=mean("award_rate"),
        line_hit_probability=tuple(float(sum(w * f.line_hit_probability[i] for w, f in zip(weights, figures)))
                                   for i in range(len(figures[0].line_hit_probability))),
        scatter_rtp=tuple(float(sum(w * f.scatter_rtp[i] for w, f in zip(weights, figures)))
                          for i in range(len(figures[0].scatter_rtp))))


def sticky_free_figures(game, bet, eligible: bool, starts) -> tuple[SpinFigures, float, np.ndarray]:
    """(the mean free spin's figures, expected free spins per round, occupancy by state) of
    free games with sticky wilds, awarded as `starts` [(probability, spins)] say."""
    m = game.model_for(bet)
    views = reel_views(game, m.fg_set)
    occupied = occupancy(views[0], starts)
    spins = float(occupied.sum())
    weights = np.diff(np.concatenate(([0], m.fg_multiplier_cum))) / m.fg_multiplier_cum[-1]
    states = [s for s in range(len(occupied)) if occupied[s] > 0] or [0]
    by_state = []
    for state in states:
        dist, counts = state_views(game, m.fg_set, views, state)
        by_state.append(mix([spin_figures(game, m.fg_set, bet, int(mult), eligible, dist, counts)
                             for mult in m.fg_multipliers], weights))
    share = occupied[states] / spins if spins else np.eye(1, len(states))[0]
    return mix(by_state, share), spins, occupied
