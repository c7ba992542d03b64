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

/** The cell a cluster's amount is drawn on: one of its own cells, so the amount reads as the
 * cluster's (a playtest read amounts drawn beside the outline, on a grape or a strawberry, as
 * part of the win), and not a wild (`isWild`) where another cell will do (a playtest saw the
 * amount over the WILD it paid): of those, the one nearest the cluster's middle, then the
 * topmost, then the leftmost. Null for no cells. */
export function labelCell(cells: readonly Cell[], isWild: (cell: Cell) => boolean): Cell | null {
  if (!cells.length) return null;
  const cx = cells.reduce((a, [c]) => a + c, 0) / cells.length;
  const cy = cells.reduce((a, [, r]) => a + r, 0) / cells.length;
  const plain = cells.filter((x) => !isWild(x));
  const pool = plain.length ? plain : cells;
  const d = ([c, r]: Cell) => (c - cx) ** 2 + (r - cy) ** 2;
  return [...pool].sort((a, b) => d(a) - d(b) || a[1] - b[1] || a[0] - b[0])[0]!;
}
