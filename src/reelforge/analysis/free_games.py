"""The exact distribution of the number of free spins played per free-game trigger.

`exact.expected_free_spins` gives the mean; this gives the whole distribution, from the same
rules (`grant_spins` in the engine): the base spin's trigger count c awards `award[c]` spins
(under "capped", at most `max_total_spins`); during them a count c adds `retrigger_award[c]`
("none": never; "capped": only the room left under the cap). Every awarded spin is played, so
the spins played equal the spins awarded when the bonus ends.

- "capped": a Markov chain on (spins awarded so far, spins left), its mass pushed level by
  level in `awarded` (which never falls), so each state is visited once; the bonus ends at
  left = 0 and the distribution is the mass absorbed at each level.
- "unlimited": the support is infinite. With X the spins one free spin adds, the spins left
  move by X - 1 >= -1 per spin, and by the hitting-time theorem (Otter, Kemperman) a bonus
  starting with k spins lasts n spins with probability (k / n) P(X_1 + ... + X_n = n - k).
  The sums' distributions are built by convolution until the mass left is below `tail`,
  which is reported. The engine's technical spin guard is ignored, as in the mean.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reelforge.engine.outcome import Bet
from reelforge.errors import ReelforgeError

# Spins (unlimited retriggers) beyond which the distribution is declined: a bonus that long
# is a design error another check reports; the sheet should not hang on it. A capped chain's
# limit is `exact.MAX_CHAIN_STATES`, shared with the moments and the maximum.
MAX_SPINS = 20_000


@dataclass(frozen=True)
class FreeSpinDistribution:
    """P(a triggered bonus plays n free spins), exactly (float64 sums of positive terms)."""

    spins: tuple[int, ...]  # n, ascending, every n with P > 0 (up to the tail)
    probability: tuple[float, ...]  # P(n spins | free games triggered)
    tail: float  # P(more than spins[-1]): 0 unless retriggers are unlimited
    rule: str  # "none" | "capped" | "unlimited"
    method: str

    @property
    def mean(self) -> float:
        """E[spins | trigger] over the listed support (the tail excluded)."""
        return float(np.dot(self.spins, self.probability))

    def to_dict(self) -> dict:
        return {"label": "exact", "method": self.method, "retrigger": self.rule,
                "spins": list(self.spins), "probability": list(self.probability),
                "tail_probability": self.tail, "mean": self.mean,
                "table": [{"spins": n, "probability": p}
                          for n, p in zip(self.spins, self.probability)]}


def free_spin_distribution(game, bet: Bet | None = None, tail: float = 1e-13
                           ) -> FreeSpinDistribution | None:
    """The distribution of free spins played per trigger at `bet` (default: max bet; the mode
    decides the base reels, or in a buy mode the spins every round starts with), or None for a game without free games. Raises UnboundedFeature
    for retriggers that never end on average, ReelforgeError for a chain too long to list."""
    from reelforge.analysis.exact import retrigger_awards, scatter_count_distribution

    bet = bet or game.max_bet
    m = game.model_for(bet)
    if m.fg_scatter < 0:
        return None
    base = scatter_count_distribution(game, m.base_set, m.fg_scatter)
    starts: dict[int, float] = {}
    if m.buy_spins > 0:  # a buy mode: every round starts with the spins bought
        cap = int(m.fg_max_total) if m.fg_retrigger_mode == 2 else int(m.buy_spins)
        starts[min(int(m.buy_spins), cap)] = 1.0
        base = base[:0]  # no base spin: nothing else starts them
    for c, p in enumerate(base):
        if c < len(m.fg_award) and m.fg_award[c] > 0 and p > 0:
            k = int(m.fg_award[c])
            if m.fg_retrigger_mode == 2:
                k = min(k, int(m.fg_max_total))
            starts[k] = starts.get(k, 0.0) + float(p)
    if not starts:
        return None
    norm = sum(starts.values())
    starts = {k: w / norm for k, w in starts.items()}
    free = scatter_count_distribution(game, m.fg_set, m.fg_scatter)
    again = [(float(p), int(a)) for p, a in zip(free, retrigger_awards(m, len(free)))
             if a > 0 and p > 0]
    mode = int(m.fg_retrigger_mode)
    if mode == 0 or not again:
        rule = ("none", "unlimited", "capped")[mode]
        ks = sorted(k for k in starts if k > 0)
        return FreeSpinDistribution(tuple(ks), tuple(starts[k] for k in ks), 0.0, rule,
                                    "no retrigger: the first award")
    if mode == 2:
        from reelforge.analysis.exact import capped_chain_states

        capped_chain_states(game)  # refuses a cap whose chain is too large to walk
        return _capped(starts, again, int(m.fg_max_total))
    return _unlimited(game, starts, again, tail)


def _capped(starts: dict[int, float], again: list[tuple[float, int]],
            cap: int) -> FreeSpinDistribution:
    """Mass pushed through (awarded, left) in increasing `awarded`: a retrigger raises it.
    At most cap (cap+1) / 2 states, within `exact.capped_chain_states`' limit (checked first)."""
    p_none = 1.0 - sum(p for p, _ in again)
    pending: dict[int, np.ndarray] = {}
    for k, w in starts.items():
        if k > 0:
            pending.setdefault(k, np.zeros(k + 1))[k] += w
    ended: dict[int, float] = {}
    while pending:
        level = min(pending)
        mass = pending.pop(level)
        moves = [(p, min(a, cap - level)) for p, a in again]
        stay = p_none + sum(p for p, e in moves if e == 0)  # at the cap a retrigger adds nothing
        up = [(p, e) for p, e in moves if e > 0]
        for left in range(level, 0, -1):
            x = mass[left]
            if x == 0.0:
                continue
            mass[left - 1] += stay * x
            for p, e in up:
                pending.setdefault(level + e, np.zeros(level + e + 1))[left - 1 + e] += p * x
        if mass[0] > 0:
            ended[level] = float(mass[0])
    ns = sorted(ended)
    return FreeSpinDistribution(tuple(ns), tuple(ended[n] for n in ns), 0.0, "capped",
                                f"Markov chain on (spins awarded, spins left), cap {cap}")


def _unlimited(game, starts: dict[int, float], again: list[tuple[float, int]],
               tail: float) -> FreeSpinDistribution:
    """Hitting-time theorem: P(T = n | k) = k/n P(S_n = n - k), S_n a sum of n spins' awards."""
    from reelforge.analysis.exact import refuse_never_ending

    refuse_never_ending(game, sum(p * a for p, a in again))
    game_id = game.id
    p_none = 1.0 - sum(p for p, _ in again)
    first = min(starts)
    horizon = 4 * max(starts)
    while True:  # sums past the horizon are dropped: double it until the tail is small
        out, done = _hitting_times(starts, again, p_none, first, horizon)
        if 1.0 - done <= tail:
            break
        if horizon >= MAX_SPINS:
            raise ReelforgeError(f"{game_id}: the free-spin distribution still has "
                                 f"{1 - done:.1e} of its mass beyond {MAX_SPINS:,} spins")
        horizon = min(2 * horizon, MAX_SPINS)
    ns = sorted(out)
    return FreeSpinDistribution(tuple(ns), tuple(out[n] for n in ns), max(1.0 - done, 0.0),
                                "unlimited", "hitting-time theorem on the sum of spins awarded "
                                f"per spin, listed until the mass left is below {tail:g}")


def _hitting_times(starts, again, p_none, first, horizon) -> tuple[dict[int, float], float]:
    """{n: P(T = n)} for n <= horizon and their sum; sums S_n kept up to horizon - first,
    the largest a bonus of at most `horizon` spins can need."""
    size = horizon - first + 1
    sums = np.zeros(size)
    sums[0] = 1.0  # S_0 = 0
    out: dict[int, float] = {}
    done = 0.0
    for n in range(1, horizon + 1):
        grown = p_none * sums
        for p, a in again:
            if a < size:
                grown[a:] += p * sums[: size - a]
        sums = grown
        prob = sum(w * k / n * sums[n - k] for k, w in starts.items() if n >= k)
        if prob > 0:
            out[n] = float(prob)
            done += prob
    return out, done
