// The free spins' moments on the generic screens, read from the round alone: the intro when
// they start (triggered on the base spin, or bought: a buy mode's round opens on its award,
// trigger_count 0, before its first free spin's reels), and the outro with their total. The
// words are data here (no DOM), so the unit tests read them from real outcomes; the handlers
// show them as a moment (ui/moment.ts) over the reels.
import { formatCredits, formatMoney } from "../../core/money";
import type { FreeSpinsAwardEvent, FreeSpinsTriggeredEvent, Outcome, Spin } from "../../core/outcome";
import type { GameView } from "../../net/types";

/** What a moment says: its heading, an amount in credits (the outro's total), lines under it. */
export interface FeatureMoment {
  kind: "fs-intro" | "fs-outro" | "hw-intro" | "hw-collect";
  title: string;
  total?: number;
  lines: string[];
}

/** The money a round's credits are worth: the game's currency at the round's denomination
 * (absent where the screen has no currency to say, as in a unit test's fake game). */
export type Purse = Partial<Pick<GameView, "currency" | "denomination">>;

type Round = Pick<Outcome, "spins" | "bet">;

const KIND_NAMES: Record<Spin["kind"], string> = { base: "base", free: "free", bonus: "bonus", super: "super" };

function moneyOf(outcome: Round, purse: Purse): ((credits: number) => string) | null {
  const denomination = outcome.bet.denomination ?? purse.denomination;
  if (!purse.currency || !denomination) return null;
  return (credits) => formatMoney(credits * denomination, purse.currency as string);
}

/** Whether the round's free spins were bought: its first spin is a feature spin (no base spin
 * was played; the server's buy mode). */
export function isBought(outcome: Pick<Outcome, "spins">): boolean {
  const first = outcome.spins[0];
  return first !== undefined && first.kind !== "base";
}

/** The free spins awarded so far when `spin`'s reels land: the last running total of the awards
 * before it, its own award included where it comes before its reels (a bought round's first
 * spin opens on the award of the spins it bought). 0: none said yet. */
export function spinsAwardedAt(outcome: Pick<Outcome, "spins">, spin: Spin): number {
  let total = 0;
  for (const s of outcome.spins) {
    if (s.index > spin.index) break;
    for (const e of s.events) {
      if (s === spin && (e.type === "window" || e.type === "grid")) return total;
      if (e.type === "free_spins_award") total = e.total_awarded;
    }
  }
  return total;
}

/** The intro of the free spins at the event that starts them: the spins awarded, the free
 * spins' fixed multiplier where the game file has one, the modifiers drawn for them, and for a
 * bought round what it cost. Null where the event adds spins to free spins already under way
 * (a retrigger: said as added, not as a start). */
export function freeSpinsIntro(e: FreeSpinsAwardEvent | FreeSpinsTriggeredEvent, spin: Spin, outcome: Round,
  game: Pick<GameView, "info"> & Purse): FeatureMoment | null {
  const bought = isBought(outcome) && spin === outcome.spins[0] && e.type === "free_spins_award" && e.trigger_count === 0;
  if (spin.kind !== "base" && !bought) return null;
  const spins = e.type === "free_spins_award" ? e.spins_awarded : e.spins + e.extra_spins_at_start;
  const lines = [`${spins} FREE SPINS`];
  const times = game.info.free_games?.multiplier ?? 1;
  if (times > 1) lines.push(`ALL WINS x${times}`);
  if (e.type === "free_spins_triggered" && e.modifiers.length) lines.push(e.modifiers.join(" + ").toUpperCase());
  if (bought) {
    const money = moneyOf(outcome, game);
    const cost = `${formatCredits(outcome.bet.cost)} credits`;
    lines.push(`bought for ${money ? `${money(outcome.bet.cost)} (${cost})` : cost}`);
  }
  return { kind: "fs-intro", title: bought ? "FREE SPINS BOUGHT" : "FREE SPINS", lines };
}

/** The outro after the round's last feature spin: the feature's total (for a bought round
 * everything the round paid, which is all from the spins it bought), in how many spins, and for
 * a bought round against the price paid. Null where the round played no feature spin. */
export function freeSpinsOutro(outcome: Round & Pick<Outcome, "total_win">, purse: Purse = {}): FeatureMoment | null {
  const feature = outcome.spins.filter((s) => s.kind !== "base");
  if (!feature.length) return null;
  const bought = isBought(outcome);
  const total = bought ? outcome.total_win : feature.reduce((a, s) => a + s.win, 0);
  const money = moneyOf(outcome, purse);
  const noun = `${KIND_NAMES[feature[feature.length - 1]!.kind]} spin${feature.length === 1 ? "" : "s"}`;
  const count = `${feature.length} ${noun}`;
  const lines = [`${money ? `${money(total)} ` : ""}won in ${count}`];
  if (bought) {
    const cost = money ? money(outcome.bet.cost) : `${formatCredits(outcome.bet.cost)} credits`;
    lines.push(`for a price of ${cost}`);
  }
  return { kind: "fs-outro", title: `${noun.toUpperCase()} TOTAL`, total, lines };
}
