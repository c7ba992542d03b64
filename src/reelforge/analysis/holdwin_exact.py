"""Exact analysis of a hold-and-win game (`family = "holdwin"`, spec/holdwin.py).

The RTP is the ways base game's (analysis.ways_exact, closed form) plus the respins':

    sum over k >= trigger of P(the window shows k prizes) x (E[prizes locked at the end | k]
        x E[a prize's value] + grand_x x P(a full screen | k))

Reels stop independently, so the window's prize count is the convolution of each reel's
(stops showing 0..H prizes). The respins are a Markov chain on (cells locked, respins left):
each of the C - k empty cells lands a prize with chance p = n/d on its own, so the prizes a
respin lands are Binomial(C - k, p); any resets the respins, none uses one up. Values are
drawn independently of where and when a prize lands, so the expected pay is the expected
count times the mean value (Wald). Every figure is a `Fraction`: exact, no rounding. It is
uncapped; where the engine's bound on a round is at most the cap (`cap_unreachable`), the
cap takes nothing and the figure is the game's exact RTP.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

from reelforge.analysis.exact import ExactResult
from reelforge.engine.outcome import Bet


@dataclass(frozen=True)
class ChainFigures:
    """The respins from k prizes locked: exact expectations."""

    locked: Fraction  # E[prizes locked at the end]
    full: Fraction  # P(every cell locked)
    respins: Fraction  # E[respins played]


@dataclass(frozen=True)
class HoldWinFigures:
    """Exact figures per unit stake (fractions of the stake)."""

    rtp: Fraction  # uncapped
    ways_rtp: Fraction
    feature_rtp: Fraction  # the respins: prizes and grand prize
    prize_rtp: Fraction  # of which the prizes' values
    grand_rtp: Fraction  # of which the grand prize
    jackpot_rtp: dict[str, Fraction]  # per named jackpot, its part of prize_rtp
    trigger_probability: Fraction  # P(the respins start)
    grand_probability: Fraction  # P(a round fills the screen)
    mean_respins: Fraction  # given a trigger
    mean_locked: Fraction  # prizes locked at the end, given a trigger
    mean_value: Fraction  # a prize's value, stakes
    prize_counts: dict[int, Fraction]  # P(the window shows k prizes)
    cap_unreachable: bool  # the engine's bound on a round is at most the cap (or no cap)


def window_prize_counts(spec) -> dict[int, Fraction]:
    """P(the window shows k prizes), k = 0..C: the reels' counts convolved."""
    dist = {0: Fraction(1)}
    for strip in spec.base.strips:
        n = len(strip)
        reel: dict[int, int] = {}
        for stop in range(n):
            k = sum(1 for h in range(spec.rows) if strip[(stop + h) % n] == spec.prize)
            reel[k] = reel.get(k, 0) + 1
        out: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, stops in reel.items():
                out[a + b] = out.get(a + b, Fraction(0)) + pa * Fraction(stops, n)
        dist = out
    return dict(sorted(dist.items()))


def respin_chain(cells: int, respins: int, p: Fraction) -> dict[int, ChainFigures]:
    """For every k locked at the start (1..cells), the chain's expectations from (k, respins)."""
    q = 1 - p

    @cache
    def state(k: int, left: int) -> tuple[Fraction, Fraction, Fraction]:
        if k == cells or left == 0:
            return Fraction(k), Fraction(int(k == cells)), Fraction(0)
        empty = cells - k
        locked = full = played = Fraction(0)
        for j in range(empty + 1):
            chance = math.comb(empty, j) * p ** j * q ** (empty - j)
            a, b, c = state(k + j, respins if j else left - 1)
            locked += chance * a
            full += chance * b
            played += chance * (1 + c)
        return locked, full, played

    return {k: ChainFigures(*state(k, respins)) for k in range(1, cells + 1)}


@lru_cache(maxsize=16)
def _figures(key: str, game) -> HoldWinFigures:
    from reelforge.analysis.ways_exact import closed_form
    from reelforge.engine.ways_game import WaysGame

    spec = game.spec
    ways_rtp = closed_form(WaysGame(spec.base, game.model.ways))[0]
    counts = window_prize_counts(spec)
    chain = respin_chain(spec.cells, spec.respins, Fraction(*spec.respin_odds))
    weight = sum(v.weight for v in spec.values)
    mean_value = Fraction(sum(v.x * v.weight for v in spec.values), weight)
    trigger = locked = full = played = Fraction(0)
    for k, pk in counts.items():
        if k >= spec.trigger:
            trigger += pk
            locked += pk * chain[k].locked
            full += pk * chain[k].full
            played += pk * chain[k].respins
    prize_rtp = locked * mean_value
    grand_rtp = full * spec.grand_x
    jackpots = {v.jackpot: locked * Fraction(v.x * v.weight, weight) for v in spec.values if v.jackpot}
    feature = prize_rtp + grand_rtp
    from reelforge.engine.holdwin_game import round_bound_coins

    cap = game.model.cap
    uncapped_bound = cap == 0 or round_bound_coins(game.model) <= cap
    return HoldWinFigures(
        rtp=ways_rtp + feature, ways_rtp=ways_rtp, feature_rtp=feature, prize_rtp=prize_rtp,
        grand_rtp=grand_rtp, jackpot_rtp=jackpots, trigger_probability=trigger,
        grand_probability=full, mean_respins=played / trigger if trigger else Fraction(0),
        mean_locked=locked / trigger if trigger else Fraction(0), mean_value=mean_value,
        prize_counts=counts, cap_unreachable=uncapped_bound)


def holdwin_figures(game) -> HoldWinFigures:
    return _figures(game.spec.sha256 or game.spec.source, game)


def analyze_holdwin(game, bet: Bet | None = None, cap_bound: bool = False) -> ExactResult:
    """The exact figures as `analysis.exact.analyze` gives them: the ways base game's (its
    award table and hit rate, analysis.ways_exact) with the respins as the bonus. `rtp`
    ignores the cap; `cap_loss_bound` is 0 where the cap cannot be reached, else None (not
    computed)."""
    from reelforge.analysis.ways_exact import analyze_ways
    from reelforge.engine.ways_game import WaysGame

    bet = game.check_bet(bet or game.max_bet)
    spec = game.spec
    base = analyze_ways(WaysGame(spec.base, game.model.ways), bet)
    f = holdwin_figures(game)
    return dataclasses.replace(
        base, game_id=game.id, rtp=float(f.rtp), bonus=float(f.feature_rtp),
        bonus_probability=float(f.trigger_probability), mean_bonus_spins=float(f.mean_respins),
        cap_loss_bound=0.0 if f.cap_unreachable else None)


# ---------------------------------------------------------------- the PAR sheet


def build_holdwin_par(game, bet: Bet, rounds: int, seed: int, ref: str | None = None,
                      tasks=None) -> dict:
    """The PAR sheet's figures: the exact ones labelled exact, a simulation of `rounds`
    rounds beside them labelled simulated."""
    from reelforge.analysis.montecarlo import simulate

    bet = game.check_bet(bet)
    f = holdwin_figures(game)
    progress = None if tasks is None else tasks(f"{game.id}: simulating {rounds:,} rounds", rounds)
    stats = simulate(ref or game.id, bet, rounds, seed, progress=progress)
    low, high = stats.rtp_interval()
    spec = game.spec

    def frac(x: Fraction) -> dict:
        return {"value": float(x), "fraction": f"{x.numerator}/{x.denominator}"}

    return {
        "game_id": game.id, "name": spec.name, "description": spec.description,
        "game_sha256": spec.sha256, "family": "holdwin",
        "bet": {"pay_unit": spec.pay_unit, "coin_value": bet.bet_per_line, "stake": bet.total},
        "window": {"reels": spec.reels, "rows": spec.rows, "ways": spec.rows ** spec.reels},
        "hold_and_win": {"prize": spec.prize, "trigger": spec.trigger, "respins": spec.respins,
                         "respin_prize_odds": list(spec.respin_odds), "grand_x": spec.grand_x,
                         "values": [{"x": v.x, "weight": v.weight, "jackpot": v.jackpot or None}
                                    for v in spec.values]},
        "max_win_x": spec.max_win_x,
        "exact": {
            "rtp": frac(f.rtp), "ways_rtp": frac(f.ways_rtp), "feature_rtp": frac(f.feature_rtp),
            "prize_rtp": frac(f.prize_rtp), "grand_rtp": frac(f.grand_rtp),
            "jackpot_rtp": {k: frac(v) for k, v in f.jackpot_rtp.items()},
            "trigger_probability": frac(f.trigger_probability),
            "grand_probability": frac(f.grand_probability),
            "mean_respins": frac(f.mean_respins), "mean_locked": frac(f.mean_locked),
            "mean_value_x": frac(f.mean_value),
            "prize_counts": {str(k): float(v) for k, v in f.prize_counts.items()},
            "cap_unreachable": f.cap_unreachable,
            "max_win_bound_x": float(Fraction(game.max_round_win(bet), bet.total))},
        "simulated": {"rounds": stats.rounds, "seed": seed, "rtp": stats.rtp,
                      "rtp_ci95": [low, high], "hit_rate": stats.hit_frequency,
                      "standard_deviation": stats.standard_deviation,
                      "largest_win_x": stats.max_win_x,
                      "rtp_within_4_se": abs(stats.rtp - float(f.rtp))
                      <= 4 * stats.rtp_standard_error},
    }


def write_holdwin_par(figures: dict, out_dir: Path) -> list[Path]:
    """<id>-par.json and a self-contained <id>-par.html (tables, no plots)."""
    import html
    import json

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gid = figures["game_id"]
    json_path = out_dir / f"{gid}-par.json"
    json_path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    e, s, hw = figures["exact"], figures["simulated"], figures["hold_and_win"]

    def pct(x: float) -> str:
        return f"{x:.6%}"

    capped = "the cap cannot be reached: exact" if e["cap_unreachable"] else "before the cap"
    rows = [(f"RTP (exact, {capped})", pct(e["rtp"]["value"]), e["rtp"]["fraction"]),
            ("  ways base game (exact)", pct(e["ways_rtp"]["value"]), e["ways_rtp"]["fraction"]),
            ("  respins: prizes (exact)", pct(e["prize_rtp"]["value"]), e["prize_rtp"]["fraction"]),
            *[(f"    of which {name} (exact)", pct(v["value"]), v["fraction"])
              for name, v in e["jackpot_rtp"].items()],
            ("  respins: grand prize (exact)", pct(e["grand_rtp"]["value"]), e["grand_rtp"]["fraction"]),
            ("respins frequency (exact)", f"1 in {1 / e['trigger_probability']['value']:,.2f}",
             e["trigger_probability"]["fraction"]),
            ("full screen frequency (exact)", f"1 in {1 / e['grand_probability']['value']:,.0f}"
             if e["grand_probability"]["value"] else "never", e["grand_probability"]["fraction"]),
            ("mean respins per feature (exact)", f"{e['mean_respins']['value']:.4f}", ""),
            ("mean prizes locked per feature (exact)", f"{e['mean_locked']['value']:.4f}", ""),
            ("mean prize value (exact)", f"{e['mean_value_x']['value']:.4f} x stake", ""),
            ("maximum win (engine bound)", f"{e['max_win_bound_x']:,.2f} x stake",
             f"cap {figures['max_win_x']} x stake" if figures["max_win_x"] else "no cap"),
            ("RTP (simulated)", pct(s["rtp"]), f"95% CI {pct(s['rtp_ci95'][0])} .. "
             f"{pct(s['rtp_ci95'][1])}, {s['rounds']:,} rounds, seed {s['seed']}"),
            ("hit rate (simulated)", pct(s["hit_rate"]), ""),
            ("standard deviation (simulated)", f"{s['standard_deviation']:.4f} x stake", ""),
            ("simulated within 4 SE of exact", str(s["rtp_within_4_se"]), "")]
    body = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(b)}</td><td>{html.escape(c)}</td></tr>"
                   for a, b, c in rows)
    values = "".join(f"<tr><td>{html.escape(v['jackpot'] or '')}</td><td>{v['x']}</td>"
                     f"<td>{v['weight']}</td></tr>" for v in hw["values"])
    counts = "".join(f"<tr><td>{k}</td><td>{p:.8f}</td></tr>"
                     for k, p in e["prize_counts"].items() if p > 0)
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(gid)} PAR</title>"
            "<style>body{font-family:sans-serif;margin:2em}td,th{padding:2px 10px;border-bottom:1px solid #ccc}"
            "</style></head><body>"
            f"<h1>{html.escape(figures['name'])} ({html.escape(gid)})</h1>"
            f"<p>{html.escape(figures['description'])}</p>"
            f"<p>{figures['window']['reels']} reels x {figures['window']['rows']} rows, "
            f"{figures['window']['ways']:,} ways; {hw['trigger']}+ {html.escape(hw['prize'])} start "
            f"{hw['respins']} respins (a prize lands on an empty cell with chance "
            f"{hw['respin_prize_odds'][0]} in {hw['respin_prize_odds'][1]}); a full screen pays "
            f"{hw['grand_x']} x stake; stake {figures['bet']['pay_unit']} coins; game file SHA-256 "
            f"{figures['game_sha256']}</p>"
            f"<h2>Figures</h2><table><tr><th>figure</th><th>value</th><th>source</th></tr>{body}</table>"
            "<h2>Prize values</h2><table><tr><th>jackpot</th><th>x stake</th><th>weight</th></tr>"
            f"{values}</table><h2>Prizes in the base window (exact)</h2><table><tr><th>prizes</th>"
            f"<th>probability</th></tr>{counts}</table></body></html>\n")
    html_path = out_dir / f"{gid}-par.html"
    html_path.write_text(page, encoding="utf-8")
    return [html_path, json_path]
