// What the console says when a round leaves the balance under the smallest bet: that the
// player is out of funds, and what they can do about it (a demo player starts a new demo for a
// fresh play-money balance; a real-money player adds funds with their operator).

export interface FundsNotice { text: string; link?: { href: string; text: string } }

/** null while `balanceMinor` still pays `cheapestMinor` (the smallest bet's price); `money`
 * shows minor units in the session's currency; `operator` is the demo operator to start again. */
export function outOfFunds(balanceMinor: number, cheapestMinor: number, demo: boolean, operator: string, money: (minor: number) => string): FundsNotice | null {
  if (!Number.isFinite(cheapestMinor) || balanceMinor >= cheapestMinor) return null;
  const text = `Out of funds: ${money(balanceMinor)} left, the smallest bet is ${money(cheapestMinor)}.`;
  if (demo) return { text, link: { href: `/demo?operator=${encodeURIComponent(operator)}`, text: "Start a new demo for a fresh balance" } };
  return { text: `${text} Add funds with your operator to play on.` };
}

/** What the console's notice line says when the bet chosen costs more than the balance while a
 * smaller bet would be paid (PLAY and AUTO are greyed: a title is no reason on a phone), and the
 * bet one tap lowers it to: the largest the balance pays at the lines chosen, or at any lines
 * where none at these is. null while the bet is paid, has no price in `mode`, or no bet is paid
 * at all (the out-of-funds notice, or Spin Chance, says what to do then). */
export function betTooHigh<B extends { lines: number; cost_minor: Record<string, number> }>(
  bets: readonly B[], chosen: B, mode: string, balanceMinor: number, money: (minor: number) => string,
): { text: string; lower: B; button: string; label: string } | null {
  const cost = chosen.cost_minor[mode];
  if (cost === undefined || cost <= balanceMinor) return null;
  const paid = bets.filter((b) => (b.cost_minor[mode] ?? Infinity) <= balanceMinor);
  const same = paid.filter((b) => b.lines === chosen.lines);
  const pool = same.length ? same : paid;
  let lower: B | undefined;
  for (const b of pool) if (!lower || (b.cost_minor[mode] as number) > (lower.cost_minor[mode] as number)) lower = b;
  if (!lower) return null;
  const to = money(lower.cost_minor[mode] as number);
  return { text: `Bet ${money(cost)} is over your balance ${money(balanceMinor)}`, lower, button: `Bet ${to}`, label: `Lower the bet to ${to}` };
}
