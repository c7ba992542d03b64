// Which celebration a round's win earns, by its total win as a multiple of what the round cost
// (`outcome.total_win` / `outcome.bet.cost`, both in credits). A win at or below the cost is
// no celebration at all (GB RTS 7B forbids celebrating it; the rule holds everywhere here), and
// a modest win is shown by the win meter and the lit cells alone:
//
//   BIG WIN   >= 10x the cost      MEGA WIN  >= 30x      EPIC WIN  >= 100x
//
// The thresholds follow the usual studio ladder: a big win about once in a session of a few
// hundred spins, epic rare enough to stop the room.
import { formatCredits } from "./money";

export type WinTier = "big" | "mega" | "epic";

export const TIERS: readonly { tier: WinTier; x: number; title: string; ms: number }[] = [
  { tier: "epic", x: 100, title: "EPIC WIN", ms: 5200 },
  { tier: "mega", x: 30, title: "MEGA WIN", ms: 4200 },
  { tier: "big", x: 10, title: "BIG WIN", ms: 3200 },
];

/** The tier of a round's win, or null (no celebration). */
export function winTier(totalWin: number, cost: number): WinTier | null {
  if (!(cost > 0) || totalWin <= cost) return null;
  return TIERS.find((t) => totalWin >= t.x * cost)?.tier ?? null;
}

/** How many whole times the cost a win is, grouped as every figure on screen ("10,000x"). */
export function timesCost(totalWin: number, cost: number): string {
  return `${formatCredits(Math.floor(totalWin / cost))}x`;
}

/** The celebration's count: up to the round's total, or (`still`) the total whole from the
 * start where a capped round's MAX WIN plaque and the WIN meter already read it (a count-up
 * beside them showed 195,292 under a plaque claiming 200,000). */
export function celebrationCount(round: { total_win: number; win_capped?: boolean }): { to: number; still: boolean } {
  return { to: round.total_win, still: round.win_capped === true };
}

/** What a bonus won at a gamble (Cops n Robbers' bonus wheel) is measured against: the credits
 * the player gave up for it, never less than the round's stake. The bonus itself costs 0, but
 * it was bought with the win held before the step (`heldBefore`) less what the step kept and
 * paid besides the bonus (`paid` - `bonusWin`); a bonus paying 118 for 1,000 credits staked is a
 * loss of 882, not "BIG WIN 11x the bet". `paid` null (the round not settled yet): all of it. */
export function gambleBonusCost(stake: number, heldBefore: number, paid: number | null, bonusWin: number): number {
  const kept = paid === null ? 0 : Math.max(0, paid - bonusWin);
  return Math.max(stake, heldBefore - kept);
}

/** Whether a sound that celebrates (the win jingle, the tiers') may play for a round: never for
 * one whose total win does not exceed what it cost (GB RTS 7B, standards I5), wherever it is
 * played. Other sounds (reel stops, clicks) always may. */
export function maySound(celebrates: boolean, round: { total_win: number; bet: { cost: number } } | null): boolean {
  return !celebrates || round === null || round.total_win > round.bet.cost;
}

export function tierInfo(tier: WinTier): { title: string; ms: number; x: number } {
  return TIERS.find((t) => t.tier === tier) as (typeof TIERS)[number];
}

/** The lines under a celebration's amount: its money and its multiple of what the round cost
 * (`gambled`: of what was gambled for a bonus won at the gamble), and, where the spin that
 * triggered a feature paid besides the feature, the two apart (the gallery saw Cluedo's plaque
 * read FREE SPINS TOTAL 417 beside EPIC WIN 2,417, the 2,000 of the trigger spin unnamed). No
 * split where the spins do not sum to the total (a capped round). */
export function celebrationLines(round: { total_win: number; spins: readonly { kind: string; win: number }[] }, cost: number,
  money: string, gambled: boolean, credits: (n: number) => string): string[] {
  const lines = [`${money} · ${timesCost(round.total_win, cost)} ${gambled ? "what was gambled for it" : "the bet"}`];
  const base = round.spins.filter((s) => s.kind === "base").reduce((n, s) => n + s.win, 0);
  const feature = round.spins.filter((s) => s.kind !== "base");
  const won = feature.reduce((n, s) => n + s.win, 0);
  if (base > 0 && won > 0 && base + won === round.total_win) {
    lines.push(`${credits(base)} on the trigger spin + ${credits(won)} in ${feature.some((s) => s.kind === "bonus") ? "the bonus" : "free spins"}`);
  }
  return lines;
}
