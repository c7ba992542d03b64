"""Cops n Robbers wheel gamble and Spin Chance: exact 100% payback for any policy, offering,
limits, part of the win, the Mega cap, the exact bonus draw, determinism."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from reelforge.engine.protocol import ChoiceState, Offer
from reelforge.engine.rng import live_generator
from reelforge.errors import InvalidAction
from reelforge.games import make
from reelforge.games.cops_n_robbers import choices as ch
from reelforge.games.cops_n_robbers import gamble as g
from reelforge.games.cops_n_robbers import spin_chance as sc

PRICES = {1: Fraction(70), 2: Fraction(127), 3: Fraction(185)}


def config(offer: str = "on", limit_stake_multiple: int = 2500, limit_minor: int = 25_000_000,
           targets=((4, 3), (2, 1), (3, 1)), prices=None) -> g.WheelConfig:
    return g.WheelConfig(offer, limit_stake_multiple, limit_minor, tuple(targets),
                         dict(PRICES if prices is None else prices))


class FakeDraws:
    """Stands in for rng.draw: returns the scripted values, recording each n asked for."""

    def __init__(self, values):
        self.values, self.asked = list(values), []

    def __call__(self, rng, n):
        self.asked.append(n)
        return self.values.pop(0)


# --- the game file and bonus prices ---------------------------------------------------------

def test_wheel_config_from_the_game():
    from reelforge.analysis.trail import bonus_values

    game = make("cops-n-robbers-v1")
    cfg = g.wheel_config(game, "5x")
    assert (cfg.offer, cfg.limit_stake_multiple, cfg.limit_minor) == ("5x", 2500, 25_000_000)
    assert cfg.cash_targets == ((4, 3), (2, 1), (3, 1))
    floats = bonus_values(game)
    assert sorted(cfg.bonus_values) == sorted(floats) == [1, 2, 3]
    for b, price in cfg.bonus_values.items():
        assert isinstance(price, Fraction) and g.PRICE_SCALE % price.denominator == 0
        assert abs(price - Fraction(floats[b])) <= Fraction(1, 2 * g.PRICE_SCALE)


@pytest.mark.parametrize("bad", [
    {"offer": "sometimes"}, {"limit_stake_multiple": 0}, {"limit_minor": -1},
    {"targets": ((1, 1),)}, {"targets": ((2, 0),)}, {"prices": {1: Fraction(5), 2: Fraction(3)}},
    {"prices": {1: 70.0}}, {"prices": {0: Fraction(5)}},
])
def test_config_rejects_bad_values(bad):
    with pytest.raises(ValueError):
        config(**bad)


# --- offering and limits ---------------------------------------------------------------------

def test_offer_modes():
    on, five, off = config("on"), config("5x"), config("off")
    assert not g.gamble_offered(on, 0, 10) and g.gamble_offered(on, 1, 10)
    assert not g.gamble_offered(five, 49, 10) and g.gamble_offered(five, 50, 10)
    assert not any(g.gamble_offered(off, w, 10) for w in (1, 50, 1000))
    with pytest.raises(InvalidAction, match="'off'"):
        g.start_gamble(off, 50, 10)
    with pytest.raises(InvalidAction, match="-3"):
        g.gamble_offered(on, -3, 10)
    with pytest.raises(InvalidAction, match="2.5"):
        g.gamble_offered(on, 2.5, 10)


def test_limit_is_the_lower_of_stake_multiple_and_currency():
    cfg = config()
    assert g.gamble_limit(cfg, 500) == 1_250_000  # 2500 x 500 below 25,000,000 minor
    assert g.gamble_limit(cfg, 500, denomination=100) == 250_000  # 250,000.00 at 1.00/credit
    assert g.gamble_limit(cfg, 10, denomination=5) == 25_000
    assert not g.gamble_offered(cfg, 25_000, 10) and g.gamble_offered(cfg, 24_999, 10)


def test_cash_target_is_capped_at_the_limit_and_then_collected():
    cfg = config(limit_stake_multiple=100)  # limit 1000 credits at stake 10
    state = g.choose_amount(g.start_gamble(cfg, 700, 10), 600)  # 100 banked
    assert g.cash_target(cfg, state, 1) == 900 and g.cash_chance(cfg, state, 1) == Fraction(2, 3)
    fake = FakeDraws([599])
    g.draw, saved = fake, g.draw
    try:
        won = g.spin_cash(cfg, state, 1, rng=None)
    finally:
        g.draw = saved
    assert fake.asked == [900]
    assert (won.amount, won.collected, won.finished) == (900, 100, True)
    assert g.payout(cfg, won) == 1000


def test_part_of_the_win_is_banked():
    cfg = config()
    state = g.choose_amount(g.start_gamble(cfg, 100, 10), 30)
    assert (state.amount, state.collected) == (30, 70)
    lost = g.resolve_cash(cfg, state, 0, False)
    assert lost.finished and g.payout(cfg, lost) == 70
    won = g.resolve_cash(cfg, state, 0, True)
    assert (won.amount, won.collected, won.finished) == (40, 70, False)
    for bad in (0, 30, 31, 2.0, True):
        with pytest.raises(InvalidAction, match=repr(bad)):
            g.choose_amount(state, bad)


def test_four_thirds_is_offered_on_every_amount_rounded_down():
    """Issue 12: 4/3 was withheld unless the amount was a multiple of 3. The target is the
    largest whole t with 3t <= 4 x amount, won with probability amount / t; only 1 and 2
    credits (t = amount) are left without it."""
    cfg = config()  # limit 25,000 at stake 10: no 4/3 target up to 2,999 reaches it
    withheld = []
    for amount in range(1, 3000):
        state = g.start_gamble(cfg, amount, 10)
        t = max(t for t in range(amount, 2 * amount + 1) if 3 * t <= 4 * amount)
        if t == amount:
            withheld.append(amount)
            assert g.cash_target(cfg, state, 0) is None and ("cash", 0) not in g.options(cfg, state)
            continue
        assert g.cash_target(cfg, state, 0) == t and ("cash", 0) in g.options(cfg, state)
        assert g.cash_chance(cfg, state, 0) == Fraction(amount, t)
        assert g.resolve_cash(cfg, state, 0, True).amount == t
    assert withheld == [1, 2]
    with pytest.raises(InvalidAction, match="cash target 0 not offered for amount 2"):
        g.spin_cash(cfg, g.start_gamble(cfg, 2, 10), 0, live_generator(1))


@pytest.mark.parametrize("amount,target", [(4, 5), (5, 6), (10, 13), (2998, 3997), (2999, 3998)])
def test_rounded_four_thirds_wins_on_exactly_amount_of_target_draws(amount, target, monkeypatch):
    cfg = config()
    state = g.start_gamble(cfg, amount, 10)
    outcomes = []
    for d in range(target):
        fake = FakeDraws([d])
        monkeypatch.setattr(g, "draw", fake)
        outcomes.append(g.spin_cash(cfg, state, 0, rng=None).amount)
        assert fake.asked == [target]
    assert outcomes == [target] * amount + [0] * (target - amount)


def test_four_thirds_near_the_limit_rounds_below_it_and_caps_past_it():
    cfg = config(limit_stake_multiple=100)  # limit 1000 credits at stake 10
    below = g.start_gamble(cfg, 749, 10)  # 4/3 x 749 = 998.67
    assert g.cash_target(cfg, below, 0) == 998 and g.cash_chance(cfg, below, 0) == Fraction(749, 998)
    assert not g.resolve_cash(cfg, below, 0, True).finished
    past = g.start_gamble(cfg, 751, 10)  # 4/3 x 751 = 1001.33
    assert g.cash_target(cfg, past, 0) == 1000 and g.cash_chance(cfg, past, 0) == Fraction(751, 1000)
    assert g.resolve_cash(cfg, past, 0, True).finished


@pytest.mark.parametrize("index,num,den", [(0, 4, 3), (1, 2, 1), (2, 3, 1)])
def test_cash_spin_wins_on_exactly_den_of_num_draws(index, num, den, monkeypatch):
    cfg = config()
    state = g.start_gamble(cfg, 30, 10)
    outcomes = []
    for d in range(num):
        fake = FakeDraws([d])
        monkeypatch.setattr(g, "draw", fake)
        outcomes.append(g.spin_cash(cfg, state, index, rng=None).amount)
        assert fake.asked == [num]
    assert outcomes == [30 * num // den] * den + [0] * (num - den)


# --- the odds the server shows: what the step plays with ------------------------------------

def open_step(cfg, state) -> tuple[ch.WheelGamble, ChoiceState]:
    offer = Offer("wheel_gamble", state.amount, state.stake, 1, {}, Fraction(1))
    return ch.WheelGamble(cfg), ChoiceState(offer, state, state.finished)


@pytest.mark.parametrize("win,banked", [(2, 0), (3, 0), (10, 0), (30, 0), (69, 0), (128, 0),
                                        (749, 0), (751, 0), (600, 300), (999, 0)])
def test_wheel_odds_are_what_the_step_pays_with(win, banked, monkeypatch):
    """Every spin the odds list, played through the step over every draw it can make: a cash
    spin is won on exactly chance x draws of them and then pays the listed target; a bonus spin
    draws `bernoulli` with the listed chance, which is amount / price. Nothing else is offered,
    and the step refuses what is not listed before drawing. (Limit 1000 credits at stake 10.)"""
    cfg = config(limit_stake_multiple=100)
    state = g.start_gamble(cfg, win + banked, 10)
    if banked:
        state = g.choose_amount(state, win)
    step, opened = open_step(cfg, state)
    odds = ch.wheel_odds(cfg, state)
    assert list(odds) == [c for c in g.options(cfg, state) if c[0] in ("cash", "bonus")]
    for (kind, arg), (target, chance) in odds.items():
        if kind == "cash":
            num, den = cfg.cash_targets[arg]
            assert target == min(state.amount * num // den, state.limit - state.collected)
            assert target > state.amount and chance == Fraction(state.amount, target)
            probe = FakeDraws([0])
            monkeypatch.setattr(g, "draw", probe)
            step.step(opened, [kind, arg], rng=None)
            (n,) = probe.asked
            paid = []
            for d in range(n):
                monkeypatch.setattr(g, "draw", FakeDraws([d]))
                paid.append(step.step(opened, [kind, arg], rng=None).state.amount)
            assert set(paid) <= {0, target}
            assert Fraction(paid.count(target), n) == chance
        else:
            price = PRICES[arg] * state.stake
            assert target == price and chance == state.amount / price
            for won in (True, False):
                asked: list[Fraction] = []
                monkeypatch.setattr(g, "bernoulli",
                                    lambda rng, p, w=won, seen=asked: seen.append(p) or w)
                after = step.step(opened, ["bonus", arg], rng=None).state
                assert asked == [chance] and after.finished
                assert after.bonus_won == (arg if won else None)
        # the step's own exact expectation of "spin, then collect": the listed chance of the
        # listed win (a bonus at its price), which is the amount at stake: a fair spin
        def spin_once(s, c=(kind, arg)):
            return c if s.state == state else ("collect",)
        expected = step.expected_payout(opened, spin_once)
        assert expected == state.collected + chance * target == state.collected + state.amount
    for kind, arg in [("cash", i) for i in range(3)] + [("bonus", b) for b in PRICES]:
        if (kind, arg) not in odds:
            monkeypatch.setattr(g, "draw", FakeDraws([]))  # any draw would fail
            with pytest.raises(InvalidAction, match="not offered"):
                step.step(opened, [kind, arg], rng=None)


def test_odds_at_each_arrow_amount_are_those_after_choosing_it():
    cfg = config(limit_stake_multiple=100)
    state = g.start_gamble(cfg, 95, 10)
    step, opened = open_step(cfg, state)
    assert ch.arrow_amounts(state) == [95, 85, 75, 65, 55, 45, 35, 25, 15, 5, 1]
    by_amount = step.odds(opened)
    assert list(by_amount) == ch.arrow_amounts(state)
    assert by_amount[95] == ch.wheel_odds(cfg, state)
    for amount, odds in by_amount.items():
        if amount < 95:
            after = step.step(opened, ["amount", amount], rng=None)
            assert odds == ch.wheel_odds(cfg, after.state)
    # 1 credit: no 4/3 (the target would be 1); Super and Mega are priced past the limit
    assert list(by_amount[1]) == [("cash", 1), ("cash", 2), ("bonus", 1)]
    assert ch.arrow_amounts(g.start_gamble(cfg, 2, 10)) == [2, 1]
    assert ch.arrow_amounts(g.start_gamble(cfg, 1, 10)) == [1]
    done = step.step(opened, ["collect"], rng=None)
    assert step.odds(done) == {} and ch.wheel_odds(cfg, done.state) == {}


# --- the bonus wheel and the Mega cap --------------------------------------------------------

def test_bonus_offered_only_below_its_price_and_won_bonus_ends():
    cfg = config()
    state = g.start_gamble(cfg, 800, 10)  # prices 700, 1270, 1850 credits
    assert state.reached == 1
    assert [b for b in (1, 2, 3) if g.bonus_offered(cfg, state, b)] == [2, 3]
    assert g.bonus_chance(cfg, state, 2) == Fraction(800, 1270)
    won = g.resolve_bonus(cfg, state, 3, True)
    assert (won.bonus_won, won.amount, won.finished) == (3, 0, True)
    assert g.payout(cfg, won) == 1850
    with pytest.raises(InvalidAction, match="bonus 1 not offered for amount 800"):
        g.spin_bonus(cfg, state, 1, live_generator(1))
    with pytest.raises(InvalidAction, match="bonus 7"):
        g.bonus_chance(cfg, state, 7)


def test_once_mega_is_reached_only_the_cash_wheel_is_offered():
    cfg = config()
    state = g.start_gamble(cfg, 1000, 10)
    state = g.resolve_cash(cfg, state, 1, True)  # 2000 >= Mega's 1850
    assert state.reached == 3 and not state.finished
    lowered = g.choose_amount(state, 100)
    assert not any(g.bonus_offered(cfg, lowered, b) for b in (1, 2, 3))
    assert [a for a in g.options(cfg, lowered) if a[0] == "bonus"] == []
    assert [a for a in g.options(cfg, lowered) if a[0] == "cash"] == [("cash", i) for i in range(3)]


def test_bonus_past_the_limit_is_not_offered():
    cfg = config(limit_stake_multiple=150)  # limit 1500 at stake 10; Mega is 1850
    state = g.start_gamble(cfg, 100, 10)
    assert [b for b in (1, 2, 3) if g.bonus_offered(cfg, state, b)] == [1, 2]


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(1, 3), Fraction(7, 25), Fraction(99, 100)])
def test_bernoulli_is_exact(p, n, monkeypatch):
    """Each of the n^k equally likely k-digit draw sequences decides a win, a loss or (needing
    more digits) nothing; wins carry mass in [p - n^-k, p], exactly p once p's base-n expansion
    ends within k digits."""
    k = 6
    wins = undecided = 0
    for digits in itertools.product(range(n), repeat=k):
        monkeypatch.setattr(g, "draw", FakeDraws(digits))
        try:
            wins += g.bernoulli(None, p, n)
        except IndexError:
            undecided += 1
    assert undecided <= 1
    assert p - Fraction(1, n**k) <= Fraction(wins, n**k) <= p
    if (p * n**k).denominator == 1:
        assert Fraction(wins, n**k) == p and undecided == 0


def test_bernoulli_decides_on_the_first_draw_unless_it_ties(monkeypatch):
    n = g.BONUS_DRAW
    assert n < 2**32 and n % 3 == 0  # 1/3 is a whole number of draws: n // 3 of them win
    for draws, p, won in (([0], Fraction(1, 3), True), ([n // 3 - 1], Fraction(1, 3), True),
                          ([n // 3], Fraction(1, 3), False), ([n - 1], Fraction(1, 7), False),
                          ([n // 7, 0], Fraction(1, 7), True)):
        fake = FakeDraws(draws)
        monkeypatch.setattr(g, "draw", fake)
        assert g.bernoulli(None, p) is won and fake.asked == [n] * len(draws)


# --- exact payback for any policy ------------------------------------------------------------

def collect_now(state):
    return ("collect",)


def double_up(state):
    return ("cash", 1)


def four_thirds_up(state):
    return ("cash", 0) if g.cash_target(config(), state, 0) is not None else ("collect",)


@pytest.mark.parametrize("policy", [collect_now, double_up, four_thirds_up])
@pytest.mark.parametrize("win", [1, 7, 9, 499, 1849, 24_998, 24_999])
def test_payback_simple_policies(policy, win):
    cfg = config()
    assert g.expected_payout(cfg, g.start_gamble(cfg, win, 10), policy) == win


def test_payback_of_four_thirds_up_to_the_limit_is_exact_for_every_amount():
    """Taking 4/3 until the limit passes through rounded targets almost every time."""
    cfg = config(limit_stake_multiple=300)  # limit 3,000 credits at stake 10
    for win in range(1, 3000):
        assert g.expected_payout(cfg, g.start_gamble(cfg, win, 10), four_thirds_up) == win


prices = st.lists(st.fractions(min_value=Fraction(1, 7), max_value=Fraction(400)), min_size=1,
                  max_size=3, unique=True).map(lambda v: dict(enumerate(sorted(v), start=1)))
targets = st.lists(st.integers(1, 5).flatmap(lambda den: st.tuples(st.integers(den + 1, 6),
                                                                   st.just(den))),
                   min_size=1, max_size=3)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data(), prices=prices, targets=targets, stake=st.integers(1, 50),
       limit_multiple=st.integers(2, 3000), denomination=st.sampled_from([1, 2, 100]),
       win=st.integers(1, 100_000))
def test_payback_is_exactly_the_win_for_any_policy(data, prices, targets, stake, limit_multiple,
                                                    denomination, win):
    """Policies drawn state by state from everything offered, choose_amount to any value; the
    events show every kind of action is exercised."""
    cfg = config(limit_stake_multiple=limit_multiple, limit_minor=2_000_000, targets=targets,
                 prices=prices)
    limit = g.gamble_limit(cfg, stake, denomination)
    win = 1 + win % (limit - 1) if limit > 1 else 0
    if not g.gamble_offered(cfg, win, stake, denomination):
        return
    chosen: dict = {}

    def policy(state):
        if state not in chosen:
            spins = g.options(cfg, state)[1:]  # all but collect, which ends 1 time in 5
            stop = not spins or data.draw(st.integers(0, 4)) == 0
            action = ("collect",) if stop else data.draw(st.sampled_from(spins))
            if action[0] == "amount":
                action = ("amount", data.draw(st.integers(1, state.amount - 1)))
            chosen[state] = action
            event(f"action {action[0]}")
            if action[0] == "cash":
                num, den = cfg.cash_targets[action[1]]
                target = g.cash_target(cfg, state, action[1])
                event("cash target " + ("capped" if target == state.limit - state.collected
                                        else "exact" if target * den == state.amount * num
                                        else "rounded down"))
        return chosen[state]

    state = g.start_gamble(cfg, win, stake, denomination)
    assert g.expected_payout(cfg, state, policy) == win


def test_policy_with_unknown_action_is_named():
    cfg = config()
    with pytest.raises(InvalidAction, match="'fold'"):
        g.expected_payout(cfg, g.start_gamble(cfg, 5, 10), lambda s: ("fold",))


# --- live play -------------------------------------------------------------------------------

def play(cfg, seed: int):
    rng = live_generator(seed)
    state = g.choose_amount(g.start_gamble(cfg, 400, 10), 300)
    trail = [state]
    while not state.finished:
        if g.bonus_offered(cfg, state, 2):
            state = g.spin_bonus(cfg, state, 2, rng)
        else:
            state = g.spin_cash(cfg, state, 0 if state.amount % 3 == 0 else 1, rng)
        trail.append(state)
    return trail


def test_same_seed_same_gamble():
    cfg = config()
    assert play(cfg, 12345) == play(cfg, 12345)
    endings = {play(cfg, seed)[-1] for seed in range(40)}
    assert len(endings) > 1


def test_actions_after_the_end_are_refused():
    cfg = config()
    done = g.collect(g.start_gamble(cfg, 40, 10))
    assert g.payout(cfg, done) == 40 and g.options(cfg, done) == []
    for act in (lambda: g.collect(done), lambda: g.choose_amount(done, 1),
                lambda: g.spin_cash(cfg, done, 1, live_generator(1)),
                lambda: g.spin_bonus(cfg, done, 1, live_generator(1))):
        with pytest.raises(InvalidAction, match="after the gamble finished"):
            act()
    with pytest.raises(InvalidAction, match="open gamble"):
        g.payout(cfg, g.start_gamble(cfg, 40, 10))


@pytest.mark.parametrize("amount,target", [(30, 40), (10, 13), (1000, 1333)])
def test_live_four_thirds_frequency_is_within_five_standard_errors(amount, target):
    """Exact (30 -> 40, 3/4) and rounded-down targets. With n seeded spins the win count is
    Binomial(n, amount / target); 5 standard deviations would fail a correct draw with
    probability below 6e-7 (normal tail; n p (1 - p) > 3,900 here)."""
    cfg = config()
    state = g.start_gamble(cfg, amount, 10)
    assert g.cash_target(cfg, state, 0) == target
    rng, n = live_generator(7), 20_000
    wins = sum(g.spin_cash(cfg, state, 0, rng).amount > 0 for _ in range(n))
    p = Fraction(amount, target)
    assert abs(wins - n * p) < 5 * float(n * p * (1 - p)) ** 0.5


# --- Spin Chance -----------------------------------------------------------------------------

@pytest.mark.parametrize("stake", range(2, 13))
def test_spin_chance_wins_on_exactly_credit_of_stake_draws(stake, monkeypatch):
    for credit in range(1, stake):
        results = []
        for d in range(stake):
            fake = FakeDraws([d])
            monkeypatch.setattr(sc, "draw", fake)
            results.append(sc.play_spin_chance(credit, stake, rng=None))
            assert fake.asked == [stake]
        won = sum(r.won for r in results)
        assert won == credit
        assert Fraction(won, stake) == sc.win_chance(credit, stake)
        # each draw has probability 1/stake; a won spin is worth one stake: payback is the credit
        assert Fraction(sum(r.spins_won * stake for r in results), stake) == credit
        assert sc.expected_value(credit, stake) == credit
        assert all(r.kept == 0 and r.played for r in results)


def test_spin_chance_offer_and_decline():
    assert sc.spin_chance_offered(1, 2) and not sc.spin_chance_offered(0, 2)
    assert not sc.spin_chance_offered(2, 2) and not sc.spin_chance_offered(3, 2)
    kept = sc.decline(7, 10)
    assert (kept.played, kept.won, kept.draw, kept.kept) == (False, False, None, 7)
    assert kept.spins_won == 0
    for credit, stake, named in ((0, 10, "credit 0 "), (10, 10, "credit 10 "),
                                 (11, 10, "credit 11 "), (1.5, 10, "credit 1.5"),
                                 (3, 10.0, "stake 10.0"), (True, 10, "credit True"),
                                 (1, 0, "stake 0")):
        with pytest.raises(InvalidAction, match=named):
            sc.play_spin_chance(credit, stake, live_generator(1))
    with pytest.raises(InvalidAction, match="draw 5 is not in"):
        sc.resolve_spin_chance(1, 5, 5)


def test_spin_chance_is_deterministic_by_seed():
    first = [sc.play_spin_chance(37, 100, live_generator(s)) for s in range(30)]
    again = [sc.play_spin_chance(37, 100, live_generator(s)) for s in range(30)]
    assert first == again and 0 < sum(r.won for r in first) < 30
