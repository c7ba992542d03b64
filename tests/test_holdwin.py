"""Hold-and-win respins (`family = "holdwin"`): the kernel against a plain-Python reference
round for round on the same draws; the exact analysis against a forward propagation of the
respins' chain and a brute-force walk over every stop combination of a tiny game; the example
end to end (play, replay, Monte Carlo within 4 SE of exact, check_game); the loader's refusals."""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction

import numpy as np
import pytest

from reelforge.analysis.holdwin_exact import holdwin_figures, respin_chain, window_prize_counts
from reelforge.analysis.montecarlo import simulate
from reelforge.engine.check import check_game
from reelforge.engine.families import compile_game
from reelforge.engine.rng import draw_below, live_generator
from reelforge.engine.round import replay
from reelforge.errors import SpecError
from reelforge.games import make
from reelforge.spec import parse_spec

EXAMPLE = "holdwin-example-v1"


def tiny(trigger: int = 3, odds: str = "[1, 3]", grand: int = 40, cap: int = 0,
         values: str = "1 = 5\n2 = 3\n4 = 1", jackpots: str = 'MINI = { x = 10, weight = 1 }',
         strips: str = '"A P P B A C P", "B P P W A C", "C P A B P W A"') -> str:
    return f"""
[game]
id = "tiny-holdwin-v1"
name = "Tiny hold and win"
family = "holdwin"
reels = 3
rows = 2

[symbols]
A = {{ role = "regular" }}
B = {{ role = "regular" }}
C = {{ role = "regular" }}
W = {{ role = "wild" }}
P = {{ role = "bonus" }}
E = {{ role = "regular" }}

[ways]
wild_multiplier_combine = "multiply"

[ways.wilds.W]
multiplier = 2

[ways.pays]
A = {{ 2 = 3, 3 = 10 }}
B = {{ 3 = 7 }}
C = {{ 2 = 1, 3 = 4 }}

[hold]
prize = "P"
blank = "E"
trigger = {trigger}
respins = 3
respin_prize_odds = {odds}
grand_x = {grand}

[hold.values]
{values}

[hold.jackpots]
{jackpots}

[reels.base]
strips = [{strips}]

[bet]
pay_unit = 10
max_coin_value = 3
max_win_x = {cap}
"""


def tiny_game(**kw):
    return compile_game(parse_spec(tiny(**kw), "tiny.toml"))


# ---------------------------------------------------------------- the reference round


def reference_ways(spec, window) -> int:
    """Coins of the ways wins at a coin value of 1: every way listed cell by cell."""
    wilds = {w.symbol: w for w in spec.base.wilds}
    total = 0
    for sym, pays in spec.base.pays:
        table = dict(pays)
        reels = 0
        while reels < spec.reels and any(c == sym or (c in wilds and sym in wilds[c].substitutes)
                                         for c in window[reels]):
            reels += 1
        if reels == 0 or table.get(reels, 0) == 0:
            continue
        choices = [[c for c in window[r] if c == sym or (c in wilds and sym in wilds[c].substitutes)]
                   for r in range(reels)]
        for way in itertools.product(*choices):
            total += table[reels] * math.prod(wilds[c].multiplier if c in wilds else 1 for c in way)
    return total


def reference_round(spec, coin_value: int, rng) -> dict:
    """The rules of spec/holdwin.py as plainly as they read, on the draws engine/holdwin.py
    documents: the window, a value per prize, then per respin a draw per empty cell."""
    window = []
    for strip in spec.base.strips:
        stop = int(draw_below(rng.bit_generator, len(strip)))
        window.append([strip[(stop + h) % len(strip)] for h in range(spec.rows)])
    ways = reference_ways(spec, window) * coin_value
    weights = [v.weight for v in spec.values]

    def value() -> int:
        at = int(draw_below(rng.bit_generator, sum(weights)))
        for i, w in enumerate(weights):
            if at < w:
                return i
            at -= w
        raise AssertionError

    cells = [(r, h) for r in range(spec.reels) for h in range(spec.rows)]
    locked = {c: value() for c in cells if window[c[0]][c[1]] == spec.prize}
    if len(locked) < spec.trigger:
        win = ways
        return {"win": min(win, spec.max_win_x * spec.pay_unit * coin_value) if spec.max_win_x
                else win, "respins": 0, "locked": 0}
    lives, played = spec.respins, 0
    n, d = spec.respin_odds
    while lives and len(locked) < len(cells):
        played += 1
        landed = 0
        for c in cells:
            if c not in locked and draw_below(rng.bit_generator, d) < n:
                locked[c] = value()
                landed += 1
        lives = spec.respins if landed else lives - 1
    stakes = sum(spec.values[v].x for v in locked.values())
    stakes += spec.grand_x if len(locked) == len(cells) else 0
    win = ways + stakes * spec.pay_unit * coin_value
    if spec.max_win_x:
        win = min(win, spec.max_win_x * spec.pay_unit * coin_value)
    return {"win": win, "respins": played, "locked": len(locked)}


@pytest.mark.parametrize("game", [lambda: tiny_game(), lambda: tiny_game(cap=30),
                                  lambda: make(EXAMPLE)])
def test_every_round_is_the_reference_round_on_the_same_draws(game):
    game = game()
    bet = game.max_bet
    triggered = full = 0
    for seed in range(400 if game.id == EXAMPLE else 1500):
        outcome = game.play(bet, np.random.Generator(np.random.PCG64(seed)))
        ref = reference_round(game.spec, bet.bet_per_line, np.random.Generator(np.random.PCG64(seed)))
        assert (outcome.total_win, outcome.counters.bonus_spins) == (ref["win"], ref["respins"]), seed
        assert len(outcome.spins) == 1 + ref["respins"] <= 1 + game.max_round_spins()
        cash = [e for s in outcome.spins for e in s.events if e.type == "cash"]
        assert len(cash) == ref["locked"]
        triggered += ref["respins"] > 0
        full += ref["locked"] == game.spec.cells
    assert triggered > 0
    if game.id != EXAMPLE:
        assert full > 0  # the tiny game fills its screen often: the grand prize is tested


# ---------------------------------------------------------------- the exact analysis


def forward_chain(cells: int, respins: int, p: Fraction, k: int) -> tuple[Fraction, Fraction]:
    """(E[locked at the end], P(full)) by pushing the probability of every (locked, left)
    state forward one respin at a time until none is left running."""
    running = {(k, respins): Fraction(1)}
    locked = full = Fraction(0)
    while running:
        nxt: dict[tuple[int, int], Fraction] = {}
        for (n, left), pr in running.items():
            if n == cells or left == 0:
                locked += pr * n
                full += pr if n == cells else 0
                continue
            empty = cells - n
            for j in range(empty + 1):
                q = pr * math.comb(empty, j) * p ** j * (1 - p) ** (empty - j)
                key = (n + j, respins if j else left - 1)
                nxt[key] = nxt.get(key, Fraction(0)) + q
        running = nxt
    return locked, full


def test_the_respin_chain_equals_a_forward_propagation():
    for cells, respins, p in ((6, 3, Fraction(1, 3)), (15, 3, Fraction(1, 18)), (4, 2, Fraction(1, 2))):
        chain = respin_chain(cells, respins, p)
        for k in range(1, cells + 1):
            assert (chain[k].locked, chain[k].full) == forward_chain(cells, respins, p, k)


def test_exact_rtp_equals_a_walk_over_every_stop_combination():
    game = tiny_game()
    spec = game.spec
    f = holdwin_figures(game)
    chain = respin_chain(spec.cells, spec.respins, Fraction(*spec.respin_odds))
    mean = Fraction(sum(v.x * v.weight for v in spec.values), sum(v.weight for v in spec.values))
    total = Fraction(0)
    combos = 0
    counts: dict[int, int] = {}
    for stops in itertools.product(*(range(len(s)) for s in spec.base.strips)):
        window = [[s[(stop + h) % len(s)] for h in range(spec.rows)]
                  for s, stop in zip(spec.base.strips, stops)]
        k = sum(c == spec.prize for col in window for c in col)
        counts[k] = counts.get(k, 0) + 1
        win = Fraction(reference_ways(spec, window), spec.pay_unit)
        if k >= spec.trigger:
            win += chain[k].locked * mean + chain[k].full * spec.grand_x
        total += win
        combos += 1
    assert f.rtp == total / combos
    assert window_prize_counts(spec) == {k: Fraction(c, combos) for k, c in sorted(counts.items())}


def test_monte_carlo_agrees_with_the_exact_rtp_within_4_se():
    game = make(EXAMPLE)
    f = holdwin_figures(game)
    assert f.cap_unreachable  # the cap (10000x) is above the engine's bound: exact is exact
    stats = simulate(EXAMPLE, game.max_bet, 400_000, 7, workers=1)
    assert abs(stats.rtp - float(f.rtp)) <= 4 * stats.rtp_standard_error


def test_tiny_monte_carlo_agrees_with_exact_within_4_se():
    game = tiny_game()
    stats = simulate(str(_tiny_path()), game.max_bet, 200_000, 3, workers=1)
    rtp = float(holdwin_figures(game).rtp)
    assert abs(stats.rtp - rtp) <= 4 * stats.rtp_standard_error


def _tiny_path():
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "tiny-holdwin.toml"
    path.write_text(tiny(), encoding="utf-8")
    return path


def test_game_rtp_is_labelled_exact_and_check_game_passes():
    import reelforge.analysis  # noqa: F401 - registers the exact figures

    game = make(EXAMPLE)
    (figure,) = game.rtp()
    assert figure.source == "exact" and figure.value == pytest.approx(float(holdwin_figures(game).rtp))
    assert game.max_win().enforced == "bound"
    check_game(game, rounds=300)


# ---------------------------------------------------------------- the example end to end


def test_the_example_replays_and_its_json_round_trips():
    game = make(EXAMPLE)
    seeds = 0
    for seed in range(400):
        o = game.play(game.max_bet, live_generator(seed), seed)
        if len(o.spins) > 1:
            seeds += 1
            assert replay(game, json.loads(o.to_json())) == o
            last = o.spins[-1]
            paid = sum(e.win for e in last.events if e.type in ("collection", "jackpot"))
            assert paid == last.win == o.total_win - o.spins[0].win
            assert all(s.kind == "bonus" and s.events[0].type == "window" for s in o.spins[1:])
    assert seeds > 0


def test_the_longest_feature_fits_its_tape():
    """The tape is sized by max_round_spins, (cells - trigger + 1) x respins (one prize after
    two blank respins, every time): each respin played is a spin of the outcome."""
    game = tiny_game()
    assert game.max_round_spins() == (6 - 3 + 1) * 3
    worst = 0
    for seed in range(3000):
        o = game.play(game.max_bet, np.random.Generator(np.random.PCG64(seed)))
        assert len(o.spins) == 1 + o.counters.bonus_spins
        worst = max(worst, o.counters.bonus_spins)
    assert 0 < worst <= game.max_round_spins()


def test_same_seed_same_round():
    game = make(EXAMPLE)
    a = [game.play(game.max_bet, live_generator(s), s) for s in range(50)]
    b = [game.play(game.max_bet, live_generator(s), s) for s in range(50)]
    assert a == b


def test_a_round_that_pays_more_than_it_takes_is_called_so():
    from reelforge.analysis.sanity import rtp_above_one

    game = tiny_game(values="100 = 1")
    found = rtp_above_one(game, 100)
    assert found and "above 100%" in found[0] and "(exact)" in found[0]


# ---------------------------------------------------------------- the loader


@pytest.mark.parametrize(("edit", "says"), [
    (lambda t: t.replace("trigger = 3", "trigger = 7"), "hold.trigger"),  # 6 cells
    (lambda t: t.replace("trigger = 3", "trigger = 6"), "hold.trigger"),  # the reels show 5 P at most
    (lambda t: t.replace('prize = "P"', 'prize = "A"'), "hold.prize"),
    (lambda t: t.replace('blank = "E"', 'blank = "A"'), "hold.blank"),
    (lambda t: t.replace("respin_prize_odds = [1, 3]", "respin_prize_odds = [3, 3]"),
     "hold.respin_prize_odds"),
    (lambda t: t.replace("respin_prize_odds = [1, 3]", "respin_prize_odds = [0, 3]"),
     "hold.respin_prize_odds"),
    (lambda t: t.replace("1 = 5\n", "0 = 5\n"), "hold.values.0"),
    (lambda t: t.replace("MINI = ", "mini = "), "hold.jackpots.mini"),
    (lambda t: t.replace("grand_x = 40", "grand_x = 40\nlives = 3"), "hold.lives"),
    (lambda t: t.replace('P = { role = "bonus" }', 'P = { role = "scatter" }'), "symbols.P.role"),
])
def test_bad_files_are_refused_naming_the_key(edit, says):
    with pytest.raises(SpecError, match=re.escape(says)):
        parse_spec(edit(tiny()), "bad.toml")


def test_the_rng_inventory_holds_every_draw_a_round_makes():
    from reelforge.evidence.ranges import game_draws

    game = make(EXAMPLE)
    spec = game.spec
    wanted = sorted([len(s) for s in spec.base.strips] + [sum(v.weight for v in spec.values),
                                                           spec.respin_odds[1]])
    assert sorted(n for n, _source in game_draws(game)) == wanted


@pytest.mark.parametrize(("edit", "code", "says"), [
    (lambda t: t.replace("trigger = 3", "trigger = 7"), 2,  # a file refused: the CLI's exit 2
     "hold.trigger = 7: more prizes than the window's 6 cells"),
    (lambda t: t.replace("1 = 5\n2 = 3\n4 = 1", "100 = 1"), 1, "(exact) is above 100%"),
])
def test_reelforge_check_names_a_design_that_cannot_be_meant(tmp_path, edit, code, says):
    import subprocess
    import sys

    path = tmp_path / "bad-holdwin.toml"
    path.write_text(edit(tiny()), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "reelforge.cli", "check", str(path), "--rounds",
                          "1e2"], capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == code and says in run.stderr, run.stderr
