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
