"""PAR sheet of a cluster game: HTML page and JSON, like `par.py`'s for line games.

The RTP, its breakdown by Free Spins class and the volatility figures are the game's published
stratified estimate (`reelforge estimate`, `<game>.rtp.json`: method in analysis/stratified.py);
the drawn-grid trigger probabilities are exact; the win distribution and the whole-round hit
frequency come from one plain Monte Carlo run of whole rounds (the streams of `reelforge
simulate`), which also cross-checks the published RTP. No exact SD: the stratified estimate's.

The maximum win per round is the game's cap (`[bet] max_win_x`): tumbles, wilds, random
multipliers and extra spins have no smaller bound, so the cap is the theoretical maximum;
the sheet says whether it is attainable by the evidence it has (the published estimate's
capped rounds, the largest simulated win). Units as in `par.py`: a `units` map in the JSON,
a unit on every amount in the HTML.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import is_dataclass
from datetime import UTC, datetime
from pathlib import Path

from reelforge import __version__
from reelforge.analysis.montecarlo import DEFAULT_CHUNK, play_rounds
from reelforge.analysis.par_html import (
    STYLE,
    _e,
    _n,
    _pct,
    _rules_html,
    _table,
    _x,
    par_paths,
    win_distribution_plot,
)
from reelforge.analysis.par_rules import _section, _share
from reelforge.analysis.par_units import COST, P_ROUND, X_COST, _binomial_ci, _clean, _one_in
from reelforge.analysis.stats import Stats
from reelforge.engine.capabilities import CANDY_JARS
from reelforge.engine.rng import chunk_generator
from reelforge.errors import InvalidArgument

UNITS: dict[str, str] = {
    "seed": "none (seed of the simulated run)", "bet.coins": "coins (a stake)",
    "bet.coin_value": "credits per coin", "bet.total": "credits (the stake)",
    "grid[]": "cells (rows, columns)", "min_cluster": "cells",
    "pays.*.*": "coins per coin value (a stake is the bet's coins)",
    "wild_multipliers.*": "multiplier",
    "reel_sets.*.*[]": "symbol weight (integer, relative) per column",
    "random_multipliers.*.*": "weight (integer, relative)",
    "features.*": "as the rules section says: counts, spins, weights, multiples of the stake",
    "published.*rtp*": COST, "published.*_frequency": P_ROUND, "published.probability_*": P_ROUND,
    "published.trigger_probability.*": P_ROUND,
    "published.feature_mean_x.*": X_COST + " per trigger",
    "published.rtp_features.*": COST, "published.feature_rounds.*": "rounds sampled",
    "published.base_spins": "base spins sampled", "published.bias_bound": X_COST,
    "published.largest_*_x": X_COST, "published.standard_deviation": X_COST,
    "published.volatility_index": X_COST,
    "published.base_multiplier_weights[]": "weight (integer, relative)",
    "published.seed": "none (seed of the estimate)", "published.spin_guard_hits": "rounds",
    "exact_drawn_grid_trigger.*": P_ROUND,
    "max_win.cap_x": X_COST, "max_win.cap_credits": "credits",
    "max_win.seen_x": X_COST, "max_win.seen_credits": "credits",
    "max_win.published_probability_cap": P_ROUND,
    "simulated.rounds": "rounds", "simulated.total_bet": "credits (the stake)",
    "simulated.rtp": COST, "simulated.rtp_standard_error": COST, "simulated.rtp_ci95[]": COST,
    "simulated.breakdown.*": COST, "simulated.standard_deviation": X_COST,
    "simulated.hit_frequency": P_ROUND, "simulated.hit_frequency_ci95[]": P_ROUND,
    "simulated.feature_frequency": P_ROUND, "simulated.bonus_frequency": P_ROUND,
    "simulated.mean_feature_award": X_COST + " per trigger",
    "simulated.mean_free_spins": "free spins per trigger",
    "simulated.mean_bonus_spins": "spins per bonus",
    "simulated.retriggers": "retriggers (count)", "simulated.jackpot_hits": "jackpot wins (count)",
    "simulated.cap_hits": "rounds", "simulated.spin_guard_hits": "rounds",
    "simulated.max_win": X_COST, "simulated.max_win_credits": "credits",
    "simulated.win_distribution.*": "rounds", "simulated.win_distribution_ci95[][]": P_ROUND,
    "rules[].tables[].rows[][]": "as named in the table's header",
}


def _max_win(game, bet, data: dict, stats: Stats) -> dict:
    """The cap as the theoretical maximum, and whether the evidence shows it attained."""
    cap_x = game.spec.max_win_x
    p_cap = data["figures"].get("probability_cap")
    seen = stats.max_win / bet.total if bet.total else 0.0
    if not cap_x:
        return {"label": "no cap", "cap_x": None, "cap_credits": None, "seen_x": seen,
                "seen_credits": stats.max_win, "published_probability_cap": None,
                "attainable": "unknown: the game has no cap and tumbles have no other bound"}
    attained = stats.max_win >= cap_x * bet.total
    evidence = [x for x in ("in this sheet's simulated run" if attained else "",
                            f"in the published estimate, {_n(_one_in(p_cap), 0)} rounds"
                            if p_cap else "") if x]
    how = ("attained: " + "; ".join(evidence) if evidence else
           "not seen in the published estimate or this run, so attainability is not shown")
    return {"label": "game cap", "cap_x": cap_x, "cap_credits": cap_x * bet.total,
            "seen_x": seen, "seen_credits": stats.max_win, "published_probability_cap": p_cap,
            "attainable": how}


def _words(value) -> str:
    """A rule's value as plain words: numbers and names, never a data literal."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value)
    if is_dataclass(value):
        return "; ".join(f"{k.replace('_', ' ')} {_words(v)}" for k, v in vars(value).items())
    return str(value)


def _cluster_rules(game) -> list[dict]:
    """The rules of a cluster game in sentences and tables."""
    spec, f = game.spec, game.spec.features
    out = [_section("Clusters and tumbles", [
        f"Symbols pay in clusters of {spec.min_size} or more cells joined horizontally or "
        "vertically; a cluster of n pays the pay of the largest listed size up to n (coins per "
        "coin value). Winning symbols disappear, the rest fall, new symbols fill from above, "
        "and this repeats until nothing wins; all wins of a spin are added.",
        f"The round's win is capped at {spec.max_win_x:,} x the stake." if spec.max_win_x
        else "The round's win has no cap."])]
    if spec.wild_multipliers:
        out.append(_section("Wilds", ["Wilds substitute for the paying symbols; a winning "
                                      "cluster holding wilds with multipliers pays times the "
                                      "sum of their multipliers."],
                            ("Wild multipliers", ["wild", "multiplier"],
                             [[w, f"x{m}"] for w, m in spec.wild_multipliers])))
    for name, values, weights in spec.random_multipliers:
        out.append(_section(f"Random multiplier: {name} reels", [
            "After a spin's first win one multiplier is drawn by weight (x1 = none); it "
            "multiplies every win of that spin and its tumbles."],
            (f"Random multiplier ({name})", ["multiplier", "weight", "probability"],
             [[f"x{v}", w, p] for v, w, p in zip(values, weights, _share(list(weights)))])))
    if f is None:
        return out
    if CANDY_JARS in game.capabilities:
        return out + _candy_rules(f)
    return out + [_section("Features", [f"{k.replace('_', ' ')}: {_words(v)}."
                                        for k, v in vars(f).items()])]


def _candy_rules(f) -> list[dict]:
    jars = ", ".join(f"{c} -> {m.replace('_', ' ').upper()}" for c, m in f.jars)
    wc, ws, es = f.wild_count, f.wild_symbol_weights, f.extra_start
    return [
        _section("Candy jars and Free Spins", [
            f"Candies that land in a base spin drop into their jars ({jars}) after its last "
            f"tumble. {f.trigger_candies} or more candies in one spin start {f.free_spins} Free "
            f"Spins on the '{f.free_set}' reels, with the modifier of every jar that received a "
            "candy; the jars empty after every spin.",
            f"A round plays at most {f.spin_guard:,} free and super spins (a technical guard)."]),
        _section("WILD modifier", [
            "Each free spin, a number of cells drawn by weight (table) become wilds; each is a "
            "plain wild or a Golden Wild, drawn by weight."],
            ("Wilds placed per spin", ["wilds", "weight", "probability"],
             [[v, w, p] for v, w, p in zip(wc.values, wc.weights, _share(list(wc.weights)))]),
            ("Placed wild", ["symbol", "weight", "probability"],
             [[s, w, p] for s, w, p in zip(f.wild_symbols, ws, _share(list(ws)))])),
        _section("FREE SPINS modifier", [
            "At the start, extra spins drawn by weight (table) are added. "
            f"{f.extra_symbol} symbols join the free reels (weight per column "
            f"{', '.join(map(str, f.extra_weights))}); each on a spin's final grid adds a spin, "
            f"and every {f.extra_per_super_spin} collected queue a super spin on the "
            f"'{f.super_set}' reels with every modifier active."],
            ("Extra spins at the start", ["extra spins", "weight", "probability"],
             [[v, w, p] for v, w, p in zip(es.values, es.weights, _share(list(es.weights)))])),
        _section("JACKPOTS modifier", [
            "The jackpot symbols join the free reels (weight per column in the table); each "
            "jackpot has its own meter over the round and pays when its count is collected, "
            "times the spin's random and Golden Wild multipliers; the meter then restarts."],
            ("Fixed jackpots", ["jackpot", "symbols to collect", "pays (x stake)",
                                "weight per column"],
             [[j.name, j.collect, f"{j.pays_x:,}", ", ".join(map(str, j.weights))]
              for j in f.jackpots])),
    ]


def _drawn_grid_trigger(game) -> dict[str, float]:
    """P(the drawn base grid alone triggers each feature class), exactly, by class name: the
    game's strata compute it (a standard cluster game has no feature, so no classes)."""
    names = game.strata.feature_classes(game)
    return {names[m]: p for m, p in game.strata.initial_trigger_probabilities(game).items()}


def build_cluster_par(game, bet, rounds: int, seed: int, ref: str | None = None, tasks=None) -> dict:
    """`tasks` (optional, as `build_par`'s) starts a progress task and returns its advance."""
    from reelforge.games import published_estimate

    data = published_estimate(ref or game.id)
    if data is None:
        raise InvalidArgument(f"{game.id}: a cluster game's PAR sheet shows its published estimate; "
                              "run reelforge estimate --out <game>.rtp.json first")
    stats = Stats.empty()
    advance = tasks(f"{game.id}: simulating", rounds) if tasks else None
    for i, start in enumerate(range(0, rounds, DEFAULT_CHUNK)):
        stats = stats.merge(play_rounds(game, bet, chunk_generator(seed, i), min(DEFAULT_CHUNK, rounds - start)))
        if advance is not None:
            advance(min(DEFAULT_CHUNK, rounds - start))
    spec = game.spec
    sim = stats.to_dict()
    sim["hit_frequency_ci95"] = _binomial_ci(stats.hits, stats.rounds)
    sim["win_distribution_ci95"] = [_binomial_ci(v, stats.rounds) for v in stats.bands]
    features = spec.features
    return _clean({
        "kind": "clusters", "game_id": spec.id, "game_name": spec.name, "description": spec.description,
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "reelforge_version": __version__, "seed": seed,
        "reproduce": ["reelforge", "par", ref or spec.id, "--rounds", str(rounds), "--seed", str(seed)],
        "bet": {"coins": bet.lines, "coin_value": bet.bet_per_line, "total": bet.total},
        "grid": [spec.rows, spec.cols], "min_cluster": spec.min_size,
        "pays": {sid: dict(steps) for sid, steps in spec.pays},
        "symbols": [{"id": s.id, "name": s.name, "role": s.role} for s in spec.symbols],
        "wild_multipliers": dict(spec.wild_multipliers),
        "reel_sets": {rs.name: dict(rs.weights) for rs in spec.reel_sets if rs.weights},
        "random_multipliers": {name: dict(zip(v, w)) for name, v, w in spec.random_multipliers},
        "features": json.loads(json.dumps(features, default=lambda o: vars(o) if is_dataclass(o) else str(o))),
        "published": data["figures"], "published_command": data["command"],
        "exact_drawn_grid_trigger": _drawn_grid_trigger(game),
        "simulated": sim,
        "max_win": _max_win(game, bet, data, stats),
        "rules": _cluster_rules(game),
        "units": UNITS,
    })


def _max_win_html(f: dict) -> str:
    mw = f["max_win"]
    cap = ("none" if mw["cap_x"] is None else f"{mw['cap_credits']:,}",
           "-" if mw["cap_x"] is None else _x(mw["cap_x"], 0))
    rows = [("theoretical: the game's cap", *cap, "game file ([bet] max_win_x)"),
            ("largest seen", f"{mw['seen_credits']:,}", _x(mw["seen_x"]), "simulated"),
            ("P(a round is cut to the cap)", "-", _n(_one_in(mw["published_probability_cap"]), 0)
             + " rounds" if mw["published_probability_cap"] else "-", "stratified (published)")]
    return (_table(["maximum win per round", "credits", "x cost", "basis"], rows,
                   "Maximum win per round (cost = the stake)")
            + f"<p>The cap is the theoretical maximum (tumbles, wilds and multipliers have no "
            f"smaller bound); {_e(mw['attainable'])}.</p>")


def render_cluster_html(f: dict) -> str:
    p, sim = f["published"], f["simulated"]
    low, high = p["rtp_ci95"]
    slo, shi = sim["rtp_ci95"]
    cap = f["max_win"]["cap_x"]
    summary = [
        ("RTP", f"{_pct(p['rtp'])} (95% CI {_pct(low)} .. {_pct(high)}); method bias at most "
                f"{p['bias_bound']:.1e} x cost", "% of cost", "stratified estimate (published)"),
        ("RTP, plain whole rounds", f"{_pct(sim['rtp'])} (95% CI {_pct(slo)} .. {_pct(shi)})",
         "% of cost", "simulated (check)"),
        ("RTP from the base game" if p["feature_rounds"] else "RTP from the rounds sampled whole",
         _pct(p["rtp_base"]), "% of cost", "stratified"),
        ("Free Spins", _n(_one_in(p["feature_frequency"]), 1), "rounds",
         "stratified (exact drawn-grid part)"),
        ("base-spin hit frequency", _pct(p["base_hit_frequency"]), "% of base spins", "simulated"),
        ("round hit frequency", _pct(sim["hit_frequency"]), "% of rounds", "simulated"),
        ("standard deviation per round", f"{p['standard_deviation']:.3f}", "x cost",
         "stratified (no exact SD for a cluster game)"),
        ("volatility index (1.645 SD)", f"{p['volatility_index']:.3f}", "x cost", "stratified"),
        ("P(win >= 1000x)", _n(_one_in(p["probability_1000x"]), 0), "rounds", "stratified"),
        ("P(win cut to the cap)" if cap is None else f"P(win cut to {cap:,}x)",
         _n(_one_in(p["probability_cap"]), 0), "rounds", "stratified"),
        ("maximum win per round", "no cap" if cap is None else f"{cap:,} (the cap)", "x cost",
         "game file"),
        ("largest win seen", f"{sim['max_win']:,.2f}", "x cost", "simulated"),
    ]
    classes = [(name, _n(_one_in(p["trigger_probability"][name]), 0),
                _pct(f["exact_drawn_grid_trigger"].get(name), 6), f"{p['feature_mean_x'][name]:,.2f}",
                _pct(p["rtp_features"][name]), f"{p['feature_rounds'][name]:,}")
               for name in p["feature_rounds"]]
    n = sim["rounds"]
    bands = [(k, f"{v:,}", f"{_pct(v / n)} ({_pct(lo)} .. {_pct(hi)})")
             for (k, v), (lo, hi) in zip(sim["win_distribution"].items(), sim["win_distribution_ci95"])]
    sizes = sorted({int(s) for pays in f["pays"].values() for s in pays})
    pays = [(sid, *[pays.get(str(s), "") for s in sizes]) for sid, pays in f["pays"].items()]
    sets = list(f["reel_sets"])
    symbols = sorted({s for ws in f["reel_sets"].values() for s in ws})
    weights = [(s, *[", ".join(map(str, sorted(set(f["reel_sets"][rs].get(s, [0])))))
                     for rs in sets]) for s in symbols]
    bet = f["bet"]
    parts = [
        f"<h1>{_e(f['game_name'])} — PAR sheet</h1><p>{_e(f['description'])}</p>",
        _table(["", ""], [
            ("game id", f["game_id"]),
            ("bet (the stake, the cost of a round)",
             f"{bet['coins']} coins x {bet['coin_value']} credits = {bet['total']} credits"),
            ("grid", f"{f['grid'][0]} x {f['grid'][1]} cells, clusters of {f['min_cluster']}+ "
                     "cells (sides)"),
            ("generated", f["generated"]), ("reelforge version", f["reelforge_version"]),
            ("published estimate", f["published_command"])]),
        f"<p>Reproduce this sheet: <code>{_e(f['command'])}</code></p>",
        "<p>Units: RTPs in % of the cost of a round (the stake); wins, SD and VI in multiples "
        "of it (\"x cost\") or in credits; frequencies in rounds; cluster pays in coins per coin "
        "value. The JSON's <code>units</code> map names the unit of every amount.</p>",
        _table(["figure", "value", "unit", "basis"], summary, "Summary"),
        _max_win_html(f),
        "<div>" + win_distribution_plot(sim) + "</div>",
        _table(["modifiers", "trigger (rounds)", "exact drawn-grid part (% of rounds)",
                "mean win (x cost)", "RTP (% of cost)", "rounds sampled"],
               classes, "Free Spins by modifier set (stratified estimate)"),
        _table(["win band (x cost)", "rounds", "share (% of rounds, 95% CI)"], bands,
               f"Win distribution (simulated, {n:,} whole rounds)"),
        _table(["symbol", *[f"{s}+ cells (coins)" for s in sizes]], pays,
               f"Cluster pays (coins per coin value; a stake is {bet['coins']} coins)"),
        _table(["symbol", *[f"{rs} (weight)" for rs in sets]], weights,
               "Symbol weights per column (integer, relative; all columns alike)"),
        _rules_html(f),
    ]
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{_e(f["game_name"])} PAR'
            f"</title><style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")


def write_cluster_par(figures: dict, out_dir) -> tuple[Path, Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figures = {**figures, "command": shlex.join(figures["reproduce"][:3] + ["--out", str(out)]
                                                + figures["reproduce"][3:])}
    html_path, json_path = par_paths(out, figures["game_id"])
    html_path.write_text(render_cluster_html(figures), encoding="utf-8")
    json_path.write_text(json.dumps(figures, indent=1, allow_nan=False), encoding="utf-8")
    return html_path, json_path

