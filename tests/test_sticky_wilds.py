"""Expanding sticky wilds in the free games ([wild_multipliers.<free set>] expand = "sticky"),
their multipliers kept from the fill or redrawn every spin (sticky_multiplier): the exact RTP
(a chain over which reels are wild) against brute force over every window and every draw of
whole free games, the second moment of both against simulation of the redrawn one, each
round against a plain-Python reading of the rules, Monte Carlo against exact, the state
cleared between features, replay, and the loader's refusals."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
import reference as ref

from reelforge.analysis.exact import analyze
from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.families import compile_game
from reelforge.engine.rng import chunk_generator
from reelforge.errors import SpecError
from reelforge.games import make
from reelforge.spec import parse_spec

# Three reels of two rows, two lines. The base spin triggers 2 or 3 free spins on two or three
# scatters; on the free reels wilds land on reels 2 and 3 (reel 1 never), the wild pays on its
# own (an expanded pair of reels makes pure-wild runs), and the scatter pays in the free spins
# too, so a wild reel covering a scatter changes a pay.
TINY = """
[game]
id = "tiny-sticky-v1"
name = "Tiny sticky"
reels = 3
rows = 2
[symbols]
W = {{ role = "wild" }}
S = {{ role = "scatter" }}
A = {{ role = "regular" }}
B = {{ role = "regular" }}
[paytable]
W = {{ 3 = 7 }}
A = {{ 2 = 1, 3 = 4 }}
B = {{ 3 = 9 }}
[lines]
pure_wild_vs_substituted = "{rule}"
paylines = [[0, 0, 0], [1, 0, 1]]
[lines.wild.W]
substitutes = "all"
except = ["S"]
[scatter.S]
counting = "reels"
pays = {{ 2 = 1, 3 = 5 }}
[features.free_games]
trigger = "S"
award = {{ 2 = 2, 3 = 3 }}
retrigger = "none"
reel_set = "free"
[wild_multipliers]
combine = "{combine}"
[wild_multipliers.free]
weights = {{ 2 = 3, 3 = 1, 7 = 2 }}
expand = "sticky"
[reels.base]
strips = ["S A B A", "A S B W", "B A S"]
[reels.free]
strips = ["A B S A", "A W B B S", "B A W B"]
[bet]
max_lines = 2
max_bet_per_line = 1
"""

TABLE = ((2, 3), (3, 1), (7, 2))
HELD = ("kept", "redrawn")  # sticky_multiplier


def tiny(combine: str = "product", rule: str = "highest", held: str = "kept") -> str:
    """TINY's text; "redrawn" adds the key, "kept" leaves it to its default."""
    text = TINY.format(combine=combine, rule=rule)
    return text if held == "kept" else text.replace(
        'expand = "sticky"', f'expand = "sticky"\nsticky_multiplier = "{held}"')


def expanded(rules, window, held: dict) -> tuple[list, list]:
    """(the window after expansion, the reels that landed a wild now): a reel held wild, or
    showing a wild anywhere, shows the wild on every row."""
    landed = [r for r in range(rules.reels) if r not in held and any(s in rules.wilds for s in window[r])]
    wild = next(iter(rules.wilds))
    shown = [[wild] * rules.rows if r in held or r in landed else list(window[r])
             for r in range(rules.reels)]
    return shown, landed


def free_spin_win(rules, shown, mults: dict, lines: int, combine: str) -> int:
    """A free spin's credits at 1 credit a line: each line's award on the expanded window
    (the reference's evaluation, the wild's fixed multiplier 1) times the combined
    multipliers of the wild reels in its paid run; the scatter as the window shows it."""
    win = 0
    for line in range(lines):
        award = ref.evaluate_line(rules, shown, line, 1, False)
        rows = rules.paylines[line]
        drawn = [mults[r] for r in range(award.count) if shown[r][rows[r]] in rules.wilds]
        win += award.value * ref.combined_multiplier(drawn, combine)
    for symbol, counting, pays in rules.scatters:
        win += pays.get(ref.scatter_count(rules, shown, symbol, counting), 0) * lines
    return win


def free_games_value(rules, combine: str, lines: int = 2, held_rule: str = "kept"):
    """feature(held, left): (E[F], E[F**2]) of F, the credits of `left` free spins at 1 credit
    a line, from the wild reels `held` ((reel, value), ...), by enumerating every free window
    of every spin and every draw: of every reel that expands ("kept": a held reel keeps its
    value), or of every wild reel, held or expanding ("redrawn"); the state being the wild
    reels and their values: no linearity, no chain of the engine's."""
    total_weight = sum(w for _, w in TABLE)
    free_stops = list(itertools.product(*(range(len(s)) for s in rules.reel_sets["free"][0])))

    @cache
    def feature(held: tuple, left: int) -> tuple[Fraction, Fraction]:
        mean = square = Fraction(0)
        if left == 0:
            return mean, square
        for stops in free_stops:
            window = ref.window_at(rules, "free", stops)
            shown, landed = expanded(rules, window, dict(held))
            drawing = sorted(dict(held).keys() | set(landed)) if held_rule == "redrawn" else landed
            for draw in itertools.product(TABLE, repeat=len(drawing)):
                p = Fraction(1)
                for _, w in draw:
                    p *= Fraction(w, total_weight)
                mults = {**dict(held), **{r: m for r, (m, _) in zip(drawing, draw)}}
                win = free_spin_win(rules, shown, mults, lines, combine)
                later, later_square = feature(tuple(sorted(mults.items())), left - 1)
                mean += p * (win + later)
                square += p * (win * win + 2 * win * later + later_square)
        return mean / len(free_stops), square / len(free_stops)

    return feature


def brute_force_moments(rules, combine: str, held_rule: str = "kept") -> tuple[Fraction, Fraction]:
    """(E[X], E[X**2]) of X, a round's win / total bet: every base window, then its free
    games in full."""
    lines = 2
    feature = free_games_value(rules, combine, lines, held_rule)
    base_stops = list(itertools.product(*(range(len(s)) for s in rules.reel_sets["base"][0])))
    mean = square = Fraction(0)
    for stops in base_stops:
        window = ref.window_at(rules, "base", stops)
        spin = ref.spin_on_window(rules, window, lines, 1, False, 1)
        award = ref.first_award(rules, spin.trigger)
        free, free_square = feature((), award[1]) if award else (0, 0)
        mean += spin.win + free
        square += spin.win ** 2 + 2 * spin.win * free + free_square
    return mean / len(base_stops) / lines, square / len(base_stops) / lines ** 2


def brute_force_rtp(rules, combine: str, held_rule: str = "kept") -> Fraction:
    return brute_force_moments(rules, combine, held_rule)[0]


@pytest.mark.parametrize("held", HELD)
@pytest.mark.parametrize("combine", ["product", "sum", "max"])
@pytest.mark.parametrize("rule", ["highest", "substituted"])
def test_exact_rtp_equals_brute_force_over_whole_free_games(combine, rule, held):
    spec = parse_spec(tiny(combine, rule, held), "tiny.toml")
    game = compile_game(spec)
    result = analyze(game, game.max_bet)
    expected = brute_force_rtp(ref.rules_from_spec(spec), combine, held)
    assert result.rtp == pytest.approx(float(expected), rel=1e-12)
    assert result.free_games > 0.2 * result.rtp  # the free games carry weight here


@pytest.mark.parametrize("held", HELD)
def test_simulation_of_the_tiny_game_agrees_with_brute_force_within_four_standard_errors(held):
    spec = parse_spec(tiny(held=held), "tiny.toml")
    game = compile_game(spec)
    expected = float(brute_force_rtp(ref.rules_from_spec(spec), "product", held))
    stats = play_rounds(game, game.max_bet, chunk_generator(7, 0), 400_000)
    assert abs(stats.rtp - expected) < 4 * stats.rtp_standard_error


def test_redrawn_multipliers_keep_the_mean_but_not_the_spread_and_simulation_plays_redrawn():
    """Kept and redrawn have one RTP but not one second moment: redrawn's is smaller (a kept x7
    pays on every later spin, redrawn draws are independent from spin to spin); the simulated E[X**2] of the redrawn game, over 40 independent batches, lands
    within 4 standard errors of the redrawn brute force and far from the kept one."""
    rules = ref.rules_from_spec(parse_spec(tiny(), "tiny.toml"))
    kept = brute_force_moments(rules, "product", "kept")
    redrawn = brute_force_moments(rules, "product", "redrawn")
    assert kept[0] == redrawn[0] and kept[1] > redrawn[1]
    game = compile_game(parse_spec(tiny(held="redrawn"), "tiny.toml"))
    batches = [play_rounds(game, game.max_bet, chunk_generator(11, i), 20_000) for i in range(40)]
    squares = np.array([b.win_squares / b.rounds / b.total_bet ** 2 for b in batches])
    error = squares.std(ddof=1) / np.sqrt(len(squares))
    assert abs(squares.mean() - float(redrawn[1])) < 4 * error
    assert abs(float(kept[1]) - float(redrawn[1])) > 8 * error


@pytest.fixture(scope="module", params=["sticky-example-v1", "sticky-redraw-example-v1"])
def example(request):
    return make(request.param)


def test_each_round_follows_the_rules_in_words(example):
    """The example games' rounds: a free spin's wild reels are the reels wild before it and
    those that landed a wild now (held = False, a drawn value from the table); a held reel
    keeps its multiplier ("kept") or shows a fresh draw from the table ("redrawn": its values
    are the table's weights, a repeat of the last spin's value as often as two independent
    draws agree, within 4 standard errors); the first free spin starts with none and the base
    spin has none; every line win is the reference's award on the expanded window times the
    combined multipliers of the wild reels in its paid run; scatters count on the expanded
    window."""
    game = example
    rules = ref.rules_from_spec(game.spec)
    rules.wilds = {w: (subs, 1) for w, (subs, _) in rules.wilds.items()}
    combine = game.spec.wild_draws.combine
    table = dict(game.spec.wild_draws.weights("free"))
    redrawn = game.spec.wild_draws.redrawn == ("free",)
    held_values: list = []
    repeats = 0
    bet = game.max_bet
    features = held_seen = 0
    for seed in range(3000):
        outcome = game.play(bet, np.random.Generator(np.random.PCG64(seed)))
        held: dict = {}
        for spin in outcome.spins:
            events = spin.events_of("sticky_wild")
            if spin.kind == "base":
                assert events == ()
                continue
            if spin.index == 1:
                features += 1
                held = {}
            window = [list(col) for col in spin.window]
            shown, landed = expanded(rules, window, held)
            assert [(e.reel, e.held) for e in events] == sorted(
                [(r, True) for r in held] + [(r, False) for r in landed])
            for e in events:
                assert e.symbol == "WILD" and e.value in table
                if e.held:
                    if redrawn:
                        held_values.append(e.value)
                        repeats += e.value == held[e.reel]
                    else:
                        assert e.value == held[e.reel]
                    held_seen += 1
            held = {e.reel: e.value for e in events}
            paid = {e.line - 1: e.win for e in spin.line_wins}
            for line in range(bet.lines):
                award = ref.evaluate_line(rules, shown, line, spin.multiplier, False)
                rows = rules.paylines[line]
                drawn = [held[r] for r in range(award.count) if shown[r][rows[r]] == "WILD"]
                assert paid.get(line, 0) == award.value * ref.combined_multiplier(drawn, combine) * bet.bet_per_line
            scatter = sum(e.win for e in spin.events_of("scatter_win"))
            count = ref.scatter_count(rules, shown, "SCAT", "reels")
            assert scatter == dict(game.spec.scatters[0].pays).get(count, 0) * bet.total
    assert features > 10 and held_seen > 20
    if redrawn:
        total = sum(table.values())
        n = len(held_values)
        for value, weight in table.items():
            p = weight / total
            assert abs(held_values.count(value) - n * p) < 4 * np.sqrt(n * p * (1 - p)), value
        agree = sum((w / total) ** 2 for w in table.values())
        assert abs(repeats - n * agree) < 4 * np.sqrt(n * agree * (1 - agree))


def test_the_state_ends_with_the_feature_and_a_stale_one_is_cleared(example):
    """No wild reel outlives its free games: the model's state is clear after a round, and a
    round started over a state left dirty plays exactly as over a clear one."""
    game = example
    m = game.model_for(game.max_bet)
    seed = next(s for s in range(3000) if any(
        e.type == "sticky_wild" for sp in game.play(
            game.max_bet, np.random.Generator(np.random.PCG64(s))).spins for e in sp.events))
    clean = game.play(game.max_bet, np.random.Generator(np.random.PCG64(seed)))
    assert not m.sticky_reels.any()
    m.sticky_reels[:] = 5
    dirty = game.play(game.max_bet, np.random.Generator(np.random.PCG64(seed)))
    assert dirty == clean
    assert not m.sticky_reels.any()


def test_simulation_agrees_with_exact_within_four_standard_errors(example):
    exact = analyze(example).rtp
    stats = play_rounds(example, example.max_bet, chunk_generator(2027, 0), 2_000_000)
    assert abs(stats.rtp - exact) < 4 * stats.rtp_standard_error


def test_replay_reproduces_the_wild_reels(example):
    """A live round with wild reels (ChaCha20 from its stored seed) replays to the same
    outcome, wild reels and multipliers included."""
    from reelforge.engine.rng import live_generator
    from reelforge.engine.round import play_round, replay

    game, bet = example, example.max_bet
    for seed in range(1, 5000):
        outcome = play_round(game, bet, live_generator(seed), seed)
        if any(e.type == "sticky_wild" for s in outcome.spins for e in s.events):
            break
    else:
        pytest.fail("no round with wild reels in 5,000 seeds")
    assert replay(game, outcome.to_dict()) == outcome


BASE = TINY.format(combine="product", rule="highest")


@pytest.mark.parametrize("change, problem", [
    (('[wild_multipliers.free]', '[wild_multipliers.base]'), "only the free games' reel set"),
    (('retrigger = "none"', 'retrigger = "capped"\nretrigger_award = { 3 = 1 }\nmax_total_spins = 9'),
     "not with retriggers"),
    (('A = {{ role = "regular" }}'.replace("{{", "{").replace("}}", "}"),
      'A = { role = "regular" }\nV = { role = "wild" }'), "exactly one wild symbol"),
    (('expand = "sticky"', 'expand = "always"'), "unknown value"),
    (('expand = "sticky"', 'expand = "sticky"\nsticky_multiplier = "fresh"'),
     r"wild_multipliers\.free\.sticky_multiplier = 'fresh': unknown value"),
    (('expand = "sticky"', 'sticky_multiplier = "redrawn"'),
     r"wild_multipliers\.free\.sticky_multiplier = 'redrawn': only beside expand = \"sticky\""),
    (('expand = "sticky"', 'expand = "none"\nsticky_multiplier = "kept"'),
     r"sticky_multiplier = 'kept': only beside .* expand = 'none'"),
])
def test_the_loader_refuses_sticky_wilds_it_cannot_play(change, problem):
    text = BASE.replace(*change)
    if "V = " in text:
        text = text.replace('[lines.wild.W]', '[lines.wild.V]\nsubstitutes = ["A"]\n[lines.wild.W]')
    with pytest.raises(SpecError, match=problem):
        parse_spec(text, "tiny.toml")


def test_a_second_sticky_reel_set_beside_the_free_games_is_refused():
    """Every set that says expand = "sticky" is checked, not only the first: the base reels'
    would otherwise be read and silently played without expanding."""
    text = BASE.replace("[reels.base]", '[wild_multipliers.base]\nweights = { 2 = 1 }\n'
                        'expand = "sticky"\n[reels.base]')
    with pytest.raises(SpecError, match=r"wild_multipliers\.base\.expand.*only the free games"):
        parse_spec(text, "tiny.toml")


def test_a_mode_playing_the_free_reels_is_refused():
    text = BASE.replace("[bet]", '[modes.hot]\nreel_set = "free"\nprice = 2\n[bet]')
    with pytest.raises(SpecError, match="reel set of their own"):
        parse_spec(text, "tiny.toml")


def test_a_buy_mode_plays_the_bought_spins_from_no_wild_reel():
    """A buy mode's round is the free games alone: its exact RTP is the brute force's three
    free spins from no wild reel, per its price."""
    text = BASE.replace("[bet]", '[modes.buy]\nprice = 10\nbuy_spins = 3\n[bet]')
    spec = parse_spec(text, "tiny.toml")
    game = compile_game(spec)
    feature = free_games_value(ref.rules_from_spec(spec), "product")
    exact = analyze(game, game.bet(mode="buy")).rtp
    assert exact == pytest.approx(float(feature((), 3)[0] / 2 / 10), rel=1e-12)
