"""PAR sheet: one game at one bet as a self-contained HTML page and a JSON file.

Exact figures come from `exact.analyze` (RTP and its breakdown), `moments.exact_moments`
(standard deviation, volatility index and the maximum win per round) and
`free_games.free_spin_distribution`; the rest from one Monte Carlo run, played with
`play_rounds` on the same streams as `simulate` (chunk i of DEFAULT_CHUNK rounds on
`chunk_generator(seed, i)`), split into pieces so the running RTP is read at 40 geometric
checkpoints and the SD's confidence interval comes from batches of BATCH rounds. Splitting a
stream does not change its rounds, so the merged Stats equal `simulate(game, bet, rounds,
seed)` bit for bit. Volatility index: VI = 1.645 x SD per round (90% confidence: two-sided
z = 1.645).

Units: every amount in the JSON has an entry in its `units` map (key paths, list items as
`[]`, `*` for any run of characters); every HTML table names the unit of each amount in its
header or value.

This module builds the figures; `par_rules` words the rules, `par_html` draws the page and
writes the files, `par_units` holds the units every sheet shares.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime

import numpy as np

from reelforge import __version__
from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import DEFAULT_CHUNK, play_rounds
from reelforge.analysis.par_rules import PAIRS, _reels, _wild_rule, rules_in_words
from reelforge.analysis.par_units import UNITS, VI_DEFINITION, _binomial_ci, _clean, _one_in
from reelforge.analysis.stats import Z95, Stats
from reelforge.engine.outcome import Bet
from reelforge.engine.rng import chunk_generator
from reelforge.errors import ReelforgeError

VI_Z = 1.645
BATCH = 10_000  # rounds per batch for the simulated SD's confidence interval

Tasks = Callable[[str, "float | None"], Callable[[float], None]]


def _play(game, bet: Bet, rounds: int, seed: int, points: int = 40, batch: int = BATCH,
          advance: Callable[[float], None] | None = None):
    """(merged Stats, [[rounds, running RTP], ...], [Stats of each full batch]) of one run."""
    checks = {round(x) for x in np.geomspace(min(1000, rounds), rounds, points)}
    ends = sorted(checks | set(range(DEFAULT_CHUNK, rounds, DEFAULT_CHUNK))
                  | set(range(batch, rounds + 1, batch)) | {rounds})
    total, batch_stats, done, curve, batches = Stats.empty(), Stats.empty(), 0, [], []
    rng = chunk_generator(seed, 0)
    for end in ends:  # every piece lies inside one chunk and one batch
        if done % DEFAULT_CHUNK == 0:
            rng = chunk_generator(seed, done // DEFAULT_CHUNK)
        piece = play_rounds(game, bet, rng, end - done)
        total, batch_stats = total.merge(piece), batch_stats.merge(piece)
        if advance is not None:
            advance(end - done)
        done = end
        if end % batch == 0:
            batches.append(batch_stats)
            batch_stats = Stats.empty()
        if end in checks:
            curve.append([end, total.rtp])
    return total, curve, batches


def run_with_checkpoints(game, bet: Bet, rounds: int, seed: int, points: int = 40):
    """(merged Stats, [[rounds, running RTP], ...]) of one run, as `simulate` would play it."""
    total, curve, _ = _play(game, bet, rounds, seed, points)
    return total, curve


def sd_interval(total: Stats, batches: list[Stats]) -> list[float] | None:
    """95% CI of the SD per round from batch variances (their mean's normal approximation,
    then the square root); None below 10 batches. Approximate: with rare huge wins the batch
    variances are skewed and the interval is too narrow, so it is a check, not a bound."""
    if len(batches) < 10 or total.rounds == 0:
        return None
    variances = np.array([b.standard_deviation ** 2 for b in batches])
    half = Z95 * variances.std(ddof=1) / math.sqrt(len(variances))
    var = total.standard_deviation ** 2
    return [math.sqrt(max(var - half, 0.0)), math.sqrt(var + half)]


def exact_moments_figures(game, bet: Bet) -> dict:
    """SD, VI and maximum win from `moments.exact_moments`, per cost of a round; where no
    exact method applies, {"available": False, "reason": ...}."""
    try:
        from reelforge.analysis.moments import exact_moments
    except ModuleNotFoundError as exc:
        if exc.name != "reelforge.analysis.moments":
            raise
        return {"available": False, "reason": "the exact moments module is not installed"}
    try:
        mo = exact_moments(game, bet)
    except ReelforgeError as exc:  # NotExact: the reason is its message
        return {"available": False, "reason": str(exc)}
    # ExactMoments' ratios are per cost (stake x mode price), as every figure of this sheet
    return {"available": True, "label": mo.sd_label, "method": mo.method, "seconds": mo.seconds,
            "standard_deviation": mo.round_standard_deviation,
            "volatility_index": mo.volatility_index(),
            "base_standard_deviation": mo.base_standard_deviation,
            "base_volatility_index": mo.base_volatility_index(),
            "round_mean": mo.round_mean, "base_mean": mo.base_mean,
            "max_round_win": mo.max_round_win, "max_round_win_note": mo.max_round_win_note,
            "max_base_win": int(mo.max_base_win)}


def _max_win(moments: dict, stats: Stats, cap: int, cost: int) -> dict:
    out = {"cost_credits": cost, "seen_credits": stats.max_win, "seen_x": stats.max_win / cost,
           "cap_credits": cap or None, "cap_x": cap / cost if cap else None,
           "label": "exact" if moments["available"] else "not available"}
    if moments["available"]:
        top, base = moments["max_round_win"], moments["max_base_win"]
        # None: unlimited retriggers that can win for ever, only the engine's guard stops them
        out.update(theoretical_credits=top, theoretical_x=None if top is None else top / cost,
                   theoretical_note=moments["max_round_win_note"], base_spin_credits=base,
                   base_spin_x=base / cost, method=moments["method"])
    else:
        out.update(theoretical_credits=None, theoretical_x=None, base_spin_credits=None,
                   base_spin_x=None, reason=moments["reason"])
    return out


def jackpot_rtp(game, bet: Bet, result) -> dict | None:
    """The progressive jackpot as RTP figures per cost of a round, at the bet's denomination
    (default: the smallest, as everywhere else) and at each denomination.

    Assumed, as a test lab reads a progressive: the seed is the operator's money, put in the
    pool at the start and again after every win, not taken from the players' contributions;
    the pool pays everything it holds (seed plus every contribution since the last win), with
    no cap, reserve or diverted share. Then in the long run the jackpot pays per round the
    contributions of that round plus seed x P(jackpot): contribution RTP = the contribution
    rate, seed RTP = seed x expected jackpot wins per round / cost of the round in currency.
    The seed's share depends on the denomination (the same pool for every stake in currency).
    """
    jp = game.spec.jackpot
    if jp is None:
        return None
    from reelforge.engine.round import jackpot_eligible

    cost = game.price(bet)
    eligible = jackpot_eligible(game, bet)
    rate = jp.contribution_bp / 10_000 * bet.total / cost if eligible else 0.0
    prob = result.jackpot_probability if eligible else 0.0

    def split(denomination: int) -> dict:
        seed_rtp = jp.seed_amount * prob / (cost * denomination)
        return {"denomination": denomination, "stake_minor": bet.total * denomination,
                "base_rtp": result.rtp, "contribution_rtp": rate, "seed_rtp": seed_rtp,
                "total_rtp": result.rtp + rate + seed_rtp}

    here = split(bet.denomination or game.spec.bet.denominations[0])
    return {"label": "exact", **here, "eligible": eligible, "seed_minor": jp.seed_amount,
            "contribution_bp": jp.contribution_bp, "probability": prob, "one_in": _one_in(prob),
            "by_denomination": [split(d) for d in game.spec.bet.denominations],
            "assumption": "The seed is the operator's money, put in the pool at the start and "
                          "after every win, not funded from contributions; the pool pays all it "
                          "holds (seed + every contribution since the last win), with no cap or "
                          "reserve. Long-run jackpot payout per round = contributions + seed x "
                          "P(jackpot). Base RTP excludes the jackpot (the pool pays it, in "
                          "currency, never in credits)."}


def free_spins_figures(game, bet: Bet, result) -> dict | None:
    from reelforge.analysis.free_games import free_spin_distribution

    try:
        dist = free_spin_distribution(game, bet)
    except ReelforgeError as exc:
        return {"available": False, "reason": str(exc)}
    if dist is None:
        return None
    return {"available": True, **dist.to_dict(), "expected_free_spins": result.mean_free_spins}


def build_par(game, bet: Bet, rounds: int, seed: int, ref: str | None = None,
              tasks: Tasks | None = None) -> dict:
    """Every figure of the PAR sheet, JSON-ready; `ref` is the game as named on the command
    line; `tasks` (optional) starts a progress task and returns its advance callback."""
    spec = game.spec
    result = analyze(game, bet)
    bet = result.bet
    cost = game.price(bet)
    moments = exact_moments_figures(game, bet)
    advance = tasks(f"{spec.id}: simulating", rounds) if tasks else None
    stats, curve, batches = _play(game, bet, rounds, seed, advance=advance)
    awards = result.award_table()
    pays = {s: dict(p) for s, p in spec.paytable}
    top = max(awards, key=lambda a: (pays.get(a["symbol"], {}).get(a["count"], 0), -a["per_round"]),
              default=None)
    sim = stats.to_dict()
    sim["hit_frequency_ci95"] = _binomial_ci(stats.hits, stats.rounds)
    sim["feature_frequency_ci95"] = _binomial_ci(stats.feature_triggers, stats.rounds)
    sim["win_distribution_ci95"] = [_binomial_ci(b, stats.rounds) for b in stats.bands]
    sd_ci = sd_interval(stats, batches)
    sim.update(standard_deviation_ci95=sd_ci, volatility_index=VI_Z * stats.standard_deviation,
               volatility_index_ci95=None if sd_ci is None else [VI_Z * x for x in sd_ci],
               sd_batches=len(batches), sd_batch_rounds=BATCH)
    fg, jp = spec.free_games, spec.jackpot
    reproduce = ["reelforge", "par", ref or spec.id, "--rounds", str(rounds), "--seed", str(seed),
                 "--lines", str(bet.lines), "--bet-per-line", str(bet.bet_per_line)]
    if bet.mode != "base":
        reproduce += ["--mode", bet.mode]
    figures = {
        "game_id": spec.id, "game_name": spec.name, "description": spec.description,
        "bet": {"lines": bet.lines, "bet_per_line": bet.bet_per_line, "total": bet.total,
                "mode": bet.mode, "price": cost},
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "reelforge_version": __version__, "rounds": rounds, "seed": seed,
        "reproduce": reproduce,
        "exact": {"label": "exact", **result.to_dict()},
        "exact_figures": {
            "free_game_trigger_1_in": _one_in(result.feature_probability),
            "mean_free_spins": result.mean_free_spins if result.feature_probability else None,
            "jackpot_1_in": _one_in(result.jackpot_probability),
            "top_award": None if top is None else {
                **top, "pay_per_line": pays.get(top["symbol"], {}).get(top["count"], 0),
                "one_in": _one_in(top["per_round"])},
        },
        "moments": moments,
        "max_win": _max_win(moments, stats, game.model_for(bet).cap, cost),
        "jackpot_rtp": jackpot_rtp(game, bet, result),
        "free_spin_distribution": free_spins_figures(game, bet, result),
        "simulated": {"label": f"simulated ({rounds} rounds, seed {seed}, 95% CI)", **sim},
        "volatility_index": VI_Z * stats.standard_deviation,
        "volatility_definition": VI_DEFINITION,
        "reels": _reels(spec),
        "paytable": [{"symbol": s.id, "name": s.name, "role": s.role,
                      "pays": dict(sorted(pays[s.id].items()))}
                     for s in spec.symbols if s.id in pays],
        "scatters": [{**asdict(sc), "pays": dict(sc.pays)} for sc in spec.scatters],
        "paylines": spec.paylines,
        "wilds": [{**asdict(w), "substitutes": sorted(w.substitutes), "rule": _wild_rule(spec, w)}
                  for w in spec.wilds],
        "wild_multiplier_combine": spec.wild_multiplier_combine,
        "pure_wild_vs_substituted": spec.pure_wild_vs_substituted,
        "wild_draws": None if spec.wild_draws is None else {
            "combine": spec.wild_draws.combine,
            "weights": {name: dict(table) for name, table in spec.wild_draws.tables},
            "sticky": list(spec.wild_draws.sticky), "redrawn": list(spec.wild_draws.redrawn)},
        "free_games": None if fg is None else {k: dict(v) if k in PAIRS else v
                                               for k, v in asdict(fg).items()},
        "jackpot": None if jp is None else asdict(jp),
        "rules": rules_in_words(game, bet),
        "convergence": curve,
        "units": UNITS,
    }
    return _clean(figures)


# -- rules in words and tables ------------------------------------------------------------------
