// The maximum win as every screen says it: the lobby's info card, the game's intro, the
// information pages (the server's `{"times": x}` part) and a capped round's MAX WIN. A new
// player read it three ways ("240,118.4x", "240,118×", "240,118.40 times"); now it is one:
// "240,118× the bet", the console's word for what a round costs.

/** The multiple as shown: rounded down, never promising more than the game pays (Cluedo's
 * exact 240,118.4 is "240,118×"): whole from 100 up, to a tenth below. */
export function maxWinTimes(x: number): string {
  const shown = x >= 100 ? Math.floor(x) : Math.floor(x * 10 + 1e-9) / 10;
  return `${shown.toLocaleString("en", { maximumFractionDigits: 1 })}×`;
}

/** "240,118× the bet": the maximum win wherever it is said. */
export function maxWinSaid(x: number): string {
  return `${maxWinTimes(x)} the bet`;
}

/** The exact multiple ("240,118.4×") where maxWinTimes rounded it down, else null: the
 * information page's detail beside the figure. */
export function maxWinExactly(x: number): string | null {
  const exact = `${x.toLocaleString("en", { maximumFractionDigits: 4 })}×`;
  return exact === maxWinTimes(x) ? null : exact;
}
