// Autoplay's rules, apart from any screen: a number of rounds, a loss limit, a single-win
// limit and a stop on any feature, checked after each round from what the server answered.
// Only where the jurisdiction allows autoplay (never under GB: the shell offers none there).
import type { Outcome } from "./outcome";

export interface AutoplaySettings {
  rounds: number;
  /** Never bet a round that could take the balance more than this below where autoplay
   * started (minor units). */
  lossLimitMinor: number | null;
  /** Stop after a round that won at least this much (minor units). */
  winLimitMinor: number | null;
  stopOnFeature: boolean;
}

/** The rounds autoplay offers, and the one chosen when its panel first opens. */
export const ROUND_CHOICES = [5, 10, 25, 50, 100] as const;
export const DEFAULT_ROUNDS = 10;

/** The outcome flags of a feature the round started (free spins, super spins, a bonus or
 * hold-and-win, a jackpot). */
const FEATURE_FLAGS = new Set(["free_spins", "super_spins", "bonus", "jackpot"]);
/** Events that start a feature or pay a jackpot. Anything else is part of a plain spin, however
 * it looks: a wild or a cash symbol landing, a candy collected into a jar that is not full, a
 * random multiplier drawn after a win, the cash collected, a grid multiplier marked. */
const STARTS = new Set(["bonus", "trail", "parade", "free_spins_award", "free_spins_triggered", "extra_free_spins", "jackpot", "progressive_jackpot"]);

/** Whether a round started a feature ("Stop on any feature"): more than one spin (free spins, a
 * bonus, hold-and-win's respins), a feature's flag, an event that starts one, or the jars filled.
 * A gamble the round offers is not one: autoplay collects it and goes on, as it always has
 * (a choice it cannot collect, Spin Chance, stops it on its own). */
export function hadFeature(outcome: Outcome): boolean {
  if (outcome.spins.length > 1) return true;
  if ((outcome.flags ?? []).some((f) => FEATURE_FLAGS.has(f))) return true;
  return outcome.spins.some((s) => s.events.some((e) => STARTS.has(e.type) || (e.type === "jars" && e.triggered)));
}

/** Why autoplay cannot start now, in a player's words (the AUTO button's title while it is
 * off), or null: it needs a balance that pays one round at the bet (`stakeMinor`, Infinity where
 * the mode has no price at this bet). Below it the server would refuse every bet, and a Cops n
 * Robbers round there ends at a Spin Chance, a gamble autoplay never takes. */
export function autoplayRefusal(balanceMinor: number, stakeMinor: number, money: (minor: number) => string): string | null {
  if (!Number.isFinite(stakeMinor)) return "Autoplay: no bet at this stake and mode";
  if (balanceMinor >= stakeMinor) return null;
  return `Autoplay needs a balance of at least one bet (${money(stakeMinor)}): the balance is ${money(balanceMinor)}`;
}

/** The unit a limit is typed in: the game's meters' (Cluedo counts in credits, `denomination`
 * minor units each; the others in money, the currency's `decimals`). */
export type LimitUnit = { kind: "credits"; denomination: number } | { kind: "money"; decimals: number };

/** A limit as typed (`text`) in minor units, or null for none (empty, not a number, 0 or
 * less). Credits are whole: a fraction counts as the whole credit nearest it, at least one. */
export function limitMinor(text: string, unit: LimitUnit): number | null {
  const v = text.trim() === "" ? NaN : Number(text);
  if (!Number.isFinite(v) || v <= 0) return null;
  if (unit.kind === "credits") return Math.max(1, Math.round(v)) * unit.denomination;
  return Math.round(v * 10 ** unit.decimals);
}

export interface RoundResult {
  outcome: Outcome | null;
  winMinor: number;
  balanceMinor: number;
  /** What the next round would cost: autoplay stops before a bet that would pass the loss limit. */
  nextStakeMinor: number;
  /** The round stopped at a choice autoplay does not take (anything but collecting a win). */
  choiceLeft: boolean;
}

export class Autoplay {
  private left = 0;
  private startBalance = 0;
  private settings: AutoplaySettings | null = null;

  /** True from start to stop, through the last round's play and its collect. */
  get running(): boolean {
    return this.settings !== null;
  }

  /** Rounds not yet bet. */
  get remaining(): number {
    return this.running ? this.left : 0;
  }

  start(settings: AutoplaySettings, balanceMinor: number): void {
    if (!Number.isInteger(settings.rounds) || settings.rounds < 1) throw new Error(`autoplay: rounds must be a whole number from 1, not ${settings.rounds}`);
    this.settings = settings;
    this.left = settings.rounds;
    this.startBalance = balanceMinor;
  }

  stop(): void {
    this.settings = null;
    this.left = 0;
  }

  /** A round is about to be bet: one fewer left. */
  took(): void {
    if (this.running && this.left > 0) this.left -= 1;
  }

  /** After a round: why autoplay stops now, in a player's words ("" goes on; not running:
   * "not running"). */
  after(result: RoundResult): string {
    const s = this.settings;
    if (!s) return "not running";
    const reason = result.choiceLeft ? "a choice is waiting"
      : s.stopOnFeature && result.outcome && hadFeature(result.outcome) ? "a feature was played"
      : s.winLimitMinor !== null && result.winMinor >= s.winLimitMinor ? "the single-win limit was reached"
      : s.lossLimitMinor !== null && this.startBalance - result.balanceMinor + result.nextStakeMinor > s.lossLimitMinor ? "the loss limit was reached"
      : this.left <= 0 ? "all rounds played"
      : result.nextStakeMinor > result.balanceMinor ? "the balance cannot pay the next bet" : "";
    if (reason) this.stop();
    return reason;
  }
}
