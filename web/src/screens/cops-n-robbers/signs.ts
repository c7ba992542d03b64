// The game's three signs (view.ts): the presents' cash, the Big Money trail, the gamble. They
// stand in the room under the reels that the gamble's offer opens in, at both sizes: each a
// street sign, its icon, its name and one short line in the display face (the reviewer: the
// play screen of a commercial slot shows no paragraphs). What each promises in full, in the
// rule sheet's words, is the sign's accessible name and tooltip, and the information page's.
// The words are the rule sheet's: the robber collects the values on the presents (Fortune
// Spins, the bonus), 3, 4 or 5 BONUS start the chase at 1x, 2x or 3x, the trail's multipliers,
// the cash wheel's third more, double or triple and the bonus wheel's Big Money bonuses.

export interface Sign {
  kind: "presents" | "trail" | "gamble" | "fortune";
  title: string;
  /** The one line shown under the name: a few words (a sign, not a paragraph). */
  short: string;
  /** What the sign promises in full (its accessible name and tooltip). */
  full: string;
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
export const FORTUNE_SIGN: Sign = { kind: "fortune", title: "FORTUNE SPINS", short: "SNOWFLAKES ARE BLANKS: WAIT FOR A ROBBER", full: FORTUNE_LINES.join(". ") };

/** The signs, with the trail's multipliers (`marks`: position -> multiplier). */
export function copsSigns(marks: readonly number[]): Sign[] {
  const lo = Math.min(...marks), hi = Math.max(...marks);
  return [
    { kind: "presents", title: "PRESENTS' CASH", short: "ROBBER COLLECTS THE PRESENTS", full: "Each robber in view collects the cash values on the presents (1x to 100x the stake), in Fortune Spins and the Big Money Bonus" },
    { kind: "trail", title: "BIG MONEY TRAIL", short: `3+ BONUS: A CHASE TO ${hi}x`, full: `3, 4 or 5 BONUS start the chase at x1, x2 or x3; multipliers ${lo}x to ${hi}x on the trail` },
    { kind: "gamble", title: "GAMBLE ANY WIN", short: "+1/3, x2, x3 OR A BONUS", full: "Cash wheel: a third more, double or triple. Bonus wheel: win a Big Money bonus" },
  ];
}
