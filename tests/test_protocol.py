"""The `Game` protocol over every shipped game: bet structure, play and replay, the offers after
a round and their pure choice steps with exact payback, the README's example; the Cops bonus
prices carried in the game files; and no caller outside the family registry asking a family."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import reelforge.analysis  # noqa: F401 - registers the exact figures behind rtp() and max_win()
from reelforge.analysis.capabilities import exact_available
from reelforge.analysis.montecarlo import play_rounds
from reelforge.engine.outcome import Bet
from reelforge.engine.protocol import Analysable, BetOption, ChoiceState, Game, Offer
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.engine.round import bonus_starts, play_bonus
from reelforge.errors import InvalidAction, InvalidArgument, InvalidBet, InvalidOutcome
from reelforge.games import make, shipped_games
from reelforge.spec import parse_spec, read_game_text

ROOT = Path(__file__).resolve().parents[1]
IDS = sorted(shipped_games())
COPS = [i for i in IDS if i.startswith("cops-n-robbers")]
CLUEDO = "cluedo-v1"
CANDY = "candy-jar-clusters-v1"


def round_of(game, bet: Bet | None = None, seed: int = 7):
    """A real round at `bet` (default: the maximum bet), to craft outcomes from."""
    return game.play(bet or game.max_bet, live_generator(seed), seed)


def crafted(outcome, win: int, jackpot: bool = False):
    """`outcome` with another total win and, optionally, the jackpot flag."""
    flags = tuple(f for f in outcome.flags if f != "jackpot") + (("jackpot",) if jackpot else ())
    return outcome.model_copy(update={"total_win": win, "flags": flags})


# --- the protocol and the bet structure ----------------------------------------------------

@pytest.mark.parametrize("game_id", IDS)
def test_every_shipped_game_is_a_game(game_id):
    game = make(game_id)
    assert isinstance(game, Game) and isinstance(game, Analysable)
    assert (game.id, game.title) == (game_id, game.spec.name)
    assert game.modes[0].name == "base" and all(m.price >= 1 for m in game.modes)


@pytest.mark.parametrize("game_id", IDS)
def test_bets_list_every_valid_stake_with_its_cost(game_id):
    game = make(game_id)
    limits = game.spec.bet
    options = game.bets()
    # every lines x bet-per-line pair the bet structure allows, counted from the file's limits
    assert len(options) == (limits.max_lines - limits.min_lines + 1) * limits.max_bet_per_line
    assert len({o.bet for o in options}) == len(options)
    for option in options:
        assert isinstance(option, BetOption)
        assert game.check_bet(option.bet) == option.bet
        assert option.stake == option.bet.lines * option.bet.bet_per_line
        assert [m for m, _ in option.costs] == [m.name for m in game.modes]
        for mode in game.modes:
            played = Bet(option.bet.lines, option.bet.bet_per_line, mode.name)
            assert option.cost(mode.name) == game.price(played) == option.stake * mode.price
    stakes = [o.stake for o in options]
    assert game.min_bet.total == min(stakes) and game.max_bet.total == max(stakes)
    assert game.min_bet == Bet(limits.min_lines, 1)
    assert game.bet() == game.max_bet == Bet(limits.max_lines, limits.max_bet_per_line)
    for bad in (Bet(limits.max_lines, limits.max_bet_per_line + 1), Bet(limits.max_lines + 1, 1),
                Bet(limits.max_lines, 1, "no-such-mode")):
        with pytest.raises(InvalidBet):
            game.check_bet(bad)


@pytest.mark.parametrize("game_id", IDS)
def test_play_and_replay_agree_from_the_object_and_from_its_json(game_id):
    game = make(game_id)
    for mode in game.modes:
        outcome = round_of(game, game.bet(mode=mode.name), seed=11)
        assert outcome.game_id == game_id and outcome.bet.cost == game.price(game.bet(mode=mode.name))
        assert game.replay(outcome) == outcome
        assert game.replay(json.loads(outcome.to_json())) == outcome
    with pytest.raises(InvalidBet):
        game.play(Bet(game.max_bet.lines, game.max_bet.bet_per_line + 1), live_generator(1), 1)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", IDS)
def test_max_win_is_the_cap_or_a_bound_of_the_rules(game_id):
    game = make(game_id)
    top = game.max_win()
    assert top.bet == game.max_bet and top.x == Fraction(top.credits, game.max_bet.total)
    cap = game.round_cap(game.max_bet)
    if top.enforced == "cap":
        assert top.credits == cap > 0
    else:
        # the rules' exact maximum, or (hold and win: a full screen of top prizes cannot land
        # beside the ways' top win, so no exact maximum is known) the engine's bound; never a
        # round only the spin guard ends
        assert top.enforced in ("exact", "bound") and (cap == 0 or top.credits < cap)
    outcome = round_of(game)
    assert outcome.total_win <= top.credits


@pytest.mark.parametrize("game_id", IDS)
def test_rtp_figures_name_their_source(game_id):
    game = make(game_id)
    figures = game.rtp()
    assert figures, "every shipped game publishes an RTP: exact, or a stratified estimate"
    if exact_available(game):
        from reelforge.analysis.exact import analyze

        assert [f.mode for f in figures] == [m.name for m in game.modes]
        for f in figures:
            assert (f.source, f.ci95) == ("exact", None)
            assert f.value == analyze(game, game.bet(mode=f.mode)).rtp
    else:
        from reelforge.games import published_estimate

        (f,) = figures
        data = published_estimate(game_id)["figures"]
        assert (f.mode, f.source, f.value) == ("base", "estimate", data["rtp"])
        assert f.ci95 == pytest.approx((data["rtp_ci95"][1] - data["rtp_ci95"][0]) / 2)


# --- offers after a round -------------------------------------------------------------------

def test_cluedo_offers_the_card_gamble_below_its_limit_and_never_on_a_jackpot():
    game = make(CLUEDO)
    outcome = round_of(game)
    limit = game.spec.gamble.limit_credits
    assert limit == 3000  # the rule sheet's "award less than 3000 credits"
    for win in (1, 40, limit - 1):
        (offer,) = game.offers(crafted(outcome, win), balance=3)  # no Spin Chance in Cluedo
        assert (offer.kind, offer.amount, offer.stake, offer.payback) == ("gamble", win, 100, 1)
        assert offer.limits["limit_credits"] == limit and offer.limits["max_wins"] == 5
    for win in (0, limit, limit + 1, 10**6):
        assert game.offers(crafted(outcome, win)) == ()
    assert game.offers(crafted(outcome, 40, jackpot=True)) == ()
    # a dict comes from outside: replayed, and refused where it is not what its seed plays
    assert game.offers(json.loads(outcome.to_json())) == game.offers(outcome)
    with pytest.raises(InvalidOutcome, match="outcome total_win = 40: not what its seed plays"):
        game.offers(json.loads(crafted(outcome, 40).to_json()))


def test_offers_check_the_bet_of_an_outcome():
    game = make(CLUEDO)
    outcome = round_of(game)
    bad = outcome.model_copy(update={"bet": outcome.bet.model_copy(
        update={"lines": game.spec.bet.max_lines + 1})})
    with pytest.raises(InvalidBet, match="lines"):
        game.offers(bad)
    zero = outcome.model_copy(update={"bet": outcome.bet.model_copy(update={"denomination": 0})})
    with pytest.raises(InvalidBet, match="denomination = 0"):
        game.offers(zero)
    data = json.loads(outcome.to_json())
    data["bet"]["denomination"] = 0
    with pytest.raises(InvalidOutcome, match="bet.denomination = 0"):
        game.offers(data)


@pytest.mark.parametrize("game_id", COPS)
def test_cops_offers_the_wheel_gamble_per_the_operator_setting(game_id):
    base = make(game_id)
    outcome = round_of(base)
    stake = base.max_bet.total
    limit = min(2500 * stake, 25_000_000)  # "x2500 stake or £250,000.00, whichever is the lower"
    offered = {}
    for setting in ("on", "5x", "off"):
        game = base.configure(gamble_offer=setting)
        assert game.spec is base.spec and game.settings["gamble_offer"] == setting
        offered[setting] = [w for w in (1, 5 * stake - 1, 5 * stake, limit - 1, limit)
                            if any(o.kind == "wheel_gamble" for o in game.offers(crafted(outcome, w)))]
    assert offered == {"on": [1, 5 * stake - 1, 5 * stake, limit - 1],
                       "5x": [5 * stake, limit - 1], "off": []}
    assert base.settings == {} and base.offers(crafted(outcome, 1))  # default "on"
    (offer,) = base.offers(crafted(outcome, 700))
    assert (offer.amount, offer.stake, offer.payback, offer.limits["limit"]) == (700, stake, 1, limit)
    assert offer.limits["bonus_prices"] == {b: p * stake for b, p in
                                            enumerate(base.spec.wheel_gamble.bonus_prices, 1)}
    assert base.offers(crafted(outcome, 0)) == ()


def test_settings_are_checked():
    with pytest.raises(InvalidArgument, match="gamble_offer = 'sometimes'"):
        make(COPS[0]).configure(gamble_offer="sometimes")
    with pytest.raises(InvalidArgument, match="volume"):
        make(COPS[0]).configure(volume="11")
    with pytest.raises(InvalidArgument, match="not a setting of this game"):
        make(CLUEDO).configure(gamble_offer="5x")


@pytest.mark.parametrize("mode", ["base", "fortune"])
def test_spin_chance_is_offered_only_for_a_balance_between_zero_and_the_price(mode):
    game = make(COPS[0])
    bet = game.bet(mode=mode)
    outcome = round_of(game, bet)
    lost = crafted(outcome, 0)
    price = bet.total * {"base": 1, "fortune": 2}[mode]  # the file's [modes.fortune] price = 2
    for balance, offered in ((None, False), (0, False), (1, True), (price - 1, True),
                             (price, False), (price + 1, False)):
        found = [o for o in game.offers(lost, balance) if o.kind == "spin_chance"]
        assert bool(found) == offered, balance
        if found:
            assert (found[0].amount, found[0].stake, found[0].payback) == (balance, price, 1)
    # never both on the same credits: while the win may be gambled Spin Chance waits, and is
    # evaluated once the gamble is settled, on the balance then
    kinds = [o.kind for o in game.offers(crafted(outcome, 50), balance=1)]
    assert kinds == ["wheel_gamble"]
    settled = game.offers(crafted(outcome, 50), balance=1, gamble_settled=True)
    assert [(o.kind, o.amount) for o in settled] == [("spin_chance", 1)]
    off = game.configure(gamble_offer="off")
    assert [o.kind for o in off.offers(crafted(outcome, 50), balance=1)] == ["spin_chance"]
    with pytest.raises(InvalidAction):
        game.offers(lost, balance=-1)


@pytest.mark.parametrize("game_id", [i for i in IDS if i.startswith("candy")])
def test_candy_offers_nothing(game_id):
    game = make(game_id)
    outcome = round_of(game)
    for win in (0, 1, 500, 10**6):
        for balance in (None, 1, game.max_bet.total - 1):
            assert game.offers(crafted(outcome, win), balance) == ()


def test_spin_chance_is_offered_for_a_losing_round_below_the_price():
    game = make(COPS[0])
    outcome = crafted(round_of(game), 0)
    price = game.price(outcome.bet.to_bet())
    for balance in (1, price // 2, price - 1):
        (offer,) = game.offers(outcome, balance)
        assert (offer.kind, offer.amount, offer.stake) == ("spin_chance", balance, price)


def test_wheel_gamble_choices_need_their_exact_arity():
    game = make(COPS[0])
    (offer,) = game.offers(crafted(round_of(game), 700))
    state = game.start(offer)
    for bad in (("cash", 0, 5), ("amount",), ("collect", 1), (), [], ("nope", 1), 7, None,
                [["cash"], 0], ("bonus", 1, 2)):
        with pytest.raises(InvalidAction, match="wheel gamble choice"):
            game.step(state, bad, live_generator(1))
    for a, b in ((["cash", 0], ("cash", 0)), (["amount", 350], ("amount", 350)),
                 (["collect"], "collect"), (("collect",), "collect")):
        assert game.step(state, a, live_generator(3)) == game.step(state, b, live_generator(3))


def test_offer_limits_and_wheel_prices_are_read_only_and_json_ready():
    game = make(COPS[0])
    (offer,) = game.offers(crafted(round_of(game), 700))
    config = game.choice_steps[0].config
    for mapping in (offer.limits, offer.limits["bonus_prices"], config.bonus_values):
        with pytest.raises(TypeError):
            mapping[1] = Fraction(1)  # type: ignore[index]
    assert offer == copy.deepcopy(offer) and offer.limits == dict(offer.limits)
    data = offer.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["payback"] == "1/1" and data["kind"] == "wheel_gamble"
    first = config.bonus_values[1] * offer.stake
    assert data["limits"]["bonus_prices"]["1"] == f"{first.numerator}/{first.denominator}"
    assert data["limits"]["cash_targets"] == [list(t) for t in config.cash_targets]


def test_offers_refuse_another_games_outcome():
    with pytest.raises(InvalidAction, match="cluedo-v1"):
        make(COPS[0]).offers(round_of(make(CLUEDO)))


# --- choice steps: pure, with exact payback ---------------------------------------------------

def offers_of_every_kind() -> list[tuple[str, int, int]]:
    """(game id, win, balance) whose offers cover every kind at a few amounts."""
    return [(CLUEDO, 1, None), (CLUEDO, 77, None), (CLUEDO, 2999, None),
            (COPS[0], 1, 1), (COPS[0], 3, 499), (COPS[0], 700, 250), (COPS[0], 40_000, 7),
            (COPS[0], 1_249_999, None), (COPS[0], 0, 1), (COPS[0], 0, 250)]  # Spin Chance: lost


def all_offers():
    for game_id, win, balance in offers_of_every_kind():
        game = make(game_id)
        for offer in game.offers(crafted(round_of(game), win), balance):
            yield game, offer


def every_state(game, offer: Offer, depth: int = 3) -> list[ChoiceState]:
    """States reachable in a few steps, every choice tried on a fixed stream."""
    found, frontier = [], [game.start(offer)]
    for level in range(depth):
        found += frontier
        nxt = []
        for state in frontier:
            for choice in game.choices(state):
                nxt.append(game.step(state, concrete(choice, state), live_generator(level + 1)))
        frontier = nxt
    return found


def concrete(choice, state: ChoiceState):
    """A wheel gamble's ("amount", 1) stands for any lower amount: take half."""
    if isinstance(choice, tuple) and choice[0] == "amount":
        return ("amount", max(1, state.state.amount // 2))
    return choice


def test_the_offers_cover_every_kind():
    assert {o.kind for _, o in all_offers()} == {"gamble", "wheel_gamble", "spin_chance"}


def test_every_step_is_a_pure_function_of_state_choice_and_rng():
    for game, offer in all_offers():
        for state in every_state(game, offer):
            for choice in game.choices(state):
                choice = concrete(choice, state)
                before = copy.deepcopy(state)
                a, b = live_generator(99), live_generator(99)
                first, second = game.step(state, choice, a), game.step(state, choice, b)
                assert first == second and state == before, (offer.kind, choice)
                assert a.random() == b.random()  # both streams used up alike
                assert first is not state and first.offer == offer


def test_a_finished_choice_offers_nothing_more_and_refuses_a_step():
    for game, offer in all_offers():
        state = game.start(offer)
        while not state.finished:
            state = game.step(state, concrete(game.choices(state)[0], state), live_generator(5))
        assert game.choices(state) == ()
        with pytest.raises(InvalidAction):
            game.step(state, "collect", live_generator(5))


# --- nothing keeps a round's generator ----------------------------------------------------------

def references(rng) -> tuple[int, int]:
    """How many references a Generator and its bit generator have (the same few extra from this
    frame every time): a call that left one behind shows here."""
    bits = rng.bit_generator
    return sys.getrefcount(rng), sys.getrefcount(bits)


@pytest.mark.parametrize("game_id", IDS)
def test_rounds_bonus_and_simulation_keep_no_reference_to_the_generator(game_id):
    """Kernels run without numba's refcounting runtime, the only thing that gives back the
    reference numba takes when it unboxes a Generator argument (engine/rng.py): a round that
    passed its Generator to a kernel kept it alive for good, one per live round on a server."""
    game = make(game_id)
    bet = game.max_bet
    rng = live_generator(new_live_seed())
    game.play(bet, rng)  # compiled and loaded before counting
    before = references(rng)
    for _ in range(5):
        game.play(bet, rng)
        for start in bonus_starts(game):
            play_bonus(game, bet, start, rng)
    play_rounds(game, bet, rng, 5)
    assert references(rng) == before


def test_choice_steps_keep_no_reference_to_the_generator():
    for game, offer in all_offers():
        rng, start = live_generator(new_live_seed()), game.start(offer)
        choices = [concrete(choice, start) for choice in game.choices(start)]
        for choice in choices:  # compiled and loaded before counting
            game.step(start, choice, rng)
        before = references(rng)
        for _ in range(3):
            for choice in choices:  # each that draws (a guess, a wheel spin, a play) among them
                game.step(start, choice, rng)
        assert references(rng) == before, (game.id, offer.kind)


def policies(kind: str):
    """A few ways to play each kind: deterministic functions of the state."""
    if kind == "gamble":
        return [lambda s: "collect", lambda s: "red",
                lambda s: "half" if "half" in make(CLUEDO).choices(s) else "black"]
    if kind == "spin_chance":
        return [lambda s: "play", lambda s: "decline"]
    game = make(COPS[0])

    def bonus_or_cash(s):
        options = game.choices(s)
        bonus = [o for o in options if o[0] == "bonus"]
        return bonus[-1] if bonus else (("cash", 2) if ("cash", 2) in options else ("collect",))

    def half_then_four_thirds(s):
        if s.state.collected == 0 and s.state.amount > 1:
            return ("amount", s.state.amount // 2)
        return ("cash", 0) if ("cash", 0) in game.choices(s) else ("collect",)

    return [lambda s: ("collect",), bonus_or_cash, half_then_four_thirds]


def test_every_offer_pays_back_exactly_what_it_puts_at_stake():
    seen = set()
    for game, offer in all_offers():
        for policy in policies(offer.kind):
            value = game.expected_payout(game.start(offer), policy)
            assert isinstance(value, Fraction) and value == offer.amount * offer.payback
            seen.add(offer.kind)
    assert seen == {"gamble", "wheel_gamble", "spin_chance"}


def test_spin_chance_steps_pay_a_round_or_keep_the_credit():
    game = make(COPS[0])
    lost = crafted(round_of(game), 0)
    (offer,) = game.offers(lost, balance=123)
    kept = game.step(game.start(offer), "decline", live_generator(1))
    assert kept.finished and game.paid(kept) == 123
    wins = 0
    for seed in range(300):
        played = game.step(game.start(offer), "play", live_generator(seed))
        assert game.paid(played) in (0, offer.stake)
        wins += game.paid(played) == offer.stake
    # won with probability 123/500: 300 plays land within 5 SD of 73.8
    assert abs(wins - 300 * 123 / 500) < 5 * (300 * 123 / 500 * 377 / 500) ** 0.5
    with pytest.raises(InvalidAction):
        game.step(game.start(offer), "spin", live_generator(1))


def test_every_choice_settles_as_data():
    """`settle` says what a state moves, for the server to apply without knowing the kind:
    what a gamble pays (the banked half before it ends, then all of it, and its cards carried
    over), a won bonus wheel's bonus, and Spin Chance's wager and the round it funds; the
    credits always equal `paid` where no bonus is won (paid counts a bonus at its price)."""
    cluedo = make(CLUEDO)
    (offer,) = cluedo.offers(crafted(round_of(cluedo), 40))
    opened = cluedo.start(offer, carried={"history": ["red", "black"]})
    assert list(opened.state.history) == ["red", "black"]
    half = cluedo.step(opened, "half", live_generator(1))
    assert not half.finished and cluedo.settle(half).credits == 20 == cluedo.paid(half)
    done = cluedo.step(half, "collect", live_generator(1))
    settled = cluedo.settle(done)
    assert settled.credits == 40 == cluedo.paid(done) and not settled.debits
    assert settled.carry == {"history": list(done.state.history)}
    assert cluedo.start(offer, carried=settled.carry).state.history == done.state.history

    cops = make(COPS[0])
    (wheel,) = cops.offers(crafted(round_of(cops), 700))
    lowered = cops.step(cops.start(wheel), ("amount", 350), live_generator(1))
    assert cops.settle(lowered).credits == lowered.state.collected == cops.paid(lowered)
    collected = cops.step(lowered, ("collect",), live_generator(1))
    assert cops.settle(collected).credits == 700 and cops.settle(collected).bonus is None
    bonus = next(c for c in cops.choices(cops.start(wheel)) if c[0] == "bonus")
    for seed in range(200):  # the bonus wheel: won with the chance it states
        spun = cops.step(cops.start(wheel), bonus, live_generator(seed))
        if spun.state.bonus_won:
            won = cops.settle(spun)
            assert won.bonus == spun.state.bonus_won and won.credits == spun.state.collected
            break
    else:
        pytest.fail("200 bonus wheel spins, none won")

    (chance,) = cops.offers(crafted(round_of(cops), 0), balance=123)
    declined = cops.settle(cops.step(cops.start(chance), "decline", live_generator(1)))
    assert (declined.debits, declined.funded_round, declined.credits) == (0, False, 0)
    for seed in range(50):
        played = cops.step(cops.start(chance), "play", live_generator(seed))
        wager = cops.settle(played)
        assert wager.debits == 123 and wager.funded_round == played.state.won


def test_a_step_refuses_a_choice_not_offered_before_drawing():
    game = make(CLUEDO)
    (offer,) = game.offers(crafted(round_of(game), 1))
    state = game.start(offer)
    rng = live_generator(3)
    for bad in ("half", "green", ("cash", 0)):  # take half on 1 credit would bank 0
        with pytest.raises(InvalidAction):
            game.step(state, bad, rng)
    assert rng.random() == live_generator(3).random()  # nothing drawn
    with pytest.raises(InvalidAction, match="not offered by this game"):
        game.start(Offer("spin_chance", 1, 100, 1, {}, Fraction(1)))


# --- the README's Python example --------------------------------------------------------------

def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    (block,) = [b for b in blocks if "make(" in b]
    return block


@pytest.mark.slow
@pytest.mark.parametrize("game_id", IDS)
def test_the_readme_python_example_runs_for_every_game(game_id):
    code = readme_example()
    assert '"cluedo-v1"' in code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.replace('"cluedo-v1"', repr(game_id)), "README.md", "exec"), {})  # noqa: S102 - the README's example is the code under test
    assert make(game_id).title in out.getvalue()


# --- the Cops bonus prices the game files carry ----------------------------------------------

def analysed_prices(game) -> list[Fraction]:
    """The bonus prices recomputed: the trail's exact expected win by starting multiplier,
    rounded to 1e-9 stake."""
    from reelforge.analysis.trail import bonus_values

    values = bonus_values(game)
    assert sorted(values) == list(range(1, len(values) + 1))
    return [Fraction(round(Fraction(values[b]) * 10**9), 10**9) for b in sorted(values)]


@pytest.mark.parametrize("game_id", COPS)
def test_each_cops_file_carries_the_analysis_bonus_prices(game_id):
    from reelforge.games.cops_n_robbers.gamble import wheel_config

    game = make(game_id)
    carried = game.spec.wheel_gamble.bonus_prices
    assert all(isinstance(p, Fraction) for p in carried)
    assert list(carried) == analysed_prices(game), f"{game_id}: stale bonus_prices; recompute them"
    assert wheel_config(game, "on").bonus_values == dict(enumerate(carried, 1))


def test_a_changed_bonus_reel_set_makes_the_carried_prices_stale():
    from reelforge.engine.families import compile_game

    path = shipped_games()[COPS[0]]
    text = read_game_text(path)
    edited = text.replace('  "Q A PRESENT_GOLD J TEN', '  "ROBBER A PRESENT_GOLD J TEN', 1)
    assert edited != text
    game = compile_game(parse_spec(edited, "edited.toml"))
    assert list(game.spec.wheel_gamble.bonus_prices) != analysed_prices(game)


@pytest.mark.parametrize(("value", "says"), [
    ('["70/1", "60/1"]', "must rise"), ('["70.5"]', "numerator/denominator"),
    ('[70]', "numerator/denominator"), ('["0/1"]', "numerator/denominator"),
])
def test_bad_bonus_prices_are_refused_at_load(value, says):
    from reelforge.errors import SpecError

    text = read_game_text(shipped_games()[COPS[0]])
    line = next(ln for ln in text.splitlines() if ln.startswith("bonus_prices"))
    with pytest.raises(SpecError, match=f"features.wheel_gamble.bonus_prices.*{says}"):
        parse_spec(text.replace(line, f"bonus_prices = {value}"), "bad.toml")


def test_a_bonus_wheel_without_its_prices_is_refused_at_load():
    """Not at gamble time, where it would also hide Spin Chance behind the refusal."""
    from reelforge.errors import SpecError

    text = read_game_text(shipped_games()[COPS[0]])
    line = next(ln for ln in text.splitlines() if ln.startswith("bonus_prices"))
    with pytest.raises(SpecError, match="features.wheel_gamble.bonus_prices.*is required"):
        parse_spec(text.replace(line, ""), "no-prices.toml")


# --- nothing outside the family registry asks a game's family ---------------------------------

# engine/families.py maps a spec's family to its class. The spec layer (spec/ and each rules
# package's spec part, which the loader calls) reads a file's family to parse it, and checks
# that the rules it names are rules of that family, before any game exists.
REGISTRIES = re.compile(r"\Aengine/families\.py\Z|\Aspec/[^/]+\.py\Z|\Agames/[^/]+/spec\.py\Z")
FAMILY_TEST = re.compile(
    r"""\bfamily\b["')\]]*\s*(==|!=|\bin\b|\bis\b)"""  # family == ..., get("family") != ...
    r"""|(==|!=)\s*[\w.()"']*\bfamily\b"""  # ... == x.family
    r"""|getattr\([^)]*["']family["']""", re.IGNORECASE)


def family_questions(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if REGISTRIES.match(rel):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if FAMILY_TEST.search(code):
                found.append(f"{rel}:{n}: {line.strip()}")
    return found


def test_no_code_outside_the_registry_asks_a_games_family():
    found = family_questions(ROOT / "src" / "reelforge")
    assert not found, "ask the game (a protocol member), not its family:\n" + "\n".join(found)


def test_the_family_check_finds_what_it_must(tmp_path):
    samples = ['if game.family == "clusters":', 'x = getattr(game, "family", "lines")',
               'if "lines" != g.family:', 'if spec.get("family") == "clusters":',
               'ok = game.family in ("lines",)']
    (tmp_path / "m.py").write_text("\n".join(samples + ['family: str = "clusters"',
                                                        '# game.family == "x" in a comment',
                                                        'FAMILIES = {"lines": 1}']) + "\n")
    assert [f.split(": ", 1)[1] for f in family_questions(tmp_path)] == samples
