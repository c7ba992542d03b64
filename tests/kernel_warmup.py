"""Compile (or load from numba's cache) the kernels of the shipped games in one directory:
`python tests/kernel_warmup.py cluedo`. Run by conftest.py before a whole-suite run, one
process per game directory, as many at a time as the run has workers; see its
`pytest_sessionstart`.

What a game server does at start (`engine.round.warmup`: the round and the bonus a gamble can
win), the simulation loop (`play_rounds`: Monte Carlo runs, the CLI's simulate), then the
game's exact analysis figures where it has them (its maximum win, its RTP), whose
kernels the analysis tests and every server's first lobby request use, and a cluster game's
stratified estimate of one spin per stratum (the estimate tests' kernels).
"""

from __future__ import annotations

import sys
import time


def warm(directory: str) -> None:
    from reelforge.analysis.montecarlo import play_rounds
    from reelforge.analysis.stratified import estimate
    from reelforge.engine.rng import chunk_generator
    from reelforge.engine.round import warmup
    from reelforge.errors import ReelforgeError
    from reelforge.games import make, shipped_games

    first = time.process_time()
    ids = [game_id for game_id, path in shipped_games().items() if path.parent.name == directory]
    for game_id in ids:
        started = time.process_time()
        game = make(game_id)
        warmup(game)
        # a directory's variants share their kernels: the figures once, for their kernels
        for figure in (game.max_win, game.rtp) if game_id == ids[0] else ():
            try:
                figure()
            except ReelforgeError:  # a game without that figure (no exact analysis)
                pass
        if game_id == ids[0]:  # the simulation loop, its own kernel (play_rounds, simulate)
            play_rounds(game, game.max_bet, chunk_generator(1, 0), 10)
        strata = getattr(game, "strata", None)
        if strata is not None and game_id == ids[0]:  # a cluster game's stratified estimate
            estimate(game_id, base_spins=1, workers=1,
                     feature_rounds=dict.fromkeys(strata.feature_classes(game), 1))
        print(f"{game_id}: {time.process_time() - started:.1f} s CPU", flush=True)
    print(f"{directory} {time.process_time() - first:.0f} s CPU")  # conftest shows this line


if __name__ == "__main__":
    for name in sys.argv[1:]:
        warm(name)
