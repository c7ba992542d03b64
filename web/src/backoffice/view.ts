// Pure formatting for the back office's tables: integer minor units to money text (core/money),
// an RTP to a percentage, a row to its cells. No DOM here, so the unit tests read it directly.
import { formatMoney, formatPercent } from "../core/money";
import type { MeterRow, RtpRow } from "./api";

export const METER_HEADINGS = ["Operator", "Game", "Mode", "Rounds", "Turnover", "Wins", "Hold", "RTP", "Gamble", "Balance wagers", "Jackpots paid", "Voided"];

/** A meter row's cells: the paytable's, then the gamble's and the balance wagers' apart (D5),
 * each as "staked → paid (rounds)", a dash where there were none. */
export function meterCells(row: MeterRow): string[] {
  const apart = (rounds: number, staked: number, paid: number) => rounds === 0 && staked === 0 && paid === 0 ? "—"
    : `${formatMoney(staked, row.currency)} → ${formatMoney(paid, row.currency)} (${rounds})`;
  return [row.operator, row.game, row.mode, String(row.rounds),
    formatMoney(row.turnover_minor, row.currency), formatMoney(row.wins_minor, row.currency),
    formatMoney(row.hold_minor, row.currency), row.rtp === null ? "—" : formatPercent(row.rtp),
    apart(row.gamble_rounds, row.gamble_staked_minor, row.gamble_won_minor),
    apart(row.step_wagers, row.step_wagered_minor, row.funded_won_minor),
    row.jackpot_wins === 0 ? "—" : `${formatMoney(row.jackpot_paid_minor, row.currency)} (${row.jackpot_wins})`,
    String(row.voided_rounds)];
}

/** Totals per currency (money of two currencies is never added). */
export function totals(rows: MeterRow[]): Map<string, { rounds: number; turnover: number; wins: number }> {
  const out = new Map<string, { rounds: number; turnover: number; wins: number }>();
  for (const r of rows) {
    const t = out.get(r.currency) ?? { rounds: 0, turnover: 0, wins: 0 };
    t.rounds += r.rounds; t.turnover += r.turnover_minor; t.wins += r.wins_minor;
    out.set(r.currency, t);
  }
  return out;
}

export const RTP_HEADINGS = ["Operator", "Game", "Mode", "Rounds", "Actual RTP", "Theoretical", "99% band", "Verdict"];

/** A row of the RTP report: the band as two percentages (its lower end at 0% at most: no game
 * returns less than nothing, whatever a normal approximation over few rounds says), the
 * verdict in words. */
export function rtpCells(row: RtpRow): string[] {
  const theory = row.theoretical_rtp === null ? "—" : `${formatPercent(row.theoretical_rtp)} (${row.theoretical_source})`;
  const band = row.band === null ? "—" : `${formatPercent(Math.max(0, row.band[0]))} to ${formatPercent(row.band[1])}`;
  const verdict = row.inside === null ? (row.theoretical_rtp === null ? "no figure" : "no SD: no band") : row.inside ? "inside" : "OUTSIDE";
  return [row.operator, row.game, row.mode, String(row.rounds), formatPercent(row.actual_rtp), theory, band, verdict];
}
