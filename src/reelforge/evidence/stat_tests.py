"""Statistical tests of bounded integer draws: values x in [0, n), each one p-value.

Pure functions of an array, so a test can hand them a biased sequence and watch them fail.
Every expected count is exact for the uniform distribution on [0, n): where n is too large
for one bin per value, the values are grouped into k bins of widths ceil((j+1)n/k) -
ceil(jn/k), whose probabilities are their widths over n (never rounded to k equal bins).

- chi-square uniformity: one bin per value, or k bins, at least 10 expected per bin;
- serial pairs: non-overlapping pairs (x[2i], x[2i+1]) on a k x k grid of such bins;
- runs above/below the median (Wald-Wolfowitz, values at the median dropped), normal approx.;
- gaps (Knuth): lengths between visits to the lower half [0, n // 2), against the geometric
  law, the tail pooled where fewer than 5 are expected;
- poker (Knuth): hands of 5 consecutive draws over d = min(n, 8) bins, the number of distinct
  bins against its exact law (inclusion-exclusion over the bins' probabilities);
- birthday spacings (Marsaglia): m birthdays in a year of n**t days (t draws per birthday,
  the year at least 2**24), the repeated spacings J of each sample summed against
  Poisson(samples x m**3 / (4 x year)), two-sided.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

MIN_EXPECTED = 5.0
POKER_HAND = 5
POKER_BINS = 8
BIRTHDAY_YEAR = 2**24
BIRTHDAY_LAMBDA = 2.0


@dataclass(frozen=True)
class TestResult:
    """One test of one range: its statistic, degrees of freedom (None: not chi-square), p."""

    name: str
    statistic: float
    dof: int | None
    p_value: float
    detail: str

    def to_dict(self) -> dict:
        return {"test": self.name, "statistic": self.statistic, "dof": self.dof,
                "p_value": self.p_value, "detail": self.detail}


def bins(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(bin of each value's left edge: the k+1 edges ceil(jn/k), widths): exact partition of
    [0, n) into k bins; value v lies in bin floor(v k / n)."""
    j = np.arange(k + 1, dtype=np.int64)
    edges = (j * n + k - 1) // k
    return edges, np.diff(edges)


def bin_of(x: np.ndarray, n: int, k: int) -> np.ndarray:
    """floor(x k / n), exact in int64 for n < 2**32 and k < 2**20."""
    return (x.astype(np.int64) * k) // n


def _chi_square(observed: np.ndarray, expected: np.ndarray) -> tuple[float, int, float]:
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    dof = observed.size - 1
    return chi2, dof, float(stats.chi2.sf(chi2, dof))


def chi_square_uniformity(x: np.ndarray, n: int) -> TestResult:
    k = int(min(n, max(2, x.size // 10)))
    _, widths = bins(n, k)
    observed = np.bincount(bin_of(x, n, k), minlength=k)
    chi2, dof, p = _chi_square(observed, x.size * widths / n)
    return TestResult("chi-square uniformity", chi2, dof, p,
                      f"{k} bins" + ("" if k == n else f" of {n} values"))


def serial_pairs(x: np.ndarray, n: int) -> TestResult:
    pairs = x.size // 2
    k = int(min(n, max(2, math.isqrt(pairs // 10))))
    _, widths = bins(n, k)
    a, b = bin_of(x[0:2 * pairs:2], n, k), bin_of(x[1:2 * pairs:2], n, k)
    observed = np.bincount(a * k + b, minlength=k * k)
    expected = pairs * np.outer(widths / n, widths / n).ravel()
    chi2, dof, p = _chi_square(observed, expected)
    return TestResult("serial pairs", chi2, dof, p, f"{pairs} pairs on {k} x {k} cells")


def runs_median(x: np.ndarray, n: int) -> TestResult:
    twice = 2 * x.astype(np.int64)
    keep = twice != n - 1  # the median (n - 1) / 2 itself, for odd n
    above = twice[keep] > n - 1
    total = above.size
    n1 = int(above.sum())
    n2 = total - n1
    runs = 1 + int(np.count_nonzero(above[1:] != above[:-1]))
    if n1 == 0 or n2 == 0:  # every draw on one side: no uniform source of this size does that
        return TestResult("runs above/below median", float("inf"), None, 0.0,
                          f"all {total} draws on one side of the median")
    mean = 2 * n1 * n2 / total + 1
    var = 2 * n1 * n2 * (2 * n1 * n2 - total) / (total * total * (total - 1))
    z = (runs - mean) / math.sqrt(var)
    return TestResult("runs above/below median", z, None, float(2 * stats.norm.sf(abs(z))),
                      f"{runs} runs, {n1} above, {n2} below (z)")


def gaps(x: np.ndarray, n: int) -> TestResult:
    h = max(1, n // 2)
    p = h / n
    where = np.flatnonzero(x < h)
    lengths = np.diff(where) - 1
    m = lengths.size
    t = max(1, min(50, math.floor(math.log(MIN_EXPECTED / m) / math.log(1 - p))))
    probs = np.array([p * (1 - p) ** j for j in range(t)] + [(1 - p) ** t])
    observed = np.bincount(np.minimum(lengths, t), minlength=t + 1)
    chi2, dof, pv = _chi_square(observed, m * probs)
    return TestResult("gaps", chi2, dof, pv, f"{m} gaps of [0, {h}), lengths 0..{t - 1} and >= {t}")


def _distinct_law(probs: np.ndarray, hand: int) -> np.ndarray:
    """P(a hand of `hand` draws over bins of these probabilities shows r distinct bins), r =
    0..hand, by inclusion-exclusion: P(exactly S) = sum over T in S of (-1)^|S-T| p(T)^hand."""
    d = probs.size
    law = np.zeros(hand + 1)
    power = {}
    for size in range(d + 1):
        for t in itertools.combinations(range(d), size):
            power[t] = float(probs[list(t)].sum()) ** hand
    for size in range(1, min(d, hand) + 1):
        for s in itertools.combinations(range(d), size):
            law[size] += sum((-1) ** (size - r) * power[t]
                             for r in range(size + 1) for t in itertools.combinations(s, r))
    return law


def poker(x: np.ndarray, n: int) -> TestResult:
    d = int(min(n, POKER_BINS))
    _, widths = bins(n, d)
    hands = x.size // POKER_HAND
    cats = np.sort(bin_of(x[:hands * POKER_HAND], n, d).reshape(hands, POKER_HAND), axis=1)
    distinct = 1 + np.count_nonzero(np.diff(cats, axis=1), axis=1)
    law = _distinct_law(widths / n, POKER_HAND)[1:]
    observed = np.bincount(distinct - 1, minlength=POKER_HAND).astype(float)
    expected = hands * law
    # pool the rare low classes (few distinct bins) upward until each has 5 expected
    keep_obs, keep_exp, acc_o, acc_e = [], [], 0.0, 0.0
    for o, e in zip(observed, expected):
        acc_o, acc_e = acc_o + o, acc_e + e
        if acc_e >= MIN_EXPECTED:
            keep_obs.append(acc_o)
            keep_exp.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0 and keep_exp:
        keep_obs[-1] += acc_o
        keep_exp[-1] += acc_e
    if len(keep_exp) < 2:
        return TestResult("poker", 0.0, 0, 1.0, f"{hands} hands: too few classes (d = {d})")
    chi2, dof, p = _chi_square(np.array(keep_obs), np.array(keep_exp))
    return TestResult("poker", chi2, dof, p, f"{hands} hands of {POKER_HAND} over {d} bins")


def birthday_spacings(x: np.ndarray, n: int) -> TestResult | None:
    """None where the draws hold no complete sample (too few for one year's birthdays)."""
    t = 1
    while n ** t < BIRTHDAY_YEAR:
        t += 1
    year = n ** t
    m = round((4 * BIRTHDAY_LAMBDA * year) ** (1 / 3))
    samples = x.size // (m * t)
    if samples == 0:
        return None
    used = x[:samples * m * t].astype(np.int64).reshape(samples, m, t)
    days = np.zeros((samples, m), dtype=np.int64)
    for i in range(t):  # year < 2**62 here: n**t < 2**24 x n
        days = days * n + used[:, :, i]
    days.sort(axis=1)
    spacings = np.sort(np.diff(days, axis=1, prepend=0), axis=1)
    repeated = int((spacings[:, 1:] == spacings[:, :-1]).sum())
    lam = samples * m ** 3 / (4 * year)
    p = min(1.0, 2 * min(stats.poisson.cdf(repeated, lam), stats.poisson.sf(repeated - 1, lam)))
    return TestResult("birthday spacings", float(repeated), None, float(p),
                      f"{samples} samples of {m} birthdays in a year of {n}^{t}; "
                      f"J = {repeated} vs Poisson({lam:.2f})")


def battery(x: np.ndarray, n: int) -> list[TestResult]:
    """Every test on one range's draws; birthday spacings only where a sample fits."""
    found = [chi_square_uniformity(x, n), serial_pairs(x, n), runs_median(x, n), gaps(x, n),
             poker(x, n)]
    birthday = birthday_spacings(x, n)
    return found + ([birthday] if birthday is not None else [])
