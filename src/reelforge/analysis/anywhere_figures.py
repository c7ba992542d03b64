"""Exact figures of a pays-anywhere game's drawn grid (`family = "anywhere"`).

The cells of a drawn grid are independent draws, each from its column's weights, so the count
of a symbol on the grid is a sum of independent binomials (one per column), and its
distribution is their convolution, in exact `Fraction`s. That gives, exactly:

* the drawn grid's pays before any multiplier: E[sum_s pay_s(count_s)] (symbols share cells,
  but an expectation adds up whatever their dependence);
* the chance that the base spin's drawn grid alone shows enough scatters for the free spins
  (a lower bound of the trigger frequency: tumbles can only bring more scatters).

The round's RTP is not among them: tumbles refill the grid, the multiplier carries through
the free spins, and the estimate is Monte Carlo (`reelforge estimate`, `reelforge simulate`).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb


def column_probabilities(spec, reel_set: str, symbol: str) -> list[Fraction]:
    """P(a cell of each column shows `symbol`) in reel set `reel_set`."""
    pairs = next(rs.weights for rs in spec.reel_sets if rs.name == reel_set)
    out = []
    for c in range(spec.cols):
        total = sum(per_col[c] for _s, per_col in pairs)
        mine = sum(per_col[c] for s, per_col in pairs if s == symbol)
        out.append(Fraction(mine, total))
    return out


def count_distribution(spec, reel_set: str, symbol: str) -> list[Fraction]:
    """P(the drawn grid shows `symbol` on exactly k cells), k = 0..rows*cols."""
    dist = [Fraction(1)]
    rows = spec.rows
    for p in column_probabilities(spec, reel_set, symbol):
        column = [comb(rows, k) * p ** k * (1 - p) ** (rows - k) for k in range(rows + 1)]
        out = [Fraction(0)] * (len(dist) + rows)
        for i, a in enumerate(dist):
            if a:
                for k, b in enumerate(column):
                    out[i + k] += a * b
        dist = out
    return dist


def pay_of(ranges, count: int) -> int:
    return next((r.coins for r in ranges if r.low <= count <= r.high), 0)


def drawn_grid_pays(spec, reel_set: str = "base") -> Fraction:
    """E[coins the drawn grid pays before any multiplier], coin value 1."""
    total = Fraction(0)
    for sid, ranges in spec.pays:
        for k, p in enumerate(count_distribution(spec, reel_set, sid)):
            total += p * pay_of(ranges, k)
    return total


def drawn_grid_trigger(spec) -> Fraction:
    """P(the base spin's drawn grid shows enough scatters for the free spins)."""
    if spec.scatter is None:
        return Fraction(0)
    need = min(count for count, _spins in spec.award)
    return sum(count_distribution(spec, "base", spec.scatter)[need:], Fraction(0))
