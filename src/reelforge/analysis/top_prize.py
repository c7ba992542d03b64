"""The top prize of a game and how rarely it comes (standards.md F4, GlueStV 22a(3)), per family:

* ways: the paytable's top award (the largest pay per way, the rarer of equal pays): P(the
  symbol pays on all the reels it needs), exact (analysis.ways_exact's closed form);
* hold and win: the grand prize, a full screen of prizes in the respins: exact (the respins'
  Markov chain, analysis.holdwin_exact);
* a game with a stratified estimate (clusters, pays anywhere): the win cap, the most a round
  can pay, which these games reach (their samples hold rounds cut to it). No exact figure
  exists: it is estimated from the sample of the published RTP estimate (`<game>.rtp.json`),
  with a 95% confidence interval (`estimated`), and published beside the game file as
  `<game>.top.json` by `reelforge top-prize GAME --out` (`published`), tied to the game file
  and to that estimate by their SHA-256.

(The line games' top award is the PAR sheet's, server/services/catalog.top_award.)

The estimate. A round is capped when its base spin alone reaches the cap (counted among the
base spins) or when it triggers feature class m and the feature, played with the whole cap as
headroom, reaches it: p = c_b / N_b + sum_m P(m) c_m / N_m (`Estimate.probability_at_least`).
Each stratum's count is binomial; its exact (Clopper-Pearson) 95% interval is combined over
the strata by MOVER (Zou and Donner 2008: the interval of a weighted sum from its parts'
intervals), which is the exact interval itself where one stratum carries the count. P(m)
comes from the whole base sample with its drawn-grid part exact; its error is left out (its
relative error is far below the counts'). A round whose base win and feature win pass the cap
together, neither alone, is not counted: its probability is at most
sum_m P(m) (n_m - c_m) / N_m + P(a triggering base spin wins more than T), n_m counting the
features that came within T = 1000x of the cap and the second term bounded by the triggering
spins' wins above T over T; the upper end of the interval is raised by this bound.
Where no round reached the cap, the figure is the upper bound alone ("fewer than 1 in N").
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from reelforge.engine import capabilities as cap
from reelforge.errors import ReelforgeError

TOP_SUFFIX = ".top.json"
LEVEL = 0.95


# -- exact ---------------------------------------------------------------------------------------
def ways_top(game) -> dict:
    """The ways paytable's top award: (symbol, reels) of the largest pay per way, the rarer of
    equal pays, and its exact probability per round."""
    from reelforge.analysis.ways_exact import closed_form

    _rtp, _hit, _award_rtp, award_p = closed_form(game)
    best = max(_pay_per_way(game, key) for key in award_p)
    top = min((key for key in award_p if _pay_per_way(game, key) == best),
              key=lambda key: award_p[key])
    return {"kind": "award", "source": "exact", "symbol": top[0], "count": top[1],
            "pay_coins": best, "pay_unit": game.spec.pay_unit,
            "probability": str(award_p[top]), "one_in": float(1 / award_p[top])}


def _pay_per_way(game, key: tuple[str, int]) -> int:
    m = game.model
    ids = game.spec.symbol_ids
    for p in range(m.paying.shape[0]):
        if ids[int(m.paying[p])] == key[0]:
            return int(m.pay[p, key[1]])
    raise KeyError(key)


def holdwin_top(game) -> dict:
    """The grand prize (a full screen of prizes in the respins) and its exact probability."""
    from reelforge.analysis.holdwin_exact import holdwin_figures

    p = holdwin_figures(game).grand_probability
    return {"kind": "grand", "source": "exact", "grand_x": game.spec.grand_x,
            "probability": str(p), "one_in": float(1 / p)}


# -- estimated -----------------------------------------------------------------------------------
def clopper_pearson(hits: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """The exact two-sided binomial interval of `hits` in `n`."""
    from scipy.stats import beta

    tail = (1 - level) / 2
    low = 0.0 if hits == 0 else float(beta.ppf(tail, hits, n - hits + 1))
    high = 1.0 if hits == n else float(beta.ppf(1 - tail, hits + 1, n - hits))
    return low, high


def upper_bound(n: int, level: float = LEVEL) -> float:
    """The one-sided exact upper bound of a probability with no hit in `n`: 1 - (1-level)^(1/n)."""
    return -math.expm1(math.log(1 - level) / n)


def estimated(e) -> dict:
    """The win cap's probability per round from a stratified estimate (analysis.stratified
    `Estimate`), with its 95% interval (module docstring)."""
    from reelforge.engine.cluster_strata import BaseField

    parts = [(1.0, e.base.capped, e.base.spins)]
    parts += [(e._p(m), f.capped, f.rounds) for m, f in sorted(e.features.items()) if f.rounds]
    point = sum(w * c / n for w, c, n in parts)
    hits = sum(c for _w, c, _n in parts)
    crossing = sum(e._p(m) * (f.near_cap - f.capped) / f.rounds
                   for m, f in e.features.items() if f.rounds)
    tail_x = 1000 * e.stake
    crossing += sum(row[BaseField.WIN_ABOVE_THRESHOLD] for (_i, f), row in e._pairs()
                    if f) / tail_x / e.base.spins
    out = {"kind": "cap", "source": "estimate", "cap_x": e.cap / e.stake if e.cap else None,
           "method": "stratified sample of the published RTP estimate; per stratum exact "
                     "(Clopper-Pearson) 95% intervals combined by MOVER; the upper end raised "
                     "by the bound on rounds whose base and feature wins pass the cap together",
           "hits": hits, "base_spins": e.base.spins,
           "feature_rounds": sum(f.rounds for f in e.features.values()),
           "crossing_bound": crossing, "seed": e.seed}
    if hits == 0:
        bound = math.sqrt(sum((w * upper_bound(n)) ** 2 for w, _c, n in parts)) + crossing
        return {**out, "probability": 0.0, "upper": bound, "one_in": None,
                "fewer_than_one_in": 1 / bound}
    ranges = [(w, c / n, *clopper_pearson(c, n)) for w, c, n in parts]
    low = point - math.sqrt(sum((w * (p - lo)) ** 2 for w, p, lo, _hi in ranges))
    high = point + math.sqrt(sum((w * (hi - p)) ** 2 for w, p, _lo, hi in ranges)) + crossing
    return {**out, "probability": point, "ci95": [max(low, 0.0), high], "one_in": 1 / point}


def computed(game_path: Path) -> dict:
    """The top prize estimated from the published estimate beside `game_path` (refused when
    that estimate belongs to another version of the file)."""
    from reelforge.analysis.stratified import from_state
    from reelforge.games import estimate_beside

    data = estimate_beside(game_path)
    if data is None:
        raise ReelforgeError(f"{game_path}: no published estimate beside it "
                             f"({game_path.with_suffix('.rtp.json').name}); run reelforge "
                             "estimate --out first")
    return estimated(from_state(data["state"]))


def published(game_path: Path, command: str) -> dict:
    """The file `reelforge top-prize --out` writes beside the game file."""
    import hashlib

    from reelforge.spec import load_spec

    estimate_path = game_path.with_suffix(".rtp.json")
    return {"game_sha256": load_spec(game_path).sha256, "command": command,
            "estimate": estimate_path.name,
            "estimate_sha256": hashlib.sha256(estimate_path.read_bytes()).hexdigest(),
            "top_prize": computed(game_path)}


def top_beside(game_path: Path) -> dict | None:
    """The published top-prize figure `<stem>.top.json` beside `game_path`, or None; refused
    when it belongs to another version of the game file or of its estimate."""
    import hashlib

    from reelforge.spec import load_spec

    found = game_path.with_suffix(TOP_SUFFIX)
    if not found.is_file():
        return None
    data = json.loads(found.read_text(encoding="utf-8"))
    estimate_path = game_path.with_suffix(".rtp.json")
    fresh = (data.get("game_sha256") == load_spec(game_path).sha256 and estimate_path.is_file()
             and data.get("estimate_sha256")
             == hashlib.sha256(estimate_path.read_bytes()).hexdigest())
    if not fresh:
        raise ReelforgeError(f"{found}: the top prize of another version of {game_path.name} "
                             f"or its estimate; rerun: {data.get('command', 'reelforge top-prize')}")
    return data


# -- per game --------------------------------------------------------------------------------------
EXACT = {cap.EXACT_WAYS: ways_top, cap.EXACT_HOLDWIN: holdwin_top}


def top_prize(game) -> dict | None:
    """The game's top prize and its probability per round at the highest bet: exact where the
    analysis gives it, else the published estimate beside the game file; None where neither
    exists (a line game's is catalog.top_award's)."""
    for name, figure in EXACT.items():
        if name in game.capabilities:
            return figure(game)
    if cap.STRATIFIED in game.capabilities:
        path = Path(game.spec.source)
        data = top_beside(path) if path.is_file() else None
        return None if data is None else data["top_prize"]
    return None
