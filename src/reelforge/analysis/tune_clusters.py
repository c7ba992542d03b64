"""Tuning a game without an exact analysis (Candy Jar Clusters): one sample, re-weighted exactly.

The knob is the base game's random-multiplier table: the weight of "no multiplier" (value 1),
the other values keeping their proportions (their weights are scaled up together, so the
knob moves the RTP in steps of about 0.0002 pp). Only weights change: pays, rules, reels and
the Free Spins are the source's.

Why this converges without blind runs: the multiplier is drawn after a spin's first win and
nothing else in the spin depends on it, so a base-stratum sample that keeps each spin's win
before the multiplier (the stratified estimate's raw-win histogram) gives E[b] for any table
exactly: sum_raw P(raw) sum_k pi_k min(raw v_k, cap). The Free Spins strata do not see the
base multiplier at all. So the source's published sample is a common-random-numbers sample
for every candidate table at once, and the RTP is a monotone function of the knob on it:
bisection on integers finds the weight, with no new simulation. A verification run of the
variant with a fresh seed (its own stratified estimate) then shows the RTP with a 95% CI
that must lie inside the target's band (issue 5: ±0.1 pp).
"""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass

from reelforge.analysis.stratified import Estimate
from reelforge.analysis.tune import relabel
from reelforge.errors import InvalidArgument
from reelforge.spec import parse_spec

BAND = 0.001  # the RTP band of a simulated game: target ± 0.1 percentage points
RESOLUTION = 10**6  # the other weights are scaled so they sum to about this


@dataclass(frozen=True)
class ClusterTuning:
    source_id: str
    new_id: str
    text: str
    weights: tuple[int, ...]  # the base multiplier's new weights
    source_weights: tuple[int, ...]
    source_rtp: float  # on the source's sample
    rtp: float  # the variant's RTP on the same sample
    sample: Estimate  # the source's sample, re-weighted to the variant
    seconds: float


def solve_weights(sample: Estimate, target: float) -> tuple[int, ...]:
    """The base multiplier weights (value 1's weight the knob) putting the sample's RTP
    nearest to `target`. Raises InvalidArgument when no weight reaches it."""
    values, weights = sample.multiplier
    if 1 not in values:
        raise InvalidArgument(f"{sample.game_id}: the base random multiplier has no value 1 "
                              "(no multiplier) whose weight tune could change")
    one = values.index(1)
    rest = sum(w for i, w in enumerate(weights) if i != one)
    if rest == 0:
        raise InvalidArgument(f"{sample.game_id}: the base random multiplier never multiplies; "
                              "nothing to tune")
    scale = max(RESOLUTION // rest, 1)
    scaled = [w * scale for w in weights]

    def table(w1: int) -> tuple[int, ...]:
        return tuple(w1 if i == one else w for i, w in enumerate(scaled))

    def rtp(w1: int) -> float:
        return sample.with_multiplier(table(w1)).rtp

    low, high = 0, max(scaled[one], 1)
    if rtp(low) < target:
        raise InvalidArgument(f"{sample.game_id}: RTP {target:.4%} is out of reach: a multiplier "
                              f"on every winning base spin gives {rtp(low):.4%}")
    while rtp(high) > target:  # RTP falls as "no multiplier" grows
        high *= 2
        if sum(table(high)) >= 2**32:
            raise InvalidArgument(f"{sample.game_id}: RTP {target:.4%} is out of reach: no "
                                  f"multiplier at all gives {rtp(high // 2):.4%}")
    while high - low > 1:
        middle = (low + high) // 2
        if rtp(middle) > target:
            low = middle
        else:
            high = middle
    best = min((low, high), key=lambda w: abs(rtp(w) - target))
    return table(best)


def tuned_cluster_text(text: str, source, new_id: str, base_set: str, weights, command: str,
                       source_rtp: float, rtp: float) -> str:
    found = re.search(rf"^\[random_multiplier\.{re.escape(base_set)}\][^\n]*\n"
                      r"(?:[^\[\n][^\n]*\n|\n)*?weights[ \t]*=[ \t]*\[[^\]]*\]", text, re.MULTILINE)
    if found is None:
        raise InvalidArgument(f"{source.source}: no [random_multiplier.{base_set}] weights line to rewrite")
    block = found.group(0)
    block = re.sub(r"weights[ \t]*=[ \t]*\[[^\]]*\]", f"weights = {list(weights)}", block)
    text = text[:found.start()] + block + text[found.end():]
    text = relabel(text, source, new_id, rtp)
    header = [f"# Tuned variant {new_id} of {source.id}, written by", f"#   {command}",
              (f"# Only the [random_multiplier.{base_set}] weights differ from the source "
               f"({source_rtp:.4%} -> {rtp:.4%} on the"),
              "# source's published sample); the variant's own estimate is beside this file."]
    return "\n".join(header) + "\n#\n" + text


def check_only_multiplier_changed(source, tuned) -> None:
    same = dataclasses.replace(tuned, id=source.id, source=source.source,
                               description=source.description,
                               random_multipliers=source.random_multipliers)
    others = [r for r in tuned.random_multipliers if r[0] != source.reel_sets[0].name] == \
        [r for r in source.random_multipliers if r[0] != source.reel_sets[0].name]
    if same != source or not others:
        raise InvalidArgument(f"tune: the rewritten {source.source} differs in more than the "
                              "base random multiplier's weights")


def tune_cluster(text: str, source_name: str, sample: Estimate, target: float, new_id: str,
                 command: str) -> ClusterTuning:
    start = time.perf_counter()
    source = parse_spec(text, source_name)
    if new_id == source.id:
        raise InvalidArgument(f"--id = {new_id!r}: the tuned game needs an id of its own")
    if sample.game_id != source.id:
        raise InvalidArgument(f"tune: the sample is of {sample.game_id}, not {source.id}")
    weights = solve_weights(sample, target)
    tuned_sample = sample.with_multiplier(weights)
    out = tuned_cluster_text(text, source, new_id, source.reel_sets[0].name, weights, command,
                             sample.rtp, tuned_sample.rtp)
    parsed = parse_spec(out, f"<tuned {new_id}>")
    check_only_multiplier_changed(source, parsed)
    return ClusterTuning(source.id, new_id, out, weights, sample.multiplier[1], sample.rtp,
                         tuned_sample.rtp, tuned_sample, time.perf_counter() - start)
