"""Tuning: a game at a target RTP, by its reel weights alone, with its feel kept and measured.

Method (games with an exact analysis; every line game today): a search guided by the exact
RTP. For each mode to tune (the base game, and each `[modes.*]` way to play it, such as Cops n
Robbers' Fortune Spins) only that mode's own reel set changes; free-game and bonus reels, the
paytable and every rule stay as they are, and so does the order of every strip, so layout
constraints (at most one scatter in view, wild spacing) still hold.

1. Scale the set's source weights (1 per stop when unweighted) so the smallest is at least
   RESOLUTION; the game is unchanged.
2. A knob: one integer `delta` added to the weight of every stop whose own symbol is a filler
   (the lowest-paying plain regular symbols: not wild, scatter, bonus, cash or collector).
   Heavier fillers dilute everything that pays more, so the RTP falls as `delta` rises. The
   first knob is the lowest pay tier alone (Cluedo: ROPE and WRENCH; Cops n Robbers: TEN;
   Fortune Spins: BLANK); if the target is out of its reach, the next tier joins it, up to
   half of the plain symbols. A knob stop never weighs less than 1/MAX_FACTOR or more than
   MAX_FACTOR times its source weight, which bounds how far the feel can drift.
3. Bracket the target with a Newton step from 0 (slope from a small probe), a little beyond,
   doubling while the sign holds; then close in on the integer by the Illinois variant of
   false position (bisection whenever it stalls), one exact analysis per step, until the RTP
   is within AIM of the target or the bracket is one integer wide: 5 to 13 analyses in the
   shipped games. One unit of `delta` moves the RTP by 1e-7 to 3e-7 there, a thirtieth of the
   tolerance or less, so no second, finer knob is needed.
4. The result is checked again from scratch: every tuned mode's exact RTP within TOLERANCE.

The feel, source against tuned, per tuned mode: hit frequency (simulated, 95% CI), free-game
and bonus frequency (exact), standard deviation per round (simulated, multiples of what a
round costs), each checked against BANDS (relative change).

Simulated games (cluster pays, no exact analysis) will plug in as another `Solver`: the same
knobs, text rewriting and feel report; the solver gets the game at any `delta` (`spec_at`)
and estimates its RTP by Monte Carlo with a root finder made for noisy values (common random
numbers across `delta`, shrinking steps, a final run whose 95% CI lies inside the band), and
its own tolerance replaces TOLERANCE. `tune_spec` takes the solver as an argument for that.
"""

from __future__ import annotations

import dataclasses
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import play_rounds
from reelforge.analysis.stats import Z95, Stats
from reelforge.engine.game import LineGame
from reelforge.engine.rng import chunk_generator
from reelforge.errors import InvalidArgument
from reelforge.spec import GAME_ID_RULE, parse_spec, valid_game_id
from reelforge.spec.model import GameSpec, ReelSetSpec

TOLERANCE = 1e-5  # |exact RTP - target|, absolute: 0.001 percentage points
AIM = TOLERANCE / 100  # the search stops this close
RESOLUTION = 1_000_000  # the smallest source weight is scaled to at least this
MAX_FACTOR = 4  # a knob stop weighs 1/4 .. 4 times its source weight
WEIGHT_LIMIT = 2**32 - 1  # a reel's weights sum to at most this (spec rule)
MAX_STEPS = 200  # exact analyses per knob; the search needs about 15
# Feel bands: largest relative change from the source, per figure.
BANDS = {"hit frequency": 0.15, "free-game frequency": 0.25, "bonus frequency": 0.25,
         "standard deviation": 0.25}


# `reelforge.progress.Tasks`, spelled out: the analysis layer imports nothing of terminals
Tasks = Callable[[str, float | None], Callable[[float], None]]
FEEL_PIECE = 250_000  # rounds per piece of a feel run: the bar moves about once a second


def _no_step(amount: float = 1) -> None:
    return None


# -- knobs -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Knob:
    """One integer parameter over one reel set's weights: a stop whose own symbol is in
    `symbols` weighs `scale * w + delta`, any other `scale * w` (w: its source weight).
    `delta = 0` is the source game; `low .. high` keeps every knob stop within MAX_FACTOR of
    its source and every reel's sum within WEIGHT_LIMIT."""

    reel_set: str
    symbols: tuple[str, ...]
    scale: int
    source: tuple[tuple[int, ...], ...]  # source weights, 1 per stop when unweighted
    strips: tuple[tuple[str, ...], ...]
    low: int
    high: int

    def weights(self, delta: int) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(self.scale * w + (delta if s in self.symbols and w else 0)
                           for s, w in zip(strip, ws))
                     for strip, ws in zip(self.strips, self.source))


def filler_tiers(spec: GameSpec, reel_set: str) -> list[tuple[str, ...]]:
    """The set's plain regular symbols grouped by what they pay (line pays, mixed pays), lowest
    first; plain: not wild, scatter, bonus, cash or collector."""
    cash = spec.cash
    special = {w.symbol for w in spec.wilds} | {s.symbol for s in spec.scatters}
    if cash is not None:
        special |= set(cash.symbols) | ({cash.collector} if cash.collector else set())
    shown = {s for strip in spec.reel_set(reel_set).strips for s in strip}
    pays = {sid: sum(p for _, p in counts) for sid, counts in spec.paytable}
    for group in spec.mixed:
        for sid in group.symbols:
            pays[sid] = pays.get(sid, 0) + sum(p for _, p in group.pays)
    plain = [s.id for s in spec.symbols
             if s.role == "regular" and s.id in shown and s.id not in special]
    values = sorted({pays.get(s, 0) for s in plain})
    return [tuple(s for s in plain if pays.get(s, 0) == v) for v in values]


def knobs(spec: GameSpec, reel_set: str) -> list[Knob]:
    """The knobs to try, in order: the lowest pay tier, then each next tier added, up to half
    of the plain symbols."""
    rs = spec.reel_set(reel_set)
    source = rs.weights or tuple((1,) * len(s) for s in rs.strips)
    smallest = min(w for ws in source for w in ws if w)
    largest = max(sum(ws) for ws in source)
    scale = max(1, min(math.ceil(RESOLUTION / smallest), WEIGHT_LIMIT // (MAX_FACTOR * largest)))
    tiers, out = filler_tiers(spec, reel_set), []
    chosen: tuple[str, ...] = ()
    half = math.ceil(sum(len(t) for t in tiers) / 2)
    for tier in tiers:
        if chosen and len(chosen) + len(tier) > half:
            break
        chosen += tier
        on = [[scale * w for s, w in zip(strip, ws) if s in chosen and w]
              for strip, ws in zip(rs.strips, source)]
        stops = [w for reel in on for w in reel]
        if not stops:
            continue
        room = min((WEIGHT_LIMIT - scale * sum(ws)) // len(reel)
                   for ws, reel in zip(source, on) if reel)
        out.append(Knob(reel_set, chosen, scale, source, rs.strips,
                        low=-min(w - w // MAX_FACTOR for w in stops),
                        high=min(room, min(w * (MAX_FACTOR - 1) for w in stops))))
    return out


def with_weights(spec: GameSpec, reel_set: str, weights: tuple[tuple[int, ...], ...]) -> GameSpec:
    sets = tuple(ReelSetSpec(rs.name, rs.strips, weights) if rs.name == reel_set else rs
                 for rs in spec.reel_sets)
    return dataclasses.replace(spec, reel_sets=sets)


def exact_rtp(spec: GameSpec, mode: str) -> float:
    """Exact RTP per cost at max bet (the bet of `analyze` and the PAR sheet)."""
    game = LineGame.from_spec(spec)
    return float(analyze(game, game.bet(mode=mode)).rtp)


# -- the exact solver ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Solution:
    delta: int | None  # None: out of this knob's reach
    rtp: float  # at delta, or the RTP nearest the target seen
    evaluations: int
    reach: tuple[float, float]  # lowest and highest RTP seen


# (the game at a delta, the mode, the knob, the target) -> Solution
Solver = Callable[[Callable[[int], GameSpec], str, Knob, float], Solution]


def solve_exact(spec_at: Callable[[int], GameSpec], mode: str, knob: Knob,
                target: float) -> Solution:
    """The knob's delta for `target`, one exact analysis of `mode` per step."""
    return find_delta(lambda d: exact_rtp(spec_at(d), mode), knob, target)


def find_delta(rtp_at: Callable[[int], float], knob: Knob, target: float) -> Solution:
    """The integer delta in knob.low .. knob.high whose RTP is within AIM of `target` (or the
    nearest integer), by doubling steps to a bracket, then Illinois false position."""
    seen: dict[int, float] = {}

    def f(d: int) -> float:
        if d not in seen:
            if len(seen) >= MAX_STEPS:
                raise InvalidArgument(f"tune: no convergence after {MAX_STEPS} exact analyses")
            seen[d] = rtp_at(d) - target
        return seen[d]

    def done(d: int | None) -> Solution:
        best = min(seen, key=lambda d: abs(seen[d]))
        values = [v + target for v in seen.values()]
        rtp = seen[best if d is None else d] + target
        return Solution(d, rtp, len(seen), (min(values), max(values)))

    if abs(f(0)) <= AIM:
        return done(0)
    step = max(1, min(knob.high, -knob.low) // 64)
    probe = step if knob.high >= step else -step
    slope = (f(probe) - f(0)) / probe
    if slope == 0:
        return done(None)
    direction = 1 if (f(0) > 0) == (slope < 0) else -1
    first = max(step, round(1.25 * abs(f(0) / slope)))  # a Newton step, a little beyond
    a, b = 0, 0
    while (f(a) > 0) == (f(b) > 0):
        limit = knob.high if direction > 0 else knob.low
        if b == limit or (b != a and abs(f(b)) >= abs(f(a))):  # at the edge, or turned back
            return done(None)
        a, b = b, direction * min(abs(limit), first if b == 0 else 2 * abs(b))
    fa, fb, side, widths = f(a), f(b), 0, [math.inf] * 3
    while abs(b - a) > 1:
        guess = round(b - fb * (b - a) / (fb - fa))
        stalled = abs(b - a) > widths[-3] / 2  # three steps have not halved the bracket
        widths.append(abs(b - a))
        m = guess if min(a, b) < guess < max(a, b) and not stalled else (a + b) // 2
        fm = f(m)
        if abs(fm) <= AIM:
            return done(m)
        if (fm > 0) == (fb > 0):  # m replaces b; if b was kept last time too, halve a's weight
            b, fb = m, fm
            fa, side = (fa / 2, 1) if side == 1 else (fa, 1)
        else:
            a, fa = m, fm
            fb, side = (fb / 2, -1) if side == -1 else (fb, -1)
    return done(min((a, b), key=lambda d: abs(seen[d])))


# -- tuning a spec --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModeTuning:
    mode: str
    reel_set: str
    symbols: tuple[str, ...]  # the knob's fillers
    scale: int
    delta: int
    source_rtp: float
    rtp: float
    evaluations: int


def tune_spec(spec: GameSpec, target: float, modes: tuple[str, ...] | None = None,
              solver: Solver = solve_exact, progress: Tasks | None = None,
              ) -> tuple[GameSpec, tuple[ModeTuning, ...]]:
    """The spec with each mode's own reel set reweighted so that mode's exact RTP is `target`.

    `progress(description, None)` is asked for one task per mode and told of each game the
    search builds (one exact analysis each); how many it needs is not known in advance."""
    if not 0 < target < 1:
        raise InvalidArgument(f"--rtp = {target!r}: a target RTP is a fraction below 1, e.g. 0.94")
    names = ("base",) + tuple(m.name for m in spec.modes)
    modes = modes or names
    for mode in modes:
        if mode not in names:
            raise InvalidArgument(f"--mode = {mode!r}: {spec.id} has modes {', '.join(names)}")
    sets = [spec.mode(m).reel_set for m in modes]
    if len(set(sets)) < len(sets):
        raise InvalidArgument(f"--mode: modes {', '.join(modes)} share a reel set; "
                              "tune one at a time")
    tuned, report = spec, []
    for mode, reel_set in zip(modes, sets):
        step = progress(f"{spec.id}: tuning mode {mode}, exact analyses", None) if progress else _no_step
        source_rtp = exact_rtp(tuned, mode)
        step(1)
        low, high, used = source_rtp, source_rtp, 0
        for knob in knobs(tuned, reel_set):
            def spec_at(delta: int, knob: Knob = knob, base: GameSpec = tuned,
                        step: Callable[[float], None] = step) -> GameSpec:
                step(1)
                return with_weights(base, knob.reel_set, knob.weights(delta))

            found = solver(spec_at, mode, knob, target)
            used += found.evaluations
            low, high = min(low, found.reach[0]), max(high, found.reach[1])
            if found.delta is not None and abs(found.rtp - target) <= TOLERANCE:
                tuned = with_weights(tuned, reel_set, knob.weights(found.delta))
                report.append(ModeTuning(mode, reel_set, knob.symbols, knob.scale, found.delta,
                                         source_rtp, found.rtp, used))
                break
        else:
            edge, value = ("lowest", low) if target < source_rtp else ("highest", high)
            raise InvalidArgument(
                f"--rtp = {target!r}: out of reach for {spec.id} mode {mode} (now "
                f"{source_rtp:.4%}): the {edge} RTP its filler weights reach is {value:.4%}")
    for row in report:  # from scratch: a later mode must not have moved an earlier one
        again = exact_rtp(tuned, row.mode)
        if abs(again - target) > TOLERANCE:
            raise InvalidArgument(f"tune: mode {row.mode} moved to {again:.6%} after tuning "
                                  "another mode (shared reels?); tune one mode at a time")
    return tuned, tuple(report)


# -- the tuned game file --------------------------------------------------------------------------
HEADER = re.compile(r"^[ \t]*\[\[?[A-Za-z_][\w.\-\" ]*\]\]?[ \t]*(#.*)?$", re.MULTILINE)


def variant_id(source_id: str, target: float) -> str:
    """cluedo-v1 at 0.94 -> cluedo-94-v1; cluedo-92-v1 at 0.965 -> cluedo-96p5-v1."""
    stem = re.sub(r"(-\d+(p\d+)?)?-v\d+$", "", source_id)
    label = f"{round(target * 100, 6):g}".replace(".", "p")
    return f"{stem}-{label}-v1"


def _reel_block(rs: ReelSetSpec) -> str:
    rows = [f"[reels.{rs.name}]", "strips = ["] + [f'  "{" ".join(s)}",' for s in rs.strips] + ["]"]
    if rs.weights is not None:
        rows += ["weights = ["] + [f"  [{', '.join(map(str, w))}]," for w in rs.weights] + ["]"]
    return "\n".join(rows) + "\n"


def replace_reel_set(text: str, rs: ReelSetSpec, source: str) -> str:
    """`text` with its [reels.NAME] table rewritten; comments and blank lines after it stay."""
    found = re.search(rf"^\[reels\.{re.escape(rs.name)}\][ \t]*(#.*)?$", text, re.MULTILINE)
    if found is None:
        raise InvalidArgument(f"{source}: no [reels.{rs.name}] table to rewrite "
                              "(tune rewrites reel sets written as [reels.NAME] tables)")
    after = HEADER.search(text, found.end())
    end = after.start() if after else len(text)
    body = text[found.start():end]
    kept = re.search(r"(\n([ \t]*(#[^\n]*)?\n)*)$", body)  # trailing blank and comment lines
    tail = kept.group(0)[1:] if kept else ""
    return text[:found.start()] + _reel_block(rs) + tail + text[end:]


def relabel(text: str, source, new_id: str, target: float) -> str:
    """The game file's text with the new id and the RTP named in its description (if any)."""
    text, n = re.subn(r'^(id[ \t]*=[ \t]*)"[^"\n]*"', rf'\g<1>"{new_id}"', text, count=1,
                      flags=re.MULTILINE)
    if n != 1:
        raise InvalidArgument(f"{source.source}: no id = \"...\" line in [game] to rewrite")
    return re.sub(r'^(description[ \t]*=.*)RTP \d+(\.\d+)?%', rf"\g<1>RTP {target:.2%}", text,
                  count=1, flags=re.MULTILINE)


def tuned_text(text: str, source: GameSpec, tuned: GameSpec, new_id: str, target: float,
               report: tuple[ModeTuning, ...], command: str) -> str:
    """The source file's text with a new id, the RTP in its description, the tuned reel sets
    rewritten and a header saying how it was made."""
    for row in report:
        text = replace_reel_set(text, tuned.reel_set(row.reel_set), source.source)
    text = relabel(text, source, new_id, target)
    lines = [f"# Tuned variant {new_id} of {source.id}, written by", f"#   {command}",
             "# Only these reel weights differ from the source (exact RTP per mode, max bet):"]
    for r in report:
        sign = "-" if r.delta < 0 else "+"
        lines.append(f"#   [reels.{r.reel_set}] ({r.mode}, {r.source_rtp:.6%} -> {r.rtp:.6%}): "
                     f"stops showing {', '.join(r.symbols)}")
        lines.append(f"#     weigh {r.scale} x source {sign} {abs(r.delta)}, "
                     f"the others {r.scale} x source")
    return "\n".join(lines) + "\n#\n" + text


def check_only_reels_changed(source: GameSpec, tuned: GameSpec) -> None:
    """Raise unless `tuned` is `source` with other reel weights (same strips), another id and
    description."""
    same = dataclasses.replace(tuned, id=source.id, source=source.source,
                               reel_sets=source.reel_sets)
    strips = [rs.strips for rs in tuned.reel_sets] == [rs.strips for rs in source.reel_sets]
    names = [rs.name for rs in tuned.reel_sets] == [rs.name for rs in source.reel_sets]
    if same != source or not strips or not names:
        raise InvalidArgument(f"tune: the rewritten {source.source} differs in more than "
                              "reel weights")


@dataclass(frozen=True)
class Tuning:
    source: GameSpec
    spec: GameSpec  # the tuned game, parsed back from `text`
    text: str
    modes: tuple[ModeTuning, ...]
    seconds: float  # search and checks, wall clock


def tune_text(text: str, source_name: str, target: float, new_id: str | None = None,
              modes: tuple[str, ...] | None = None, command: str = "reelforge tune",
              progress: Tasks | None = None) -> Tuning:
    """Tune the game file `text` to `target`; the new file's text, parsed and checked."""
    start = time.perf_counter()
    if new_id is not None and not valid_game_id(new_id):
        raise InvalidArgument(f"--id = {new_id!r}: not a game id ({GAME_ID_RULE}), like "
                              "'cluedo-94-v1'")
    source = parse_spec(text, source_name)
    new_id = new_id or variant_id(source.id, target)
    if new_id == source.id:
        raise InvalidArgument(f"--id = {new_id!r}: the tuned game needs an id of its own")
    spec, report = tune_spec(source, target, modes, progress=progress)
    out = tuned_text(text, source, spec, new_id, target, report, command)
    parsed = parse_spec(out, f"<tuned {new_id}>")
    check_only_reels_changed(source, parsed)
    for row in report:
        if abs(exact_rtp(parsed, row.mode) - target) > TOLERANCE:
            raise InvalidArgument(f"tune: the written {new_id} misses {target:.4%} "
                                  f"in mode {row.mode}")
    return Tuning(source, parsed, out, report, time.perf_counter() - start)


# -- feel ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FeelRow:
    mode: str
    figure: str  # a key of BANDS
    source: float
    tuned: float
    source_ci: tuple[float, float] | None  # 95%, simulated figures only
    tuned_ci: tuple[float, float] | None
    band: float

    @property
    def change(self) -> float:
        return self.tuned / self.source - 1

    @property
    def passed(self) -> bool:
        return abs(self.change) <= self.band


def _feel(spec: GameSpec, mode: str, rounds: int, seed: int, played: Callable[[float], None]) -> dict:
    game = LineGame.from_spec(spec)
    bet = game.bet(mode=mode)
    exact = analyze(game, bet)
    rng, stats = chunk_generator(seed, 0), Stats.empty()
    for start in range(0, rounds, FEEL_PIECE):  # one stream, played on in pieces: the same rounds
        piece = min(FEEL_PIECE, rounds - start)
        stats = stats.merge(play_rounds(game, bet, rng, piece))
        played(piece)
    p = stats.hit_frequency
    half = Z95 * math.sqrt(p * (1 - p) / stats.rounds)
    return {"hit frequency": (p, (p - half, p + half)),
            "free-game frequency": (exact.feature_probability, None),
            "bonus frequency": (exact.bonus_probability, None),
            "standard deviation": (stats.standard_deviation, None)}


def compare_feel(tuning: Tuning, rounds: int = 2_000_000, seed: int = 1,
                 progress: Tasks | None = None) -> list[FeelRow]:
    """Source against tuned, per tuned mode, on the same seed: figures the source has (a zero
    frequency, a feature the game lacks, is left out). `progress` gets one task over every
    round simulated."""
    played: Callable[[float], None] = _no_step
    if progress is not None:
        played = progress(f"{tuning.spec.id}: feel, {len(tuning.modes) * 2} x {rounds:,} rounds",
                          2 * rounds * len(tuning.modes))
    rows = []
    for row in tuning.modes:
        before = _feel(tuning.source, row.mode, rounds, seed, played)
        after = _feel(tuning.spec, row.mode, rounds, seed, played)
        for figure, band in BANDS.items():
            (s, s_ci), (t, t_ci) = before[figure], after[figure]
            if s > 0:
                rows.append(FeelRow(row.mode, figure, s, t, s_ci, t_ci, band))
    return rows
