// The winning lines a finished slot keeps showing until the next spin: after a round's
// presentation (and while it waits at its gamble or collect choice, and after a reload) each
// winning line of the screen on show is drawn in turn, its marker lit and its cells
// highlighted, about WIN_CYCLE_MS each; with reduced motion they are drawn all at once, still.
// Over WIN_CYCLE_SUMMARY_OVER lines a summary ("20 winning lines pay 100") stands for them.
// Pure: the shell builds it from the outcome, the view draws it. Amounts are the server's.
import { formatCredits } from "./money";
import type { Cell, Outcome } from "./outcome";
import { lineCells, symbolCells, waysCells } from "../slot/paylines";

/** A game file's symbols as the cycle needs them: a ways win's cells take in the wilds, its
 * words the symbol's name. */
export interface CycleSymbol { id: string; name?: string; role?: string }

/** How long each winning line is shown in the cycle. */
export const WIN_CYCLE_MS = 1500;
/** More winning lines than this: a summary banner names them all at once. */
export const WIN_CYCLE_SUMMARY_OVER = 3;

export interface WinShow {
  /** The winning cells (the line's first `count` cells, or a scatter's every cell). */
  cells: Cell[];
  /** The payline's cell on every reel (a line win), else empty. */
  path: Cell[];
  /** The 1-based payline, or 0 (a scatter win). */
  line: number;
  /** In a player's words: "Line 7 pays 25". */
  label: string;
}

export interface WinCycle {
  wins: WinShow[];
  /** The banner over the cycle: the summary over WIN_CYCLE_SUMMARY_OVER lines, else null (each
   * line's own label is shown as it is drawn). */
  summary: string | null;
}

/** The wins of the screen left on show: the outcome's last spin's line, ways and scatter wins
 * (a round ending in free spins shows its last free spin's screen), and its cluster wins (named
 * only: they tumbled away). Null when it won nothing. */
export function winCycleOf(outcome: Pick<Outcome, "spins">, paylines: readonly (readonly number[])[], symbols: readonly CycleSymbol[] = []): WinCycle | null {
  const spin = outcome.spins.at(-1);
  if (!spin) return null;
  const screen = spin.events.filter((e) => e.type === "window" || e.type === "grid").at(-1);
  // after a tumble the winners have left the grid: their wins are named, no cell is lit
  const tumbled = screen?.type === "grid" && screen.tumble > 0;
  const wins: WinShow[] = [];
  let total = 0, lines = 0;
  const seen = new Map<number, number>(); // cluster wins so far per tumble
  for (const e of spin.events) {
    if (e.type === "line_win") {
      const full = paylines[e.line - 1]?.length ?? e.count;
      wins.push({ cells: lineCells(paylines, e.line, e.count), path: lineCells(paylines, e.line, full), line: e.line, label: `Line ${e.line} pays ${formatCredits(e.win)}` });
      total += e.win;
      lines++;
    } else if (e.type === "ways_win" && screen) {
      const wilds = new Set(symbols.filter((x) => x.role === "wild").map((x) => x.id));
      const name = symbols.find((x) => x.id === e.symbol)?.name || e.symbol;
      wins.push({ cells: tumbled ? [] : waysCells(screen.symbols, e.symbol, e.count, wilds), path: [], line: 0, label: `${name} on ${e.count} reels, ${e.ways} way${e.ways === 1 ? "" : "s"}, pays ${formatCredits(e.win)}` });
      total += e.win;
    } else if (e.type === "scatter_win" && screen) {
      // a symbol paid for its count anywhere (the anywhere family) is named, with the multiplier
      const known = symbols.find((x) => x.id === e.symbol);
      const label = !known || known.role === "scatter"
        ? `${e.count} scatters pay ${formatCredits(e.win)}`
        : `${e.count} ${known.name || e.symbol}${e.multiplier > 1 ? ` at x${e.multiplier}` : ""} pay ${formatCredits(e.win)}`;
      wins.push({ cells: tumbled ? [] : symbolCells(screen.symbols, e.symbol), path: [], line: 0, label });
      total += e.win;
    } else if (e.type === "cluster_win") {
      // a cluster game's wins always tumble away: named, with the grid multiplier paid at
      const name = symbols.find((x) => x.id === e.symbol)?.name || e.symbol;
      const k = (seen.get(e.tumble) ?? 0);
      seen.set(e.tumble, k + 1);
      const marks = spin.events.find((x) => x.type === "grid_multipliers" && x.tumble === e.tumble);
      const m = marks?.type === "grid_multipliers" ? marks.applied[k] ?? 1 : 1;
      wins.push({ cells: [], path: [], line: 0, label: `${e.size} ${name}${m > 1 ? ` at x${m}` : ""} pay ${formatCredits(e.win)}` });
      total += e.win;
    }
  }
  if (!wins.length) return null;
  const summary = wins.length > WIN_CYCLE_SUMMARY_OVER
    ? `${lines === wins.length ? `${lines} winning lines` : `${wins.length} wins`} pay ${formatCredits(total)}`
    : null;
  return { wins, summary };
}

/** Which win the cycle shows `elapsedMs` after it started. */
export function cycleIndex(elapsedMs: number, count: number, periodMs = WIN_CYCLE_MS): number {
  if (count <= 0) return -1;
  return Math.floor(Math.max(0, elapsedMs) / periodMs) % count;
}

/** Every win at once (reduced motion): all their cells, each line's path. */
export function allAtOnce(cycle: WinCycle): { cells: Cell[]; paths: Cell[][] } {
  const seen = new Set<string>();
  const cells: Cell[] = [];
  for (const w of cycle.wins) for (const c of w.cells) {
    const k = `${c[0]},${c[1]}`;
    if (!seen.has(k)) { seen.add(k); cells.push(c); }
  }
  return { cells, paths: cycle.wins.filter((w) => w.path.length).map((w) => w.path) };
}
