"""F4 (GlueStV 22a(3)): every served game's information page states the probability of its top
prize, exact or estimated with its 95% interval (analysis/top_prize.py says which prize each
family's is).

Expected figures are computed here, each its own way: the ways award and the hold-and-win
grand prize from the game file's TOML read directly (per-reel windows, a plain recursion over
the respins), the win cap's estimate from the published sample's raw counts with scipy's
binomial distribution's tails for each stratum's exact interval. The line games' sentence is checked against
their own exact analysis in test_top_award.py.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import tomllib
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from scipy.optimize import brentq
from scipy.stats import binom
from typer.testing import CliRunner

from reelforge.analysis import top_prize as tp
from reelforge.analysis.stratified import estimate, to_state
from reelforge.cli import app
from reelforge.engine.capabilities import EXACT_HOLDWIN, EXACT_LINES, EXACT_WAYS, STRATIFIED
from reelforge.errors import ReelforgeError
from reelforge.games import make, shipped_games
from reelforge.server.services import catalog

GAMES = sorted(shipped_games())
ESTIMATED = sorted(g for g in GAMES if STRATIFIED in make(g).capabilities)


def page_items(game_id: str) -> list[str]:
    served = catalog.configured_game(game_id, "on")
    # a multiple of the bet the client says (core/max-win.ts) read as <times x>
    return [" ".join(p if isinstance(p, str) else f"<times {p['times']}>" for p in item
                     if isinstance(p, str) or "times" in p)
            for section in catalog.game_help(served)["sections"]
            for block in section["blocks"] if block["kind"] == "ul" for item in block["items"]]


def once_in(p: float) -> str:
    return f"once in {round(1 / p):,} plays"


# -- independent figures ------------------------------------------------------------------------
def windows(strip: list[str], rows: int) -> list[list[str]]:
    n = len(strip)
    return [[strip[(i + r) % n] for r in range(rows)] for i in range(n)]


def ways_top_probability(path: Path) -> tuple[str, int, Fraction]:
    """The largest pay per way and P(it pays): the symbol on reel 1 (wilds never there) and it
    or a wild on every later reel it needs, reels independent, stops uniform."""
    data = tomllib.loads(path.read_text())
    pays = {s: {int(k): v for k, v in c.items()} for s, c in data["ways"]["pays"].items()}
    best = max(v for c in pays.values() for v in c.values())
    wilds = {s for s, d in data["symbols"].items() if d["role"] == "wild"}
    rows = data["game"]["rows"]
    strips = [s.split() for s in data["reels"]["base"]["strips"]]
    found = []
    for symbol, counts in pays.items():
        for k, pay in counts.items():
            if pay != best:
                continue
            p = Fraction(1)
            for r, strip in enumerate(strips[:k]):
                subs = {symbol} | (wilds if r > 0 else set())
                showing = sum(bool(subs & set(w)) for w in windows(strip, rows))
                p *= Fraction(showing, len(strip))
            if k < len(strips):  # exactly k reels: reel k + 1 shows none of it
                strip = strips[k]
                none = sum(not (({symbol} | wilds) & set(w)) for w in windows(strip, rows))
                p *= Fraction(none, len(strip))
            found.append((symbol, k, p))
    return min(found, key=lambda t: t[2])


def holdwin_grand_probability(path: Path) -> Fraction:
    data = tomllib.loads(path.read_text())
    rows = data["game"]["rows"]
    prize, hold = data["hold"]["prize"], data["hold"]
    cells = rows * data["game"]["reels"]
    dist = {0: Fraction(1)}
    for strip in (s.split() for s in data["reels"]["base"]["strips"]):
        per: dict[int, Fraction] = {}
        for w in windows(strip, rows):
            c = w.count(prize)
            per[c] = per.get(c, 0) + Fraction(1, len(strip))
        new: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in per.items():
                new[a + b] = new.get(a + b, 0) + pa * pb
        dist = new
    q = Fraction(*hold["respin_prize_odds"])

    @cache
    def full(locked: int, left: int) -> Fraction:
        if locked == cells:
            return Fraction(1)
        if left == 0:
            return Fraction(0)
        empty = cells - locked
        total = Fraction(0)
        for j in range(empty + 1):
            pj = math.comb(empty, j) * q ** j * (1 - q) ** (empty - j)
            total += pj * (full(locked + j, hold["respins"]) if j else full(locked, left - 1))
        return total

    return sum((p * full(k, hold["respins"]) for k, p in dist.items() if k >= hold["trigger"]),
               Fraction(0))


def exact_interval(hits: int, n: int) -> tuple[float, float]:
    """Clopper-Pearson from its definition: the p at which the binomial tails beyond the count
    hold 2.5% each, found by root finding on the binomial distribution."""
    low = 0.0 if hits == 0 else brentq(lambda p: binom.sf(hits - 1, n, p) - 0.025, 0, 1,
                                        xtol=1e-300, rtol=1e-15)
    high = brentq(lambda p: binom.cdf(hits, n, p) - 0.025, 0, 1, xtol=1e-300, rtol=1e-15)
    return low, high


def cap_figure(state: dict) -> dict:
    """The win cap's probability, its 95% interval and the crossing bound, from the raw counts
    of a stratified sample (analysis/stratified.py's state)."""
    base = state["base"]
    n = base["spins"]
    p0 = {int(m): p for m, p in state["p0"].items()}

    def trigger(m: int) -> float:  # P(m): the drawn grid's exact part plus the tumbles' moves
        moved = sum(row[2] * ((row[1] == m) - ((row[0] if p0 else 0) == m))
                    for row in base["by_pair"])
        return p0.get(m, 0.0) + moved / n

    parts = [(1.0, base["capped"], n)]
    crossing = 0.0
    for m, f in sorted(state["features"].items(), key=lambda kv: int(kv[0])):
        if f["rounds"]:
            w = trigger(int(m))
            parts.append((w, f["capped"], f["rounds"]))
            crossing += w * (f["near_cap"] - f["capped"]) / f["rounds"]
    crossing += sum(r[4] for r in base["by_pair"] if r[1]) / (1000 * state["stake"]) / n
    hits = sum(c for _w, c, _n in parts)
    point = sum(w * c / k for w, c, k in parts)
    if hits == 0:
        upper = math.sqrt(sum((w * (1 - 0.05 ** (1 / k))) ** 2 for w, _c, k in parts))
        return {"hits": 0, "upper": upper + crossing, "crossing": crossing}
    low2 = high2 = 0.0
    for w, c, k in parts:
        low, high = exact_interval(c, k)
        low2 += (w * (c / k - low)) ** 2
        high2 += (w * (high - c / k)) ** 2
    return {"hits": hits, "point": point, "low": max(point - math.sqrt(low2), 0.0),
            "high": point + math.sqrt(high2) + crossing, "crossing": crossing}


# -- the pages -------------------------------------------------------------------------------------
def test_every_family_has_a_top_prize():
    kinds = {g: make(g).capabilities for g in GAMES}
    assert all(caps & {EXACT_LINES, EXACT_WAYS, EXACT_HOLDWIN, STRATIFIED} for caps in kinds.values())
    assert {"candy-jar-clusters-v1", "anywhere-example-v1", "cluster-mult-example-v1"} <= set(ESTIMATED)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_served_games_page_states_its_top_prizes_probability(game_id):
    """Every shipped game (each one an operator may serve) says on its pages what its top prize
    is and how rarely it comes: exact, or an estimate with its 95% interval and sample size."""
    game = make(game_id)
    path = shipped_games()[game_id]
    said = [item for item in page_items(game_id) if "once in" in item]
    assert len(said) == 1, (game_id, said)
    line = said[0]
    if EXACT_LINES in game.capabilities:
        assert "top award of the paytable" in line  # its figure: test_top_award.py
    elif EXACT_WAYS in game.capabilities:
        symbol, k, p = ways_top_probability(path)
        name = next(s.name for s in game.spec.symbols if s.id == symbol)
        assert f"{k} {name} on a way" in line and once_in(p) in line
        assert "calculated exactly" in line
    elif EXACT_HOLDWIN in game.capabilities:
        p = holdwin_grand_probability(path)
        assert "grand prize" in line and once_in(p) in line and "calculated exactly" in line
    else:
        data = json.loads(path.with_suffix(".rtp.json").read_text())
        mine = cap_figure(data["state"])
        cap_x = data["state"]["cap"] // data["state"]["stake"]
        assert "The top prize is the maximum win," in line and f"<times {float(cap_x)}>" in line
        assert mine["hits"] > 0, "every shipped estimated game reached its cap in its sample"
        assert f"{once_in(mine['point'])} at the highest bet" in line, (line, mine)
        # the interval's ends (a figure rounded from a value within 1e-9 may differ by 1)
        said_ends = [int(x.replace(",", "")) for x in
                     re.findall(r"between once in ([\d,]+) plays and once in ([\d,]+) plays",
                                line)[0]]
        assert said_ends == pytest.approx([1 / mine["high"], 1 / mine["low"]], rel=1e-9, abs=1)
        assert "95% confidence" in line
        assert f"{data['figures']['base_spins']:,} simulated" in line


@pytest.mark.parametrize("game_id", ESTIMATED)
def test_the_published_top_prize_is_its_estimates_recomputation(game_id):
    """`<game>.top.json` holds what `reelforge top-prize GAME --out` computes from the sample
    of `<game>.rtp.json` beside it, which these counts give independently."""
    path = shipped_games()[game_id]
    shipped = json.loads(path.with_suffix(tp.TOP_SUFFIX).read_text())
    assert shipped["command"] == f"reelforge top-prize {game_id} --out"
    assert shipped["top_prize"] == tp.published(path, shipped["command"])["top_prize"]
    figure = shipped["top_prize"]
    mine = cap_figure(json.loads(path.with_suffix(".rtp.json").read_text())["state"])
    assert figure["probability"] == pytest.approx(mine["point"], rel=1e-12)
    assert figure["ci95"] == pytest.approx([mine["low"], mine["high"]], rel=1e-9)
    assert figure["crossing_bound"] == pytest.approx(mine["crossing"], rel=1e-12)
    result = CliRunner().invoke(app, ["top-prize", game_id, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == figure


@pytest.mark.parametrize(("game_id", "features"), [("candy-jar-clusters-v1", 2000),
                                                   ("cluster-mult-example-v1", 0)])
def test_a_small_seed_fixed_run_gives_the_recorded_methods_figure(game_id, features):
    """The recorded file's method on a small run (seconds): the same stratified sampler, the
    same seed, fewer rounds; its figure is the independent recomputation from its counts
    (Candy: a few rounds reach the cap; the cluster example: none, so an upper bound), and the
    published figure lies inside the small run's interval."""
    game = make(game_id)
    classes = game.strata.feature_classes(game)
    small = estimate(game_id, seed=1, base_spins=20_000,
                     feature_rounds=dict.fromkeys(classes, features), workers=1)
    figure = tp.estimated(small)
    mine = cap_figure(json.loads(json.dumps(to_state(small))))
    shipped = tp.top_beside(shipped_games()[game_id])["top_prize"]
    assert figure["method"] == shipped["method"]
    assert figure["hits"] == mine["hits"]
    if mine["hits"]:
        assert figure["ci95"] == pytest.approx([mine["low"], mine["high"]], rel=1e-9)
        assert mine["low"] <= shipped["probability"] <= mine["high"]
    else:
        assert figure["upper"] == pytest.approx(mine["upper"], rel=1e-12)
        assert shipped["probability"] <= mine["upper"]
        assert "fewer_than_one_in" in figure and figure["one_in"] is None


def test_a_stale_top_prize_file_is_refused(tmp_path):
    """A figure published for another version of the game file or of its estimate is refused."""
    source = shipped_games()["cluster-mult-example-v1"]
    for suffix in (".toml", ".rtp.json", tp.TOP_SUFFIX):
        shutil.copy(source.with_suffix(suffix), tmp_path / f"game{suffix}")
    assert tp.top_beside(tmp_path / "game.toml") is not None
    estimate_file = tmp_path / "game.rtp.json"
    estimate_file.write_text(estimate_file.read_text() + "\n")
    with pytest.raises(ReelforgeError, match="rerun: reelforge top-prize"):
        tp.top_beside(tmp_path / "game.toml")


def test_the_upper_bound_sentence_when_no_round_reached_the_cap():
    from reelforge.server.services.help import top_prize_sentence
    from reelforge.spec.facts import Times

    spec = make("cluster-mult-example-v1").spec
    top = {"kind": "cap", "cap_x": 5000.0, "base_spins": 1000, "feature_rounds": 0,
           "one_in": None, "fewer_than_one_in": 1 / (1 - 0.05 ** (1 / 1000))}
    parts = top_prize_sentence(spec, top)
    # the cap as a part the client says as every screen says the maximum win ("5,000× the bet")
    assert Times(5000.0) in parts
    said = "".join(p for p in parts if isinstance(p, str))
    assert "None of 1,000 simulated rounds reached it" in said
    assert "less often than once in 334 plays" in said


def test_the_estimates_top_prize_agrees_with_whole_rounds_played_the_plain_way(tmp_path):
    """On a tiny cluster game whose 50x cap binds about once in 85 rounds: `reelforge estimate
    --out` beside the game file writes its top prize beside it too (`top-prize` reads the same),
    and whole rounds simulated the plain way (`reelforge simulate`, another sampler) hit the cap
    at a rate inside the estimate's interval widened by the simulation's own 95% margin."""
    from test_cluster_games import PLAIN

    path = tmp_path / "tiny.toml"
    path.write_text(PLAIN, encoding="utf-8")
    runner = CliRunner()
    est = runner.invoke(app, ["estimate", str(path), "--ci", "0.03", "--seed", "5", "--workers",
                              "1", "--out", str(path.with_suffix(".rtp.json")), "--json"])
    assert est.exit_code == 0, est.output
    written = tp.top_beside(path)
    assert written is not None and written["top_prize"] == tp.computed(path)
    figure = written["top_prize"]
    shown = runner.invoke(app, ["top-prize", str(path), "--json"])
    assert json.loads(shown.stdout) == figure
    sim = runner.invoke(app, ["simulate", str(path), "--rounds", "200000", "--seed", "6",
                              "--workers", "1", "--json"])
    assert sim.exit_code == 0, sim.output
    s = json.loads(sim.output.strip().splitlines()[-1])
    rate = s["cap_hits"] / s["rounds"]
    margin = 1.96 * math.sqrt(rate * (1 - rate) / s["rounds"])
    low, high = figure["ci95"]
    assert low - margin <= rate <= high + margin, (rate, figure)
    assert figure["hits"] > 100 and figure["one_in"] == pytest.approx(1 / figure["probability"])
