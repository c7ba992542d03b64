// The game's three signs (view.ts): the presents' cash, the Big Money trail, the gamble. On a
// desktop they stand in the room under the reels that the gamble's panel opens in, in full; on
// a phone in the same room, each its title and its short line.
// The words are the rule sheet's: the robber collects the values on the presents (Fortune
// Spins, the bonus), 3, 4 or 5 BONUS start the chase at 1x, 2x or 3x, the trail's multipliers,
// the cash wheel's third more, double or triple and the bonus wheel's Big Money bonuses.

export interface Sign {
  kind: "presents" | "trail" | "gamble" | "fortune";
  title: string;
  /** The desktop's lines; the first of the presents' gives way to what the reels hold now. */
  lines: string[];
  /** The phone's one line. */
  short: string;
}

/** What Fortune Spins' reels hold and what the player waits for, in the rule sheet's terms. */
export const FORTUNE_LINES = [
  "Only presents, robbers and BONUS land: the snowflakes are blanks",
  "Wait for a robber: he collects the cash on every present in view",
];

/** In place of the presents' sign while Fortune Spins are on (view.ts modeShown): their reels
 * hold only presents, robbers and BONUS (the seed: "All symbols will be removed from the reels
 * with exception to the presents, bonus symbols and the robber"); the rest of the reels is the
 * snowflake blank, which a new player read as reels left empty, waiting for nothing. */
export const FORTUNE_SIGN: Sign = { kind: "fortune", title: "FORTUNE SPINS", lines: FORTUNE_LINES, short: "Snowflakes are blanks: wait for a robber" };

/** The signs, with the trail's multipliers (`marks`: position -> multiplier). */
export function copsSigns(marks: readonly number[]): Sign[] {
  const lo = Math.min(...marks), hi = Math.max(...marks);
  return [
    { kind: "presents", title: "PRESENTS' CASH", lines: ["Each robber in view collects the cash values on the presents, in Fortune Spins and the bonus"], short: "Each robber collects the presents' cash" },
    { kind: "trail", title: "BIG MONEY TRAIL", lines: ["3, 4 or 5 BONUS start the chase at x1, x2 or x3", `Multipliers ${lo}x to ${hi}x on the way`], short: `3+ BONUS start the chase, up to ${hi}x` },
    { kind: "gamble", title: "GAMBLE ANY WIN", lines: ["Cash wheel: a third more, double or triple", "Bonus wheel: win a Big Money bonus"], short: "A third more, x2, x3 or a bonus" },
  ];
}
