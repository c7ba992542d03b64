"""Exact analysis of a ways game (`family = "ways"`), from its reel strips.

Reels stop independently, so a symbol's expected paid ways on reels 1..k, run ending there,
factor into per-reel expectations (engine/ways.py gives the per-reel sums):

    multiply: E[prod_r x_r; run = k] = prod_{r<=k} E[x_r] * P(reel k+1 shows none of it)
    add:      (prod E[n_r] + sum_r E[w_r] prod_{q != r} E[c_q]) * P(reel k+1 shows none)

(x_r, n_r, w_r and c_r are 0 on a reel that shows none of it, so the product vanishes on a
shorter run.) The RTP is then a sum of exact rationals: `Fraction`s of whole stop counts, no
rounding, in time linear in the strips. The hit rate is not a product (symbols share cells):
a walk over the reels keeps, per set of symbols still running, the stop combinations that
reach it (integers again). The capped RTP, the standard deviation and the maximum win need
the joint distribution: `enumerate_ways` visits every distinct window combination (weighted by
the stops showing it) where there are at most MAX_COMBINATIONS; above that they are left to
simulation and the engine's bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np

from reelforge.analysis.exact import ExactResult
from reelforge.analysis.spin import SpinFigures
from reelforge.engine import ways as wk
from reelforge.engine.outcome import Bet
from reelforge.engine.ways_game import reel_bound

MAX_COMBINATIONS = 50_000_000  # distinct window combinations enumerate_ways visits at most


@dataclass(frozen=True)
class WaysFigures:
    """Exact figures of a ways game per unit stake (fractions of the stake, coin value 1)."""

    rtp: Fraction  # uncapped
    hit_rate: Fraction  # P(a round wins)
    award_rtp: dict[tuple[str, int], Fraction]  # (symbol, reels) -> its part of the RTP
    award_probability: dict[tuple[str, int], Fraction]  # P(the symbol pays on exactly k reels)
    combinations: int  # stop combinations: the product of the strip lengths
    # from the enumeration, None where it was declined (too many window combinations)
    capped_rtp: Fraction | None
    variance: float | None  # of a round's win, in stakes squared (uncapped)
    top_coins: int | None  # the largest win, coins at a coin value of 1, uncapped


def reel_sums(m: wk.WaysModel, p: int, r: int) -> tuple[int, int, int, int, int, int]:
    """Over the stops of reel r, for paying symbol p: (stops, sum x, sum own cells, sum wild
    multipliers, sum cells, stops showing none of it); x is own cells + wild multipliers."""
    n = int(m.strip_len[r])
    sx = sn = sw = sc = none = 0
    for stop in range(n):
        own = wilds = weight = 0
        for h in range(m.n_rows):
            c = int(m.strips[r, (stop + h) % n])
            if m.own[p, c]:
                own += 1
            elif m.wild_weight[p, c] > 0:
                wilds += 1
                weight += int(m.wild_weight[p, c])
        sx += own + weight
        sn += own
        sw += weight
        sc += own + wilds
        none += own + wilds == 0
    return n, sx, sn, sw, sc, none


def expected_ways(m: wk.WaysModel, p: int) -> tuple[list[Fraction], list[Fraction]]:
    """For paying symbol p, by k = 0..R: (expected paid ways of a run of exactly k reels,
    probability of that run)."""
    sums = [reel_sums(m, p, r) for r in range(m.n_reels)]
    paid = [Fraction(0)] * (m.n_reels + 1)
    prob = [Fraction(0)] * (m.n_reels + 1)
    prob[0] = Fraction(sums[0][5], sums[0][0])
    for k in range(1, m.n_reels + 1):
        ends = Fraction(1) if k == m.n_reels else Fraction(sums[k][5], sums[k][0])
        reach = math.prod(Fraction(s[0] - s[5], s[0]) for s in sums[:k])
        if m.add:
            ec = [Fraction(s[4], s[0]) for s in sums[:k]]
            value = math.prod(Fraction(s[2], s[0]) for s in sums[:k]) + sum(
                Fraction(sums[r][3], sums[r][0]) * math.prod(ec[:r] + ec[r + 1:]) for r in range(k))
        else:
            value = math.prod(Fraction(s[1], s[0]) for s in sums[:k])
        paid[k] = value * ends
        prob[k] = reach * ends
    return paid, prob


def hit_count(m: wk.WaysModel) -> int:
    """Stop combinations whose window wins: a walk over the reels keeping, per set of paying
    symbols shown on every reel so far (a bit mask), how many combinations reach it; a symbol
    leaving the set after k reels wins if it pays for k."""
    n_pay = m.paying.shape[0]
    masks = []
    for r in range(m.n_reels):
        n = int(m.strip_len[r])
        by_mask: dict[int, int] = {}
        for stop in range(n):
            mask = 0
            for p in range(n_pay):
                if any(m.own[p, c] or m.wild_weight[p, c] > 0
                       for c in (int(m.strips[r, (stop + h) % n]) for h in range(m.n_rows))):
                    mask |= 1 << p
            by_mask[mask] = by_mask.get(mask, 0) + 1
        masks.append(by_mask)

    def pays(mask: int, k: int) -> bool:
        return any(mask >> p & 1 and m.pay[p, k] > 0 for p in range(n_pay))

    hits = 0
    alive = dict(masks[0])
    rest = math.prod(int(m.strip_len[r]) for r in range(1, m.n_reels))
    for r in range(1, m.n_reels):
        rest //= int(m.strip_len[r])  # combinations of the reels after this one
        nxt: dict[int, int] = {}
        for mask, count in alive.items():
            for shown, stops in masks[r].items():
                still = mask & shown
                if pays(mask & ~shown, r):
                    hits += count * stops * rest
                elif still:
                    nxt[still] = nxt.get(still, 0) + count * stops
        alive = nxt
    hits += sum(count for mask, count in alive.items() if pays(mask, m.n_reels))
    return hits


def distinct_windows(m: wk.WaysModel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per reel, its distinct windows as each paying symbol sees them (ways ignore the row
    and which wild stands in at what multiplier is all that counts) and the stops showing
    each: (table (R, U, P, 3) int64 of (own cells, wild cells, wild multiplier sum), counts
    (R,) int64, weights (R, U) int64)."""
    n_pay = m.paying.shape[0]
    found = []
    for r in range(m.n_reels):
        n = int(m.strip_len[r])
        seen: dict[tuple, int] = {}
        for stop in range(n):
            cells = [int(m.strips[r, (stop + h) % n]) for h in range(m.n_rows)]
            key = tuple((sum(1 for c in cells if m.own[p, c]),
                         sum(1 for c in cells if not m.own[p, c] and m.wild_weight[p, c] > 0),
                         sum(int(m.wild_weight[p, c]) for c in cells if not m.own[p, c]))
                        for p in range(n_pay))
            seen[key] = seen.get(key, 0) + 1
        found.append(seen)
    most = max(len(s) for s in found)
    table = np.zeros((m.n_reels, most, n_pay, 3), dtype=np.int64)
    weights = np.zeros((m.n_reels, most), dtype=np.int64)
    counts = np.array([len(s) for s in found], dtype=np.int64)
    for r, seen in enumerate(found):
        for u, (key, stops) in enumerate(seen.items()):
            table[r, u] = key
            weights[r, u] = stops
    return table, counts, weights


def enumerate_all(m: wk.WaysModel) -> wk.WaysTotals | None:
    """`enumerate_ways` over every distinct window combination; None where there are more than
    MAX_COMBINATIONS or the sums could leave int64."""
    table, counts, weights = distinct_windows(m)
    combinations = math.prod(int(c) for c in counts)
    stops = math.prod(int(n) for n in m.strip_len)
    if combinations > MAX_COMBINATIONS or reel_bound(m._replace(cap=0)) * stops >= 2**62:
        return None
    n_pay = m.paying.shape[0]
    return wk.enumerate_ways(m, table, counts, weights, np.zeros(m.n_reels, dtype=np.int64),
                             np.zeros((m.n_reels, n_pay, 4), dtype=np.int64),
                             np.zeros(m.n_reels, dtype=np.int64))


def closed_form(game) -> tuple[Fraction, Fraction, dict, dict]:
    """(RTP uncapped, hit rate, award RTP, award probability) from the per-reel sums and the
    hit walk: milliseconds, no enumeration."""
    m = game.model
    unit = game.spec.pay_unit
    ids = game.spec.symbol_ids
    rtp = Fraction(0)
    award_rtp: dict[tuple[str, int], Fraction] = {}
    award_p: dict[tuple[str, int], Fraction] = {}
    for p in range(m.paying.shape[0]):
        paid, prob = expected_ways(m, p)
        for k in range(1, m.n_reels + 1):
            if m.pay[p, k] > 0 and prob[k] > 0:
                part = int(m.pay[p, k]) * paid[k] / unit
                award_rtp[(ids[int(m.paying[p])], k)] = part
                award_p[(ids[int(m.paying[p])], k)] = prob[k]
                rtp += part
    combinations = math.prod(int(n) for n in m.strip_len)
    return rtp, Fraction(hit_count(m), combinations), award_rtp, award_p


@lru_cache(maxsize=16)
def _enumerated(key: str, game) -> tuple[Fraction | None, float | None, int | None]:
    """(capped RTP, variance in stakes squared, top coins) from every window combination,
    cached per game file (`key`); Nones where the enumeration is declined."""
    m = game.model
    unit = game.spec.pay_unit
    totals = enumerate_all(m)
    if totals is None:
        return None, None, None
    combinations = int(totals.combinations)
    mean = totals.win / combinations / unit
    variance = max(totals.square / combinations / unit**2 - mean * mean, 0.0)
    return Fraction(int(totals.capped_win), combinations * unit), variance, int(totals.top)


def ways_figures(game) -> WaysFigures:
    """The exact figures of a ways game (the enumerated ones cached per game file)."""
    rtp, hit_rate, award_rtp, award_p = closed_form(game)
    capped, variance, top = _enumerated(game.spec.sha256 or game.spec.source, game)
    return WaysFigures(rtp, hit_rate, award_rtp, award_p,
                       math.prod(int(n) for n in game.model.strip_len), capped, variance, top)


def analyze_ways(game, bet: Bet | None = None, cap_bound: bool = False) -> ExactResult:
    """The exact figures as `analysis.exact.analyze` gives them for a line game: the ways RTP
    as the base game's, the hit rate as the base-spin hit frequency, the award table by
    (symbol, reels), all from the closed form. `rtp` ignores the cap; with `cap_bound`,
    `cap_loss_bound` is exactly what the cap takes, from the enumeration (None where it is
    declined)."""
    bet = game.check_bet(bet or game.max_bet)
    rtp, hit_rate, rtp_by_award, p_by_award = closed_form(game)
    ids = game.spec.symbol_ids
    award_rtp = np.zeros((len(ids), game.spec.reels + 1))
    award_rate = np.zeros((len(ids), game.spec.reels + 1))
    for (sid, k), value in rtp_by_award.items():
        award_rtp[ids.index(sid), k] = float(value)
        award_rate[ids.index(sid), k] = float(p_by_award[(sid, k)])
    base = SpinFigures(lines=float(rtp), scatter=0.0, jackpot_probability=0.0,
                       trigger_distribution=(), award_rtp=award_rtp, award_rate=award_rate,
                       line_hit_probability=(), scatter_rtp=())
    loss = None
    if cap_bound:
        capped = _enumerated(game.spec.sha256 or game.spec.source, game)[0]
        loss = None if capped is None else float(rtp - capped)
    return ExactResult(game_id=game.id, bet=bet, rtp=float(rtp), base_lines=float(rtp),
                       base_scatter=0.0, free_games=0.0, feature_probability=0.0,
                       mean_free_spins=0.0, free_spin_rtp=0.0, jackpot_probability=0.0,
                       cap_loss_bound=loss, base_hit_frequency=float(hit_rate), symbols=ids,
                       base=base)


def max_round_win(game, bet: Bet) -> int | None:
    """The exact largest win of one round at `bet` in credits, the cap applied; None where
    the enumeration was declined."""
    top_coins = _enumerated(game.spec.sha256 or game.spec.source, game)[2]
    if top_coins is None:
        return None
    top = top_coins * bet.bet_per_line
    cap = game.round_cap(bet)
    return min(top, cap) if cap else top


# ---------------------------------------------------------------- the PAR sheet


def build_ways_par(game, bet: Bet, rounds: int, seed: int, ref: str | None = None,
                   tasks=None) -> dict:
    """The PAR sheet's figures: the exact ones labelled exact, a simulation of `rounds`
    rounds beside them labelled simulated."""
    from reelforge.analysis.montecarlo import simulate

    bet = game.check_bet(bet)
    f = ways_figures(game)
    progress = None if tasks is None else tasks(f"{game.id}: simulating {rounds:,} rounds", rounds)
    stats = simulate(ref or game.id, bet, rounds, seed, progress=progress)
    low, high = stats.rtp_interval()
    spec = game.spec
    return {
        "game_id": game.id, "name": spec.name, "description": spec.description,
        "game_sha256": spec.sha256, "family": "ways",
        "bet": {"pay_unit": spec.pay_unit, "coin_value": bet.bet_per_line, "stake": bet.total},
        "window": {"reels": spec.reels, "rows": spec.rows, "ways": spec.rows ** spec.reels},
        "wild_multiplier_combine": spec.wild_combine,
        "max_win_x": spec.max_win_x,
        "exact": {
            "rtp": float(f.rtp), "rtp_fraction": f"{f.rtp.numerator}/{f.rtp.denominator}",
            "capped_rtp": None if f.capped_rtp is None else float(f.capped_rtp),
            "hit_rate": float(f.hit_rate),
            "hit_rate_fraction": f"{f.hit_rate.numerator}/{f.hit_rate.denominator}",
            "standard_deviation": None if f.variance is None else math.sqrt(f.variance),
            "max_win_x": None if f.top_coins is None else
            float(Fraction(min(f.top_coins, game.model.cap or f.top_coins), spec.pay_unit)),
            "stop_combinations": f.combinations,
            "awards": [{"symbol": sid, "reels": k, "rtp": float(v),
                        "probability": float(f.award_probability[(sid, k)])}
                       for (sid, k), v in sorted(f.award_rtp.items())]},
        "simulated": {"rounds": stats.rounds, "seed": seed, "rtp": stats.rtp,
                      "rtp_ci95": [low, high], "hit_rate": stats.hit_frequency,
                      "standard_deviation": stats.standard_deviation,
                      "largest_win_x": stats.max_win_x,
                      "rtp_within_4_se": abs(stats.rtp - float(f.capped_rtp or f.rtp))
                      <= 4 * stats.rtp_standard_error},
    }


def write_ways_par(figures: dict, out_dir: Path) -> list[Path]:
    """<id>-par.json and a self-contained <id>-par.html (tables, no plots)."""
    import html
    import json

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gid = figures["game_id"]
    json_path = out_dir / f"{gid}-par.json"
    json_path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    e, s = figures["exact"], figures["simulated"]

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.6%}"

    rows = [("RTP (exact, uncapped)", pct(e["rtp"]), e["rtp_fraction"]),
            ("RTP with the cap (exact)", pct(e["capped_rtp"]), "enumerated"),
            ("hit rate (exact)", pct(e["hit_rate"]), e["hit_rate_fraction"]),
            ("standard deviation (exact)", "n/a" if e["standard_deviation"] is None
             else f"{e['standard_deviation']:.4f} x stake", "enumerated"),
            ("maximum win (exact)", "n/a" if e["max_win_x"] is None else f"{e['max_win_x']:,.2f} x stake",
             f"cap {figures['max_win_x']} x stake" if figures["max_win_x"] else "no cap"),
            ("RTP (simulated)", pct(s["rtp"]), f"95% CI {pct(s['rtp_ci95'][0])} .. "
             f"{pct(s['rtp_ci95'][1])}, {s['rounds']:,} rounds, seed {s['seed']}"),
            ("hit rate (simulated)", pct(s["hit_rate"]), ""),
            ("simulated within 4 SE of exact", str(s["rtp_within_4_se"]), "")]
    body = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(b)}</td><td>{html.escape(c)}</td></tr>"
                   for a, b, c in rows)
    awards = "".join(f"<tr><td>{html.escape(a['symbol'])}</td><td>{a['reels']}</td>"
                     f"<td>{a['rtp']:.6%}</td><td>1 in {1 / a['probability']:,.2f}</td></tr>"
                     for a in e["awards"] if a["probability"] > 0)
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(gid)} PAR</title>"
            "<style>body{font-family:sans-serif;margin:2em}td,th{padding:2px 10px;border-bottom:1px solid #ccc}"
            "</style></head><body>"
            f"<h1>{html.escape(figures['name'])} ({html.escape(gid)})</h1>"
            f"<p>{html.escape(figures['description'])}</p>"
            f"<p>{figures['window']['reels']} reels x {figures['window']['rows']} rows, "
            f"{figures['window']['ways']:,} ways; wild multipliers {figures['wild_multiplier_combine']}; "
            f"stake {figures['bet']['pay_unit']} coins (pays are coins per way); game file SHA-256 "
            f"{figures['game_sha256']}</p>"
            f"<h2>Figures</h2><table><tr><th>figure</th><th>value</th><th>source</th></tr>{body}</table>"
            "<h2>Awards (exact)</h2><table><tr><th>symbol</th><th>reels</th><th>RTP</th>"
            f"<th>frequency</th></tr>{awards}</table></body></html>\n")
    html_path = out_dir / f"{gid}-par.html"
    html_path.write_text(page, encoding="utf-8")
    return [html_path, json_path]
