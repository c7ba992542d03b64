// What the server answers (src/reelforge/server/api/views.py; /openapi.json). Money fields are
// integers: `_minor` in the currency's minor units, `credits` in game credits.
import type { Outcome } from "../core/outcome";

export interface Jurisdiction {
  name: string;
  autoplay: boolean;
  turbo: boolean;
  min_round_interval_ms: number;
  max_stake_minor: number | null;
  jackpots: boolean;
  gamble: boolean;
  one_game_at_a_time: boolean;
}

export interface Offer {
  kind: string;
  amount: number;
  stake: number;
  denomination: number;
  limits: Record<string, unknown>;
  payback: string;
}

/** One wheel spin as the server plays it (views.py SpinOdds): a cash spin wins `target`
 * credits, a bonus is worth `price` credits; won with probability `chance`. Exact [num, den]. */
export interface SpinOdds {
  choice: (string | number)[];
  target: number | null;
  price: [number, number] | null;
  chance: [number, number];
}

export interface ChoiceView {
  active: string | null;
  state: Record<string, unknown> | null;
  choices: Record<string, unknown[]>;
  /** The wheel gamble's spins at each amount the amount arrows reach (key: the amount; the
   * highest is the amount at stake); null where no wheel is in play. */
  odds: Record<string, SpinOdds[]> | null;
}

export interface StepView {
  index: number;
  request_id: string;
  kind: string;
  choice: unknown;
  seed: string;
  result: Record<string, unknown>;
  created_at_us: number;
}

export type RoundStatus = "open" | "debited" | "outcome_committed" | "credited" | "closed" | "cancelled";

export interface RoundView {
  round_id: string;
  request_id: string;
  game: string;
  game_id: string;
  status: RoundStatus;
  currency: string;
  denomination: number;
  bet: { lines: number; bet_per_line: number; mode: string };
  stake_minor: number;
  win_minor: number | null;
  funded_by: string | null;
  outcome: Outcome | null;
  offers: Offer[];
  pending_win_credits: number;
  capped_from_minor: number | null;
  choice: ChoiceView | null;
  steps: StepView[];
  next_round_id: string | null;
  jackpot_claim: Record<string, unknown> | null;
  created_at_us: number;
  closed_at_us: number | null;
  balance_minor: number;
  ledger?: unknown[] | null;
}

export interface SessionView {
  player: string;
  operator: string;
  currency: string;
  balance_minor: number;
  in_play_minor: number;
  open_rounds: RoundView[];
  session: { id: number; started_at_us: number; expires_at_us: number; net_minor: number };
  jurisdiction: Jurisdiction;
  wallet: "ledger" | "seamless";
  demo: boolean; // play money (the operator's demo balance): labelled on the balance meter
}

export interface OpenedSession extends SessionView {
  session_token: string;
}

export interface BetOption {
  lines: number;
  bet_per_line: number;
  stake_credits: number;
  cost_minor: Record<string, number>;
  jackpot_eligible: boolean;
}

export interface PayRow {
  symbol: string;
  pays: [number, number][];
}

/** A run of help text: words, **bold** words, an amount in the game's currency (minor units)
 * or a fraction shown as a percentage; the page formats them. */
/** A help text's part: words, bold words, money (minor units), a percentage, or a multiple of
 * the bet (the maximum win, said by core/max-win.ts as every screen says it). */
export type HelpPart = string | { strong: string } | { minor: number } | { percent: number } | { times: number };
/** What the page draws itself, from the description, at the player's bet and currency. */
export type DrawnPart = "paytable" | "paylines" | "bets" | "gamble-setting" | "choice-timeout" | "win-cap" | "jackpot-meter" | "jurisdiction";
export type HelpBlock =
  | { kind: "p" | "h3"; parts: HelpPart[] }
  | { kind: "ul"; items: HelpPart[][] }
  | { kind: DrawnPart };
export interface HelpSection { id: string; title: string; blocks: HelpBlock[] }

export interface GameInfo {
  description: string;
  /** The information pages: the game's help file with its numbers filled in by the server
   * (server/services/help.py). */
  help: { sections: HelpSection[] };
  symbols: { id: string; name: string; role: string }[];
  /** A game's fixed jackpots (Candy Jar): candies collected and the multiple of the total bet. */
  jackpots?: { name: string; collect: number; pays_x: number }[];
  window: { reels: number; rows: number };
  /** `per: "way"`: a ways game's pays, coins per way by the reels from reel 1 it reaches;
   * `per: "count"`: a pays-anywhere game's, coins by the count of cells anywhere (steps). */
  pays: { unit: "bet_per_line" | "coin"; coins?: number; per?: "way" | "count"; table: PayRow[]; mixed?: { name: string; symbols: string[]; pays: [number, number][] }[] };
  scatters?: { symbol: string; counting: string; unit: string; pays: [number, number][] }[];
  wilds?: { symbol: string; multiplier: number; substitutes_all_but: string[] }[];
  paylines?: number[][];
  reel_sets?: Record<string, string[][]>;
  base_reel_set?: string;
  free_games?: { trigger: string; award: [number, number][]; max_total_spins: number; multiplier: number; reel_set: string };
  progressive_jackpot?: { symbol: string; count: number; line: number; requires_max_bet: boolean };
  min_cluster?: number;
  /** A ways game: the most ways of its window (rows ** reels). */
  ways?: number;
  /** Any family whose feature starts on a count of symbols other than through `free_games`
   * (hold-and-win: the prize symbol and the count that starts the respins). */
  feature_trigger?: { symbols: string[]; count: number };
  max_win_x?: number;
}

export interface GameView {
  key: string;
  game_id: string;
  title: string;
  family: string;
  currency: string;
  denomination: number;
  /** price: stakes per round, exact (2, or "5/4"); buy_spins > 0: a buy of the free spins */
  modes: { name: string; title: string; price: number | string; buy_spins?: number }[];
  bets: BetOption[];
  default_bet: { lines: number; bet_per_line: number } | null;
  gamble: string;
  win_cap_minor: number | null;
  jackpot: boolean;
  rtp: { mode: string; value: number; source: string; ci95: number | null }[];
  max_win: { credits: number; x: number; enforced: string };
  /** The operator's time after which a win held at a choice is collected (null: never). */
  choice_timeout_ms?: number | null;
  jurisdiction: Jurisdiction;
  enabled: boolean;
  info: GameInfo;
}

export interface HistoryItem {
  round_id: string;
  game: string;
  game_id: string;
  status: string;
  stake_minor: number;
  win_minor: number | null;
  currency: string;
  funded_by: string | null;
  created_at_us: number;
  closed_at_us: number | null;
  /** a jackpot the round won, paid apart from win_minor from the pool, and its claim's status */
  jackpot_minor?: number | null;
  jackpot_status?: string | null;
}

export interface HistoryView {
  rounds: HistoryItem[];
  next: string | null;
}

export interface VerifyView {
  round_id: string;
  matches: boolean;
  problems: string[];
  seed: string | null;
  game_id: string;
  game_sha256: string;
}

export interface MeterView {
  pool: string;
  currency: string;
  amount_minor: number;
  seed_minor: number;
  contribution_bp: number;
  wins: number;
  enabled: boolean;
  updated_at_us: number;
  ceiling_minor: number | null;
  overflow_minor: number;
}

export type StepChoice = string | (string | number)[];
