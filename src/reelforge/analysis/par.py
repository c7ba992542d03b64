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
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import re
import shlex
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from reelforge import __version__
from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import DEFAULT_CHUNK, play_rounds
from reelforge.analysis.stats import Z95, Stats
from reelforge.engine.outcome import Bet
from reelforge.engine.rng import chunk_generator
from reelforge.errors import ReelforgeError

VI_Z = 1.645
PAIRS = ("award", "retrigger_award", "multiplier_weights")  # (count or multiplier, value)
VI_DEFINITION = "VI = 1.645 x SD per round (90% confidence), in multiples of the cost of a round"
BATCH = 10_000  # rounds per batch for the simulated SD's confidence interval
# Free-spin distribution rows shown in the HTML: the rest (the far tail of unlimited
# retriggers) is summed into one row; the JSON keeps every row.
SHOWN_BELOW = 1e-9

Tasks = Callable[[str, "float | None"], Callable[[float], None]]

# -- units --------------------------------------------------------------------------------------
COST = "fraction of the cost of a round (x 100 = % RTP; cost = stake x mode price)"
STAKE = "fraction of the stake (total bet) (x 100 = %)"
X_COST = "multiples of the cost of a round"
P_ROUND = "probability per round"
UNITS: dict[str, str] = {
    "bet.lines": "lines", "bet.bet_per_line": "credits", "bet.total": "credits (the stake)",
    "bet.price": "credits (the cost of a round: stake x mode price)",
    "bet.denomination": "currency minor units per credit",
    "rounds": "rounds", "seed": "none (seed of the simulated run)",
    "exact.rtp": COST, "exact.base_lines": COST, "exact.base_scatter": COST,
    "exact.free_games": COST, "exact.base_collect": COST, "exact.bonus": COST,
    "exact.breakdown.*": COST, "exact.cap_loss_bound": COST,
    "exact.feature_probability": P_ROUND, "exact.bonus_probability": P_ROUND,
    "exact.mean_free_spins": "free spins per trigger", "exact.mean_bonus_spins": "spins per bonus",
    "exact.free_spins_per_round": "free spins per round",
    "exact.free_spin_rtp": "multiples of the stake per free spin",
    "exact.jackpot_probability": "expected jackpot wins per round",
    "exact.price": "stakes per round", "exact.base_hit_frequency": "probability per base spin",
    "exact.bet.lines": "lines", "exact.bet.bet_per_line": "credits",
    "exact.line_awards[].count": "symbols in the run", "exact.line_awards[].base_rtp": STAKE,
    "exact.line_awards[].free_games_rtp": STAKE,
    "exact.line_awards[].per_round": "expected awards per round",
    "exact.scatter_rtp_by_count[]": STAKE, "exact.line_hit_probability[]": "probability per base spin",
    "exact_figures.free_game_trigger_1_in": "rounds", "exact_figures.jackpot_1_in": "rounds",
    "exact_figures.mean_free_spins": "free spins per trigger",
    "exact_figures.top_award.count": "symbols in the run",
    "exact_figures.top_award.base_rtp": STAKE, "exact_figures.top_award.free_games_rtp": STAKE,
    "exact_figures.top_award.per_round": "expected awards per round",
    "exact_figures.top_award.pay_per_line": "multiples of the bet per line",
    "exact_figures.top_award.one_in": "rounds",
    "moments.standard_deviation": X_COST, "moments.base_standard_deviation": X_COST,
    "moments.volatility_index": X_COST, "moments.base_volatility_index": X_COST,
    "moments.round_mean": COST, "moments.base_mean": COST,
    "moments.seconds": "seconds (time to compute)", "moments.max_round_win": "credits",
    "moments.max_base_win": "credits",
    "max_win.theoretical_credits": "credits", "max_win.theoretical_x": X_COST,
    "max_win.base_spin_credits": "credits", "max_win.base_spin_x": X_COST,
    "max_win.cap_credits": "credits", "max_win.cap_x": X_COST,
    "max_win.seen_credits": "credits", "max_win.seen_x": X_COST,
    "max_win.cost_credits": "credits (the cost of a round)",
    "jackpot_rtp.*_rtp": COST, "jackpot_rtp.denomination": "currency minor units per credit",
    "jackpot_rtp.seed_minor": "currency minor units", "jackpot_rtp.contribution_bp": "basis points",
    "jackpot_rtp.stake_minor": "currency minor units",
    "jackpot_rtp.probability": "expected jackpot wins per round",
    "jackpot_rtp.one_in": "rounds", "jackpot_rtp.mean_win_minor": "currency minor units",
    "jackpot_rtp.by_denomination[].denomination": "currency minor units per credit",
    "jackpot_rtp.by_denomination[].stake_minor": "currency minor units",
    "jackpot_rtp.by_denomination[].*_rtp": COST,
    "free_spin_distribution.spins[]": "free spins played per trigger",
    "free_spin_distribution.probability[]": "probability given a trigger",
    "free_spin_distribution.table[].spins": "free spins played per trigger",
    "free_spin_distribution.table[].probability": "probability given a trigger",
    "free_spin_distribution.tail_probability": "probability given a trigger",
    "free_spin_distribution.mean": "free spins per trigger",
    "free_spin_distribution.expected_free_spins": "free spins per trigger",
    "simulated.rounds": "rounds", "simulated.total_bet": "credits (the cost of a round)",
    "simulated.rtp": COST, "simulated.rtp_standard_error": COST, "simulated.rtp_ci95[]": COST,
    "simulated.breakdown.*": COST, "simulated.standard_deviation": X_COST,
    "simulated.standard_deviation_ci95[]": X_COST, "simulated.volatility_index": X_COST,
    "simulated.volatility_index_ci95[]": X_COST, "simulated.sd_batches": "batches",
    "simulated.sd_batch_rounds": "rounds per batch",
    "simulated.hit_frequency": P_ROUND, "simulated.hit_frequency_ci95[]": P_ROUND,
    "simulated.feature_frequency": P_ROUND, "simulated.feature_frequency_ci95[]": P_ROUND,
    "simulated.bonus_frequency": P_ROUND,
    "simulated.mean_feature_award": "multiples of the cost of a round per trigger",
    "simulated.mean_free_spins": "free spins per trigger",
    "simulated.mean_bonus_spins": "spins per bonus",
    "simulated.retriggers": "retriggers (count)", "simulated.jackpot_hits": "jackpot wins (count)",
    "simulated.cap_hits": "rounds", "simulated.spin_guard_hits": "rounds",
    "simulated.max_win": X_COST, "simulated.max_win_credits": "credits",
    "simulated.win_distribution.*": "rounds", "simulated.win_distribution_ci95[][]": P_ROUND,
    "volatility_index": X_COST,
    "reels.*.lengths[]": "stops", "reels.*.weights[][]": "stop weight (integer, relative)",
    "reels.*.counts.*[]": "stops", "reels.*.weight_totals.*[]": "stop weight (integer, relative)",
    "paytable[].pays.*": "multiples of the bet per line",
    "scatters[].pays.*": "multiples of the stake", "paylines[][]": "row (0 = top)",
    "wilds[].multiplier": "multiplier",
    "free_games.award.*": "free spins", "free_games.retrigger_award.*": "free spins",
    "free_games.max_total_spins": "free spins per bonus", "free_games.multiplier": "multiplier",
    "free_games.exempt[][]": "symbols in the run",
    "free_games.multiplier_weights.*": "weight (integer, relative)",
    "jackpot.count": "symbols in the run", "jackpot.line": "payline number (1-based)",
    "jackpot.seed_amount": "currency minor units", "jackpot.contribution_bp": "basis points",
    "convergence[][]": "[rounds, fraction of the cost of a round]",
    "rules[].tables[].rows[][]": "as named in the table's header",
}


def units_for(path: str, units: dict[str, str] | None = None) -> str | None:
    """The unit of a JSON key path (`a.b[].c`) in a units map (default: UNITS), whose keys
    are paths where `*` stands for any run of characters; None: no entry."""
    for pattern, unit in (UNITS if units is None else units).items():
        if re.fullmatch(re.escape(pattern).replace(r"\*", ".*"), path):
            return unit
    return None


def _clean(x):
    """JSON-ready: numpy to Python, non-finite floats to null."""
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_clean(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(x) else None
    return x


def _one_in(p):
    return 1 / p if p and p > 0 else None


def _binomial_ci(k: int, n: int) -> list[float]:
    p = k / n
    half = Z95 * math.sqrt(p * (1 - p) / n)
    return [max(p - half, 0.0), min(p + half, 1.0)]


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


def _reels(spec) -> dict:
    out = {}
    for rs in spec.reel_sets:
        counts = {s: [strip.count(s) for strip in rs.strips] for s in spec.symbol_ids}
        weights = None
        if rs.weights is not None:
            weights = {s: [sum(w for x, w in zip(strip, ws) if x == s)
                           for strip, ws in zip(rs.strips, rs.weights)] for s in spec.symbol_ids}
        out[rs.name] = {"strips": rs.strips, "lengths": [len(s) for s in rs.strips],
                        "weights": rs.weights, "counts": counts, "weight_totals": weights}
    return out


def _wild_rule(spec, w) -> str:
    others = {s for s in spec.symbol_ids if s != w.symbol}
    missing = sorted(others - set(w.substitutes))
    subs = "all" + (f" except {', '.join(missing)}" if missing else "") \
        if len(missing) < len(w.substitutes) else ", ".join(sorted(w.substitutes))
    return f"{w.symbol} substitutes for {subs}; multiplier x{w.multiplier}"


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
        "free_games": None if fg is None else {k: dict(v) if k in PAIRS else v
                                               for k, v in asdict(fg).items()},
        "jackpot": None if jp is None else asdict(jp),
        "rules": rules_in_words(game, bet),
        "convergence": curve,
        "units": UNITS,
    }
    return _clean(figures)


# -- rules in words and tables ------------------------------------------------------------------

def _name(spec, sid: str) -> str:
    for s in spec.symbols:
        if s.id == sid:
            return f"{s.name} ({sid})" if s.name and s.name != sid else sid
    return sid


def _section(title: str, text: list[str], *tables: tuple[str, list[str], list[list]]) -> dict:
    return {"title": title, "text": text,
            "tables": [{"caption": c, "head": h, "rows": r} for c, h, r in tables]}


def _share(weights: list[int]) -> list[str]:
    total = sum(weights)
    return [f"{100 * w / total:.4f}%" for w in weights]


def rules_in_words(game, bet: Bet) -> list[dict]:
    """The game's feature rules as sentences and tables (never raw data), one section each."""
    spec, m = game.spec, game.model_for(bet)
    out = []
    if spec.modes:
        rows = [["base", spec.base_reel_set, 1, "no"]] + [
            [md.name, md.reel_set, md.price, "yes" if md.collect else "no"] for md in spec.modes]
        out.append(_section("Modes", [
            "The base game can be played in one of these modes, chosen with the bet; a mode "
            "costs its price in stakes per round and every RTP of its sheet is per that cost."],
            ("Modes", ["mode", "reel set", "price (stakes per round)", "collectors collect"], rows)))
    for g in spec.mixed:
        out.append(_section(f"Mixed pay: {g.name}", [
            f"Any mix of {', '.join(_name(spec, s) for s in g.symbols)} in a run from the "
            "leftmost reel pays as one symbol, by its length; wilds complete it."],
            (f"Mixed pay {g.name}", ["run length (symbols)", "pay (x bet per line)"],
             [[c, p] for c, p in g.pays])))
    fg = spec.free_games
    if fg is not None:
        out.append(_free_game_section(spec, m, fg))
    jp = spec.jackpot
    if jp is not None:
        where = spec.paylines[jp.line - 1]
        elig = (f"only at max bet ({spec.bet.max_lines} lines x {spec.bet.max_bet_per_line} "
                f"credits = {game.max_bet.total} credits)" if jp.requires_max_bet else "at any bet")
        text = [f"The progressive jackpot is won by {jp.count} {_name(spec, jp.symbol)} on payline "
                f"{jp.line} (row {', '.join(map(str, where))} on reels 1 to {len(where)}, 0 = top), "
                f"{elig}"
                + (", in the base game and in every free spin of a bonus triggered at that bet."
                   if fg is not None else "."),
                "It is paid from the pool in currency, never in credits, and is not part of the "
                "base RTP. " + ("Below max bet the same combination pays its paytable award."
                                if jp.requires_max_bet else ""),
                f"The pool starts at the seed, {jp.seed_amount:,} currency minor units, and "
                f"grows by {jp.contribution_bp / 100:.2f}% of every eligible stake "
                f"({jp.contribution_bp} basis points)."]
        out.append(_section("Progressive jackpot", text, ("Progressive jackpot", ["parameter", "value"], [
            ["combination", f"{jp.count} x {jp.symbol} on payline {jp.line}"],
            ["eligible bets", elig],
            ["seed (currency minor units)", f"{jp.seed_amount:,}"],
            ["contribution (% of each eligible stake)", f"{jp.contribution_bp / 100:.2f}%"]])))
    cash = spec.cash
    if cash is not None:
        weights = [w for _, w in cash.values]
        who = (f"{_name(spec, cash.collector)} collects every value in view, once per "
               f"{cash.collector} in view" if cash.collector else "nothing collects them")
        mean = sum(v * w for v, w in cash.values) / sum(weights)
        out.append(_section("Cash values", [
            f"{', '.join(_name(spec, s) for s in cash.symbols)} carry a cash value, drawn by weight "
            "for every such symbol in view in a spin where a collector can collect; "
            f"{who}. Mean value {mean:.4f} x stake."],
            ("Cash values", ["value (x stake)", "weight", "probability"],
             [[v, w, p] for (v, w), p in zip(cash.values, _share(weights))])))
    tr = _trail_spec(spec)
    if tr is not None:
        out.append(_trail_section(spec, tr))
    if spec.gamble is not None:
        gb = spec.gamble
        out.append(_section("Gamble (red / black)", [
            f"After a round that won less than {gb.limit_credits:,} credits the player may gamble "
            "the win on the colour of a card, red or black, each 1/2: a right guess doubles the "
            f"amount at stake, a wrong one loses it. It ends after {gb.max_wins} wins in a row, "
            f"once the amount reaches {gb.limit_credits:,} credits, or when the player takes the "
            "win" + ("; before each guess the player may bank half (rounded down) once" if gb.take_half
                     else "") + ". Payback exactly 100% of the amount gambled; the jackpot "
            f"cannot be gambled. The last {gb.history_length} cards are shown."]))
    wg = spec.wheel_gamble
    if wg is not None:
        targets = [f"{n}/{d}" if d != 1 else f"{n}" for n, d in wg.cash_targets]
        out.append(_section("Wheel gamble", [
            "After a win the player may gamble it on one of two wheels, up to "
            f"{wg.limit_stake_multiple:,} stakes or {wg.limit_minor:,} currency minor units, "
            "whichever is lower. The cash wheel multiplies the amount by a target (table), "
            "rounded down to whole credits (and capped at the limit), won with probability "
            "amount / target exactly; the bonus wheel wins a trail bonus "
            "priced at its exact expected win, with probability amount / price. Payback "
            "exactly 100%; a loss loses the amount gambled."],
            ("Cash wheel targets", ["target (x amount gambled)",
                                    "win probability (where the target is whole credits)"],
             [[t, f"{d}/{n}" if n != d else "1"] for t, (n, d) in zip(targets, wg.cash_targets)])))
    return out


def _free_game_section(spec, m, fg) -> dict:
    trig = spec.scatters[[s.symbol for s in spec.scatters].index(fg.trigger)] \
        if fg.trigger in [s.symbol for s in spec.scatters] else None
    counting = "reels showing it" if trig is None or trig.counting == "reels" else "cells showing it"
    award, again = dict(fg.award), dict(fg.retrigger_award)
    counts = sorted(set(award) | set(again))
    text = [f"{_name(spec, fg.trigger)} counted by {counting}: a base spin with a count in the "
            f"table plays its free spins on the '{fg.reel_set}' reel set, at the triggering bet."]
    if fg.retrigger == "none" or not again:
        text.append("Free spins do not retrigger.")
    elif fg.retrigger == "unlimited":
        text.append("During free spins the same counts add the spins of the retrigger column, "
                    f"with no limit (a technical guard ends a bonus at {m.spin_guard:,} spins).")
    else:
        text.append("During free spins the same counts add the spins of the retrigger column, "
                    f"up to {fg.max_total_spins} free spins per bonus in total, the first award "
                    "included; a retrigger past the cap grants only the spins left to it.")
    exempt = ", ".join(f"{c} x {_name(spec, s)}" for s, c in fg.exempt)
    tables = [("Free games: spins by trigger count",
               ["trigger count", "first award (free spins)", "retrigger award (free spins)"],
               [[c, award.get(c, 0), again.get(c, 0) if fg.retrigger != "none" else 0]
                for c in counts])]
    if fg.multiplier_weights:
        ws = [w for _, w in fg.multiplier_weights]
        text.append("Before every free spin a multiplier is drawn by weight (table); it "
                    "multiplies every win of that spin, lines and scatters"
                    + (f", except {exempt} line awards, paid unmultiplied." if exempt else "."))
        tables.append(("Free-spin multiplier", ["multiplier", "weight", "probability"],
                       [[f"x{v}", w, p] for (v, w), p in zip(fg.multiplier_weights, _share(ws))]))
    else:
        text.append(f"Every win of a free spin, lines and scatters, is multiplied by {fg.multiplier}"
                    + (f", except {exempt} line awards, paid unmultiplied." if exempt else "."))
    return _section("Free games", text, *tables)


# What a rules' parsed [features] must carry to be described as a trail bonus (Cops n Robbers'
# TrailSpec): read by these field names, never by importing a game's package.
TRAIL_SPEC_FIELDS = ("trigger", "start_multiplier", "reel_set", "robber", "cop", "length",
                     "robber_start", "cop_start", "multipliers", "parade", "sid_pushback")


def _trail_spec(spec):
    """The trail bonus the spec's rules parsed from its [features], or None."""
    found = getattr(spec, "features", None)
    if found is None or not all(hasattr(found, name) for name in TRAIL_SPEC_FIELDS):
        return None
    return found


def _trail_section(spec, tr) -> dict:
    start = ", ".join(f"{c} {tr.trigger}: x{x}" for c, x in tr.start_multiplier)
    names = {"bert": "Bert: the bonus ends and pays what it collected",
             "sid": f"Sid: the cop is pushed back {tr.sid_pushback} positions, the bonus goes on",
             "vic": "Vic: the robber runs ahead to the next higher multiplier, the bonus goes on "
                    "(from the top multiplier, as Sid)"}
    ws = [w for _, w in tr.parade]
    text = [f"{tr.trigger} counted in view starts the trail bonus on the '{tr.reel_set}' reel set "
            f"with a starting multiplier ({start}). The trail has positions 0 to {tr.length - 1}; "
            f"the robber starts at {tr.robber_start}, the cop at {tr.cop_start}.",
            f"Each {_name(spec, tr.robber)} in view moves the robber one position and then "
            "collects every cash value in view at the multiplier of his position times the "
            f"starting multiplier; each {_name(spec, tr.cop)} moves the cop one position. Line "
            "wins of bonus spins pay at the triggering bet, unmultiplied.",
            "When the cop reaches the robber, the ID parade picks one of three by weight (table)."]
    return _section("Trail bonus", text,
                    ("Trail multipliers", ["from position", "multiplier"],
                     [[0, "x1"]] + [[p, f"x{x}"] for p, x in tr.multipliers]),
                    ("ID parade", ["pick", "weight", "probability"],
                     [[names.get(k, k), w, p] for (k, w), p in zip(tr.parade, _share(ws))]))


# -- plots and page ---------------------------------------------------------------------------

PLOTS_MISSING = "PAR sheet plots need the optional extra 'plots': pip install 'reelforge[plots]'"


def _figure(width: float, height: float):
    """A matplotlib Figure on its own Agg canvas (no pyplot state). matplotlib is an optional
    extra, imported here only: a server playing games never loads it."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ReelforgeError(PLOTS_MISSING) from None
    return Figure(figsize=(width, height))


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    return '<img src="data:image/png;base64,' + base64.b64encode(buf.getvalue()).decode() + '">'


def win_distribution_plot(sim: dict) -> str:
    """Rounds per win band (log scale) with their 95% CI bars, as an <img> tag."""
    fig = _figure(7, 3.2)
    ax = fig.add_subplot()
    labels, counts = list(sim["win_distribution"]), list(sim["win_distribution"].values())
    ci = np.array(sim["win_distribution_ci95"]) * sim["rounds"]
    err = np.clip([np.array(counts) - ci[:, 0], ci[:, 1] - np.array(counts)], 0, None)
    ax.bar(range(len(labels)), counts, yerr=err, capsize=2, color="#4c72b0")
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylim(bottom=0.5)
    ax.set(ylabel="rounds", xlabel="win, multiples of the cost of a round",
           title=f"Win distribution by band (simulated, {sim['rounds']:,} rounds, 95% CI bars)")
    return _png(fig)


def _plots(f: dict) -> list[str]:
    ex, sim = f["exact"], f["simulated"]
    fig = _figure(6, 3.2)
    ax = fig.add_subplot()
    keys = [k for k in SOURCES if ex[k]] + ["rtp"]
    names = [k.replace("_", " ") if k != "rtp" else "total" for k in keys]
    vals = [100 * (ex[k] or 0) for k in keys]
    ax.bar(names, vals, color=["#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974", "#333333"][-len(keys):])
    ax.bar_label(ax.containers[0], fmt="%.4f%%")
    ax.set(ylabel="RTP (% of the cost of a round)", title="RTP by source (exact)")
    plots = [_png(fig), win_distribution_plot(sim)]
    fig = _figure(7, 3.6)
    ax = fig.add_subplot()
    n = np.array([c[0] for c in f["convergence"]], dtype=float)
    rtp = np.array([np.nan if c[1] is None else 100 * c[1] for c in f["convergence"]])
    exact_sd = f["moments"]["available"]
    sd = f["moments"]["standard_deviation"] if exact_sd else sim["standard_deviation"] or 0
    half = 100 * Z95 * sd / np.sqrt(n)
    ax.fill_between(n, 100 * ex["rtp"] - half, 100 * ex["rtp"] + half, color="#c44e52", alpha=0.2,
                    label=f"exact ± 1.96·SD/√n (SD {'exact' if exact_sd else 'simulated'})")
    ax.axhline(100 * ex["rtp"], color="#c44e52", label=f"exact RTP {100 * ex['rtp']:.4f}%")
    ax.plot(n, rtp, "o-", ms=3, color="#4c72b0", label="running RTP (simulated)")
    ax.set_xscale("log")
    ax.set(xlabel="rounds played", ylabel="RTP (%)", title="RTP convergence (simulated vs exact)")
    ax.legend(fontsize=8)
    plots.append(_png(fig))
    return plots


def _e(x) -> str:
    return html.escape(str(x))


def _table(head, rows, caption="") -> str:
    cap = f"<caption>{_e(caption)}</caption>" if caption else ""
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_e('' if c is None else c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table>{cap}<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _pct(x, d=4) -> str:
    return "-" if x is None else f"{100 * x:.{d}f}%"


def _n(x, d=2) -> str:
    return "-" if x is None else f"1 in {x:,.{d}f}"


def _x(x, d=2) -> str:
    return "-" if x is None else f"{x:,.{d}f} x cost"


def _ci(ci, fmt) -> str:
    return "no CI (fewer than 10 batches)" if ci is None else f"95% CI {fmt(ci[0])} .. {fmt(ci[1])}"


STYLE = ("body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}"
         "table{border-collapse:collapse;margin:.6em 0 1.4em}td,th{border:1px solid #ccc;"
         "padding:2px 8px;font-size:13px;text-align:right}th{background:#eee}"
         "caption{text-align:left;font-weight:600;padding:4px 0}code{background:#f4f4f4;"
         "padding:2px 4px}img{margin:.5em;border:1px solid #ddd}td:first-child{text-align:left}"
         "section.rules p{max-width:60em}")


NOT_EXACT = "not available (the reason is under the summary)"


def _summary(f: dict) -> list[tuple]:
    ex, sim, xf, mw = f["exact"], f["simulated"], f["exact_figures"], f["max_win"]
    top = xf["top_award"]
    (rlo, rhi), (hlo, hhi) = sim["rtp_ci95"], sim["hit_frequency_ci95"]
    spins, jackpot = xf["mean_free_spins"], xf["jackpot_1_in"]
    mo = f["moments"]
    na = None if mo["available"] else NOT_EXACT
    rows = [
        ("RTP (without progressive)", _pct(ex["rtp"], 6), "% of cost", "exact"),
        ("RTP", f"{_pct(sim['rtp'])} (95% CI {_pct(rlo)} .. {_pct(rhi)})", "% of cost", "simulated"),
    ]
    jr = f["jackpot_rtp"]
    if jr:
        rows.append(("RTP with the progressive (base + contribution + seed)",
                     _pct(jr["total_rtp"], 6),
                     f"% of cost, at {jr['denomination']} minor units per credit", "exact"))
    if f["free_games"]:
        flo, fhi = (_n(_one_in(p)) for p in reversed(sim["feature_frequency_ci95"]))
        rows += [
            ("free-game trigger", _n(xf["free_game_trigger_1_in"]), "rounds", "exact"),
            ("free-game trigger", f"{_n(_one_in(sim['feature_frequency']))} (95% CI {flo} .. "
             f"{fhi})", "rounds", "simulated"),
            ("mean free spins per trigger", "-" if spins is None else f"{spins:.4f}",
             "free spins", "exact")]
    if ex.get("bonus_probability"):
        rows += [
            ("bonus trigger", _n(_one_in(ex["bonus_probability"])), "rounds", "exact"),
            ("bonus trigger", _n(_one_in(sim["bonus_frequency"])), "rounds", "simulated"),
            ("mean spins per bonus", f"{ex['mean_bonus_spins']:.4f}", "bonus spins", "exact")]
    rows += [
        ("jackpot", "none" if jackpot is None else _n(jackpot, 0), "rounds", "exact"),
        ("top award", "-" if top is None else f"{top['symbol']} x{top['count']} "
         f"({top['pay_per_line']} x bet per line): {_n(top['one_in'], 0)}", "rounds", "exact"),
        ("hit frequency of the base spin", "-" if ex.get("base_hit_frequency") is None
         else f"{_pct(ex['base_hit_frequency'], 6)}", "% of base spins", "exact"),
        ("hit frequency of the round", f"{_pct(sim['hit_frequency'])} (95% CI {_pct(hlo)} .. "
         f"{_pct(hhi)}, binomial normal)", "% of rounds", "simulated"),
        ("standard deviation per round", na or f"{mo['standard_deviation']:.4f}", "x cost",
         mo.get("label", "exact")),
        ("standard deviation per round", f"{sim['standard_deviation']:.4f} "
         f"({_ci(sim['standard_deviation_ci95'], _f4)})", "x cost", "simulated"),
        ("volatility index", na or f"{mo['volatility_index']:.4f}", f["volatility_definition"],
         mo.get("label", "exact")),
        ("volatility index", f"{sim['volatility_index']:.4f} "
         f"({_ci(sim['volatility_index_ci95'], _f4)})", "x cost", "simulated"),
        ("maximum win per round", na or _theoretical(mw), "credits, x cost", "exact"),
        ("largest win seen", f"{mw['seen_credits']:,} credits = {_x(mw['seen_x'])}",
         "credits, x cost", "simulated"),
    ]
    return rows


def _f4(v) -> str:
    return f"{v:.4f}"


UNBOUNDED_LABEL = "unbounded (guard only)"


def _theoretical(mw: dict) -> str:
    """The theoretical maximum round win as the sheet shows it."""
    if mw["theoretical_credits"] is None:
        return UNBOUNDED_LABEL
    return f"{mw['theoretical_credits']:,} credits = {_x(mw['theoretical_x'])}"


def _not_exact_note(f: dict) -> str:
    mo = f["moments"]
    if mo["available"]:
        return ""
    return f"<p>Exact SD, VI and maximum win: not available: {_e(mo['reason'])}</p>"


def _volatility_table(f: dict) -> str:
    mo, sim = f["moments"], f["simulated"]
    if not mo["available"]:
        return _table(["figure", "exact", "simulated (95% CI)"], [
            ("standard deviation per round (x cost)", NOT_EXACT,
             f"{sim['standard_deviation']:.4f} ({_ci(sim['standard_deviation_ci95'], _f4)})"),
            ("volatility index (x cost)", NOT_EXACT,
             f"{sim['volatility_index']:.4f} ({_ci(sim['volatility_index_ci95'], _f4)})")],
            "Standard deviation and volatility index")

    def inside(value, ci):
        return "-" if ci is None else ("yes" if ci[0] <= value <= ci[1] else "no")

    sd, vi = sim["standard_deviation_ci95"], sim["volatility_index_ci95"]

    fmt = _f4
    rows = [
        ("base spin: standard deviation (x cost)", fmt(mo["base_standard_deviation"]), "-", "-"),
        ("base spin: volatility index (x cost)", fmt(mo["base_volatility_index"]), "-", "-"),
        ("whole round: standard deviation (x cost)", fmt(mo["standard_deviation"]),
         f"{fmt(sim['standard_deviation'])} ({_ci(sd, fmt)})", inside(mo["standard_deviation"], sd)),
        ("whole round: volatility index (x cost)", fmt(mo["volatility_index"]),
         f"{fmt(sim['volatility_index'])} ({_ci(vi, fmt)})", inside(mo["volatility_index"], vi)),
        ("whole round: mean win (% of cost)", _pct(mo["round_mean"], 6), _pct(sim["rtp"]),
         inside(mo["round_mean"], sim["rtp_ci95"])),
    ]
    return (_table(["figure", "exact", "simulated (95% CI)", "exact inside the CI"], rows,
                   "Standard deviation and volatility index (exact, simulated as a check)")
            + f"<p>Exact method: {_e(mo['method'])} ({mo['seconds']:.2f} s). {_e(VI_DEFINITION)}. "
            f"The simulated SD's CI is from {sim['sd_batches']} batches of {sim['sd_batch_rounds']:,} "
            "rounds (normal approximation on the batch variances; heavy tails make it optimistic).</p>")


def _max_win_table(f: dict) -> str:
    mw = f["max_win"]
    na = None if mw.get("base_spin_credits") is not None else NOT_EXACT
    top = mw["theoretical_credits"]
    rows = [
        ("whole round, theoretical", na or (UNBOUNDED_LABEL if top is None else f"{top:,}"),
         "-" if na or top is None else _x(mw["theoretical_x"]), "exact"),
        ("base spin alone, theoretical", na or f"{mw['base_spin_credits']:,}",
         "-" if na else _x(mw["base_spin_x"]), "exact"),
        ("round cap of the game (the most any round pays)", "none" if not mw["cap_credits"]
         else f"{mw['cap_credits']:,}", "-" if not mw["cap_credits"] else _x(mw["cap_x"]),
         "game file"),
        ("largest seen", f"{mw['seen_credits']:,}", _x(mw["seen_x"]), "simulated"),
    ]
    return _table(["maximum win per round", "credits", "x cost", "basis"], rows,
                  f"Maximum win per round (cost {mw['cost_credits']:,} credits; progressive jackpot "
                  "excluded: the pool pays it)")


def _jackpot_html(f: dict) -> str:
    jr = f["jackpot_rtp"]
    if not jr:
        return ""
    d = jr["denomination"]
    rows = [("base game, without the jackpot", _pct(jr["base_rtp"], 6)),
            (f"contribution ({jr['contribution_bp']} bp of every eligible stake)",
             _pct(jr["contribution_rtp"], 6)),
            (f"seed ({jr['seed_minor']:,} minor units x P(jackpot), {_n(jr['one_in'], 0)} "
             f"rounds, / stake {jr['stake_minor']:,} minor units)", _pct(jr["seed_rtp"], 6)),
            ("total", _pct(jr["total_rtp"], 6))]
    by = [(r["denomination"], f"{r['stake_minor']:,}", _pct(r["seed_rtp"], 6), _pct(r["total_rtp"], 6))
          for r in jr["by_denomination"]]
    odds = "won " + _n(jr["one_in"], 0) + " rounds" if jr["eligible"] else "not eligible"
    text = (f"At this bet the jackpot is {odds}. "
            f"Its RTP, per cost of a round at {d} currency minor units per credit, is the contribution "
            "rate plus the seed's share: " + jr["assumption"])
    return ("<section class=\"rules\"><h2>Progressive jackpot as RTP</h2>"
            f"<p>{_e(text)}</p>"
            + _table(["part", "RTP (% of cost)"], rows,
                     f"RTP split at {d} minor units per credit (exact)")
            + _table(["denomination (minor units per credit)", "stake (minor units)",
                      "seed RTP (% of cost)",
                      "total RTP (% of cost)"], by, "The seed's share by denomination (exact)")
            + "</section>")


def _free_spins_html(f: dict) -> str:
    fd = f["free_spin_distribution"]
    if not fd:
        return ""
    if not fd["available"]:
        return f"<p>Free spins per trigger: not available: {_e(fd['reason'])}</p>"
    rows, rest = [], 0.0
    for n, p in zip(fd["spins"], fd["probability"]):
        if p >= SHOWN_BELOW:
            rows.append((n, f"{p:.10f}", _n(_one_in(p), 1)))
        else:
            rest += p
    rest += fd["tail_probability"]
    if rest:
        rows.append((f"other (each below {SHOWN_BELOW:g}, or beyond {fd['spins'][-1]})",
                     f"{rest:.3e}", "-"))
    return (_table(["free spins played", "probability given a trigger", "frequency (triggers)"], rows,
                   f"Free spins per trigger (exact; {fd['method']})")
            + f"<p>Mean {fd['mean']:.6f} free spins per trigger (exact mean from the expected-spins "
            f"chain: {fd['expected_free_spins']:.6f}).</p>")


def _rules_html(f: dict) -> str:
    parts = []
    for sec in f["rules"]:
        body = "".join(f"<p>{_e(t)}</p>" for t in sec["text"])
        body += "".join(_table(t["head"], t["rows"], t["caption"]) for t in sec["tables"])
        parts.append(f"<section class=\"rules\"><h2>{_e(sec['title'])}</h2>{body}</section>")
    return "".join(parts)


def _reel_tables(name: str, rs: dict) -> str:
    reels, w = range(len(rs["strips"])), rs["weights"]
    head = [f"reel {r + 1}" for r in reels]

    def cell(r, i):
        if i >= rs["lengths"][r]:
            return ""
        return rs["strips"][r][i] + (f" ({w[r][i]})" if w else "")

    strips = [(i, *[cell(r, i) for r in reels]) for i in range(max(rs["lengths"]))]
    counts = [(s, *[c if not w else f"{c} (w {rs['weight_totals'][s][r]})"
                    for r, c in enumerate(v)]) for s, v in rs["counts"].items()]
    counts.append(("total", *[n if not w else f"{n} (w {sum(w[r])})"
                              for r, n in enumerate(rs["lengths"])]))
    title = f"Reel strips: {name}" + (" (weight per stop)" if w else "")
    return (_table(["stop", *head], strips, title)
            + _table(["symbol", *[f"{h} (stops)" for h in head]], counts,
                     f"Symbol counts per reel: {name}"))


SOURCES = ("base_lines", "base_scatter", "free_games", "base_collect", "bonus")


def render_html(f: dict) -> str:
    ex, sim = f["exact"], f["simulated"]
    keys = [k for k in SOURCES if ex[k] or k == "base_lines"]
    sources = [(k.replace("_", " "), _pct(ex[k], 6), _pct(sim["breakdown"][k])) for k in keys]
    sources.append(("total", _pct(ex["rtp"], 6), _pct(sim["rtp"])))
    awards = [(a["symbol"], a["count"], _pct(a["base_rtp"], 6), _pct(a["free_games_rtp"], 6),
               _n(_one_in(a["per_round"]))) for a in ex["line_awards"]]
    scat = [(c, _pct(v, 6)) for c, v in enumerate(ex["scatter_rtp_by_count"]) if v]
    n = sim["rounds"]
    bands = [(k, f"{v:,}", f"{_pct(v / n)} ({_pct(lo)} .. {_pct(hi)})", _n(_one_in(v / n)))
             for (k, v), (lo, hi) in zip(sim["win_distribution"].items(),
                                         sim["win_distribution_ci95"])]
    reels = [f"reel {r + 1}" for r in range(len(f["paylines"][0]))]
    counts = sorted({int(c) for p in f["paytable"] for c in p["pays"]})
    pay = [(p["symbol"], p["name"], p["role"], *[p["pays"].get(str(c), "") for c in counts])
           for p in f["paytable"]]
    scatter_pays = [(s["symbol"], s["counting"],
                     ", ".join(f"{c}: {p}" for c, p in s["pays"].items()) or "none")
                    for s in f["scatters"]]
    wild_rules = [(w["rule"],) for w in f["wilds"]] + [
        (f"wild multipliers combine: {f['wild_multiplier_combine']}",),
        (f"pure-wild run vs substituted: {f['pure_wild_vs_substituted']}",)]
    bet = f["bet"]
    cost = (f"{bet['total']:,} credits" if bet.get("mode", "base") == "base" else
            f"{bet['price']:,} credits (mode {bet['mode']}: {bet['price'] // bet['total']} stakes)")
    parts = [
        f"<h1>{_e(f['game_name'])} — PAR sheet</h1><p>{_e(f['description'])}</p>",
        _table(["", ""], [
            ("game id", f["game_id"]),
            ("bet", f"{bet['lines']} lines x {bet['bet_per_line']} credits = {bet['total']} credits "
                    "(the stake)"),
            ("cost of a round", cost),
            ("generated", f["generated"]), ("reelforge version", f["reelforge_version"]),
            ("Monte Carlo", f"{n:,} rounds, seed {f['seed']} (the streams of `reelforge simulate` "
                            "at its default chunk size)")]),
        f"<p>Reproduce: <code>{_e(f['command'])}</code></p>",
        "<p>Figures marked <b>exact</b> are computed from the reels and rules; figures marked "
        "<b>simulated</b> come from the Monte Carlo run, with a 95% CI where one applies. "
        "Units: RTPs in % of the cost of a round; wins, SD and VI in multiples of that cost "
        "(\"x cost\") or in credits; frequencies in rounds; line pays in multiples of the bet per "
        "line; scatter pays and cash values in multiples of the stake; the jackpot's seed in "
        "currency minor units. The JSON's <code>units</code> map names the unit of every amount.</p>",
        _table(["figure", "value", "unit", "basis"], _summary(f), "Summary"),
        _not_exact_note(f),
        _max_win_table(f),
        _volatility_table(f),
        _jackpot_html(f),
        "<div>" + "".join(_plots(f)) + "</div>",
        _table(["source", "RTP (exact, % of cost)", "RTP (simulated, % of cost)"], sources,
               "RTP by source"),
        _table(["symbol", "count (symbols)", "base RTP (% of stake)", "free-games RTP (% of stake)",
                "frequency (rounds)"], awards,
               "Line awards (exact; frequency per round, free games included)"),
        _table(["scatter count", "base RTP (% of stake)"], scat,
               "Scatter RTP by count (exact, base game)"),
        _free_spins_html(f),
        _table(["win band (x cost)", "rounds", "share (% of rounds, 95% CI)", "frequency (rounds)"],
               bands, f"Win distribution by band (simulated, {n:,} rounds; 95% CI binomial normal)"),
        _table(["symbol", "name", "role", *[f"{c} (x bet per line)" for c in counts]], pay,
               "Paytable (line pays, multiples of the bet per line)"),
        _table(["scatter", "counting", "pays (count: x stake)"], scatter_pays,
               "Scatter pays (multiples of the stake)"),
        _table(["line", *[f"{r} (row, 0 = top)" for r in reels]],
               [(i + 1, *line) for i, line in enumerate(f["paylines"])], "Paylines"),
        _table(["rule"], wild_rules, "Wild rules"),
        _rules_html(f),
    ]
    parts += [_reel_tables(name, rs) for name, rs in f["reels"].items()]
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{_e(f["game_name"])} PAR'
            f"</title><style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")


def par_paths(out: Path, stem: str) -> tuple[Path, Path]:
    """<stem>-par.html and <stem>-par.json in the folder `out`, refused unless both resolve to
    files directly inside it: the stem comes from a game file (its id, a mode name), and the
    loader's name rules are not the only line of defence against writing elsewhere."""
    from reelforge.errors import InvalidArgument

    names = (f"{stem}-par.html", f"{stem}-par.json")
    for name in names:  # one plain name, not a link: it resolves to itself inside `out`
        if Path(name).name != name or (out / name).resolve() != out.resolve() / name:
            raise InvalidArgument(f"--out {str(out)!r}: PAR file name {name!r} would be "
                                  "written outside the folder")
    return out / names[0], out / names[1]


def write_par(figures: dict, out_dir) -> tuple[Path, Path]:
    """Write <id>-par.html and <id>-par.json into out_dir; returns both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figures = {**figures, "command": shlex.join(figures["reproduce"][:3] + ["--out", str(out)]
                                                + figures["reproduce"][3:])}
    mode = figures["bet"].get("mode", "base")
    stem = figures["game_id"] if mode == "base" else f"{figures['game_id']}-{mode}"
    html_path, json_path = par_paths(out, stem)
    html_path.write_text(render_html(figures), encoding="utf-8")
    json_path.write_text(json.dumps(figures, indent=1, allow_nan=False), encoding="utf-8")
    return html_path, json_path
