"""Outcome fixtures for the browser client's unit tests (web/tests/fixtures/<game>.json).

Plays seeded rounds of each shipped game through `reelforge.games.make(...)` (the same round
code the server runs) and keeps, per game, the first rounds of each kind found: a loss, a
win, and each feature the game's flags name (free spins, bonus, super spins, jackpot, a
capped win), plus the game's description data the client draws from (`game_info`). The files
are committed; rerun after a math change:

    .venv/bin/python tools/export_web_fixtures.py [--rounds 20000] [KEY ...]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from reelforge.games import make
from reelforge.server.services.catalog import game_info

GAMES = {"cluedo": "cluedo-v1", "cops-n-robbers": "cops-n-robbers-v1",
         "candy-jar-clusters": "candy-jar-clusters-v1", "anywhere-example": "anywhere-example-v1",
         "holdwin-example": "holdwin-example-v1",
         "cluster-mult-example": "cluster-mult-example-v1"}
OUT = Path(__file__).resolve().parents[1] / "web" / "tests" / "fixtures"


def kinds_of(outcome: dict) -> list[str]:
    found = ["win" if outcome["total_win"] > 0 else "loss"]
    found += [f"flag:{flag}" for flag in outcome["flags"]]
    # a cluster win paid at a grid multiplier (grid_multipliers events' applied above 1)
    if any(e["type"] == "grid_multipliers" and max(e["applied"], default=1) > 1
           for s in outcome["spins"] for e in s["events"]):
        found.append("grid_multiplier")
    return found


def export(key: str, game_id: str, rounds: int) -> dict:
    game = make(game_id)
    bet = game.max_bet if game.family == "lines" else game.min_bet
    kept: dict[str, dict] = {}
    for seed in range(rounds):
        outcome = game.play(bet, np.random.default_rng(seed)).to_dict()
        for kind in kinds_of(outcome):
            if kind not in kept:
                kept[kind] = {"kind": kind, "seed": seed, "outcome": outcome}
    return {"key": key, "game_id": game_id, "family": game.family, "info": game_info(game),
            "note": "written by tools/export_web_fixtures.py: numpy default_rng(seed), "
                    "the game's max bet (lines) or min bet (clusters)",
            "rounds": [kept[k] for k in sorted(kept)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("keys", nargs="*", help="Only these games' fixtures (default: every one)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for key, game_id in GAMES.items():
        if args.keys and key not in args.keys:
            continue
        data = export(key, game_id, args.rounds)
        path = OUT / f"{key}.json"
        path.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
        print(f"{path}: {', '.join(r['kind'] for r in data['rounds'])}")


if __name__ == "__main__":
    main()
