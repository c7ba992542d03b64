"""PAR sheet of a pays-anywhere game (`family = "anywhere"`): JSON and a self-contained HTML page.

Each figure is labelled with where it comes from:
* exact: the drawn grid's pays before any multiplier and its chance of triggering the free
  spins by itself (analysis/anywhere_figures.py), per count range and symbol;
* published estimate: the RTP with its 95% CI from `<game>.rtp.json` (`reelforge estimate`),
  where the game ships one;
* simulated: a plain Monte Carlo run of whole rounds (the streams of `reelforge simulate`):
  RTP with its 95% CI, its breakdown, hit and free-spin frequency, the largest win; it also
  checks the exact drawn-grid trigger is no more than the simulated trigger frequency allows.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from reelforge.analysis.anywhere_figures import (
    count_distribution,
    drawn_grid_pays,
    drawn_grid_trigger,
)
from reelforge.engine.outcome import Bet


def build_anywhere_par(game, bet: Bet, rounds: int, seed: int, ref: str | None = None,
                       tasks=None) -> dict:
    """The PAR sheet's figures, each labelled exact, published estimate or simulated."""
    from reelforge.analysis.montecarlo import simulate

    bet = game.check_bet(bet)
    spec = game.spec
    unit = spec.pay_unit
    progress = None if tasks is None else tasks(f"{game.id}: simulating {rounds:,} rounds", rounds)
    stats = simulate(ref or game.id, bet, rounds, seed, progress=progress)
    low, high = stats.rtp_interval()
    published = next((f for f in game.rtp() if f.mode == "base" and f.source == "estimate"), None)
    awards = []
    for sid, ranges in spec.pays:
        dist = count_distribution(spec, "base", sid)
        for r in ranges:
            p = sum(dist[r.low: r.high + 1])
            awards.append({"symbol": sid, "counts": [r.low, r.high], "coins": r.coins,
                           "probability": float(p), "rtp": float(p * r.coins / unit)})
    trigger = drawn_grid_trigger(spec)
    return {
        "game_id": game.id, "name": spec.name, "description": spec.description,
        "game_sha256": spec.sha256, "family": "anywhere",
        "bet": {"pay_unit": unit, "coin_value": bet.bet_per_line, "stake": bet.total},
        "grid": {"rows": spec.rows, "cols": spec.cols, "min_count": spec.min_count},
        "multiplier": {"start": spec.multiplier_start, "per_tumble": spec.multiplier_per_tumble,
                       "max": spec.multiplier_max, "symbols": dict(spec.multiplier_symbols)},
        "free_spins": {"scatter": spec.scatter, "award": dict(spec.award),
                       "retrigger": dict(spec.retrigger), "max_spins": spec.max_spins},
        "max_win_x": spec.max_win_x,
        "exact": {
            "label": "exact: the base game's drawn grid only (before tumbles and multipliers)",
            "drawn_grid_rtp": float(drawn_grid_pays(spec) / unit),
            "drawn_grid_trigger": float(trigger),
            "awards": awards},
        "published": None if published is None else {
            "label": "published estimate (reelforge estimate)", "rtp": float(published.value),
            "ci95_half_width": published.ci95, "command": published.method},
        "simulated": {"label": "simulated (Monte Carlo of whole rounds)",
                      "rounds": stats.rounds, "seed": seed, "rtp": stats.rtp,
                      "rtp_ci95": [low, high], "rtp_standard_error": stats.rtp_standard_error,
                      "rtp_base": stats.to_dict()["breakdown"]["base_lines"],
                      "rtp_free_spins": stats.to_dict()["breakdown"]["free_games"],
                      "hit_rate": stats.hit_frequency,
                      "free_spins_frequency": stats.feature_frequency,
                      "standard_deviation": stats.standard_deviation,
                      "largest_win_x": stats.max_win_x, "cap_hits": stats.cap_hits,
                      "published_within_4_se": None if published is None else
                      abs(stats.rtp - float(published.value)) <= 4 * stats.rtp_standard_error},
    }


def write_anywhere_par(figures: dict, out_dir: Path) -> list[Path]:
    """<id>-par.json and a self-contained <id>-par.html (tables, no plots)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gid = figures["game_id"]
    json_path = out_dir / f"{gid}-par.json"
    json_path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    e, s, p = figures["exact"], figures["simulated"], figures["published"]

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.4%}"

    rows = []
    if p is not None:
        rows.append(("RTP (published estimate)", pct(p["rtp"]),
                     f"95% CI ± {p['ci95_half_width'] * 100:.3f} pp; {p['command']}"))
    rows += [("RTP (simulated)", pct(s["rtp"]), f"95% CI {pct(s['rtp_ci95'][0])} .. "
              f"{pct(s['rtp_ci95'][1])}, {s['rounds']:,} rounds, seed {s['seed']}"),
             ("  base game (simulated)", pct(s["rtp_base"]), ""),
             ("  free spins (simulated)", pct(s["rtp_free_spins"]), ""),
             ("hit rate (simulated)", pct(s["hit_rate"]), ""),
             ("free spins frequency (simulated)", pct(s["free_spins_frequency"]), ""),
             ("standard deviation (simulated)", f"{s['standard_deviation']:.3f} x stake", ""),
             ("largest win (simulated)", f"{s['largest_win_x']:,.2f} x stake",
              f"cap {figures['max_win_x']} x stake" if figures["max_win_x"] else "no cap"),
             ("drawn grid's pays, no multiplier (exact)", pct(e["drawn_grid_rtp"]), e["label"]),
             ("drawn grid triggers the free spins (exact)", pct(e["drawn_grid_trigger"]),
              "a lower bound: tumbles may bring more scatters")]
    if s["published_within_4_se"] is not None:
        rows.append(("simulated within 4 SE of the published estimate",
                     str(s["published_within_4_se"]), ""))
    body = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(b)}</td><td>{html.escape(c)}</td></tr>"
                   for a, b, c in rows)
    def one_in(q: float) -> str:
        return "never" if not q else f"1 in {1 / q:,.1f}"

    awards = "".join(f"<tr><td>{html.escape(a['symbol'])}</td><td>{a['counts'][0]}-{a['counts'][1]}</td>"
                     f"<td>{a['coins']}</td><td>{a['rtp']:.4%}</td><td>{one_in(a['probability'])}</td></tr>"
                     for a in e["awards"])
    m, f = figures["multiplier"], figures["free_spins"]
    rules = (f"{figures['grid']['cols']} columns x {figures['grid']['rows']} rows; a symbol pays "
             f"for {figures['grid']['min_count']} or more anywhere; tumbles until nothing pays. "
             f"Global multiplier: starts at {m['start']}, +{m['per_tumble']} after each paying "
             f"grid, multiplier symbols {', '.join(f'{k} +{v}' for k, v in m['symbols'].items())} "
             f"add on a paying grid, at most {m['max']}; it carries through the free spins. "
             f"Free spins: {f['scatter']} "
             f"{', '.join(f'{k}: {v}' for k, v in f['award'].items())}; retrigger "
             f"{', '.join(f'{k}: +{v}' for k, v in f['retrigger'].items()) or 'none'}; at most "
             f"{f['max_spins']} a round. Stake {figures['bet']['pay_unit']} coins.")
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(gid)} PAR</title>"
            "<style>body{font-family:sans-serif;margin:2em}td,th{padding:2px 10px;border-bottom:1px solid #ccc}"
            "</style></head><body>"
            f"<h1>{html.escape(figures['name'])} ({html.escape(gid)})</h1>"
            f"<p>{html.escape(figures['description'])}</p><p>{html.escape(rules)}</p>"
            f"<p>Game file SHA-256 {figures['game_sha256']}</p>"
            f"<h2>Figures</h2><table><tr><th>figure</th><th>value</th><th>source</th></tr>{body}</table>"
            "<h2>Drawn-grid pays by count range (exact, base game, before tumbles and multipliers)</h2>"
            "<table><tr><th>symbol</th><th>count</th><th>coins</th><th>RTP</th><th>frequency</th></tr>"
            f"{awards}</table></body></html>\n")
    html_path = out_dir / f"{gid}-par.html"
    html_path.write_text(page, encoding="utf-8")
    return [html_path, json_path]
