"""Cops n Robbers Big Money Christmas (seed 001): RTP, trail bonus, mixed pays, Fortune Spins, cap.

Independent figures come from tests/reference.py (plain Python, written from the rules in
words): mixed pays, cash collection and the trail's moves and ID parade. Live rounds are
replayed step by step against them from what their outcomes record (stops, windows, cash
values, parade picks); the exact analysis is checked against a chain built from the same
reference moves (real game: value iteration; a tiny hand-made game: exact fractions), and
against Monte Carlo of the live round code.
"""

from __future__ import annotations

import math
import statistics
from fractions import Fraction
from functools import cache, reduce

import numpy as np
import pytest
import reference as ref

from reelforge.analysis.exact import analyze, spin_figures
from reelforge.analysis.montecarlo import play_rounds
from reelforge.analysis.stats import Stats
from reelforge.analysis.trail import bonus_values, trail_figures
from reelforge.engine.check import check_game
from reelforge.engine.game import LineGame
from reelforge.engine.lines import evaluate_line
from reelforge.engine.outcome import Bet, Bonus, Collection, Parade, Trail
from reelforge.engine.rng import chunk_generator, live_generator
from reelforge.engine.round import play_round
from reelforge.errors import InvalidBet
from reelforge.games import make, shipped_games
from reelforge.spec import parse_spec

COPS = make("cops-n-robbers-v1")
TEXT = shipped_games()["cops-n-robbers-v1"].read_text(encoding="utf-8")
PRESENTS = ("PRESENT_RED", "PRESENT_GREEN", "PRESENT_GOLD")
# The seed: "2x at position 6, each additional multiplier every 3 positions until 10x".
SEED_MULTIPLIERS = {6 + 3 * i: m for i, m in enumerate((2, 3, 4, 6, 8, 10))}
MODES = ("base", "fortune")


class Reference:
    """The reference's view of a game: line rules, mixed groups, cash and the trail."""

    def __init__(self, game: LineGame):
        spec = game.spec
        self.game = game
        self.rules = ref.rules_from_spec(spec)
        self.groups = ref.mixed_groups_from_spec(spec)
        self.trail = ref.trail_from_spec(spec)
        self.cash = frozenset(spec.cash.symbols)
        self.values = dict(spec.cash.values)
        self.collector = spec.cash.collector


COPS_REF = Reference(COPS)


def variant(old: str, new: str, game_id: str) -> LineGame:
    """The Cops game file with one line rewritten (and its own id)."""
    assert TEXT.count(old) == 1, old
    text = TEXT.replace(old, new).replace('id = "cops-n-robbers-v1"', f'id = "{game_id}"')
    return LineGame.from_spec(parse_spec(text, f"{game_id}.toml"))


# ---------------------------------------------------------------------------------------------
# The game file states the seed's rules


def test_game_file_follows_the_seed():
    spec = COPS.spec
    assert (spec.reels, spec.rows, len(spec.paylines)) == (5, 3, 10)
    assert (spec.bet.min_lines, spec.bet.max_lines) == (10, 10)
    (group,) = spec.mixed
    # presents in any combination: 3 = 1x, 4 = 5x, 5 = 20x stake; a stake is 10 line bets
    assert set(group.symbols) == set(PRESENTS)
    assert {c: p / 10 for c, p in group.pays} == {3: 1, 4: 5, 5: 20}
    assert spec.cash.collector == "ROBBER" and set(spec.cash.symbols) == set(PRESENTS)
    assert {v for v, _ in spec.cash.values} == {1, 2, 5, 10, 25, 50, 100}
    assert spec.rules == "cops_trail"
    trail = spec.features
    assert dict(trail.start_multiplier) == {3: 1, 4: 2, 5: 3}
    assert dict(trail.multipliers) == SEED_MULTIPLIERS
    assert (trail.robber, trail.cop, trail.sid_pushback) == ("ROBBER", "COP", 2)
    regular = {s.id for s in spec.symbols if s.role == "regular"} - {"BLANK"}
    for wild in spec.wilds:  # robber and cop: wild for everything but the bonus symbol
        assert set(wild.substitutes) - {"ROBBER", "COP"} == regular, wild
    shown = {rs.name: {s for strip in rs.strips for s in strip} for rs in spec.reel_sets}
    assert "COP" in shown["bonus"] and "COP" not in shown["base"] | shown["fortune"]
    assert all("ROBBER" in symbols for symbols in shown.values())
    assert shown["fortune"] == set(PRESENTS) | {"BONUS", "ROBBER", "BLANK"}
    assert all("BONUS" in strip for strip in spec.reel_set("base").strips)
    fortune = spec.mode("fortune")
    assert (fortune.reel_set, fortune.price, fortune.collect) == ("fortune", 2, True)
    assert spec.mode("base").collect is False


# ---------------------------------------------------------------------------------------------
# 1. RTP 92.00% in both base games: exact, independent pieces, and Monte Carlo


@pytest.mark.parametrize("mode", MODES)
def test_exact_rtp_is_92_percent(mode):
    exact = analyze(COPS, Bet(10, 1, mode))
    assert abs(exact.rtp - 0.92) <= 0.0002, exact.rtp
    assert exact.price == {"base": 1, "fortune": 2}[mode]
    parts = (exact.base_lines + exact.base_scatter + exact.free_games + exact.base_collect
             + exact.bonus)
    assert exact.rtp == pytest.approx(parts, rel=1e-12)
    assert (exact.base_collect > 0) == (mode == "fortune")
    for bpl in (3, 50):  # per stake, the bet's size changes nothing
        assert analyze(COPS, Bet(10, bpl, mode)).rtp == pytest.approx(exact.rtp, rel=1e-12)


def value_iteration(transition: np.ndarray, reward: np.ndarray) -> np.ndarray:
    """x = reward + transition @ x by iterating from 0 (a method apart from a linear solve)."""
    x = np.zeros_like(reward)
    for _ in range(200_000):
        new = reward + transition @ x
        if np.max(np.abs(new - x)) <= 1e-15 * max(1.0, float(np.max(np.abs(new)))):
            return new
        x = new
    raise AssertionError("value iteration did not converge")


def present_classifier(r: Reference):
    def classify(shown):
        return (sum(s == r.collector for s in shown), sum(s == r.trail.cop for s in shown),
                sum(s in r.cash for s in shown))
    return classify


@cache
def cops_chain():
    """The real game's bonus chain from the reference's moves: (collected, E[spins],
    Var[spins]) at starting multiplier 1, by value iteration in floats."""
    r = COPS_REF
    counts = ref.count_distribution(r.rules, r.trail.reel_set, present_classifier(r))
    states, transitions, reward = ref.trail_chain(r.trail, counts, ref.mean_cash_value(r.values))
    index = {s: i for i, s in enumerate(states)}
    t = np.zeros((len(states), len(states)))
    for s, out in transitions.items():
        for nxt, p in out.items():
            t[index[s], index[nxt]] = float(p)
    rew = np.array([float(reward[s]) for s in states])
    start = index[(r.trail.robber_start, r.trail.cop_start)]
    collected = value_iteration(t, rew)
    m1 = value_iteration(t, np.ones(len(states)))
    m2 = value_iteration(t, 1 + 2 * t @ m1)  # E[N^2] = 1 + 2 E[N'] + E[N'^2]
    return collected[start], m1[start], m2[start] - m1[start] ** 2


def bonus_count_distribution(r: Reference, reel_set: str) -> dict:
    trigger = r.trail.trigger
    dist = ref.count_distribution(r.rules, reel_set,
                                  lambda shown: (sum(s == trigger for s in shown),))
    return {k[0]: p for k, p in dist.items()}


@pytest.mark.parametrize("mode", MODES)
def test_exact_parts_against_independent_computation(mode):
    r = COPS_REF
    bet = Bet(10, 1, mode)
    exact = analyze(COPS, bet)
    collected, spins, _ = cops_chain()
    figures = trail_figures(COPS)
    assert figures.collected == pytest.approx(collected, rel=1e-9)
    assert figures.spins == pytest.approx(spins, rel=1e-9)
    assert exact.mean_bonus_spins == pytest.approx(spins, rel=1e-9)

    reel_set = COPS.spec.mode(mode).reel_set
    triggers = bonus_count_distribution(r, reel_set)
    p_bonus = sum(p for c, p in triggers.items() if c in r.trail.start_multiplier)
    assert exact.bonus_probability == pytest.approx(float(p_bonus), rel=1e-12)
    line_ev = spin_figures(COPS, COPS.rules_model.reel_set, bet, 1, False).lines
    bonus = sum(float(p) * (r.trail.start_multiplier[c] * collected + spins * line_ev)
                for c, p in triggers.items() if c in r.trail.start_multiplier)
    assert exact.bonus * exact.price == pytest.approx(bonus, rel=1e-9)
    assert bonus_values(COPS) == pytest.approx(
        {s: s * collected + spins * line_ev for s in (1, 2, 3)}, rel=1e-9)

    counts = ref.count_distribution(r.rules, reel_set, present_classifier(r))
    collect = sum(p * robbers * cash for (robbers, _c, cash), p in counts.items())
    collect *= ref.mean_cash_value(r.values)
    assert exact.base_collect * exact.price == pytest.approx(
        float(collect) if mode == "fortune" else 0.0, rel=1e-12)


MC_SEEDS = {"base": 20261201, "fortune": 20261202}
MC_CHUNKS, MC_CHUNK = 30, 100_000


@cache
def monte_carlo(mode: str) -> tuple:
    bet = Bet(10, 1, mode)
    return tuple(play_rounds(COPS, bet, chunk_generator(MC_SEEDS[mode], i), MC_CHUNK)
                 for i in range(MC_CHUNKS))


def batch_se(chunks, field: str, cost: int) -> tuple[float, float]:
    """Mean per cost and its standard error by batch means over independent streams."""
    means = [getattr(c, field) / (c.rounds * cost) for c in chunks]
    return statistics.fmean(means), statistics.stdev(means) / math.sqrt(len(means))


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_monte_carlo_of_the_live_round_agrees_with_exact(mode):
    bet = Bet(10, 1, mode)
    exact = analyze(COPS, bet)
    chunks = monte_carlo(mode)
    stats = reduce(Stats.merge, chunks)
    n, cost = stats.rounds, stats.total_bet
    assert (n, cost) == (MC_CHUNKS * MC_CHUNK, COPS.price(bet))
    report = f"{mode}: {stats.to_dict()}"
    # the whole RTP: SE from the exact integer sum of squared round wins
    assert abs(stats.rtp - exact.rtp) < 4 * stats.rtp_standard_error, report
    # bonus frequency: a Bernoulli with the exact probability
    p = exact.bonus_probability
    assert abs(stats.bonus_triggers / n - p) < 4 * math.sqrt(p * (1 - p) / n), report
    # bonus length: the exact variance of the chain's absorption time
    _, spins, var = cops_chain()
    mean_spins = stats.bonus_spins / stats.bonus_triggers
    assert abs(mean_spins - spins) < 4 * math.sqrt(var / stats.bonus_triggers), report
    # money by source: SE by batch means (no exact variance of these at hand)
    for field, want in (("base_line_win", exact.base_lines), ("bonus_win", exact.bonus),
                        ("base_collect_win", exact.base_collect)):
        if want == 0:
            assert getattr(stats, field) == 0, (field, report)
            continue
        got, se = batch_se(chunks, field, cost)
        assert abs(got - want) < 4 * se, (field, got, want, se)
    assert stats.base_scatter_win == stats.feature_win == stats.guard_hits == stats.cap_hits == 0


# ---------------------------------------------------------------------------------------------
# Replaying live rounds with the reference


def check_spin_lines(r: Reference, spin, lines: int, bet_per_line: int):
    window = [list(reel) for reel in spin.window]
    assert window == ref.window_at(r.rules, spin.reel_set, spin.stops), spin
    want = ref.line_wins_mixed(r.rules, r.groups, window, lines, bet_per_line, spin.multiplier)
    got = [(w.line, w.symbol, w.count, w.multiplier, w.win) for w in spin.line_wins]
    assert got == want, spin
    assert spin.scatter_wins == ()
    return window, sum(w[4] for w in want)


def check_cash(r: Reference, spin, window):
    """The cash values recorded for exactly the cash symbols in view, in reading order;
    returns their sum."""
    assert [(c.reel, c.row) for c in spin.cash] == ref.cash_cells(window, r.cash), spin
    assert all(c.value in r.values for c in spin.cash), spin
    return sum(c.value for c in spin.cash)


def replay_round(r: Reference, outcome, cap: int = 0) -> dict:
    """Re-derive a round from its recorded stops, cash values and parade picks; every
    recorded win, step and flag must agree. Returns what happened, for coverage checks."""
    game, trail = r.game, r.trail
    bet = outcome.bet
    stake = bet.stake
    mode = game.spec.mode(bet.mode)
    seen: dict = {"parades": [], "positions": set(), "robbers": 0, "collectors": 0}
    base = outcome.spins[0]
    assert (base.index, base.kind, base.reel_set, base.multiplier) == (0, "base", mode.reel_set, 1)
    window, base_lines = check_spin_lines(r, base, bet.lines, bet.bet_per_line)
    robbers = sum(s == r.collector for reel in window for s in reel)
    base_collect = 0
    if mode.collect:  # every robber in view collects every value in view once
        values = check_cash(r, base, window)
        base_collect = robbers * values * stake
        want = Collection(collectors=robbers, values=values, multiplier=1,
                          win=base_collect) if base_collect else None
        assert base.collection == want, base
        seen["collectors"] = robbers if base_collect else 0
    else:  # the normal base game draws no values and collects nothing
        assert base.cash == () and base.collection is None, base
    assert base.trail is None
    triggers = sum(s == trail.trigger for reel in window for s in reel)
    start = trail.start_multiplier.get(triggers, 0)
    bonus_spins = outcome.spins[1:]
    bonus_win = 0
    if start == 0:
        assert outcome.bonus is None and bonus_spins == (), outcome
    else:
        assert outcome.bonus == Bonus(trigger_count=triggers, start_multiplier=start), outcome
        assert base.event("bonus") == outcome.bonus  # shown after the spin that triggers it
        assert outcome.counters.bonus_spins == len(bonus_spins), outcome
        seen["start"] = start
        robber, cop = trail.robber_start, trail.cop_start
        ongoing = True
        for i, spin in enumerate(bonus_spins, 1):
            assert ongoing, f"spin {i} after the bonus ended: {outcome}"
            assert (spin.index, spin.kind, spin.reel_set, spin.multiplier) == (
                i, "bonus", trail.reel_set, 1), spin
            window, line_win = check_spin_lines(r, spin, bet.lines, bet.bet_per_line)
            values = check_cash(r, spin, window)
            robbers = sum(s == trail.robber for reel in window for s in reel)
            cops = sum(s == trail.cop for reel in window for s in reel)
            robber, cop, units, caught = ref.trail_move(trail, robber, cop, robbers, cops)
            gained = values * units * start * stake
            want = (Collection(collectors=robbers, values=values, win=gained,
                               multiplier=ref.trail_multiplier(trail, robber) * start)
                    if gained else None)
            assert spin.collection == want, spin
            bonus_win += line_win + gained
            seen["robbers"] = max(seen["robbers"], robbers)
            assert spin.trail == Trail(robber=robber, cop=cop, robbers=robbers, cops=cops), spin
            who = None
            if cap and bonus_win > 0 and base_lines + base_collect + bonus_win >= cap:
                ongoing = False  # the round's win reached the cap: the bonus stops here
            elif caught:
                who = spin.parade.result if spin.parade else None
                assert who in ("bert", "sid", "vic"), spin
                seen["parades"].append((who, robber))
                robber, cop, ongoing = ref.parade(trail, robber, cop, who)
            # the parade's pick and the positions after it
            assert spin.parade == (Parade(result=who, robber=robber, cop=cop) if who else None), spin
            seen["positions"].add(robber)
        assert not ongoing, f"the bonus stopped without Bert or the cap: {outcome}"
    assert outcome.breakdown == {"base_lines": base_lines, "base_scatter": 0, "free_games": 0,
                                 "base_collect": base_collect, "bonus": bonus_win}, outcome
    total = base_lines + base_collect + bonus_win
    if cap and total > cap:
        assert (outcome.total_win, outcome.win_capped, outcome.uncapped_win) == (cap, True, total)
        assert "win_capped" in outcome.flags
    else:
        assert (outcome.total_win, outcome.win_capped, outcome.uncapped_win) == (total, False, None)
        assert sum(s.win for s in outcome.spins) == total
    assert ("bonus" in outcome.flags) == bool(start)
    return seen


# ---------------------------------------------------------------------------------------------
# 2. The trail bonus, replayed from live rounds

# Mega Big Money starts (5 bonus symbols, about 1 in 45,000 Fortune Spins rounds), found by
# playing live_generator(seed) for seed = 0, 1, ... at Bet(10, 1, mode). The seeds searched
# below give the rest: Super Big Money, the robber at the end of the trail, Vic with no
# multiplier ahead.
RARE_SEEDS = {30125: ("fortune", 1), 36712: ("fortune", 1), 87640: ("fortune", 1),
              24405: ("base", 1)}


@cache
def cops_bonus_rounds():
    """Live rounds of the real game with a bonus: fortune and base mode, assorted stakes."""
    found = []
    for mode, seeds in (("fortune", range(6000)), ("base", range(3000))):
        for seed in seeds:
            bet = Bet(10, (1, 2, 50)[seed % 3], mode)
            outcome = play_round(COPS, bet, live_generator(seed), seed)
            if outcome.bonus is not None:
                found.append(outcome)
    for seed, (mode, bpl) in RARE_SEEDS.items():
        outcome = play_round(COPS, Bet(10, bpl, mode), live_generator(seed), seed)
        assert outcome.bonus.start_multiplier == 3, f"seed {seed} plays no Mega: search again"
        found.append(outcome)
    return found


TRAIL_END = COPS.spec.features.length - 1


def test_bonus_rounds_replay_step_by_step():
    rounds = cops_bonus_rounds()
    assert len(rounds) >= 80
    parades, positions, starts, robbers = [], set(), set(), 0
    for outcome in rounds:
        seen = replay_round(COPS_REF, outcome)
        parades += seen["parades"]
        positions |= seen["positions"]
        starts.add(seen["start"])
        robbers = max(robbers, seen["robbers"])
    whos = {who for who, _ in parades}
    assert whos == {"bert", "sid", "vic"}, whos
    assert robbers >= 2  # several robbers in one spin: each moves and collects
    assert starts == {1, 2, 3}, starts
    assert TRAIL_END in positions, positions  # the robber reached the end of the trail
    assert {("vic", p) for p in range(TRAIL_END - 2, TRAIL_END + 1)} & set(parades)  # none ahead
    assert {("vic", p) for p in range(TRAIL_END - 2)} & set(parades)  # Vic running ahead


def test_parade_and_moves_at_the_ends_of_the_trail():
    """The reference's own rules at the trail's edges, as the seed states them."""
    t = COPS_REF.trail
    assert [ref.trail_multiplier(t, p) for p in range(t.length)] == \
        [1] * 6 + [2] * 3 + [3] * 3 + [4] * 3 + [6] * 3 + [8] * 3 + [10] * 3
    assert ref.parade(t, 5, 5, "vic") == (6, 5, True)  # runs to the first multiplier
    assert ref.parade(t, 7, 7, "vic") == (9, 7, True)
    assert ref.parade(t, 22, 22, "vic") == (22, 20, True)  # none ahead: as Sid
    assert ref.parade(t, 1, 1, "sid") == (1, 0, True)  # not below the start
    assert ref.parade(t, 9, 9, "bert") == (9, 9, False)
    assert ref.trail_move(t, 22, 3, 3, 0) == (23, 3, 10 + 10 + 10, False)  # stops at the end
    assert ref.trail_move(t, 4, 2, 2, 3) == (6, 5, 1 + 2, False)
    assert ref.trail_move(t, 4, 2, 1, 3) == (5, 5, 1, True)


# ---------------------------------------------------------------------------------------------
# A tiny hand-made trail game: its exact figures in fractions, by a separate method

TINY = """
[game]
id = "tiny-trail-v1"
name = "Tiny trail"
reels = 3
rows = 2
rules = "cops_trail"

[symbols]
R = { role = "wild" }
C = { role = "wild" }
B = { role = "bonus" }
P1 = { role = "regular" }
P2 = { role = "regular" }
X = { role = "regular" }

[paytable]
X = { 3 = 5 }
R = { 3 = 20 }

[lines]
paylines = [[0, 0, 0], [1, 1, 1]]

[lines.wild.R]
except = ["B"]

[lines.wild.C]
except = ["B"]

[lines.mixed.GIFTS]
symbols = ["P1", "P2"]
pays = { 2 = 1, 3 = 4 }

[cash]
symbols = ["P1", "P2"]
collector = "R"
values = { 1 = 3, 2 = 2, 5 = 1 }

[scatter.B]
counting = "cells"

[modes.collecting]
reel_set = "base"
price = 3
collect = true

[bet]
max_bet_per_line = 2

[features.trail_bonus]
trigger = "B"
start_multiplier = { 2 = 1, 3 = 2 }
reel_set = "bonus"
robber = "R"
cop = "C"
length = 6
robber_start = 2
cop_start = 0
multipliers = { 3 = 2, 5 = 3 }
sid_pushback = 1

[features.trail_bonus.parade]
bert = 2
sid = 1
vic = 1

[reels.base]
strips = ["B X P1 R", "X B P2", "B P1 X R P2"]

[reels.bonus]
strips = ["R C X X P1 X", "C P2 X X R", "R X P1 X C P2 X"]
weights = [[2, 1, 1, 1, 1, 1], [1, 1, 2, 1, 1], [1, 1, 1, 1, 1, 1, 1]]
"""
TINY_GAME = LineGame.from_spec(parse_spec(TINY, "tiny-trail.toml"))
TINY_REF = Reference(TINY_GAME)


def brute_line_ev(r: Reference, reel_set: str, lines: int) -> Fraction:
    """E[line win of one spin], multiples of the stake, over every stop combination."""
    total = Fraction(0)
    for stops, p in ref.stop_distribution(r.rules, reel_set):
        window = ref.window_at(r.rules, reel_set, stops)
        total += p * sum(w[4] for w in ref.line_wins_mixed(r.rules, r.groups, window, lines,
                                                            1, 1))
    return total / lines


@cache
def tiny_exact(mode: str) -> dict:
    """The tiny game's figures at Bet(2, 1, mode), exact fractions, multiples of the cost."""
    r = TINY_REF
    price = TINY_GAME.spec.mode(mode).price
    counts = ref.count_distribution(r.rules, "bonus", present_classifier(r))
    value = ref.mean_cash_value(r.values)
    collected, spins = ref.trail_expectation(r.trail, counts, value)
    bonus_lines = brute_line_ev(r, "bonus", 2)
    triggers = bonus_count_distribution(r, "base")
    starts = {c: r.trail.start_multiplier[c] for c in triggers if c in r.trail.start_multiplier}
    bonus = sum(triggers[c] * (s * collected + spins * bonus_lines) for c, s in starts.items())
    base_counts = ref.count_distribution(r.rules, "base", present_classifier(r))
    collect = Fraction(0)
    if TINY_GAME.spec.mode(mode).collect:
        collect = value * sum(p * rb * cash for (rb, _c, cash), p in base_counts.items())
    base_lines = brute_line_ev(r, "base", 2)
    return dict(collected=collected, spins=spins, bonus_lines=bonus_lines,
                bonus_probability=sum(triggers[c] for c in starts), bonus=bonus / price,
                base_lines=base_lines / price, base_collect=collect / price,
                rtp=(base_lines + collect + bonus) / price)


@pytest.mark.parametrize("mode", ["base", "collecting"])
def test_tiny_trail_game_exact_against_fractions(mode):
    want = {k: float(v) for k, v in tiny_exact(mode).items()}
    figures = trail_figures(TINY_GAME)
    assert figures.collected == pytest.approx(want["collected"], abs=1e-9)
    assert figures.spins == pytest.approx(want["spins"], abs=1e-9)
    values = bonus_values(TINY_GAME)
    assert values == pytest.approx({s: s * want["collected"] + want["spins"] * want["bonus_lines"]
                                    for s in (1, 2)}, abs=1e-9)
    exact = analyze(TINY_GAME, Bet(2, 1, mode))
    for name in ("bonus_probability", "bonus", "base_lines", "base_collect", "rtp"):
        assert getattr(exact, name) == pytest.approx(want[name], abs=1e-9), name
    assert exact.mean_bonus_spins == pytest.approx(want["spins"], abs=1e-9)


@pytest.mark.parametrize("mode", ["base", "collecting"])
def test_tiny_trail_game_monte_carlo_against_fractions(mode):
    want = float(tiny_exact(mode)["rtp"])
    stats = play_rounds(TINY_GAME, Bet(2, 1, mode), chunk_generator(7, mode == "base"), 400_000)
    assert abs(stats.rtp - want) < 4 * stats.rtp_standard_error, (stats.rtp, want)


def test_tiny_trail_game_rounds_replay_step_by_step():
    parades, positions, starts, collectors = [], set(), set(), 0
    for seed in range(600):
        bet = Bet(1 + seed % 2, 1 + seed // 2 % 2, ("base", "collecting")[seed // 4 % 2])
        seen = replay_round(TINY_REF, play_round(TINY_GAME, bet, live_generator(seed), seed))
        parades += seen["parades"]
        positions |= seen["positions"]
        starts.add(seen.get("start", 0))
        collectors = max(collectors, seen["collectors"])
    last = TINY_REF.trail.length - 1
    assert {who for who, _ in parades} == {"bert", "sid", "vic"}
    assert ("vic", last) in parades  # Vic with no multiplier ahead
    assert {("vic", p) for p in range(last)} & set(parades)  # Vic running ahead
    assert last in positions and starts == {0, 1, 2} and collectors >= 2


# ---------------------------------------------------------------------------------------------
# 3. Mixed pays

SYMS = {s: i for i, s in enumerate(COPS.spec.symbol_ids)}
NAMES = COPS.spec.symbol_ids + tuple(g.name for g in COPS.spec.mixed)


def centre(*symbols, other="TEN"):
    """A window showing `symbols` on the middle row (payline 1), `other` above and below."""
    return np.array([[SYMS[other], SYMS[s], SYMS[other]] for s in symbols], dtype=np.int16)


def pays(window, line=0):
    value, sym, count, mult, _jp = evaluate_line(COPS.model, window, line, 1, False)
    return int(value), NAMES[sym] if sym >= 0 else None, int(count), int(mult)


R, G, D, W, C = "PRESENT_RED", "PRESENT_GREEN", "PRESENT_GOLD", "ROBBER", "COP"


@pytest.mark.parametrize("symbols,want", [
    ((R, G, D, "K", "J"), (10, "PRESENTS", 3, 1)),  # any combination: 3 = 1x stake
    ((R, R, G, D, "K"), (50, "PRESENTS", 4, 1)),  # 4 = 5x stake
    ((D, G, R, G, D), (200, "PRESENTS", 5, 1)),  # 5 = 20x stake
    ((R, R, R, R, R), (200, "PRESENTS", 5, 1)),  # one colour pays as the group
    ((R, W, D, "K", "J"), (10, "PRESENTS", 3, 1)),  # the robber completes them
    ((W, R, G, D, R), (200, "PRESENTS", 5, 1)),  # a leading robber too
    ((R, C, W, D, "J"), (50, "PRESENTS", 4, 1)),  # the cop (bonus) too
    ((W, W, W, R, "K"), (50, "ROBBER", 3, 1)),  # 3 robbers = 50 = 4 mixed: the pure run
    ((W, W, W, R, G), (200, "PRESENTS", 5, 1)),  # the higher: 5 mixed beats 3 robbers
    ((W, W, W, W, R), (200, "ROBBER", 4, 1)),  # 4 robbers = 200 = 5 mixed: the pure run
    ((W, W, W, "K", "K"), (80, "K", 5, 1)),  # a specific symbol's run beats the robbers
    ((R, G, "K", D, R), (0, None, 0, 1)),  # a non-present breaks the run
    ((R, G, "BONUS", D, R), (0, None, 0, 1)),
    ((R, G, "BLANK", D, R), (0, None, 0, 1)),
    ((W, "BLANK", R, G, D), (0, None, 0, 1)),  # the robber is no blank
    (("K", R, G, D, R), (0, None, 0, 1)),  # pays from the leftmost reel only
    ((R, G, W, W, W), (200, "PRESENTS", 5, 1)),
])
def test_mixed_pays_on_hand_set_windows(symbols, want):
    window = centre(*symbols)
    assert pays(window) == want
    names = [[NAMES[s] for s in reel] for reel in window.tolist()]
    got = ref.evaluate_line_mixed(COPS_REF.rules, COPS_REF.groups, names, 0, 1)
    assert (got.value, got.symbol, got.count, got.multiplier) == want


def test_mixed_pays_on_every_line():
    """Payline 4 is V-shaped: the presents pay along it whatever the rows."""
    window = centre("K", "K", "K", "K", "K", other="Q")
    for reel, row in enumerate(COPS.spec.paylines[3]):
        window[reel, row] = SYMS[PRESENTS[reel % 3]]
    assert pays(window, line=3) == (200, "PRESENTS", 5, 1)
    assert pays(window, line=0) == (0, None, 0, 1)  # the middle row: K, then a present


def test_evaluate_line_matches_the_reference_on_random_windows():
    r = COPS_REF
    rng = np.random.default_rng(20261203)
    ids = COPS.spec.symbol_ids
    present_heavy = [SYMS[s] for s in PRESENTS * 3 + (W, W, C, "K", "BLANK", "BONUS")]
    strips = {rs.name: rs.strips for rs in COPS.spec.reel_sets}
    mixed_paid = 0
    for i in range(2500):
        if i % 2:  # a window the reels can show
            name = ("base", "bonus", "fortune")[i % 3]
            stops = [int(rng.integers(len(s))) for s in strips[name]]
            names = ref.window_at(r.rules, name, stops)
            window = np.array([[SYMS[s] for s in reel] for reel in names], dtype=np.int16)
        else:  # mostly presents and wilds: long mixed runs
            window = rng.choice(present_heavy, size=(5, 3)).astype(np.int16)
            names = [[ids[s] for s in reel] for reel in window.tolist()]
        for line in range(10):
            got = pays(window, line)
            want = ref.evaluate_line_mixed(r.rules, r.groups, names, line, 1)
            assert got == (want.value, want.symbol, want.count, want.multiplier), (names, line)
            mixed_paid += want.symbol == "PRESENTS"
    assert mixed_paid > 1000


# ---------------------------------------------------------------------------------------------
# 4. Fortune Spins, price and bets


def test_fortune_spins_collect_and_the_base_game_does_not():
    r = COPS_REF
    collectors, drawn_without_robber, base_with_both = 0, 0, 0
    for seed in range(1500):
        bet = Bet(10, (1, 4, 50)[seed % 3], "fortune")
        outcome = play_round(COPS, bet, live_generator(seed), seed)
        replay_round(r, outcome)  # collection = robbers x values in view x stake
        base = outcome.spins[0]
        robbers = sum(s == "ROBBER" for reel in base.window for s in reel)
        if base.collection is not None:
            assert base.collection.win == robbers * sum(c.value for c in base.cash) * bet.total
            collectors = max(collectors, base.collection.collectors)
        elif base.cash:
            drawn_without_robber += 1  # values show, nobody collects
    for seed in range(1500):
        outcome = play_round(COPS, Bet(10, 1 + seed % 50), live_generator(seed), seed)
        replay_round(r, outcome)
        base = outcome.spins[0]
        shown = {s for reel in base.window for s in reel}
        base_with_both += "ROBBER" in shown and bool(shown & set(PRESENTS))
        assert base.cash == () and base.collection is None
        assert outcome.breakdown["base_collect"] == 0
    assert collectors >= 2 and drawn_without_robber > 0 and base_with_both > 20


@pytest.mark.parametrize("bet_per_line", [1, 7, 50])
def test_price_of_fortune_spins_is_two_stakes(bet_per_line):
    for mode, price in (("base", 1), ("fortune", 2)):
        bet = Bet(10, bet_per_line, mode)
        assert COPS.price(bet) == price * bet.total
        stats = play_rounds(COPS, bet, chunk_generator(3, bet_per_line), 2000)
        assert stats.total_bet == price * 10 * bet_per_line
        assert stats.rtp == stats.total_win / (2000 * price * 10 * bet_per_line)


def test_bets_are_validated():
    for bet, named in ((Bet(9, 1), "lines = 9"), (Bet(11, 1, "fortune"), "lines = 11"),
                       (Bet(10, 51), "bet_per_line = 51"), (Bet(10, 1, "turbo"), "mode = 'turbo'"),
                       (Bet(10, 1, "base", 2), "denomination = 2")):
        with pytest.raises(InvalidBet, match=named):
            play_round(COPS, bet, live_generator(1))
        with pytest.raises(InvalidBet, match=named):
            play_rounds(COPS, bet, chunk_generator(1, 0), 1)
        with pytest.raises(InvalidBet, match=named):
            analyze(COPS, bet)
    with pytest.raises(InvalidBet, match="lines = 9"):
        COPS.bet(9, 1)
    assert COPS.bet(10, 1, "fortune") == Bet(10, 1, "fortune")


# ---------------------------------------------------------------------------------------------
# 5. The cap on one round's win

CAP = 300
CAPPED = variant("max_win_minor = 25000000", f"max_win_minor = {CAP}", "cops-capped-v1")
UNCAPPED = variant("max_win_minor = 25000000", "max_win_minor = 0", "cops-uncapped-v1")


def test_cap_converts_currency_to_credits():
    assert COPS.model_for(COPS.max_bet).cap == 25_000_000  # 250,000.00 at 1p a credit
    assert CAPPED.model_for(CAPPED.max_bet).cap == CAP
    assert UNCAPPED.model_for(UNCAPPED.max_bet).cap == 0
    five = variant("denominations = [1]", "denominations = [1, 5]", "cops-five-v1")
    assert five.model_for(Bet(10, 1, "base", 5)).cap == 25_000_000 // 5


def test_a_capped_round_pays_the_cap_and_its_bonus_stops_early():
    capped_ref = Reference(CAPPED)
    plain = stopped = None
    for seed in range(4000):
        outcome = play_round(CAPPED, CAPPED.max_bet, live_generator(seed), seed)
        if not outcome.win_capped:
            continue
        full = play_round(UNCAPPED, UNCAPPED.max_bet, live_generator(seed), seed)
        replay_round(capped_ref, outcome, cap=CAP)
        assert outcome.total_win == CAP and "win_capped" in outcome.flags
        assert outcome.uncapped_win > CAP
        assert not full.win_capped and full.total_win >= outcome.uncapped_win
        if outcome.bonus is None and plain is None:
            plain = seed
            assert full.total_win == outcome.uncapped_win  # the same seed without the cap
            assert full.spins == outcome.spins
        if (outcome.bonus is not None and full.counters.bonus_spins > outcome.counters.bonus_spins
                and stopped is None):
            stopped = seed
            # the same draws up to the stop, and the last one no Bert: the cap ended it
            n = len(outcome.spins)
            assert full.spins[:n - 1] == outcome.spins[:n - 1]
            assert outcome.spins[-1].parade is None
            assert outcome.uncapped_win == sum(s.win for s in full.spins[:n])
        if plain is not None and stopped is not None:
            break
    assert plain is not None and stopped is not None, (plain, stopped)


def test_capped_variant_passes_check_game():
    check_game(CAPPED, rounds=150)
    check_game(TINY_GAME, rounds=150)


@pytest.mark.slow
@pytest.mark.parametrize("start", [1, 2, 3])
def test_a_bonus_won_on_the_gamble_wheel_is_worth_its_price(start):
    """play_bonus plays the trail alone; its mean win must match bonus_values, the price the
    bonus wheel charges (within 4 standard errors of the sample)."""
    import statistics

    from reelforge.analysis.trail import bonus_values
    from reelforge.engine.rng import chunk_generator
    from reelforge.engine.round import play_bonus

    game = make("cops-n-robbers-v1")
    bet = game.bet(10, 1)
    rng = chunk_generator(2026, start)
    wins = [play_bonus(game, bet, start, rng).total_win / bet.total for _ in range(15_000)]
    se = statistics.pstdev(wins) / len(wins) ** 0.5
    assert abs(statistics.mean(wins) - bonus_values(game)[start]) < 4 * se


def test_play_bonus_refuses_a_start_multiplier_the_game_does_not_have():
    from reelforge.engine.rng import live_generator
    from reelforge.engine.round import play_bonus
    from reelforge.errors import InvalidBet

    game = make("cops-n-robbers-v1")
    with pytest.raises(InvalidBet, match="4"):
        play_bonus(game, game.bet(10, 1), 4, live_generator(1))
