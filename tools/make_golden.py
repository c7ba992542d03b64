"""Regenerates the golden outcomes of every shipped game: a math change, to be reviewed.

Seeds are fixed 256-bit live keys: the first few seeds plus, for each kind of round below
(`WANTED`: read from the outcome's flags and events, whatever the game), the first seed (by
search) that plays one, so the golden file covers the tape's every event kind that a modest
search can reach. Each outcome records the SHA-256 of its game file's text, so any edit of a
shipped game file (a comment too) means regenerating: then check that only `game_sha256`
changed unless the math did.
  python tools/make_golden.py [--out DIR] [GAME_ID ...]
"""

import argparse
import json
from pathlib import Path

from reelforge.engine.rng import live_generator
from reelforge.games import make, shipped_games

OUT = Path(__file__).parents[1] / "tests" / "golden"
FIRST_SEEDS = range(5)
SEARCH = range(1000, 20_000)

# The rounds searched for, as any game's outcome shows them; a kind the game cannot play is
# simply never found.
WANTED = {
    "free_spins": lambda o: "free_spins" in o.flags,
    "super_spins": lambda o: "super_spins" in o.flags,
    "jackpot": lambda o: "jackpot" in o.flags,
    "bonus": lambda o: "bonus" in o.flags,
    "retrigger": lambda o: len(o.awards) > 1,  # a free-spins award after the first
    "scatter": lambda o: bool(o.spins[0].scatter_wins),
    "collect": lambda o: o.spins[0].collection is not None,
    "vic": lambda o: any(e.result == "vic" for e in o.events_of("parade")),
    "multiplier": lambda o: any(e.value > 1 for e in o.events_of("random_multiplier")),
    "sticky_wild": lambda o: any(e.held for e in o.events_of("sticky_wild")),  # a held wild reel
}

# The bet between the maximum and the minimum: 7 lines (or the game's nearest) x 2 credits
# per line, unless a golden file first chose another per-line bet (kept, so that regenerating
# moves no golden outcome to another bet).
MIDDLE_BET_PER_LINE = {"candy-jar-clusters-v1": 3, "candy-jar-clusters-94-v1": 3}


def golden_bets(game):
    """The maximum bet, the middle bet, and the minimum bet in every mode but the base game."""
    low, high = game.min_bet, game.max_bet
    middle = game.bet(min(max(low.lines, 7), high.lines), MIDDLE_BET_PER_LINE.get(game.id, 2))
    return [high, middle] + [game.bet(low.lines, low.bet_per_line, m.name)
                             for m in game.modes if m.name != "base"]


def interesting_seeds(game, bet):
    found = {name: None for name in WANTED}
    for seed in SEARCH:
        if all(v is not None for v in found.values()):
            break
        o = game.play(bet, live_generator(seed), seed)
        for name, test in WANTED.items():
            if found[name] is None and test(o):
                found[name] = seed
    return list(FIRST_SEEDS) + sorted({s for s in found.values() if s is not None})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME_ID", help="default: every shipped game")
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder to write (default {OUT})")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game_id in shipped_games():
        if args.games and game_id not in args.games:
            continue
        game = make(game_id)
        cases = [game.play(bet, live_generator(seed), seed).to_dict()
                 for bet in golden_bets(game) for seed in interesting_seeds(game, bet)]
        (args.out / f"{game_id}.json").write_text(json.dumps(cases, indent=1) + "\n")
        print(game_id, len(cases), "outcomes")


if __name__ == "__main__":
    main()
