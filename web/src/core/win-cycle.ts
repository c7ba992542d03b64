// The winning lines a finished slot keeps showing until the next spin: after a round's
// presentation (and while it waits at its gamble or collect choice, and after a reload) each
// winning line of the screen on show is drawn in turn, its marker lit and its cells
// highlighted, about WIN_CYCLE_MS each; with reduced motion they are drawn all at once, still.
// Over WIN_CYCLE_SUMMARY_OVER lines a summary ("20 winning lines pay 100") stands for them.
// A tumbling, ways or pays-anywhere game's cycle lights each win on the screen it was paid on
// (a tumble replaced it since) and names the round's total, the WIN meter's figure, beside it
// ("9 Goblet at x12 pay 720 · TOTAL WIN 1,105"): the playtest read the last win against a
// larger WIN. Pure: the shell builds it from the outcome, the view draws it. Amounts are the
// server's.
import { formatCredits } from "./money";
import type { Cell, Outcome } from "./outcome";
import { clusterCells, lineCells, symbolCells, waysCells } from "../slot/paylines";

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
  /** The screen the win was paid on, where a tumble has replaced it since (its cells are on
   * it); absent: the screen left on show. */
  grid?: string[][];
}

export interface WinCycle {
  wins: WinShow[];
  /** The banner over the cycle: the summary over WIN_CYCLE_SUMMARY_OVER lines, else null (each
   * line's own label is shown as it is drawn). */
  summary: string | null;
  /** The round's total win in credits (the WIN meter's figure), named beside each win of a
   * tumbling, ways or pays-anywhere game: its outcome's `total_win`, else (a round shown up to
   * one of its spins) the sum of the spins' wins. Absent for a line game's cycle. */
  total?: number;
}

/** The wins of the screen left on show: the outcome's last spin's line, ways, scatter and
 * cluster wins (a round ending in free spins shows its last free spin's screen). A win paid on
 * a screen a tumble has replaced since carries that screen (`grid`), its cells on it. Null
 * when it won nothing. */
export function winCycleOf(outcome: Pick<Outcome, "spins"> & Partial<Pick<Outcome, "total_win">>, paylines: readonly (readonly number[])[], symbols: readonly CycleSymbol[] = []): WinCycle | null {
  const spin = outcome.spins.at(-1);
  if (!spin) return null;
  const last = spin.events.filter((e) => e.type === "window" || e.type === "grid").at(-1);
  const wilds = new Set(symbols.filter((x) => x.role === "wild").map((x) => x.id));
  const nameOf = (id: string) => symbols.find((x) => x.id === id)?.name || id;
  const key = (g: Cell[]) => g.map(([c, r]) => `${c},${r}`).sort().join(" ");
  const wins: WinShow[] = [];
  let total = 0, lines = 0;
  let screen: typeof last = undefined; // the screen each win was paid on: the last before it
  let used = new Set<string>(); // cluster cells lit so far on this screen
  const seen = new Map<number, number>(); // cluster wins so far per tumble
  const on = (cells: Cell[]): Pick<WinShow, "cells" | "grid"> =>
    screen && screen !== last ? { cells, grid: screen.symbols.map((col) => [...col]) } : { cells };
  for (const e of spin.events) {
    if (e.type === "window" || e.type === "grid") {
      screen = e;
      used = new Set();
    } else if (e.type === "line_win") {
      const full = paylines[e.line - 1]?.length ?? e.count;
      wins.push({ cells: lineCells(paylines, e.line, e.count), path: lineCells(paylines, e.line, full), line: e.line, label: `Line ${e.line} pays ${formatCredits(e.win)}` });
      total += e.win;
      lines++;
    } else if (e.type === "ways_win" && screen) {
      wins.push({ ...on(waysCells(screen.symbols, e.symbol, e.count, wilds)), path: [], line: 0, label: `${nameOf(e.symbol)} on ${e.count} reels, ${e.ways} way${e.ways === 1 ? "" : "s"}, pays ${formatCredits(e.win)}` });
      total += e.win;
    } else if (e.type === "scatter_win" && screen) {
      // a symbol paid for its count anywhere (the anywhere family) is named, with the multiplier
      const known = symbols.find((x) => x.id === e.symbol);
      // a named scatter in the words its caption said while it was paid (captions.ts: "2 x
      // Mystery Bonus pays 40"; the playtest then read "2 scatters pay 40", one symbol two ways)
      const label = !known || (known.role === "scatter" && !known.name)
        ? `${e.count} scatters pay ${formatCredits(e.win)}`
        : known.role === "scatter"
          ? `${e.count} x ${known.name}${e.multiplier > 1 ? ` (x${e.multiplier})` : ""} pays ${formatCredits(e.win)}`
          : `${e.count} ${known.name || e.symbol}${e.multiplier > 1 ? ` at x${e.multiplier}` : ""} pay ${formatCredits(e.win)}`;
      wins.push({ ...on(symbolCells(screen.symbols, e.symbol)), path: [], line: 0, label });
      total += e.win;
    } else if (e.type === "cluster_win") {
      // named with the grid multiplier it was paid at, lit on the grid it was paid on: a
      // connected group of its size (of its symbol and wilds) not lit before on that grid
      const k = (seen.get(e.tumble) ?? 0);
      seen.set(e.tumble, k + 1);
      const marks = spin.events.find((x) => x.type === "grid_multipliers" && x.tumble === e.tumble);
      const m = marks?.type === "grid_multipliers" ? marks.applied[k] ?? 1 : 1;
      const groups = screen ? clusterCells(screen.symbols, e.symbol, e.size, wilds) : [];
      const cells = groups.find((g) => !used.has(key(g))) ?? [];
      if (cells.length) used.add(key(cells));
      wins.push({ ...on(cells), path: [], line: 0, label: `${e.size} ${nameOf(e.symbol)}${m > 1 ? ` at x${m}` : ""} pay ${formatCredits(e.win)}` });
      total += e.win;
    }
  }
  if (!wins.length) return null;
  // a line game keeps its summary over three lines; the others name each win in turn beside
  // the round's total (what the WIN meter shows)
  if (lines < wins.length) {
    return { wins, summary: null, total: outcome.total_win ?? outcome.spins.reduce((sum, s) => sum + s.win, 0) };
  }
  const summary = wins.length > WIN_CYCLE_SUMMARY_OVER ? linesSummary(lines, total) : null;
  return { wins, summary };
}

/** Many winning lines named at once: "20 winning lines pay 100". */
export function linesSummary(lines: number, total: number): string {
  return `${lines} winning lines pay ${formatCredits(total)}`;
}

/** The words over the reels while win `i` of the cycle is lit (-1: all of them at once): its
 * label, which of how many it is, and the round's total where the cycle names one. */
export function cycleText(cycle: WinCycle, i: number): string {
  const all = i < 0 || cycle.wins.length === 1;
  const words = all ? cycle.wins.map((w) => w.label).join(" · ") : cycle.wins[i]?.label ?? "";
  const which = !all && cycle.wins.length > 1 ? `${i + 1} of ${cycle.wins.length}: ` : "";
  return cycle.total === undefined ? words : `${which}${words} · TOTAL WIN ${formatCredits(cycle.total)}`;
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
