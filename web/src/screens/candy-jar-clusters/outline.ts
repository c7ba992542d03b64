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
