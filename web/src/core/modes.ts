// A game's ways to play as the server describes them (`modes`: name, title, price in stakes,
// and for a buy mode the free spins it buys). The price arrives exact: an integer, or a string
// "5/4"; the cost of a round is never computed here, it is the server's `cost_minor` per mode
// at each bet (absent where that bet cannot play the mode: 5/4 of 10 credits is no whole cost).

export interface ModeView {
  name: string;
  title: string;
  price: number | string;
  buy_spins?: number;
}

/** 2 -> 2; "5/4" -> 1.25 (for display only: the cost itself comes from the server). */
export function priceNumber(price: number | string): number {
  if (typeof price === "number") return price;
  const [num, den] = price.split("/").map(Number);
  return (num as number) / (den ?? 1);
}

/** "1.25×", "36×": the price in stakes. */
export function priceWords(price: number | string): string {
  const x = priceNumber(price);
  return `${Number.isInteger(x) ? String(x) : String(Math.round(x * 1000) / 1000)}×`;
}

/** What the player reads for a mode: the base mode is "Base game". */
export function modeTitle(mode: ModeView): string {
  return mode.name === "base" && mode.title === "base" ? "Base game" : mode.title;
}

/** One short line naming the mode, its price in stakes and what a round costs at the chosen
 * bet, or that this bet cannot play it: "Ante bet · 1.25× · €2.50" (a phone's select shows
 * about 30 characters). */
export function modeLabel(mode: ModeView, costMinor: number | undefined, money: (minor: number) => string): string {
  const cost = costMinor === undefined ? "not at this bet" : money(costMinor);
  return `${modeTitle(mode)} · ${priceWords(mode.price)} · ${cost}`;
}

/** The question a buy asks before it plays. */
export function buyQuestion(mode: ModeView, costMinor: number, money: (minor: number) => string): string {
  return `Buy ${mode.buy_spins} free spins for ${money(costMinor)}? The round starts with the free spins; there is no base spin.`;
}

/** Under the bet, where a mode costs other than the stake: what the cost shown is, "Buy free
 * spins: 36× the €0.20 bet" ("" where the mode costs the stake). The playtest read "20 credits
 * (20 x 1)" over "€7.20" as two prices of one thing. */
export function costNote(mode: ModeView, stakeMinor: number, money: (minor: number) => string): string {
  return priceNumber(mode.price) === 1 ? "" : `${modeTitle(mode)}: ${priceWords(mode.price)} the ${money(stakeMinor)} bet`;
}
