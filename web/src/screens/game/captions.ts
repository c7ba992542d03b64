// A win's caption on the generic screens while it is paid, as a player's sentence: what won,
// how, and what it pays with its unit ("Line 1: 3 x Cherry pays 15 credits"; the playtest read
// "Line 1: 15" and "A: 1 way, 6" as riddles). Words only (no DOM): the handlers show them.
import { formatCredits } from "../../core/money";
import type { ClusterWinEvent, LineWinEvent, ScatterWinEvent, WaysWinEvent } from "../../core/outcome";

/** "1 credit", "1,250 credits". */
export function creditsSaid(credits: number): string {
  return `${formatCredits(credits)} credit${credits === 1 ? "" : "s"}`;
}

const times = (m: number) => (m > 1 ? ` (x${m})` : "");

/** `name`: the game file's name for a symbol id (as its tile shows it). */
export function lineCaption(e: LineWinEvent, name: (id: string) => string): string {
  return `Line ${e.line}: ${e.count} x ${name(e.symbol)}${times(e.multiplier)} pays ${creditsSaid(e.win)}`;
}

export function waysCaption(e: WaysWinEvent, name: (id: string) => string): string {
  return `Ways: ${name(e.symbol)} x${e.count}, ${e.ways} way${e.ways === 1 ? "" : "s"}, pays ${creditsSaid(e.win)}`;
}

/** A symbol paid for its count anywhere, at the multiplier applied (a free game's, a
 * pays-anywhere game's global one). */
export function scatterCaption(e: ScatterWinEvent, name: (id: string) => string): string {
  return `${e.count} x ${name(e.symbol)}${times(e.multiplier)} pays ${creditsSaid(e.win)}`;
}

/** `grid`: the grid multiplier the cluster was paid at (1: none). */
export function clusterCaption(e: ClusterWinEvent, name: (id: string) => string, grid: number): string {
  return `${e.size} x ${name(e.symbol)}${times(grid)} pays ${creditsSaid(e.win)}`;
}
