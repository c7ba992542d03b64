// What the history page says of a round, without the DOM: the time in the player's zone, the
// status in words, the short round reference, the balance when the round ended.
import type { HistoryItem, RoundView } from "../../net/types";

/** A history item, with what contract 5 adds (the game's title, the balance when the round
 * ended) where the server sends it. */
export type Item = HistoryItem & { title?: string | null; balance_after_minor?: number | null; at_stake_minor?: number | null; banked_minor?: number | null; gamble_steps?: number | null };

const LIST_TIME: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" };
export const DETAIL_TIME: Intl.DateTimeFormatOptions = { ...LIST_TIME, timeZoneName: "short" };

/** The instant of `us` (microseconds since the epoch) in the browser's own time zone. */
export function localTime(us: number, options: Intl.DateTimeFormatOptions = LIST_TIME): string {
  return new Intl.DateTimeFormat(undefined, options).format(new Date(Math.floor(us / 1000)));
}

const STATUS: Record<string, string> = {
  closed: "Played", cancelled: "Cancelled", open: "In progress", debited: "In progress", outcome_committed: "In progress", credited: "In progress",
};

export function statusWords(status: string): string {
  return STATUS[status] ?? "In progress";
}

/** What an open round's win waiting on the player's choice (gamble or collect) stands at, in
 * minor units: still at stake, banked to the balance by the gamble so far, and whether any
 * gamble step was taken; null for any other round (its win, or "—" while none is known, says
 * it). From the history item's fields, or a round view's `pending_win_credits` (no banked
 * figure there: 0) and its steps. */
export interface Held { atStake: number; banked: number; gambled: boolean }

export function heldInGamble(item: Pick<Item, "at_stake_minor" | "banked_minor" | "gamble_steps"> | null, round?: Pick<RoundView, "status" | "pending_win_credits" | "denomination" | "choice"> & { steps?: unknown[] } | null): Held | null {
  if (item && typeof item.at_stake_minor === "number") {
    const banked = item.banked_minor ?? 0;
    // an older server sends no step count: a banked part is the only sign of a step then
    return { atStake: item.at_stake_minor, banked, gambled: typeof item.gamble_steps === "number" ? item.gamble_steps > 0 : banked > 0 };
  }
  if (round && round.status !== "closed" && round.status !== "cancelled" && round.choice && round.pending_win_credits > 0) return { atStake: round.pending_win_credits * round.denomination, banked: 0, gambled: (round.steps?.length ?? 0) > 0 };
  return null;
}

/** The words for a held win: a round stopped at the gamble OFFER was read by a new player as
 * gambled when it said "In gamble"; only a round with gamble steps taken is one. */
export function heldWords(held: Held): { status: string; label: string } {
  return held.gambled ? { status: "In gamble", label: "At stake in gamble" } : { status: "Win waiting", label: "Not collected yet" };
}

/** The first characters of a round id: enough to find it, short enough to read out. */
export function shortReference(id: string): string {
  return id.replace(/-/g, "").slice(0, 8);
}

/** The balance when the round ended: the history item's (contract 5), else the last movement
 * of the player's account in the round's ledger; null when neither says. */
export function balanceAfter(item: Pick<Item, "balance_after_minor"> | null, round: Pick<RoundView, "ledger"> | null): number | null {
  if (item && typeof item.balance_after_minor === "number") return item.balance_after_minor;
  const moves = (round?.ledger ?? []) as { account?: unknown; balance_after_minor?: unknown }[];
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i];
    if (m?.account === "player" && typeof m.balance_after_minor === "number") return m.balance_after_minor;
  }
  return null;
}

/** A feature a round had, as the list's badge says it: free spins (or a bonus's spins) in its
 * outcome, a gamble of its win (a step other than COLLECT), a jackpot paid from the pool. */
export type Feature = "free-spins" | "bonus" | "gamble" | "jackpot";

export const FEATURE_WORDS: Record<Feature, string> = { "free-spins": "Free spins", bonus: "Bonus", gamble: "Gamble", jackpot: "Jackpot" };

const collects = (choice: unknown) => choice === "collect" || (Array.isArray(choice) && choice[0] === "collect");

/** The features of a round, in the badges' order: from its list item alone (a jackpot, a held
 * win gambled), and from its view where it is read (its spins' kinds, its gamble steps, the
 * bonus a step won). */
export function featuresOf(item: Pick<Item, "jackpot_minor" | "at_stake_minor" | "banked_minor" | "gamble_steps"> | null, round?: Pick<RoundView, "outcome" | "steps"> | null): Feature[] {
  const spins = round?.outcome?.spins ?? [];
  const steps = round?.steps ?? [];
  const has: Record<Feature, boolean> = {
    "free-spins": spins.some((s) => s.kind === "free" || s.kind === "super"),
    bonus: spins.some((s) => s.kind === "bonus") || steps.some((s) => !!s.result?.bonus_outcome),
    gamble: steps.some((s) => s.kind === "gamble" && !collects(s.choice)) || !!heldInGamble(item)?.gambled,
    jackpot: typeof item?.jackpot_minor === "number" && item.jackpot_minor > 0,
  };
  return (Object.keys(FEATURE_WORDS) as Feature[]).filter((f) => has[f]);
}

/** Whether a round paid the player (its win, a jackpot, a win held at the gamble): its row is
 * drawn as a win, a round that paid nothing in plain ink. */
export function paidOut(item: Pick<Item, "win_minor" | "jackpot_minor" | "at_stake_minor" | "banked_minor" | "gamble_steps">): boolean {
  const held = heldInGamble(item);
  return (item.win_minor ?? 0) > 0 || (item.jackpot_minor ?? 0) > 0 || (held !== null && held.atStake + held.banked > 0);
}
