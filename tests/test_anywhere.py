"""Pays anywhere (`family = "anywhere"`): the round kernel against a plain-Python reference
written from the rules in words, played round for round on the same draws; the exact drawn-
grid figures against enumeration of every grid of a tiny game and against Monte Carlo; the
example game end to end (play, replay, determinism, check_game); the loader's refusals."""

from __future__ import annotations

import itertools
import math
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reelforge.analysis.anywhere_figures import drawn_grid_pays, drawn_grid_trigger
from reelforge.engine import anywhere as ak
from reelforge.engine.families import compile_game
from reelforge.engine.rng import draw_below, live_generator
from reelforge.engine.round import play_round, replay
from reelforge.errors import SpecError
from reelforge.games import make
from reelforge.spec import parse_spec

EXAMPLE = "anywhere-example-v1"


def tiny(cap: int = 0, max_spins: int = 6, rows: int = 3, cols: int = 3,
         a_range: str = '"3-4" = 2, "5+" = 10', award: str = "{ 2 = 3 }") -> str:
    return f"""
[game]
id = "tiny-anywhere-v1"
name = "Tiny anywhere"
family = "anywhere"
rows = {rows}
cols = {cols}

[symbols]
A = {{ role = "regular" }}
B = {{ role = "regular" }}
S = {{ role = "scatter" }}
M2 = {{ role = "multiplier" }}
M5 = {{ role = "multiplier" }}

[anywhere.pays]
A = {{ {a_range} }}
B = {{ "3+" = 1 }}

[anywhere.multiplier]
start = 1
per_tumble = 2
max = 40
symbols = {{ M2 = 2, M5 = 5 }}

[anywhere.free_spins]
scatter = "S"
award = {award}
retrigger = {{ 2 = 2 }}
max_spins = {max_spins}
reel_set = "free"

[reels.base.weights]
A = [4, 3, 5]
B = 3
S = 1
M2 = [1, 0, 1]
M5 = 0

[reels.free.weights]
A = 3
B = [2, 4, 3]
S = 1
M2 = 1
M5 = [0, 1, 0]

[bet]
pay_unit = 4
max_coin_value = 3
max_win_x = {cap}
"""


# ---------------------------------------------------------------- the reference


class Reference:
    """The rules in words, in plain Python, from the file's data (not the compiled model):
    every draw is `draw_below(rng, column total)` mapped to the symbol whose cumulative
    weight first exceeds it, columns left to right, cells top to bottom."""

    def __init__(self, text: str):
        data = tomllib.loads(text)
        self.rows, self.cols = data["game"]["rows"], data["game"]["cols"]
        self.symbols = list(data["symbols"])
        self.roles = {s: v["role"] for s, v in data["symbols"].items()}
        self.pays = {}
        for sid, ranges in data["anywhere"]["pays"].items():
            table = []
            for key, coins in ranges.items():
                if key.endswith("+"):
                    low, high = int(key[:-1]), self.rows * self.cols
                elif "-" in key:
                    low, high = map(int, key.split("-"))
                else:
                    low = high = int(key)
                table.append((low, high, coins))
            self.pays[sid] = table
        m = data["anywhere"]["multiplier"]
        self.start, self.step, self.top = m["start"], m["per_tumble"], m["max"]
        self.values = m["symbols"]
        f = data["anywhere"]["free_spins"]
        self.scatter, self.max_spins, self.free_set = f["scatter"], f["max_spins"], f["reel_set"]
        self.award = {int(k): v for k, v in f["award"].items()}
        self.retrigger = {int(k): v for k, v in f.get("retrigger", {}).items()}
        self.weights = {}
        for name, rs in data["reels"].items():
            w = rs["weights"]
            self.weights[name] = [[(s, w[s] if isinstance(w[s], int) else w[s][c])
                                   for s in self.symbols if s in w] for c in range(self.cols)]
        self.cap = data["bet"]["max_win_x"] * data["bet"]["pay_unit"]

    def draw(self, rs, col, rng):
        column = self.weights[rs][col]
        t = int(draw_below(rng.bit_generator, sum(w for _s, w in column)))
        for s, w in column:
            if t < w:
                return s
            t -= w
        raise AssertionError("weights exhausted")

    def pay(self, sid, count):
        return next((coins for low, high, coins in self.pays.get(sid, ()) if low <= count <= high), 0)

    def spin(self, rs, multiplier, headroom, rng):
        """(grids [col][row], wins (symbol, count, multiplier, win), win, multiplier, scatters,
        capped)."""
        grid = [[None] * self.rows for _ in range(self.cols)]  # [col][row]
        for c in range(self.cols):
            for r in range(self.rows):
                grid[c][r] = self.draw(rs, c, rng)
        grids, wins, win, capped = [tuple(map(tuple, grid))], [], 0, False
        while True:
            counts = {s: sum(col.count(s) for col in grid) for s in self.symbols}
            paying = [s for s in self.symbols if self.pay(s, counts[s]) > 0]
            if not paying:
                break
            multiplier = min(multiplier + sum(self.values.get(s, 0) * counts[s]
                                              for s in self.symbols), self.top)
            for s in paying:
                won = self.pay(s, counts[s]) * multiplier
                win += won
                wins.append((s, counts[s], multiplier, won))
            multiplier = min(multiplier + self.step, self.top)
            if headroom and win >= headroom:
                win, capped = headroom, True
                break
            gone = set(paying) | {s for s in self.symbols if self.roles[s] == "multiplier"}
            for c in range(self.cols):
                kept = [s for s in grid[c] if s not in gone]
                new = [self.draw(rs, c, rng) for _ in range(self.rows - len(kept))]
                grid[c] = new + kept
            grids.append(tuple(map(tuple, grid)))
        scatters = sum(col.count(self.scatter) for col in grid)
        return grids, wins, win, multiplier, scatters, capped

    def award_of(self, table, count):
        keys = [k for k in table if k <= count]
        return table[max(keys)] if keys else 0

    def round(self, rng):
        """[(kind, grids, wins, win, multiplier after)], awards [(spins, asked, total,
        scatters)], total, capped."""
        grids, wins, win, mult, scatters, capped = self.spin("base", self.start, self.cap, rng)
        spins = [("base", grids, wins, win, mult)]
        total, awards = win, []
        asked = 0 if capped else self.award_of(self.award, scatters)
        awarded = left = min(asked, self.max_spins)
        if asked:
            awards.append((awarded, asked, awarded, scatters))
        while left and not capped:
            left -= 1
            grids, wins, win, mult, scatters, capped = self.spin(
                self.free_set, mult, self.cap - total if self.cap else 0, rng)
            total += win
            spins.append(("free", grids, wins, win, mult))
            asked = self.award_of(self.retrigger, scatters)
            if asked and not capped:
                more = min(asked, self.max_spins - awarded)
                awarded += more
                left += more
                awards.append((more, asked, awarded, scatters))
        return spins, awards, total, capped


def as_reference(outcome):
    spins = []
    for s in outcome.spins:
        grids = [g.symbols for g in s.grids]
        wins = [(e.symbol, e.count, e.multiplier, e.win) for e in s.scatter_wins]
        spins.append((s.kind, grids, wins, s.win, s.multiplier))
    awards = [(a.spins_awarded, a.spins_requested, a.total_awarded, a.trigger_count)
              for a in outcome.awards]
    return spins, awards, outcome.total_win, outcome.win_capped


CASES = {"tiny": (tiny(), False), "tiny, cap 6x": (tiny(cap=6), True),
         "tiny, max 2 spins": (tiny(max_spins=2), False)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_kernel_round_equals_the_reference_on_the_same_draws(name):
    text, capped = CASES[name]
    game = compile_game(parse_spec(text, name))
    ref = Reference(text)
    bet = game.bet(bet_per_line=1)
    seen = {"free": 0, "tumbles": 0, "capped": 0, "retriggers": 0, "multiplied": 0}
    for seed in range(400):
        outcome = play_round(game, bet, np.random.Generator(np.random.PCG64(seed)))
        expected = ref.round(np.random.Generator(np.random.PCG64(seed)))
        assert as_reference(outcome) == expected, f"seed {seed}"
        seen["free"] += outcome.counters.free_spins_played
        seen["tumbles"] += sum(len(s.grids) - 1 for s in outcome.spins)
        seen["capped"] += outcome.win_capped
        seen["retriggers"] += outcome.counters.retriggers
        # every grid but a spin's last paid: multiplier symbols on one of them were collected
        seen["multiplied"] += any(cell in ("M2", "M5") for s in outcome.spins
                                  for g in s.grids[:-1] for col in g.symbols for cell in col)
    # the cases exercise what they are for: free spins, tumbles, retriggers, multiplier symbols
    assert seen["free"] and seen["tumbles"] and seen["retriggers"] and seen["multiplied"]
    assert (seen["capped"] > 0) == capped


def test_example_round_equals_the_reference_on_the_same_draws():
    game = make(EXAMPLE)
    ref = Reference(Path(game.spec.source).read_text(encoding="utf-8"))
    free = 0
    for seed in range(3000):
        outcome = play_round(game, game.bet(bet_per_line=1), np.random.Generator(np.random.PCG64(seed)))
        assert as_reference(outcome) == ref.round(np.random.Generator(np.random.PCG64(seed))), seed
        free += outcome.counters.free_spins_played
    assert free > 0


# ---------------------------------------------------------------- exact drawn-grid figures


def enumerate_grids(text: str, reel_set: str):
    """Every grid with its probability: (P, {symbol: count})."""
    ref = Reference(text)
    columns = []
    for c in range(ref.cols):
        column = ref.weights[reel_set][c]
        total = sum(w for _s, w in column)
        columns.extend([[(s, Fraction(w, total)) for s, w in column if w]] * ref.rows)
    for cells in itertools.product(*columns):
        p = math.prod((q for _s, q in cells), start=Fraction(1))
        counts: dict = {}
        for s, _q in cells:
            counts[s] = counts.get(s, 0) + 1
        yield p, counts


@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 2), (2, 3)])
def test_exact_drawn_grid_figures_equal_enumeration(rows, cols):
    text = tiny(rows=rows, cols=cols, a_range='"2" = 1, "3" = 2, "4+" = 10', award="{ 2 = 3 }")
    text = text.replace("[4, 3, 5]", str([4, 3, 5][:cols])).replace("[1, 0, 1]", str([1, 0, 1][:cols]))
    text = text.replace("[2, 4, 3]", str([2, 4, 3][:cols])).replace("[0, 1, 0]", str([0, 1, 0][:cols]))
    spec = parse_spec(text, "tiny")
    ref = Reference(text)
    pays = trigger = Fraction(0)
    for p, counts in enumerate_grids(text, "base"):
        pays += p * sum(ref.pay(s, n) for s, n in counts.items())
        trigger += p * (counts.get("S", 0) >= 2)
    assert drawn_grid_pays(spec) == pays  # exact rationals: equal, not close
    assert drawn_grid_trigger(spec) == trigger


def test_monte_carlo_drawn_grids_within_4_se_of_exact():
    game = make(EXAMPLE)
    m, spec = game.model, game.spec
    n = 200_000
    totals = np.zeros((m.pay.shape[0] + 1, spec.cells + 1), dtype=np.int64)
    grid = np.zeros((spec.rows, spec.cols), dtype=np.int16)
    counts = np.zeros(m.pay.shape[0], dtype=np.int64)
    ak.sample_drawn_grids(m, 0, np.random.PCG64(3), n, grid, counts, totals)
    scatter = list(spec.symbol_ids).index("SCATTER")
    hits = int(totals[scatter, 4:].sum())
    p = float(drawn_grid_trigger(spec))
    assert abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
    # the pays: the sample's SD bounds its SE (pays are bounded, the mean's SE is sd/sqrt(n))
    exact = float(drawn_grid_pays(spec))
    second = sum(float(Fraction(int(totals[s, k]), n)) * int(m.pay[s, k]) ** 2
                 for s in range(m.pay.shape[0]) for k in range(spec.cells + 1))
    se = math.sqrt(max(second - exact ** 2, 0.0) * spec.cells / n)  # generous: symbols share cells
    assert abs(int(totals[-1, 0]) / n - exact) <= 4 * se
    assert 0 < p < 0.01 and exact > 0


# ---------------------------------------------------------------- the example end to end


def test_same_seed_same_round_and_replay_equals_the_original():
    game = make(EXAMPLE)
    bet = game.bet()
    for seed in (1, 2, 99, 2**255 + 7):
        a = game.play(bet, live_generator(seed), seed)
        b = game.play(bet, live_generator(seed), seed)
        assert a == b
        assert replay(game, a.to_dict()) == a


def test_example_checks_and_describes_itself():
    game = make(EXAMPLE)
    game.check(rounds=300)
    info = game.info()
    assert info["window"] == {"reels": 6, "rows": 5} and info["min_count"] == 8
    assert game.max_win().enforced == "cap"


def test_simulation_counts_what_play_pays():
    """simulate's counters on one stream equal the sums of play's outcomes on it."""
    game = make(EXAMPLE)
    bet = game.bet(bet_per_line=3)
    values, _bands, squares = game.simulate(bet, np.random.Generator(np.random.PCG64(5)), 2000, (1, 10))
    rng = np.random.Generator(np.random.PCG64(5))
    outcomes = [game.play(bet, rng) for _ in range(2000)]
    assert values["total_win"] == sum(o.total_win for o in outcomes)
    assert values["base_line_win"] == sum(o.breakdown["base_game"] for o in outcomes)
    assert values["feature_win"] == sum(o.breakdown["free_spins"] for o in outcomes)
    assert values["feature_spins"] == sum(o.counters.free_spins_played for o in outcomes)
    assert squares == sum(o.total_win ** 2 for o in outcomes)


# ---------------------------------------------------------------- the loader's refusals


@pytest.mark.parametrize("change,key", [
    (lambda t: t.replace("award = { 2 = 3 }", "award = { 10 = 3 }"), "award.10"),
    (lambda t: t.replace('"5+" = 10', '"12+" = 10'), "pays.A.12+"),
    (lambda t: t.replace("max_spins = 6", "max_spins = 1000000000"), "max_spins"),
    (lambda t: t.replace("max_spins = 6\n", ""), "max_spins"),
    (lambda t: t.replace("S = 1\n", "S = 0\n"), "scatter"),
    (lambda t: t.replace('"3-4" = 2', '"3-5" = 2'), "pays.A"),
    (lambda t: t.replace("max = 40", "max = 0"), "multiplier.max"),
    (lambda t: t.replace(", M5 = 5 }", " }"), "M5"),
])
def test_loader_refuses_impossible_designs_naming_the_key(change, key):
    with pytest.raises(SpecError) as info:
        parse_spec(change(tiny()), "bad.toml")
    assert key in str(info.value)


def test_check_calls_an_rtp_above_100_percent():
    from reelforge.analysis.sanity import rtp_above_one

    generous = compile_game(parse_spec(tiny().replace('"3-4" = 2, "5+" = 10', '"3-4" = 40, "5+" = 90'),
                                       "generous.toml"))
    found = rtp_above_one(generous, 2000)
    assert len(found) == 1 and "base game" in found[0] and "above 100%" in found[0]
    assert rtp_above_one(make(EXAMPLE), 2000) == []  # its published estimate, 96.7% ± 1.0 pp


def test_par_sheet_labels_each_figure(tmp_path):
    from reelforge.analysis.anywhere_par import build_anywhere_par, write_anywhere_par

    game = make(EXAMPLE)
    figures = build_anywhere_par(game, game.max_bet, 20_000, 1)
    assert figures["exact"]["drawn_grid_rtp"] == float(drawn_grid_pays(game.spec) / game.spec.pay_unit)
    assert figures["exact"]["label"].startswith("exact")
    assert figures["published"]["label"].startswith("published estimate")
    assert figures["simulated"]["label"].startswith("simulated")
    # the awards by range add up to the exact drawn-grid figure
    assert math.isclose(sum(a["rtp"] for a in figures["exact"]["awards"]),
                        figures["exact"]["drawn_grid_rtp"], rel_tol=1e-12)
    paths = write_anywhere_par(figures, tmp_path)
    assert [p.name for p in paths] == [f"{EXAMPLE}-par.html", f"{EXAMPLE}-par.json"]
    assert "published estimate" in paths[0].read_text(encoding="utf-8")
