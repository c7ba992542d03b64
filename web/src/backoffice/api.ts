// The back office's calls: same-origin fetches that carry the staff cookie (HttpOnly: this
// script never sees the token). An error answer becomes an OfficeError with the server's code
// and sentence, shown as they are.

export const API = "/backoffice/api";
const TIMEOUT_MS = 15000;

export class OfficeError extends Error {
  constructor(readonly code: string, message: string, readonly status: number) {
    super(message);
  }
}

export interface Me { name: string; role: string; expires_at_us: number; may: string[] }
export interface MeterRow {
  day: string; operator: string; game: string; mode: string; currency: string; rounds: number;
  turnover_minor: number; wins_minor: number; hold_minor: number; rtp: number | null;
  gamble_rounds: number; gamble_staked_minor: number; gamble_won_minor: number; gamble_rtp: number | null;
  step_wagers: number; step_wagered_minor: number; funded_won_minor: number; house_net_minor: number;
  jackpot_wins: number; jackpot_paid_minor: number; voided_rounds: number;
}
export interface GameRow {
  operator: string; game: string; game_id: string; currency: string; jurisdiction: string;
  file_enabled: boolean; switch_enabled: boolean; enabled: boolean;
  switched_by: string | null; switched_at_us: number | null;
  status: "enabled" | "disabled" | "decommissioned"; available_since_us: number | null; decommissioned_at_us: number | null;
}
export interface PoolRow {
  pool: string; currency: string; amount_minor: number; seed_minor: number; contribution_bp: number; wins: number; enabled: boolean;
  ceiling_minor: number | null; overflow_minor: number; status: "enabled" | "disabled" | "decommissioned"; started_at_us: number;
  decommissioned_at_us: number | null; games: { operator: string; game: string; game_id: string; one_in_rounds: number | null }[];
}
/** The significant-events log (H4): audit rows of significant kinds, large wins, and the periods when no server process was up. */
export interface EventsView {
  events: { at_us: number; kind: string; chain: string; seq: number; payload: Record<string, unknown> }[];
  truncated: boolean;
  large_wins: { round_id: string; operator: string; player: string; game: string; currency: string; win_minor: number; x: number; at_us: number }[];
  unavailable: { from_us: number; to_us: number | null; seconds: number; ended_by: string }[];
}

export interface RtpRow {
  operator: string; game: string; mode: string; currency: string; rounds: number;
  turnover_minor: number; wins_minor: number; actual_rtp: number; theoretical_rtp: number | null;
  theoretical_source: string | null; round_sd: number | null; sd_source: string | null;
  effective_rounds: number; confidence: number; band: [number, number] | null; inside: boolean | null;
}

export interface HeldView {
  totals: { operator: string; currency: string; open_rounds: number; stakes_held_minor: number }[];
  rounds: { round_id: string; operator: string; player: string; game: string; status: string; currency: string; stake_minor: number; started_at_us: number }[];
}
export interface LargeWinsView {
  min_x: number;
  wins: { round_id: string; operator: string; player: string; game: string; currency: string; stake_minor: number; win_minor: number; x: number; at_us: number }[];
  jackpot_claims: { claim_id: number; round_id: string; pool: string; operator: string; player: string; game: string; currency: string; amount_minor: number; status: string; at_us: number }[];
}

export async function call<T>(method: string, path: string, body?: unknown, timeoutMs = TIMEOUT_MS): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const r = await fetch(API + path, {
      method, credentials: "same-origin", signal: controller.signal,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      const e = (data as { error?: { code?: string; message?: string } }).error ?? {};
      throw new OfficeError(e.code ?? "HTTP_" + r.status, e.message ?? `${method} ${path}: HTTP ${r.status}`, r.status);
    }
    return data as T;
  } catch (exc) {
    if (exc instanceof OfficeError) throw exc;
    throw new OfficeError("NETWORK", `${method} ${path}: the server did not answer (${String(exc)})`, 0);
  } finally {
    clearTimeout(timer);
  }
}

/** Today as a UTC day, YYYY-MM-DD: the server's meters count in UTC days. */
export function utcDay(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}
