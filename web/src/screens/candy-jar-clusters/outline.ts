// Where a winning cluster's outline runs (no Pixi: unit-tested).
import type { Cell } from "../../core/outcome";

/** The outer edges of a cluster of `cells` (x1, y1, x2, y2 in px of cells of `size`): the
 * sides no cell of the cluster shares, so one line runs around the whole group. */
export function clusterEdges(cells: readonly Cell[], size: number): [number, number, number, number][] {
  const inSet = new Set(cells.map(([c, r]) => `${c},${r}`));
  const edges: [number, number, number, number][] = [];
  for (const [c, r] of cells) {
    const x = c * size, y = r * size;
    if (!inSet.has(`${c},${r - 1}`)) edges.push([x, y, x + size, y]);
    if (!inSet.has(`${c},${r + 1}`)) edges.push([x, y + size, x + size, y + size]);
    if (!inSet.has(`${c - 1},${r}`)) edges.push([x, y, x, y + size]);
    if (!inSet.has(`${c + 1},${r}`)) edges.push([x + size, y, x + size, y + size]);
  }
  return edges;
}

/** A cell's neighbours (column step, row step) and their preference for a label: above, below,
 * then the sides. */
const NEIGHBOURS: readonly (readonly [number, number, number])[] = [[0, -1, 0], [0, 1, 1], [-1, 0, 2], [1, 0, 2]];

/** The cell a cluster's amount is drawn on: beside the cluster, never on one of its cells
 * (a playtest saw the amount drawn over the WILD of the cluster it paid) nor on a cell of
 * another cluster lit with it (`avoid`): of the cells next to the cluster on the `cols` x
 * `rows` grid, the one nearest the cluster's middle, above before below before the sides.
 * Null when the cluster has no such neighbour (the caller falls back on its middle). */
export function labelCell(cells: readonly Cell[], cols: number, rows: number, avoid: readonly Cell[] = []): Cell | null {
  if (!cells.length) return null;
  const taken = new Set([...cells, ...avoid].map(([c, r]) => `${c},${r}`));
  const cx = cells.reduce((a, [c]) => a + c, 0) / cells.length;
  const cy = cells.reduce((a, [, r]) => a + r, 0) / cells.length;
  let best: { cell: Cell; d: number; side: number } | null = null;
  for (const [c, r] of cells) {
    for (const [dc, dr, side] of NEIGHBOURS) {
      const n: Cell = [c + dc, r + dr];
      if (n[0] < 0 || n[1] < 0 || n[0] >= cols || n[1] >= rows || taken.has(`${n[0]},${n[1]}`)) continue;
      const d = (n[0] - cx) ** 2 + (n[1] - cy) ** 2;
      const better = !best || d < best.d - 1e-9 || (d <= best.d + 1e-9 && (side < best.side || (side === best.side && (n[1] < best.cell[1] || (n[1] === best.cell[1] && n[0] < best.cell[0])))));
      if (better) best = { cell: n, d, side };
    }
  }
  return best?.cell ?? null;
}
