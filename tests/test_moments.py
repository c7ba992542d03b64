"""Exact moments and maximum win (analysis.moments) against brute force and simulation.

Brute force: every stop combination of a small random game, played by the plain-Python
rules of `reference.py` in exact fractions; the free games as the whole distribution of
their win over the retrigger chain, state by state. Simulation: see
`test_simulated_sd_agrees_with_exact` for the interval used.
"""

from __future__ import annotations

import math
import re
import tomllib
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import reference as ref
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from test_kernels import HEALTH, bets, games
from tiny_games import ALWAYS_RETRIGGER

from reelforge.analysis import moments as moments_module
from reelforge.analysis.exact import ChainTooLarge, analyze
from reelforge.analysis.moments import (
    UNBOUNDED,
    NotExact,
    exact_moments,
    max_round_win,
    max_spin_by_count,
    spin_moments,
)
from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.game import LineGame
from reelforge.engine.rng import chunk_generator
from reelforge.engine.round import jackpot_eligible
from reelforge.games import make, shipped_games
from reelforge.spec import load_spec, parse_spec
from reelforge.spec.limits import line_round_bound

CONFORMANCE = Path(__file__).parents[1] / "conformance"
CONFORMANCE_FILES = sorted(str(CONFORMANCE / e["file"]) for e in
                           tomllib.loads((CONFORMANCE / "published.toml").read_text()).values())
# (wilds that draw their multipliers have no exact second moment here: tests/test_wild_draws.py
# checks that the moments decline them, naming [wild_multipliers])
SHIPPED_LINES = sorted(gid for gid, path in shipped_games().items()
                       if load_spec(path).family == "lines" and load_spec(path).wild_draws is None)
# 2 to 5 reels; strips short enough that every window is enumerated in well under a second
SMALL = {"reels": st.integers(2, 5), "rows": st.integers(1, 3), "strip_len": (2, 4)}


def load(ref_: str) -> LineGame:
    return LineGame.from_spec(load_spec(ref_)) if ref_.endswith(".toml") else make(ref_)


@cache
def moments_of(ref_: str, mode: str = "base"):
    """One exact_moments per game and mode for the whole module (about 0.5 to 4 s each)."""
    game = load(ref_)
    return exact_moments(game, game.bet(mode=mode))


def close(a: float, b, scale) -> bool:
    """Equal to 1e-12 relative to the figure's scale (a sum of non-negative float64 terms)."""
    return abs(a - float(b)) <= 1e-12 * max(abs(float(scale)), 1e-300)


def brute_spin(rules, reel_set: str, lines: int, bpl: int, eligible: bool, mult: int):
    """{(win, trigger count): probability}, and {count: (best win, stops)}, every window."""
    outcomes: dict = {}
    best: dict = {}
    for stops, p in ref.stop_distribution(rules, reel_set):
        res = ref.spin_on_window(rules, ref.window_at(rules, reel_set, stops), lines, bpl,
                                 eligible, mult)
        key = (res.win, res.trigger)
        outcomes[key] = outcomes.get(key, 0) + p
        if res.trigger not in best or res.win > best[res.trigger][0]:
            best[res.trigger] = (res.win, stops)
    return outcomes, best


# ---------------------------------------------------------------------------------------------
# One spin: mean, second moment, by trigger count, and the maximum, against every window


@settings(max_examples=80, deadline=None, suppress_health_check=HEALTH)
@given(case=games(**SMALL), data=st.data())
def test_spin_moments_and_maximum_equal_brute_force(case, data):
    game = LineGame.from_spec(parse_spec(case.toml, "generated.toml"))
    bet = data.draw(bets(case.rules))
    m = game.model_for(bet)
    eligible = jackpot_eligible(game, bet)
    sets = [("base", m.base_set, 1)]
    if case.rules.free_games is not None:
        sets.append((case.rules.free_games.reel_set, m.fg_set, data.draw(st.integers(1, 4))))
    for name, index, mult in sets:
        outcomes, best = brute_spin(case.rules, name, bet.lines, bet.bet_per_line, eligible, mult)
        mean = sum(p * w for (w, _), p in outcomes.items())
        square = sum(p * w * w for (w, _), p in outcomes.items())
        got = spin_moments(game, m, index, bet, mult, eligible)
        assert close(got.mean, mean, mean), (name, got.mean, mean)
        assert close(got.square, square, square), (name, got.square, square)
        for c in range(len(got.mean_by_count)):
            by_c = sum(p * w for (w, t), p in outcomes.items() if t == c)
            p_c = sum(p for (_, t), p in outcomes.items() if t == c)
            assert close(got.mean_by_count[c], by_c, mean), (name, c)
            assert close(got.count_probability[c], p_c, 1), (name, c)
        top, stops = max_spin_by_count(game, m, index, bet, mult, eligible)
        for c in range(len(top)):
            assert top[c] == (best[c][0] if c in best else -1), (name, c, top, best)
            if top[c] >= 0:  # attainable: the window it names wins exactly that
                res = ref.spin_on_window(case.rules, ref.window_at(case.rules, name, [int(x) for x in stops[c]]),
                                         bet.lines, bet.bet_per_line, eligible, mult)
                assert (res.win, res.trigger) == (top[c], c)


# ---------------------------------------------------------------------------------------------
# The whole round: the distribution of the free games' win over the chain, by brute force


def free_win_distribution(rules, outcomes: dict, left: int, awarded: int, memo: dict) -> dict:
    """{free-game win still to come: probability} from (spins left, spins awarded): "none"
    and "capped", whose chain is finite."""
    if left == 0:
        return {0: Fraction(1)}
    key = (left, awarded)
    if key not in memo:
        dist: dict = {}
        for (win, count), p in outcomes.items():
            again = ref.retrigger_award(rules, count, awarded)
            extra = 0 if again is None else again[1]
            rest = free_win_distribution(rules, outcomes, left - 1 + extra, awarded + extra, memo)
            for value, q in rest.items():
                dist[win + value] = dist.get(win + value, 0) + p * q
        memo[key] = dist
    return memo[key]


def unlimited_free_moments(rules, outcomes: dict, start: int) -> tuple[float, float]:
    """(E[F], E[F^2]) of the free games' win F from `start` spins under unlimited retriggers,
    by pushing the chain forward spin by spin: for each number of spins left, the mass and
    E[win so far; state], E[(win so far)^2; state], every spin of every alive state played,
    the mass reaching 0 spins left banked. Nothing here uses the independence of a spin's
    descendants (the branching formula under test). Pushed until the alive mass is below
    1e-22: what is left out is E[F^2; alive after n spins], at most that mass times
    E[F^2 | alive], which the test's 1e-9 relative tolerance covers."""
    by_award: dict[int, list[float]] = {}  # award -> [P, E[w; award], E[w^2; award]]
    for (win, count), p in outcomes.items():
        again = ref.retrigger_award(rules, count, 0)
        a = 0 if again is None else again[1]
        acc = by_award.setdefault(a, [0.0, 0.0, 0.0])
        acc[0] += float(p)
        acc[1] += float(p) * win
        acc[2] += float(p) * win * win
    mass, s1, s2 = (np.zeros(start + 1) for _ in range(3))
    mass[start] = 1.0
    m1 = m2 = 0.0
    for _ in range(200_000):
        alive = float(mass[1:].sum())
        if alive < 1e-22:
            return m1, m2
        size = len(mass) - 1 + max(by_award)
        new = [np.zeros(size) for _ in range(3)]
        p0, q1, q2 = mass[1:], s1[1:], s2[1:]  # state l moves to l - 1 + a
        for a, (pa, wa, w2a) in by_award.items():
            new[0][a: a + len(p0)] += pa * p0
            new[1][a: a + len(p0)] += pa * q1 + wa * p0
            new[2][a: a + len(p0)] += pa * q2 + 2 * wa * q1 + w2a * p0
        mass, s1, s2 = new
        m1 += s1[0]
        m2 += s2[0]
        mass[0] = s1[0] = s2[0] = 0.0
        top = int(np.flatnonzero(mass > 0).max(initial=0))  # trim the empty tail
        mass, s1, s2 = mass[: top + 1], s1[: top + 1], s2[: top + 1]
    raise AssertionError("the brute force did not end")


def unlimited_free_max(rules, outcomes: dict, start: int) -> int | None:
    """The largest free-game win from `start` spins under unlimited retriggers, None when
    unbounded, read off the outcomes: a spin that wins and retriggers can repeat for ever; a
    retrigger of 2 or more spins grows the spins left, so any winning spin can repeat for
    ever; otherwise retriggers only replace themselves (winning nothing) and the most is
    `start` times the best spin that does not retrigger."""
    winning_retrigger = grows = False
    best_plain = 0
    some_win = False
    for win, count in outcomes:
        again = ref.retrigger_award(rules, count, 0)
        a = 0 if again is None else again[1]
        some_win |= win > 0
        if a > 0:
            winning_retrigger |= win > 0
            grows |= a >= 2
        else:
            best_plain = max(best_plain, win)
    if winning_retrigger or (grows and some_win):
        return None
    return start * best_plain


def free_outcomes(rules, lines: int, bpl: int, eligible: bool, weights: dict) -> dict:
    """{(win, trigger count): probability} of one free spin, its multiplier drawn by
    `weights` (multiplier -> weight) before the spin."""
    fg = rules.free_games
    total = sum(weights.values())
    out: dict = {}
    for mult, w in weights.items():
        if w:
            for key, p in brute_spin(rules, fg.reel_set, lines, bpl, eligible, mult)[0].items():
                out[key] = out.get(key, 0) + Fraction(w, total) * p
    return out


def brute_round(rules, lines: int, bpl: int, weights: dict | None = None):
    """(E[W], E[W^2], max W or None: unbounded) of the whole uncapped round, from its exact
    distribution ("none", "capped") or the forward chain ("unlimited")."""
    eligible = ref.jackpot_eligible(rules, lines, bpl)
    base, _ = brute_spin(rules, rules.base_set, lines, bpl, eligible, 1)
    fg = rules.free_games
    free = free_outcomes(rules, lines, bpl, eligible, weights or {fg.multiplier: 1}) if fg else {}
    memo: dict = {}
    mean = square = Fraction(0)
    top: int | None = 0
    unlimited = fg is not None and fg.retrigger == "unlimited"
    for (win, count), p in base.items():
        award = ref.first_award(rules, count) if fg else None
        if award is not None and unlimited:
            f1, f2 = unlimited_free_moments(rules, free, award[1])
            mean += p * (win + Fraction(f1))
            square += p * (win * win + 2 * win * Fraction(f1) + Fraction(f2))
            most = unlimited_free_max(rules, free, award[1])
            top = None if top is None or most is None else max(top, win + most)
            continue
        rest = {0: Fraction(1)} if award is None else free_win_distribution(
            rules, free, award[1], award[1], memo)
        for value, q in rest.items():
            mean += p * q * (win + value)
            square += p * q * (win + value) ** 2
            top = None if top is None else max(top, win + value)
    return mean, square, top


def with_extras(case, data) -> tuple[str, dict | None, int]:
    """The generated game's text with, drawn: a round cap (bet.max_win_minor, credits at the
    default denomination 1) and weighted free-spin multipliers in place of the fixed one.
    Returns (text, weights or None, cap or 0)."""
    text = case.toml
    cap = data.draw(st.sampled_from([0, 0, 1, 5, 20, 80]))
    if cap:
        text = text.replace("[bet]\n", f"[bet]\nmax_win_minor = {cap}\n", 1)
    weights = None
    if case.rules.free_games is not None and data.draw(st.booleans()):
        weights = data.draw(st.dictionaries(st.integers(1, 4), st.integers(0, 3), min_size=1,
                                            max_size=3).filter(lambda w: sum(w.values()) > 0))
        head, fg = text.split("[features.free_games]", 1)
        line = f"multiplier = {case.rules.free_games.multiplier}\n"
        assert fg.count(line) == 1
        table = ", ".join(f"{m} = {w}" for m, w in sorted(weights.items()))
        text = head + "[features.free_games]" + fg.replace(line, f"multiplier_weights = {{ {table} }}\n")
    return text, weights, cap


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["none", "capped", "unlimited"])
@settings(max_examples=80, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_round_moments_and_maximum_equal_brute_force(rule, data):
    """Each retrigger rule, 2 to 5 reels, drawn round caps and weighted free-spin
    multipliers. The moments are the uncapped round's (as the exact RTP); labelled "exact"
    only where the cap cannot bind, and the maximum is the cap where it does."""
    case = data.draw(games(reels=st.integers(2, 5), rows=st.integers(1, 2), strip_len=(2, 3),
                           modes=(rule,)).filter(lambda c: c.rules.free_games is not None))
    text, weights, cap = with_extras(case, data)
    game = LineGame.from_spec(parse_spec(text, "generated.toml"))
    bet = data.draw(bets(case.rules))
    mean, square, top = brute_round(case.rules, bet.lines, bet.bet_per_line, weights)
    got = exact_moments(game, bet)
    stake = bet.total
    # 1e-9 where the unlimited chain's brute force is a truncated float series, else 1e-12
    tol = 1e-9 if case.rules.free_games and case.rules.free_games.retrigger == "unlimited" else 1e-12
    assert abs(got.round_mean * stake - float(mean)) <= tol * float(mean) + 1e-300
    variance = square - mean * mean
    # the variance subtracts E[W]^2 from E[W^2]: its error is relative to E[W^2]
    assert abs((got.round_standard_deviation * stake) ** 2 - float(variance)) <= tol * float(square) + 1e-300
    binds = cap > 0 and (top is None or top > cap)
    want = cap if binds else top
    assert got.max_round_win == want, (got.max_round_win, top, cap)
    assert got.max_round_win_note == (UNBOUNDED if want is None else
                                      "exact" if not binds else "the round cap, which a round reaches")
    assert got.to_dict()["label"] == ("exact (uncapped round)" if binds else "exact")
    assert got.round_mean == pytest.approx(analyze(game, bet).rtp, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("rule", ["capped", "unlimited"])
def test_the_brute_force_rounds_do_have_free_games(rule):
    """Guards the test above against testing only base spins: 5-reel games whose free spins
    win and do retrigger, under each retrigger rule."""
    from hypothesis import find

    def retriggers(case):
        fg = case.rules.free_games
        if fg is None or fg.retrigger != rule or (rule == "capped" and fg.max_total_spins < 3):
            return False
        eligible = ref.jackpot_eligible(case.rules, case.rules.max_lines, 1)
        free = brute_spin(case.rules, fg.reel_set, case.rules.max_lines, 1, eligible, 1)[0]
        return any(fg.retrigger_award.get(c, 0) > 0 and p > 0 for (_, c), p in free.items()) \
            and any(w > 0 for (w, _), p in free.items())

    # Existence is the point: generation only, no shrinking of the game found to a smallest one
    # (the shrink took most of this test's 56 s in CI).
    find(games(reels=st.just(5), rows=st.integers(1, 2), strip_len=(2, 3), modes=(rule,)),
         retriggers, settings=settings(max_examples=300, deadline=None, suppress_health_check=HEALTH,
                                       phases=[Phase.generate]))


# ---------------------------------------------------------------------------------------------
# Every shipped and conformance game


MODES = [(g, "base") for g in SHIPPED_LINES + CONFORMANCE_FILES] + \
    [(g, "fortune") for g in SHIPPED_LINES if g.startswith("cops")]


@pytest.mark.slow
@pytest.mark.parametrize("ref_,mode", MODES, ids=lambda r: Path(r).stem)
def test_round_mean_equals_exact_rtp(ref_, mode):
    game = load(ref_)
    got = moments_of(ref_, mode)
    result = analyze(game, game.bet(mode=mode))
    assert got.round_mean == pytest.approx(result.rtp, rel=1e-12)
    assert got.base_mean == pytest.approx(result.base_lines + result.base_scatter + result.base_collect,
                                          rel=1e-12)
    assert got.round_standard_deviation > got.base_standard_deviation > 0
    fg = game.spec.free_games
    if got.max_round_win is None:  # only unlimited retriggers have no bound (Chicago & co.)
        assert fg is not None and fg.retrigger == "unlimited" and not game.spec.bet.max_win_minor
        assert got.max_round_win_note == UNBOUNDED
    else:
        assert line_round_bound(game.spec).value >= got.max_round_win >= got.max_base_win > 0
    if game.spec.rules == "cops_trail":  # the chase has no bound but the cap
        assert got.max_round_win == game.model_for(game.max_bet).cap
        assert got.cap_variance_bound is not None


SIMULATED = [(g, "base") for g in SHIPPED_LINES] + [("cops-n-robbers-v1", "fortune")] + \
    [(g, "base") for g in CONFORMANCE_FILES[::9]]


@pytest.mark.slow
@pytest.mark.parametrize("ref_,mode", SIMULATED, ids=lambda r: Path(r).stem)
def test_simulated_sd_agrees_with_exact(ref_, mode):
    """1,000,000 simulated rounds in 20 independent batches of 50,000 (chunk streams 0..19 of
    seed 20261130). Each batch's variance estimate v_j is unbiased up to a factor 1 - 2e-5
    (Stats' population formula), so the batch mean estimates Var(W) with standard error
    sd(v_j)/sqrt(20), from the batches themselves (no assumption on the 4th moment). The
    exact variance must lie within 4 standard errors (Student t with 19 degrees of freedom:
    two-sided 99.9% is 3.88), widened by the stated bound on the round cap's effect where
    the exact figure is the uncapped round's (Cops n Robbers)."""
    game = load(ref_)
    got = moments_of(ref_, mode)
    exact = got.round_standard_deviation ** 2
    bet = game.bet(mode=mode)
    batches = np.array([play_rounds(game, bet, chunk_generator(20261130, i), 50_000)
                        .standard_deviation ** 2 for i in range(20)])  # Stats: per cost
    error = batches.std(ddof=1) / math.sqrt(len(batches))
    cap = got.cap_variance_bound or 0.0
    assert abs(batches.mean() - exact) < 4 * error + cap, (batches.mean(), exact, error, cap)


def test_trail_game_moments_against_brute_force_and_simulation():
    """The tiny trail game of test_cops, with a cap far above its wins (a trail game needs one
    for a maximum): the paid spin's moments with collection against every window (cash values
    independent of the window: E[V | P] = P E[v], E[V^2 | P] = P Var(v) + (P E[v])^2), and
    the whole round's variance against 400,000 simulated rounds in 20 batches (the interval
    of the test above)."""
    from test_cops import TINY, TINY_REF

    from reelforge.engine.outcome import Bet

    assert TINY.count("max_bet_per_line = 2\n") == 1
    TINY_GAME = LineGame.from_spec(parse_spec(TINY.replace(
        "max_bet_per_line = 2\n", "max_bet_per_line = 2\ndenominations = [1]\nmax_win_minor = 10000000\n"),
        "tiny-capped.toml"))
    r = TINY_REF
    total = sum(r.values.values())
    v_mean = sum(Fraction(v * w, total) for v, w in r.values.items())
    v_var = sum(Fraction(v * v * w, total) for v, w in r.values.items()) - v_mean ** 2
    for mode in ("base", "collecting"):
        bet = Bet(2, 1, mode)
        m = TINY_GAME.model_for(bet)
        collect = TINY_GAME.spec.mode(mode).collect
        mean = square = Fraction(0)
        by_count: dict = {}
        for stops, p in ref.stop_distribution(r.rules, "base"):
            window = ref.window_at(r.rules, "base", stops)
            lines = sum(w[4] for w in ref.line_wins_mixed(r.rules, r.groups, window, 2, 1, 1))
            cells = [s for reel in window for s in reel]
            robbers = sum(s == r.collector for s in cells) if collect else 0
            cash = sum(s in r.cash for s in cells)
            q = bet.total * robbers * cash * v_mean
            mean += p * (lines + q)
            square += p * (lines * lines + 2 * lines * q
                           + bet.total ** 2 * robbers ** 2 * (cash * v_var + cash * cash * v_mean ** 2))
            c = cells.count("B")
            by_count[c] = by_count.get(c, 0) + p * (lines + q)
        got = spin_moments(TINY_GAME, m, m.base_set, bet, 1, False,
                           cond=TINY_GAME.rules_model.trigger, collect=collect)
        assert close(got.mean, mean, mean) and close(got.square, square, square), mode
        for c, value in by_count.items():
            assert close(got.mean_by_count[c], value, mean), (mode, c)
        exact = exact_moments(TINY_GAME, bet)
        assert exact.max_round_win == 10_000_000
        variance = exact.round_standard_deviation ** 2
        assert exact.cap_variance_bound < 1e-9 * variance  # a cap this far out changes nothing
        assert exact.round_mean == pytest.approx(analyze(TINY_GAME, bet).rtp, rel=1e-12)
        batches = np.array([play_rounds(TINY_GAME, bet, chunk_generator(99, i), 20_000)
                            .standard_deviation ** 2 for i in range(20)])
        error = batches.std(ddof=1) / math.sqrt(len(batches))
        assert abs(batches.mean() - variance) < 4 * error, (mode, batches.mean(), variance, error)


def game_bound(ref_: str) -> int:
    return line_round_bound(load(ref_).spec).value


def test_cluedo_figures():
    got = moments_of("cluedo-v1")
    data = got.to_dict()
    assert data["label"] == "exact" and data["max_round_win_note"] == "exact"
    assert data["volatility_index"] == pytest.approx(1.645 * data["standard_deviation"])
    # no cap and retriggers that cannot run on: the maximum is the rules', below the loader's bound
    assert game_bound("cluedo-v1") >= got.max_round_win >= got.max_base_win
    assert got.method and got.seconds > 0
    # The base maximum is attainable: the window it names wins exactly that (reference rules)
    game = make("cluedo-v1")
    rules = ref.rules_from_spec(game.spec)
    res = ref.spin_on_window(rules, ref.window_at(rules, rules.base_set, got.max_base_stops),
                             20, 5, True, 1)
    assert res.win == got.max_base_win


# ---------------------------------------------------------------------------------------------
# The hang of issue 11: a capped chain too large to solve is refused at once


HANG = ALWAYS_RETRIGGER + 'retrigger = "capped"\nmax_total_spins = 100000\n'


def test_a_huge_capped_chain_is_refused_before_any_work():
    """A cap of 100,000 spins (the most the loader accepts: the engine's spin guard) with free
    reels that always retrigger: 5,000,150,001 chain states, refused by the one chain limit
    (`exact.capped_chain_states`) shared by the RTP, the moments, the maximum and the
    free-spin distribution, before any of them walks the chain."""
    from reelforge.analysis.free_games import free_spin_distribution

    game = LineGame.from_spec(parse_spec(HANG, "hang.toml"))
    states = 100_001 * 100_002 // 2
    for figure in (analyze, exact_moments, max_round_win, free_spin_distribution):
        with pytest.raises(ChainTooLarge) as err:
            figure(game)
        assert str(err.value).startswith("hang.toml: features.free_games.max_total_spins = 100000: "), err.value
        assert f"{states:,} states, above its limit of 20,000,000" in str(err.value)


def test_unlimited_retriggers_that_can_win_for_ever_have_no_maximum():
    """HANG with unlimited retriggers rare enough to end on average (the free reels show the
    trigger on 1 stop in 3 per reel, 3 needed: 1/27 x 10 spins per spin): a free spin that
    retriggers also wins the scatter pay, so the rules set no bound; only the engine's spin
    guard stops such a round. With a round cap, the cap is the maximum."""
    text = HANG.replace('strips = ["S", "S", "S"]', 'strips = ["A S A", "A S A", "A S A"]') \
        .replace('retrigger = "capped"\nmax_total_spins = 100000\n', 'retrigger = "unlimited"\n')
    assert 'retrigger = "unlimited"' in text
    got = exact_moments(LineGame.from_spec(parse_spec(text, "unlimited.toml")))
    assert got.max_round_win is None and got.max_round_win_note == UNBOUNDED
    assert got.to_dict()["max_round_win_x"] is None and got.sd_label == "exact"
    capped = text.replace("max_bet_per_line = 1\n", "max_bet_per_line = 1\nmax_win_minor = 500\n")
    got = exact_moments(LineGame.from_spec(parse_spec(capped, "unlimited-capped.toml")))
    assert got.max_round_win == 500 and got.sd_label == "exact (uncapped round)"


def test_too_much_work_is_refused_before_it_starts():
    """Finding 2: thousands of paylines. 2,000 distinct lines over 5 reels of 6 rows make
    2,001,000 pairs of lines; the Python side alone would read 2,001,000 x 30 stops. Refused
    by the estimate, before any enumeration."""
    rows = [[(i // 6 ** r) % 6 for r in range(5)] for i in range(2000)]
    text = f"""
[game]
id = "many-lines-v1"
name = "Many lines"
reels = 5
rows = 6
[symbols]
A = {{ role = "regular" }}
B = {{ role = "regular" }}
[paytable]
A = {{ 3 = 5 }}
[lines]
paylines = {rows}
[reels.base]
strips = ["A B A B A B", "A B A B A B", "A B A B A B", "A B A B A B", "A B A B A B"]
[bet]
max_bet_per_line = 1
"""
    game = LineGame.from_spec(parse_spec(text, "many.toml"))
    with pytest.raises(NotExact, match=re.escape("read 60,030,000 reel stops (2000 lines, so 2,001,000 "
                                                 "pairs, x 30 stops), above its limit of 2,000,000")):
        exact_moments(game)


def test_the_kernels_stop_at_their_node_limits(monkeypatch):
    """The two enumerations whose worst case grows like a product over the reels stop at
    their node limit with a reason (limits lowered here so that a small game reaches them)."""
    game = make("cluedo-v1")
    monkeypatch.setattr(moments_module, "MAX_PAIR_NODES", 1000)
    with pytest.raises(NotExact, match="more than 1,000 reel combinations of pairs of lines"):
        exact_moments(game)
    monkeypatch.setattr(moments_module, "MAX_PAIR_NODES", 10**9)
    monkeypatch.setattr(moments_module, "MAX_SPIN_LINE_NODES", 20_000)
    with pytest.raises(NotExact, match="more than 1,000 partial windows of 20 lines"):
        max_round_win(game)


@settings(max_examples=150, deadline=None, suppress_health_check=HEALTH)
@given(case=games(reels=st.integers(2, 5), rows=st.integers(1, 3), strip_len=(2, 5)))
def test_the_loaders_round_bound_holds_the_exact_maximum(case):
    """Soundness of `spec.limits.line_round_bound`, the bound the loader refuses files by:
    never below the exact, attainable maximum round win at max bet (none where unbounded)."""
    spec = parse_spec(case.toml, "generated.toml")
    top = max_round_win(LineGame.from_spec(spec))
    assert top is None or line_round_bound(spec).value >= top, (line_round_bound(spec), top)


@pytest.mark.slow
def test_cops_fortune_maximum_base_win_is_attainable():
    """The paid Fortune Spin's maximum collects too: the window it names, with every cash value
    drawn at its largest, wins exactly that (reference rules)."""
    from test_cops import COPS_REF as r

    got = moments_of("cops-n-robbers-v1", "fortune")
    window = ref.window_at(r.rules, "fortune", got.max_base_stops)
    lines = sum(w[4] for w in ref.line_wins_mixed(r.rules, r.groups, window, 10, 50, 1))
    cells = [s for reel in window for s in reel]
    robbers, cash = cells.count(r.collector), sum(s in r.cash for s in cells)
    assert lines + robbers * cash * max(r.values) * 500 == got.max_base_win
