"""Builds the reels of Cops n Robbers Big Money Christmas from symbol counts and writes the
game file's reel sets (below its marker). Layout rules: at most one Bonus per reel in view
(3 stops apart); on the bonus reels robbers and cops are 2 stops apart, so a reel shows at
most two of them. Fine tuning to the published RTP uses integer stop weights on the blank
stops of the Fortune Spins reels and the ID parade's weights, solved here by bisection on the
exact RTP and written below the marker too.
  python tools/design_cops.py   (rewrites the reels of cops-n-robbers-v1.toml in place)
"""

import random
import sys
from pathlib import Path

GAME_FILE = Path(__file__).parents[1] / "src/reelforge/games/cops_n_robbers/cops-n-robbers-v1.toml"
MARKER = "# --- reels: written by tools/design_cops.py ---"

BASE_SYMBOLS = ["ROBBER", "BONUS", "PRESENT_RED", "PRESENT_GREEN", "PRESENT_GOLD", "MONEYBAG",
                "GOLDBAR", "DIAMOND", "A", "K", "Q", "J", "TEN"]
BASE = [[2, b, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 4] for b in (1, 1, 2, 1, 1)]
BONUS_SYMBOLS = ["ROBBER", "COP", "PRESENT_RED", "PRESENT_GREEN", "PRESENT_GOLD", "A", "K", "Q",
                 "J", "TEN"]
BONUS_REELS = [[1, 2, 1, 1, 1, 7, 7, 7, 7, 7]] * 5
FORTUNE_SYMBOLS = ["ROBBER", "BONUS", "PRESENT_RED", "PRESENT_GREEN", "PRESENT_GOLD", "BLANK"]
FORTUNE = [[1, 2, 1, 1, 1, 45]] * 5
TARGET_RTP = 0.92
PARADE_TOTAL = 1_000_000  # weights of Bert + Sid + Vic; Sid and Vic keep 3 : 2
STOP_WEIGHT = 100_000  # every Fortune Spins stop but the blanks


def spaced(strip, symbols, gap):
    at = [i for i, s in enumerate(strip) if s in symbols]
    n = len(strip)
    return all(min((b - a) % n, (a - b) % n) >= gap for a in at for b in at if a != b)


def build(symbols, counts, seed, rules):
    rng = random.Random(seed)
    strip = [s for s, c in zip(symbols, counts) for _ in range(c)]
    for _ in range(200_000):
        rng.shuffle(strip)
        if all(spaced(strip, group, gap) for group, gap in rules):
            return strip
    sys.exit(f"no layout found for {counts}")


def reel_set(name, symbols, table, seed, rules, blank_weight=None):
    out = [f"[reels.{name}]", "strips = ["]
    strips = [build(symbols, c, seed * 10 + r, rules) for r, c in enumerate(table)]
    out += [f'  "{" ".join(strip)}",' for strip in strips]
    out.append("]")
    if blank_weight is not None:
        out.append("weights = [")
        out += [f"  {[blank_weight if s == 'BLANK' else STOP_WEIGHT for s in strip]},"
                for strip in strips]
        out.append("]")
    return "\n".join(out)


def reels_text(bert, blank_weight):
    bonus_rule = ({"BONUS"}, 3)
    sid = (PARADE_TOTAL - bert) * 3 // 5
    return "\n\n".join([
        reel_set("base", BASE_SYMBOLS, BASE, 1, [bonus_rule]),
        reel_set("bonus", BONUS_SYMBOLS, BONUS_REELS, 2, [({"ROBBER", "COP"}, 2)]),
        reel_set("fortune", FORTUNE_SYMBOLS, FORTUNE, 3, [bonus_rule, ({"ROBBER"}, 3)],
                 blank_weight),
        f"[features.trail_bonus.parade]\nbert = {bert}\nsid = {sid}\nvic = {PARADE_TOTAL - bert - sid}",
    ])


def rtp(head, bert, blank_weight, mode):
    from reelforge.analysis.exact import analyze
    from reelforge.engine.game import LineGame
    from reelforge.spec import parse_spec

    game = LineGame.from_spec(parse_spec(f"{head}{MARKER}\n{reels_text(bert, blank_weight)}\n", "design"))
    return analyze(game, game.bet(10, 1, mode)).rtp


def solve(f, low, high, increasing):
    """The integer x in [low, high] whose f(x) is nearest TARGET_RTP (f monotonic)."""
    while high - low > 1:
        mid = (low + high) // 2
        if (f(mid) < TARGET_RTP) == increasing:
            low = mid
        else:
            high = mid
    return min((low, high), key=lambda x: abs(f(x) - TARGET_RTP))


if __name__ == "__main__":
    head = GAME_FILE.read_text().split(MARKER)[0]
    # Bert ends the bonus: more Bert, less bonus, lower RTP. The base game alone sets Bert.
    bert = solve(lambda b: rtp(head, b, STOP_WEIGHT, "base"), 1, PARADE_TOTAL - 1, False)
    # Heavier blanks on the Fortune Spins reels: fewer presents and robbers, lower RTP.
    blank = solve(lambda w: rtp(head, bert, w, "fortune"), 1, 100 * STOP_WEIGHT, False)
    GAME_FILE.write_text(f"{head}{MARKER}\n{reels_text(bert, blank)}\n")
    print(f"bert {bert}, blank weight {blank}: base {rtp(head, bert, blank, 'base'):.6%}, "
          f"fortune {rtp(head, bert, blank, 'fortune'):.6%}")
