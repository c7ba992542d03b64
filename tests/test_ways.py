"""Ways pays (`family = "ways"`): the kernel and the exact analysis against a plain-Python
reference that lists every way of every window of tiny games; the example game end to end
(play, replay, Monte Carlo within 4 SE of exact); the loader's refusals."""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction

import numpy as np
import pytest

from reelforge.analysis.montecarlo import simulate
from reelforge.analysis.ways_exact import analyze_ways, ways_figures
from reelforge.engine.families import compile_game
from reelforge.engine.round import play_round, replay
from reelforge.engine.rng import live_generator
from reelforge.errors import SpecError
from reelforge.games import make
from reelforge.spec import parse_spec

EXAMPLE = "ways-example-v1"


def tiny(rows: int, strips: list[str], combine: str = "multiply", first_reel: bool = False,
         cap: int = 0, pays: dict | None = None) -> str:
    reels = len(strips)
    table = pays or {"A": {2: 3, 3: 10}, "B": {2: 2, 3: 5, 4: 9, 5: 20}, "C": {1: 1, 3: 4}}
    pays = "\n".join(f"{sym} = {{ " + ", ".join(f"{k} = {v}" for k, v in by.items() if k <= reels)
                     + " }" for sym, by in table.items())
    return f"""
[game]
id = "tiny-ways-v1"
name = "Tiny ways"
family = "ways"
reels = {reels}
rows = {rows}

[symbols]
A = {{ role = "regular" }}
B = {{ role = "regular" }}
C = {{ role = "regular" }}
W = {{ role = "wild" }}
X = {{ role = "wild" }}

[ways]
wild_multiplier_combine = "{combine}"
wilds_on_first_reel = {str(first_reel).lower()}

[ways.wilds.W]
multiplier = 2

[ways.wilds.X]
multiplier = 3
except = ["C"]

[ways.pays]
{pays}

[reels.base]
strips = {json.dumps(strips)}

[bet]
pay_unit = 10
max_coin_value = 3
max_win_x = {cap}
"""


# ---------------------------------------------------------------- the reference


def reference_win(data: dict, window: list[list[str]]) -> int:
    """Coins at a coin value of 1, uncapped, from the rules in words: for each paying symbol,
    the leading reels showing it or a wild for it; every way through them (one such cell per
    reel) listed, and weighed by its wilds' multipliers multiplied (or added: their sum, 1
    with no wild)."""
    wilds = data["ways"].get("wilds", {})
    roles = {s: v["role"] for s, v in data["symbols"].items()}
    add = data["ways"].get("wild_multiplier_combine", "multiply") == "add"
    total = 0
    for symbol, pays in data["ways"]["pays"].items():
        def stands_for(cell: str) -> bool:
            if cell == symbol:
                return True
            return roles[cell] == "wild" and symbol not in wilds.get(cell, {}).get("except", [])

        columns = []
        for reel in window:
            cells = [c for c in reel if stands_for(c)]
            if not cells:
                break
            columns.append(cells)
        pay = pays.get(str(len(columns)), 0)
        if not columns or not pay:
            continue
        for way in itertools.product(*columns):
            mults = [wilds.get(c, {}).get("multiplier", 1) for c in way if c != symbol]
            total += pay * (max(sum(mults), 1) if add and mults else 1 if add else math.prod(mults))
    return total


def reference_figures(text: str) -> tuple[Fraction, Fraction, int, list[int]]:
    """(RTP uncapped, hit rate, top win in coins, every window's win) over every stop."""
    import tomllib

    data = tomllib.loads(text)
    rows = data["game"]["rows"]
    strips = [s.split() for s in data["reels"]["base"]["strips"]]
    wins = []
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        window = [[s[(stop + h) % len(s)] for h in range(rows)] for s, stop in zip(strips, stops)]
        wins.append(reference_win(data, window))
    n = len(wins)
    unit = data["bet"]["pay_unit"]
    return (Fraction(sum(wins), n * unit), Fraction(sum(w > 0 for w in wins), n), max(wins), wins)


CASES = {
    "243-style 3x3, multiply": tiny(3, ["A B C A C", "B W A C B X", "C A X B A W B"]),
    "add": tiny(3, ["A B C A C", "B W A C B X", "C A X B A W B"], combine="add"),
    "wild on reel 1, 2 rows": tiny(2, ["W A B C", "B X A C W", "A B C X"], first_reel=True),
    "1024 ways, 4 rows x 5 reels": tiny(4, ["A B C W", "B W A C", "C X A B", "A B X C",
                                             "B A C W"], first_reel=True),
    "add, 4 reels": tiny(2, ["A B C", "B W A X", "X A B", "A B W"], combine="add"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_figures_equal_the_enumerated_reference(name):
    text = CASES[name]
    game = compile_game(parse_spec(text, name))
    rtp, hit_rate, top, wins = reference_figures(text)
    f = ways_figures(game)
    assert f.rtp == rtp  # exact rationals: equal, not close
    assert f.hit_rate == hit_rate
    assert f.capped_rtp == rtp  # no cap
    assert f.top_coins == top
    mean = sum(wins) / len(wins) / 10
    variance = sum((w / 10 - mean) ** 2 for w in wins) / len(wins)
    assert f.variance == pytest.approx(variance, rel=1e-9, abs=1e-12)
    assert sum(f.award_rtp.values()) == rtp
    assert analyze_ways(game).rtp == pytest.approx(float(rtp), rel=1e-15)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_round_pays_what_the_reference_pays_on_its_window(name):
    import tomllib

    text = CASES[name]
    data = tomllib.loads(text)
    game = compile_game(parse_spec(text, name))
    bet = game.bet(bet_per_line=3)
    rng = np.random.Generator(np.random.PCG64(5))
    for _ in range(300):
        o = play_round(game, bet, rng)
        window = [list(reel) for reel in o.spins[0].window]
        assert o.total_win == reference_win(data, window) * 3
        assert sum(e.win for e in o.spins[0].events_of("ways_win")) == o.total_win


def test_the_cap_cuts_a_round_at_max_win_x_stakes():
    text = tiny(3, ["A B C A C", "B W A C B X", "C A X B A W B"], cap=2)
    game = compile_game(parse_spec(text, "capped"))
    _, _, _, wins = reference_figures(text)
    cap = 2 * 10  # coins: max_win_x x pay_unit
    assert max(wins) > cap  # the cap binds
    f = ways_figures(game)
    assert f.capped_rtp == Fraction(sum(min(w, cap) for w in wins), len(wins) * 10)
    assert game.max_win(game.bet(bet_per_line=3)).credits == cap * 3
    rng = np.random.Generator(np.random.PCG64(1))
    outcomes = [play_round(game, game.bet(bet_per_line=3), rng) for _ in range(400)]
    capped = [o for o in outcomes if o.win_capped]
    assert capped and all(o.total_win == 60 and o.uncapped_win > 60 and "win_capped" in o.flags
                          for o in capped)
    assert all(o.total_win <= 60 for o in outcomes)


# ---------------------------------------------------------------- the example game


def test_the_example_is_243_ways_with_pays_in_fiftieths_of_the_stake():
    game = make(EXAMPLE)
    assert game.info()["ways"] == 243
    assert game.spec.pay_unit == 50
    assert game.max_bet.total == 50 * 10  # pay_unit coins x the top coin value
    assert all("WILD" not in s for s in game.spec.strips[0])  # wilds off reel 1


def test_the_example_replays_and_its_json_round_trips():
    game = make(EXAMPLE)
    for seed in range(20):
        o = game.play(game.max_bet, live_generator(seed), seed)
        assert replay(game, json.loads(o.to_json())) == o


def test_monte_carlo_agrees_with_the_exact_rtp_within_4_se():
    game = make(EXAMPLE)
    f = ways_figures(game)
    assert f.capped_rtp == f.rtp  # the cap (5000x) is above the largest win
    stats = simulate(EXAMPLE, game.max_bet, 400_000, 11, workers=1)
    assert abs(stats.rtp - float(f.rtp)) <= 4 * stats.rtp_standard_error
    se_hit = math.sqrt(float(f.hit_rate) * (1 - float(f.hit_rate)) / stats.rounds)
    assert abs(stats.hit_frequency - float(f.hit_rate)) <= 4 * se_hit
    assert stats.max_win_x <= f.top_coins / 50


def test_game_rtp_and_max_win_are_labelled_exact():
    import reelforge.analysis  # noqa: F401 - registers the exact figures

    game = make(EXAMPLE)
    (figure,) = game.rtp()
    assert figure.source == "exact" and figure.value == pytest.approx(float(ways_figures(game).rtp))
    top = game.max_win()
    assert top.enforced == "exact" and top.credits == ways_figures(game).top_coins * 10


# ---------------------------------------------------------------- the loader


@pytest.mark.parametrize(("edit", "says"), [
    (lambda t: t.replace('strips = ["A B C A C"', 'strips = ["W B C A C"'), "strips[1]"),
    (lambda t: t.replace('combine = "multiply"', 'combine = "max"'), "wild_multiplier_combine"),
    (lambda t: t.replace("A = { 2 = 3, 3 = 10 }", "A = { 2 = 3, 4 = 10 }"), "ways.pays.A"),
    (lambda t: t.replace("pay_unit = 10", "pay_unit = 0"), "bet.pay_unit"),
    (lambda t: t.replace("except = [\"C\"]", "except = [\"W\"]"), "ways.wilds.X.except"),
    (lambda t: t.replace("[bet]", "[lines]\npaylines = [[0, 0, 0]]\n\n[bet]"), "lines"),
    (lambda t: t.replace('C = { role = "regular" }', 'C = { role = "scatter" }'), "symbols.C.role"),
])
def test_bad_files_are_refused_naming_the_key(edit, says):
    text = edit(tiny(3, ["A B C A C", "B W A C B X", "C A X B A W B"]))
    with pytest.raises(SpecError, match=re.escape(says)):
        parse_spec(text, "bad.toml")
