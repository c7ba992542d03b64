// Candy Jar's win cycle after a round (until the next spin): each cluster (and jackpot) the
// round's last spin paid, lit on the grid it was paid on with its amount, one after another,
// under a line that names it and the round's total, the same figure as the WIN meter. The
// clusters pop and the grid tumbles on, so the grid left on show holds none of them: each is
// shown on its own grid again (the outcome's grid event before it). No Pixi: unit-tested on
// the fixtures. Amounts are the events', the spin's multiplier and the outcome's total.
import { formatCredits } from "../../core/money";
import type { Cell, Outcome } from "../../core/outcome";
import type { GameView } from "../../net/types";
import { clusterCells, symbolCells } from "../../slot/paylines";

export interface CandyWinShow {
  /** The grid the win was paid on (a tumble replaced it since, unless it is the last). */
  grid: string[][];
  /** Its cells on that grid. */
  cells: Cell[];
  /** The amount drawn on the cluster: the pay (times the spin's multiplier), in credits. */
  amount: string;
  /** In a player's words: "6 GRAPES pay 18 credits". */
  label: string;
}

export interface CandyWinCycle {
  wins: CandyWinShow[];
  /** The round's total win in credits: the outcome's `total_win`, else (a round shown up to
   * one of its spins) the sum of the spins' own wins, as the WIN meter shows it. */
  total: number;
}

/** A symbol's name for many of it, in capitals: PLUMS, STRAWBERRIES, GRAPES. */
export function manyOf(name: string): string {
  const up = name.toUpperCase();
  if (up.endsWith("S")) return up;
  if (/[^AEIOU]Y$/.test(up)) return `${up.slice(0, -1)}IES`;
  return `${up}S`;
}

/** A cluster's pay in a player's words, with its unit: "14 PLUMS pay 21 credits" (`paid` is the
 * figure, or the figure times the spin's multiplier: "21 x2 = 42"). The playtest read the old
 * "3 of 4: 14 x PLUM pays 21" as cryptic. */
export function clusterPays(size: number, name: string, paid: string): string {
  return `${size} ${manyOf(name)} pay ${paid} credits`;
}

/** The cycle of the round's last spin (free spins: the last free spin's), null when that spin
 * paid nothing. A cluster's cells are found as the handlers found them while it played: a
 * connected group of its size on its grid, not one shown before on that grid. */
export function candyWinCycle(outcome: Pick<Outcome, "spins"> & Partial<Pick<Outcome, "total_win">>, info: Pick<GameView["info"], "symbols">): CandyWinCycle | null {
  const spin = outcome.spins.at(-1);
  if (!spin) return null;
  const wilds = new Set(info.symbols.filter((s) => s.role === "wild").map((s) => s.id));
  const names = new Map(info.symbols.map((s) => [s.id, s.name]));
  const key = (g: Cell[]) => g.map(([c, r]) => `${c},${r}`).sort().join(" ");
  const times = spin.multiplier > 1 ? spin.multiplier : 1;
  const wins: CandyWinShow[] = [];
  let grid: string[][] = [];
  let used = new Set<string>();
  for (const e of spin.events) {
    if (e.type === "grid") {
      grid = e.symbols.map((col) => [...col]);
      used = new Set();
    } else if (e.type === "cluster_win") {
      const groups = clusterCells(grid, e.symbol, e.size, wilds);
      const cells = groups.find((g) => !used.has(key(g))) ?? groups[0] ?? symbolCells(grid, e.symbol);
      used.add(key(cells));
      const paid = times > 1 ? `${formatCredits(e.win)} x${times} = ${formatCredits(e.win * times)}` : formatCredits(e.win);
      wins.push({ grid, cells, amount: formatCredits(e.win * times), label: clusterPays(e.size, names.get(e.symbol) ?? e.symbol, paid) });
    } else if (e.type === "jackpot") {
      wins.push({ grid, cells: symbolCells(grid, e.jackpot), amount: formatCredits(e.win), label: `${e.jackpot} JACKPOT pays ${formatCredits(e.win)} credits` });
    }
  }
  if (!wins.length) return null;
  const total = outcome.total_win ?? outcome.spins.reduce((sum, s) => sum + s.win, 0);
  return { wins, total };
}

/** The line under the grid while win `i` of the cycle is lit: which win, what it paid, and the
 * round's total (the WIN meter's figure, with its money as `money` writes it). */
export function cycleLine(cycle: CandyWinCycle, i: number, money: (credits: number) => string = formatCredits): string {
  const w = cycle.wins[i];
  if (!w) return "";
  // which win of how many, after what it is ("cluster 3 of 4"; "win" where a jackpot is among them)
  const noun = cycle.wins.every((x) => / pay /.test(x.label)) ? "cluster" : "win";
  const which = cycle.wins.length > 1 ? ` · ${noun} ${i + 1} of ${cycle.wins.length}` : "";
  return `${w.label}${which} · TOTAL WIN ${money(cycle.total)}`;
}
