"""The numba kernels against the naive reference in tests/reference.py.

Random small games are generated twice from the same draws: as TOML text, which goes through
`parse_spec` and `compile_model` like any game file, and as the reference's `Rules`, written
directly from the draws (so the loader's expansion of "all", "except", defaults... is checked
too). Then:

1. `evaluate_line` equals the reference on random windows;
2. every spin of a `play_round` re-derived from its recorded stops pays what the reference
   pays, and the free-game awards follow the recorded trigger counts;
3. `play_rounds` (`lines.play_rounds`) and a loop of `play_round` consume the same stream and win
   the same;
4. `analysis.exact.analyze` equals a brute-force enumeration of every stop combination.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import reference as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.game import LineGame
from reelforge.engine.lines import count_scatter, evaluate_line
from reelforge.engine.model import compile_model
from reelforge.engine.outcome import Bet, FreeSpinsAward, LineWin, ScatterWin
from reelforge.engine.round import play_round
from reelforge.spec import load_spec, parse_spec

CLUEDO_PATH = (Path(__file__).resolve().parents[1] / "src" / "reelforge" / "games" / "cluedo"
               / "cluedo-v1.toml")
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


# ---------------------------------------------------------------------------------------------
# Random small games: TOML text and reference rules from the same draws


@dataclass(frozen=True)
class Case:
    toml: str
    rules: ref.Rules

    def __repr__(self) -> str:  # hypothesis prints this for a failing example
        return f"Case(toml=\n{self.toml}\n)"


def _q(value) -> str:
    """A TOML value: JSON arrays of strings/ints and JSON strings are valid TOML."""
    return json.dumps(value)


def _counts_table(pays: dict) -> str:
    return "{ " + ", ".join(f"{c} = {v}" for c, v in sorted(pays.items())) + " }" if pays else "{}"


def _trigger_distribution(rules: ref.Rules, reel_set: str, symbol: str, counting: str) -> dict:
    """P(count of `symbol` = c) on one reel set: per-reel distributions convolved (exact)."""
    strips, weights = rules.reel_sets[reel_set]
    dist = {0: Fraction(1)}
    for r in range(rules.reels):
        strip = strips[r]
        n = len(strip)
        w = [1] * n if weights is None else weights[r]
        per = {}
        for t in range(n):
            shown = sum(strip[(t + h) % n] == symbol for h in range(rules.rows))
            c = shown if counting == "cells" else min(shown, 1)
            per[c] = per.get(c, 0) + Fraction(w[t], sum(w))
        new = {}
        for a, pa in dist.items():
            for b, pb in per.items():
                new[a + b] = new.get(a + b, 0) + pa * pb
        dist = new
    return dist


@st.composite
def games(draw, reels=st.integers(2, 5), rows=st.integers(1, 4), strip_len=(1, 8),
          free_games=True, jackpot=True, modes=("none", "unlimited", "capped")) -> Case:
    # Half the games are "featured": a scatter that is common on the strips, free games
    # awarded for low counts, a jackpot more often; so bonuses and retriggers really happen.
    featured = draw(st.booleans())
    R, H = draw(reels), draw(rows)
    n_sym = draw(st.integers(3, 7))
    n_wild = draw(st.integers(0, min(2, n_sym - 1 - featured)))
    n_scatter = draw(st.integers(int(featured), min(2, n_sym - 1 - n_wild)))
    n_regular = n_sym - n_wild - n_scatter
    regular = [chr(ord("A") + i) for i in range(n_regular)]
    wild_ids = [f"W{i + 1}" for i in range(n_wild)]
    scatter_ids = [f"S{i + 1}" for i in range(n_scatter)]
    roles = {s: "regular" for s in regular}
    roles.update({w: "wild" for w in wild_ids})
    roles.update({s: draw(st.sampled_from(["scatter", "bonus"])) for s in scatter_ids})
    ids = draw(st.permutations(regular + wild_ids + scatter_ids))
    sym = st.sampled_from(ids)

    # wilds: an explicit substitute list, or "all" with an except list
    wilds, wild_toml = {}, []
    for w in wild_ids:
        mult = draw(st.integers(1, 3))
        if draw(st.booleans()):
            subs = draw(st.sets(sym))
            body = f"substitutes = {_q(sorted(subs))}"
        else:
            excluded = draw(st.sets(sym))
            subs = {s for s in ids if roles[s] in ("regular", "wild") and s != w} - excluded
            body = ('substitutes = "all"\n' if draw(st.booleans()) else "") + \
                f"except = {_q(sorted(excluded))}"
        if mult != 1 or draw(st.booleans()):
            body += f"\nmultiplier = {mult}"
        wilds[w] = (frozenset(subs), mult)
        wild_toml.append(f"[lines.wild.{w}]\n{body}\n")

    line_pays = {}
    for s in ids:
        if roles[s] in ("scatter", "bonus") and draw(st.integers(0, 3)) != 0:
            continue
        pays = draw(st.dictionaries(st.integers(1, R), st.integers(0, 20), max_size=R))
        if pays or draw(st.booleans()):
            line_pays[s] = pays
    combine = draw(st.sampled_from(["max", "product"]))
    pure_rule = draw(st.sampled_from(["highest", "wild", "substituted"]))
    n_lines = draw(st.integers(1, 5))
    paylines = [draw(st.lists(st.integers(0, H - 1), min_size=R, max_size=R))
                for _ in range(n_lines)]

    scatters = []
    for s in scatter_ids:
        counting = draw(st.sampled_from(["reels", "cells"]))
        high = R if counting == "reels" else R * H
        pays = draw(st.dictionaries(st.integers(1, high), st.integers(0, 5), max_size=3))
        scatters.append((s, counting, pays))

    on_strips = st.sampled_from(list(ids) + scatter_ids * 2) if featured else sym

    def reel_set():
        # the loader refuses a strip shorter than the window (issue 11)
        strips = [draw(st.lists(on_strips, min_size=max(strip_len[0], H), max_size=strip_len[1]))
                  for _ in range(R)]
        weights = None
        if draw(st.booleans()):
            weights = []
            for strip in strips:
                w = draw(st.lists(st.integers(0, 3), min_size=len(strip), max_size=len(strip)))
                if sum(w) == 0:
                    w[draw(st.integers(0, len(w) - 1))] = 1
                weights.append(w)
        return strips, weights

    reel_sets = {"base": reel_set()}
    if draw(st.booleans()):
        reel_sets["free"] = reel_set()

    max_lines = draw(st.integers(1, n_lines))
    max_bpl = draw(st.integers(1, 3))

    fg = None
    fg_toml = ""
    if free_games and scatters and (featured or draw(st.booleans())):
        trigger, counting, _ = draw(st.sampled_from(scatters))
        high = R if counting == "reels" else R * H
        low = min(high, 2) if featured else high
        award = draw(st.dictionaries(st.integers(1, low), st.integers(int(featured), 6),
                                     min_size=1, max_size=3))
        mode = draw(st.sampled_from(modes))
        own_retrigger = draw(st.booleans())
        again = (draw(st.dictionaries(st.integers(1, high if not featured else low),
                                      st.integers(0, 6), max_size=3))
                 if own_retrigger else award)
        fg_set = draw(st.sampled_from(sorted(reel_sets)))
        if mode == "unlimited":  # keep the bonus finite: expected growth per spin < 3/4
            dist = _trigger_distribution(
                ref.Rules(R, H, ids, roles, {}, {}, "max", "highest", [], [], reel_sets, 1, 1),
                fg_set, trigger, counting)
            growth = sum((p * again.get(c, 0) for c, p in dist.items()), Fraction(0))
            if growth >= Fraction(3, 4):
                mode = "capped"
        cap = draw(st.integers(1, 12)) if mode == "capped" else draw(st.integers(0, 5))
        # ref.first_award caps the first award too; keep a few awards above the cap
        multiplier = draw(st.integers(1, 4))
        exempt = draw(st.lists(st.tuples(sym, st.integers(1, R)), max_size=3))
        lines_ = [f'trigger = "{trigger}"', f"award = {_counts_table(award)}",
                  f'retrigger = "{mode}"', f'reel_set = "{fg_set}"',
                  f"multiplier = {multiplier}"]
        if own_retrigger:
            lines_.append(f"retrigger_award = {_counts_table(again)}")
        if cap or mode == "capped":
            lines_.append(f"max_total_spins = {cap}")
        if exempt:
            items = ", ".join(f'{{ symbol = "{s}", count = {c} }}' for s, c in exempt)
            lines_.append(f"exempt = [{items}]")
        fg_toml = "[features.free_games]\n" + "\n".join(lines_) + "\n"
        fg = ref.FreeGames(trigger, award, again, mode, cap, multiplier, fg_set,
                           frozenset(exempt))

    jp = None
    jp_toml = ""
    if jackpot and (draw(st.booleans()) or featured and draw(st.booleans())):
        jp = ref.Jackpot(draw(sym), draw(st.integers(1, R)), draw(st.integers(1, n_lines)),
                         draw(st.booleans()))
        jp_toml = (f'[features.progressive_jackpot]\nsymbol = "{jp.symbol}"\ncount = {jp.count}\n'
                   f"line = {jp.line}\nrequires_max_bet = {str(jp.requires_max_bet).lower()}\n"
                   "seed_amount = 1000\ncontribution_bp = 100\n")

    parts = [f'[game]\nid = "gen-v1"\nname = "Generated"\nreels = {R}\nrows = {H}\n',
             "[symbols]\n" + "".join(f'{s} = {{ role = "{roles[s]}" }}\n' for s in ids),
             "[paytable]\n" + "".join(f"{s} = {_counts_table(p)}\n" for s, p in line_pays.items()),
             f'[lines]\nwild_multiplier_combine = "{combine}"\n'
             f'pure_wild_vs_substituted = "{pure_rule}"\npaylines = {_q(paylines)}\n',
             *wild_toml]
    for s, counting, pays in scatters:
        parts.append(f'[scatter.{s}]\ncounting = "{counting}"\n'
                     + (f"pays = {_counts_table(pays)}\n" if pays else ""))
    for name, (strips, weights) in reel_sets.items():
        text = f"[reels.{name}]\nstrips = {_q(strips)}\n"
        if weights is not None:
            text += f"weights = {_q(weights)}\n"
        parts.append(text)
    parts.append(f"[bet]\nmax_lines = {max_lines}\nmax_bet_per_line = {max_bpl}\n")
    parts += [fg_toml, jp_toml]
    rules = ref.Rules(
        reels=R, rows=H, symbols=list(ids), roles=roles, line_pays=line_pays, wilds=wilds,
        combine=combine, pure_rule=pure_rule, paylines=paylines, scatters=scatters,
        reel_sets=reel_sets, max_lines=max_lines, max_bet_per_line=max_bpl, free_games=fg,
        jackpot=jp)
    return Case("\n".join(p for p in parts if p), rules)


def bets(rules: ref.Rules):
    any_bet = st.builds(Bet, st.integers(1, rules.max_lines),
                        st.integers(1, rules.max_bet_per_line))
    return st.one_of(st.just(Bet(rules.max_lines, rules.max_bet_per_line)), any_bet)


def named(spec, window: np.ndarray) -> list:
    names = spec.symbol_ids
    return [[names[s] for s in reel] for reel in window.tolist()]


def check_line(spec, rules, model, window, line, spin_mult, eligible, context=""):
    got = evaluate_line(model, window, line, spin_mult, eligible)
    want = ref.evaluate_line(rules, named(spec, window), line, spin_mult, eligible)
    names = spec.symbol_ids
    where = (f"{context}\nwindow={named(spec, window)} line={line} spin_mult={spin_mult} "
             f"eligible={eligible}\nkernel={tuple(got)} reference={want}")
    value, symbol, count, mult, jackpot = got
    assert bool(jackpot) == want.jackpot, where
    if want.jackpot:
        assert value == 0 and names[symbol] == want.symbol, where
        return
    assert value == want.value, where
    if want.value > 0:
        assert (names[symbol], count, mult) == (want.symbol, want.count, want.multiplier), where


# ---------------------------------------------------------------------------------------------
# 1. evaluate_line


@settings(max_examples=150, deadline=None, suppress_health_check=HEALTH)
@given(case=games(), seed=st.integers(0, 2**32 - 1), spin_mult=st.integers(1, 4),
       eligible=st.booleans())
def test_evaluate_line_matches_reference(case, seed, spin_mult, eligible):
    spec = parse_spec(case.toml, "generated.toml")
    model = compile_model(spec)
    rules = case.rules
    # Play never asks for a jackpot in a game without one (round.jackpot_eligible): the kernel
    # relies on that (see the report: without a jackpot, eligible=True on an all-wild line
    # reads as a jackpot), so the flag is only set when the game has a jackpot.
    eligible = eligible and rules.jackpot is not None
    n_sym = len(spec.symbol_ids)
    wild_idx = [i for i, s in enumerate(spec.symbol_ids) if s in rules.wilds]
    rng = np.random.default_rng(seed)
    for _ in range(40):
        # a palette of 1-3 symbols (often with a wild) makes long runs common
        palette = list(rng.integers(0, n_sym, size=rng.integers(1, 4)))
        if wild_idx and rng.random() < 0.6:
            palette.append(wild_idx[rng.integers(0, len(wild_idx))])
        palette = np.array(palette)
        window = palette[rng.integers(0, len(palette), size=(rules.reels, rules.rows))]
        window = np.ascontiguousarray(window.astype(np.int16))
        for line in range(len(rules.paylines)):
            check_line(spec, rules, model, window, line, spin_mult, eligible, case.toml)
        for k, (symbol, counting, _) in enumerate(rules.scatters):
            assert count_scatter(model, window, k) == ref.scatter_count(
                rules, named(spec, window), symbol, counting)


HAND = """
[game]
id = "hand-v1"
name = "Hand"
reels = 3
rows = 1

[symbols]
A = { role = "regular" }
B = { role = "regular" }
W = { role = "wild" }
V = { role = "wild" }
S = { role = "scatter" }

[paytable]
A = { 2 = 5, 3 = 10 }
B = { 3 = 20 }
W = { 2 = 4, 3 = 50 }
V = { 3 = 7 }

[lines]
pure_wild_vs_substituted = "RULE"
wild_multiplier_combine = "COMBINE"
paylines = [[0, 0, 0]]

[lines.wild.W]
except = ["S"]
multiplier = 2

[lines.wild.V]
substitutes = ["A"]
multiplier = 3

[scatter.S]
pays = { 3 = 1 }

[reels.base]
strips = ["A B W V S", "A B W V S", "A B W V S"]

[bet]
max_bet_per_line = 2

[features.free_games]
trigger = "S"
award = { 3 = 5 }
multiplier = 3
exempt = [{ symbol = "A", count = 3 }]

[features.progressive_jackpot]
symbol = "JPSYM"
count = JPCOUNT
seed_amount = 1000
contribution_bp = 100
"""

# (rule, combine, line, spin multiplier, eligible, jackpot symbol/count, expected kernel result)
HAND_CASES = [
    ("highest", "max", "A A A", 1, False, ("B", 3), (10, "A", 3, 1, False)),
    ("highest", "max", "A A B", 1, False, ("B", 3), (5, "A", 2, 1, False)),
    ("highest", "max", "W A A", 1, False, ("B", 3), (20, "A", 3, 2, False)),
    ("highest", "max", "W W A", 1, False, ("B", 3), (20, "A", 3, 2, False)),
    ("highest", "max", "W W B", 1, False, ("B", 3), (40, "B", 3, 2, False)),
    ("highest", "max", "W W W", 1, False, ("B", 3), (50, "W", 3, 1, False)),
    ("highest", "max", "W W S", 1, False, ("B", 3), (4, "W", 2, 1, False)),
    ("highest", "max", "V W A", 1, False, ("B", 3), (30, "A", 3, 3, False)),
    ("highest", "product", "V W A", 1, False, ("B", 3), (60, "A", 3, 6, False)),
    ("highest", "product", "W W A", 1, False, ("B", 3), (40, "A", 3, 4, False)),
    ("highest", "max", "V B B", 1, False, ("B", 3), (0, None, 0, 1, False)),  # V no sub for B
    ("highest", "max", "W V B", 1, False, ("B", 3), (0, None, 0, 1, False)),  # run breaks on V
    ("highest", "max", "V V V", 1, False, ("B", 3), (7, "V", 3, 1, False)),
    ("wild", "max", "W W B", 1, False, ("B", 3), (4, "W", 2, 1, False)),
    ("wild", "max", "W A A", 1, False, ("B", 3), (20, "A", 3, 2, False)),  # pure pays nothing
    ("substituted", "max", "W W W", 1, False, ("B", 3), (50, "W", 3, 1, False)),
    ("substituted", "max", "W W A", 1, False, ("B", 3), (20, "A", 3, 2, False)),
    # free-game multiplier 3; A x3 exempt
    ("highest", "max", "A A A", 3, False, ("B", 3), (10, "A", 3, 1, False)),
    ("highest", "max", "W A A", 3, False, ("B", 3), (20, "A", 3, 2, False)),
    ("highest", "max", "A A B", 3, False, ("B", 3), (15, "A", 2, 3, False)),
    ("highest", "max", "W W W", 3, False, ("B", 3), (150, "W", 3, 3, False)),
    ("highest", "max", "W W B", 3, False, ("B", 3), (120, "B", 3, 6, False)),
    # jackpot on line 1 when eligible
    ("highest", "max", "W W W", 1, True, ("W", 3), (0, "W", 3, 1, True)),
    ("highest", "max", "W W W", 1, False, ("W", 3), (50, "W", 3, 1, False)),
    ("highest", "max", "W W A", 1, True, ("W", 2), (0, "W", 2, 1, True)),
    ("highest", "max", "W A B", 1, True, ("A", 2), (0, "A", 2, 1, True)),
    ("highest", "max", "B A A", 1, True, ("A", 2), (0, None, 0, 1, False)),
]


@pytest.mark.parametrize("rule, combine, shown, mult, eligible, jp, expected", HAND_CASES)
def test_evaluate_line_hand_cases(rule, combine, shown, mult, eligible, jp, expected):
    text = (HAND.replace("RULE", rule).replace("COMBINE", combine)
            .replace("JPSYM", jp[0]).replace("JPCOUNT", str(jp[1])))
    spec = parse_spec(text, "hand.toml")
    model = compile_model(spec)
    index = {s: i for i, s in enumerate(spec.symbol_ids)}
    window = np.array([[index[s]] for s in shown.split()], dtype=np.int16)
    value, symbol, count, m, jackpot = evaluate_line(model, window, 0, mult, eligible)
    got = (value, None if symbol < 0 else spec.symbol_ids[symbol], count, m, bool(jackpot))
    if expected[1] is None:
        assert (got[0], got[4]) == (0, False)
    else:
        assert got == expected
    want = ref.evaluate_line(ref.rules_from_spec(spec), [[s] for s in shown.split()], 0, mult,
                             eligible)
    assert (want.value, want.symbol, want.count, want.multiplier, want.jackpot) == (
        expected if expected[1] is not None else (0, None, 0, 1, False))


def test_count_scatter_reels_and_cells():
    text = HAND.replace("RULE", "highest").replace("COMBINE", "max").replace(
        "JPSYM", "W").replace("JPCOUNT", "3").replace("rows = 1", "rows = 2").replace(
        "paylines = [[0, 0, 0]]", "paylines = [[0, 0, 0], [1, 1, 1]]").replace(
        "[scatter.S]", '[scatter.S]\ncounting = "cells"')
    spec = parse_spec(text, "hand.toml")
    model = compile_model(spec)
    i = {s: n for n, s in enumerate(spec.symbol_ids)}
    window = np.array([[i["S"], i["S"]], [i["A"], i["S"]], [i["B"], i["A"]]], dtype=np.int16)
    assert count_scatter(model, window, 0) == 3
    spec2 = parse_spec(text.replace('counting = "cells"', 'counting = "reels"'), "hand.toml")
    assert count_scatter(compile_model(spec2), window, 0) == 2


def test_cluedo_hand_windows():
    spec = load_spec(CLUEDO_PATH)
    model = compile_model(spec)
    rules = ref.rules_from_spec(spec)
    i = {s: n for n, s in enumerate(spec.symbol_ids)}
    cases = [  # centre row (line 1) shown; other rows ROPE/WRENCH
        ("MJ MJ MJ MJ MJ", 1, True, (0, "MJ", 5, 1, True)),  # jackpot at max bet
        ("MJ MJ MJ MJ MJ", 1, False, (10000, "MJ", 5, 1, False)),
        ("MJ MJ MJ MJ MJ", 3, False, (10000, "MJ", 5, 1, False)),  # exempt from x3
        ("MJ MJ MJ MJ SCARLET", 3, False, (7500, "MJ", 4, 3, False)),  # 2500x3 > 1000x2x3
        ("MJ MJ SCARLET SCARLET SCARLET", 1, False, (2000, "SCARLET", 5, 2, False)),
        ("MJ MJ MJ ROPE WRENCH", 1, False, (250, "MJ", 3, 1, False)),
        ("MJ MJ MJ MJ ROPE", 1, False, (2500, "MJ", 4, 1, False)),
        ("SCARLET MJ PLUM PLUM PLUM", 1, False, (4, "SCARLET", 2, 2, False)),
        ("BONUS MJ MJ MJ MJ", 1, False, (0, None, 0, 1, False)),
        ("PLUM PLUM PLUM BONUS PLUM", 1, False, (25, "PLUM", 3, 1, False)),
    ]
    for shown, mult, eligible, expected in cases:
        window = np.full((5, 3), i["ROPE"], dtype=np.int16)
        window[:, 2] = i["WRENCH"]
        window[:, 1] = [i[s] for s in shown.split()]
        value, symbol, count, m, jackpot = evaluate_line(model, window, 0, mult, eligible)
        if expected[1] is None:
            assert (value, bool(jackpot)) == (0, False), shown
        else:
            assert (value, spec.symbol_ids[symbol], count, m, bool(jackpot)) == expected, shown
        check_line(spec, rules, model, window, 0, mult, eligible, shown)


# ---------------------------------------------------------------------------------------------
# 2. a whole round, spin by spin, from its recorded stops


def check_outcome(rules: ref.Rules, bet: Bet, outcome) -> None:
    fg = rules.free_games
    eligible = ref.jackpot_eligible(rules, bet.lines, bet.bet_per_line)
    spins = outcome.spins
    jackpots = []

    def replay(spin, index, reel_set, multiplier):
        assert (spin.index, spin.kind, spin.reel_set, spin.multiplier) == (
            index, "base" if index == 0 else "free", reel_set, multiplier)
        strips, weights = rules.reel_sets[reel_set]
        assert len(spin.stops) == rules.reels
        for r, t in enumerate(spin.stops):
            assert 0 <= t < len(strips[r])
            assert weights is None or weights[r][t] > 0, "stopped on a zero-weight stop"
        window = ref.window_at(rules, reel_set, spin.stops)
        assert spin.window == tuple(tuple(reel) for reel in window)
        res = ref.spin_on_window(rules, window, bet.lines, bet.bet_per_line, eligible,
                                 multiplier)
        assert spin.line_wins == tuple(
            LineWin(line=line + 1, symbol=s, count=c, multiplier=m, win=w)
            for line, s, c, m, w in res.line_wins), spin
        assert spin.scatter_wins == tuple(
            ScatterWin(symbol=s, count=c, multiplier=m, win=w)
            for s, c, m, w in res.scatter_wins), spin
        assert spin.win == res.win
        jackpots.extend((index, line + 1, s) for line, s, _c in res.jackpots)
        return res

    base = replay(spins[0], 0, rules.base_set, 1)
    awards = []
    awarded = played = retriggers = fg_win = 0
    first = ref.first_award(rules, base.trigger)
    if first is not None:
        awarded = first[1]
        awards.append((0, FreeSpinsAward(trigger_count=base.trigger, spins_awarded=first[1],
                                         spins_requested=first[0], total_awarded=awarded)))
    while played < awarded:
        played += 1
        assert len(spins) > played, "fewer spins than awarded"
        res = replay(spins[played], played, fg.reel_set, fg.multiplier)
        fg_win += res.win
        again = ref.retrigger_award(rules, res.trigger, awarded)
        if again is not None:
            awarded += again[1]
            retriggers += again[1] > 0
            awards.append((played, FreeSpinsAward(
                trigger_count=res.trigger, spins_awarded=again[1], spins_requested=again[0],
                total_awarded=awarded)))
    assert len(spins) == 1 + played
    assert [(s.index, a) for s in spins for a in s.events_of("free_spins_award")] == awards
    assert outcome.counters.free_spins_played == played
    assert outcome.free_games_triggered == (played > 0)
    assert outcome.counters.retriggers == retriggers
    assert (outcome.breakdown["base_lines"], outcome.breakdown["base_scatter"],
            outcome.breakdown["free_games"]) == (base.line_win, base.scatter_win, fg_win)
    assert outcome.total_win == base.win + fg_win
    assert [(s.index, j.line, j.symbol) for s in spins
            for j in s.events_of("progressive_jackpot")] == jackpots
    assert all(j.count >= rules.jackpot.count for j in outcome.jackpots)
    assert not outcome.spin_guard_reached


@settings(max_examples=100, deadline=None, suppress_health_check=HEALTH)
@given(case=games(), data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_play_round_matches_reference(case, data, seed):
    game = LineGame.from_spec(parse_spec(case.toml, "generated.toml"))
    bet = data.draw(bets(case.rules))
    rng = np.random.Generator(np.random.PCG64(seed))
    for _ in range(20):
        check_outcome(case.rules, bet, play_round(game, bet, rng))


def test_play_round_cluedo_matches_reference():
    spec = load_spec(CLUEDO_PATH)
    game = LineGame.from_spec(spec)
    rules = ref.rules_from_spec(spec)
    rng = np.random.Generator(np.random.PCG64(20240601))
    featured = 0
    for bet in (game.max_bet, Bet(7, 2)):
        for _ in range(400):
            outcome = play_round(game, bet, rng)
            featured += outcome.free_games_triggered
            check_outcome(rules, bet, outcome)
    assert featured > 0  # the free-game path was exercised


# ---------------------------------------------------------------------------------------------
# 3. simulation and live play consume the same stream and win the same


def _same_stream(game, bet, seed, n):
    sim_rng = np.random.Generator(np.random.PCG64(seed))
    stats = play_rounds(game, bet, sim_rng, n)
    live_rng = np.random.Generator(np.random.PCG64(seed))
    outcomes = [play_round(game, bet, live_rng) for _ in range(n)]
    assert stats.rounds == n
    assert stats.total_win == sum(o.total_win for o in outcomes)
    assert stats.base_line_win == sum(o.breakdown["base_lines"] for o in outcomes)
    assert stats.base_scatter_win == sum(o.breakdown["base_scatter"] for o in outcomes)
    assert stats.feature_win == sum(o.breakdown["free_games"] for o in outcomes)
    assert stats.feature_triggers == sum(o.free_games_triggered for o in outcomes)
    assert stats.feature_spins == sum(o.counters.free_spins_played for o in outcomes)
    assert stats.retriggers == sum(o.counters.retriggers for o in outcomes)
    assert stats.jackpot_hits == sum(len(o.jackpots) for o in outcomes)
    assert stats.jackpot_rounds == sum(bool(o.jackpots) for o in outcomes)
    assert stats.hits == sum(o.total_win > 0 or bool(o.jackpots) for o in outcomes)
    assert stats.max_win == max(o.total_win for o in outcomes)
    assert stats.win_squares == sum(o.total_win ** 2 for o in outcomes)
    assert sim_rng.bit_generator.state == live_rng.bit_generator.state
    return outcomes


@settings(max_examples=80, deadline=None, suppress_health_check=HEALTH)
@given(case=games(), data=st.data(), seed=st.integers(0, 2**64 - 1), n=st.integers(1, 40))
def test_simulation_and_play_share_the_stream(case, data, seed, n):
    game = LineGame.from_spec(parse_spec(case.toml, "generated.toml"))
    _same_stream(game, data.draw(bets(case.rules)), seed, n)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulation_and_play_share_the_stream_cluedo(seed):
    game = LineGame.from_spec(load_spec(CLUEDO_PATH))
    outcomes = _same_stream(game, game.max_bet, seed, 300)
    assert sum(o.total_win for o in outcomes) > 0


# ---------------------------------------------------------------------------------------------
# 4. exact analysis against brute force over every stop combination


@settings(max_examples=120, deadline=None, suppress_health_check=HEALTH)
@given(case=games(reels=st.just(3), rows=st.integers(1, 3), strip_len=(2, 5)), data=st.data())
def test_exact_equals_brute_force(case, data):
    game = LineGame.from_spec(parse_spec(case.toml, "generated.toml"))
    bet = data.draw(bets(case.rules))
    exact = analyze(game, bet).rtp * bet.total
    brute = ref.expected_round_win(case.rules, bet.lines, bet.bet_per_line)
    assert math.isclose(exact, float(brute), rel_tol=1e-9, abs_tol=1e-12), (exact, brute)


def test_exact_equals_brute_force_hand_game():
    text = HAND.replace("RULE", "highest").replace("COMBINE", "max").replace(
        "JPSYM", "W").replace("JPCOUNT", "3")
    spec = parse_spec(text, "hand.toml")
    game = LineGame.from_spec(spec)
    rules = ref.rules_from_spec(spec)
    for bet in (game.max_bet, Bet(1, 1)):
        brute = ref.expected_round_win(rules, bet.lines, bet.bet_per_line)
        exact = analyze(game, bet).rtp * bet.total
        assert math.isclose(exact, float(brute), rel_tol=1e-9), (bet, exact, brute)


CAPPED_NO_RETRIGGER = """
[game]
id = "cap-v1"
name = "Cap"
reels = 1
rows = 1

[symbols]
S = { role = "scatter" }

[paytable]

[lines]
paylines = [[0]]

[scatter.S]
pays = { 1 = 1 }

[reels.base]
strips = [["S"]]

[bet]
max_bet_per_line = 1

[features.free_games]
trigger = "S"
award = { 1 = 5 }
retrigger = "capped"
retrigger_award = {}
max_total_spins = 2
"""


def test_exact_caps_the_first_award():
    """Regression: "capped" binds the first award even when no retrigger can happen.

    exact.expected_free_spins used to return the uncapped award here (rtp 6.0, not 3.0).
    """
    # every round: the base spin pays 1, then 2 free spins (5 asked, capped at 2) pay 1 each
    game = LineGame.from_spec(parse_spec(CAPPED_NO_RETRIGGER, "cap.toml"))
    outcome = play_round(game, game.max_bet, np.random.Generator(np.random.PCG64(0)))
    assert (outcome.counters.free_spins_played, outcome.total_win) == (2, 3)
    rules = ref.rules_from_spec(game.spec)
    assert ref.expected_round_win(rules, 1, 1) == 3
    assert analyze(game).rtp == pytest.approx(3.0)
    assert analyze(game).mean_free_spins == pytest.approx(2.0)


def test_a_game_without_jackpot_never_reports_one_even_if_asked():
    import numpy as np

    from reelforge.engine.game import LineGame
    from reelforge.engine.lines import evaluate_line
    from reelforge.spec import parse_spec

    text = """
[game]
id = "nojp-v1"
name = "No jackpot"
reels = 3
rows = 1
[symbols]
A = { role = "regular" }
W = { role = "wild" }
[paytable]
W = { 3 = 50 }
[lines]
paylines = [[0, 0, 0]]
[reels.base]
strips = ["A W", "A W", "A W"]
[bet]
max_bet_per_line = 1
"""
    game = LineGame.from_spec(parse_spec(text, "nojp"))
    window = np.array([[1], [1], [1]], dtype=np.int16)
    value, sym, count, mult, jackpot = evaluate_line(game.model, window, 0, 1, True)
    assert (int(value), int(sym), int(count), int(mult), bool(jackpot)) == (50, 1, 3, 1, False)


# 5. exact base-spin hit frequency against brute force over every stop combination

@settings(max_examples=150, deadline=None, suppress_health_check=HEALTH)
@given(case=games(reels=st.just(3), rows=st.integers(1, 3), strip_len=(2, 5)), data=st.data())
def test_base_hit_frequency_equals_brute_force(case, data):
    from reelforge.analysis.exact import base_hit_frequency

    game = LineGame.from_spec(parse_spec(case.toml, "generated.toml"))
    bet = data.draw(bets(case.rules))
    exact = base_hit_frequency(game, bet)
    if exact is None:  # pays with gaps, or a second paying scatter: the method declines
        return
    eligible = ref.jackpot_eligible(case.rules, bet.lines, bet.bet_per_line)
    brute = 0
    for stops, p in ref.stop_distribution(case.rules, "base"):
        spin = ref.spin_on_window(case.rules, ref.window_at(case.rules, "base", stops), bet.lines,
                                  bet.bet_per_line, eligible, 1)
        if spin.win > 0 or spin.jackpots:
            brute += p
    assert math.isclose(exact, float(brute), rel_tol=1e-9, abs_tol=1e-12), (exact, brute)


def test_base_hit_frequency_is_used_on_most_generated_games():
    """Guards the test above against declining everywhere: count the games it checks."""
    from hypothesis import find

    from reelforge.analysis.exact import base_hit_frequency

    def applies(case):
        game = LineGame.from_spec(parse_spec(case.toml, "generated.toml"))
        return base_hit_frequency(game, game.max_bet) is not None

    find(games(reels=st.just(3), rows=st.integers(1, 3), strip_len=(2, 5)), applies,
         settings=settings(max_examples=200, deadline=None, suppress_health_check=HEALTH))
