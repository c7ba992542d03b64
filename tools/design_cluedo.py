"""Builds the reel strips of Cluedo MegaJackpots from symbol counts; prints TOML reel sets.

The counts are the design; the order comes from a seeded shuffle repeated until the layout
rules hold: a Mystery Bonus at least 3 stops from the next one (so one per reel in view) and
MegaJackpots never adjacent to each other on the base reels. Rerun after changing counts:
  python tools/design_cluedo.py   (rewrites the reels of cluedo-v1.toml in place)
"""

import random
from pathlib import Path

SYMBOLS = ["MJ", "BONUS", "SCARLET", "MUSTARD", "PLUM", "PEACOCK", "GREEN",
           "CANDLESTICK", "DAGGER", "REVOLVER", "ROPE", "WRENCH"]

# counts per reel, in SYMBOLS order
BASE = [
    [1, 1, 3, 3, 4, 4, 4, 5, 5, 7, 7, 8],
    [1, 2, 3, 3, 4, 4, 4, 5, 5, 7, 7, 8],
    [2, 2, 3, 3, 4, 4, 4, 5, 5, 7, 7, 8],
    [2, 2, 3, 3, 4, 4, 4, 5, 5, 7, 7, 8],
    [2, 1, 3, 3, 4, 4, 4, 5, 5, 7, 7, 8],
]
# The golden reels of the free spins: every reel carries two MegaJackpots.
GOLDEN = [
    [2, 1, 3, 3, 4, 4, 4, 5, 5, 6, 7, 7],
    [2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 7, 7],
    [2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 7, 7],
    [2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 7, 7],
    [2, 1, 3, 3, 4, 4, 4, 5, 5, 6, 7, 7],
]


def spaced(strip, symbol, gap):
    at = [i for i, s in enumerate(strip) if s == symbol]
    n = len(strip)
    return all(min((b - a) % n, (a - b) % n) >= gap for a in at for b in at if a != b)


def build(counts, seed, mj_gap):
    rng = random.Random(seed)
    strip = [s for s, c in zip(SYMBOLS, counts) for _ in range(c)]
    while True:
        rng.shuffle(strip)
        if spaced(strip, "BONUS", 3) and spaced(strip, "MJ", mj_gap):
            return strip


def reel_set(name, table, seed, mj_gap):
    lines = [f"[reels.{name}]", "strips = ["]
    for r, counts in enumerate(table):
        lines.append(f'  "{" ".join(build(counts, seed * 10 + r, mj_gap))}",')
    lines.append("]")
    return "\n".join(lines)


MARKER = "# --- reels: written by tools/design_cluedo.py ---"
GAME_FILE = Path(__file__).parents[1] / "src/reelforge/games/cluedo/cluedo-v1.toml"

if __name__ == "__main__":
    head = GAME_FILE.read_text().split(MARKER)[0]
    reels = reel_set("base", BASE, 1, 2) + "\n\n" + reel_set("golden", GOLDEN, 2, 1)
    GAME_FILE.write_text(f"{head}{MARKER}\n{reels}\n")
