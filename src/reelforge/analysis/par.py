"""PAR sheet: one game at one bet as a self-contained HTML page and a JSON file.

Exact figures come from `exact.analyze`; the rest from one Monte Carlo run, played with
`play_rounds` on the same streams as `simulate` (chunk i of DEFAULT_CHUNK rounds on
`chunk_generator(seed, i)`), split into pieces so the running RTP is read at 40 geometric
checkpoints. Splitting a stream does not change its rounds, so the merged Stats equal
`simulate(game, bet, rounds, seed)` bit for bit. Volatility index: VI = 1.645 x SD per round
(90% confidence: two-sided z = 1.645), SD simulated.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import shlex
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from reelforge import __version__
from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import DEFAULT_CHUNK, play_rounds
from reelforge.analysis.stats import Z95, Stats
from reelforge.engine.outcome import Bet
from reelforge.engine.rng import chunk_generator

VI_Z = 1.645
PAIRS = ("award", "retrigger_award", "multiplier_weights")  # (count or multiplier, value)
VI_DEFINITION = "VI = 1.645 x SD per round (90% confidence), SD simulated, multiples of total bet"


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


def run_with_checkpoints(game, bet: Bet, rounds: int, seed: int, points: int = 40):
    """(merged Stats, [[rounds, running RTP], ...]) of one run, as `simulate` would play it."""
    checks = {int(round(x)) for x in np.geomspace(min(1000, rounds), rounds, points)}
    ends = sorted(checks | set(range(DEFAULT_CHUNK, rounds, DEFAULT_CHUNK)) | {rounds})
    total, done, rng, curve = Stats.empty(), 0, None, []
    for end in ends:  # every piece lies inside one chunk
        if done % DEFAULT_CHUNK == 0:
            rng = chunk_generator(seed, done // DEFAULT_CHUNK)
        total = total.merge(play_rounds(game, bet, rng, end - done))
        done = end
        if end in checks:
            curve.append([end, total.rtp])
    return total, curve


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


def build_par(game, bet: Bet, rounds: int, seed: int, ref: str | None = None) -> dict:
    """Every figure of the PAR sheet, JSON-ready; `ref` is the game as named on the command line."""
    spec = game.spec
    result = analyze(game, bet)
    bet = result.bet
    stats, curve = run_with_checkpoints(game, bet, rounds, seed)
    awards = result.award_table()
    pays = {s: dict(p) for s, p in spec.paytable}
    top = max(awards, key=lambda a: (pays.get(a["symbol"], {}).get(a["count"], 0), -a["per_round"]),
              default=None)
    sim = stats.to_dict()
    sim["hit_frequency_ci95"] = _binomial_ci(stats.hits, stats.rounds)
    sim["feature_frequency_ci95"] = _binomial_ci(stats.feature_triggers, stats.rounds)
    sim["win_distribution_ci95"] = [_binomial_ci(b, stats.rounds) for b in stats.bands]
    fg, jp = spec.free_games, spec.jackpot
    figures = {
        "game_id": spec.id, "game_name": spec.name, "description": spec.description,
        "bet": {"lines": bet.lines, "bet_per_line": bet.bet_per_line, "total": bet.total,
                "mode": bet.mode, "price": game.price(bet)},
        "generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "reelforge_version": __version__, "rounds": rounds, "seed": seed,
        "reproduce": ["reelforge", "par", ref or spec.id, "--rounds", str(rounds),
                      "--seed", str(seed), "--lines", str(bet.lines),
                      "--bet-per-line", str(bet.bet_per_line)],
        "exact": {"label": "exact", **result.to_dict()},
        "exact_figures": {
            "free_game_trigger_1_in": _one_in(result.feature_probability),
            "mean_free_spins": result.mean_free_spins if result.feature_probability else None,
            "jackpot_1_in": _one_in(result.jackpot_probability),
            "top_award": None if top is None else {
                **top, "pay_per_line": pays.get(top["symbol"], {}).get(top["count"], 0),
                "one_in": _one_in(top["per_round"])},
        },
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
        "convergence": curve,
    }
    return _clean(figures)


# -- plots and page ---------------------------------------------------------------------------

def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    return '<img src="data:image/png;base64,' + base64.b64encode(buf.getvalue()).decode() + '">'


def win_distribution_plot(sim: dict) -> str:
    """Rounds per win band (log scale) with their 95% CI bars, as an <img> tag."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 3.2))
    ax = fig.add_subplot()
    labels, counts = list(sim["win_distribution"]), list(sim["win_distribution"].values())
    ci = np.array(sim["win_distribution_ci95"]) * sim["rounds"]
    err = np.clip([np.array(counts) - ci[:, 0], ci[:, 1] - np.array(counts)], 0, None)
    ax.bar(range(len(labels)), counts, yerr=err, capsize=2, color="#4c72b0")
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylim(bottom=0.5)
    ax.set(ylabel="rounds", xlabel="win, multiples of total bet",
           title=f"Win distribution by band (simulated, {sim['rounds']:,} rounds, 95% CI bars)")
    return _png(fig)


def _plots(f: dict) -> list[str]:
    from matplotlib.figure import Figure  # Agg canvas, no pyplot state

    ex, sim = f["exact"], f["simulated"]
    fig = Figure(figsize=(6, 3.2))
    ax = fig.add_subplot()
    keys = [k for k in SOURCES if ex[k]] + ["rtp"]
    names = [k.replace("_", " ") if k != "rtp" else "total" for k in keys]
    vals = [100 * (ex[k] or 0) for k in keys]
    ax.bar(names, vals, color=["#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974", "#333333"][-len(keys):])
    ax.bar_label(ax.containers[0], fmt="%.4f%%")
    ax.set(ylabel="RTP (% of total bet)", title="RTP by source (exact)")
    plots = [_png(fig), win_distribution_plot(sim)]
    fig = Figure(figsize=(7, 3.6))
    ax = fig.add_subplot()
    n = np.array([c[0] for c in f["convergence"]], dtype=float)
    rtp = np.array([np.nan if c[1] is None else 100 * c[1] for c in f["convergence"]])
    half = 100 * Z95 * (sim["standard_deviation"] or 0) / np.sqrt(n)
    ax.fill_between(n, 100 * ex["rtp"] - half, 100 * ex["rtp"] + half, color="#c44e52", alpha=0.2,
                    label="exact ± 1.96·SD/√n (SD simulated)")
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


STYLE = ("body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}"
         "table{border-collapse:collapse;margin:.6em 0 1.4em}td,th{border:1px solid #ccc;"
         "padding:2px 8px;font-size:13px;text-align:right}th{background:#eee}"
         "caption{text-align:left;font-weight:600;padding:4px 0}code{background:#f4f4f4;"
         "padding:2px 4px}img{margin:.5em;border:1px solid #ddd}td:first-child{text-align:left}")


def _summary(f: dict) -> list[tuple]:
    ex, sim, xf = f["exact"], f["simulated"], f["exact_figures"]
    top = xf["top_award"]
    (rlo, rhi), (hlo, hhi) = sim["rtp_ci95"], sim["hit_frequency_ci95"]
    flo, fhi = (_n(_one_in(p)) for p in reversed(sim["feature_frequency_ci95"]))
    spins, jackpot = xf["mean_free_spins"], xf["jackpot_1_in"]
    return [
        ("RTP (without progressive)", _pct(ex["rtp"], 6), "exact"),
        ("RTP", f"{_pct(sim['rtp'])} (95% CI {_pct(rlo)} .. {_pct(rhi)})", "simulated"),
        ("free-game trigger", _n(xf["free_game_trigger_1_in"]), "exact"),
        ("free-game trigger", f"{_n(_one_in(sim['feature_frequency']))} (95% CI {flo} .. {fhi})",
         "simulated"),
        ("mean free spins per trigger", "-" if spins is None else f"{spins:.4f}", "exact"),
        ("jackpot", "none" if jackpot is None else _n(jackpot, 0) + " rounds", "exact"),
        ("top award", "-" if top is None else f"{top['symbol']} x{top['count']} "
         f"({top['pay_per_line']} x bet per line): {_n(top['one_in'], 0)} rounds", "exact"),
        ("hit frequency of the base spin", "-" if ex.get("base_hit_frequency") is None
         else f"{_pct(ex['base_hit_frequency'], 6)}", "exact"),
        ("hit frequency of the round", f"{_pct(sim['hit_frequency'])} (95% CI {_pct(hlo)} .. "
         f"{_pct(hhi)}, binomial normal)", "simulated"),
        ("standard deviation per round", f"{sim['standard_deviation']:.4f} x total bet (no CI)",
         "simulated"),
        ("volatility index", f"{f['volatility_index']:.4f}; {f['volatility_definition']}",
         "simulated"),
        ("max win seen", f"{sim['max_win']:,.2f} x total bet (no CI)", "simulated"),
    ]


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
            + _table(["symbol", *head], counts, f"Symbol counts per reel: {name}"))


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
                     ", ".join(f"{c}: {p}" for c, p in s["pays"].items()))
                    for s in f["scatters"]]
    wild_rules = [(w["rule"],) for w in f["wilds"]] + [
        (f"wild multipliers combine: {f['wild_multiplier_combine']}",),
        (f"pure-wild run vs substituted: {f['pure_wild_vs_substituted']}",)]
    bet = f["bet"]
    parts = [
        f"<h1>{_e(f['game_name'])} — PAR sheet</h1><p>{_e(f['description'])}</p>",
        _table(["", ""], [
            ("game id", f["game_id"]),
            ("bet", f"{bet['lines']} lines x {bet['bet_per_line']} = {bet['total']} credits"
                    + (f", mode {bet['mode']} at {bet['price']} credits a round"
                       if bet.get("mode", "base") != "base" else "")),
            ("generated", f["generated"]), ("reelforge version", f["reelforge_version"]),
            ("Monte Carlo", f"{n:,} rounds, seed {f['seed']} (the streams of `reelforge simulate` "
                            "at its default chunk size)")]),
        f"<p>Reproduce: <code>{_e(f['command'])}</code></p>",
        "<p>Figures marked <b>exact</b> are computed combinatorially; figures marked "
        "<b>simulated</b> come from the Monte Carlo run, with a 95% CI where one applies. "
        "RTPs in % of total bet.</p>",
        _table(["figure", "value", "basis"], _summary(f), "Summary"),
        "<div>" + "".join(_plots(f)) + "</div>",
        _table(["source", "RTP (exact)", "RTP (simulated)"], sources, "RTP by source"),
        _table(["symbol", "count", "base RTP", "free-games RTP", "frequency"], awards,
               "Line awards (exact; frequency per round, free games included)"),
        _table(["scatter count", "base RTP"], scat, "Scatter RTP by count (exact, base game)"),
        _table(["win band (x total bet)", "rounds", "share (95% CI)", "frequency"], bands,
               f"Win distribution by band (simulated, {n:,} rounds; 95% CI binomial normal)"),
        _table(["symbol", "name", "role", *counts], pay,
               "Paytable (line pays, multiples of bet per line)"),
        _table(["scatter", "counting", "pays (count: x total bet)"], scatter_pays,
               "Scatter pays (multiples of total bet)"),
        _table(["line", *reels], [(i + 1, *line) for i, line in enumerate(f["paylines"])],
               "Paylines (row per reel, 0 = top)"),
        _table(["rule"], wild_rules, "Wild rules"),
    ]
    for title, d in (("Free-game rules", f["free_games"]), ("Jackpot", f["jackpot"])):
        if d:
            rows = [(k, v if isinstance(v, str) else json.dumps(v)) for k, v in d.items()]
            parts.append(_table(["parameter", "value"], rows, title))
    parts += [_reel_tables(name, rs) for name, rs in f["reels"].items()]
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{_e(f["game_name"])} PAR'
            f"</title><style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")


def write_par(figures: dict, out_dir) -> tuple[Path, Path]:
    """Write <id>-par.html and <id>-par.json into out_dir; returns both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figures = {**figures, "command": shlex.join(figures["reproduce"][:3] + ["--out", str(out)]
                                                + figures["reproduce"][3:])}
    mode = figures["bet"].get("mode", "base")
    stem = figures["game_id"] if mode == "base" else f"{figures['game_id']}-{mode}"
    html_path = out / f"{stem}-par.html"
    json_path = out / f"{stem}-par.json"
    html_path.write_text(render_html(figures), encoding="utf-8")
    json_path.write_text(json.dumps(figures, indent=1, allow_nan=False), encoding="utf-8")
    return html_path, json_path
