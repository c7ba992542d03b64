"""Non-adaptivity (standards A7): a round's outcome does not depend on the player's balance,
stake history, previous result, session, or the time between bets.

By construction: `Game.play(bet, rng, seed)` is the whole input of a round (the server calls
`game.play(bet, live_generator(seed), seed)` with a fresh `new_live_seed()`,
server/services/rounds.py); no balance, history or clock reaches it. By test: real rounds
are played through that same call path while a simulated player's session varies each
condition, the rounds are grouped by the condition, and a chi-square homogeneity test asks
whether the groups' outcome histograms differ:

- balance: a session wallet debited and credited round by round; rounds grouped by the
  balance before the bet (low, middle, high thirds of the range it starts in);
- stake history: each measured round at the maximum bet follows a round at a random stake
  (lowest, middle, maximum): grouped by that previous stake;
- previous result: grouped by whether the round before it won;
- session: rounds of four separate sessions;
- time between bets: rounds played at once, after 0.5 ms or after 3 ms.

Two histograms per condition: the win class (no win, up to 1x, 1-5x, 5-20x, over 20x the
cost, and whether a feature ran) and the first reel's stop (line games) or the top-left
symbol (cluster games). The offers after a round, which do read the balance, are checked
apart: for a fixed outcome, every gamble offer is the same whatever the balance, Spin Chance
appears exactly when 0 < balance < price, and every payback is exactly 1.
"""

from __future__ import annotations

import inspect
import time
from fractions import Fraction

import numpy as np
from scipy import stats

from reelforge.engine.rng import live_generator, new_live_seed

WIN_CLASSES = ("no win", "<= 1x", "1-5x", "5-20x", "> 20x", "feature")
STOP_BINS = 8
DELAYS = (0.0, 0.0005, 0.003)


def play(game, bet):
    """One round, as the server plays it."""
    seed = new_live_seed()
    return game.play(bet, live_generator(seed), seed)


def win_class(game, outcome) -> int:
    d = outcome.to_dict()
    if any(d["counters"].values()) or len(d["spins"]) > 1:
        return 5
    x = Fraction(outcome.total_win, game.price(game.max_bet))  # every classified round: max bet
    return 0 if x == 0 else 1 if x <= 1 else 2 if x <= 5 else 3 if x <= 20 else 4


def first_stop(game, outcome) -> int:
    spin = outcome.to_dict()["spins"][0]
    if spin["stops"]:
        n = int(game.model.strip_len[game.model.base_set, 0])
        return min(STOP_BINS - 1, spin["stops"][0] * STOP_BINS // n)
    grid = next(e for e in spin["events"] if e["type"] in ("grid", "window"))["symbols"]
    return game.spec.symbol_ids.index(grid[0][0]) % STOP_BINS


def homogeneity(table: np.ndarray) -> tuple[float, int, float]:
    """Chi-square homogeneity of a groups x classes count table; classes expected fewer
    than 5 times in some group are pooled into the next."""
    cols: list[np.ndarray] = []
    acc = np.zeros(table.shape[0])
    share = table.sum(axis=1, keepdims=True) / table.sum()
    for j in range(table.shape[1]):
        acc = acc + table[:, j]
        if (share[:, 0] * acc.sum()).min() >= 5:
            cols.append(acc)
            acc = np.zeros(table.shape[0])
    if acc.sum() and cols:
        cols[-1] = cols[-1] + acc
    if len(cols) < 2:
        return 0.0, 0, 1.0
    chi2, p, dof, _ = stats.chi2_contingency(np.array(cols).T, correction=False)
    return float(chi2), int(dof), float(p)


def _conditions(game, rounds: int) -> dict[str, list[tuple[int, object]]]:
    """condition -> [(group, outcome)], each round played live."""
    top = game.max_bet
    stakes = [o.bet for o in game.bets() if o.bet.mode == "base"]
    picks = (stakes[0], stakes[len(stakes) // 2], stakes[-1])
    found: dict[str, list[tuple[int, object]]] = {}
    price = game.price(top)
    low, high = 30 * price, 300 * price
    balance, rows = high, []
    for _ in range(3 * rounds):
        group = 0 if balance < low + (high - low) / 3 else 1 if balance < low + 2 * (high - low) / 3 else 2
        o = play(game, top)
        rows.append((group, o))
        balance += o.total_win - price
        if not low <= balance <= high:
            balance = high if balance < low else low  # a new session's wallet
    found["balance"] = rows
    rows, prev = [], []
    for _ in range(3 * rounds):
        which = int(np.random.default_rng().integers(3))
        before = play(game, picks[which])
        o = play(game, top)
        rows.append((which, o))
        prev.append((int(before.total_win > 0), o))
    found["stake history"] = rows
    found["previous result"] = prev
    found["session"] = [(s, play(game, top)) for s in range(4) for _ in range(rounds)]
    rows = []
    for _ in range(rounds):
        for g, delay in enumerate(DELAYS):
            if delay:
                time.sleep(delay)
            rows.append((g, play(game, top)))
    found["time between bets"] = rows
    return found


def game_conditions(game, rounds: int) -> list[dict]:
    """Every condition's two homogeneity tests for one game."""
    results = []
    for condition, rows in _conditions(game, rounds).items():
        groups = max(g for g, _ in rows) + 1
        for name, classify, width in (("win class", win_class, len(WIN_CLASSES)),
                                      ("first reel stop", first_stop, STOP_BINS)):
            table = np.zeros((groups, width))
            for g, o in rows:
                table[g, classify(game, o)] += 1
            chi2, dof, p = homogeneity(table)
            results.append({"game_id": game.id, "condition": condition, "histogram": name,
                            "rounds": len(rows), "groups": groups, "statistic": chi2,
                            "dof": dof, "p_value": p})
    return results


def offers_by_balance(game, tries: int = 400) -> dict:
    """For winning and losing rounds, the offers at several balances: gamble offers equal
    whatever the balance; Spin Chance exactly when 0 < balance < price; paybacks all 1."""
    bet = game.max_bet
    price = game.price(bet)
    balances = (None, 0, 1, price - 1, price, 10 * price)
    checked, problems = 0, []
    for _ in range(tries):
        o = play(game, bet)
        seen = {b: game.offers(o, balance=b) for b in balances}
        gambles = {b: [x.to_dict() for x in offers if x.kind != "spin_chance"]
                   for b, offers in seen.items()}
        if any(g != gambles[None] for g in gambles.values()):
            problems.append(f"gamble offers change with the balance: {gambles}")
        for b, offers in seen.items():
            chance = [x for x in offers if x.kind == "spin_chance"]
            expect = b is not None and 0 < b < price and not gambles[None]
            if bool(chance) != bool(expect and any(s.kind == "spin_chance"
                                                   for s in game.choice_steps)):
                problems.append(f"Spin Chance at balance {b}: offered={bool(chance)}")
            problems += [f"payback {x.payback} of {x.kind}" for x in offers if x.payback != 1]
        checked += 1
    return {"game_id": game.id, "rounds": checked, "balances": [str(b) for b in balances],
            "problems": problems[:10], "passed": not problems}


def play_inputs(game) -> list[str]:
    """The parameters of `game.play`: what a round may depend on."""
    return list(inspect.signature(game.play).parameters)


def run(game_ids, rounds: int = 1000, confidence: float = 0.99) -> dict:
    """Every game's conditions, Bonferroni over all of them at `confidence`."""
    from reelforge.games import make

    tests, offers, inputs = [], [], {}
    for game_id in game_ids:
        game = make(game_id)
        tests += game_conditions(game, rounds)
        offers.append(offers_by_balance(game, max(50, rounds // 10)))
        inputs[game_id] = play_inputs(game)
    threshold = (1 - confidence) / max(1, len(tests))
    failed = [t for t in tests if t["p_value"] < threshold]
    return {"rounds_per_group": rounds, "tests": tests, "offers": offers, "play_inputs": inputs,
            "correction": "Bonferroni", "threshold": threshold,
            "smallest_p": min((t["p_value"] for t in tests), default=None),
            "verdict": "FAIL" if failed or not all(o["passed"] for o in offers) else "PASS",
            "failed": failed}
