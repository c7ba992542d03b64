"""Stratified Monte Carlo RTP for a game whose round is a base spin plus, on a trigger, a feature.

A round's win is W = b + min(F_m, cap - b) when the base spin (win b) triggers the feature
with class m (Candy Jar: the set of modifiers, masks 1..7), else b. The feature's draws come
after the base spin's and do not depend on it beyond m, so F_m is independent of b given m
and

    E[W] = E[b] + sum_m P(m) E[min(F_m, cap)] - delta,

    0 <= delta <= sum_m E[b 1(m) 1(F_m > cap - b)]
               <= sum_m (E[b 1(m)] P(F_m >= cap - T) + E[b 1(m) 1(b > T)])   for any T.

The strata are sampled separately: the base stratum (base spins alone, N_b of them) gives
E[b], P(m), E[b 1(m)] and E[b 1(m) 1(b > T)]; each feature stratum m (N_m features played
from their trigger with the whole cap as headroom) gives mu_m = E[min(F_m, cap)] and
P(F_m >= cap - T). The estimate leaves delta out and reports its bound (T = 1000x bet).

Exact parts, computed exactly and used to cut the variance:
* the random multiplier: drawn after the spin's first win, independent of everything else
  the spin draws, so each base spin contributes E[b | its other draws] = sum_k pi_k
  min(raw v_k, cap) instead of b (Rao-Blackwell; the 100x multiplier's lottery is gone).
  The base stratum keeps the spins' raw wins (before the multiplier) as a histogram, so the
  same sample gives the figures for any multiplier table exactly: `tune` solves for one;
* the trigger: P(m) = P0(m) + E[1(final mask = m) - 1(drawn-grid mask = m)], where P0 is the
  exact probability that the drawn grid's candies alone trigger m (the game's strata compute
  it) and the difference, non-zero only when tumbles bring candies, is simulated (a control
  variate: the trigger lottery's variance is gone too).

With mu_0 = 0, each base spin contributes Y = rb + mu_f - mu_i (rb: its multiplier-averaged
win, i/f: drawn-grid/final mask), so E[W] ~ E[Y] + sum_m mu_m P0(m) and
    SE^2 = Var(Y) / N_b + sum_m P(m)^2 Var(F_m) / N_m,
the 95% CI being the estimate +- 1.96 SE. Sizes come from a pilot (its own streams, not
part of the estimate): for a CI half-width h they minimise the cost sum N_i c_i subject to
SE <= h / 1.96 (Neyman allocation: N_i ~ sqrt(A_i / c_i), A_b = Var(Y), A_m = P(m)^2 Var(F_m),
cost c_b = 1 per base spin, c_m = 3 per feature spin: a deterministic stand-in for time, so a
run repeats exactly from its seed).

Chunk i of stratum s plays on SeedSequence(seed, spawn_key=(STREAM_BASE + s, i)); the pilot
on (PILOT_BASE + s, i). Every counter is an integer; chunks merge by addition.

The strata are `game.strata` (a cluster game's: its rules' game part, or `engine.cluster_strata`
for a standard game): feature_classes, initial_trigger_probabilities, base_multiplier,
base_stratum and feature_stratum. A standard cluster game has no feature: its round is the
base spin, so the estimate is the base stratum alone, with its CI.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from reelforge.analysis.montecarlo import GameText, compiled, ignore_ctrl_c
from reelforge.analysis.stats import Z95
from reelforge.engine.capabilities import STRATIFIED
from reelforge.engine.cluster_strata import BaseField
from reelforge.engine.rng import keyed_generator
from reelforge.errors import InvalidArgument

# `reelforge.progress.Tasks`, spelled out: the analysis layer imports nothing of terminals
Tasks = Callable[[str, float | None], Callable[[float], None]]

STREAM_BASE = 1_000_000
PILOT_BASE = 2_000_000
TAIL_X = 1000  # T of the bias bound, and the "big win" line, in multiples of the bet
CHUNK = 200_000  # base spins per chunk; feature chunks hold CHUNK // FEATURE_CHUNK_DIVISOR
FEATURE_CHUNK_DIVISOR = 50
FEATURE_SPIN_COST = 3


@dataclass
class BaseStratum:
    spins: int = 0
    by_pair: dict = field(default_factory=dict)  # (drawn mask, final mask) -> sums by BaseField
    raw_hist: dict = field(default_factory=dict)  # win before the multiplier -> spins
    max_win: int = 0
    hits: int = 0
    tumbles: int = 0
    multiplied: int = 0
    guard_hits: int = 0
    big: int = 0
    capped: int = 0

    def add(self, other: dict) -> None:
        self.spins += other["spins"]
        for pair, row in other["by_pair"].items():
            mine = self.by_pair.setdefault(tuple(pair), [0] * len(row))
            for i, v in enumerate(row):
                mine[i] += v
        for raw, count in other["raw_hist"].items():
            self.raw_hist[int(raw)] = self.raw_hist.get(int(raw), 0) + count
        self.max_win = max(self.max_win, other["max_win"])
        for name in ("hits", "tumbles", "multiplied", "guard_hits", "big", "capped"):
            setattr(self, name, getattr(self, name) + other[name])


@dataclass
class FeatureStratum:
    rounds: int = 0
    win: int = 0
    squares: int = 0
    capped: int = 0
    near_cap: int = 0
    spins: int = 0
    super_spins: int = 0
    jackpot_win: int = 0
    jackpots: int = 0
    max_win: int = 0
    guard_hits: int = 0
    big: int = 0

    def add(self, other: dict) -> None:
        for name, value in other.items():
            if name == "max_win":
                self.max_win = max(self.max_win, value)
            else:
                setattr(self, name, getattr(self, name) + value)

    @property
    def mean(self) -> float:
        return self.win / self.rounds if self.rounds else 0.0

    @property
    def variance(self) -> float:
        if self.rounds < 2:
            return 0.0
        return max(self.squares / self.rounds - self.mean ** 2, 0.0) * self.rounds / (self.rounds - 1)


@dataclass
class Estimate:
    """A stratified estimate; amounts in coins of a stake of `stake` coins.

    `multiplier` is the base game's random-multiplier table (values, weights) the figures are
    for: the base stratum keeps each spin's win before the multiplier, so the same sample
    gives exact figures for any other table (`with_multiplier`), which `tune` uses.
    """

    game_id: str
    seed: int
    stake: int
    cap: int  # 0: none
    class_names: dict  # class -> name
    base: BaseStratum
    features: dict  # class -> FeatureStratum
    p0: dict  # class -> exact P(the drawn grid alone triggers it); empty: not known
    multiplier: tuple  # (values, weights) of the base random multiplier

    def with_multiplier(self, weights) -> Estimate:
        return replace(self, multiplier=(self.multiplier[0], tuple(weights)))

    # -- the base spin's win given its raw win, averaged over the multiplier ---------------
    def _base_moments(self) -> tuple[float, float, float]:
        """(E[b], E[rb^2], E[b^2]) with rb = E[b | raw win] = sum_k pi_k min(raw v_k, cap)."""
        raw = np.array(sorted(self.base.raw_hist), dtype=np.float64)
        count = np.array([self.base.raw_hist[int(r)] for r in raw], dtype=np.float64)
        values = np.array(self.multiplier[0], dtype=np.float64)
        pi = np.array(self.multiplier[1], dtype=np.float64) / sum(self.multiplier[1])
        wins = raw[:, None] * values[None, :]
        if self.cap:
            wins = np.minimum(wins, self.cap)
        rb = wins @ pi
        b2 = (wins ** 2) @ pi
        n = self.base.spins
        return float(count @ rb) / n, float(count @ rb ** 2) / n, float(count @ b2) / n

    @property
    def _mean_multiplier(self) -> float:
        values, weights = self.multiplier
        return sum(v * w for v, w in zip(values, weights)) / sum(weights)

    def _pairs(self):
        """((drawn, final), row) with the drawn mask dropped when P0 is not known."""
        for (i, f), row in self.base.by_pair.items():
            yield ((i if self.p0 else 0), f), row

    def _mu(self, m) -> float:
        f = self.features.get(m)
        return f.mean if f is not None and m else 0.0

    def _p(self, m) -> float:
        """P(the base spin triggers m): exact drawn-grid part plus the simulated difference."""
        moved = sum(row[BaseField.SPINS] * ((f == m) - (i == m)) for (i, f), row in self._pairs())
        return self.p0.get(m, 0.0) + moved / self.base.spins

    def _b_in(self, m) -> float:
        """E[b 1(final = m)]; the cap is left out (triggering spins that reach it are
        counted in the bias bound)."""
        raw = sum(row[BaseField.RAW_WIN] for (_i, f), row in self._pairs() if f == m)
        return raw * self._mean_multiplier / self.base.spins

    @property
    def mean_base(self) -> float:
        return self._base_moments()[0]

    def _y_moments(self) -> tuple[float, float]:
        n = self.base.spins
        ey, ey2, _ = self._base_moments()
        em = self._mean_multiplier
        for (i, f), row in self._pairs():
            step = self._mu(f) - self._mu(i)
            spins, raw = row[BaseField.SPINS], row[BaseField.RAW_WIN]
            ey += spins * step / n
            ey2 += (spins * step * step + 2 * step * raw * em) / n
        return ey, ey2

    @property
    def rtp(self) -> float:
        ey, _ = self._y_moments()
        return (ey + sum(self._mu(m) * p for m, p in self.p0.items())) / self.stake

    @property
    def standard_error(self) -> float:
        n = self.base.spins
        ey, ey2 = self._y_moments()
        var_y = max(ey2 - ey ** 2, 0.0) * n / max(n - 1, 1)
        total = var_y / n + sum(self._p(m) ** 2 * f.variance / f.rounds
                                for m, f in self.features.items() if f.rounds)
        return math.sqrt(total) / self.stake

    def interval(self) -> tuple[float, float]:
        half = Z95 * self.standard_error
        return self.rtp - half, self.rtp + half

    @property
    def bias_bound(self) -> float:
        """Upper bound of |delta| plus the cap's effect on the trigger (a base spin cut to the
        cap ends the round), in multiples of the bet: the estimate is off by at most this."""
        total = 0.0
        biggest = max((f.mean for f in self.features.values()), default=0.0)
        for m, f in self.features.items():
            b_all = self._b_in(m)
            b_tail = sum(row[BaseField.WIN_ABOVE_THRESHOLD]
                         for (_i, g), row in self._pairs() if g == m) / self.base.spins
            total += (b_all - b_tail) * (f.near_cap / f.rounds if f.rounds else 1.0) + b_tail
        sensitive = sum(row[BaseField.CAP_SENSITIVE]
                        for (_i, f), row in self._pairs() if f) / self.base.spins
        return (total + sensitive * biggest) / self.stake

    @property
    def standard_deviation(self) -> float:
        """Per round, in multiples of the bet (the cap's coupling of b and F left out)."""
        e_w2 = self._base_moments()[2]
        for m, f in self.features.items():
            if f.rounds:
                e_w2 += self._p(m) * (f.squares / f.rounds) + 2 * f.mean * self._b_in(m)
        ew = self.rtp * self.stake
        return math.sqrt(max(e_w2 - ew ** 2, 0.0)) / self.stake

    @property
    def trigger_probability(self) -> float:
        return sum(self._p(m) for m in self.features)

    def probability_at_least(self, which: str) -> float:
        """P(a round wins >= 1000x) ("big"), or P(it is cut to the cap) ("cap"); base spins
        and features counted apart (b + F crossing the line from below each is left out).
        The base part is for the sampled multiplier table."""
        base = (self.base.big if which == "big" else self.base.capped) / self.base.spins
        return base + sum(self._p(m) * (f.big if which == "big" else f.capped) / f.rounds
                          for m, f in self.features.items() if f.rounds)

    def to_dict(self) -> dict:
        low, high = self.interval()
        return {
            "game": self.game_id, "seed": self.seed, "method": "stratified",
            "rtp": self.rtp, "rtp_ci95": [low, high], "rtp_standard_error": self.standard_error,
            "bias_bound": self.bias_bound,
            "base_spins": self.base.spins,
            "feature_rounds": {self.class_names[m]: f.rounds for m, f in sorted(self.features.items())},
            "rtp_base": self.mean_base / self.stake,
            "rtp_features": {self.class_names[m]: self._p(m) * f.mean / self.stake
                             for m, f in sorted(self.features.items())},
            "trigger_probability": {self.class_names[m]: self._p(m) for m in sorted(self.features)},
            "feature_mean_x": {self.class_names[m]: f.mean / self.stake
                               for m, f in sorted(self.features.items())},
            "feature_frequency": self.trigger_probability,
            "base_hit_frequency": self.base.hits / self.base.spins,
            "base_multiplier_weights": list(self.multiplier[1]),
            "standard_deviation": self.standard_deviation,
            "volatility_index": 1.645 * self.standard_deviation,
            "probability_1000x": self.probability_at_least("big"),
            "probability_cap": self.probability_at_least("cap"),
            "largest_base_win_x": self.base.max_win / self.stake,
            "largest_feature_win_x": max((f.max_win for f in self.features.values()), default=0) / self.stake,
            "spin_guard_hits": self.base.guard_hits + sum(f.guard_hits for f in self.features.values()),
        }


class Chunk(NamedTuple):
    """One chunk of one stratum (0: the base stratum, else a feature class)."""

    text: GameText
    stratum: int
    key: tuple[int, int, int]  # keyed_generator's (seed, stream, chunk)
    rounds: int  # base spins, or feature rounds
    tail: int  # T of the bias bound, coins
    big: int  # the "big win" line, coins


def _task(chunk: Chunk) -> tuple[int, object, float]:
    """(stratum, its counters, seconds the kernel took) of one chunk."""
    game = compiled(chunk.text)
    bits = keyed_generator(*chunk.key).bit_generator  # what kernels take (engine/rng.py)
    start = time.perf_counter()
    if chunk.stratum == 0:
        result = game.strata.base_stratum(game, bits, chunk.rounds, chunk.tail, chunk.big)
    else:
        result = game.strata.feature_stratum(game, chunk.stratum, bits, chunk.rounds,
                                             game.cap_coins - chunk.tail, chunk.big)
    return chunk.stratum, result, time.perf_counter() - start


def _run(tasks, workers, finished: Callable[[int], None]) -> list:
    """The tasks' results in task order (so a run merges, and rounds, the same way whatever
    the workers' timing); `finished(i)` is told of each task as it ends."""
    results: list = [None] * len(tasks)
    if workers <= 1:
        for i, t in enumerate(tasks):
            results[i] = _task(t)
            finished(i)
        return results
    with ProcessPoolExecutor(max_workers=workers, initializer=ignore_ctrl_c) as pool:
        futures = {pool.submit(_task, t): i for i, t in enumerate(tasks)}
        try:
            for future in as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                finished(i)
        except BaseException:  # Ctrl-C or a failed chunk: drop the queue, not wait it out
            for future in futures:
                future.cancel()
            raise
    return results


def _sizes(pilot: Estimate, half_width: float) -> tuple[int, dict]:
    """Neyman sizes for a 95% CI half-width (in multiples of the bet)."""
    ey, ey2 = pilot._y_moments()
    parts = {0: (max(ey2 - ey ** 2, 1e-12), 1.0)}
    for m, f in pilot.features.items():
        spins = (f.spins + f.super_spins) / f.rounds if f.rounds else 10
        parts[m] = (max(pilot._p(m) ** 2 * f.variance, 1e-12), FEATURE_SPIN_COST * spins)
    target = (half_width * pilot.stake / Z95) ** 2
    scale = sum(math.sqrt(a * c) for a, c in parts.values()) / target
    sizes = {s: max(math.ceil(scale * math.sqrt(a / c)), 1) for s, (a, c) in parts.items()}
    return sizes.pop(0), sizes


def estimate(game_ref: str | GameText, seed: int = 1, half_width: float = 0.0005,
             base_spins: int | None = None, feature_rounds: dict | None = None,
             pilot_spins: int = 2_000_000, workers: int | None = None,
             progress: Tasks | None = None) -> Estimate:
    """Stratified RTP of a shipped cluster game (or file) at its largest stake.

    Sizes: given (base_spins and feature_rounds {class: rounds}), or chosen from a pilot so
    the 95% CI half-width is about `half_width` (multiples of the bet: 0.0005 = 0.05 pp).
    `progress(description, total)` is asked for one task per phase (pilot, run) and told
    each chunk's share as it ends; the run's shares are the seconds the pilot measured per
    base spin and per feature round of each class, so the time left it implies is honest.
    """
    text = game_ref if isinstance(game_ref, GameText) else GameText.load(game_ref)
    game = compiled(text)
    if STRATIFIED not in game.capabilities:
        raise InvalidArgument(f"{game.id}: no stratified estimate; its RTP is computed exactly: "
                              "reelforge analyze")
    strata = game.strata
    if not 0 < half_width < 1:
        raise InvalidArgument(f"--ci = {half_width!r}: a half-width in multiples of the bet, 0..1")
    workers = workers or os.cpu_count() or 1
    stake = game.spec.bet.max_lines
    tail, big = TAIL_X * stake, TAIL_X * stake
    classes = strata.feature_classes(game)
    # a stand-in until a pilot has measured them: the cost model of `_sizes`
    cost = {0: 1.0, **{m: FEATURE_SPIN_COST * 10.0 for m in classes}}
    if base_spins is None or feature_rounds is None:
        pilot_rounds = {m: max(pilot_spins // FEATURE_CHUNK_DIVISOR // 4, 1000) for m in classes}
        pilot, cost = _collect(text, game, seed, PILOT_BASE, pilot_spins, pilot_rounds, tail, big,
                               workers, cost, progress, f"{game.id}: pilot, sizing the run")
        base_spins, feature_rounds = _sizes(pilot, half_width)
    for name, value in [("base spins", base_spins)] + [(f"feature {m} rounds", v)
                                                        for m, v in feature_rounds.items()]:
        if value < 1:
            raise InvalidArgument(f"{name} = {value}: must be positive")
    label = (f"{game.id}: {base_spins:,} base spins, "
             f"{sum(feature_rounds.values()):,} feature rounds")
    return _collect(text, game, seed, STREAM_BASE, base_spins, feature_rounds, tail, big, workers,
                    cost, progress, label)[0]


def _collect(text, game, seed, key_base, base_spins, feature_rounds, tail, big, workers,
             cost: dict, progress: Tasks | None, label: str) -> tuple[Estimate, dict]:
    """The estimate of these sizes, and the seconds per base spin / feature round each
    stratum took (the fastest chunk's: the first chunk on a worker also loads the kernels)."""
    tasks = []
    for i, start in enumerate(range(0, base_spins, CHUNK)):
        tasks.append(Chunk(text, 0, (seed, key_base, i), min(CHUNK, base_spins - start), tail, big))
    feature_chunk = CHUNK // FEATURE_CHUNK_DIVISOR
    for m, rounds in sorted(feature_rounds.items()):
        for i, start in enumerate(range(0, rounds, feature_chunk)):
            tasks.append(Chunk(text, m, (seed, key_base + m, i), min(feature_chunk, rounds - start),
                               tail, big))
    shares = [t.rounds * cost.get(t.stratum, 1.0) for t in tasks]
    advance = progress(label, sum(shares)) if progress is not None else None

    def finished(i: int) -> None:
        if advance is not None:
            advance(shares[i])

    base = BaseStratum()
    features = {m: FeatureStratum() for m in feature_rounds}
    measured: dict = {}
    for (stratum, result, seconds), task in zip(_run(tasks, min(workers, len(tasks)), finished), tasks):
        if stratum == 0:
            base.add(result)
        else:
            features[stratum].add(result)
        measured[stratum] = min(measured.get(stratum, math.inf), seconds / task.rounds)
    strata = game.strata
    estimate = Estimate(game.id, seed, game.spec.bet.max_lines, game.cap_coins,
                        strata.feature_classes(game), base, features,
                        strata.initial_trigger_probabilities(game), strata.base_multiplier(game))
    return estimate, measured


# -- a published estimate: figures, the command that made them, and the sample's state ---------
def to_state(e: Estimate) -> dict:
    """Everything the figures are computed from, as JSON-ready data."""
    base = e.base
    return {
        "game": e.game_id, "seed": e.seed, "stake": e.stake, "cap": e.cap,
        "class_names": {str(m): n for m, n in e.class_names.items()},
        "p0": {str(m): p for m, p in e.p0.items()},
        "multiplier": [list(e.multiplier[0]), list(e.multiplier[1])],
        "base": {"spins": base.spins, "max_win": base.max_win, "hits": base.hits,
                 "tumbles": base.tumbles, "multiplied": base.multiplied,
                 "guard_hits": base.guard_hits, "big": base.big, "capped": base.capped,
                 "by_pair": [[i, f, *row] for (i, f), row in sorted(base.by_pair.items())],
                 "raw_hist": [[r, c] for r, c in sorted(base.raw_hist.items())]},
        "features": {str(m): vars(f) for m, f in sorted(e.features.items())},
    }


def from_state(data: dict) -> Estimate:
    b = data["base"]
    base = BaseStratum(b["spins"], {(row[0], row[1]): list(row[2:]) for row in b["by_pair"]},
                       {r: c for r, c in b["raw_hist"]}, b["max_win"], b["hits"], b["tumbles"],
                       b["multiplied"], b["guard_hits"], b["big"], b["capped"])
    return Estimate(data["game"], data["seed"], data["stake"], data["cap"],
                    {int(m): n for m, n in data["class_names"].items()}, base,
                    {int(m): FeatureStratum(**f) for m, f in data["features"].items()},
                    {int(m): p for m, p in data["p0"].items()},
                    (tuple(data["multiplier"][0]), tuple(data["multiplier"][1])))


def published(game_text: GameText, estimate: Estimate, command: str, seconds: float) -> dict:
    """The file `reelforge estimate --out` writes: tied to the game file by its SHA-256."""
    return {"game_sha256": game_text.digest, "command": command, "seconds": round(seconds, 1),
            "figures": estimate.to_dict(), "state": to_state(estimate)}
