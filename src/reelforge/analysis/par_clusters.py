"""PAR sheet of a cluster game: HTML page and JSON, like `par.py`'s for line games.

The RTP, its breakdown by Free Spins class and the volatility figures are the game's published
stratified estimate (`reelforge estimate`, `<game>.rtp.json`: method in analysis/stratified.py);
the drawn-grid trigger probabilities are exact; the win distribution and the whole-round hit
frequency come from one plain Monte Carlo run of whole rounds (the streams of `reelforge
simulate`), which also cross-checks the published RTP.
"""

from __future__ import annotations

import json
import shlex
from datetime import datetime, timezone
from pathlib import Path


from reelforge import __version__
from reelforge.analysis.montecarlo import DEFAULT_CHUNK, play_rounds
from reelforge.analysis.par import (
    STYLE,
    _binomial_ci,
    _clean,
    _e,
    _n,
    _one_in,
    _pct,
    _table,
    win_distribution_plot,
)
from reelforge.analysis.stats import Stats
from reelforge.engine.rng import chunk_generator
from reelforge.errors import InvalidArgument


def build_cluster_par(game, bet, rounds: int, seed: int, ref: str | None = None) -> dict:
    from reelforge.games import published_estimate
    from reelforge.games.candy_jar_clusters.game import initial_trigger_probabilities

    data = published_estimate(ref or game.id)
    if data is None:
        raise InvalidArgument(f"{game.id}: a cluster game's PAR sheet shows its published estimate; "
                              "run reelforge estimate --out <game>.rtp.json first")
    stats = Stats.empty()
    for i, start in enumerate(range(0, rounds, DEFAULT_CHUNK)):
        stats = stats.merge(play_rounds(game, bet, chunk_generator(seed, i), min(DEFAULT_CHUNK, rounds - start)))
    spec = game.spec
    sim = stats.to_dict()
    sim["hit_frequency_ci95"] = _binomial_ci(stats.hits, stats.rounds)
    sim["win_distribution_ci95"] = [_binomial_ci(v, stats.rounds) for v in stats.bands]
    features = spec.features
    return _clean({
        "kind": "clusters", "game_id": spec.id, "game_name": spec.name, "description": spec.description,
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "reelforge_version": __version__, "seed": seed,
        "reproduce": ["reelforge", "par", ref or spec.id, "--rounds", str(rounds), "--seed", str(seed)],
        "bet": {"coins": bet.lines, "coin_value": bet.bet_per_line, "total": bet.total},
        "grid": [spec.rows, spec.cols], "min_cluster": spec.min_size,
        "pays": {sid: dict(steps) for sid, steps in spec.pays},
        "symbols": [{"id": s.id, "name": s.name, "role": s.role} for s in spec.symbols],
        "wild_multipliers": dict(spec.wild_multipliers),
        "reel_sets": {rs.name: dict(rs.weights) for rs in spec.reel_sets if rs.weights},
        "random_multipliers": {name: dict(zip(v, w)) for name, v, w in spec.random_multipliers},
        "features": json.loads(json.dumps(features, default=lambda o: getattr(o, "__dict__", str(o)))),
        "published": data["figures"], "published_command": data["command"],
        "exact_drawn_grid_trigger": {"+".join(n for b, n in enumerate(("wild", "free_spins", "jackpots"))
                                              if m >> b & 1): p
                                     for m, p in initial_trigger_probabilities(game).items()},
        "simulated": sim,
    })


def render_cluster_html(f: dict) -> str:
    p, sim = f["published"], f["simulated"]
    low, high = p["rtp_ci95"]
    slo, shi = sim["rtp_ci95"]
    summary = [
        ("RTP", f"{_pct(p['rtp'])} (95% CI {_pct(low)} .. {_pct(high)}); method bias at most "
                f"{p['bias_bound']:.1e} x bet", "stratified estimate (published)"),
        ("RTP, plain whole rounds", f"{_pct(sim['rtp'])} (95% CI {_pct(slo)} .. {_pct(shi)})", "simulated (check)"),
        ("RTP from the base game", _pct(p["rtp_base"]), "stratified"),
        ("Free Spins", f"{_n(_one_in(p['feature_frequency']), 1)} rounds", "stratified (exact drawn-grid part)"),
        ("base-spin hit frequency", _pct(p["base_hit_frequency"]), "simulated"),
        ("round hit frequency", _pct(sim["hit_frequency"]), "simulated"),
        ("standard deviation per round", f"{p['standard_deviation']:.3f} x total bet", "stratified"),
        ("volatility index (1.645 SD)", f"{p['volatility_index']:.3f}", "stratified"),
        ("P(win >= 1000x)", f"{_n(_one_in(p['probability_1000x']), 0)} rounds", "stratified"),
        ("P(win cut to 10,000x)", f"{_n(_one_in(p['probability_cap']), 0)} rounds", "stratified"),
        ("largest win seen", f"{sim['max_win']:,.2f} x total bet", "simulated"),
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
    mult = [(name, ", ".join(f"{v}x: {w}" for v, w in table.items()))
            for name, table in f["random_multipliers"].items()]
    bet = f["bet"]
    parts = [
        f"<h1>{_e(f['game_name'])} — PAR sheet</h1><p>{_e(f['description'])}</p>",
        _table(["", ""], [
            ("game id", f["game_id"]),
            ("bet", f"{bet['coins']} coins x {bet['coin_value']} = {bet['total']} credits"),
            ("grid", f"{f['grid'][0]} x {f['grid'][1]}, clusters of {f['min_cluster']}+ (sides)"),
            ("generated", f["generated"]), ("reelforge version", f["reelforge_version"]),
            ("published estimate", f["published_command"])]),
        f"<p>Reproduce this sheet: <code>{_e(f['command'])}</code></p>",
        _table(["figure", "value", "basis"], summary, "Summary (RTP in % of total bet)"),
        "<div>" + win_distribution_plot(sim) + "</div>",
        _table(["modifiers", "trigger", "exact drawn-grid part", "mean win (x bet)", "RTP", "rounds sampled"],
               classes, "Free Spins by modifier set (stratified estimate)"),
        _table(["win band (x total bet)", "rounds", "share (95% CI)"], bands,
               f"Win distribution (simulated, {n:,} whole rounds)"),
        _table(["symbol", *[f"{s}+" for s in sizes]], pays, "Cluster pays (coins; a stake is 20 coins)"),
        _table(["symbol", *sets], weights, "Symbol weights per column (all columns alike)"),
        _table(["reel set", "value: weight"], mult, "Random multipliers (1x = none)"),
        _table(["parameter", "value"], [(k, json.dumps(v)) for k, v in f["features"].items()],
               "Features"),
    ]
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{_e(f["game_name"])} PAR'
            f"</title><style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")


def write_cluster_par(figures: dict, out_dir) -> tuple[Path, Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figures = {**figures, "command": shlex.join(figures["reproduce"][:3] + ["--out", str(out)]
                                                + figures["reproduce"][3:])}
    html_path = out / f"{figures['game_id']}-par.html"
    json_path = out / f"{figures['game_id']}-par.json"
    html_path.write_text(render_cluster_html(figures), encoding="utf-8")
    json_path.write_text(json.dumps(figures, indent=1, allow_nan=False), encoding="utf-8")
    return html_path, json_path

