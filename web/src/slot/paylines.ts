// Which cells a win covers, from what the server sent and the game file's data (paylines).
// Presentation only: the amounts are the server's, never recomputed here.
import type { Cell } from "../core/outcome";

/** A line win of `count` symbols from the left on 1-based payline `line`. */
export function lineCells(paylines: readonly (readonly number[])[], line: number, count: number): Cell[] {
  const rows = paylines[line - 1];
  if (!rows) throw new Error(`line win on payline ${line}: the game has ${paylines.length} paylines`);
  return rows.slice(0, count).map((row, reel) => [reel, row] as Cell);
}

/** Every cell showing `symbol` (a scatter win). */
export function symbolCells(window: readonly (readonly string[])[], symbol: string): Cell[] {
  const cells: Cell[] = [];
  window.forEach((col, reel) => col.forEach((s, row) => { if (s === symbol) cells.push([reel, row]); }));
  return cells;
}

/** A ways win of `symbol` on reels 1..`count`: every cell of those reels showing it or a wild
 * (the wild's substitutions are the server's business: the amount is never recomputed here). */
export function waysCells(window: readonly (readonly string[])[], symbol: string, count: number, wilds: ReadonlySet<string>): Cell[] {
  const cells: Cell[] = [];
  window.slice(0, count).forEach((col, reel) => col.forEach((s, row) => { if (s === symbol || wilds.has(s)) cells.push([reel, row]); }));
  return cells;
}

/** The connected groups (up/down/left/right) of `symbol` or a wild, of exactly `size` cells,
 * containing at least one `symbol`: where a cluster win of that size is on the grid. */
export function clusterCells(grid: readonly (readonly string[])[], symbol: string, size: number, wilds: ReadonlySet<string>): Cell[][] {
  const seen = new Set<string>();
  const found: Cell[][] = [];
  const fits = (s: string | undefined) => s === symbol || (s !== undefined && wilds.has(s));
  grid.forEach((col, reel) => col.forEach((s, row) => {
    if (s !== symbol || seen.has(`${reel},${row}`)) return;
    const group: Cell[] = [];
    const local = new Set<string>([`${reel},${row}`]);
    const todo: Cell[] = [[reel, row]];
    while (todo.length) {
      const [r, w] = todo.pop() as Cell;
      group.push([r, w]);
      for (const [dr, dw] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
        const k = `${r + dr},${w + dw}`;
        if (!local.has(k) && fits(grid[r + dr]?.[w + dw])) { local.add(k); todo.push([r + dr, w + dw]); }
      }
    }
    for (const [r, w] of group) if (grid[r]?.[w] === symbol) seen.add(`${r},${w}`);
    if (group.length === size) found.push(group);
  }));
  return found;
}

/** Where the line markers beside the reels go: one order for both sides (so a number is on the
 * same level left and right), the lines grouped by the row they start on, then the row they end
 * on (a marker sits near its line's ends), then by number; evenly spaced down the window's
 * height, with a radius that leaves `gap` design px between neighbours. `ys[k]` is the centre
 * of `order[k]`'s marker (0 at the window's top). */
export function markerLayout(paylines: readonly (readonly number[])[], rows: number, cell: number, gap = 4): { order: number[]; ys: number[]; radius: number } {
  const order = paylines.map((_, i) => i + 1).sort((a, b) => {
    const la = paylines[a - 1]!, lb = paylines[b - 1]!;
    return (la[0]! - lb[0]!) || (la[la.length - 1]! - lb[lb.length - 1]!) || a - b;
  });
  const step = (rows * cell) / Math.max(1, order.length);
  const ys = order.map((_, k) => (k + 0.5) * step);
  const radius = Math.max(4, Math.min(cell * 0.12, (step - gap) / 2));
  return { order, ys, radius };
}
