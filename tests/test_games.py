"""Every shipped game: check_game, golden outcomes, determinism, bounds; Cluedo's rules."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reelforge.engine.check import check_game
from reelforge.engine.lines import evaluate_line
from reelforge.engine.outcome import Bet
from reelforge.engine.rng import live_generator
from reelforge.engine.round import play_live, play_round, replay
from reelforge.errors import InvalidBet
from reelforge.games import make, shipped_games

GOLDEN = Path(__file__).parent / "golden"
GAME_IDS = sorted(shipped_games())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_check_game(game_id):
    check_game(make(game_id), rounds=500)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_golden_outcomes_replay_exactly(game_id):
    cases = json.loads((GOLDEN / f"{game_id}.json").read_text())
    assert cases, "no golden outcomes: run tools/make_golden.py"
    game = make(game_id)
    for stored in cases:
        assert json.loads(replay(game, stored).to_json()) == stored


@pytest.mark.parametrize("game_id", GAME_IDS)
@given(seed=st.integers(0, 2**256 - 1))
@settings(max_examples=40, deadline=None)
def test_same_seed_same_round_and_win_within_bounds(game_id, seed):
    game = make(game_id)
    bet = game.max_bet
    first = play_round(game, bet, live_generator(seed), seed)
    assert play_round(game, bet, live_generator(seed), seed) == first
    assert 0 <= first.total_win <= game.max_round_win(bet)


def test_live_round_keeps_its_seed_and_replays():
    game = make("cluedo-v1")
    outcome = play_live(game, game.bet(10, 3))
    assert len(outcome.seed) == 64
    assert replay(game, json.loads(outcome.to_json())) == outcome


@pytest.mark.parametrize("lines,bpl", [(0, 1), (21, 1), (1, 0), (1, 6), (True, 1), (1.5, 1)])
def test_invalid_bets_are_refused_naming_the_value(lines, bpl):
    game = make("cluedo-v1")
    with pytest.raises(InvalidBet, match=repr(lines if not 1 <= lines <= 20 or lines is True or isinstance(lines, float) else bpl)):
        play_round(game, Bet(lines, bpl), live_generator(1))


# -- Cluedo's rules, on hand-set windows ---------------------------------------------------
CLUEDO = make("cluedo-v1")
SYMS = {s: i for i, s in enumerate(CLUEDO.spec.symbol_ids)}


def window(*reels):
    """Each reel as (top, centre, bottom) symbol ids."""
    return np.array([[SYMS[s] for s in reel] for reel in reels], dtype=np.int16)


def centre(*symbols, other="ROPE"):
    return window(*[(other, s, other) for s in symbols])


def best(win, line=0, multiplier=1, eligible=False):
    value, sym, count, mult, jackpot = evaluate_line(CLUEDO.model, win, line, multiplier, eligible)
    name = CLUEDO.spec.symbol_ids[sym] if sym >= 0 else None
    return int(value), name, int(count), int(mult), bool(jackpot)


def test_megajackpots_doubles_a_line_it_completes():
    assert best(centre("SCARLET", "MJ", "SCARLET", "DAGGER", "ROPE")) == (80, "SCARLET", 3, 2, False)
    assert best(centre("SCARLET", "SCARLET", "SCARLET", "DAGGER", "ROPE")) == (40, "SCARLET", 3, 1, False)


def test_a_line_of_only_megajackpots_is_not_doubled():
    assert best(centre("MJ", "MJ", "MJ", "DAGGER", "PLUM")) == (250, "MJ", 3, 1, False)


def test_the_highest_of_pure_wild_and_substituted_run_is_paid():
    # MJ MJ + SCARLET x3 doubled (2 x 200 = 400 for 4) beats MJ x2 (10)
    assert best(centre("MJ", "MJ", "SCARLET", "SCARLET", "ROPE")) == (400, "SCARLET", 4, 2, False)
    # MJ x4 (2500) beats WRENCH x5 doubled (2 x 100)
    assert best(centre("MJ", "MJ", "MJ", "MJ", "WRENCH")) == (2500, "MJ", 4, 1, False)


def test_megajackpots_does_not_substitute_for_mystery_bonus():
    assert best(centre("MJ", "BONUS", "BONUS", "ROPE", "ROPE")) == (0, None, 0, 1, False)


def test_five_megajackpots_on_the_centre_line_at_max_bet_is_the_jackpot():
    five = centre("MJ", "MJ", "MJ", "MJ", "MJ")
    assert best(five, line=0, eligible=True) == (0, "MJ", 5, 1, True)
    # below max bet: the paytable's top award
    assert best(five, line=0, eligible=False) == (10000, "MJ", 5, 1, False)


def test_five_megajackpots_off_the_centre_line_pays_the_top_award():
    top_row = window(*[("MJ", "ROPE", "DAGGER")] * 5)
    assert best(top_row, line=1, eligible=True) == (10000, "MJ", 5, 1, False)


def test_free_games_triple_everything_but_the_five_megajackpots_award():
    assert best(centre("PLUM", "PLUM", "PLUM", "ROPE", "ROPE"), multiplier=3) == (75, "PLUM", 3, 3, False)
    assert best(centre("PLUM", "MJ", "PLUM", "ROPE", "ROPE"), multiplier=3) == (150, "PLUM", 3, 6, False)
    five = centre("MJ", "MJ", "MJ", "MJ", "MJ")
    assert best(five, line=1 - 1, multiplier=3) == (10000, "MJ", 5, 1, False)


def test_jackpot_eligibility_needs_max_bet_and_reaches_free_spins():
    from reelforge.engine.round import jackpot_eligible

    assert jackpot_eligible(CLUEDO, CLUEDO.max_bet)
    assert not jackpot_eligible(CLUEDO, Bet(20, 4))
    assert not jackpot_eligible(CLUEDO, Bet(19, 5))


def cluedo_with_reels(base: str, golden: str):
    """Cluedo's rules with every stop of every base / golden reel set to one symbol."""
    from reelforge.engine.game import LineGame
    from reelforge.spec import parse_spec

    head = CLUEDO.spec.source
    text = Path(head).read_text().split("# --- reels")[0]
    text += f'[reels.base]\nstrips = {[base] * 5!r}\n[reels.golden]\nstrips = {[golden] * 5!r}\n'
    return LineGame.from_spec(parse_spec(text.replace("'", '"'), "cluedo-forced"))


def test_free_spins_keep_jackpot_eligibility_and_never_triple_five_megajackpots():
    game = cluedo_with_reels("BONUS ROPE DAGGER", "MJ MJ MJ")
    max_bet = play_round(game, game.max_bet, live_generator(3))
    # base: Mystery Bonus on 5 reels pays 100 x total bet and awards 15 spins; each free spin
    # shows MJ x5 on every line: line 1 is the jackpot, lines 2-20 the untripled top award
    assert max_bet.breakdown["base_scatter"] == 100 * 100
    assert max_bet.counters.free_spins_played == 15
    assert len(max_bet.jackpots) == 15 and {j.line for j in max_bet.jackpots} == {1}
    assert max_bet.breakdown["free_games"] == 15 * 19 * 10000 * 5
    lower = play_round(game, Bet(20, 4), live_generator(3))
    assert not lower.jackpots
    assert lower.breakdown["free_games"] == 15 * 20 * 10000 * 4


def test_retriggers_stop_at_180_free_spins_in_total():
    game = cluedo_with_reels("BONUS ROPE DAGGER", "BONUS ROPE DAGGER")
    outcome = play_round(game, game.max_bet, live_generator(5))
    assert outcome.counters.free_spins_played == 180
    assert outcome.awards[-1].total_awarded == 180
    granted = [a.spins_awarded for a in outcome.awards]
    assert sum(granted) == 180 and granted[0] == 15
    assert all(a.spins_requested == 15 for a in outcome.awards)
    assert "free_spins_capped" in outcome.flags
    # every free spin pays the tripled 5-reel scatter: 3 x 100 x total bet
    free = [s for s in outcome.spins if s.kind == "free"]
    assert all(s.scatter_wins[0].win == 3 * 100 * 100 for s in free)
    assert outcome.breakdown["free_games"] == sum(s.win for s in free)


def test_rounds_below_the_cap_are_not_flagged_capped():
    game = cluedo_with_reels("BONUS ROPE DAGGER", "MJ MJ MJ")
    assert "free_spins_capped" not in play_round(game, game.max_bet, live_generator(3)).flags
