"""The event tape: the kind of every row any round writes, numbered here and nowhere else.

A round that records writes one int64 row per event: `[kind, spin, a, b, c, d, e]`, then
(for some kinds) cells from column TAPE_WIDTH on. The kernels write `TapeKind` members (numba
freezes them as compile-time integers); the outcome builders (engine/round.py for line games,
engine/cluster_game.py and a rules module's `decode_row` for cluster games) turn the rows back
into events. Renumbering a kind needs a cleared numba cache: a cached kernel keeps the number
it was compiled with.
"""

from __future__ import annotations

from enum import IntEnum, unique

TAPE_WIDTH = 7  # the columns [kind, spin, a, b, c, d, e]; a row's cells follow


@unique
class TapeKind(IntEnum):
    """Row kinds; beside each, what columns a, b, c, d, e hold (spin: the spin's index, or
    for cluster spin rows the tumble)."""

    # the line round (engine/lines.py)
    SPIN = 1  # reel_set, multiplier; stops[0..R-1] from column TAPE_WIDTH
    LINE = 2  # line, symbol, count, multiplier, win
    SCATTER = 3  # symbol, count, multiplier, win
    AWARD = 4  # spins awarded, spins the rules asked for, total awarded so far, trigger count
    PROGRESSIVE_JACKPOT = 5  # line, symbol, count
    CASH = 6  # reel, row, value (multiples of the stake)
    COLLECT = 7  # collectors, value sum, multiplier, win
    WILD_MULTIPLIER = 15  # reel, row, the multiplier the wild there drew ([wild_multipliers])
    STICKY_WILD = 16  # reel, its multiplier, held (1: wild before this spin, 0: expanded now)
    # the ways round (engine/ways.py); its spin opens with a SPIN row
    WAYS = 14  # symbol, count (reels), ways, ways with wild multipliers, win (credits)
    # the pays-anywhere round (engine/anywhere.py); spin = the spin's index, or the tumble.
    # It also writes GRID (refilled, reel set), AWARD and SPIN_WIN (with d: the multiplier
    # after the spin) rows as above
    ANYWHERE_SPIN = 30  # kind (0 base, 1 free), reel set, global multiplier at its start
    ANYWHERE = 31  # symbol, count, coins of its count range, global multiplier, win (coins)
    # the hold-and-win round (engine/holdwin.py): its SPIN and WAYS rows, then these;
    # spin = the respin (0: the base window's prizes)
    HOLD_PRIZE = 40  # reel, row, value index, value (stakes)
    HOLD_RESPIN = 41  # prizes landed, respins left, prizes locked
    HOLD_END = 42  # prizes locked, their values and the grand prize (stakes), full screen
    #                (0/1), named jackpots among them, win (credits)
    # the "cops_trail" rules' chase (games/cops_n_robbers/kernel.py)
    TRAIL = 8  # robber position, cop position, robbers, cops
    PARADE = 9  # outcome (0 bert, 1 sid, 2 vic), robber position, cop position
    BONUS = 10  # trigger count, starting multiplier
    # the cluster spin (engine/clusters.py); spin = the tumble
    GRID = 11  # cells refilled by the tumble that led here (0 for the drawn grid), reel set;
    #            then the grid, row-major, from column TAPE_WIDTH
    CLUSTER = 12  # symbol, size (wilds included), wilds in it, win (multiples of the bet, wild
    #               multipliers applied, the random one not), wild multiplier (1: none)
    MULTIPLIER = 13  # the spin's random multiplier, drawn after its first win: value
    # the cluster round (engine/cluster_round.py)
    CLUSTER_SPIN = 20  # kind (0 base, 1 free, 2 super), reel set, wilds placed, golden sum
    SPIN_WIN = 25  # the spin's win (coins), the round's total so far, capped (0/1)
    # a standard cluster game's features (engine/cluster_features.py)
    CELL_MULTIPLIER = 26  # after a CLUSTER row: the grid multiplier it was paid at (1: none)
    MARKS = 27  # the cells' marks after a tumble's wins (0 none, 1 marked, else the
    #             multiplier), row-major from column TAPE_WIDTH
    SCATTER_AWARD = 28  # scatters on the final grid, spins awarded, spins the table asked
    #                     for, total awarded so far
    # the "candy_jar" rules (games/candy_jar_clusters/kernel.py)
    CANDIES = 21  # candies into the wild, free-spins and jackpots jars, triggered (0/1)
    TRIGGER = 22  # modifier mask (1 wild, 2 free spins, 4 jackpots), spins awarded, extra start
    EXTRA = 23  # EXTRA symbols collected, spins now awarded, toward the next super spin,
    #             super spins awarded now
    JACKPOT = 24  # jackpot index (0 MINI .. 4 GRAND), its pay (coins), multiplier, win
