"""Payback proofs of the choices after a round (gamble, wheel gamble, Spin Chance), exact.

For every choice step a game has (`Game.choice_steps`), offers are opened at the lowest and the
highest bet on a spread of wins (or balances, for Spin Chance), and each offer's exact expected
payout is computed by the step's own `expected_payout` (Fractions over every outcome of every
draw, engine/gamble.py, games/cops_n_robbers/gamble.py and spin_chance.py) under many
policies: for every choice the step ever lists, "take it whenever it is offered, else the
first choice", and three pseudo-random policies (a fixed seed per policy). A proof row holds
the expected payout over the amount at stake as a fraction; the claim is that it is exactly
the offer's published payback, 1, for every row (standards D1: a gamble returns 100%).
"""

from __future__ import annotations

import random
from fractions import Fraction

from reelforge.engine.protocol import RoundEnd

RANDOM_POLICIES = 3


def _head(choice) -> object:
    return choice if not isinstance(choice, (tuple, list)) else tuple(choice)


def _prefer(game, wanted):
    def policy(state):
        options = game.choices(state)
        return next((o for o in options if _head(o) == wanted), options[0])
    return policy


def _seeded(game, seed: int):
    draw = random.Random(seed)

    def policy(state):
        return draw.choice(list(game.choices(state)))
    return policy


def _choice_heads(game, state, depth: int = 3) -> list:
    """Every choice listed at the start of `state` (and what the gamble lists after it)."""
    return [_head(c) for c in game.choices(state)][: 12 + depth]


def _ends(game, step, bet) -> list[RoundEnd]:
    stake, price = bet.total, game.price(bet)
    denomination = bet.denomination or game.spec.bet.denominations[0]
    if step.kind == "spin_chance":
        return [RoundEnd(bet, stake, price, denomination, 0, False, credit)
                for credit in sorted({1, price // 2, price - 1} - {0})]
    limits = (3000, 2500 * stake)
    wins = sorted({1, 2, 3, 7, stake, 5 * stake, 20 * stake, *(x - 1 for x in limits)})
    return [RoundEnd(bet, stake, price, denomination, w, False, None) for w in wins if w > 0]


def prove(game) -> list[dict]:
    """Every proof row of `game`'s choice steps."""
    rows = []
    for step in game.choice_steps:
        for bet in (game.min_bet, game.max_bet):
            for end in _ends(game, step, bet):
                offer = step.offer(end)
                if offer is None:
                    continue
                state = game.start(offer)
                policies = [(f"prefer {h}", _prefer(game, h)) for h in _choice_heads(game, state)]
                policies += [(f"random #{i}", _seeded(game, i)) for i in range(RANDOM_POLICIES)]
                for name, policy in policies:
                    expected = Fraction(game.expected_payout(state, policy))
                    payback = expected / offer.amount
                    rows.append({"game_id": game.id, "kind": offer.kind,
                                 "bet": f"{bet.lines} x {bet.bet_per_line}", "stake": offer.stake,
                                 "amount": offer.amount, "policy": name,
                                 "expected_payout": str(expected), "payback": str(payback),
                                 "published": str(offer.payback),
                                 "exact": payback == offer.payback == 1})
    return rows


def summary(rows: list[dict]) -> dict:
    kinds = sorted({r["kind"] for r in rows})
    return {"rows": len(rows), "kinds": kinds, "all_exactly_1": all(r["exact"] for r in rows),
            "by_kind": {k: sum(r["kind"] == k for r in rows) for k in kinds}}
