"""Regenerates the golden outcomes of every shipped game: a math change, to be reviewed.

Seeds are fixed 256-bit live keys: the first few seeds plus the first seeds (by search) whose
round triggers free games, retriggers, and wins a jackpot-free top-line award, so the golden
file covers the tape's every event kind that a modest search can reach. Each outcome records
the SHA-256 of its game file's text, so any edit of a shipped game file (a comment too) means
regenerating: then check that only `game_sha256` changed unless the math did.
  python tools/make_golden.py [GAME_ID ...]
"""

import json
import sys
from pathlib import Path

from reelforge.engine.round import play_round
from reelforge.engine.rng import live_generator
from reelforge.games import make, shipped_games

OUT = Path(__file__).parents[1] / "tests" / "golden"


def interesting_seeds(game, bet):
    chosen = list(range(5))
    if game.family == "clusters":
        tests = {
            "free_spins": lambda o: o.free_spins_played,
            "super_spins": lambda o: o.super_spins_played,
            "jackpot": lambda o: "jackpot" in o.flags,
            "multiplier": lambda o: any(s["random_multiplier"] > 1 for s in o.spins),
        }
    else:
        tests = _line_tests()
    wanted = {name: None for name in tests}
    seed = 1000
    while seed < 20_000 and any(v is None for v in wanted.values()):
        o = play_round(game, bet, live_generator(seed), seed)
        for name, test in tests.items():
            if wanted[name] is None and test(o):
                wanted[name] = seed
        seed += 1
    return chosen + sorted({s for s in wanted.values() if s is not None})


def _line_tests():
    return {
        "free_games": lambda o: o.free_games_triggered,
        "retrigger": lambda o: o.retriggers,
        "scatter": lambda o: o.spins[0].scatter_wins,
        "bonus": lambda o: o.bonus is not None,
        "vic": lambda o: any(s.trail and s.trail.parade == "vic" for s in o.spins),
        "collect": lambda o: o.breakdown.base_collect,
    }


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    only = sys.argv[1:]  # game ids to regenerate (default: all)
    for game_id in shipped_games():
        if only and game_id not in only:
            continue
        game = make(game_id)
        cases = []
        low = game.spec.bet.min_lines
        bets = [game.max_bet, game.bet(max(low, 7), 2)] if game.family == "lines" else \
            [game.max_bet, game.bet(bet_per_line=3)]
        bets += [game.bet(low, 1, mode.name) for mode in game.spec.modes]
        for bet in bets:
            for seed in interesting_seeds(game, bet):
                cases.append(play_round(game, bet, live_generator(seed), seed).to_dict())
        (OUT / f"{game_id}.json").write_text(json.dumps(cases, indent=1, sort_keys=True) + "\n")
        print(game_id, len(cases), "outcomes")
