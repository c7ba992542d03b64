"""Regenerates the golden outcomes of every shipped game: a math change, to be reviewed.

Seeds are fixed 256-bit live keys: the first few seeds plus the first seeds (by search) whose
round triggers free games, retriggers, and wins a jackpot-free top-line award, so the golden
file covers the tape's every event kind that a modest search can reach.
  python tools/make_golden.py
"""

import json
from pathlib import Path

from reelforge.engine.round import play_round
from reelforge.engine.rng import live_generator
from reelforge.games import make, shipped_games

OUT = Path(__file__).parents[1] / "tests" / "golden"


def interesting_seeds(game, bet):
    chosen = list(range(5))
    wanted = {"free_games": None, "retrigger": None, "scatter": None}
    seed = 1000
    while any(v is None for v in wanted.values()) and seed < 200_000:
        o = play_round(game, bet, live_generator(seed), seed)
        if wanted["free_games"] is None and o.free_games_triggered:
            wanted["free_games"] = seed
        if wanted["retrigger"] is None and o.retriggers:
            wanted["retrigger"] = seed
        if wanted["scatter"] is None and o.spins[0].scatter_wins:
            wanted["scatter"] = seed
        seed += 1
    return chosen + [s for s in wanted.values() if s is not None]


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for game_id in shipped_games():
        game = make(game_id)
        cases = []
        for bet in (game.max_bet, game.bet(7, 2)):
            for seed in interesting_seeds(game, bet):
                cases.append(play_round(game, bet, live_generator(seed), seed).to_dict())
        (OUT / f"{game_id}.json").write_text(json.dumps(cases, indent=1, sort_keys=True) + "\n")
        print(game_id, len(cases), "outcomes")
