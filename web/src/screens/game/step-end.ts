// What the console says as a step ends the round, so that a lost gamble is not a panel that
// vanished, and a Spin Chance the player declined is not called lost (its credit stays put).
import { formatCredits } from "../../core/money";
import type { StepChoice } from "../../net/types";

const declined = (choice: StepChoice) => choice === "decline" || (Array.isArray(choice) && choice[0] === "decline");

/** `paid`: the round's win in credits, `paidMoney` the same in the session's currency; `broke`:
 * the balance no longer pays the smallest bet, when the out-of-funds notice is the news and
 * the step's end is said in two words. */
export function stepEndNotice(kind: string, choice: StepChoice, paid: number, paidMoney: string, broke: boolean): string {
  if (paid > 0) return `The round paid ${formatCredits(paid)} credits (${paidMoney}).`;
  if (kind === "spin_chance" && declined(choice)) return broke ? "Spin Chance declined." : "Spin Chance declined: your credit stays in the balance.";
  const lost = kind === "spin_chance" ? "Spin Chance lost" : kind === "gamble" || kind.includes("wheel") ? "The gamble is lost" : "Nothing won";
  return broke ? `${lost}.` : `${lost}: the round pays nothing.`;
}
