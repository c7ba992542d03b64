// The Outcome the server sends (`reelforge schema outcome`, shipped here as
// outcome.schema.json): its types, and the check every outcome passes before it is shown.
// A round that does not match the schema is refused with the schema's complaint, never drawn.
import Ajv2020 from "ajv/dist/2020";
import schema from "./outcome.schema.json";

export type Cell = [reel: number, row: number];

export interface WindowEvent { type: "window"; symbols: string[][] }
export interface GridEvent { type: "grid"; tumble: number; refilled: number; symbols: string[][] }
export interface LineWinEvent { type: "line_win"; line: number; symbol: string; count: number; multiplier: number; win: number }
export interface WaysWinEvent { type: "ways_win"; symbol: string; count: number; ways: number; paid_ways: number; win: number }
export interface ScatterWinEvent { type: "scatter_win"; symbol: string; count: number; multiplier: number; win: number }
export interface ProgressiveJackpotEvent { type: "progressive_jackpot"; line: number; symbol: string; count: number }
export interface CashEvent { type: "cash"; reel: number; row: number; value: number }
export interface CollectionEvent { type: "collection"; collectors: number; values: number; multiplier: number; win: number }
export interface TrailEvent { type: "trail"; robber: number; cop: number; robbers: number; cops: number }
export interface ParadeEvent { type: "parade"; result: string; robber: number; cop: number }
export interface BonusEvent { type: "bonus"; trigger_count: number; start_multiplier: number }
export interface FreeSpinsAwardEvent { type: "free_spins_award"; trigger_count: number; spins_awarded: number; spins_requested: number; total_awarded: number }
export interface ClusterWinEvent { type: "cluster_win"; tumble: number; symbol: string; size: number; wilds: number; wild_multiplier: number; win: number }
export interface RandomMultiplierEvent { type: "random_multiplier"; tumble: number; value: number }
export interface WildsPlacedEvent { type: "wilds_placed"; count: number; golden_multiplier: number }
export interface JarsEvent { type: "jars"; wild: number; free_spins: number; jackpots: number; triggered: boolean }
export interface FreeSpinsTriggeredEvent { type: "free_spins_triggered"; modifiers: string[]; spins: number; extra_spins_at_start: number }
export interface ExtraFreeSpinsEvent { type: "extra_free_spins"; collected: number; spins_awarded: number; toward_super_spin: number; super_spins_awarded: number }
/** A cluster game's grid multipliers after a tumble's wins marked their cells: `applied`, the
 * multiplier each winning cluster of the tumble was paid at (its cluster_win events' order);
 * `cells` [reel][row]: 0 never won, 1 won once, else the cell's multiplier. */
export interface GridMultipliersEvent { type: "grid_multipliers"; tumble: number; applied: number[]; cells: number[][] }
export interface JackpotEvent { type: "jackpot"; jackpot: string; pays: number; multiplier: number; win: number }
/** The multiplier a wild in view drew (a line game's [wild_multipliers]). */
export interface WildMultiplierEvent { type: "wild_multiplier"; reel: number; row: number; value: number }
/** A reel filled by an expanding sticky wild in the free spins: every row shows `symbol`, the
 * reel's multiplier on this spin `value` (kept from its fill, or redrawn each spin); `held`: it was
 * wild before this spin (the window shows what landed). */
export interface StickyWildEvent { type: "sticky_wild"; reel: number; symbol: string; value: number; held: boolean }

export type OutcomeEvent =
  | WindowEvent | GridEvent | LineWinEvent | WaysWinEvent | ScatterWinEvent | ProgressiveJackpotEvent | CashEvent
  | CollectionEvent | TrailEvent | ParadeEvent | BonusEvent | FreeSpinsAwardEvent | ClusterWinEvent
  | RandomMultiplierEvent | WildsPlacedEvent | JarsEvent | FreeSpinsTriggeredEvent
  | ExtraFreeSpinsEvent | JackpotEvent | GridMultipliersEvent | WildMultiplierEvent | StickyWildEvent;

export type EventType = OutcomeEvent["type"];

export interface Spin {
  index: number;
  kind: "base" | "free" | "bonus" | "super";
  reel_set: string;
  multiplier: number;
  stops: number[];
  win: number;
  events: OutcomeEvent[];
}

export interface Outcome {
  schema_version: 1;
  game_id: string;
  game_sha256: string;
  seed: string | null;
  bet: { lines: number; bet_per_line: number; mode: string; denomination: number | null; stake: number; cost: number };
  total_win: number;
  win_capped: boolean;
  uncapped_win: number | null;
  breakdown: Record<string, number>;
  flags: string[];
  modifiers: string[];
  counters: { free_spins_played: number; super_spins_played: number; retriggers: number; bonus_spins: number };
  spins: Spin[];
}

export class OutcomeInvalid extends Error {
  constructor(readonly problems: string[]) {
    super(`the outcome does not match the outcome schema: ${problems.join("; ")}`);
    this.name = "OutcomeInvalid";
  }
}

// The schema's OpenAPI-style `discriminator` (with a `mapping`) is a hint Ajv does not read;
// dropped, each event still matches exactly one branch of its `oneOf` by its `type` const.
function withoutDiscriminator(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDiscriminator);
  if (node && typeof node === "object") {
    return Object.fromEntries(Object.entries(node).filter(([k]) => k !== "discriminator").map(([k, v]) => [k, withoutDiscriminator(v)]));
  }
  return node;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
const check = ajv.compile(withoutDiscriminator(schema) as object);

export const SCHEMA_VERSION: number = (schema as { properties: { schema_version: { const: number } } }).properties.schema_version.const;

/** The outcome, typed, if it matches the schema; otherwise OutcomeInvalid with every problem. */
export function validateOutcome(data: unknown): Outcome {
  if (check(data)) return data as unknown as Outcome;
  const problems = (check.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || "/"} ${e.message ?? "invalid"}`);
  throw new OutcomeInvalid(problems);
}
